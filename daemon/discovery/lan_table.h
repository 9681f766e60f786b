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
};

// The rooms among the resolved services, sorted by room name then machine. A service whose TXT is
// not a halma room this daemon can read is left out.
std::vector<LanRoom> merge_services(const std::vector<ResolvedService>& resolved);

// The order to try a room's addresses in: IPv4 first (it works on nearly every LAN), then
// routable IPv6, then link-local IPv6 (which needs its interface, and so works only from here).
bool address_before(const LanAddress& a, const LanAddress& b);

} // namespace halma::daemon
