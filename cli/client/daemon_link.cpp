#include "cli/client/daemon_link.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace halma::cli {

namespace {

std::string monitor_address() {
    // One process may watch several connections (a picker's, then play's).
    static std::atomic<int> next { 0 };
    return "inproc://halma-daemon-link-" + std::to_string(next++);
}

} // namespace

bool nothing_listens(const std::string& socket_path) {
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    if (socket_path.size() >= sizeof address.sun_path) return false; // ZeroMQ will say
    socket_path.copy(address.sun_path, socket_path.size());
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    bool refused = connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0
        && errno == ECONNREFUSED;
    close(fd);
    return refused;
}

DaemonLink::DaemonLink(DaemonConnection& daemon)
    : daemon_(daemon)
    , monitor_(daemon.context(), zmq::socket_type::pair) {
    auto address = monitor_address();
    // CONNECTED rather than HANDSHAKE_SUCCEEDED: halmad binds its socket only once it is ready
    // to read it, and a request sent at once waits in the socket until it does.
    zmq_socket_monitor(
        daemon_.socket().handle(), address.c_str(), ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED);
    monitor_.set(zmq::sockopt::linger, 0);
    monitor_.connect(address);
}

DaemonLink::~DaemonLink() {
    zmq_socket_monitor(daemon_.socket().handle(), nullptr, 0);
}

DaemonLink::Change DaemonLink::take() {
    bool dropped = false;
    zmq::message_t frame;
    while (monitor_.recv(frame, zmq::recv_flags::dontwait)) {
        std::uint16_t event = 0;
        if (frame.size() >= sizeof event) std::memcpy(&event, frame.data(), sizeof event);
        while (frame.more() && monitor_.recv(frame, zmq::recv_flags::dontwait)) { }
        if (event == ZMQ_EVENT_DISCONNECTED) {
            up_ = false;
            dropped = true;
        } else if (event == ZMQ_EVENT_CONNECTED) {
            up_ = true;
        }
    }
    if (!up_) {
        if (reported_lost_) return Change::kNone;
        reported_lost_ = true;
        return Change::kLost;
    }
    // Gone and back between two calls counts too: it may be another daemon now.
    if (reported_lost_ || dropped) {
        reported_lost_ = false;
        return Change::kBack;
    }
    return Change::kNone;
}

} // namespace halma::cli
