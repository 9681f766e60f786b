// LAN discovery as the event loop sees it (DNS-SD `_halma._tcp` over mDNS, through avahi):
// the hosted rooms it publishes, following each as it fills, starts and ends, and the LAN's
// rooms it found, to list and to join by name or friends code. The avahi work runs on
// AvahiWorker's thread; everything here runs on the loop and never waits for avahi.
#pragma once

#include "daemon/discovery/avahi_worker.h"
#include "daemon/discovery/friends_tag.h"
#include "daemon/discovery/lan_room.h"
#include "daemon/room/room_state.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

// A machine's mDNS name as two spellings of it compare: "ann-laptop.local." and "Ann-Laptop"
// are both "ann-laptop.local".
std::string machine_key(std::string_view machine);

class Discovery {
public:
    struct Options {
        bool enabled = true; // false: no avahi at all (--no-mdns)
        bool publish = true; // false: browse only (a daemon listening on loopback)
        std::vector<std::string> interfaces; // empty: all
        std::string player_name; // the host player's name in every advert
        std::uint16_t port = 0; // where peers join this daemon's rooms
    };

    Discovery(zmq::context_t& context, Options options);

    // The avahi thread's pipe, to poll; null when discovery is off.
    zmq::socket_t* socket() { return worker_ ? &worker_->socket() : nullptr; }
    // After the socket polled readable; true when the LAN's room list changed.
    bool on_readable();

    // A hosted room was made or changed: its service is published or follows it; a closed room
    // is withdrawn.
    void room_changed(const RoomState& state);
    void room_gone(const std::string& room_id);
    // Hands what changed since the last call to the avahi thread: once per turn of the loop, so
    // a room made, joined and given bots in one request is published once, as it ends up.
    void flush();

    const DiscoveryNews& news() const { return news_; }
    const std::string& daemon_id() const { return daemon_id_; }
    bool publishing() const { return options_.enabled && options_.publish; }

    // The public rooms found on the LAN that this daemon does not host itself.
    std::vector<const LanRoom*> others() const;
    // Public rooms found on the LAN by name: exact matches, else the case-insensitive ones.
    std::vector<const LanRoom*> named(std::string_view name) const;
    // The friends room on the LAN whose tag `code` matches, if any.
    const LanRoom* friends_room(std::string_view code) const;
    // A machine found on the LAN by its mDNS name ("ann-laptop.local", or "ann-laptop"): the
    // addresses its rooms were found at, as host:port for `port`, best first.
    std::vector<std::string> machine_endpoints(std::string_view machine, std::uint16_t port) const;

private:
    Options options_;
    std::string daemon_id_;
    std::unique_ptr<AvahiWorker> worker_;
    std::map<std::string, Publication> published_; // by room id
    std::map<std::string, FriendsTag> tags_; // friends rooms' tags, one salt per run
    bool dirty_ = false; // published_ changed since the last flush
    // What each public room's advert last said of seats and phase: most events (moves, chat)
    // change neither, and the loop should not rebuild an advert for each.
    std::map<std::string, std::pair<int, Phase>> advertised_;
    DiscoveryNews news_;
};

} // namespace halma::daemon
