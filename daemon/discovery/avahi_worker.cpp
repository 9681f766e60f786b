#include "daemon/discovery/avahi_worker.h"

#include "daemon/discovery/avahi_session.h"

#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace halma::daemon {

namespace {

constexpr const char* kEndpoint = "inproc://halmad-avahi";

void poke(int fd) {
    std::uint64_t one = 1;
    (void)!write(fd, &one, sizeof one);
}

} // namespace

AvahiWorker::AvahiWorker(zmq::context_t& context, std::vector<std::string> interfaces)
    : shared_(std::make_shared<AvahiShared>())
    , socket_(context, zmq::socket_type::pair) {
    shared_->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(kEndpoint);
    zmq::socket_t pipe(context, zmq::socket_type::pair);
    pipe.set(zmq::sockopt::linger, 0);
    pipe.connect(kEndpoint);
    thread_ = std::thread(
        [shared = shared_, interfaces = std::move(interfaces), pipe = std::move(pipe)]() mutable {
            AvahiSession session(*shared, std::move(interfaces), std::move(pipe));
            session.run();
        });
}

AvahiWorker::~AvahiWorker() {
    {
        std::lock_guard lock(shared_->mutex);
        shared_->quit = true;
    }
    poke(shared_->wake_fd);
    // The session frees its entry groups on the way out: avahi withdraws the services (goodbye
    // packets), so the rooms leave the others' lists at once rather than when their TTL runs out.
    thread_.join();
    close(shared_->wake_fd);
}

void AvahiWorker::publish(std::vector<Publication> wanted) {
    {
        std::lock_guard lock(shared_->mutex);
        shared_->wanted = std::move(wanted);
        shared_->wanted_changed = true;
    }
    poke(shared_->wake_fd);
}

std::optional<DiscoveryNews> AvahiWorker::take_news() {
    zmq::message_t msg;
    while (socket_.recv(msg, zmq::recv_flags::dontwait)) { }
    std::lock_guard lock(shared_->mutex);
    if (!shared_->news_changed) return std::nullopt;
    shared_->news_changed = false;
    return shared_->news;
}

} // namespace halma::daemon
