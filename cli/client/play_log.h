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

} // namespace halma::cli
