// What a standing room's [[room]] in the config file says differently from the room as it was
// made: a room keeps its setup while it stands (a game must not change rules under its
// players), so an edit takes effect only once the room is closed; the log says so, naming each
// setting that differs. It named none, and said nothing of bots or their level.
#pragma once

#include "daemon/net/config.h"
#include "daemon/room/room_state.h"

#include <string>
#include <vector>

namespace halma::daemon {

// "bots: 1 in the room, 2 in the file", one per setting that differs; empty: none does.
std::vector<std::string> standing_room_differences(
    const StandingRoom& spec, const RoomState& room, BotLevel default_bot_level);

// `text` as one word for a POSIX shell: quoted if it needs to be ('watch the bots').
std::string shell_word(const std::string& text);

} // namespace halma::daemon
