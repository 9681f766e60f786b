// The bench's child processes (halmad, and itself in a baseline role): started with
// PR_SET_PDEATHSIG so none outlives the bench however it ends, and always reaped. Also what
// /proc says about a process: CPU time and resident memory.
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace halma::bench {

class Children {
public:
    Children() = default;
    Children(const Children&) = delete;
    Children& operator=(const Children&) = delete;
    // SIGTERM, a bounded wait, then SIGKILL for whatever is still running.
    ~Children();

    // Starts argv[0] with stdout and stderr into `log` (appended); throws on failure.
    pid_t spawn(const std::vector<std::string>& argv, const std::filesystem::path& log);
    // True while the child has not exited (reaps it if it has).
    bool running(pid_t pid);
    void stop_all();

private:
    std::vector<pid_t> pids_;
};

struct ProcSample {
    std::uint64_t cpu_ns = 0; // time on a CPU, all threads (schedstat: finer than utime+stime)
    std::uint64_t switches = 0; // context switches, voluntary or not, all threads: wake-ups
    std::uint64_t rss_kb = 0; // VmRSS
    std::uint64_t hwm_kb = 0; // VmHWM: peak resident
};

// Throws std::runtime_error when the process is gone.
ProcSample sample_process(pid_t pid);

// The last lines of a log file (for an error message: the bench's directory does not outlive it).
std::string log_tail(const std::filesystem::path& log, int lines = 15);

// An unused TCP port on 127.0.0.1 whose neighbour (a daemon's key-probe port) is unused too
// (bound and released: another program could take them first).
int free_port();

// A fresh private directory under $TMPDIR or /tmp, removed by the destructor.
class TempDir {
public:
    explicit TempDir(const std::string& prefix);
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Waits (polling every few ms) until `done` returns true or `timeout` passes; false on timeout.
template <class F> bool wait_for(std::chrono::milliseconds timeout, F&& done) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        struct timespec ts {
            0, 5'000'000
        };
        nanosleep(&ts, nullptr);
    }
    return true;
}

} // namespace halma::bench
