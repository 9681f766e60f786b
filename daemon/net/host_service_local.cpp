// HostService for this daemon's own front ends (the local API): making rooms, finding them, and
// the local player's joins, actions and bots, which go through the same write-ahead as a peer's.
// The ROUTER and peers' traffic are host_service.cpp; the disk is host_service_store.cpp.
#include "daemon/net/host_service.h"
#include "daemon/room/room_name.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <cctype>
#include <random>
#include <spdlog/spdlog.h>

namespace halma::daemon {

using std::chrono::milliseconds;

Outcome<RoomConfig> HostService::new_room_config(
    std::string name, Visibility visibility, const RoomMode& mode, int bots) const {
    auto bad = [](std::string why) {
        return std::unexpected(Refusal { Refusal::Code::kBadRequest, std::move(why) });
    };
    auto checked = room_name(name);
    if (!checked) return bad(checked.error().message);
    name = std::move(*checked);
    bool being_made = std::any_of(being_made_.begin(), being_made_.end(),
        [&](const auto& entry) { return entry.second.config.name == name; });
    if (index_.named(name) || being_made) return bad("a room named " + name + " exists already");
    if (auto why = mode.invalid()) return bad(*why);
    return RoomConfig { random_hex_id(), name, visibility,
        visibility == Visibility::kFriends ? random_room_code(key_digits_) : "", mode, bots };
}

HostedRoom& HostService::host_made_room(RoomConfig config) {
    std::string id = config.room_id;
    auto& room = *rooms_
                      .emplace(id,
                          std::make_unique<HostedRoom>(RoomAuthority(
                              std::move(config), authority_options(), std::random_device {}())))
                      .first->second;
    const RoomConfig& made = room.authority.state().config();
    index(room);
    spdlog::info("hosting room {} ({} players, {})", made.name, made.mode.players,
        made.visibility == Visibility::kFriends ? "friends" : "public");
    listener_.room_changed(room.authority.state(), nullptr, kNoMember, connected_state());
    return room;
}

namespace {

constexpr const char* kTooLate = "the request's deadline passed before the disk took the room";

Refusal unkept(const std::string& name, const std::string& why) {
    // A room that cannot be kept would be lost by a restart with everything its players saw.
    spdlog::error("room {}: not made: cannot keep it on disk ({})", name, why);
    return Refusal { Refusal::Code::kUnavailable,
        "cannot make room " + name + ": the host cannot write it to its disk (" + why + ")" };
}

} // namespace

Outcome<std::string> HostService::create_room(
    std::string name, Visibility visibility, RoomMode mode, int bots, const Now&) {
    auto config = new_room_config(std::move(name), visibility, mode, bots);
    if (!config) return std::unexpected(config.error());
    if (auto kept = store_.create(*config, {}); !kept)
        return std::unexpected(unkept(config->name, kept.error().message));
    hand_to_disk(config->room_id);
    return host_made_room(std::move(*config)).authority.state().id();
}

void HostService::make_room(std::string name, Visibility visibility, RoomMode mode, int bots,
    std::optional<Clock::time_point> deadline, RoomMade made, const Now& now) {
    auto config = new_room_config(std::move(name), visibility, mode, bots);
    if (!config) {
        made(std::unexpected(config.error()), now);
        return;
    }
    if (being_made_.size() >= kMaxRoomsBeingMade) {
        made(std::unexpected(Refusal { Refusal::Code::kUnavailable,
                 "cannot make room " + config->name + " now: the host is busy making "
                     + std::to_string(being_made_.size())
                     + " rooms (its disk is slow); try again in a moment" }),
            now);
        return;
    }
    // Not after the deadline: looked at just before the room's config makes it one that loads.
    auto in_time = [deadline]() -> std::optional<std::string> {
        if (deadline && Clock::now() >= *deadline) return kTooLate;
        return std::nullopt;
    };
    std::uint64_t ticket
        = disk_.run(store_.dir() / config->room_id, store_.creation(*config, {}, in_time));
    being_made_.emplace(ticket, RoomBeingMade { std::move(*config), std::move(made) });
}

void HostService::run_finished(const DiskSyncer::Finished& finished, const Now& now) {
    if (folds_in_flight_.count(finished.ticket)) {
        fold_written(finished.ticket, finished.failure, now);
        return;
    }
    auto it = being_made_.find(finished.ticket);
    if (it == being_made_.end()) return;
    RoomBeingMade making = std::move(it->second);
    being_made_.erase(it);
    if (finished.failure == kTooLate) {
        spdlog::info("room {}: not made: {}", making.config.name, kTooLate);
        making.made(std::unexpected(Refusal { Refusal::Code::kUnavailable,
                        "room " + making.config.name + " was not made: " + kTooLate }),
            now);
        return;
    }
    if (finished.failure) {
        making.made(std::unexpected(unkept(making.config.name, *finished.failure)), now);
        return;
    }
    making.made(host_made_room(std::move(making.config)).authority.state().id(), now);
}

AuthorityOptions HostService::authority_options() const {
    AuthorityOptions options { milliseconds(config_.hold_ms), {}, bots_.available(),
        parse_bot_level(config_.bot_level).value_or(BotLevel::kHard) };
    // A player's daemon hears the restarted host within its peer timeout, and rejoins within
    // a heartbeat or two more (the same settings on every daemon of an office, as a rule).
    options.restart_hold = milliseconds(config_.peer_timeout_ms + 2 * config_.heartbeat_ms);
    return options;
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
    auto it = rooms_.find(room_id);
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
    if (room.local_member == kNoMember) {
        // Its host's owner may start a room it only watches (made with --spectate and free
        // seats): computers take the free seats, as a player's start does. It was told to join
        // first, and then that spectators cannot start.
        const RoomState& state = room.authority.state();
        if (auto* start = std::get_if<action::Start>(&action);
            start && state.game_number() == 0 && state.free_seats() > 0) {
            auto added = add_bots(room, state.free_seats(), start->level, now);
            return added ? std::nullopt : std::optional<Refusal>(added.error());
        }
        return Refusal { Refusal::Code::kNotAllowed,
            "you are not in room " + state.config().name + ": join it first" };
    }
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

std::string HostService::no_room(const std::string& room) const {
    // A friends code with a typo in its first part (the room's): said as one, not as a name.
    if (looks_like_friends_code(room))
        return "no room at this host has the friends code '" + room
            + "': check it for a typo, or the room may have been closed";
    if (!room.empty()) return "no room '" + room + "' at this host (friends rooms need their code)";
    // "The only public room at this address": name the choice.
    std::vector<std::string> names;
    for (const auto& [id, r] : rooms_)
        if (r->authority.state().config().visibility == Visibility::kPublic)
            names.push_back(r->authority.state().config().name);
    if (names.empty()) return "this host has no public room (friends rooms need their code)";
    std::sort(names.begin(), names.end());
    std::string why = "this host has " + std::to_string(names.size())
        + " public rooms: say which (ADDRESS/NAME), one of ";
    for (std::size_t i = 0; i < names.size() && i < 5; ++i) why += (i ? ", " : "") + names[i];
    return names.size() > 5 ? why + ", ..." : why;
}

void HostService::bot_moved(const BotJob& job, engine::Move move, const Now& now) {
    HostedRoom* room = find(job.room_id);
    if (!room || room->authority.state().seq() != job.seq) return; // the room moved on meanwhile
    if (!room->read_only.empty()) return; // asked again when the room is writable
    if (auto refusal = room->authority.bot_move(job.bot, move, now)) {
        spdlog::error("room {}: bot move refused: {}", room->authority.state().config().name,
            refusal->message);
        return;
    }
    room->next_bot_move_at = now.steady + std::chrono::milliseconds(config_.bot_pace_ms);
    flush(*room, now);
}

} // namespace halma::daemon
