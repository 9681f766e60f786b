// `halma play` when this daemon is in no room yet: the LAN's rooms, numbered and kept up to
// date as they come and go, and the player picks one by number or name to join, without typing
// any address (docs/api.md: ListRequest and SubscribeRequest with `lan`).
#pragma once

#include "cli/client/daemon_connection.h"

#include <optional>
#include <string>

namespace halma::cli {

// The room to play in: "" when the daemon is in one room already (play resolves it), the id of
// the room picked (one joined from the LAN's list, or, in several rooms, one of the player's), or
// nullopt when the player gave up or the join failed (exit_code set).
std::optional<std::string> pick_room(DaemonConnection& daemon, int& exit_code);

} // namespace halma::cli
