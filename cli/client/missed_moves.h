// What a player missed of a room while it was rebuilt rather than followed event by event (their
// halmad restarted, or it rejoined the room's host after a drop): the moves made meanwhile, each
// with who made it, as the log says a move it sees. The board jumped to the room as it is now,
// saying only "halmad is back" or "connected to the host", and the player could not tell what
// the others (or the computer keeping their seat) had played.
#pragma once

#include "halma/v1/api.pb.h"

#include <string>
#include <vector>

namespace halma::cli {

namespace pb = ::halma::v1;

// At most this many moves are named; before them, how many more there were.
inline constexpr int kMissedMovesShown = 12;

// Log lines for the moves `after` has beyond the first `seen` of this game, when `before` is
// the same room in the same game (else nothing: a new game is told by its own event); at most
// `up_to` of the moves `after` holds count (the rest come as events of their own).
std::vector<std::string> missed_moves(
    const pb::RoomView& before, const pb::RoomView& after, int up_to);

// The game's last move, as a room opened in play shows it under its recent chat: "last move: bob
// played o2-m6" ("you played" for the viewer's own seat). Coming back to play showed the chat
// alone, and only the board's marker told of a new game's first move. Empty with no move yet.
std::string last_move_words(const pb::RoomView& view);

} // namespace halma::cli
