// The host's ZAP handler (ZeroMQ's authentication protocol, RFC 27): libzmq asks it about each
// CURVE handshake on the peer port. Without one, a CURVE server takes any client key without a
// word; with it the daemon decides, and learns the client's key: it becomes the User-Id of every
// message on that connection, which is what a seat token is bound to (host_service.cpp).
// It is a REP socket on inproc://zeromq.zap.01, polled by the daemon's one loop like the others.
#pragma once

#include <string>
#include <zmq.hpp>

namespace halma::daemon {

class ZapHandler {
public:
    // Binds the handler: before the host's ROUTER binds, so that no handshake goes unasked.
    explicit ZapHandler(zmq::context_t& context);
    zmq::socket_t& socket() { return socket_; }
    // Answers every request waiting.
    void on_readable();
    std::uint64_t accepted() const { return accepted_; }

private:
    zmq::socket_t socket_;
    std::uint64_t accepted_ = 0;
};

// The ZAP domain the host's ROUTER names (with ZMQ_ZAP_ENFORCE_DOMAIN: no handler, no handshake).
inline constexpr const char* kZapDomain = "halma";

} // namespace halma::daemon
