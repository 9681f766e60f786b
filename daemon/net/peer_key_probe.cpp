// PeerLinks' side of encrypted links: a new link first asks the host's key-probe port for its
// CURVE key (trust/key_probe.h), checks it against the key pinned for that address
// (trust/known_hosts.h) and against a friends code's fingerprint, and only then opens the link
// itself, encrypted to that key. A host whose key does not match is refused before anything
// is sent to it; the CURVE handshake then proves the host holds the key's secret half.
#include "daemon/net/config.h"
#include "daemon/net/peer_links.h"
#include "daemon/trust/key_probe.h"
#include "daemon/wire/frames.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

void PeerLinks::send_probe(Link& link, const Now& now) {
    std::string probe = key_probe_request();
    try {
        // Refused while connecting (ZMQ_IMMEDIATE): tried again at the next tick.
        if (link.socket.send(zmq::buffer(probe), zmq::send_flags::dontwait))
            link.probe_sent = now.steady;
        else
            link.last_try = now.steady;
    } catch (const zmq::error_t&) {
        link.last_try = now.steady; // tried again after kSendRetry, not on every pass
    }
}

std::optional<std::string> PeerLinks::key_rejection(
    const Link& link, const std::string& key) const {
    if (auto pinned = known_.pinned(link.address); pinned && *pinned != key)
        return changed_key_message(link.address, *pinned, key, known_.file());
    if (!link.expected_digits.empty()
        && fingerprint_digits(key).rfind(link.expected_digits, 0) != 0)
        return not_the_codes_host(link.address, key);
    if (!link.expected_key.empty() && key != link.expected_key)
        return "the host now at " + link.address + " (key " + key_fingerprint(key)
            + ") is not the one whose rooms the LAN advertises there (key "
            + key_fingerprint(link.expected_key)
            + "): someone may be impersonating it, so nothing was sent";
    return std::nullopt;
}

std::string PeerLinks::not_the_codes_host(const std::string& address, const std::string& key) {
    return "the host at " + address + " (key " + key_fingerprint(key)
        + ") is not the one the friends code names: check the code for a typo (its last four "
          "groups name the host's key); if it is right, someone may be impersonating the host, "
          "so nothing was sent";
}

void PeerLinks::reject_host(Link& link, const std::string& why) {
    // Said once, not at every probe again (kRefusedReprobeTimeouts) of a host that keeps its new
    // key.
    if (why != link.rejection_said)
        spdlog::error("{}", why);
    else
        spdlog::debug("{}", why);
    link.rejection_said = why;
    link.rejection = why;
    link.probing = false;
    link.reprobe_at = Clock::now()
        + kRefusedReprobeTimeouts * std::chrono::milliseconds(config_.peer_timeout_ms);
    std::vector<std::uint64_t> ids;
    for (auto& [id, p] : link.pending) ids.push_back(id);
    for (auto id : ids) {
        auto p = std::move(link.pending[id]);
        link.pending.erase(id);
        pb::HostMessage reply;
        reply.set_version(wire::kProtocolVersion);
        wire::set_error(reply.mutable_error(), pb::ERROR_CODE_NOT_ALLOWED, why);
        p.done(reply);
    }
}

void PeerLinks::on_probe_answer(Link& link, const zmq::message_t& frame, const Now& now) {
    auto key = key_from_probe_answer(frame.data(), frame.size());
    if (!key) {
        spdlog::warn(
            "host {}: its key-probe port answered something that is not a key", link.address);
        return;
    }
    if (auto why = key_rejection(link, *key)) {
        reject_host(link, *why);
        return;
    }
    try {
        auto socket = open_socket(tcp_endpoint(link.address), *key);
        link.monitor = std::make_unique<SocketMonitor>(
            context_, socket, ZMQ_EVENT_CONNECTED | ZMQ_EVENT_CONNECT_RETRIED);
        link.socket = std::move(socket);
    } catch (const zmq::error_t& e) {
        reject_host(link, "cannot connect to " + link.address + ": " + e.what());
        return;
    }
    link.probing = false;
    link.refused = false;
    if (!link.rejection_said.empty())
        spdlog::info("host {}: its key is taken now; its rooms are rejoined", link.address);
    link.rejection_said.clear();
    // What a friends code said of the key is checked: the link's later probes (a host that
    // restarted) are held to the pin, not to the code of a join long done (an automatic
    // rejoin was refused "check the code for a typo" after forget-host).
    link.expected_digits.clear();
    link.host_key = *key;
    link.key_heard_at = now.steady;
    link.reprobe_at = now.steady + 2 * std::chrono::milliseconds(config_.peer_timeout_ms);
    link.last_send = now.steady - std::chrono::hours(1); // what waits goes at the next tick
    log_link("host {} has key {}", link.address, key_fingerprint(*key));
    // A new socket is a new connection to the host: the rooms held at it are rejoined on it,
    // so that the host sends their updates there.
    for (auto& r : replicas_)
        if (r->address == link.address && r->connection == pb::CONNECTION_STATE_CONNECTED) {
            set_connection(*r, pb::CONNECTION_STATE_CONNECTING);
            r->next_rejoin = now.steady;
        }
}

void PeerLinks::reprobe(Link& link) {
    try {
        link.socket = open_socket(key_probe_endpoint(tcp_endpoint(link.address)), "", true);
        link.monitor = std::make_unique<SocketMonitor>(
            context_, link.socket, ZMQ_EVENT_CONNECTED | ZMQ_EVENT_CONNECT_RETRIED);
    } catch (const zmq::error_t& e) {
        spdlog::warn("cannot connect to {}: {}", link.address, e.what());
        // Asked again a second later (out of descriptors, say), not on every pass.
        link.reprobe_at = Clock::now() + kProbeRetry;
        return;
    }
    link.rejection.clear();
    link.host_key.clear();
    link.probing = true;
    link.up = false;
    link.refused = false;
    link.probe_sent = {};
    // A new socket is a new connection, which the host knows no member on: the rooms rejoin on
    // it. One rejoined on the old socket just before (a host back from a stall) stayed
    // "connected" there, and the host counted its player gone when the old connection fell
    // silent.
    for (auto& r : replicas_)
        if (r->address == link.address && r->connection == pb::CONNECTION_STATE_CONNECTED) {
            set_connection(*r, pb::CONNECTION_STATE_CONNECTING);
            r->next_rejoin = Clock::now();
        }
    // What was sent on the old socket is answered on it, if at all: sent again on the new one
    // (a rejoin waited out its whole deadline). Commands carry ids the host answers once, and a
    // rejoin its token; a first join (no token yet) would make a second member, so it waits.
    for (auto& [id, p] : link.pending)
        if (p.sent && (!p.message.has_join() || !p.message.join().token().empty())) p.sent = false;
}

void PeerLinks::pin_host_key(const std::string& address) {
    auto it = links_.find(address);
    if (it == links_.end() || it->second->host_key.empty()) return;
    if (auto pinned = known_.pinned(address)) return;
    if (auto saved = known_.pin(address, it->second->host_key); !saved)
        spdlog::error("cannot pin the key of {}: {}", address, saved.error().message);
    else
        spdlog::info(
            "pinned the key of host {}: {}", address, key_fingerprint(it->second->host_key));
}

void PeerLinks::retry_refused(Link& link) {
    if (link.rejection.empty()) return;
    reprobe(link);
    for (auto& r : replicas_)
        if (r->address == link.address && !r->token.empty()
            && r->connection == pb::CONNECTION_STATE_DISCONNECTED) {
            set_connection(*r, pb::CONNECTION_STATE_CONNECTING);
            r->next_rejoin = {};
        }
}

engine::Result<PeerLinks::Forgotten> PeerLinks::forget_host(const std::string& address) {
    auto forgotten = known_.forget(address);
    if (!forgotten) return std::unexpected(forgotten.error());
    Forgotten done { *forgotten, false };
    // A link refused for its key probes the host afresh, and pins what it says at the next
    // join. Reset in place: the loop may hold a pointer to the link.
    if (auto it = links_.find(address); it != links_.end() && !it->second->rejection.empty()) {
        it->second->expected_digits.clear(); // the user takes whatever key the host has now
        retry_refused(*it->second);
        done.refused_link = true;
    }
    return done;
}

} // namespace halma::daemon
