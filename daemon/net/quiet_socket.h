// A ZeroMQ socket the event loop reads (a connection monitor, the ZAP handler, the key-probe
// port, the disk helper's failures, the bots' moves), polled by its descriptor rather than as a
// ZeroMQ item. The loop asks every ZeroMQ item for its events on each wake-up (loop_poll.h), a
// poll and a getpid system call each when nothing is queued: with ten sockets, under zmq_poll
// (which asks before and after it waits) that was forty-odd system calls on every wake-up, most
// of what a daemon spent per move beyond a plain relay's work (bench_daemon, strace -c). Polled
// by descriptor (in the loop's epoll set, quiet_descriptors.h), a quiet socket costs nothing
// until it speaks.
//
// The descriptor (ZMQ_FD) is edge-triggered: it says something changed, not that a message
// waits. So after it signals, the socket's ZMQ_EVENTS decides, and when its handler stops at its
// batch bound with input left, the socket stays `pending`: the loop must not sleep, and serves it
// again on the next pass, as a level-triggered item would have been.
// The rule that keeps this true: every receive and send on a quiet socket happens inside
// serve()'s handler, before it reads ZMQ_EVENTS again (a send elsewhere could take in the
// signal of a message arriving, and the descriptor would not signal it again).
#pragma once

#include <zmq.hpp>

namespace halma::daemon {

class QuietSocket {
public:
    explicit QuietSocket(zmq::socket_t& socket)
        : socket_(socket)
        , fd_(socket.get(zmq::sockopt::fd)) { }

    zmq::fd_t fd() const { return fd_; }
    // Input was left after the last pass: the loop's next wait must not block.
    bool pending() const { return pending_; }

    // After a poll, given this item's revents: runs `handle` (which reads a bounded batch) if
    // the descriptor signalled or input was left, then notes whether input is left still.
    template <class Handle> void serve(short revents, Handle&& handle) {
        if (!(revents & ZMQ_POLLIN) && !pending_) return;
        if (has_input()) handle();
        pending_ = has_input();
    }

private:
    bool has_input() const { return socket_.get(zmq::sockopt::events) & ZMQ_POLLIN; }

    zmq::socket_t& socket_;
    zmq::fd_t fd_;
    // True at first: whatever arrived before the first poll may have signalled already.
    bool pending_ = true;
};

} // namespace halma::daemon
