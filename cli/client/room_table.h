// `halma rooms`: the rooms a player can go to, as an aligned table a person reads at a glance
// (who hosts it, its name, the game, seats, phase), the LAN's rooms after this daemon's own.
#pragma once

#include "halma/v1/api.pb.h"

#include <string>

namespace halma::cli {

// "2 players", "3 players x 2 sets, jumps=long": the settings that differ from the defaults.
std::string describe_mode(const ::halma::v1::RoomMode& mode);
// The table, or a line saying there are no rooms.
std::string format_room_table(const ::halma::v1::RoomList& rooms);
// A line on LAN discovery when it is not running (why the LAN's rooms may be missing), else "".
std::string discovery_note(const ::halma::v1::Discovery& discovery);

} // namespace halma::cli
