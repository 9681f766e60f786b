#include "daemon/net/disk_syncer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace halma::daemon {

namespace {

constexpr const char* kEndpoint = "inproc://halmad-disk";

} // namespace

// Failures go back as [label][0][reason].
void DiskSyncer::run(zmq::socket_t pipe) {
    for (;;) {
        std::map<std::string, int> jobs;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
            // The jobs still queued are done first: a clean stop leaves every event on the disk.
            if (pending_.empty()) return;
            jobs.swap(pending_);
        }
        for (auto& [label, fd] : jobs) {
            if (::fdatasync(fd) != 0) {
                std::string failure = label + '\0' + std::strerror(errno);
                spdlog::error("flushing {} to the disk failed: {}", label, std::strerror(errno));
                // Never blocks: at shutdown nobody reads these any more.
                (void)pipe.send(zmq::buffer(failure), zmq::send_flags::dontwait);
            }
            ::close(fd);
        }
    }
}

DiskSyncer::DiskSyncer(zmq::context_t& context)
    : socket_(context, zmq::socket_type::pair) {
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(kEndpoint);
    // Connected before the thread starts, as BotPool does: a PAIR refuses to send until then.
    zmq::socket_t pipe(context, zmq::socket_type::pair);
    pipe.connect(kEndpoint);
    worker_ = std::thread([this, p = std::move(pipe)]() mutable { run(std::move(p)); });
}

DiskSyncer::~DiskSyncer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
}

std::optional<std::string> DiskSyncer::sync(int fd, const std::string& label) {
    if (fd < 0) return std::nullopt;
    {
        std::lock_guard lock(mutex_);
        if (pending_.count(label)) return std::nullopt; // its flush has not started: it covers this
        if (pending_.size() < kMaxQueued) {
            int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (copy >= 0) {
                pending_.emplace(label, copy);
                wake_.notify_one();
                return std::nullopt;
            }
            // No descriptor to spare: flush here instead.
        }
    }
    if (::fdatasync(fd) != 0) return std::string(std::strerror(errno));
    return std::nullopt;
}

std::size_t DiskSyncer::queued() const {
    std::lock_guard lock(mutex_);
    return pending_.size();
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
