// The few ways the daemon uses ZeroMQ sockets, in one place: options every socket gets and
// sending one protobuf message as one frame without ever blocking the loop.
#pragma once

#include <google/protobuf/message_lite.h>
#include <string>
#include <string_view>
#include <zmq.hpp>

namespace halma::daemon {

// ZeroMQ's I/O thread (started with the context's first socket) runs at SCHED_BATCH, so it does
// not preempt the loop when the loop hands it a message. A move goes to every peer and front end
// in turn, and each hand-off woke the I/O thread: preempting the loop at each one bounced the
// core between the two threads once per message (7 switches a move on a host of six players;
// docs/scaling.md). Batched, the I/O thread runs on a free core at once, or else when the loop
// has queued the whole fan-out and sleeps. ZeroMQ aborts if it cannot set the policy, so this
// first tries it on a throwaway thread (a seccomp filter may forbid it, and a real-time policy
// inherited from chrt or systemd cannot be turned into it) and leaves the inherited policy
// then; returns whether it was set.
bool batch_io_thread(zmq::context_t& context);

// Linger 0 (never hang on exit), a bound on what a sender can make us read, and ZMTP
// heartbeats (heartbeat_ms 0: none), which close a TCP connection whose other end has vanished.
void tune_socket(zmq::socket_t& socket, std::size_t max_read, int heartbeat_ms, int timeout_ms);

// One frame; false when it could not be queued now (high-water mark, peer gone).
bool send_message(zmq::socket_t& socket, const google::protobuf::MessageLite& message);
// [routing id][message] on a ROUTER, or [routing id][][message] for a REQ peer, which waits
// for the empty delimiter frame; false when it could not be queued now or the peer is gone.
bool send_routed(zmq::socket_t& router, const std::string& routing_id,
    const google::protobuf::MessageLite& message, bool req_envelope = false);
bool send_routed(zmq::socket_t& router, const std::string& routing_id, std::string_view payload,
    bool req_envelope = false);

} // namespace halma::daemon
