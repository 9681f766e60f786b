// The TXT record of a `_halma._tcp` service: what a browser can show before connecting. Written
// by the publishing daemon, read by every other one, so the reader treats it as hostile input:
// unknown keys are ignored, every value is bounded and cleaned, and a record that is not a halma
// room of a protocol this daemon speaks is no room at all. docs/protocol.md lists the keys.
#pragma once

#include "daemon/discovery/lan_room.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace halma::daemon {

// A public room: its name, the host's player, mode, seats and phase.
std::vector<std::string> public_room_txt(const RoomConfig& config, int seats, int seats_taken,
    Phase phase, std::string_view host_player, std::string_view daemon_id);
// A friends room: nothing that names or describes it, only a salted tag of its code.
std::vector<std::string> friends_room_txt(
    std::string_view daemon_id, std::string_view salt, std::string_view tag);

// The advert in a TXT record, or nullopt when the record is not a halma room this daemon can
// read (no or another protocol version, no daemon id, neither a room nor a friends tag).
std::optional<RoomAdvert> read_room_txt(const std::vector<std::string>& items);

// "waiting", "playing", "over", "cancelled", "closed": the spelling in TXT records.
std::string_view phase_word(Phase phase);

} // namespace halma::daemon
