// The descriptors the event loop only reads now and then (the quiet sockets' ZMQ_FDs, the signal
// descriptor), gathered in one epoll set that the loop polls as a single item. poll(2) costs per
// descriptor on every call (a lookup, a readiness check, and while it waits, a wait-queue entry
// made and torn down), and the loop polls twice on each wake-up: with a dozen descriptors of
// which one at most speaks, that was a third of a joined daemon's poll time per move
// (bench_daemon, perf). The set is level-triggered, so a descriptor is reported exactly when
// poll(2) would have reported it.
#pragma once

#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

class QuietDescriptors {
public:
    QuietDescriptors(); // throws std::system_error if epoll is unavailable
    ~QuietDescriptors();
    QuietDescriptors(const QuietDescriptors&) = delete;
    QuietDescriptors& operator=(const QuietDescriptors&) = delete;

    // At most this many descriptors, so that one epoll_wait reports every ready one.
    static constexpr int kCapacity = 32;

    // Watches fd for input; throws std::system_error if the kernel refuses or the set is full.
    void add(int fd);
    // The set as one item for zmq::poll.
    zmq::pollitem_t item() const { return { nullptr, epoll_fd_, ZMQ_POLLIN, 0 }; }
    // After a poll, given this item's revents: learns which descriptors have input.
    void collect(short revents);
    // ZMQ_POLLIN if fd had input at the last collect(), else 0: what poll(2) would have said.
    short revents(int fd) const;

private:
    int epoll_fd_;
    int watched_ = 0;
    std::vector<int> ready_;
};

} // namespace halma::daemon
