// Turns what avahi resolved (one record per service, interface and protocol) into the LAN's
// room list: one room per service, its addresses merged and put in the order to try them, its
// TXT read as untrusted input, and the list bounded whatever the LAN advertises.
#pragma once

#include "daemon/discovery/lan_room.h"

#include <cstdint>
#include <string>
#include <vector>

namespace halma::daemon {

// At most this many rooms are kept, however many services a LAN advertises.
inline constexpr std::size_t kMaxLanRooms = 256;
// Past kMaxLanRooms, at most this many from one machine (its first address), so that one
// machine's flood of adverts cannot push the others' rooms off the list.
inline constexpr std::size_t kMaxLanRoomsPerMachine = 32;
// At most this many addresses are kept for one room.
inline constexpr std::size_t kMaxRoomAddresses = 8;

// A service as resolved on one interface and protocol.
struct ResolvedService {
    std::string service; // instance name
    std::string domain;
    std::string host_name; // "ann-laptop.local"
    LanAddress address;
    std::uint16_t port = 0;
    std::vector<std::string> txt;
    std::uint64_t order = 0; // when it was resolved: the newest TXT of a service wins
    std::uint64_t first_seen = 0; // when it was first resolved: past the bound, the oldest stay
};

// The rooms among the resolved services, sorted by room name then machine. A service whose TXT is
// not a halma room this daemon can read is left out. Past kMaxLanRooms, the rooms kept are
// those seen first, at most kMaxLanRoomsPerMachine from one machine: which rooms go never
// depends on names an advertiser picks (the list kept the first 256 by name, so 300 adverts
// named "flood room N" hid every room named after them). `left_out`, if given, counts the rest.
std::vector<LanRoom> merge_services(
    const std::vector<ResolvedService>& resolved, std::size_t* left_out = nullptr);

// The order to try a room's addresses in: IPv4 first (it works on nearly every LAN), then
// routable IPv6, then link-local IPv6 (which needs its interface, and so works only from here).
bool address_before(const LanAddress& a, const LanAddress& b);

} // namespace halma::daemon
