// Flushing hosted rooms' files to the disk, off the event loop. Every event is written to its
// log (into the kernel, which a crash of halmad cannot lose) before anyone hears of it, and so is
// a new room's config and a changed members file; the fsync that makes them survive a power cut
// as well runs here, on a helper thread, because on a Raspberry Pi's SD card it can take tens of
// milliseconds, which every room would wait for. The loop never waits for the disk.
// Jobs wait in a map keyed by path: a file already waiting for its flush needs no second one
// (the flush covers everything written before it starts), so a chat flood queues one job, not
// thousands, and the queue holds at most one job per file. The helper opens the file when its
// turn comes, so it flushes the file at that path now (a log rewritten meanwhile included).
// Failures come back to the loop over an inproc PAIR socket.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <zmq.hpp>

namespace halma::daemon {

class DiskSyncer {
public:
    explicit DiskSyncer(zmq::context_t& context);
    ~DiskSyncer();
    DiskSyncer(const DiskSyncer&) = delete;
    DiskSyncer& operator=(const DiskSyncer&) = delete;

    // The loop's end of the pipe, to poll for failures.
    zmq::socket_t& socket() { return socket_; }
    // Flushes the file (or directory) at `path` to the disk, on the helper thread; a failure
    // comes back with `label`. A path that is gone by then (its room closed) is not a failure.
    void sync(const std::filesystem::path& path, const std::string& label);
    // Files waiting now (for tests and the log).
    std::size_t queued() const;
    // After the socket polled readable: a label whose flush failed, and why.
    std::optional<std::pair<std::string, std::string>> take_failure();

private:
    void run(zmq::socket_t pipe);

    zmq::socket_t socket_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::filesystem::path, std::string> pending_; // path -> label
    bool stopping_ = false;
    std::thread worker_;
};

} // namespace halma::daemon
