// HostService for this daemon's own front ends (the local API): making rooms, finding them, and
// the local player's joins, actions and bots, which go through the same write-ahead as a peer's.
// The ROUTER and peers' traffic are host_service.cpp; the disk is host_service_store.cpp.
#include "daemon/net/host_service.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <random>
#include <spdlog/spdlog.h>

namespace halma::daemon {

using std::chrono::milliseconds;

Outcome<std::string> HostService::create_room(
    std::string name, Visibility visibility, RoomMode mode, const Now& now) {
    if (name.size() > kMaxRoomName)
        return std::unexpected(
            Refusal { Refusal::Code::kBadRequest, "a room name is 1 to 40 bytes" });
    name = sanitize_text(name);
    if (name.find_first_not_of(' ') == std::string::npos)
        return std::unexpected(
            Refusal { Refusal::Code::kBadRequest, "a room name is 1 to 40 bytes" });
    if (index_.named(name))
        return std::unexpected(
            Refusal { Refusal::Code::kBadRequest, "a room named " + name + " exists already" });
    if (auto why = mode.invalid())
        return std::unexpected(Refusal { Refusal::Code::kBadRequest, *why });
    RoomConfig config { random_hex_id(), name, visibility,
        visibility == Visibility::kFriends ? random_room_code(key_digits_) : "", mode };
    std::string id = config.room_id;
    auto& room = *rooms_
                      .emplace(id,
                          std::make_unique<HostedRoom>(RoomAuthority(
                              std::move(config), authority_options(), std::random_device {}())))
                      .first->second;
    if (auto kept = store_.create(room.authority.state().config(), {}); !kept) {
        // A room that cannot be kept would be lost by a restart with everything its players saw.
        spdlog::error("room {}: not made: cannot keep it on disk ({})", name, kept.error().message);
        rooms_.erase(id);
        return std::unexpected(Refusal { Refusal::Code::kUnavailable,
            "cannot make room " + name + ": the host cannot write it to its disk ("
                + kept.error().message + ")" });
    }
    hand_to_disk(id);
    index(room);
    spdlog::info("hosting room {} ({} players, {})", name, mode.players,
        visibility == Visibility::kFriends ? "friends" : "public");
    listener_.room_changed(room.authority.state(), nullptr, kNoMember, connected_state());
    (void)now;
    return id;
}

AuthorityOptions HostService::authority_options() const {
    return AuthorityOptions { milliseconds(config_.hold_ms), bots_.available(),
        parse_bot_level(config_.bot_level).value_or(BotLevel::kHard) };
}

HostedRoom* HostService::find_named(std::string_view name) {
    auto id = index_.named(name);
    return id ? find(*id) : nullptr;
}

void HostService::index(HostedRoom& room) {
    index_.add(room.authority.state().config());
}

void HostService::unindex(HostedRoom& room) {
    index_.remove(room.authority.state().id());
}

std::vector<HostedRoom*> HostService::matching(std::string_view room) {
    std::vector<HostedRoom*> found;
    for (const auto& id : index_.matching(room))
        if (HostedRoom* r = find(id)) found.push_back(r);
    return found;
}

HostedRoom* HostService::find(std::string_view room_id) {
    auto it = rooms_.find(std::string(room_id));
    return it == rooms_.end() ? nullptr : it->second.get();
}

std::vector<HostedRoom*> HostService::rooms() {
    std::vector<HostedRoom*> list;
    for (auto& [id, r] : rooms_) list.push_back(r.get());
    return list;
}

std::size_t HostService::peers() const {
    std::size_t n = 0;
    for (const auto& [id, c] : conns_) n += c.alive && !c.members.empty();
    return n;
}

Outcome<SeatTicket> HostService::local_join(HostedRoom& room, bool spectate, const Now& now) {
    if (auto refusal = read_only_refusal(room)) return std::unexpected(*refusal);
    auto ticket = room.authority.join(config_.name, room.local_token, spectate, now);
    if (ticket) {
        room.local_member = ticket->member;
        room.local_token = ticket->token;
    }
    // Not on disk: the room, its local member included, is back to what its files hold.
    if (!flush(room, now)) return std::unexpected(*read_only_refusal(room));
    return ticket;
}

std::optional<Refusal> HostService::local_act(
    HostedRoom& room, const Action& action, const Now& now, std::string_view command_id) {
    if (room.local_member == kNoMember)
        return Refusal { Refusal::Code::kNotAllowed,
            "you are not in room " + room.authority.state().config().name + ": join it first" };
    if (auto refusal = read_only_refusal(room)) return refusal;
    auto refusal = room.authority.act(room.local_token, action, now, command_id);
    if (!flush(room, now)) return read_only_refusal(room);
    return refusal;
}

Outcome<int> HostService::add_bots(
    HostedRoom& room, int count, std::optional<BotLevel> level, const Now& now) {
    if (auto refusal = read_only_refusal(room)) return std::unexpected(*refusal);
    auto added = room.authority.add_bots(count, level, now);
    if (!flush(room, now)) return std::unexpected(*read_only_refusal(room));
    return added;
}

} // namespace halma::daemon
