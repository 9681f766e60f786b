// The local API's part in following a host that moved (peer_host_moved.cpp has the link's part):
// where the LAN's adverts now put the host of each joined room that is out of reach. The room's
// own advert, by its id, when it is public; else any advert of the machine that hosted it (a
// friends room's advert names nothing, but its host's public rooms name the machine), at an
// address other than the old one. PeerLinks::follow_host decides whether to go there.
#include "daemon/net/api_service.h"

namespace halma::daemon {

namespace pb = wire::pb;

void ApiService::follow_moved_hosts(const Now& now, bool news) {
    if (!news && now.steady - moved_hosts_checked_ < kMovedHostsEvery) return;
    moved_hosts_checked_ = now.steady;
    const auto& lan = discovery_.news().rooms;
    if (lan.empty()) return;
    for (auto* rep : peers_.replicas()) {
        if (rep->connection == pb::CONNECTION_STATE_CONNECTED) continue;
        auto port_at = rep->address.rfind(':');
        if (port_at == std::string::npos) continue;
        std::string port = rep->address.substr(port_at + 1);
        const LanRoom* by_id = nullptr;
        const LanRoom* by_machine = nullptr;
        for (const auto& room : lan) {
            // Adverts at the old address say nothing new (the host may be restarting there).
            if (room.ours || room.addresses.empty() || room.advertised_at(rep->address)) continue;
            if (!by_id && !room.advert.room_id.empty() && room.advert.room_id == rep->room_id)
                by_id = &room;
            if (!by_machine && !rep->advertised_machine.empty()
                && room.machine == rep->advertised_machine && std::to_string(room.port) == port)
                by_machine = &room;
        }
        const LanRoom* moved = by_id ? by_id : by_machine;
        // The preferred address first (lan_table.h: IPv4, routable IPv6, link-local).
        if (moved) peers_.follow_host(*rep, moved->addresses.front().endpoint(moved->port), now);
    }
}

} // namespace halma::daemon
