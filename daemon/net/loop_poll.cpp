#include "daemon/net/loop_poll.h"

#include <poll.h>
#include <vector>

namespace halma::daemon {

namespace {

bool socket_has_input(void* socket) {
    return zmq::socket_ref(zmq::from_handle, socket).get(zmq::sockopt::events) & ZMQ_POLLIN;
}

} // namespace

void poll_loop_items(std::span<zmq::pollitem_t> items, std::chrono::milliseconds timeout) {
    thread_local std::vector<pollfd> fds; // kept: the loop waits thousands of times a second
    fds.resize(items.size());
    bool ready = false;
    for (std::size_t i = 0; i < items.size(); ++i) {
        auto& item = items[i];
        item.revents = 0;
        if (item.socket) {
            // Asking for the events also takes in the commands that made ZMQ_FD readable, so
            // from here on the descriptor signals only what is new.
            if (socket_has_input(item.socket)) item.revents = ZMQ_POLLIN, ready = true;
            fds[i] = { zmq::socket_ref(zmq::from_handle, item.socket).get(zmq::sockopt::fd), POLLIN,
                0 };
        } else {
            fds[i] = { item.fd, POLLIN, 0 };
        }
    }
    int wait = ready ? 0 : static_cast<int>(timeout.count());
    if (poll(fds.data(), fds.size(), wait) < 0) throw zmq::error_t();
    for (std::size_t i = 0; i < items.size(); ++i) {
        auto& item = items[i];
        if (!(fds[i].revents & (POLLIN | POLLERR | POLLHUP))) continue;
        if (!item.socket)
            item.revents = ZMQ_POLLIN;
        else if (!item.revents && socket_has_input(item.socket))
            item.revents = ZMQ_POLLIN;
    }
}

} // namespace halma::daemon
