// Keeps a flood of TCP connections to the peer port from taking every file descriptor: libzmq
// accepts on its own I/O thread with no limit, and when descriptors run out its ipc listener (the
// local API) aborts the daemon on EMFILE. A socket monitor on the host's ROUTER reports each
// accepted and closed connection; past the cap a new connection is shut down at once, so there is
// always room left for the local API, the disk and the daemon's own links to other hosts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <zmq.hpp>

namespace halma::daemon {

// Raises the soft RLIMIT_NOFILE to the hard limit and returns the soft limit now in force.
std::size_t raise_descriptor_limit();

// How many peer connections a daemon with `descriptors` open files allows: the rest is kept
// for the local API, the disk, outgoing links and the burst libzmq accepts before the cap bites.
std::size_t peer_connection_cap(std::size_t descriptors);

// How many of those one machine (one source address) may hold: a quarter, at least 16 (128
// under the usual 1024 files). One laptop held all 512 with idle connections, and then nobody
// could join, list rooms or come back after a restart (a red-team QA pass).
std::size_t peer_connections_per_machine(std::size_t cap);

// How many rooms' logs a host with `descriptors` open files keeps open between writes: an
// eighth of them (128 under the usual 1024, 1024 under the service's 8192), so a host of a few
// hundred busy rooms opens no file per move, and the peers' half is never touched.
std::size_t open_logs_cap(std::size_t descriptors);

class PeerConnGuard {
public:
    // Watches `router`, which listens on `port`; `name` tells guards of several listeners apart.
    // Past `cap` connections, or past `per_machine` from one source address, a new one is shed.
    PeerConnGuard(zmq::context_t& context, zmq::socket_t& router, std::size_t cap,
        const std::string& name = "host", std::size_t per_machine = 0);
    zmq::socket_t& socket() { return monitor_; }
    // After the monitor polled readable: counts, and sheds the connections past the cap.
    void on_readable();
    void set_port(std::uint16_t port) { port_ = port; }
    std::size_t connections() const { return open_.size(); }
    std::size_t cap() const { return cap_; }
    std::size_t per_machine() const { return per_machine_; }
    std::uint64_t shed() const { return shed_; }

private:
    void shed_connection(int fd, const std::string& address);
    void forget(std::map<int, std::string>::iterator it);

    zmq::socket_t monitor_;
    std::size_t cap_;
    std::size_t per_machine_; // 0: no bound but cap_
    std::uint16_t port_ = 0;
    std::map<int, std::string> open_; // accepted connections not yet closed: where from
    std::unordered_map<std::string, std::size_t> from_; // how many open from each address
    std::uint64_t shed_ = 0;
    bool warned_ = false;
};

} // namespace halma::daemon
