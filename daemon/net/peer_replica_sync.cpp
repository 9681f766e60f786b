// A guest's replicas of the rooms it joined, kept in step with their hosts: the host's updates
// and heartbeats applied, a join's answer adopted, a rejoin after a lost link, and the connection
// state front ends show. The links themselves (sockets, requests, deadlines) are peer_links.cpp.
#include "daemon/net/peer_links.h"
#include "daemon/net/standing_room_diff.h"
#include "daemon/net/turn_clock.h"

#include <malloc.h>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;
using std::chrono::milliseconds;

void PeerLinks::handle_update(Link& link, const pb::RoomUpdate& update, const Now& now) {
    Replica* r = find(update.room_id());
    if (!r || !r->state || r->address != link.address) return;
    if (!r->read_only.empty()) { // the host took a change: it can write again
        r->read_only.clear();
        listener_.room_changed(*r->state, nullptr, r->me, r->connection);
    }
    auto e = wire::event_from_proto(update.event());
    std::optional<std::string> error;
    if (!e)
        error = e.error().message;
    else if (e->seq <= r->state->seq())
        return; // had it already (sent again around a snapshot)
    else
        error = r->state->apply(*e);
    if (error) {
        // Mostly a host that dropped updates this daemon was slow to read (it keeps few for a
        // peer): expected, and mended here, so no warning.
        log_host(spdlog::level::info, "room {}: {}; asking for a fresh snapshot",
            r->state->config().name, *error);
        r->in_step = false;
        rejoin(*r, now);
        return;
    }
    // A turn that starts here starts the clock here, as the host's does: another member to move,
    // another ply or game (a spectator's join started it again at the full limit, while the
    // host's ran on). The host's heartbeats keep it right.
    if (!person_on_the_clock(*r->state))
        r->turn_due.reset();
    else if (turn_key(*r->state) != r->turn)
        r->turn_due = now.steady + std::chrono::seconds(r->state->config().mode.turn_limit_s);
    r->turn = turn_key(*r->state);
    if (auto* c = std::get_if<event::Connection>(&e->body); c && !c->connected && c->hold_ms > 0)
        r->held_until[c->member] = now.steady + milliseconds(c->hold_ms);
    else if (c)
        r->held_until.erase(c->member);
    else if (auto* gone = std::get_if<event::MemberLeft>(&e->body))
        r->held_until.erase(gone->member);
    listener_.room_changed(*r->state, &*e, r->me, r->connection);
    if (auto* left = std::get_if<event::MemberLeft>(&e->body); left && left->member == r->me) {
        spdlog::info("room {}: no longer a member", r->state->config().name);
        forget(r->room_id);
    } else if (std::holds_alternative<event::RoomClosed>(e->body)) {
        spdlog::info("room {}: closed by its host", r->state->config().name);
        note_ended(*r, "its host closed it");
        forget(r->room_id);
    }
}

void PeerLinks::handle_heartbeat(Link& link, const pb::Heartbeat& beat, const Now& now) {
    for (const auto& rs : beat.rooms()) {
        Replica* r = find(rs.room_id());
        if (r && r->state && r->address == link.address) {
            std::string read_only = sanitize_text(rs.read_only(), kMaxErrorText);
            if (read_only != r->read_only) {
                r->read_only = std::move(read_only);
                log_host(spdlog::level::info, "room {}: {}", r->state->config().name,
                    r->read_only.empty() ? "the host takes changes again" : r->read_only);
                listener_.room_changed(*r->state, nullptr, r->me, r->connection);
            }
        }
        if (r && r->state && r->address == link.address) {
            // As long as the room's limit at most: the host's word is not taken past it.
            auto limit = std::chrono::milliseconds(
                std::int64_t { r->state->config().mode.turn_limit_s } * 1000);
            auto before = r->turn_due;
            if (rs.has_turn_ms_left() && person_on_the_clock(*r->state))
                r->turn_due = now.steady
                    + std::min<std::chrono::milliseconds>(
                        std::chrono::milliseconds(rs.turn_ms_left()), limit);
            else if (rs.seq() == r->state->seq())
                r->turn_due.reset();
            // Front ends read the clock with the view, at events: a correction of a second or
            // more, or a clock that starts or stops, is one for them (an event with no event).
            bool moved = before.has_value() != r->turn_due.has_value()
                || (before && *before - *r->turn_due > std::chrono::seconds(1))
                || (before && *r->turn_due - *before > std::chrono::seconds(1));
            if (moved) listener_.room_changed(*r->state, nullptr, r->me, r->connection);
        }
        if (r && r->state && r->address == link.address && rs.seq() > r->state->seq()) {
            log_host(spdlog::level::info, "room {}: behind the host ({} < {}); resyncing",
                r->state->config().name, r->state->seq(), rs.seq());
            rejoin(*r, now);
        }
    }
}

// The answer must be of this daemon's own place in a room that is open: a host's answer that
// seated us where its room has nobody, or whose room was closed, was taken ("joined room evil,
// watching" for a seat asked for; a room closed yet listed as joined: a red-team QA pass).
// Whatever the host meant, nothing there could be played.
bool PeerLinks::answer_fits(
    const RoomState& state, const pb::Joined& joined, const std::string& address) {
    const Member* me = state.member(joined.member());
    std::string_view wrong = !me          ? "does not have the member it names as ours"
        : me->seat != joined.seat()       ? "seats our member elsewhere than it says"
        : state.phase() == Phase::kClosed ? "is of a room already closed"
                                          : "";
    if (wrong.empty()) return true;
    log_host(spdlog::level::err, "host {} answered with a room that {}; not taken", address, wrong);
    return false;
}

bool PeerLinks::adopt(Replica& r, const pb::Joined& joined) {
    // The token goes into the seats file, a line per room: a host's newlines in it wrote lines
    // of its own there (rooms at any address, rejoined at every start).
    if (!joined.token().empty() && !wire::plain_id(joined.token())) {
        log_host(spdlog::level::err,
            "host {} sent a seat token that is not one ({} bytes); not joined", r.address,
            joined.token().size());
        r.in_step = false;
        return false;
    }
    // The room is this replica's own, and no other's here: a rejoin answered with the id of a
    // room at another host, or of one hosted here, took it over as a join once did (the join's
    // own check, in join(), does not see a rejoin).
    const std::string& id = joined.snapshot().config().room_id();
    bool elsewhere = listener_.hosted_here(id);
    for (const auto& other : replicas_) elsewhere |= other.get() != &r && other->room_id == id;
    if ((!r.room_id.empty() && id != r.room_id) || elsewhere) {
        log_host(spdlog::level::warn, "host {} answered for room {} with the id of {}; not taken",
            r.address, r.room_id.empty() ? std::string("a new one") : r.room_id,
            elsewhere ? "a room elsewhere" : "another room");
        return false;
    }
    if (joined.snapshot().after_seq() > 0) {
        // Only what came after our seq: applied to the replica as updates are.
        // A code re-issued for the host's new key comes with the whole room: the replica's
        // config is the one its snapshot made (it showed the old code, which joiners refused).
        if (!r.state || r.state->seq() < joined.snapshot().after_seq()
            || joined.snapshot().config().room_id() != r.state->id()
            || joined.snapshot().config().code() != r.state->config().code) {
            r.in_step = false;
            return false;
        }
        for (const auto& pe : joined.snapshot().events()) {
            auto e = wire::event_from_proto(pe);
            if (e && e->seq <= r.state->seq()) continue;
            if (!e || r.state->apply(*e)) {
                log_host(spdlog::level::err,
                    "host {} sent events that do not apply; asking for the whole room", r.address);
                r.in_step = false;
                return false;
            }
        }
    } else {
        auto state = wire::state_from_proto(joined.snapshot());
        if (!state) {
            log_host(spdlog::level::err, "host {} sent a snapshot that does not replay: {}",
                r.address, state.error().message);
            return false;
        }
        if (!answer_fits(*state, joined, r.address)) return false; // the replica as it was
        r.state = std::move(*state);
    }
    if (joined.snapshot().after_seq() > 0 && !answer_fits(*r.state, joined, r.address)) {
        r.in_step = false; // the next rejoin asks for the whole room
        return false;
    }
    r.in_step = true;
    r.room_id = r.state->id();
    r.name = r.state->config().name;
    r.me = joined.member();
    r.spectator = joined.seat() == kNoSeat;
    r.token = joined.token();
    r.connection = pb::CONNECTION_STATE_CONNECTED;
    // The clock as the host says it runs: the turn may have started long before this join (or
    // this daemon's restart), and a full turn shown meanwhile misled. A host that says nothing
    // of it: none until its next heartbeat (a second at most).
    r.turn_due.reset();
    if (joined.has_turn_ms_left() && person_on_the_clock(*r.state))
        r.turn_due = Clock::now()
            + std::min<std::chrono::milliseconds>(std::chrono::milliseconds(joined.turn_ms_left()),
                std::chrono::seconds(r.state->config().mode.turn_limit_s));
    r.turn = turn_key(*r.state);
    // The holds as the host counts them: only of members of the room who are gone, and no
    // longer than a hold can be (a day).
    r.held_until.clear();
    for (const auto& held : joined.held())
        if (const Member* m = r.state->member(held.member()); m && !m->bot && !m->connected)
            r.held_until[held.member()] = Clock::now()
                + std::min<milliseconds>(milliseconds(held.ms_left()), std::chrono::hours(24));
    pin_host_key(r.address);
    save();
    listener_.room_changed(*r.state, nullptr, r.me, r.connection);
    return true;
}

void PeerLinks::rejoin(Replica& r, const Now& now) {
    if (r.rejoin_in_flight) return;
    if (now.steady < r.rejoin_not_before) { // backing off a host whose answers were refused
        r.next_rejoin = std::max(r.next_rejoin, r.rejoin_not_before);
        return;
    }
    std::string error;
    Link* link = link_for(r.address, error);
    if (!link) return;
    r.rejoin_in_flight = true;
    pb::PeerMessage msg;
    auto* join = msg.mutable_join();
    join->set_room(r.room_id);
    join->set_name(config_.name);
    join->set_token(r.token);
    join->set_spectate(r.spectator);
    if (r.state && r.in_step) join->set_since_seq(r.state->seq());
    std::string room_id = r.room_id, address = r.address;
    request(
        *link, std::move(msg),
        [this, room_id, address](const pb::HostMessage& reply) {
            // This very replica, by its id at its host: find() also takes names and codes.
            Replica* replica = nullptr;
            for (auto& known : replicas_)
                if (known->room_id == room_id && known->address == address) replica = known.get();
            if (!replica) return;
            replica->rejoin_in_flight = false;
            auto retry_at = Clock::now() + milliseconds(config_.heartbeat_ms);
            if (reply.has_joined()) {
                bool taken = adopt(*replica, reply.joined());
                if (!taken) {
                    refused_answer(*replica);
                    replica->next_rejoin = std::max(retry_at, replica->rejoin_not_before);
                } else {
                    replica->refused_answers = 0;
                    replica->rejoin_not_before = {};
                }
                if (taken && !reply.joined().rejoined())
                    log_host(spdlog::level::warn, "room {}: the seat was not held; joined anew",
                        room_id);
                return;
            }
            if (reply.error().code() == pb::ERROR_CODE_UNKNOWN_ROOM) {
                gone(*replica); // replica is no more
                return;
            }
            if (reply.error().code() == pb::ERROR_CODE_ROOM_FULL) {
                seat_given_away(*replica, reply.error().message()); // replica is no more
                return;
            }
            if (reply.error().code() == pb::ERROR_CODE_NOT_ALLOWED) {
                // The host refused us (our key is not the one that holds the seat), or we
                // refused it (its key changed): asking again changes nothing. The seat is kept,
                // for `halma join` once the person has looked into it.
                log_host(spdlog::level::warn, "room {}: cannot rejoin: {}", room_id,
                    reply.error().message());
                set_connection(*replica, pb::CONNECTION_STATE_DISCONNECTED);
                return;
            }
            set_connection(*replica, pb::CONNECTION_STATE_CONNECTING);
            replica->next_rejoin = retry_at;
        },
        now);
}

void PeerLinks::refused_answer(Replica& r) {
    int doublings = std::min(r.refused_answers++, 6);
    auto first = std::max(milliseconds(config_.heartbeat_ms), milliseconds(1000));
    auto wait = std::min<Clock::duration>(first * (1 << doublings), kMostRejoinBackoff);
    r.rejoin_not_before = Clock::now() + wait;
    log_host(spdlog::level::warn,
        "room {}: the host's answer could not be taken ({} in a row); "
        "asking again in {} s",
        r.state ? r.state->config().name : r.room_id, r.refused_answers,
        std::chrono::duration_cast<std::chrono::seconds>(wait).count());
    // Parsing it took memory the allocator would otherwise keep for good (tens of MB).
    ::malloc_trim(0);
}

// The host has no such room any more: it was closed (or its files lost) while this daemon was
// stopped or out of reach, so the close never reached us. Kept, the room stayed listed as if it
// were alive ("waiting for players, joined"), or hidden yet answering "still connecting", and
// its host was probed every 10 s for good. Front ends following it are told as of a close.
void PeerLinks::gone(Replica& r) {
    spdlog::info("room {}: its host no longer has it (closed while this daemon was away); "
                 "forgotten",
        r.state ? r.state->config().name : r.room_id);
    if (r.state && r.state->phase() != Phase::kClosed) {
        RoomEvent closed { r.state->seq() + 1, Now::current().wall_ms, event::RoomClosed {} };
        if (!r.state->apply(closed))
            listener_.room_changed(*r.state, &closed, r.me, pb::CONNECTION_STATE_DISCONNECTED);
    }
    note_ended(r, "its host closed it while this daemon was away");
    forget(r.room_id);
}

// Past the hold, the host gave the seat to a computer, and the next newcomer (or the next game's
// start) took it; a full room has no other, and a rejoin with the old token is refused as a
// stranger's join. Kept, the room stayed listed as joined yet "not heard of yet, host out of
// reach" while the host answered, and was asked again every 10 s for good. The player may
// watch it: the log says how, and front ends following it hear that the player left it.
void PeerLinks::seat_given_away(Replica& r, const std::string& why) {
    std::string name = r.state ? r.state->config().name : r.name.empty() ? r.room_id : r.name;
    spdlog::warn("room {}: {} this daemon's player had was given to another while it was away, "
                 "and the host has no other ({}); forgotten. To watch it: halma join --spectate "
                 "{}/{}",
        name, r.spectator ? "the place" : "the seat", why, r.address, name);
    if (r.state && r.state->member(r.me) && r.state->phase() != Phase::kClosed) {
        RoomEvent left { r.state->seq() + 1, Now::current().wall_ms,
            event::MemberLeft { r.me, true } };
        if (!r.state->apply(left))
            listener_.room_changed(*r.state, &left, r.me, pb::CONNECTION_STATE_DISCONNECTED);
    }
    note_ended(r,
        std::string(r.spectator ? "your place" : "your seat")
            + " was given to another while this daemon was away; halma join --spectate "
            + shell_word(r.address + "/" + name) + " watches it");
    forget(r.room_id);
}

void PeerLinks::set_connection(Replica& r, pb::ConnectionState state) {
    if (r.connection == state) return;
    r.connection = state;
    if (r.state) listener_.room_changed(*r.state, nullptr, r.me, state);
}

} // namespace halma::daemon
