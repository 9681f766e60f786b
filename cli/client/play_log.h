// What the play screen's log starts with when a room is opened: the room's latest chat, which
// its view carries (the web page shows it on reload). Reopening halma play after /quit showed
// an empty log, and the conversation was gone from the screen.
#pragma once

#include "halma/v1/api.pb.h"

#include <cstddef>
#include <string>
#include <vector>

namespace halma::cli {

// The last `count` chat lines, oldest first, as a chat event says them ("bob: hello").
std::vector<std::string> recent_chat(const ::halma::v1::RoomView& view, std::size_t count);

// An event's line in the log of the player whose screen it is: their own move as theirs ("you
// played n3-m7", where the daemon's words, for every front end, name them: "ann played n3-m7"
// read to ann as someone else's move), and their own votes ("you vote for a new game"). `view`
// is the room as shown, the viewer's seat in it.
std::string log_line(const ::halma::v1::Event& event, const ::halma::v1::RoomView& view);

} // namespace halma::cli
