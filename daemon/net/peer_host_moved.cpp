// PeerLinks' side of a host that moved: its machine got a new address (a new DHCP lease, a
// laptop taken from its dock to Wi-Fi) and the LAN's adverts say so, while the seats this daemon
// holds there name the old one. Kept there, the player was cut off for good: the old address
// never answered again, a restart rejoined it too, and a join at the new address found the
// seat taken by the computer keeping it. So a room whose host is out of reach follows its
// adverts, but only to a host with the key the room's host had: an advert is anyone's to make,
// the key is not. The new address's key probe must name that key before the room moves there
// (a probe answered with another key refuses the link, as a changed key does), the CURVE
// handshake then proves the host holds the key's secret half, and the key is pinned for the
// new address at the rejoin.
#include "daemon/net/peer_links.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

bool PeerLinks::follow_host(Replica& replica, const std::string& to, const Now& now) {
    if (to == replica.address || replica.connection == pb::CONNECTION_STATE_CONNECTED
        || replica.token.empty() || now.steady < replica.next_follow)
        return false;
    const std::string from = replica.address;
    auto old_link = links_.find(from);
    if (old_link != links_.end() && old_link->second->up) return false; // it answers there
    // The key to hold the new address to: the one the link had, or the one pinned for it.
    std::string key;
    if (old_link != links_.end()) key = old_link->second->host_key;
    if (key.empty())
        if (auto pinned = known_.pinned(from)) key = *pinned;
    if (identity_ && key.empty()) return false; // nothing to tell the host from an impostor
    if (auto pinned = known_.pinned(to); pinned && *pinned != key) return false;
    auto there = links_.find(to);
    if (there == links_.end()) {
        std::string error;
        Link* link = link_for(to, error);
        if (!link) {
            spdlog::debug("room {}: cannot follow its host to {}: {}", replica.name, to, error);
            replica.next_follow = now.steady + kFollowEvery;
            return false;
        }
        link->expected_key = key;
        link->kept_until = now.steady + kFollowEvery;
        if (identity_) return false; // moved once the probe has named the key
    } else {
        Link& link = *there->second;
        // Refused there, or another host's, or the one there must have another key.
        if (!link.rejection.empty() || (!link.expected_key.empty() && link.expected_key != key))
            return false;
        if (identity_ && link.host_key != key) {
            if (link.host_key.empty()) link.expected_key = key; // still probing: held to it
            return false;
        }
    }
    spdlog::info("room {}: its host is not answering at {}, and the LAN advertises it at {} "
                 "(the same key): rejoining there",
        replica.name.empty() ? replica.room_id : replica.name, from, to);
    replica.address = to;
    replica.next_follow = now.steady + kFollowEvery;
    // A rejoin still waiting at the old address is answered there if at all: its answer no
    // longer finds this replica (by room and address), and the rejoin goes to the new one now.
    replica.rejoin_in_flight = false;
    replica.next_rejoin = now.steady;
    set_connection(replica, pb::CONNECTION_STATE_CONNECTING);
    save();
    return true;
}

} // namespace halma::daemon
