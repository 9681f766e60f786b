// What a front end's view of a room holds (RoomView): the room as this daemon has it, hosted or
// a replica, and what only this daemon can say of it: the turn's clock and each gone player's
// hold as it counts them, why the room takes no change, and whether its host is out of reach.
#include "daemon/net/api_service.h"
#include "daemon/net/turn_clock.h"

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

// Each gone person's seat: the time left on its hold, where this daemon knows it.
void set_holds_left(const std::map<MemberId, std::chrono::steady_clock::time_point>& held_until,
    pb::RoomView* out) {
    auto now = std::chrono::steady_clock::now();
    for (auto& seat : *out->mutable_seats())
        if (auto it = held_until.find(seat.member()); !seat.connected() && it != held_until.end())
            seat.set_hold_ms_left(turn_ms_left(it->second, now).value_or(0));
}

} // namespace

bool ApiService::fill_view(const Target& t, pb::RoomView* out) {
    if (t.hosted) {
        wire::view(t.hosted->authority.state(), t.hosted->local_member, connected_state(),
            host_.address(), out);
        summarize_hosted(*t.hosted, out->mutable_summary());
        out->set_read_only(t.hosted->read_only);
        if (auto left
            = turn_ms_left(t.hosted->authority.turn_due(), std::chrono::steady_clock::now()))
            out->set_turn_ms_left(*left);
        set_holds_left(t.hosted->authority.holds(), out);
        return true;
    }
    if (!t.replica->state) return false;
    wire::view(*t.replica->state, t.replica->me, t.replica->connection, t.replica->address, out);
    // As the list and the status show it: origin, whether its host is out of reach, who hosts it.
    add_joined_facts(*t.replica, out->mutable_summary());
    out->set_read_only(t.replica->read_only);
    // Only while the host is heard from: with it gone, "0 s left" stood on the screen for good.
    if (t.replica->connection == pb::CONNECTION_STATE_CONNECTED
        && person_on_the_clock(*t.replica->state))
        if (auto left = turn_ms_left(t.replica->turn_due, std::chrono::steady_clock::now()))
            out->set_turn_ms_left(*left);
    // As the turn's clock: only while the host is heard from (it may have let the seat go).
    if (t.replica->connection == pb::CONNECTION_STATE_CONNECTED)
        set_holds_left(t.replica->held_until, out);
    // A host this daemon refuses to talk to (its key changed) is no passing drop: the front
    // ends show why, and what to do, where they show a read-only room's reason.
    if (t.replica->connection != pb::CONNECTION_STATE_CONNECTED)
        if (auto why = peers_.rejection(t.replica->address); !why.empty()) out->set_read_only(why);
    return true;
}

std::string ApiService::read_only(const std::string& room_id) {
    if (auto* hosted = host_.find(room_id)) return hosted->read_only;
    if (auto* replica = peers_.find(room_id)) return replica->read_only;
    return "";
}

} // namespace halma::daemon
