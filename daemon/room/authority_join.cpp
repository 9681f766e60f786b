// Who comes into a room, and as whom: a join (a new member, a rejoin with a seat token, a
// player gone past the hold taking the seat back from the computer keeping it), the name others
// see (unique, and unlike any other to the eye: clean_name), and member ids, 32 bits and never
// reused.
#include "daemon/room/room_authority.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <limits>

namespace halma::daemon {

namespace {

Refusal refuse(Refusal::Code code, std::string message) {
    return Refusal { code, std::move(message) };
}

} // namespace

std::string RoomAuthority::unique_name(std::string_view wanted) const {
    std::string base = clean_name(wanted, kMaxMemberName);
    if (base.empty()) base = "player";
    auto taken = [&](const std::string& n) {
        return std::any_of(state_.members().begin(), state_.members().end(),
            [&](const auto& m) { return m.second.name == n; });
    };
    std::string name = base;
    for (int i = 2; taken(name); ++i) name = base + " (" + std::to_string(i) + ")";
    return name;
}

Outcome<SeatTicket> RoomAuthority::join(
    std::string_view name, std::string_view token, bool spectate, const Now& now) {
    if (closed())
        return std::unexpected(refuse(
            Refusal::Code::kUnknownRoom, "room " + state_.config().name + " has been closed"));
    if (MemberId id = member_of(token); id != kNoMember) {
        const Member* m = state_.member(id);
        if (!m->connected) set_connected(id, true, now);
        return SeatTicket { id, m->seat, std::string(token), true };
    }
    for (const auto& [seat, in] : stand_ins_)
        if (!token.empty() && in.token == token)
            return take_back(
                seat, in.gone, in.name.empty() ? std::string(name) : in.name, in.token, true, now);
    int seat = kNoSeat;
    if (!spectate) {
        seat = state_.first_free_seat();
        for (const auto& [s, in] : stand_ins_) {
            if (seat != kNoSeat || !in.token.empty()) continue;
            auto id = take_member_id(true);
            if (!id) return std::unexpected(ids_used_up());
            return take_back(s, *id, std::string(name), random_hex_id(), false, now);
        }
        if (seat == kNoSeat)
            // How to watch instead is the joiner's front end's to say: only it knows how the
            // room was reached (by name on the LAN, or at an address: "halma join --spectate
            // watch" failed to find a room joined as 127.0.0.1:17460/watch).
            return std::unexpected(refuse(Refusal::Code::kRoomFull,
                "room " + state_.config().name + " is full (" + std::to_string(state_.seats())
                    + " seats taken): join it as a spectator to watch"));
    } else if (state_.spectators() >= kMaxSpectators) {
        return std::unexpected(refuse(Refusal::Code::kRoomFull,
            "room " + state_.config().name + " has " + std::to_string(kMaxSpectators)
                + " spectators already"));
    }
    auto taken = take_member_id(true);
    if (!taken) return std::unexpected(ids_used_up());
    MemberId id = *taken;
    std::string new_token = random_hex_id();
    member_by_token_[new_token] = id;
    token_of_[id] = new_token;
    emit(event::MemberJoined { id, unique_name(name), seat, false }, now);
    settle(now);
    return SeatTicket { id, seat, new_token, false };
}

MemberId RoomAuthority::member_of(std::string_view token) const {
    if (token.empty()) return kNoMember;
    auto it = member_by_token_.find(std::string(token));
    return it == member_by_token_.end() ? kNoMember : it->second;
}

bool RoomAuthority::knows_token(std::string_view token) const {
    if (member_of(token) != kNoMember) return true;
    return !token.empty() && std::any_of(stand_ins_.begin(), stand_ins_.end(), [&](const auto& s) {
        return s.second.token == token;
    });
}

std::optional<MemberId> RoomAuthority::take_member_id(bool joining) {
    MemberId last = joining ? kLastJoinable : std::numeric_limits<MemberId>::max() - 1;
    if (next_member_ > last) return std::nullopt;
    return next_member_++;
}

Refusal RoomAuthority::ids_used_up() const {
    return refuse(Refusal::Code::kBadRequest,
        "room " + state_.config().name
            + " has had over four billion members come and go and takes no more: its host "
              "closes it and hosts it anew");
}

} // namespace halma::daemon
