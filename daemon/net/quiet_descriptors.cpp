#include "daemon/net/quiet_descriptors.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <sys/epoll.h>
#include <system_error>
#include <unistd.h>

namespace halma::daemon {

QuietDescriptors::QuietDescriptors()
    : epoll_fd_(epoll_create1(EPOLL_CLOEXEC)) {
    if (epoll_fd_ < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
}

QuietDescriptors::~QuietDescriptors() {
    close(epoll_fd_);
}

void QuietDescriptors::add(int fd) {
    if (watched_ == kCapacity)
        throw std::system_error(EMFILE, std::generic_category(), "the loop's quiet descriptors");
    epoll_event event {};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0)
        throw std::system_error(errno, std::generic_category(), "epoll_ctl");
    ++watched_;
}

void QuietDescriptors::collect(short revents) {
    ready_.clear();
    if (!(revents & ZMQ_POLLIN)) return;
    std::array<epoll_event, kCapacity> events;
    int n = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), 0);
    for (int i = 0; i < n; ++i)
        if (events[static_cast<std::size_t>(i)].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
            ready_.push_back(events[static_cast<std::size_t>(i)].data.fd);
}

short QuietDescriptors::revents(int fd) const {
    return std::find(ready_.begin(), ready_.end(), fd) != ready_.end() ? ZMQ_POLLIN : 0;
}

} // namespace halma::daemon
