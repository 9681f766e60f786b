// The local API's LAN discovery part: the LAN's rooms in lists and pushes, joining a room found
// on the LAN by its name or friends code (or one joined here already, by its name), and host
// names that only mDNS knows.
#include "daemon/net/api_service.h"
#include "daemon/net/zmq_util.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

constexpr const char* kDefaultPort = "7460";

pb::DiscoveryState to_proto(DiscoveryState s) {
    switch (s) {
    case DiscoveryState::kOff:
        return pb::DISCOVERY_STATE_OFF;
    case DiscoveryState::kUnavailable:
        return pb::DISCOVERY_STATE_UNAVAILABLE;
    case DiscoveryState::kConnecting:
        return pb::DISCOVERY_STATE_CONNECTING;
    case DiscoveryState::kRunning:
        return pb::DISCOVERY_STATE_RUNNING;
    }
    return pb::DISCOVERY_STATE_OFF;
}

void summarize_lan(const LanRoom& room, pb::RoomSummary* out) {
    const auto& a = room.advert;
    out->set_room_id(a.room_id);
    out->set_name(a.name);
    out->set_visibility(pb::VISIBILITY_PUBLIC);
    auto* mode = out->mutable_mode();
    mode->set_players(static_cast<std::uint32_t>(a.players));
    mode->set_sets_per_player(static_cast<std::uint32_t>(a.sets_per_player));
    mode->set_rules(a.rules);
    mode->set_move_limit(static_cast<std::uint32_t>(a.move_limit));
    mode->set_hide_leader(a.hide_leader);
    out->set_seats(static_cast<std::uint32_t>(a.seats));
    out->set_seats_taken(static_cast<std::uint32_t>(a.seats_taken));
    out->set_phase(wire::to_proto(a.phase));
    for (const auto& address : room.addresses) out->add_addresses(address.endpoint(room.port));
    if (!room.addresses.empty()) out->set_address(out->addresses(0));
    out->set_host_player(a.host_player);
    out->set_machine(room.machine);
    out->set_origin(pb::ROOM_ORIGIN_LAN);
}

std::string who(const LanRoom& room) {
    std::string host = room.advert.host_player.empty()
        ? room.machine
        : room.advert.host_player + " at " + room.machine;
    return room.advert.name + " (" + host + ")";
}

} // namespace

void ApiService::summarize_hosted(const HostedRoom& room, pb::RoomSummary* out) {
    wire::summarize(room.authority.state(), host_.address(), true, out);
    out->set_host_player(config_.name);
    out->set_machine(discovery_.news().machine);
    out->set_origin(pb::ROOM_ORIGIN_HOSTED);
}

void ApiService::fill_discovery(pb::Discovery* out) {
    const auto& news = discovery_.news();
    out->set_state(to_proto(news.state));
    std::string detail = news.detail;
    if (news.state == DiscoveryState::kRunning && !discovery_.publishing())
        detail += "; this daemon's rooms are not published (it listens on loopback only)";
    out->set_detail(detail);
    out->set_machine(news.machine);
    out->set_lan_rooms(static_cast<std::uint32_t>(discovery_.others().size()));
}

void ApiService::list_here(pb::RoomList* out, bool lan, bool with_hosted) {
    std::set<std::string> listed;
    for (auto* room : host_.rooms()) {
        if (with_hosted) summarize_hosted(*room, out->add_rooms());
        listed.insert(room->authority.state().id());
    }
    for (auto* rep : peers_.replicas()) {
        if (!rep->state) {
            summarize_unheard(*rep, out->add_rooms());
            listed.insert(rep->room_id);
            continue;
        }
        summarize_joined(*rep, out->add_rooms());
        listed.insert(rep->room_id);
    }
    if (!lan) return;
    for (const auto* room : discovery_.others())
        if (!listed.count(room->advert.room_id)) summarize_lan(*room, out->add_rooms());
}

void ApiService::summarize_unheard(PeerLinks::Replica& rep, pb::RoomSummary* summary) {
    // A seat at a host not reached since this daemon started: listed (it was not, and could not
    // be left by its name), as what the seats file says of it.
    summary->set_room_id(rep.room_id);
    summary->set_name(rep.name.empty() ? rep.room_id.substr(0, 8) : rep.name);
    summary->set_address(rep.address);
    summary->set_origin(pb::ROOM_ORIGIN_JOINED);
    summary->set_host_out_of_reach(true);
    add_host_facts(rep, summary);
}

void ApiService::summarize_joined(PeerLinks::Replica& rep, pb::RoomSummary* summary) {
    wire::summarize(*rep.state, rep.address, rep.me != kNoMember, summary);
    add_joined_facts(rep, summary);
}

void ApiService::add_joined_facts(PeerLinks::Replica& rep, pb::RoomSummary* summary) {
    summary->set_origin(pb::ROOM_ORIGIN_JOINED);
    summary->set_host_out_of_reach(rep.connection != pb::CONNECTION_STATE_CONNECTED);
    add_host_facts(rep, summary);
}

void ApiService::add_host_facts(PeerLinks::Replica& rep, pb::RoomSummary* summary) {
    // Who hosts it, if its host publishes it on the LAN: an advert of the same room id
    // from elsewhere (the id is in every public advert) is anyone's, and made the room
    // seem hosted by "mallory" on another machine.
    // A friends room's advert says nothing of it: its machine is that of any advert from
    // the same address, and its host player that of any public one (the same daemon hosts
    // them all). It was shown by a bare address.
    std::string machine, host_player;
    for (const auto& lan_room : discovery_.news().rooms) {
        if (!lan_room.advertised_at(rep.address)) continue;
        bool this_room = lan_room.advert.room_id == rep.room_id;
        if (this_room || machine.empty()) machine = lan_room.machine;
        if (this_room || host_player.empty()) host_player = lan_room.advert.host_player;
    }
    // Adverts come and go (avahi restarting, multicast dropped for a while): the host column
    // went between "ann (ann-laptop.local)" and "192.168.1.20:7460" with them. What they last
    // said stands until they say otherwise.
    if (!machine.empty()) rep.advertised_machine = machine;
    if (!host_player.empty()) rep.advertised_host_player = host_player;
    summary->set_machine(rep.advertised_machine);
    summary->set_host_player(rep.advertised_host_player);
}

void ApiService::remember_advertised_hosts() {
    pb::RoomSummary unused;
    for (auto* rep : peers_.replicas()) add_host_facts(*rep, &unused);
}

void ApiService::note_for_lan_list(const RoomState& state) {
    if (lan_subscribers_.empty()) return;
    std::tuple shown { state.seats_taken(), state.spectators(), state.phase() };
    auto [it, fresh] = listed_.try_emplace(state.id(), shown);
    if (fresh || it->second != shown) lan_list_changed_ = true;
    it->second = shown;
    if (state.phase() == Phase::kClosed) listed_.erase(it);
}

void ApiService::push_lan_list(std::chrono::steady_clock::time_point now) {
    if (!lan_list_changed_ || now < lan_pushed_ + kLanPushEvery) return;
    lan_rooms_changed();
}

std::optional<std::chrono::steady_clock::time_point> ApiService::lan_push_due() const {
    if (!lan_list_changed_ || lan_subscribers_.empty()) return std::nullopt;
    return lan_pushed_ + kLanPushEvery;
}

void ApiService::lan_rooms_changed() {
    remember_advertised_hosts();
    lan_list_changed_ = false;
    lan_pushed_ = std::chrono::steady_clock::now();
    if (lan_subscribers_.empty()) return;
    pb::Reply r;
    r.set_version(wire::kProtocolVersion);
    list_here(r.mutable_rooms(), true, true);
    // What the list no longer holds (a room left, a replica dropped) leaves listed_ too.
    std::set<std::string> here;
    for (const auto& room : r.rooms().rooms()) here.insert(room.room_id());
    std::erase_if(listed_, [&](const auto& entry) { return !here.count(entry.first); });
    std::string payload = r.SerializeAsString();
    auto now = std::chrono::steady_clock::now();
    std::vector<std::string> gone_clients;
    for (const auto& client : lan_subscribers_)
        if (outbox_.lan_list(client, payload, now) == FrontEndOutbox::Outcome::kGone)
            gone_clients.push_back(client);
    for (const auto& client : gone_clients) gone(client);
}

std::string ApiService::machine_named(const std::string& address) const {
    std::string host = address.rfind("tcp://", 0) == 0 ? address.substr(6) : address;
    if (host.empty() || host.front() == '[') return "";
    host = host.substr(0, host.find(':'));
    // Any port: the machine is what is asked about, not one of its daemons.
    for (const auto& room : discovery_.news().rooms)
        if (machine_key(room.machine) == machine_key(host)) return room.machine;
    return "";
}

std::vector<std::string> ApiService::join_addresses(const std::string& typed) {
    std::string address = typed.rfind("tcp://", 0) == 0 ? typed.substr(6) : typed;
    if (address.empty()) return {};
    // "host" or "[v6]" alone: the default port.
    bool has_port = false;
    if (address.front() == '[')
        has_port = address.find("]:") != std::string::npos;
    else
        has_port = address.find(':') != std::string::npos;
    std::string host = address, port = kDefaultPort;
    if (has_port) {
        auto colon = address.rfind(':');
        host = address.substr(0, colon);
        port = address.substr(colon + 1);
    }
    if (tcp_endpoint(host + ":" + port).empty()) return {};
    // A machine's mDNS name: where it was found on the LAN, if it was (ZeroMQ resolves host
    // names through the system's resolver, which knows .local names only with nss-mdns).
    auto found = discovery_.machine_endpoints(host, static_cast<std::uint16_t>(std::stoi(port)));
    if (!found.empty()) return found;
    return { host + ":" + port };
}

// A room joined here already, named without its address (`halma join family`, a pick in halma
// play's list): joined again at its host's address, as the daemon's own rejoin does (by the room's
// id, with the seat's token: by name, a room not heard from since a restart matched no replica,
// and the host took the player for a newcomer). It was looked for on the LAN only, and with
// discovery off or the room unlisted it was "no room 'family' here or on the LAN" while the room
// was listed as joined. A name the LAN knows is the LAN's to resolve, as before (it names the
// hosts when there are several); two joined rooms of the name are told apart by address.
bool ApiService::join_again(const std::string& client, const pb::Request& request, const Now& now) {
    const auto& j = request.join();
    if (j.room().empty()) return false;
    std::vector<PeerLinks::Replica*> same;
    for (PeerLinks::Replica* r : peers_.replicas()) {
        const std::string& name = r->state ? r->state->config().name : r->name;
        bool code = r->state && !r->state->config().code.empty()
            && normalize_code(r->state->config().code) == normalize_code(j.room());
        if (r->room_id == j.room() || name == j.room() || code) same.push_back(r);
    }
    if (same.empty() || (same.size() == 1 && !discovery_.named(j.room()).empty())) return false;
    if (same.size() > 1) {
        std::string which;
        for (const auto* r : same)
            which += (which.empty() ? "" : " or ") + ("halma join " + r->address + "/" + j.room());
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            "this daemon is in " + std::to_string(same.size()) + " rooms called " + j.room()
                + ": say which, " + which);
        return true;
    }
    PeerLinks::Replica* again = same.front();
    // With the seat's token the host knows the room by its id (a friends room too); without one
    // (never seated), a friends room by its code, any other by its name.
    std::string room = !again->token.empty()                   ? again->room_id
        : again->state && !again->state->config().code.empty() ? again->state->config().code
        : again->state                                         ? again->state->config().name
                                                               : again->name;
    join_at(client, request.request_id(), { again->address }, 0, room, j.spectate(), now,
        deadline_of(request));
    return true;
}

void ApiService::join_on_lan(
    const std::string& client, const pb::Request& request, const Now& now) {
    const auto& j = request.join();
    std::uint64_t id = request.request_id();
    if (const LanRoom* room = discovery_.friends_room(j.room())) {
        std::vector<std::string> addresses;
        for (const auto& a : room->addresses) addresses.push_back(a.endpoint(room->port));
        spdlog::info("joining a friends room found on the LAN at {}", room->machine);
        join_at(client, id, std::move(addresses), 0, j.room(), j.spectate(), now,
            deadline_of(request),
            "the friends room of that code is no longer at " + room->machine
                + " (closed since its host last said it was there)");
        return;
    }
    auto named = discovery_.named(j.room());
    if (named.size() == 1) {
        std::vector<std::string> addresses;
        for (const auto& a : named.front()->addresses)
            addresses.push_back(a.endpoint(named.front()->port));
        // The host knows the room by its own name, whatever case the user typed.
        join_at(client, id, std::move(addresses), 0, named.front()->advert.name, j.spectate(), now,
            deadline_of(request),
            "room " + who(*named.front())
                + " is gone: closed since the LAN's list was made (halma rooms shows what is "
                  "there now)");
        return;
    }
    if (named.size() > 1) {
        // One host with rooms told apart only by case: naming the host picks none of them.
        bool one_host = std::all_of(named.begin(), named.end(), [&](const LanRoom* r) {
            return r->machine == named.front()->machine && r->port == named.front()->port;
        });
        if (one_host) {
            std::string names;
            for (const auto* r : named) names += (names.empty() ? "" : " and ") + r->advert.name;
            const LanRoom& first = *named.front();
            std::string host = first.advert.host_player.empty()
                ? first.machine
                : first.advert.host_player + " at " + first.machine;
            reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
                host + " has " + std::to_string(named.size()) + " rooms called " + j.room()
                    + ", told apart by case: " + names + "; give the name as it is spelled");
            return;
        }
        std::string hosts;
        for (const auto* r : named) hosts += (hosts.empty() ? "" : " and ") + who(*r);
        std::string example = named.front()->machine + ":" + std::to_string(named.front()->port)
            + "/" + named.front()->advert.name;
        reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
            std::to_string(named.size()) + " rooms on the LAN are called " + j.room() + ": " + hosts
                + "; say which host, e.g. halma join " + example);
        return;
    }
    std::string message = j.room().empty()  ? std::string("no room to join")
        : looks_like_friends_code(j.room()) ? "no room here or on the LAN has the friends code '"
            + j.room() + "' (check it for a typo, or the room may have been closed)"
                                            : "no room '" + j.room() + "' here or on the LAN";
    const auto& news = discovery_.news();
    if (news.state != DiscoveryState::kRunning) {
        message += " (LAN discovery: " + news.detail
            + "); join by address: halma join HOST[:PORT]/ROOM";
    } else {
        // A few names, not the whole list: with 256 rooms on the LAN it was one 11 kB line.
        constexpr std::size_t kNamesShown = 8;
        const auto others = discovery_.others();
        std::string names;
        for (std::size_t i = 0; i < others.size() && i < kNamesShown; ++i)
            names += (names.empty() ? "" : ", ") + who(*others[i]);
        if (others.size() > kNamesShown)
            names += " and " + std::to_string(others.size() - kNamesShown)
                + " more (halma rooms lists them)";
        message += names.empty() ? "; no public rooms found on the LAN"
                                 : "; rooms on the LAN: " + names;
    }
    reply_error(client, id, pb::ERROR_CODE_UNKNOWN_ROOM, message);
}

void ApiService::join_at(const std::string& client, std::uint64_t request_id,
    std::vector<std::string> addresses, std::size_t index, const std::string& room, bool spectate,
    const Now& now, PeerLinks::Deadline deadline, std::string if_gone) {
    if (addresses.empty()) {
        reply_error(client, request_id, pb::ERROR_CODE_UNAVAILABLE,
            "the room was found on the LAN but with no address to reach it");
        return;
    }
    std::string address = addresses[index];
    peers_.join(
        address, room, spectate,
        [this, client, request_id, addresses, index, room, spectate, deadline,
            if_gone = std::move(if_gone)](const pb::HostMessage& answer) {
            // Unreachable at this address (another interface or protocol may work): next.
            if (answer.has_error() && answer.error().code() == pb::ERROR_CODE_UNAVAILABLE
                && index + 1 < addresses.size()) {
                spdlog::info("cannot reach {}; trying {}", addresses[index], addresses[index + 1]);
                join_at(client, request_id, addresses, index + 1, room, spectate, Now::current(),
                    deadline, if_gone);
                return;
            }
            if (!if_gone.empty() && answer.has_error()
                && answer.error().code() == pb::ERROR_CODE_UNKNOWN_ROOM) {
                reply_error(client, request_id, pb::ERROR_CODE_UNKNOWN_ROOM, if_gone);
                return;
            }
            // The host says "no room 'x' at this host": which host is this daemon's to say (the
            // user read "here" as their own machine).
            if (answer.has_error() && answer.error().code() == pb::ERROR_CODE_UNKNOWN_ROOM) {
                reply_error(client, request_id, pb::ERROR_CODE_UNKNOWN_ROOM,
                    addresses[index] + ": " + answer.error().message());
                return;
            }
            reply_from_host(client, request_id, answer,
                answer.joined().snapshot().config().room_id(), "joined");
        },
        now, deadline);
}

} // namespace halma::daemon
