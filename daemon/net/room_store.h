// What a host keeps of the rooms it hosts, so that it resumes them after a restart (a crash,
// kill -9, a reboot): one private directory per room under STATE_DIR/rooms with its config,
// every event it accepted (written before anyone hears of them) and its members' seat tokens.
// docs/protocol.md ("Durability") describes the files.
#pragma once

#include "daemon/net/durable_file.h"
#include "daemon/room/room_event.h"
#include "daemon/room/room_types.h"
#include "engine/result.h"

#include <filesystem>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace halma::daemon {

// The secrets of a room that are not in its events.
struct StoredMembers {
    MemberId local = kNoMember; // the host's own player, kNoMember if it is not in the room
    std::map<MemberId, std::string> tokens; // each member's seat token
    std::map<int, KeptSeat> kept_seats; // by seat: computers' seats kept for vanished players
    bool operator==(const StoredMembers&) const = default;
};

struct StoredRoom {
    RoomConfig config;
    std::vector<RoomEvent> events;
    StoredMembers members;
};

struct StoreContents {
    std::vector<StoredRoom> rooms;
    // What was repaired on the way: a torn last event dropped, a half-made room removed.
    std::vector<std::string> warnings;
    // Rooms left on disk but not loaded: room id (the directory's name) and why.
    std::vector<std::pair<std::string, std::string>> refused;
    // The names of those whose config could be read (the log names them; a standing room of
    // that name is not made anew beside them).
    std::map<std::string, std::string> refused_names;
};

// Descriptors a RoomStore keeps open for its rooms' logs, at most, unless told otherwise.
inline constexpr std::size_t kOpenLogs = 64;

class RoomStore {
public:
    // Keeps the rooms under `state_dir`/rooms.
    explicit RoomStore(std::filesystem::path state_dir);
    const std::filesystem::path& dir() const { return dir_; }

    // Every room kept. A room whose events file ends in a torn record (the daemon died while
    // appending) loses that record, which nobody can have seen; any other damage leaves the
    // room on disk unloaded, with the reason. Never throws.
    StoreContents load();
    // The room as its files hold it now (what a host falls back to when a write fails).
    engine::Result<StoredRoom> reload(const std::string& room_id);
    // Starts keeping a new room; its config is written last, so a room is loaded only whole.
    // On failure, what it made of the room's directory is gone again (nobody has seen it).
    engine::Result<bool> create(const RoomConfig& config, const StoredMembers& members);
    // What create() does, with every file on the disk when it returns (Flush::kNow), as work
    // for the disk helper (DiskSyncer::run): it touches nothing of the store's, so it may run
    // on another thread. It returns why it failed, or nullopt. `veto`, if given, is asked just
    // before the config is written (what makes the room one that loads): a reason it gives
    // stops the making there, and what was made goes.
    using Veto = std::function<std::optional<std::string>()>;
    std::function<std::optional<std::string>()> creation(
        const RoomConfig& config, const StoredMembers& members, Veto veto = {}) const;
    // Writes the events at the end of the room's log (into the kernel: see AppendFile). On
    // failure the file is as it was: no part of the batch stays. The logs of the rooms written
    // to last stay open (open_logs() of them, the longest unwritten closed first): opening a log
    // for every move was a sixth of a busy host's loop, and a host of 10,000 idle rooms still
    // holds no more than that many descriptors for them.
    engine::Result<bool> append(const std::string& room_id, const std::vector<RoomEvent>& events);
    // How many logs may stay open (at least one); those past it are closed now.
    void keep_logs_open(std::size_t logs);
    std::size_t open_logs() const { return open_logs_cap_; }
    // Replaces the room's log with `events` (its folded log), atomically: a crash leaves the old
    // file or the new one, whole.
    engine::Result<bool> rewrite(const std::string& room_id, const std::vector<RoomEvent>& events);
    // What rewrite() does, in two halves, so that a host's loop makes no file for it (a fold at
    // every game's start; a new file on a busy ext4 or an SD card can take milliseconds):
    // folding() is work for the disk helper (DiskSyncer::run) that writes the folded log to
    // fold_file() and flushes it, while the loop goes on appending to the log; then
    // finish_fold() appends to it the events the log took since (`since`, in the kernel) and
    // renames it over the log. A crash before the rename leaves the log whole (load() removes
    // the fold file); after it, the folded log, whole.
    std::function<std::optional<std::string>()> folding(
        const std::string& room_id, const std::vector<RoomEvent>& events) const;
    engine::Result<bool> finish_fold(
        const std::string& room_id, const std::vector<RoomEvent>& since);
    std::filesystem::path fold_file(const std::string& room_id) const {
        return room_dir(room_id) / "events.folded";
    }
    // The room's seat tokens, replaced at every join and leave: written in place over the
    // older of its two copies (paired_file.h), so the loop creates and renames no file.
    engine::Result<bool> save_members(const std::string& room_id, const StoredMembers& members);
    // The room's config, replaced atomically (create() writes the first).
    engine::Result<bool> save_config(const RoomConfig& config);
    // The room's keys file (its text: trust/seat_keys.h, encode_seat_keys), written as members
    // is.
    engine::Result<bool> save_keys(const std::string& room_id, std::string_view text);
    // With `later`, create(), rewrite(), save_members() and remove() write into the kernel only (a
    // crash of the daemon loses nothing) and leave the fsyncs to whoever takes take_unflushed():
    // the host hands them to its DiskSyncer, so its event loop never waits for the disk.
    void flush_later(bool later) { flush_ = later ? Flush::kLater : Flush::kNow; }
    // The files and directories written since the last call that still need flushing.
    std::vector<std::filesystem::path> take_unflushed() { return std::exchange(unflushed_, {}); }
    // The ticket of the flush asked for a file take_unflushed() gave, and how to tell whether
    // a ticket's flush is done (DiskSyncer::flushed): until the flush of a copy of members or
    // keys is done, the next write goes over that copy again, not over the other, which may be
    // the only one on the disk (paired_file.h).
    void flush_asked(const std::filesystem::path& file, std::uint64_t ticket);
    void flush_check(std::function<bool(std::uint64_t)> flushed) { flushed_ = std::move(flushed); }
    // Forgets the room: its config goes first, so a crash half-way leaves no room to load.
    engine::Result<bool> remove(const std::string& room_id);

private:
    std::filesystem::path room_dir(const std::string& room_id) const { return dir_ / room_id; }
    engine::Result<StoredRoom> load_room(
        const std::string& room_id, std::vector<std::string>& warnings);

    // The room's log, open for appending: from the open ones, or opened now (closing the one
    // written to longest ago if open_logs() are open).
    engine::Result<AppendFile*> open_log(const std::string& room_id);
    // Closes the room's log if it is open (it is about to be replaced or removed, or failed).
    void close_log(const std::string& room_id);
    // Closes the logs written to longest ago until `keep` are open.
    void close_logs_past(std::size_t keep);

    std::filesystem::path dir_;
    Flush flush_ = Flush::kNow;
    // The copies of members and keys written last with Flush::kLater, until their flush is
    // known to be done, with its ticket (0: not handed to the disk helper yet). At most one
    // per file, two a room; a closed room's go with it.
    std::map<std::filesystem::path, std::uint64_t> copies_in_flight_;
    std::function<bool(std::uint64_t)> flushed_ = [](std::uint64_t) { return true; };
    std::size_t open_logs_cap_ = kOpenLogs;
    std::list<std::pair<std::string, AppendFile>> open_logs_; // the latest written first
    std::unordered_map<std::string, std::list<std::pair<std::string, AppendFile>>::iterator>
        open_log_of_;
    std::vector<std::filesystem::path> unflushed_;
    // write_file_atomically as flush_ says, noting what is left to flush.
    engine::Result<bool> write_whole(const std::filesystem::path& path, std::string_view bytes);
    engine::Result<bool> write_paired(const std::filesystem::path& path, std::string_view bytes);
};

// An events file's records: a 4-byte little-endian length, the CRC-32 of the payload (4 bytes,
// little-endian), then the payload, a halma.v1.RoomEvent.
std::string encode_event_record(const RoomEvent& event);

struct EventLog {
    std::vector<RoomEvent> events;
    std::uintmax_t good_bytes = 0; // where the last whole record ends
    std::string torn; // why the bytes after good_bytes were dropped; empty: none were
};
// Reads records until the end. A bad record that reaches the end of the file (cut short, or
// written in part), or bad bytes that are all zero to the end, is a torn append and is dropped;
// a bad record with more after it is an error naming its byte offset.
engine::Result<EventLog> decode_event_log(std::string_view bytes);

} // namespace halma::daemon
