#include "daemon/net/socket_monitor.h"

#include <atomic>
#include <cstring>
#include <string>

namespace halma::daemon {

SocketMonitor::SocketMonitor(zmq::context_t& context, zmq::socket_t& watched, int events)
    : pair_(context, zmq::socket_type::pair) {
    static std::atomic<unsigned> next { 0 };
    std::string address = "inproc://halmad-monitor-" + std::to_string(next++);
    zmq_socket_monitor(watched.handle(), address.c_str(), events);
    pair_.set(zmq::sockopt::linger, 0);
    pair_.connect(address);
}

std::vector<std::uint16_t> SocketMonitor::take() {
    std::vector<std::uint16_t> events;
    zmq::message_t frame;
    while (pair_.recv(frame, zmq::recv_flags::dontwait)) {
        std::uint16_t event = 0;
        if (frame.size() >= sizeof event) std::memcpy(&event, frame.data(), sizeof event);
        // The second frame names the endpoint: one socket, one endpoint here.
        while (frame.more() && pair_.recv(frame, zmq::recv_flags::dontwait)) { }
        events.push_back(event);
    }
    return events;
}

} // namespace halma::daemon
