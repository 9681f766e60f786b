// A room's game as a record (engine/game_record.h): made by the host when a game ends (every
// place decided, the move or stall limit, a cancel vote) or is left for a new one (a new-game
// vote during play), before the next game's start folds its moves out of the room's log.
#pragma once

#include "daemon/room/room_state.h"
#include "engine/game_record.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace halma::daemon {

// The room's current game as it stands. `ending` overrides why it ended (a game left for a new
// one is "restarted", one whose room was closed "room closed"); empty: the game's own end, or
// "cancelled". `ended_ms`, when given, is when it ended (a new game's start): else the time of
// its last move, of the vote that cancelled it or of the close. Needs a game (game_number > 0).
engine::GameRecord record_of(const RoomState& state, std::string_view ending = {},
    std::optional<std::int64_t> ended_ms = std::nullopt);
// Whether the room's current game is over or cancelled: its record is due.
bool game_ended(const RoomState& state);

} // namespace halma::daemon
