// What ZeroMQ does not tell a socket's owner by itself: that a connect was refused. A DEALER to
// a host whose port has nobody listening retries quietly for ever; a user joining there must be
// told at once, not when the request's deadline passes.
#pragma once

#include <cstdint>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

class SocketMonitor {
public:
    // `events`: ZMQ_EVENT_* bits to report.
    SocketMonitor(zmq::context_t& context, zmq::socket_t& watched, int events);
    // The events reported since last asked, oldest first; never waits.
    std::vector<std::uint16_t> take();

private:
    zmq::socket_t pair_;
};

} // namespace halma::daemon
