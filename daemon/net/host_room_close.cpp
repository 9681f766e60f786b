// Closing a hosted room for good: its players are told (the close is the room's last event,
// written like any other), the game being played is kept as a record, and then the room's files
// go. A close the disk refuses is said, and the room stays as it was.
#include "daemon/net/host_service.h"

#include <filesystem>
#include <spdlog/spdlog.h>

namespace halma::daemon {

std::optional<std::string> HostService::close_room(HostedRoom& room, const Now& now) {
    std::string id = room.authority.state().id(), name = room.authority.state().config().name;
    bool playing = room.authority.state().phase() == Phase::kPlaying;
    room.authority.close(now);
    // The game's record and RoomClosed on disk, then RoomClosed to everyone in the room. A game
    // that cannot be kept is not thrown away: the room stays (read-only until the disk takes
    // writes; it is back as it was).
    bool closed_on_disk = flush(room, now);
    if (!closed_on_disk && playing)
        return "room " + name + " is not closed: the game being played cannot be kept ("
            + room.read_only + "); close it when the disk takes writes again";
    // The close is not on the disk, so files kept for a record the disk refuses would bring the
    // room back at the next start: it stays, until the disk takes writes.
    if (!closed_on_disk && !records_written(room))
        return "room " + name + " is not closed: the record of its last game cannot be kept ("
            + room.read_only + "); close it when the disk takes writes again";
    bool removed = false;
    if (!closed_on_disk) {
        // No game is being played and every record is on the disk: nothing in the files is
        // lost when they go, so the close stands, its own event unwritten (the disk took the
        // room back to its files), and is told all the same, or the room's daemons, front ends
        // and the LAN's adverts would keep a room that is gone. The files go first: a room the
        // disk keeps (a file system remounted read-only) would come back at the next start,
        // after everyone heard it closed. A removal that failed after the config went stands
        // all the same: without it the room is not loaded again.
        std::error_code ec;
        if (auto gone = store_.remove(id);
            !gone && std::filesystem::exists(store_.dir() / id / "config", ec))
            return "room " + name + " is not closed: its files cannot be removed ("
                + gone.error().message + "); close it when the disk takes writes again";
        removed = true;
        room.read_only.clear(); // it is gone, not read-only
        room.authority.close(now);
        for (auto& e : room.authority.take_events()) room.unsent.push_back(std::move(e));
        announce(room, now);
    }
    hand_to_disk(id);
    // The room's files (which hold the game) go only once its record is on the disk. The record
    // is written into the kernel here (so `halma records` lists it at once; one the helper is
    // writing already is left to it), the helper flushes it, and finish_closing() removes the
    // files when it has: a close waits for no disk. If the disk refuses the record, they stay:
    // the log ends with the room's close, and the next start makes the record from it, then
    // removes them.
    if (!removed) {
        bool written = true;
        for (auto& record : room.unflushed_records)
            if (auto kept = write_record_now(room, record, Flush::kLater, false); !kept) {
                spdlog::error("room {}: keeping a record: {}; its files are kept, and the next "
                              "start makes the record from them",
                    name, kept.error().message);
                written = false;
                break;
            }
        if (written) closing_[id] = ClosingRoom { name, std::move(room.unflushed_records) };
    }
    for (auto& [conn, c] : conns_)
        std::erase_if(c.members, [&](const auto& member) { return member.first == id; });
    unindex(room);
    rooms_.erase(id);
    wakeups_.erase(id);
    spdlog::info("closed room {}", name);
    finish_closing(id, now); // at once if its records are on the disk already
    return std::nullopt;
}

void HostService::finish_closing(const std::string& id, const Now& now) {
    auto it = closing_.find(id);
    if (it == closing_.end()) return;
    const ClosingRoom& closing = it->second;
    bool failed = false, waiting = false;
    for (const auto& record : closing.records) {
        if (record_flushed(record) || !records_.keeps(record.file)) continue;
        (disk_.tried(record.ticket) ? failed : waiting) = true;
    }
    if (waiting && !failed) {
        wakeups_.set(id, now.steady + kClosingCheck);
        return;
    }
    if (failed)
        spdlog::error("room {}: the record of its last game cannot be kept; its files are kept, "
                      "and the next start makes the record from them",
            closing.name);
    else
        remove_files(id, closing.name);
    closing_.erase(it);
}

void HostService::remove_files(const std::string& id, const std::string& name) {
    if (auto removed = store_.remove(id); !removed)
        spdlog::error("room {}: {}", name, removed.error().message);
    hand_to_disk(id); // what was removed, or written before the removal failed
}

} // namespace halma::daemon
