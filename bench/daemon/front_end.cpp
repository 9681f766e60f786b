#include "front_end.h"

#include <stdexcept>

namespace halma::bench {

namespace {

zmq::socket_t dealer(zmq::context_t& context, const std::string& endpoint) {
    zmq::socket_t s(context, zmq::socket_type::dealer);
    s.set(zmq::sockopt::linger, 0);
    s.connect(endpoint);
    return s;
}

bool receive(zmq::socket_t& socket, pb::Reply& out, std::size_t* bytes = nullptr) {
    zmq::message_t frame;
    if (!socket.recv(frame, zmq::recv_flags::dontwait)) return false;
    if (!out.ParseFromArray(frame.data(), static_cast<int>(frame.size())))
        throw std::runtime_error("a reply that does not parse as halma.v1.Reply");
    if (bytes) *bytes = frame.size();
    return true;
}

} // namespace

FrontEnd::FrontEnd(zmq::context_t& context, const std::string& api_endpoint)
    : requests_(dealer(context, api_endpoint))
    , events_(dealer(context, api_endpoint)) { }

std::uint64_t FrontEnd::send(pb::Request request) {
    std::uint64_t id = next_id_++;
    request.set_version(1);
    request.set_request_id(id);
    std::string payload = request.SerializeAsString();
    requests_.send(zmq::buffer(payload), zmq::send_flags::none);
    return id;
}

pb::Reply FrontEnd::call(pb::Request request, std::chrono::milliseconds timeout) {
    std::uint64_t id = send(std::move(request));
    auto until = Clock::now() + timeout;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        if (left.count() <= 0) throw std::runtime_error("no reply from the daemon in time");
        zmq::pollitem_t item { requests_.handle(), 0, ZMQ_POLLIN, 0 };
        zmq::poll(&item, 1, left);
        pb::Reply reply;
        while (receive(requests_, reply))
            if (reply.request_id() == id) return reply;
    }
}

pb::Reply FrontEnd::ok(pb::Request request, const char* what) {
    pb::Reply reply = call(std::move(request));
    if (reply.has_error())
        throw std::runtime_error(std::string(what) + " refused: " + reply.error().message());
    return reply;
}

pb::RoomView FrontEnd::view() {
    pb::Request request;
    request.mutable_view();
    return ok(std::move(request), "view").view();
}

void FrontEnd::subscribe() {
    pb::Request request;
    request.set_version(1);
    request.set_request_id(1);
    request.mutable_subscribe();
    std::string payload = request.SerializeAsString();
    events_.send(zmq::buffer(payload), zmq::send_flags::none);
    zmq::pollitem_t item { events_.handle(), 0, ZMQ_POLLIN, 0 };
    auto until = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < until) {
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        pb::Reply reply;
        while (receive(events_, reply)) {
            if (reply.has_error())
                throw std::runtime_error("subscribe refused: " + reply.error().message());
            if (reply.has_done()) return;
        }
    }
    throw std::runtime_error("no answer to subscribe in time");
}

bool FrontEnd::next_event(pb::Event& out) {
    pb::Reply reply;
    std::size_t bytes = 0;
    while (receive(events_, reply, &bytes)) {
        if (!reply.has_event()) continue;
        out = std::move(*reply.mutable_event());
        last_event_bytes_ = bytes;
        return true;
    }
    return false;
}

bool FrontEnd::next_reply(pb::Reply& out) {
    return receive(requests_, out);
}

} // namespace halma::bench
