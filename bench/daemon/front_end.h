// A front end on one halmad's local API, as the bench drives it: a DEALER for requests (replies
// matched by id) and, separately, a DEALER subscribed to the daemon's events, so a reply and
// an event never wait behind each other in the bench.
#pragma once

#include "halma/v1/api.pb.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <zmq.hpp>

namespace halma::bench {

namespace pb = ::halma::v1;
using Clock = std::chrono::steady_clock;

class FrontEnd {
public:
    FrontEnd(zmq::context_t& context, const std::string& api_endpoint);

    // Sends the request with a fresh id; returns the id.
    std::uint64_t send(pb::Request request);
    // Sends and waits for the matching reply (other replies are dropped); throws on timeout.
    pb::Reply call(
        pb::Request request, std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // As call, but throws with the daemon's message when the reply is an error.
    pb::Reply ok(pb::Request request, const char* what);
    pb::RoomView view();

    // Subscribes the event socket to every room (waits for the daemon's Done).
    void subscribe();
    // One pushed event if one is waiting (never blocks); false if none.
    bool next_event(pb::Event& out);
    // One reply on the request socket if one is waiting (never blocks).
    bool next_reply(pb::Reply& out);

    zmq::socket_t& requests() { return requests_; }
    zmq::socket_t& events() { return events_; }
    std::size_t last_event_bytes() const { return last_event_bytes_; }

private:
    zmq::socket_t requests_;
    zmq::socket_t events_;
    std::uint64_t next_id_ = 1;
    std::size_t last_event_bytes_ = 0;
};

} // namespace halma::bench
