// The local API: one ROUTER on an ipc socket in the runtime directory. Front ends (DEALER) send
// requests and get replies with the same request id; after Subscribe the daemon also pushes the
// events of its rooms to them. docs/api.md is written for people writing front ends.
#pragma once

#include "daemon/discovery/discovery.h"
#include "daemon/net/config.h"
#include "daemon/net/front_end_outbox.h"
#include "daemon/net/host_service.h"
#include "daemon/net/hosted_summaries.h"
#include "daemon/net/peer_links.h"
#include "daemon/net/room_listener.h"
#include "daemon/net/runtime_dir.h"

#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <zmq.hpp>

namespace halma::daemon {

// A front end's Request.deadline_ms as a point on our steady clock (the same CLOCK_MONOTONIC).
PeerLinks::Deadline deadline_of(const wire::pb::Request& request);

class ApiService : public RoomListener {
public:
    ApiService(zmq::context_t& context, const Config& config, HostService& host, PeerLinks& peers,
        Discovery& discovery, bool bots);

    // Binds the socket and makes it owner-only; throws zmq::error_t or std::runtime_error.
    void bind(const RuntimeDir& dir);
    zmq::socket_t& socket() { return socket_; }
    void on_readable(const Now& now);

    void room_changed(const RoomState& state, const RoomEvent* event, MemberId me,
        wire::pb::ConnectionState connection) override;
    // The LAN's room list changed: front ends that subscribed to it get it anew.
    void lan_rooms_changed();
    // The list also holds this daemon's own rooms, hosted and joined: when one's seats,
    // spectators or phase changed (or it came or went), the list is sent again, at most once
    // every kLanPushEvery (a host of bot-only rooms changes phase many times a second, and
    // each list holds every room). Called once a loop pass.
    void push_lan_list(std::chrono::steady_clock::time_point now);
    // When push_lan_list() has a list to send; none: nothing changed.
    std::optional<std::chrono::steady_clock::time_point> lan_push_due() const;
    static constexpr auto kLanPushEvery = std::chrono::milliseconds(250);
    // What waits for front ends that stopped reading is tried again (front_end_outbox.h); once
    // a loop pass, and at outbox_due() when something waits.
    void retry_outbox(std::chrono::steady_clock::time_point now);
    std::optional<std::chrono::steady_clock::time_point> outbox_due() const {
        return outbox_.retry_due();
    }
    // Joined rooms whose host is out of reach and that the LAN advertises elsewhere now follow
    // it there (api_moved_hosts.cpp): on discovery news, and every kMovedHostsEvery while any
    // is out of reach (the link can fall silent after the news came). Once a loop pass.
    void follow_moved_hosts(const Now& now, bool news);
    static constexpr auto kMovedHostsEvery = std::chrono::seconds(1);
    // This daemon's CURVE public key, for the status (none: links are plain).
    void set_host_key(std::string key) { host_key_ = std::move(key); }

private:
    // A room the local player can act in: one this daemon hosts, or a replica of another's.
    struct Target {
        HostedRoom* hosted = nullptr;
        PeerLinks::Replica* replica = nullptr;
    };

    void handle(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_host(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_list(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_join(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_action(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_close(const std::string& client, const wire::pb::Request& request, const Now& now);
    void handle_records(const std::string& client, const wire::pb::Request& request);
    void handle_forget_host(const std::string& client, const wire::pb::Request& request);
    void status(wire::pb::DaemonStatus* out);

    // LAN discovery's part of the API (api_lan.cpp).
    // This daemon's rooms (the hosted ones only `with_hosted`: a reply can append them as
    // cached bytes, reply_with_hosted), then (with `lan`) the public rooms found on the LAN.
    void list_here(wire::pb::RoomList* out, bool lan, bool with_hosted);
    void fill_discovery(wire::pb::Discovery* out);
    // A hosted room's summary as front ends see it: with the host's name and mDNS name.
    void summarize_hosted(const HostedRoom& room, wire::pb::RoomSummary* out);
    // A joined room's (with its state), alike in the list, the status and the view: whether
    // its host is out of reach, and who hosts it as the LAN's adverts say.
    void summarize_joined(PeerLinks::Replica& replica, wire::pb::RoomSummary* out);
    // A joined room this daemon has not heard of since it started (its seat is in the seats
    // file, its host not reached yet): what the seats file says, and who hosts it.
    void summarize_unheard(PeerLinks::Replica& replica, wire::pb::RoomSummary* out);
    // What a joined room's summary adds to what its state says (summarize_joined's second half).
    void add_joined_facts(PeerLinks::Replica& replica, wire::pb::RoomSummary* out);
    // Who hosts a joined room (its host's player and mDNS names), as the adverts heard now say,
    // remembered in the replica; as they last said while none is heard.
    void add_host_facts(PeerLinks::Replica& replica, wire::pb::RoomSummary* out);
    // Each joined room's host as the LAN's adverts name it now, remembered (on discovery news:
    // an advert heard only between two lists would be missed).
    void remember_advertised_hosts();
    // A join with no address of a room joined here already: joined again at its host's address.
    // False when no (or more than one) joined room has that name, id or code.
    bool join_again(const std::string& client, const wire::pb::Request& request, const Now& now);
    // A join with no address that no hosted room answers: by name or code on the LAN.
    void join_on_lan(const std::string& client, const wire::pb::Request& request, const Now& now);
    // host[:port] as the user typed it: the addresses to try, best first (a machine found on the
    // LAN by its mDNS name is looked up there; a missing port is 7460); empty when unreadable.
    std::vector<std::string> join_addresses(const std::string& address);
    // The mDNS name of the machine `address` names, when it names one the LAN knows
    // ("office-pi.local:7460", "office-pi"), as the LAN's lists spell it; else empty.
    std::string machine_named(const std::string& address) const;
    // Joins at addresses[index], and on to the next one while a host cannot be reached.
    // `if_gone`, for a room found on the LAN, is what to say when its host has no such room any
    // more (the host's own answer, about friends rooms' codes, misleads there).
    void join_at(const std::string& client, std::uint64_t request_id,
        std::vector<std::string> addresses, std::size_t index, const std::string& room,
        bool spectate, const Now& now, PeerLinks::Deadline deadline, std::string if_gone = {});
    // Which rooms a name may stand for: all of them, or only those hosted here (a close).
    enum class Among { kAll, kHosted };
    std::variant<Target, std::string> resolve(std::string_view room, Among among = Among::kAll);
    // The room's view for the local player, or why there is none yet.
    bool fill_view(const Target& target, wire::pb::RoomView* out);
    void reply(const std::string& client, std::uint64_t request_id, wire::pb::Reply& reply);
    // `r` (version and request id set) with the hosted rooms' cached summaries put in.
    void reply_with_hosted(
        const std::string& client, const wire::pb::Reply& r, HostedSummaries::Into into);
    void reply_error(const std::string& client, std::uint64_t request_id, wire::pb::ErrorCode code,
        const std::string& message);
    // A host link's error (its code and words, and the name it doubts) passed on.
    void reply_error(
        const std::string& client, std::uint64_t request_id, const wire::pb::Error& error);
    // Replies with the host's error, or with the room's view after the host's answer.
    void reply_from_host(const std::string& client, std::uint64_t request_id,
        const wire::pb::HostMessage& answer, const std::string& room_id, const std::string& detail);
    // Why the room takes no change now (its host's disk is full); empty: it does.
    std::string read_only(const std::string& room_id);
    // A serialized reply to `client`, now or once it reads (FrontEndOutbox).
    void deliver(const std::string& client, std::string_view payload);
    // A front end found gone: its subscriptions end.
    void gone(const std::string& client);
    // The event telling a front end it missed `missed` events of a room ("": of several).
    std::string missed_marker(const std::string& room_id, std::uint64_t missed);

    const Config& config_;
    HostService& host_;
    PeerLinks& peers_;
    Discovery& discovery_;
    bool bots_;
    zmq::socket_t socket_;
    FrontEndOutbox outbox_ { socket_ };
    struct Subscription {
        std::string room; // a room id; "": every room
        bool seated = false; // with no room: only those where our player has a seat
    };
    std::map<std::string, Subscription> subscribers_; // by client routing id
    std::set<std::string> req_clients_; // front ends on REQ sockets (replies need a delimiter)
    std::set<std::string> lan_subscribers_; // front ends that follow the LAN's room list
    std::map<std::string, std::string, std::less<>>
        told_read_only_; // room id -> read_only last pushed
    // A room here changed: whether the pushed list shows it differently now (listed_).
    void note_for_lan_list(const RoomState& state);
    // What the list pushed to LAN subscribers last showed of each room here (seats taken,
    // spectators, phase), while anyone follows it; a room closed leaves it.
    std::map<std::string, std::tuple<int, int, Phase>> listed_;
    bool lan_list_changed_ = false;
    std::chrono::steady_clock::time_point lan_pushed_ {};
    std::chrono::steady_clock::time_point moved_hosts_checked_ {};
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    std::string host_key_;
    // The hosts whose keys `forget-host` forgot lately (address as typed and as forgotten, and
    // when), so that asking again says it is done already rather than "no key is pinned"; the
    // last kForgottenKept.
    static constexpr std::size_t kForgottenKept = 16;
    struct Forgotten {
        std::string typed, which, at; // `at`: HH:MM
    };
    std::deque<Forgotten> forgotten_;
    HostedSummaries hosted_summaries_ { [this](const HostedRoom& room, wire::pb::RoomSummary* out) {
        summarize_hosted(room, out);
    } };
};

} // namespace halma::daemon
