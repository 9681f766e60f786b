// Keeps a flood of TCP connections to the peer port from taking every file descriptor: libzmq
// accepts on its own I/O thread with no limit, and when descriptors run out its ipc listener (the
// local API) aborts the daemon on EMFILE. A socket monitor on the host's ROUTER reports each
// accepted and closed connection; past the cap a new connection is shut down at once, so there is
// always room left for the local API, the disk and the daemon's own links to other hosts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <zmq.hpp>

namespace halma::daemon {

// Raises the soft RLIMIT_NOFILE to the hard limit and returns the soft limit now in force.
std::size_t raise_descriptor_limit();

// How many peer connections a daemon with `descriptors` open files allows: the rest is kept
// for the local API, the disk, outgoing links and the burst libzmq accepts before the cap bites.
std::size_t peer_connection_cap(std::size_t descriptors);

// How many rooms' logs a host with `descriptors` open files keeps open between writes: an
// eighth of them (128 under the usual 1024, 1024 under the service's 8192), so a host of a few
// hundred busy rooms opens no file per move, and the peers' half is never touched.
std::size_t open_logs_cap(std::size_t descriptors);

class PeerConnGuard {
public:
    // Watches `router`, which listens on `port`; `name` tells guards of several listeners apart.
    PeerConnGuard(zmq::context_t& context, zmq::socket_t& router, std::size_t cap,
        const std::string& name = "host");
    zmq::socket_t& socket() { return monitor_; }
    // After the monitor polled readable: counts, and sheds the connections past the cap.
    void on_readable();
    void set_port(std::uint16_t port) { port_ = port; }
    std::size_t connections() const { return open_.size(); }
    std::size_t cap() const { return cap_; }
    std::uint64_t shed() const { return shed_; }

private:
    void shed_connection(int fd);

    zmq::socket_t monitor_;
    std::size_t cap_;
    std::uint16_t port_ = 0;
    std::set<int> open_; // descriptors of accepted connections not yet closed
    std::uint64_t shed_ = 0;
    bool warned_ = false;
};

} // namespace halma::daemon
