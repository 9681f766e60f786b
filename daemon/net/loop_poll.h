// The event loop's wait: zmq_poll's contract for input (each item's revents set; ZeroMQ sockets
// by their events, other descriptors by poll(2)) with fewer system calls per wake-up. Only
// ZMQ_POLLIN is reported: an error or hang-up on a descriptor reads as input too, so its handler
// runs and meets it (the loop asks for nothing else). zmq_poll asks
// every ZeroMQ socket for its events (a getpid and a poll system call each, when nothing is
// queued) both before it waits and after, and polls twice. Here each socket is asked once before
// the wait, and after it only the sockets whose descriptor signalled: ZMQ_FD only signals when
// commands reach the socket, so one that was idle before the wait and did not signal is idle
// still. On a joined daemon that is five fewer system calls per wake-up (bench_daemon).
#pragma once

#include <chrono>
#include <span>
#include <zmq.hpp>

namespace halma::daemon {

// Waits until an item has input (ZMQ_POLLIN only) or `timeout` passes (negative: no limit), and
// sets every item's revents. It may also return early with no revents set, when a socket's
// descriptor signalled a command that brought no input (a peer connecting, say): zmq_poll would
// wait on, the loop just runs a pass and waits again. Throws zmq::error_t as zmq::poll does.
void poll_loop_items(std::span<zmq::pollitem_t> items, std::chrono::milliseconds timeout);

} // namespace halma::daemon
