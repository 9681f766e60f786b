// What to tell a user whose room name the daemon did not know: the rooms there are (this
// daemon's, or the host's named in a join), the likeliest one they meant, and `-r ROOM` when
// they named none and this daemon is in several.
#pragma once

#include "cli/client/daemon_connection.h"

#include <string>

namespace halma::cli {

struct RoomHint {
    std::string text; // lines, each starting with "halma: "; empty when there is nothing to add
    bool usage = false; // no room named where one had to be: a usage error (exit 2)
};

// For a request the daemon refused with ERROR_CODE_UNKNOWN_ROOM; asks the daemon for the list.
RoomHint unknown_room_hint(DaemonConnection& daemon, const pb::Request& refused);

// The closest of `names` to `typed` when it is close enough to be a slip, else empty.
std::string closest_name(const std::string& typed, const std::vector<std::string>& names);

} // namespace halma::cli
