// The host role: a ROUTER socket other daemons join rooms through, and the rooms this daemon
// hosts (each a RoomAuthority). It turns peers' messages into room actions, sends every accepted
// event to each daemon in the room, heartbeats idle peers and notices the ones that vanish.
#pragma once

#include "daemon/net/bot_pool.h"
#include "daemon/net/config.h"
#include "daemon/net/room_listener.h"
#include "daemon/room/room_authority.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

struct HostedRoom {
    RoomAuthority authority;
    MemberId local_member = kNoMember; // the player at this daemon's own front ends
    std::string local_token;
    std::uint64_t bot_asked_at = 0; // seq a bot move was last asked for
};

class HostService {
public:
    using Clock = std::chrono::steady_clock;

    HostService(
        zmq::context_t& context, const Config& config, BotPool& bots, RoomListener& listener);

    // Binds the listening address; throws zmq::error_t when it cannot (port taken...).
    void bind();
    zmq::socket_t& socket() { return socket_; }
    void on_readable(const Now& now);
    std::optional<Clock::time_point> next_deadline() const;
    void tick(const Now& now);

    // For the local front ends.
    Outcome<std::string> create_room(
        std::string name, Visibility visibility, RoomMode mode, const Now& now);
    HostedRoom* find(std::string_view room_id);
    std::vector<HostedRoom*> rooms();
    Outcome<SeatTicket> local_join(HostedRoom& room, bool spectate, const Now& now);
    std::optional<Refusal> local_act(HostedRoom& room, const Action& action, const Now& now);
    Outcome<int> add_bots(
        HostedRoom& room, int count, std::optional<BotLevel> level, const Now& now);
    void bot_moved(const BotJob& job, engine::Move move, const Now& now);
    std::size_t peers() const;
    // host:port as configured, with the port actually bound.
    const std::string& address() const { return address_; }

private:
    struct PeerConn {
        Clock::time_point last_recv;
        Clock::time_point last_send;
        bool alive = true;
        std::set<std::pair<std::string, MemberId>> members; // (room id, member)
    };

    void handle(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    void handle_join(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    void handle_command(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    HostedRoom* lookup(std::string_view room, std::string_view token);
    // Sends the room's new events to every daemon in it, tells the local API, wakes its bot.
    void flush(HostedRoom& room, const Now& now);
    void send(const std::string& conn, wire::pb::HostMessage& msg, const Now& now);
    void send_error(const std::string& conn, std::uint64_t request_id, wire::pb::ErrorCode code,
        const std::string& message, const Now& now);
    void mark_alive(const std::string& conn, PeerConn& peer, const Now& now);

    const Config& config_;
    BotPool& bots_;
    RoomListener& listener_;
    zmq::socket_t socket_;
    std::string address_;
    std::map<std::string, std::unique_ptr<HostedRoom>> rooms_; // by room id
    std::map<std::string, PeerConn> conns_; // by ZeroMQ routing id
};

wire::pb::ConnectionState connected_state();

} // namespace halma::daemon
