// What a front end is told of a room's turn limit (RoomView.turn_ms_left) and a host tells its
// peers in each heartbeat: the milliseconds left on the turn of the person to move.
#pragma once

#include "daemon/room/room_state.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <tuple>

namespace halma::daemon {

// Left until `due`, 0 once past; nullopt when no clock runs.
inline std::optional<std::uint32_t> turn_ms_left(
    std::optional<std::chrono::steady_clock::time_point> due,
    std::chrono::steady_clock::time_point now) {
    if (!due) return std::nullopt;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*due - now).count();
    return static_cast<std::uint32_t>(std::clamp<long long>(left, 0, 86'400'000));
}

// Whether a turn clock can run in the room as it stands: a limit, a game, and a person to move.
inline bool person_on_the_clock(const RoomState& state) {
    if (state.config().mode.turn_limit_s <= 0 || state.phase() != Phase::kPlaying) return false;
    int seat = state.seat_to_move();
    const Member* m = seat != kNoSeat ? state.member(state.seat_holder(seat)) : nullptr;
    return m && !m->bot;
}

// Which turn runs: who is to move, in which game, at which ply. The host starts a turn's clock
// when this changes (RoomAuthority::plan_turn), and a replica likewise.
using TurnKey = std::tuple<MemberId, int, std::size_t>;
inline TurnKey turn_key(const RoomState& state) {
    int seat = state.phase() == Phase::kPlaying ? state.seat_to_move() : kNoSeat;
    return { seat != kNoSeat ? state.seat_holder(seat) : kNoMember, state.game_number(),
        state.move_names().size() };
}

} // namespace halma::daemon
