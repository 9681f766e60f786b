// What a member can ask of its room: the actions RoomAuthority::act() takes, as they come from
// the member's front end (through its daemon) or from the host's own player.
#pragma once

#include "daemon/room/room_types.h"

#include <optional>
#include <string>
#include <variant>

namespace halma::daemon {

namespace action {
struct Move {
    std::string text; // "o1-m7", a full path, or "pass"
};
struct Chat {
    std::string text;
};
struct Vote {
    VoteKind kind = VoteKind::kNewGame;
};
struct Leave { };
struct Start { // start now, with bots in the free seats
    std::optional<BotLevel> level; // unset: the daemon's default level
};
} // namespace action
using Action = std::variant<action::Move, action::Chat, action::Vote, action::Leave, action::Start>;

} // namespace halma::daemon
