#include "daemon/net/host_service.h"

#include "daemon/net/zmq_util.h"
#include "daemon/trust/zap_handler.h"
#include "daemon/wire/frames.h"

#include <algorithm>
#include <cctype>
#include <spdlog/spdlog.h>
#include <utility>
#include <zmq_addon.hpp>

namespace halma::daemon {

namespace pb = wire::pb;
using std::chrono::milliseconds;

namespace {

constexpr int kDrainBatch = 256; // messages read per wake-up before the loop looks elsewhere
constexpr int kSendQueue = 64;

} // namespace

// Peers name their connections "p" + hex (peer_links.cpp); anything else is shown as hex.
std::string short_id(const std::string& routing_id) {
    bool printable = !routing_id.empty()
        && std::all_of(
            routing_id.begin(), routing_id.end(), [](unsigned char c) { return std::isalnum(c); });
    if (printable) return routing_id.substr(0, 8);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    for (unsigned char c : routing_id.substr(0, 5)) s += { kHex[c >> 4], kHex[c & 15] };
    return s;
}

pb::ConnectionState connected_state() {
    return pb::CONNECTION_STATE_CONNECTED;
}

HostService::HostService(zmq::context_t& context, const Config& config, BotPool& bots,
    DiskSyncer& disk, RoomListener& listener)
    : config_(config)
    , bots_(bots)
    , disk_(disk)
    , listener_(listener)
    , socket_(context, zmq::socket_type::router)
    , store_(config.state_dir)
    , records_(config.state_dir, config.records_kept) {
    // A peer is read at most 16 times the message limit: past that ZeroMQ drops its connection.
    // Between the limit and that, the peer gets an ERROR_CODE_TOO_LARGE reply.
    tune_socket(socket_, config.max_message * 16, config.heartbeat_ms, config.peer_timeout_ms);
    socket_.set(zmq::sockopt::router_handover, 1);
    socket_.set(zmq::sockopt::ipv6, 1);
    // What waits for one peer that does not read: kSendQueue messages (a snapshot is bounded,
    // docs/protocol.md "Limits"); past that, messages to it are dropped, and a replica that
    // missed an update notices the gap and rejoins.
    socket_.set(zmq::sockopt::sndhwm, kSendQueue);
    // A connection that has not finished the ZMTP greeting in time is closed: bytes that are not
    // ZMTP, or a connection left open and silent, hold a descriptor no longer than this.
    socket_.set(zmq::sockopt::handshake_ivl, std::max(config.peer_timeout_ms, 1000));
    // The loop never waits for the disk: what is written is flushed by DiskSyncer.
    store_.flush_later(true);
    store_.flush_check([this](std::uint64_t ticket) { return disk_.flushed(ticket, ticket); });
}

void HostService::use_curve(const CurveKeyPair& keys) {
    socket_.set(zmq::sockopt::curve_server, 1);
    socket_.set(zmq::sockopt::curve_secretkey, keys.secret_key);
    // Every handshake goes to the daemon's ZAP handler, which is bound before this socket and
    // lives as long (libzmq lets any key in, without asking, when no handler is bound).
    socket_.set(zmq::sockopt::zap_domain, kZapDomain);
    // Where libzmq has ZMQ_ZAP_ENFORCE_DOMAIN (93, a draft option) no handler means no handshake
    // at all; elsewhere the call fails and the handler's being bound first is the guarantee.
    int enforce = 1;
    (void)zmq_setsockopt(socket_.handle(), 93, &enforce, sizeof enforce);
    curve_ = true;
    key_digits_ = fingerprint_digits(keys.public_key);
}

void HostService::bind() {
    socket_.bind(config_.listen_endpoint());
    // With port 0 the system chose the port: tell front ends and players the real one.
    std::string bound = socket_.get(zmq::sockopt::last_endpoint);
    bound_endpoint_ = bound;
    std::string listen
        = config_.listen.rfind("tcp://", 0) == 0 ? config_.listen.substr(6) : config_.listen;
    address_ = listen.substr(0, listen.rfind(':')) + bound.substr(bound.rfind(':'));
}

void HostService::unbind() {
    if (!bound_endpoint_.empty()) socket_.unbind(bound_endpoint_);
    bound_endpoint_.clear();
}

void HostService::on_readable(const Now& now) {
    for (int i = 0; i < kDrainBatch; ++i) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait))
            break;
        if (frames.empty()) continue;
        std::string conn = frames[0].to_string();
        auto [it, fresh] = conns_.try_emplace(conn);
        if (fresh) it->second.last_send = now.steady;
        // Who sent it, as the CURVE handshake proved (the ZAP handler made it the User-Id).
        const char* user = frames.size() > 1 && curve_ ? frames[1].gets("User-Id") : nullptr;
        std::string key = user ? user : kPlainLinkKey;
        if (!fresh && key != it->second.key && !it->second.members.empty()) {
            // Another key took over this routing id: it speaks for none of the old one's members.
            log_peer(spdlog::level::warn,
                "peer {}: a new connection with another key; its seats stay with the old",
                short_id(conn));
            it->second.members.clear();
        }
        it->second.key = key;
        if (frames.size() > 1)
            if (const char* from = zmq_msg_gets(frames[1].handle(), "Peer-Address")) {
                // An IPv4 peer of a dual-stack listener reads "::ffff:192.168.1.20": one
                // machine, as its owner knows it.
                std::string_view address = from;
                if (address.starts_with("::ffff:") && address.find('.') != std::string_view::npos)
                    address.remove_prefix(7);
                if (it->second.address != address) it->second.address = address;
            }
        mark_alive(conn, it->second, now);
        if (frames.size() != 2) {
            log_peer(spdlog::level::warn, "peer {}: {} frames in one message", short_id(conn),
                frames.size() - 1);
            send_error(conn,
                frames.size() > 1 ? wire::request_id_of(frames[1].data(), frames[1].size()) : 0,
                pb::ERROR_CODE_MALFORMED,
                "one frame per message, got " + std::to_string(frames.size() - 1), now);
            continue;
        }
        pb::PeerMessage msg;
        if (auto rejection
            = wire::read_envelope(frames[1].data(), frames[1].size(), config_.max_message, msg)) {
            log_peer(spdlog::level::warn, "peer {}: {}", short_id(conn), rejection->message);
            send_error(conn, msg.request_id(), rejection->code, rejection->message, now);
            continue;
        }
        handle(conn, msg, now);
    }
}

void HostService::mark_alive(const std::string& conn, PeerConn& peer, const Now& now) {
    peer.last_recv = now.steady;
    if (peer.alive) return;
    peer.alive = true;
    log_peer(spdlog::level::info, "peer {} is back", short_id(conn));
    for (const auto& [room_id, member] : peer.members)
        if (auto* room = find(room_id); room && room->read_only.empty()) {
            room->authority.set_connected(member, true, now);
            flush(*room, now);
        }
}

void HostService::handle(const std::string& conn, const pb::PeerMessage& msg, const Now& now) {
    // Past its deadline (in our clock) the peer has told its player it failed: not done now.
    if (msg.deadline_ms() != 0 && !msg.has_heartbeat()
        && Now::current().monotonic_ms() > msg.deadline_ms()) {
        log_peer(spdlog::level::info,
            "peer {}: request {} came after its deadline; not carried out", short_id(conn),
            msg.request_id());
        send_error(conn, msg.request_id(), pb::ERROR_CODE_EXPIRED,
            "the request's deadline passed before the host read it; not carried out", now);
        return;
    }
    switch (msg.body_case()) {
    case pb::PeerMessage::kListRooms: {
        pb::HostMessage reply;
        reply.set_request_id(msg.request_id());
        auto* list = reply.mutable_rooms();
        for (auto& [id, room] : rooms_)
            if (room->authority.state().config().visibility == Visibility::kPublic)
                wire::summarize(room->authority.state(), "", false, list->add_rooms());
        send(conn, reply, now);
        return;
    }
    case pb::PeerMessage::kJoin:
        handle_join(conn, msg, now);
        return;
    case pb::PeerMessage::kCommand:
        handle_command(conn, msg, now);
        return;
    case pb::PeerMessage::kHeartbeat:
        return; // its arrival was the point
    default:
        send_error(conn, msg.request_id(), pb::ERROR_CODE_OUT_OF_PLACE,
            "not a message a host answers", now);
    }
}

void HostService::handle_command(
    const std::string& conn, const pb::PeerMessage& msg, const Now& now) {
    const auto& command = msg.command();
    HostedRoom* room = find(command.room_id());
    if (!room) {
        send_error(conn, msg.request_id(), pb::ERROR_CODE_UNKNOWN_ROOM,
            "no room " + command.room_id() + " here", now);
        return;
    }
    Action action;
    switch (command.action_case()) {
    case pb::RoomCommand::kMove:
        action = action::Move { command.move() };
        break;
    case pb::RoomCommand::kChat:
        action = action::Chat { command.chat() };
        break;
    case pb::RoomCommand::kVote:
        if (!pb::VoteKind_IsValid(command.vote())) {
            send_error(conn, msg.request_id(), pb::ERROR_CODE_BAD_REQUEST,
                "unknown vote kind " + std::to_string(command.vote()), now);
            return;
        }
        action = action::Vote { wire::vote_kind_from_proto(command.vote()) };
        break;
    case pb::RoomCommand::kLeave:
        action = action::Leave {};
        break;
    case pb::RoomCommand::kStart: {
        const std::string& level = command.start().bot_level();
        if (!level.empty() && !parse_bot_level(level)) {
            send_error(conn, msg.request_id(), pb::ERROR_CODE_BAD_REQUEST,
                "bot level '" + level + "' is not easy, hard or max", now);
            return;
        }
        action = action::Start { parse_bot_level(level) };
        break;
    }
    default:
        send_error(
            conn, msg.request_id(), pb::ERROR_CODE_MALFORMED, "a command with no action", now);
        return;
    }
    if (command.command_id().size() > kMaxCommandId) {
        send_error(conn, msg.request_id(), pb::ERROR_CODE_MALFORMED,
            "a command id is at most " + std::to_string(kMaxCommandId) + " bytes", now);
        return;
    }
    if (MemberId member = room->authority.member_of(command.token()); member != kNoMember) {
        if (auto refused = seat_key_refusal(*room, member, conns_[conn].key)) {
            log_peer(spdlog::level::warn, "room {}: refused peer {}: {}",
                room->authority.state().config().name, short_id(conn), *refused);
            send_error(conn, msg.request_id(), pb::ERROR_CODE_NOT_ALLOWED, *refused, now);
            return;
        }
        // The member's own daemon (its key says so) on a connection this host does not know
        // for it: this host restarted, or that daemon has a new socket. Its updates and
        // heartbeats go there from now on, so the move's update reaches it (and a replica that
        // missed events sees the gap and asks for the room). It went nowhere: the player saw
        // the board from before the restart, "your turn", until the peer timeout, and each move
        // tried from it was refused as illegal.
        speak_for(conn, room->authority.state().id(), member);
        // Not in a read-only room: an event there is neither written nor sent, and the seq
        // the heartbeats then name would send every replica to rejoin, in vain.
        if (const Member* m = room->authority.state().member(member);
            m && !m->connected && room->read_only.empty())
            room->authority.set_connected(member, true, now);
    }
    if (std::holds_alternative<action::Chat>(action)
        && !within_address_budget(conn, msg.request_id(), PeerAddressBudget::Kind::kChat, now))
        return;
    auto refusal = read_only_refusal(*room);
    if (!refusal) refusal = room->authority.act(command.token(), action, now, command.command_id());
    // Not on disk, not done: the room is back where its files are, and the player is told.
    if (!refusal && !flush(*room, now)) refusal = read_only_refusal(*room);
    if (refusal) {
        log_peer(spdlog::level::info, "room {}: refused peer {}: {}",
            room->authority.state().config().name, short_id(conn), refusal->message);
        send_error(conn, msg.request_id(), wire::to_proto(refusal->code), refusal->message, now);
        return;
    }
    pb::HostMessage ack;
    ack.set_request_id(msg.request_id());
    ack.mutable_ack();
    send(conn, ack, now);
}

bool HostService::flush(HostedRoom& room, const Now& now) {
    if (!persist(room, now)) {
        schedule(room); // read-only now: its disk is tried again
        return false;
    }
    announce(room, now);
    const RoomState& state = room.authority.state();
    room.bot_due.reset();
    // A bot to move, or a person whose turn ran past the room's turn limit.
    if (MemberId bot = room.authority.computer_to_move();
        bot != kNoMember && room.bot_asked_at != state.seq()) {
        // A person in a seat is waiting for this move: such rooms are served first.
        bool person = false;
        for (int seat = 0; seat < state.seats(); ++seat)
            if (const Member* m = state.member(state.seat_holder(seat));
                m && !m->bot && m->connected)
                person = true;
        // Where only computers sit, people can only watch: bot-pace-ms spaces the moves so
        // they can follow (and a Pi's disk is not written as fast as easy bots can play).
        if (!person && now.steady < room.next_bot_move_at) {
            room.bot_due = room.next_bot_move_at;
        } else {
            room.bot_asked_at = state.seq();
            bots_.request(
                BotJob { state.id(), state.seq(), bot, room.authority.level_for(bot), person },
                *state.game());
        }
    }
    schedule(room);
    return true;
}

void HostService::announce(HostedRoom& room, const Now& now) {
    const RoomState& state = room.authority.state();
    for (const RoomEvent& e : std::exchange(room.unsent, {})) {
        pb::HostMessage msg;
        msg.set_version(wire::kProtocolVersion);
        msg.set_clock_ms(Now::current().monotonic_ms()); // as send() sets it
        auto* update = msg.mutable_update();
        update->set_room_id(state.id());
        wire::to_proto(e, update->mutable_event());
        // Serialized once for every peer in the room (sixty spectating daemons, say).
        const std::string bytes = msg.SerializeAsString();
        for (auto& [id, c] : conns_) {
            auto first = c.members.lower_bound({ state.id(), kNoMember });
            if (first != c.members.end() && first->first == state.id()) send_bytes(id, bytes, now);
        }
        // The local player's own leave goes to their front ends as theirs.
        MemberId me = room.local_member;
        if (auto* left = std::get_if<event::MemberLeft>(&e.body);
            left && room.local_leaving != kNoMember && left->member == room.local_leaving)
            me = std::exchange(room.local_leaving, kNoMember);
        listener_.room_changed(state, &e, me, connected_state());
        // A computer taking a person's seat mid-game is news to whoever looks after the host
        // (the log said nothing of it). The room's own computers (standing, or `start`'s) are
        // not: each was said to stand in for a player who had left.
        if (auto* joined = std::get_if<event::MemberJoined>(&e.body); joined && joined->bot)
            if (auto in = room.authority.stands_in_for(joined->member);
                in != RoomAuthority::StandInFor::kNobody)
                spdlog::info("room {}: {} plays seat {} ({})", state.config().name, joined->name,
                    joined->seat + 1,
                    in == RoomAuthority::StandInFor::kPersonGone
                        ? "its player was gone past the hold; theirs again when they are back"
                        : "its player left; the next to join takes it over");
        if (auto* left = std::get_if<event::MemberLeft>(&e.body))
            for (auto& [id, c] : conns_) c.members.erase({ state.id(), left->member });
    }
}

void HostService::schedule(const HostedRoom& room) {
    // A read-only room's holds wait until it can be written: only its disk retry is due.
    std::optional<Clock::time_point> due = room.authority.next_deadline();
    if (room.bot_due && (!due || *room.bot_due < *due)) due = room.bot_due;
    wakeups_.set(room.authority.state().id(),
        room.read_only.empty() ? due : std::optional<Clock::time_point>(room.disk_retry_at));
}

void HostService::wake(HostedRoom& room, const Now& now) {
    if (!room.read_only.empty()) {
        retry_disk(room, now);
        if (!room.read_only.empty()) {
            schedule(room);
            return;
        }
        room.bot_asked_at = 0; // a bot's move asked for while read-only was dropped
    }
    room.authority.tick(now);
    flush(room, now);
}

void HostService::send(const std::string& conn, pb::HostMessage& msg, const Now& now) {
    msg.set_version(wire::kProtocolVersion);
    msg.set_clock_ms(Now::current().monotonic_ms()); // peers state deadlines in this clock
    send_bytes(conn, msg.SerializeAsString(), now);
}

void HostService::send_bytes(const std::string& conn, std::string_view bytes, const Now& now) {
    if (!send_routed(socket_, conn, bytes))
        spdlog::debug("peer {}: message dropped (peer slow or gone)", short_id(conn));
    if (auto it = conns_.find(conn); it != conns_.end()) it->second.last_send = now.steady;
}

void HostService::send_error(const std::string& conn, std::uint64_t request_id, pb::ErrorCode code,
    const std::string& message, const Now& now) {
    pb::HostMessage reply;
    reply.set_request_id(request_id);
    wire::set_error(reply.mutable_error(), code, message);
    send(conn, reply, now);
}

} // namespace halma::daemon
