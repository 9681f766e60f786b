// Flushing hosted rooms' event logs to the disk, off the event loop. Every event is written to
// its log (into the kernel, which a crash of halmad cannot lose) before anyone hears of it; the
// fdatasync that makes it survive a power cut as well runs here, on a helper thread, because on
// a Raspberry Pi's SD card it can take tens of milliseconds, which every room would wait for.
// Jobs wait in a map keyed by room: a room already waiting for its flush needs no second one
// (the flush covers everything written before it starts), so a chat flood queues one
// descriptor, not thousands. Failures come back to the loop over an inproc PAIR socket.
#pragma once

#include <condition_variable>
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
    // At most this many descriptors wait for the helper; past it the loop flushes itself.
    static constexpr std::size_t kMaxQueued = 16;

    // Flushes the file open on `fd` (not taken: the syncer duplicates it when it must keep it) to
    // the disk, on the helper thread; a failure comes back with `label`. When kMaxQueued other
    // rooms are waiting, flushes here and now instead (the disk is the bottleneck then, and
    // waiting for it is the honest thing to do) and returns the failure, if any.
    std::optional<std::string> sync(int fd, const std::string& label);
    // Descriptors waiting now (for tests and the log).
    std::size_t queued() const;
    // After the socket polled readable: a label whose flush failed, and why.
    std::optional<std::pair<std::string, std::string>> take_failure();

private:
    void run(zmq::socket_t pipe);

    zmq::socket_t socket_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::string, int> pending_; // label -> a duplicate descriptor to flush
    bool stopping_ = false;
    std::thread worker_;
};

} // namespace halma::daemon
