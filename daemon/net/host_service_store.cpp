// HostService's side of durability: each room's new events and seat tokens go to its RoomStore
// before anyone hears of them, and at start-up the rooms kept there are hosted again; a closed
// room's files go. The rest of HostService (the ROUTER, the rooms' traffic) is host_service.cpp.
#include "daemon/net/host_service.h"

#include <random>
#include <spdlog/spdlog.h>

namespace halma::daemon {

void HostService::persist(HostedRoom& room) {
    const std::string& id = room.authority.state().id();
    auto events = room.authority.take_events();
    for (const RoomEvent& e : events)
        if (auto* left = std::get_if<event::MemberLeft>(&e.body);
            left && left->member == room.local_member) {
            room.local_member = kNoMember;
            room.local_token.clear();
        }
    const RoomState& state = room.authority.state();
    if (room.kept && !events.empty() && state.folds() != room.kept_folds) {
        // The log was folded: the file is replaced by the folded log (new events included), so
        // the disk holds no more than memory does.
        if (auto written = store_.rewrite(id, state.log()); !written)
            stop_keeping(room, written.error().message);
        else
            room.kept_folds = state.folds();
    } else if (room.kept && !events.empty()) {
        // In the kernel before anyone hears of them; on the disk shortly after (DiskSyncer).
        if (auto written = store_.append(id, events); !written)
            stop_keeping(room, written.error().message);
        else if (auto failed = disk_.sync(store_.log_fd(id), id))
            stop_keeping(room, "flushing its events: " + *failed);
    }
    StoredMembers members { room.local_member, room.authority.tokens() };
    if (room.kept && members != room.kept_members) {
        if (auto written = store_.save_members(id, members); !written)
            stop_keeping(room, written.error().message);
        else
            room.kept_members = std::move(members);
    }
    room.unsent.insert(room.unsent.end(), std::make_move_iterator(events.begin()),
        std::make_move_iterator(events.end()));
}

void HostService::disk_failed(const std::string& room_id, const std::string& why) {
    if (HostedRoom* room = find(room_id); room && room->kept)
        stop_keeping(*room, "flushing its events: " + why);
}

void HostService::stop_keeping(HostedRoom& room, const std::string& why) {
    const auto& state = room.authority.state();
    spdlog::error("room {}: cannot keep it on disk ({}); it goes on, but a restart will lose it",
        state.config().name, why);
    room.kept = false;
    if (auto removed = store_.remove(state.id()); !removed)
        spdlog::error("room {}: {}", state.config().name, removed.error().message);
}

void HostService::restore_rooms(const Now& now) {
    auto kept = store_.load();
    for (const auto& warning : kept.warnings) spdlog::warn("{}", warning);
    for (const auto& [id, why] : kept.refused)
        spdlog::error("room {} in {} not resumed: {}", id, store_.dir().string(), why);
    for (auto& stored : kept.rooms) {
        std::string id = stored.config.room_id, name = stored.config.name;
        auto authority = RoomAuthority::restore(std::move(stored.config), authority_options(),
            std::random_device {}(), stored.events, stored.members.tokens, now);
        if (!authority) {
            spdlog::error("room {} ({}) not resumed: its events do not replay: {}", name, id,
                authority.error().message);
            continue;
        }
        if (authority->state().phase() == Phase::kClosed) {
            // Closed, and the daemon stopped before its files were gone: finish the job.
            if (auto removed = store_.remove(id); !removed)
                spdlog::error("room {}: {}", name, removed.error().message);
            continue;
        }
        auto& room = *rooms_.emplace(id, std::make_unique<HostedRoom>(std::move(*authority)))
                          .first->second;
        if (auto token = room.authority.tokens().find(stored.members.local);
            token != room.authority.tokens().end()) {
            room.local_member = token->first;
            room.local_token = token->second;
        }
        room.kept_members = stored.members;
        // A log replayed from disk may have folded on the way: the file follows at the next write.
        room.kept_folds = room.authority.state().folds() > 0 ? ~std::uint64_t { 0 } : 0;
        room.authority.lose_remote_members(room.local_member, now);
        const RoomState& state = room.authority.state();
        int held = 0;
        for (const auto& [member, m] : state.members()) held += !m.bot && !m.connected;
        spdlog::info("resumed room {} at event {}, {} seat(s) held until their players rejoin",
            name, state.seq(), held);
        flush(room, now);
        listener_.room_changed(state, nullptr, room.local_member, connected_state());
    }
}

void HostService::close_room(HostedRoom& room, const Now& now) {
    std::string id = room.authority.state().id(), name = room.authority.state().config().name;
    room.authority.close(now);
    flush(room, now); // RoomClosed on disk, then to everyone in the room
    if (room.kept)
        if (auto removed = store_.remove(id); !removed)
            spdlog::error("room {}: {}", name, removed.error().message);
    for (auto& [conn, c] : conns_)
        std::erase_if(c.members, [&](const auto& member) { return member.first == id; });
    rooms_.erase(id);
    spdlog::info("closed room {}", name);
}

} // namespace halma::daemon
