// The host's side of its links' liveness: when the loop must next look at the host (a peer's
// timeout, a heartbeat due, a room's wake-up), and what it does then: peers silent past their
// timeout lose their seats to a hold, this machine's own stall is told from theirs, rooms whose
// time came are woken, and heartbeats carry each room's seq.
#include "daemon/net/host_service.h"
#include "daemon/net/turn_clock.h"
#include "daemon/room/clean_text.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;
using std::chrono::milliseconds;

std::optional<HostService::Clock::time_point> HostService::next_deadline() const {
    std::optional<Clock::time_point> next;
    auto consider = [&](Clock::time_point t) {
        if (!next || t < *next) next = t;
    };
    for (const auto& [id, c] : conns_) {
        if (c.alive) consider(c.last_recv + milliseconds(config_.peer_timeout_ms));
        if (c.alive && !c.members.empty())
            consider(c.last_send + milliseconds(config_.heartbeat_ms));
    }
    if (auto t = wakeups_.next()) consider(*t);
    return next;
}

void HostService::tick(const Now& now) {
    // A stall of this machine (a Pi swapping, a suspended VM, SIGSTOP) is not the peers'
    // silence: their heartbeats wait in the kernel, unread. When the loop comes to this far
    // past the time it was due here, each peer gets its timeout afresh. Counted silent, every
    // player was cut off at once, and the first back decided the room's votes alone.
    if (auto late = due_by_ ? now.steady - *due_by_ : Clock::duration {};
        late > milliseconds(config_.peer_timeout_ms) / 2 && !conns_.empty()) {
        if (late > milliseconds(config_.peer_timeout_ms)) // said only when it would have cut
            spdlog::warn("the loop came {} ms late (the machine stalled?): the other daemons "
                         "get their whole timeout again",
                std::chrono::duration_cast<milliseconds>(late).count());
        for (auto& [id, c] : conns_) c.last_recv = std::max(c.last_recv, now.steady);
    }
    std::vector<std::string> gone;
    std::set<std::string> touched; // rooms where a member's daemon went silent
    for (auto& [id, c] : conns_) {
        if (!c.alive || now.steady - c.last_recv < milliseconds(config_.peer_timeout_ms)) continue;
        c.alive = false;
        if (c.members.empty()) {
            gone.push_back(id);
            continue;
        }
        // Named by whom it seats, not only by its connection's id: the admin reads the log.
        std::string who;
        for (const auto& [room_id, member] : c.members)
            if (auto* room = find(room_id))
                if (const Member* m = room->authority.state().member(member))
                    who += (who.empty() ? "" : ", ") + m->name + " in "
                        + room->authority.state().config().name;
        // Budgeted: a peer that goes silent and comes back over and over wrote 2.7 kB a time.
        log_peer(spdlog::level::info, "peer {} ({}) went silent; holding its seats", short_id(id),
            sanitize_text(who, 200));
        for (const auto& [room_id, member] : c.members)
            if (auto* room = find(room_id); room && room->read_only.empty()) {
                room->authority.set_connected(member, false, now);
                touched.insert(room_id);
            }
    }
    for (const auto& id : gone) conns_.erase(id);
    // Before the heartbeats: the seq a heartbeat names is an event already on disk. Only the
    // rooms with something to do: the ones just touched, and those whose wake-up time came.
    for (const auto& id : touched)
        if (auto* room = find(id)) flush(*room, now);
    for (const auto& id : wakeups_.take_due(now.steady))
        if (auto* room = find(id))
            wake(*room, now);
        else
            finish_closing(id, now);
    for (auto& [id, c] : conns_) {
        if (!c.alive || c.members.empty()
            || now.steady - c.last_send < milliseconds(config_.heartbeat_ms))
            continue;
        pb::HostMessage beat;
        auto* hb = beat.mutable_heartbeat();
        std::string last_room;
        for (const auto& [room_id, member] : c.members) {
            if (room_id == last_room) continue;
            last_room = room_id;
            if (auto* room = find(room_id)) {
                auto* rs = hb->add_rooms();
                rs->set_room_id(room_id);
                rs->set_seq(room->authority.state().seq());
                rs->set_read_only(room->read_only);
                if (auto left = turn_ms_left(room->authority.turn_due(), now.steady))
                    rs->set_turn_ms_left(*left);
            }
        }
        send(id, beat, now);
    }
    // A silent peer whose members have all timed out of their rooms is forgotten.
    std::erase_if(
        conns_, [](const auto& c) { return !c.second.alive && c.second.members.empty(); });
    due_by_ = next_deadline();
}

} // namespace halma::daemon
