// What LAN discovery deals in, as plain values: the services this daemon asks avahi to publish
// and the rooms avahi finds. Neither avahi nor protobuf types appear here, so the avahi thread
// and the event loop share only these (copied across under a lock).
#pragma once

#include "daemon/room/room_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace halma::daemon {

// The DNS-SD service type every halmad publishes and browses (Bonjour-compatible).
inline constexpr const char* kServiceType = "_halma._tcp";

// One hosted room as a DNS-SD service.
struct Publication {
    std::string key; // the room id: one service (one avahi entry group) per hosted room
    std::string service_name; // the instance name wanted; avahi may make it "Family #2"
    std::vector<std::string> txt; // "key=value" items, service_txt.h
    std::uint16_t port = 0;

    bool operator==(const Publication&) const = default;
};

// Where a found room can be reached: one address per interface and protocol it was resolved on.
struct LanAddress {
    std::string ip; // "10.0.0.2", "fd00::2", "fe80::1%3" (link-local: with its interface index)
    int interface = 0; // the interface index it was found on
    bool ipv6 = false;

    // "10.0.0.2:7460" or "[fe80::1%3]:7460", as ZeroMQ and `halma join` read it.
    std::string endpoint(std::uint16_t port) const;
    bool link_local() const;
    bool operator==(const LanAddress&) const = default;
};

// What a room's TXT record says (service_txt.h reads it; everything in it is untrusted).
struct RoomAdvert {
    std::uint32_t protocol = 0;
    std::string daemon_id; // the publishing daemon's instance id
    // A public room:
    std::string room_id;
    std::string name;
    std::string host_player;
    int players = 0;
    int sets_per_player = 0;
    std::string rules; // engine rule settings as docs/rules.md spells them; empty: defaults
    int move_limit = 0;
    bool hide_leader = false; // the room tells nobody who leads until a game ends
    int seats = 0;
    int seats_taken = 0;
    Phase phase = Phase::kWaiting;
    // A friends room says nothing of itself, only this (friends_tag.h).
    std::string friends_salt;
    std::string friends_tag;

    bool friends() const { return !friends_tag.empty(); }
    bool operator==(const RoomAdvert&) const = default;
};

// A room found on the LAN: one DNS-SD service, merged over the interfaces and protocols it was
// resolved on.
struct LanRoom {
    std::string service; // the DNS-SD instance name (unique on the LAN)
    std::string machine; // the host's mDNS name, "ann-laptop.local"
    std::uint16_t port = 0;
    std::vector<LanAddress> addresses; // preferred first: IPv4, routable IPv6, link-local IPv6
    bool ours = false; // published by this very daemon
    RoomAdvert advert;

    // Whether `address` (host:port, as a link or a seat names it) is one this room is
    // advertised at: one of its addresses, or its machine's mDNS name, with its port.
    bool advertised_at(const std::string& address) const;
    bool operator==(const LanRoom&) const = default;
};

// The avahi side's state, for `halma daemon status` and the start-up warning.
enum class DiscoveryState { kOff, kUnavailable, kConnecting, kRunning };

struct DiscoveryNews {
    DiscoveryState state = DiscoveryState::kOff;
    std::string detail; // why it is not running, in words
    std::string machine; // this machine's mDNS name, once avahi runs
    std::vector<LanRoom> rooms;
};

} // namespace halma::daemon
