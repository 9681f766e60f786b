// A peer joining a room this daemon hosts: finding the room (its id, a public name, a friends
// code, a seat token in it), the checks a join passes (the disk, the seat's key, rejoins a
// peer timeout, new members from one machine), and the answer: the seat, its token and the
// room, whole or what came after the peer's seq.
#include "daemon/net/host_service.h"
#include "daemon/net/turn_clock.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

bool HostService::within_address_budget(const std::string& conn, std::uint64_t request_id,
    PeerAddressBudget::Kind kind, const Now& now) {
    const std::string& address = conns_[conn].address;
    if (address_budget_.take(address, kind, now.steady)) return true;
    log_peer(spdlog::level::warn, "peer {} at {}: refused {}: past what one machine may add",
        short_id(conn), address, kind == PeerAddressBudget::Kind::kJoin ? "a join" : "a chat line");
    send_error(conn, request_id, pb::ERROR_CODE_UNAVAILABLE,
        PeerAddressBudget::refusal(address, kind), now);
    return false;
}

HostedRoom* HostService::lookup(std::string_view room, std::string_view token) {
    if (room.empty()) { // "the room at this address": fine when there is exactly one public room
        HostedRoom* only = nullptr;
        for (auto& [id, r] : rooms_) {
            if (r->authority.state().config().visibility != Visibility::kPublic) continue;
            if (only) return nullptr;
            only = r.get();
        }
        return only;
    }
    if (auto it = rooms_.find(std::string(room)); it != rooms_.end()) {
        auto& authority = it->second->authority;
        // A friends room's id alone lets no one in: its code or a seat token in it does (also
        // one whose seat a computer keeps for its vanished player: else that player, back past
        // the hold, could not take the seat back, and its daemon dropped the room as closed).
        if (authority.state().config().visibility == Visibility::kPublic
            || authority.knows_token(token))
            return it->second.get();
    }
    // A public room's name or a friends room's code, through the index: a join costs the same
    // beside ten rooms or ten thousand.
    auto id = index_.joinable(room);
    return id ? find(*id) : nullptr;
}

void HostService::speak_for(const std::string& conn, const std::string& room_id, MemberId member) {
    if (conns_[conn].members.contains({ room_id, member })) return;
    for (auto& [id, c] : conns_) c.members.erase({ room_id, member });
    conns_[conn].members.insert({ room_id, member });
}

void HostService::handle_join(const std::string& conn, const pb::PeerMessage& msg, const Now& now) {
    const auto& join = msg.join();
    HostedRoom* room = lookup(join.room(), join.token());
    if (!room) {
        send_error(conn, msg.request_id(), pb::ERROR_CODE_UNKNOWN_ROOM, no_room(join.room()), now);
        return;
    }
    if (auto refusal = read_only_refusal(*room)) {
        send_error(conn, msg.request_id(), wire::to_proto(refusal->code), refusal->message, now);
        return;
    }
    const std::string& key = conns_[conn].key;
    MemberId holder = join.token().empty() ? kNoMember : room->authority.member_of(join.token());
    if (holder != kNoMember) {
        if (auto refused = seat_key_refusal(*room, holder, key)) {
            log_peer(spdlog::level::warn, "room {}: refused a rejoin from peer {}: {}",
                room->authority.state().config().name, short_id(conn), *refused);
            send_error(conn, msg.request_id(), pb::ERROR_CODE_NOT_ALLOWED, *refused, now);
            return;
        }
        // A few rejoins a member per peer timeout: a daemon rejoins once after a drop (and
        // again at its next heartbeat if refused here); more is someone asking for snapshots
        // faster than it reads them. Windows of members gone are dropped as they end.
        auto window = std::chrono::milliseconds(std::max(config_.peer_timeout_ms, 1000));
        std::erase_if(room->rejoins,
            [&](const auto& entry) { return now.steady - entry.second.started >= window; });
        auto& w = room->rejoins[holder];
        if (w.answered == 0) w.started = now.steady;
        if (config_.rejoin_limit > 0 && ++w.answered > config_.rejoin_limit) {
            send_error(conn, msg.request_id(), pb::ERROR_CODE_UNAVAILABLE,
                "rejoining too fast: this member rejoined " + std::to_string(config_.rejoin_limit)
                    + " times just now; try again in a moment",
                now);
            return;
        }
    }
    // A new member (not a seat coming back): counted against the joiner's machine.
    if (holder == kNoMember && !room->authority.knows_token(join.token())
        && !within_address_budget(conn, msg.request_id(), PeerAddressBudget::Kind::kJoin, now))
        return;
    auto ticket = room->authority.join(join.name(), join.token(), join.spectate(), now);
    if (!ticket) {
        send_error(conn, msg.request_id(), wire::to_proto(ticket.error().code),
            ticket.error().message, now);
        return;
    }
    // The seat token is on disk before the joiner has it.
    if (!persist(*room, now)) {
        schedule(*room); // read-only now: its disk is tried again (as flush() does)
        auto refusal = read_only_refusal(*room);
        send_error(conn, msg.request_id(), wire::to_proto(refusal->code), refusal->message, now);
        return;
    }
    bind_seat_key(*room, ticket->member, key);
    const std::string& room_id = room->authority.state().id();
    // Whichever connection joined last speaks for the member (a restarted daemon comes back
    // on a new one).
    speak_for(conn, room_id, ticket->member);
    // By name and seat, as the admin knows them (it said "member 2 joined", and only a peer
    // gone silent was named).
    const Member* joiner = room->authority.state().member(ticket->member);
    log_peer(spdlog::level::info, "room {}: {} {} from peer {} ({}, member {})",
        room->authority.state().config().name, joiner ? joiner->name : std::string("a player"),
        ticket->rejoined ? "rejoined" : "joined", short_id(conn),
        ticket->seat == kNoSeat ? std::string("watching")
                                : "seat " + std::to_string(ticket->seat + 1),
        ticket->member);
    pb::HostMessage reply;
    reply.set_request_id(msg.request_id());
    auto* joined = reply.mutable_joined();
    joined->set_member(ticket->member);
    joined->set_seat(ticket->seat);
    joined->set_token(ticket->token);
    joined->set_rejoined(ticket->rejoined);
    if (auto left = turn_ms_left(room->authority.turn_due(), now.steady))
        joined->set_turn_ms_left(*left);
    // The seats held for members who are gone: a replica counts their time down from here.
    for (const auto& [member, until] : room->authority.holds()) {
        auto* held = joined->add_held();
        held->set_member(member);
        held->set_ms_left(turn_ms_left(until, now.steady).value_or(0));
    }
    // A replica that has the room up to since_seq gets only what came after, when the room
    // still has all of it: a rejoin costs what was missed, not the whole room.
    if (!ticket->rejoined
        || !wire::to_proto_after(
            room->authority.state(), join.since_seq(), joined->mutable_snapshot()))
        wire::to_proto(room->authority.state(), joined->mutable_snapshot());
    send(conn, reply, now);
    flush(*room, now);
}

} // namespace halma::daemon
