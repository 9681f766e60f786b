// Flushing hosted rooms' event logs to the disk, off the event loop. Every event is written to
// its log (into the kernel, which a crash of halmad cannot lose) before anyone hears of it; the
// fdatasync that makes it survive a power cut as well runs here, on a helper thread, because on
// a Raspberry Pi's SD card it can take tens of milliseconds, which every room would wait for.
// The thread talks to the loop only over an inproc PAIR socket.
#pragma once

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
    // Flushes the file open on `fd` (which the syncer takes and closes: pass a dup) to the disk;
    // a failure comes back with `label`.
    void sync(int fd, const std::string& label);
    // After the socket polled readable: a label whose flush failed, and why.
    std::optional<std::pair<std::string, std::string>> take_failure();

private:
    zmq::socket_t socket_;
    std::thread worker_;
};

} // namespace halma::daemon
