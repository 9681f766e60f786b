// A room's log folded to what still matters, so that what one room holds (in memory, in every
// snapshot, on disk) has a bound whatever its members send: chat past the window, members who
// left (join/leave churn), their connections and votes, and the games before the current one
// go. The folded log is a subsequence of the log, seqs and all; replayed in order
// (RoomState::replay) it rebuilds the same room, on the host after a restart and on a replica.
#pragma once

#include "daemon/room/room_event.h"

#include <cstddef>
#include <vector>

namespace halma::daemon {

// Chat lines a room keeps (RoomState::chat() and the folded log alike).
inline constexpr std::size_t kChatWindow = 100;
// The last events are never folded: a replica that is only a little behind gets just those
// (JoinRoom.since_seq) instead of the whole room.
inline constexpr std::size_t kRecentEvents = 64;

// `recent`: how many of the last events are kept whole. A new game folds with none: the game
// before it is a record, and a replica that missed its end gets a snapshot of the new one.
std::vector<RoomEvent> fold_log(
    const std::vector<RoomEvent>& log, std::size_t recent = kRecentEvents);

} // namespace halma::daemon
