// Which CURVE key each remote member of a hosted room joined with. A seat token is only good from
// that key: a token read off a screen, a backup or (before links were encrypted) the wire is of no
// use from another daemon, while the member's own daemon, restarted, still rejoins (its key is
// kept in its state directory). Kept beside the room's other files (STATE_DIR/rooms/ID/keys, two
// copies: paired_file.h), so a restarted host still knows them.
#pragma once

#include "daemon/room/room_types.h"
#include "engine/result.h"

#include <filesystem>
#include <map>
#include <string>

namespace halma::daemon {

using SeatKeys = std::map<MemberId, std::string>;

// The room directory's keys file; empty when there is none. Damaged lines are skipped (their
// members are then refused from every key until they join anew: never let in from any).
SeatKeys load_seat_keys(const std::filesystem::path& room_dir);
engine::Result<bool> save_seat_keys(const std::filesystem::path& room_dir, const SeatKeys& keys);
// The keys file's text ("MEMBER KEY" lines), for a writer of its own (RoomStore::save_keys).
std::string encode_seat_keys(const SeatKeys& keys);

// The key messages carry when links are plain (the benchmark's baseline, --insecure-plain-links):
// every member is bound to it, so binding changes nothing there.
inline constexpr const char* kPlainLinkKey = "";

} // namespace halma::daemon
