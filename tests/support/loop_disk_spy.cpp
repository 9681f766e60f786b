// LD_PRELOAD into halmad: notes every flush to the disk (fsync, fdatasync, syncfs) it makes,
// "loop" or "helper" (the main thread, the event loop, or another), the call and the file, in
// the file named by HALMA_LOOP_DISK_SPY. The loop must never wait for the disk (issue 11), and
// what it writes must still reach the disk, on the helper: tests read the notes made after the
// daemon started. Each call then goes on to the real function.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace {

template <class F> F real(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

void note(const char* call, int fd) {
    const char* thread = gettid() == getpid() ? "loop" : "helper";
    const char* out = std::getenv("HALMA_LOOP_DISK_SPY");
    if (!out) return;
    char path[4096] = "?";
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    ssize_t n = readlink(link.c_str(), path, sizeof path - 1);
    path[n > 0 ? n : 1] = '\0';
    // O_APPEND and one write: whole lines even if the daemon forks.
    int log = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (log < 0) return;
    std::string line = std::string(thread) + " " + call + " " + path + "\n";
    if (write(log, line.data(), line.size()) < 0) { }
    close(log);
}

} // namespace

extern "C" {

int fsync(int fd) {
    note("fsync", fd);
    return real<int (*)(int)>("fsync")(fd);
}

int fdatasync(int fd) {
    note("fdatasync", fd);
    return real<int (*)(int)>("fdatasync")(fd);
}

int syncfs(int fd) {
    note("syncfs", fd);
    return real<int (*)(int)>("syncfs")(fd);
}

} // extern "C"
