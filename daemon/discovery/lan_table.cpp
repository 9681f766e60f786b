#include "daemon/discovery/lan_table.h"

#include "daemon/discovery/service_txt.h"

#include <algorithm>
#include <arpa/inet.h>
#include <map>
#include <netinet/in.h>

namespace halma::daemon {

std::string LanAddress::endpoint(std::uint16_t port) const {
    return (ipv6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

bool LanAddress::link_local() const {
    if (ipv6)
        return ip.size() >= 4
            && (ip.rfind("fe8", 0) == 0 || ip.rfind("fe9", 0) == 0 || ip.rfind("fea", 0) == 0
                || ip.rfind("feb", 0) == 0);
    return ip.rfind("169.254.", 0) == 0;
}

bool LanRoom::advertised_at(const std::string& address) const {
    if (machine + ":" + std::to_string(port) == address) return true;
    return std::any_of(addresses.begin(), addresses.end(),
        [&](const LanAddress& a) { return a.endpoint(port) == address; });
}

bool address_before(const LanAddress& a, const LanAddress& b) {
    auto rank = [](const LanAddress& x) { return (x.ipv6 ? 2 : 0) + (x.link_local() ? 1 : 0); };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return std::tie(a.ip, a.interface) < std::tie(b.ip, b.interface);
}

namespace {

// Whether joining at the address could reach another machine on the LAN. An advert is anyone's:
// one whose host name resolved to 127.0.0.1 made a daemon that joined it connect to itself (or
// to any port of its own machine); the unspecified and multicast addresses reach no host.
bool reachable_on_lan(const LanAddress& a) {
    std::string ip = a.ip.substr(0, a.ip.find('%'));
    if (a.ipv6) {
        in6_addr v6 {};
        if (inet_pton(AF_INET6, ip.c_str(), &v6) != 1) return false;
        return !IN6_IS_ADDR_LOOPBACK(&v6) && !IN6_IS_ADDR_UNSPECIFIED(&v6)
            && !IN6_IS_ADDR_MULTICAST(&v6) && !IN6_IS_ADDR_V4MAPPED(&v6);
    }
    in_addr v4 {};
    if (inet_pton(AF_INET, ip.c_str(), &v4) != 1) return false;
    std::uint32_t host = ntohl(v4.s_addr);
    return (host >> 24) != 127 && (host >> 24) != 0 && (host >> 28) != 0xe && host != 0xffffffffu;
}

// Keeps at most kMaxLanRooms of `rooms`, the ones seen first, and at most
// kMaxLanRoomsPerMachine from one machine; returns how many went.
std::size_t bound_rooms(std::vector<LanRoom>& rooms, const std::vector<std::uint64_t>& first_seen) {
    if (rooms.size() <= kMaxLanRooms) return 0;
    std::vector<std::size_t> by_age(rooms.size());
    for (std::size_t i = 0; i < by_age.size(); ++i) by_age[i] = i;
    std::stable_sort(by_age.begin(), by_age.end(),
        [&](std::size_t a, std::size_t b) { return first_seen[a] < first_seen[b]; });
    std::map<std::string, std::size_t> per_machine;
    std::vector<bool> keep(rooms.size(), false);
    std::size_t kept = 0;
    for (std::size_t i : by_age) {
        const std::string& machine = rooms[i].addresses.empty() ? "" : rooms[i].addresses[0].ip;
        if (kept == kMaxLanRooms || ++per_machine[machine] > kMaxLanRoomsPerMachine) continue;
        keep[i] = true;
        ++kept;
    }
    std::vector<LanRoom> out;
    out.reserve(kept);
    for (std::size_t i = 0; i < rooms.size(); ++i)
        if (keep[i]) out.push_back(std::move(rooms[i]));
    std::size_t gone = rooms.size() - out.size();
    rooms = std::move(out);
    return gone;
}

} // namespace

std::vector<LanRoom> merge_services(
    const std::vector<ResolvedService>& resolved, std::size_t* left_out) {
    std::map<std::pair<std::string, std::string>, std::vector<const ResolvedService*>> services;
    for (const auto& r : resolved) services[{ r.service, r.domain }].push_back(&r);
    std::vector<LanRoom> rooms;
    std::vector<std::uint64_t> first_seen;
    for (const auto& [key, seen] : services) {
        const ResolvedService* newest = *std::max_element(seen.begin(), seen.end(),
            [](const auto* a, const auto* b) { return a->order < b->order; });
        auto advert = read_room_txt(newest->txt);
        if (!advert) continue;
        if (newest->port == 0) continue; // nothing listens at port 0
        LanRoom room;
        room.service = key.first;
        room.machine = newest->host_name;
        room.port = newest->port;
        room.advert = std::move(*advert);
        for (const auto* s : seen)
            if (s->port == room.port && reachable_on_lan(s->address)
                && std::find(room.addresses.begin(), room.addresses.end(), s->address)
                    == room.addresses.end())
                room.addresses.push_back(s->address);
        if (room.addresses.empty()) continue;
        std::sort(room.addresses.begin(), room.addresses.end(), address_before);
        if (room.addresses.size() > kMaxRoomAddresses) room.addresses.resize(kMaxRoomAddresses);
        rooms.push_back(std::move(room));
        first_seen.push_back(
            (*std::min_element(seen.begin(), seen.end(), [](const auto* a, const auto* b) {
                return a->first_seen < b->first_seen;
            }))->first_seen);
    }
    std::size_t gone = bound_rooms(rooms, first_seen);
    if (left_out) *left_out = gone;
    std::sort(rooms.begin(), rooms.end(), [](const LanRoom& a, const LanRoom& b) {
        return std::tie(a.advert.name, a.machine, a.service)
            < std::tie(b.advert.name, b.machine, b.service);
    });
    return rooms;
}

} // namespace halma::daemon
