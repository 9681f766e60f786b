#include "daemon/trust/key_probe.h"

#include "daemon/net/zmq_util.h"
#include "daemon/trust/host_key.h"
#include "daemon/wire/frames.h"

#include <spdlog/spdlog.h>
#include <vector>
#include <zmq_addon.hpp>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

constexpr int kDrainBatch = 256;
constexpr std::size_t kMaxProbe = 256; // a probe is a few bytes: more is not one

} // namespace

KeyProbeListener::KeyProbeListener(
    zmq::context_t& context, std::string public_key, int handshake_ms)
    : socket_(context, zmq::socket_type::router)
    , public_key_(std::move(public_key)) {
    tune_socket(socket_, kMaxProbe, 0, 0);
    socket_.set(zmq::sockopt::ipv6, 1);
    socket_.set(zmq::sockopt::sndhwm, 4);
    // A connection to this port has nothing to wait for: one probe, one answer.
    socket_.set(zmq::sockopt::handshake_ivl, handshake_ms);
}

void KeyProbeListener::bind(const std::string& endpoint) {
    socket_.bind(endpoint);
    bound_ = socket_.get(zmq::sockopt::last_endpoint);
}

void KeyProbeListener::unbind() {
    if (bound_.empty()) return;
    socket_.unbind(bound_);
    bound_.clear();
}

void KeyProbeListener::on_readable() {
    for (int i = 0; i < kDrainBatch; ++i) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait))
            break;
        if (frames.size() != 2) continue;
        pb::PeerMessage probe;
        if (!probe.ParseFromArray(frames[1].data(), static_cast<int>(frames[1].size()))
            || !probe.has_key_probe())
            continue; // this port answers probes and nothing else
        pb::HostMessage answer;
        answer.set_version(wire::kProtocolVersion);
        answer.set_request_id(probe.request_id());
        answer.mutable_host_key()->set_curve_key(public_key_);
        send_routed(socket_, frames[0].to_string(), answer);
    }
}

std::string key_probe_endpoint(const std::string& endpoint) {
    auto colon = endpoint.rfind(':');
    int port = std::stoi(endpoint.substr(colon + 1));
    return endpoint.substr(0, colon + 1)
        + std::to_string(key_probe_port(static_cast<std::uint16_t>(port)));
}

std::string key_probe_request() {
    pb::PeerMessage probe;
    probe.set_version(wire::kProtocolVersion);
    probe.mutable_key_probe();
    return probe.SerializeAsString();
}

std::optional<std::string> key_from_probe_answer(const void* data, std::size_t size) {
    pb::HostMessage answer;
    if (size > kMaxProbe || !answer.ParseFromArray(data, static_cast<int>(size))
        || !answer.has_host_key() || !is_curve_key(answer.host_key().curve_key()))
        return std::nullopt;
    return answer.host_key().curve_key();
}

} // namespace halma::daemon
