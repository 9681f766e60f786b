#include "daemon/trust/zap_handler.h"

#include <spdlog/spdlog.h>
#include <vector>
#include <zmq.h>
#include <zmq_addon.hpp>

namespace halma::daemon {

namespace {

constexpr int kDrainBatch = 256;

void reply(zmq::socket_t& socket, const std::string& request_id, const char* status,
    const char* text, const std::string& user_id) {
    std::vector<zmq::const_buffer> frames { zmq::str_buffer("1.0"), zmq::buffer(request_id),
        zmq::buffer(std::string_view(status)), zmq::buffer(std::string_view(text)),
        zmq::buffer(user_id), zmq::str_buffer("") };
    zmq::send_multipart(socket, frames); // inproc to libzmq itself: never blocks long
}

} // namespace

ZapHandler::ZapHandler(zmq::context_t& context)
    : socket_(context, zmq::socket_type::rep) {
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind("inproc://zeromq.zap.01");
}

void ZapHandler::on_readable() {
    for (int i = 0; i < kDrainBatch; ++i) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait))
            break;
        // version, request id, domain, address, routing id, mechanism, credentials...
        if (frames.size() < 6) {
            spdlog::error("ZAP: a request of {} frames", frames.size());
            reply(socket_, frames.size() > 1 ? frames[1].to_string() : "", "500",
                "malformed request", "");
            continue;
        }
        std::string request_id = frames[1].to_string();
        std::string address = frames[3].to_string();
        std::string mechanism = frames[5].to_string();
        // Players are anonymous (a seat is its token), so any key may connect; what matters is
        // that the key is known, and that nothing but CURVE gets in.
        if (mechanism != "CURVE" || frames.size() != 7 || frames[6].size() != 32) {
            spdlog::warn(
                "peer {}: refused a {} handshake: only CURVE is spoken here", address, mechanism);
            reply(socket_, request_id, "400", "CURVE only", "");
            continue;
        }
        char z85[41] = {};
        zmq_z85_encode(z85, frames[6].data<std::uint8_t>(), 32);
        ++accepted_;
        reply(socket_, request_id, "200", "OK", z85);
    }
}

} // namespace halma::daemon
