#include "daemon/net/peer_links.h"

#include "daemon/net/runtime_dir.h"
#include "daemon/net/zmq_util.h"
#include "daemon/room/clean_text.h"
#include "daemon/room/secrets.h"
#include "daemon/trust/key_probe.h"
#include "daemon/wire/frames.h"

#include <algorithm>
#include <cctype>
#include <netdb.h>
#include <random>
#include <spdlog/spdlog.h>
#include <sstream>
#include <sys/stat.h>

namespace halma::daemon {

namespace pb = wire::pb;
using std::chrono::milliseconds;

namespace {

constexpr int kDrainBatch = 256;
// What a host can make a peer read: a snapshot holds a room's whole log.
constexpr std::size_t kMaxFromHost = 64u << 20;
constexpr std::size_t kMaxProbeAnswer = 256;
// How much sooner than the asker the host gives up on a request: time for its answer to come.
constexpr milliseconds kAnswerMargin { 200 };

// Rooms a host may list; more is no honest host (each is a room it hosts).
constexpr int kMaxListedRooms = 256;

// Whether `host` is an address written out (192.168.1.20, 127.1, [fe80::1%eth0]) rather than a
// name: asked of the resolver with AI_NUMERICHOST, which never looks a name up.
bool is_ip_literal(const std::string& host) {
    if (host.starts_with('[')) return true; // only an IPv6 address is written in brackets
    addrinfo hints {};
    hints.ai_flags = AI_NUMERICHOST;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return false;
    freeaddrinfo(found);
    return true;
}

// localhost and its subdomains (RFC 6761): always loopback, resolved without a lookup.
bool is_localhost(std::string host) {
    std::transform(host.begin(), host.end(), host.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (host.ends_with('.')) host.pop_back();
    return host == "localhost" || host.ends_with(".localhost");
}

// What a host says is held to what a host itself takes from peers: text cleaned (no terminal
// controls, valid UTF-8) and cut, counts bounded. Events and snapshots are checked as they are
// read (wire::event_from_proto, state_from_proto); this is the rest.
void clean_host_message(pb::HostMessage& msg) {
    if (msg.has_error()) {
        msg.mutable_error()->set_message(
            sanitize_text(msg.error().message(), PeerLinks::kMaxErrorText));
        // Ours to say (a name no host answered at): a host would make front ends look names up.
        msg.mutable_error()->clear_unconfirmed_name();
    }
    if (msg.has_rooms()) {
        auto* rooms = msg.mutable_rooms()->mutable_rooms();
        if (rooms->size() > kMaxListedRooms)
            rooms->DeleteSubrange(kMaxListedRooms, rooms->size() - kMaxListedRooms);
        for (auto& room : *rooms) {
            room.set_room_id(sanitize_text(room.room_id(), 64));
            room.set_name(sanitize_text(room.name(), kMaxRoomName));
            room.set_host_player(sanitize_text(room.host_player(), kMaxMemberName));
            room.set_code(sanitize_text(room.code(), 64));
            room.set_machine(sanitize_text(room.machine(), 255));
            room.clear_addresses();
            room.set_seats(std::min<std::uint32_t>(room.seats(), engine::kSetNB));
            // The mode's text too: front ends got the host's escapes and a MiB of rules raw.
            auto* mode = room.mutable_mode();
            mode->set_rules(sanitize_text(mode->rules(), 200));
            mode->set_players(std::min<std::uint32_t>(mode->players(), engine::kSetNB));
            mode->set_sets_per_player(std::min<std::uint32_t>(mode->sets_per_player(), 3));
            room.set_seats_taken(std::min(room.seats_taken(), room.seats()));
        }
    }
}

} // namespace

// ZeroMQ says a name it could not resolve was a refused connection, and a typo in a machine's
// name read as "is halmad running there". Doubted only where a typo can be: it was said of
// localhost, of an address such as 127.1, and of a host this daemon had joined at that name.
std::string PeerLinks::unconfirmed_name(const Link& link) const {
    const std::string& address = link.address;
    std::string host = address.substr(0, address.rfind(':'));
    if (is_ip_literal(host) || is_localhost(host)) return "";
    // The name resolved when the host answered: its key heard, pinned, or a room joined there.
    bool answered_before = !link.host_key.empty() || known_.pinned(address)
        || std::any_of(replicas_.begin(), replicas_.end(),
            [&](const auto& r) { return r->address == address; });
    return answered_before ? "" : host;
}

std::string PeerLinks::name_doubt(const Link& link) const {
    std::string host = unconfirmed_name(link);
    return host.empty() ? "" : " Or is the name " + host + " misspelt?";
}

PeerLinks::PeerLinks(zmq::context_t& context, const Config& config, RoomListener& listener)
    : context_(context)
    , config_(config)
    , listener_(listener)
    , known_(config.state_dir / "known_hosts") { }

zmq::socket_t PeerLinks::open_socket(
    const std::string& endpoint, const std::string& server_key, bool probe) {
    zmq::socket_t s(context_, zmq::socket_type::dealer);
    // A probe's answer is a key: whoever answers there makes us read no more.
    tune_socket(
        s, probe ? kMaxProbeAnswer : kMaxFromHost, config_.heartbeat_ms, config_.peer_timeout_ms);
    // Nothing queues for a host that is not there: a move sent then must not land minutes later.
    s.set(zmq::sockopt::immediate, 1);
    s.set(zmq::sockopt::ipv6, 1);
    s.set(zmq::sockopt::reconnect_ivl, 100);
    s.set(zmq::sockopt::reconnect_ivl_max, 1000);
    s.set(zmq::sockopt::routing_id, "p" + random_hex_id().substr(0, 15));
    if (!server_key.empty() && identity_) {
        s.set(zmq::sockopt::curve_serverkey, server_key);
        s.set(zmq::sockopt::curve_publickey, identity_->public_key);
        s.set(zmq::sockopt::curve_secretkey, identity_->secret_key);
    }
    s.connect(endpoint);
    return s;
}

PeerLinks::Link* PeerLinks::link_for(const std::string& address, std::string& error) {
    if (auto it = links_.find(address); it != links_.end()) return it->second.get();
    std::string endpoint = tcp_endpoint(address);
    if (endpoint.empty()) {
        error = "'" + address + "' is not host:port";
        return nullptr;
    }
    if (links_.size() >= kMaxHosts) {
        error = "this daemon talks to " + std::to_string(kMaxHosts)
            + " hosts already: leave a room at one of them first";
        return nullptr;
    }
    auto link = std::make_unique<Link>();
    link->address = address;
    // With CURVE the host's key comes first, from its key-probe port (peer_key_probe.cpp).
    link->probing = identity_.has_value();
    try {
        link->socket = open_socket(
            link->probing ? key_probe_endpoint(endpoint) : endpoint, "", link->probing);
        link->monitor = std::make_unique<SocketMonitor>(
            context_, link->socket, ZMQ_EVENT_CONNECTED | ZMQ_EVENT_CONNECT_RETRIED);
    } catch (const zmq::error_t& e) {
        error = "cannot connect to " + address + ": " + e.what();
        return nullptr;
    }
    log_link("connecting to host {}", address);
    return links_.emplace(address, std::move(link)).first->second.get();
}

std::vector<PeerLinks::Link*> PeerLinks::links() {
    std::vector<Link*> list;
    for (auto& [address, link] : links_) list.push_back(link.get());
    return list;
}

void PeerLinks::request(
    Link& link, pb::PeerMessage msg, Reply done, const Now& now, Deadline deadline) {
    std::uint64_t id = next_request_++;
    msg.set_version(wire::kProtocolVersion);
    msg.set_request_id(id);
    if (!link.rejection.empty()) {
        pb::HostMessage reply;
        reply.set_version(wire::kProtocolVersion);
        wire::set_error(reply.mutable_error(), pb::ERROR_CODE_NOT_ALLOWED, link.rejection);
        done(reply);
        return;
    }
    auto until = now.steady + milliseconds(config_.request_timeout_ms);
    if (deadline) until = std::min(until, *deadline);
    Pending pending { std::move(done), until, std::move(msg) };
    pending.asked = now.steady;
    send_pending(link, pending, now);
    link.pending.emplace(id, std::move(pending));
}

bool PeerLinks::send_pending(Link& link, Pending& p, const Now& now) {
    if (now.steady >= p.deadline) return false; // its asker has been told it failed
    if (link.probing || !link.rejection.empty()) return false; // not before the key is known
    if (link.host_clock_offset) {
        // The host stops a little before we give up, so that its answer has time to come back.
        auto margin = std::min<Clock::duration>(kAnswerMargin, (p.deadline - now.steady) / 2);
        auto ours
            = std::chrono::duration_cast<milliseconds>((p.deadline - margin).time_since_epoch())
                  .count();
        p.message.set_deadline_ms(
            static_cast<std::uint64_t>(std::max<std::int64_t>(1, ours + *link.host_clock_offset)));
    }
    std::string payload = p.message.SerializeAsString();
    try {
        p.sent = link.socket.send(zmq::buffer(payload), zmq::send_flags::dontwait).has_value();
    } catch (const zmq::error_t&) { }
    if (p.sent)
        link.last_send = now.steady;
    else
        link.last_try = now.steady;
    return p.sent;
}

void PeerLinks::on_readable(Link& link, const Now& now) {
    if (link.probing) {
        zmq::message_t frame;
        // The first answer settles it; the socket is then another (or the link refused).
        if (link.socket.recv(frame, zmq::recv_flags::dontwait)) on_probe_answer(link, frame, now);
        return;
    }
    for (int i = 0; i < kDrainBatch; ++i) {
        zmq::message_t frame;
        if (!link.socket.recv(frame, zmq::recv_flags::dontwait)) break;
        link.last_recv = now.steady;
        if (!link.up) {
            link.up = true;
            log_link("host {} is reachable", link.address);
            for (auto& r : replicas_)
                if (r->address == link.address && r->connection != pb::CONNECTION_STATE_CONNECTED)
                    r->next_rejoin = now.steady;
        }
        pb::HostMessage msg;
        if (auto rejection = wire::read_host_message(frame.data(), frame.size(), msg)) {
            log_host(spdlog::level::warn, "host {}: {}", link.address, rejection->message);
            continue;
        }
        clean_host_message(msg);
        if (msg.clock_ms() != 0) {
            // Read now, not at the loop's `now`: the host stamped it before we read it, so this
            // never overstates the host's clock.
            auto ours
                = std::chrono::duration_cast<milliseconds>(Clock::now().time_since_epoch()).count();
            link.host_clock_offset = static_cast<std::int64_t>(msg.clock_ms()) - ours;
        }
        if (msg.request_id() != 0) {
            auto it = link.pending.find(msg.request_id());
            if (it == link.pending.end()) continue; // answered too late: already timed out
            Reply done = std::move(it->second.done);
            link.pending.erase(it);
            done(msg);
            continue;
        }
        switch (msg.body_case()) {
        case pb::HostMessage::kUpdate:
            handle_update(link, msg.update(), now);
            break;
        case pb::HostMessage::kHeartbeat:
            handle_heartbeat(link, msg.heartbeat(), now);
            break;
        case pb::HostMessage::kError:
            log_host(spdlog::level::warn, "host {}: {}", link.address, msg.error().message());
            break;
        default:
            break;
        }
    }
}

std::optional<PeerLinks::Clock::time_point> PeerLinks::next_deadline() const {
    std::optional<Clock::time_point> next;
    auto consider = [&](Clock::time_point t) {
        if (!next || t < *next) next = t;
    };
    for (const auto& [address, link] : links_) {
        bool has_rooms = false;
        for (const auto& r : replicas_) has_rooms |= r->address == address;
        bool keyed = !link->probing && link->rejection.empty(); // tick() heartbeats only then
        if (has_rooms && keyed) consider(link->last_send + milliseconds(config_.heartbeat_ms));
        if (has_rooms && link->up)
            consider(link->last_recv + milliseconds(config_.peer_timeout_ms));
        for (const auto& [id, p] : link->pending)
            consider(p.sent || !keyed
                    ? p.deadline
                    : std::min(p.deadline, std::max(link->last_send, link->last_try) + kSendRetry));
        if (link->probing)
            consider(std::max(link->probe_sent + kProbeRetry, link->last_try + kSendRetry));
        if (identity_ && !link->probing && link->rejection.empty() && !link->up)
            consider(link->reprobe_at);
        if (has_rooms && !link->rejection.empty()) consider(link->reprobe_at);
    }
    for (const auto& r : replicas_)
        if (r->connection == pb::CONNECTION_STATE_CONNECTING && !r->rejoin_in_flight)
            consider(r->next_rejoin);
    for (const auto& leave : owed_leaves_)
        if (!leave.in_flight) consider(std::min(leave.next_try, leave.give_up_at));
    return next;
}

// A join or a listing for a host whose port refuses connections fails now, not at its deadline:
// the user most likely typed a wrong address, or that halmad is not running. Room traffic
// waits on (a host that restarts refuses for a moment, and rejoins retry by themselves).
void PeerLinks::refuse_if_nobody_listens(Link& link, std::vector<std::uint64_t>& failed) {
    for (auto event : link.monitor->take()) link.refused = event == ZMQ_EVENT_CONNECT_RETRIED;
    if (!link.refused) return;
    for (auto& [id, p] : link.pending) {
        bool asked_by_user = (p.message.has_join() && p.message.join().token().empty())
            || p.message.has_list_rooms();
        if (!p.sent && asked_by_user
            && std::find(failed.begin(), failed.end(), id) == failed.end()) {
            p.refused = true;
            failed.push_back(id);
        }
    }
}

// A request the link never took, its host's connection down all along: "not sent" said neither
// what was wrong nor what to do. Said alike of a join to play and one to watch; a join of a room
// this daemon is in already (with its token) is done again by the daemon's own rejoins.
std::string PeerLinks::never_sent(const Link& link, const Pending& p) {
    bool rejoin = p.message.has_join() && !p.message.join().token().empty();
    return "the host at " + link.address + " is not answering: "
        + (link.refused ? "its machine refuses the connection (is halmad running there, on that "
                          "port?)"
                        : "no connection to it could be made in time (is halmad running there, "
                          "and is that machine on the network?)")
        + (rejoin ? "; this daemon rejoins the room by itself once the host answers again"
                  : "; try again once it is running");
}

// Why a request expired unanswered, said from what its link saw of the host.
pb::HostMessage PeerLinks::unreached(const Link& link, const Pending& p, const Now& now) const {
    const std::string& address = link.address;
    // ZeroMQ says only that the connect failed: a refusal comes back at once, a machine
    // that is off or off the network keeps the connect waiting (3 s for ARP on a LAN).
    bool at_once = now.steady - p.asked < std::chrono::seconds(1);
    // A host that told its key on the probe port is running: one that then drops the
    // connection is full (its cap on connections), not gone.
    bool running
        = !link.host_key.empty() && now.steady - link.key_heard_at < std::chrono::seconds(3);
    if (p.refused && at_once && running)
        return unavailable("the host at " + address
            + " is running but drops the connection: it may have all the connections it takes "
              "(someone may be flooding it); try again later");
    auto reply = unavailable(
        // A link asks the key-probe port (the port + 1) first: that one may be the only one
        // closed (a firewall), and "nothing answers" at the port typed misled.
        p.refused && at_once && link.probing ? "nothing answers at " + address
                + " (connection refused at " + key_probe_endpoint(address)
                + ", its key port): is halmad running there, on that port? A firewall must let "
                  "both ports through."
                + name_doubt(link)
            : p.refused && at_once ? "nothing answers at " + address
                + " (connection refused): is halmad running there, on that port?" + name_doubt(link)
            : p.refused ? "the machine at " + address
                + " cannot be reached (no route to it): it may be off or off the network, and a "
                  "room listed there may be gone"
            : p.sent ? "no answer from the host at " + address
                + " in time; it will not carry the request out now"
                     : never_sent(link, p));
    // Never handed to the host: the name may be why (a lookup that fails reads as a refusal,
    // and a slow one as a connect that never came).
    if (!p.sent) reply.mutable_error()->set_unconfirmed_name(unconfirmed_name(link));
    return reply;
}

void PeerLinks::tick(const Now& now) {
    for (auto& [address, link] : links_) {
        // A keyed link the host has not answered on for a while: maybe a new key; ask again.
        if (identity_ && !link->probing && link->rejection.empty() && !link->up
            && now.steady >= link->reprobe_at)
            reprobe(*link);
        if (link->probing && now.steady - link->probe_sent >= kProbeRetry
            && now.steady - link->last_try >= kSendRetry)
            send_probe(*link, now);
        // Requests: retry what a connecting link refused, give up on what waited too long.
        std::vector<std::uint64_t> expired;
        for (auto& [id, p] : link->pending) {
            // Expired first: a request is never handed to ZeroMQ after its deadline.
            if (now.steady >= p.deadline)
                expired.push_back(id);
            else if (!p.sent)
                send_pending(*link, p, now);
        }
        if (!expired.empty()) link->last_send = std::max(link->last_send, now.steady - kSendRetry);
        refuse_if_nobody_listens(*link, expired);
        for (auto id : expired) {
            auto p = std::move(link->pending[id]);
            link->pending.erase(id);
            p.done(unreached(*link, p, now));
        }
        bool has_rooms = false;
        for (const auto& r : replicas_) has_rooms |= r->address == address;
        if (!has_rooms) continue;
        if (!link->rejection.empty() && now.steady >= link->reprobe_at) retry_refused(*link);
        if (link->up && now.steady - link->last_recv >= milliseconds(config_.peer_timeout_ms)) {
            link->up = false;
            // A host that is only slow, or restarting with the same key, has this long to come
            // back on the same connection before its key is asked again.
            link->reprobe_at = now.steady + 2 * milliseconds(config_.peer_timeout_ms);
            spdlog::warn("host {} went silent; reconnecting", address);
            for (auto& r : replicas_)
                if (r->address == address && r->connection == pb::CONNECTION_STATE_CONNECTED) {
                    set_connection(*r, pb::CONNECTION_STATE_CONNECTING);
                    r->next_rejoin = now.steady;
                }
        }
        if (link->probing || !link->rejection.empty()) continue;
        if (now.steady - link->last_send >= milliseconds(config_.heartbeat_ms)) {
            pb::PeerMessage beat;
            beat.set_version(wire::kProtocolVersion);
            beat.mutable_heartbeat();
            send_message(link->socket, beat);
            link->last_send = now.steady;
        }
    }
    for (std::size_t i = 0; i < replicas_.size(); ++i) {
        auto& r = *replicas_[i];
        if (r.connection == pb::CONNECTION_STATE_CONNECTING && !r.rejoin_in_flight
            && now.steady >= r.next_rejoin)
            rejoin(r, now);
    }
    deliver_owed_leaves(now);
    // A link kept for nothing (a room list asked of a host, a join that failed) would go on
    // reconnecting for the daemon's lifetime: close it.
    std::erase_if(links_, [&](const auto& entry) {
        const auto& [address, link] = entry;
        if (!link->pending.empty() || now.steady < link->kept_until) return false;
        bool has_rooms = std::any_of(replicas_.begin(), replicas_.end(), [&](const auto& r) {
            return r->address == address;
        }) || owes_leave_to(address);
        if (!has_rooms) spdlog::debug("closing the link to {}", address);
        return !has_rooms;
    });
}

pb::HostMessage PeerLinks::unavailable(const std::string& message) {
    pb::HostMessage reply;
    reply.set_version(wire::kProtocolVersion);
    wire::set_error(reply.mutable_error(), pb::ERROR_CODE_UNAVAILABLE, message);
    return reply;
}

std::string PeerLinks::rejection(const std::string& address) const {
    auto it = links_.find(address);
    return it == links_.end() ? std::string() : it->second->rejection;
}

PeerLinks::Replica* PeerLinks::find(std::string_view room) {
    for (auto& r : replicas_)
        if (r->room_id == room) return r.get();
    // A friends code by its room's part: the key's part changes with the host's key (a code
    // re-issued after a new key), and a join with the new code took a second seat beside the
    // one this daemon held.
    std::string typed = normalize_code(room);
    auto same_room = [&](const std::string& code) {
        std::string held = normalize_code(code);
        if (held.size() == kFriendsCodeWithKey && typed.size() == kFriendsCodeWithKey)
            return held.compare(0, kFriendsCodeDigits, typed, 0, kFriendsCodeDigits) == 0;
        return held == typed;
    };
    for (auto& r : replicas_)
        if (r->state
            && (r->state->config().name == room
                || (!r->state->config().code.empty() && same_room(r->state->config().code))))
            return r.get();
    return nullptr;
}

std::vector<PeerLinks::Replica*> PeerLinks::replicas() {
    std::vector<Replica*> list;
    for (auto& r : replicas_) list.push_back(r.get());
    return list;
}

std::size_t PeerLinks::hosts_connected() const {
    std::size_t n = 0;
    for (const auto& [address, link] : links_) n += link->up;
    return n;
}

void PeerLinks::note_ended(const Replica& r, std::string why) {
    ended_.push_back({ r.room_id, r.state ? r.state->config().name : r.name, std::move(why),
        Now::current().wall_ms });
    if (ended_.size() > kEndedKept) ended_.pop_front();
}

void PeerLinks::forget(const std::string& room_id) {
    std::erase_if(replicas_, [&](const auto& r) { return r->room_id == room_id; });
    save();
}

} // namespace halma::daemon
