#include "daemon/net/peer_conn_guard.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <netinet/in.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <zmq_addon.hpp>

namespace halma::daemon {

namespace {

constexpr int kDrainBatch = 1024; // events read per wake-up

// The local port of a TCP socket, 0 if `fd` is not one (any more).
std::uint16_t local_tcp_port(int fd) {
    sockaddr_storage addr {};
    socklen_t len = sizeof addr;
    int type = 0;
    socklen_t type_len = sizeof type;
    if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_STREAM)
        return 0;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
    if (addr.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    return 0;
}

// Where a TCP connection comes from: "192.168.1.20" (an IPv4 peer of a dual-stack listener
// too), "fe80::1"; "" if `fd` is not a connected socket (any more).
std::string remote_address(int fd) {
    sockaddr_storage addr {};
    socklen_t len = sizeof addr;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "";
    char text[INET6_ADDRSTRLEN] = "";
    if (addr.ss_family == AF_INET) {
        ::inet_ntop(
            AF_INET, &reinterpret_cast<const sockaddr_in*>(&addr)->sin_addr, text, sizeof text);
    } else if (addr.ss_family == AF_INET6) {
        const auto& in6 = reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(&in6))
            ::inet_ntop(AF_INET, &in6.s6_addr[12], text, sizeof text);
        else
            ::inet_ntop(AF_INET6, &in6, text, sizeof text);
    }
    return text;
}

} // namespace

std::size_t raise_descriptor_limit() {
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        rlim_t was = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &limit) == 0)
            spdlog::debug("open files: soft limit raised from {} to {}", was, limit.rlim_cur);
        else
            ::getrlimit(RLIMIT_NOFILE, &limit);
    }
    // select()-free code, but libzmq and the kernel are happier with a sane number.
    return static_cast<std::size_t>(std::min<rlim_t>(limit.rlim_cur, 1u << 20));
}

std::size_t peer_connection_cap(std::size_t descriptors) {
    // Half the descriptors are kept back: libzmq accepts on its own thread while the loop is
    // still counting, so a burst overshoots the cap before the first shed. A LAN game never needs
    // more than a few dozen peers; 4096 is plenty for a busy standing-room host.
    return std::clamp<std::size_t>(descriptors / 2, 16, 4096);
}

std::size_t peer_connections_per_machine(std::size_t cap) {
    return std::max<std::size_t>(cap / 4, 16);
}

std::size_t open_logs_cap(std::size_t descriptors) {
    return std::clamp<std::size_t>(descriptors / 8, 16, 1024);
}

PeerConnGuard::PeerConnGuard(zmq::context_t& context, zmq::socket_t& router, std::size_t cap,
    const std::string& name, std::size_t per_machine)
    : monitor_(context, zmq::socket_type::pair)
    , cap_(cap)
    , per_machine_(per_machine) {
    std::string endpoint = "inproc://halmad-" + name + "-monitor";
    if (zmq_socket_monitor(router.handle(), endpoint.c_str(),
            ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_CLOSED)
        != 0)
        throw zmq::error_t();
    monitor_.set(zmq::sockopt::linger, 0);
    monitor_.connect(endpoint);
}

void PeerConnGuard::on_readable() {
    for (int i = 0; i < kDrainBatch; ++i) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(monitor_, std::back_inserter(frames), zmq::recv_flags::dontwait))
            break;
        if (frames.empty() || frames[0].size() < 6) continue;
        std::uint16_t event = 0;
        std::uint32_t value = 0;
        std::memcpy(&event, frames[0].data(), sizeof event);
        std::memcpy(&value, static_cast<const char*>(frames[0].data()) + 2, sizeof value);
        int fd = static_cast<int>(value);
        if (event == ZMQ_EVENT_ACCEPTED) {
            std::string address = per_machine_ > 0 ? remote_address(fd) : std::string();
            if (auto old = open_.find(fd); old != open_.end()) forget(old); // a missed close
            open_.emplace(fd, address);
            std::size_t from_there = ++from_[address];
            if (open_.size() > cap_ || (per_machine_ > 0 && from_there > per_machine_))
                shed_connection(fd, address);
        } else if (auto it = open_.find(fd); it != open_.end()) {
            forget(it); // a listener's own close names a descriptor never counted
        }
    }
}

void PeerConnGuard::forget(std::map<int, std::string>::iterator it) {
    if (auto from = from_.find(it->second); from != from_.end() && --from->second == 0)
        from_.erase(from);
    open_.erase(it);
}

void PeerConnGuard::shed_connection(int fd, const std::string& address) {
    // The event is a little behind libzmq's thread: the descriptor may have been closed and
    // reused since. Shut it down only if it is still a TCP connection on the peer port (then it
    // is one past the cap, whichever it is); never the local API's or a file's.
    if (port_ == 0 || local_tcp_port(fd) != port_) return;
    // libzmq sees the error on its next read, closes the connection and reports it: then it
    // leaves the count.
    ::shutdown(fd, SHUT_RDWR);
    ++shed_;
    if (!warned_ || shed_ % 1000 == 0) {
        auto from_there = from_.find(address);
        if (open_.size() <= cap_ && from_there != from_.end())
            spdlog::warn("peer port: {} connections from {} (at most {} from one machine): "
                         "shedding its new ones ({} so far)",
                from_there->second, address.empty() ? "an unknown address" : address, per_machine_,
                shed_);
        else
            spdlog::warn("peer port: {} connections open, cap {}: shedding new ones ({} so far)",
                open_.size(), cap_, shed_);
    }
    warned_ = true;
}

} // namespace halma::daemon
