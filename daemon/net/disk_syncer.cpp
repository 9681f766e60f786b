#include "daemon/net/disk_syncer.h"

#include <cerrno>
#include <cstring>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace halma::daemon {

namespace {

constexpr const char* kEndpoint = "inproc://halmad-disk";

// Jobs are [fd as 4 bytes][label]; an empty message stops the thread. Failures come back as
// [label][0][reason].
void run_worker(zmq::socket_t pipe) {
    for (;;) {
        zmq::message_t msg;
        if (!pipe.recv(msg)) continue;
        if (msg.size() < sizeof(int)) return;
        int fd = -1;
        std::memcpy(&fd, msg.data(), sizeof fd);
        std::string label(static_cast<const char*>(msg.data()) + sizeof fd, msg.size() - sizeof fd);
        if (::fdatasync(fd) != 0) {
            std::string failure = label + '\0' + std::strerror(errno);
            spdlog::error("flushing {} to the disk failed: {}", label, std::strerror(errno));
            // Never blocks: at shutdown nobody reads these any more.
            (void)pipe.send(zmq::buffer(failure), zmq::send_flags::dontwait);
        }
        ::close(fd);
    }
}

} // namespace

DiskSyncer::DiskSyncer(zmq::context_t& context)
    : socket_(context, zmq::socket_type::pair) {
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(kEndpoint);
    // Connected before the thread starts, as BotPool does: a PAIR refuses to send until then.
    zmq::socket_t pipe(context, zmq::socket_type::pair);
    pipe.connect(kEndpoint);
    worker_ = std::thread(run_worker, std::move(pipe));
}

DiskSyncer::~DiskSyncer() {
    // The jobs still queued are done first: a clean stop leaves every event on the disk.
    socket_.send(zmq::message_t(), zmq::send_flags::none);
    worker_.join();
}

void DiskSyncer::sync(int fd, const std::string& label) {
    if (fd < 0) return;
    std::string job(sizeof fd, '\0');
    std::memcpy(job.data(), &fd, sizeof fd);
    job += label;
    // Blocking only when a thousand flushes are queued: then the disk, not the loop, is the
    // bottleneck, and waiting is the honest thing to do.
    socket_.send(zmq::buffer(job), zmq::send_flags::none);
}

std::optional<std::pair<std::string, std::string>> DiskSyncer::take_failure() {
    zmq::message_t msg;
    if (!socket_.recv(msg, zmq::recv_flags::dontwait)) return std::nullopt;
    std::string text = msg.to_string();
    auto nul = text.find('\0');
    if (nul == std::string::npos) return std::pair { text, std::string("unknown error") };
    return std::pair { text.substr(0, nul), text.substr(nul + 1) };
}

} // namespace halma::daemon
