// The `halma play` screen laid out for the terminal it has: the board at the top left, the
// room's status beside it (or, on a narrow terminal, abbreviated below it), the latest events
// trimmed to the rows left, and the prompt on the last row. Pure functions of what they are
// given, so every terminal size lays out the same way each time.
#pragma once

#include "halma/v1/api.pb.h"

#include <deque>
#include <string>
#include <vector>

namespace halma::cli {

// The status panel for a column `width` wide: the room, each seat (letter, name, what it is
// doing, distance left), whose turn, who leads, votes, and what to do next (how others join
// while waiting, how to start the next game at the end).
// `daemon` is the line to the local halmad: DISCONNECTED while it is gone (restarting),
// CONNECTING once it is back until the room is read again; the light shows it first.
// `not_running`: it has been gone too long to be restarting (nothing brings it back); how to
// start it is said below the board, as it can be long.
// `final_distances`: at a game's end, the distances those not home still had to go, under the
// seats; compose_screen leaves them out where they would push the rest off the screen.
std::vector<std::string> status_panel(const ::halma::v1::RoomView& view, bool colour, int width,
    ::halma::v1::ConnectionState daemon = ::halma::v1::CONNECTION_STATE_CONNECTED,
    bool not_running = false, bool final_distances = true);

// What stands in for the board while a room waits for players: who is missing, and /start. The
// command others join with is laid out under it by compose_screen (ScreenContent::join_command).
std::vector<std::string> waiting_lines(const ::halma::v1::RoomView& view);

// Two lines for a terminal too narrow for the panel: the seats by letter, and whose turn.
std::vector<std::string> status_brief(const ::halma::v1::RoomView& view, bool colour, int width,
    ::halma::v1::ConnectionState daemon = ::halma::v1::CONNECTION_STATE_CONNECTED,
    bool not_running = false);

// Why no move can be sent to the room now, for a person ("waiting for the host (reconnecting)"),
// or empty when one can: our own halmad gone or back but not yet reading the room (`daemon`, as
// in status_panel; `not_running` as there too), or its line to the room's host down. The
// view's turn is then only as last heard.
std::string out_of_reach_words(const ::halma::v1::RoomView& view,
    ::halma::v1::ConnectionState daemon, bool not_running = false);

struct ScreenContent {
    std::vector<std::string> board; // the board, or what stands in for it (help, the key)
    int board_width = 0;
    const ::halma::v1::RoomView* view = nullptr;
    bool colour = true;
    const std::deque<std::string>* log = nullptr; // oldest first
    ::halma::v1::ConnectionState daemon = ::halma::v1::CONNECTION_STATE_CONNECTED;
    bool daemon_not_running = false; // as status_panel's `not_running`
    // While the room waits: the command others join with (join_command()). It gets the whole
    // width, under the board and the status, and is never cut: beside the status an address and
    // a friends code were wider than the board's column, and the code was cut as if whole.
    std::string join_command = "";
    // The player's move in another of their rooms (your_move_elsewhere()): under the board and
    // the status, the whole width, before the log; one line, cut, in a window too short for the
    // board and all of it.
    std::string elsewhere = "";
    // `board` is the board, the player's own side at its bottom: a window too short for it
    // loses its top rows first (help and the hole key lose their end).
    bool player_at_bottom = false;
};

// Exactly rows - 1 lines (the last row is the prompt's), none wider than cols.
std::vector<std::string> compose_screen(const ScreenContent& content, int cols, int rows);

} // namespace halma::cli
