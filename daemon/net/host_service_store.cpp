// HostService's side of durability: each room's new events and seat tokens go to its RoomStore
// before anyone hears of them, and at start-up the rooms kept there are hosted again; a closed
// room's files go. A write the disk refuses undoes the change it was for and makes the room
// read-only until the disk takes writes again; a failure never deletes a room's files (a close
// that stands without its own event written removes them as any close does). The rest of
// HostService (the ROUTER, the rooms' traffic) is host_service.cpp; closing a room for good,
// host_room_close.cpp.
#include "daemon/net/host_service.h"
#include "daemon/room/secrets.h"

#include <cerrno>
#include <cstring>
#include <random>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace halma::daemon {

bool HostService::persist(HostedRoom& room, const Now& now) {
    const std::string& id = room.authority.state().id();
    // A game that ended is kept as a record, written by the disk helper (the loop never creates
    // a file while rooms play). The room's log is not folded on the disk until the record is
    // there (records_written). A crash before the helper wrote it leaves the game in the log as
    // the room's last game, and keep_record() makes its record again at the restart; so before
    // a next game's first events are written (a new-game vote ends one game and starts the next
    // at once), a record still waiting is written here (write_record_now), or that game would
    // no longer be the last one after a crash, and nothing would make its record again. A crash
    // after a record is written but before the events ending its game are leaves a record of an
    // end the log never got; the game goes on after the restart and its real end replaces it.
    for (const auto& record : room.authority.take_finished_games()) {
        auto prepared = records_.prepare(id, record);
        if (!prepared) {
            (void)room.authority.take_events();
            lose_disk(room,
                "keeping the record of game " + std::to_string(record.game_number) + ": "
                    + prepared.error().message,
                now);
            return false;
        }
        if (!*prepared) continue; // records-kept 0
        auto& write = **prepared;
        std::uint64_t ticket = disk_.write(write.file, write.text, id);
        // A record that cannot be removed is no reason to stop this room: the helper logs it.
        for (const auto& old : write.pruned) disk_.remove(old, "");
        room.unflushed_records.push_back(
            { write.file, std::move(write.text), record.game_number, ticket });
    }
    for (auto& record : room.unflushed_records) {
        if (record.in_kernel || record.game_number >= room.authority.state().game_number())
            continue;
        if (auto written = write_record_now(room, record, Flush::kLater); !written) {
            (void)room.authority.take_events();
            lose_disk(room,
                "keeping the record of game " + std::to_string(record.game_number) + ": "
                    + written.error().message,
                now);
            return false;
        }
    }
    auto events = room.authority.take_events();
    const RoomState& state = room.authority.state();
    MemberId local = room.local_member;
    for (const RoomEvent& e : events)
        if (auto* left = std::get_if<event::MemberLeft>(&e.body); left && left->member == local)
            local = kNoMember;
    // Most events (every move) leave the members as they were: compared in place, as copying
    // the tokens twice was a quarter of the host's work per move (callgrind, bench_daemon).
    bool members_changed = local != room.kept_members.local
        || room.authority.tokens() != room.kept_members.tokens
        || room.authority.kept_seats() != room.kept_members.kept_seats;
    StoredMembers members;
    if (members_changed) members = { local, room.authority.tokens(), room.authority.kept_seats() };
    // Seat tokens before the events, old and new together: a token on disk whose member is not
    // in the room is ignored at a reload, but a member whose token is not there loses its seat.
    // So whichever of the two writes fails, the files reload to a room where everyone holds
    // their token (a new member's before its join is written, a leaver's until its leave is).
    StoredMembers both;
    if (members_changed) {
        both = members;
        both.tokens.insert(room.kept_members.tokens.begin(), room.kept_members.tokens.end());
        // So with the seats kept for vanished players: a seat taken back, or one kept for a
        // player whose leaving is not written yet, is not kept at a reload (restore's checks).
        both.kept_seats.insert(
            room.kept_members.kept_seats.begin(), room.kept_members.kept_seats.end());
        if (both.local == kNoMember) both.local = room.kept_members.local;
    }
    if (members_changed && both != room.kept_members) {
        if (auto written = store_.save_members(id, both); !written) {
            lose_disk(room, written.error().message, now);
            return false;
        }
        room.kept_members = std::move(both);
    }
    if (!events.empty()) {
        // In the kernel before anyone hears of them; on the disk shortly after (DiskSyncer).
        auto log = store_.append(id, events);
        if (!log) {
            lose_disk(room, log.error().message, now);
            return false;
        }
        // A flush that fails comes back as disk_failed: the events stand (undoing them would
        // need the disk too); the room takes nothing more until the disk does.
        if (room.log_file.empty()) room.log_file = store_.dir() / id / "events";
        disk_.sync(room.log_file, id);
        keep_for_fold(room, events); // a folded log being written follows with them
    }
    // Then the tokens exactly, the leavers' gone. The events stand whatever this does (they
    // are written); the file as it was reloads to the same room.
    if (members_changed && members != room.kept_members) {
        if (auto written = store_.save_members(id, members); !written) {
            spdlog::error("room {}: cannot write its members file ({}); read-only until the disk "
                          "takes a write again",
                state.config().name, written.error().message);
            room.read_only = "the host cannot write to its disk (" + written.error().message + ")";
            room.disk_retry_at = now.steady + kDiskRetry;
            schedule(room); // its disk is tried again, whoever called
            listener_.room_changed(state, nullptr, room.local_member, connected_state());
        } else {
            room.kept_members = std::move(members);
        }
    }
    // Every file written above, flushed under this room's name (a failure makes it read-only).
    hand_to_disk(id);
    // The log was folded: its file is replaced by the folded log, so the disk holds no more than
    // memory does (the events above are appended to the log meanwhile).
    fold_log_if_due(room, now);
    if (local != room.local_member) {
        room.local_leaving = room.local_member;
        room.local_member = kNoMember;
        room.local_token.clear();
    }
    room.unsent.insert(room.unsent.end(), std::make_move_iterator(events.begin()),
        std::make_move_iterator(events.end()));
    return true;
}

bool HostService::records_written(HostedRoom& room) {
    bool all = true;
    for (auto& record : room.unflushed_records) {
        if (record_flushed(record) || !records_.keeps(record.file)) {
            record.ticket = 0; // on the disk, or pushed out by records-kept since: not written
        } else if (disk_.tried(record.ticket)) {
            // The helper tried and failed (the room was made read-only then): asked again, so
            // the room folds once the disk takes writes.
            record.ticket = disk_.write(record.file, record.text, room.authority.state().id());
            record.first_ticket = 0;
            all = false;
        } else {
            all = false;
        }
    }
    std::erase_if(room.unflushed_records, [](const auto& r) { return r.ticket == 0; });
    return all;
}

engine::Result<bool> HostService::write_record_now(
    HostedRoom& room, HostedRoom::UnflushedRecord& record, Flush flush, bool wait_for_helper) {
    auto done = [&] { return record_flushed(record); };
    if (done() || (record.in_kernel && flush == Flush::kLater)) return record.in_kernel = true;
    if (!records_.keeps(record.file)) return true; // pushed out by records-kept: nothing to keep
    // Rare (a record asked for moments ago): the helper's write is taken back if it has not
    // begun. If it has, a record that need only be in the kernel (kLater) is written here beside
    // it, under a temporary name of its own (both put the same bytes in place): waiting for the
    // helper would hold every room up for as long as the disk stalls (seconds on an SD card),
    // and games of computer players end and start again within one flush. One that must be on
    // the disk (kNow: a room closing) waits for the helper's, as it would for its own.
    bool withdrawn = false, beside_helper = false;
    if (record.in_kernel || !disk_.withdraw(record.file)) {
        // The helper's write has begun: its ticket says when it is on the disk. (One that
        // failed already is written here instead.)
        if (!wait_for_helper && !disk_.tried(record.ticket)) return true;
        if (flush == Flush::kLater && !disk_.tried(record.ticket)) {
            beside_helper = true;
        } else {
            disk_.wait(record.ticket);
            if (done()) return record.in_kernel = true;
        }
    } else {
        withdrawn = true;
    }
    if (auto written = write_file_atomically(
            record.file, record.text, flush, beside_helper ? ".loop.tmp" : ".tmp");
        !written) {
        // The helper's write was taken back and its ticket reads as done: asked again, or the
        // record would be taken as written and its game folded out of the log.
        if (withdrawn) {
            record.ticket = disk_.write(record.file, record.text, room.authority.state().id());
            record.first_ticket = 0;
        }
        return written;
    }
    record.in_kernel = true;
    if (flush == Flush::kLater) {
        const std::string& id = room.authority.state().id();
        std::uint64_t helper_write = record.ticket;
        std::uint64_t file_flush = disk_.sync(record.file, id);
        // Written beside the helper: on the disk only if the helper's write did not fail either
        // (a write-back error it saw would not be reported to the flush of this copy).
        record.first_ticket = beside_helper ? helper_write : file_flush;
        record.ticket = disk_.sync(records_.dir(), id);
    }
    return true;
}

void HostService::hand_to_disk(const std::string& room_id) {
    for (const auto& path : store_.take_unflushed())
        store_.flush_asked(path, disk_.sync(path, room_id));
}

bool HostService::disk_failed(const std::string& room_id, const std::string& why) {
    HostedRoom* room = find(room_id);
    if (!room) return false;
    // Its log, members, keys or a game's record: the reason names the file.
    spdlog::error("room {}: the disk refused one of its files ({}); read-only until the disk "
                  "takes a write again",
        room->authority.state().config().name, why);
    room->read_only = "the host cannot write to its disk (" + why + ")";
    room->disk_retry_at = Clock::now() + kDiskRetry;
    schedule(*room);
    listener_.room_changed(room->authority.state(), nullptr, room->local_member, connected_state());
    return true;
}

void HostService::lose_disk(HostedRoom& room, const std::string& why, const Now& now) {
    const std::string id = room.authority.state().id(), name = room.authority.state().config().name;
    room.read_only = "the host cannot write to its disk (" + why + ")";
    room.disk_retry_at = now.steady + kDiskRetry;
    schedule(room); // its disk is tried again, whoever called (a join persists by itself)
    hand_to_disk(id); // what was written before the write that failed
    // Back to what the files hold: every event anyone has heard of is there (write-ahead), and
    // nothing after it is, so nothing is lost that was seen, and nothing seen is undone.
    auto stored = store_.reload(id);
    auto authority = stored
        ? RoomAuthority::restore(stored->config, authority_options(), std::random_device {}(),
            stored->events, stored->members.tokens, now, stored->members.kept_seats)
        : std::unexpected(stored.error());
    if (!authority) {
        // Cannot happen unless the files were damaged behind our back: the room's memory stays
        // ahead of them, unsent, and nothing more is accepted.
        spdlog::error("room {}: cannot write to disk ({}) nor reload it ({}); read-only", name, why,
            authority.error().message);
        (void)room.authority.take_events();
        return;
    }
    spdlog::error("room {}: cannot write to disk ({}); its last change is refused and the room "
                  "is read-only until the disk takes a write again; its files are kept",
        name, why);
    room.authority = std::move(*authority);
    room.local_member = kNoMember;
    room.local_token.clear();
    if (auto token = room.authority.tokens().find(stored->members.local);
        token != room.authority.tokens().end()) {
        room.local_member = token->first;
        room.local_token = token->second;
    }
    room.kept_members = stored->members;
    room.kept_folds = room.authority.state().folds() > 0 ? ~std::uint64_t { 0 } : 0;
    room.fold.stale = room.fold.ticket != 0; // a folded log being written is of the room before
    room.unsent.clear();
    // Kept: a record written before the write that failed is still to be flushed before a fold.
    listener_.room_changed(room.authority.state(), nullptr, room.local_member, connected_state());
}

void HostService::retry_disk(HostedRoom& room, const Now& now) {
    if (room.read_only.empty() || now.steady < room.disk_retry_at) return;
    // The members file is small and rewritten whole: if the disk takes it, it takes events.
    const std::string& id = room.authority.state().id();
    // Memory is what the disk holds (read-only since): its tokens are the file's, exactly.
    StoredMembers members { room.local_member, room.authority.tokens(),
        room.authority.kept_seats() };
    auto written = store_.save_members(id, members);
    if (written) room.kept_members = std::move(members);
    // Then every other file of the room, the whole log too, written afresh from memory (which
    // is what anyone has seen): a flush that failed (an I/O error) may have lost part of any of
    // them on the disk, and the kernel reports such an error once, to the helper, so a new flush
    // of the old files would pass over the hole. A log folded in memory waits until the records
    // it folds away are on the disk (as in persist()). Flushed on the helper, as every write
    // is: a failure there makes the room read-only again.
    const RoomState& state = room.authority.state();
    std::optional<std::string> failed;
    if (!written)
        failed = written.error().message;
    else if (auto config = store_.save_config(state.config()); !config)
        failed = config.error().message;
    else if (auto keys = store_.save_keys(id, encode_seat_keys(room.member_keys)); !keys)
        failed = keys.error().message;
    else if (state.folds() != room.kept_folds && !records_written(room))
        failed = "a finished game's record is not on the disk yet";
    else if (auto rewritten = store_.rewrite(id, state.log()); !rewritten)
        failed = "writing its events: " + rewritten.error().message;
    else
        room.kept_folds = state.folds();
    room.fold.stale = room.fold.ticket != 0; // the log is written whole: a fold may not follow
    hand_to_disk(id);
    if (failed) {
        room.disk_retry_at = now.steady + kDiskRetry;
        return;
    }
    spdlog::info("room {}: the disk takes writes again; the room is writable",
        room.authority.state().config().name);
    room.read_only.clear();
    // Connections came and went while nothing could be written: a member the files call
    // connected whose daemon is not here now is held, as after a restart.
    std::set<MemberId> here;
    for (const auto& [conn, c] : conns_)
        for (const auto& [room_id, member] : c.members)
            if (room_id == id && c.alive) here.insert(member);
    for (const auto& [member, m] : room.authority.state().members())
        if (!m.bot && m.connected && member != room.local_member && !here.count(member))
            room.authority.set_connected(member, false, now);
    listener_.room_changed(room.authority.state(), nullptr, room.local_member, connected_state());
}

std::optional<Refusal> HostService::read_only_refusal(const HostedRoom& room) {
    if (room.read_only.empty()) return std::nullopt;
    return Refusal { Refusal::Code::kUnavailable,
        "room " + room.authority.state().config().name + " is read-only until the host has disk "
            + "space again: " + room.read_only };
}

// A friends code names its host's key: a key made anew (the state directory restored without
// `curve`) left every code it made pointing at the old one, and each joiner refused this host
// as an impostor, the code printed in the log included. The room's part stays; the key's is
// this key's, and the room's config is written so.
void HostService::reissue_code_for_key(RoomConfig& config) {
    if (config.visibility != Visibility::kFriends || key_digits_.empty()) return;
    std::string code = normalize_code(config.code);
    std::string key = normalize_code(key_digits_.substr(0, kFriendsKeyDigits));
    if (code.size() != kFriendsCodeWithKey || code.ends_with(key)) return;
    std::string old = config.code;
    config.code = friends_code(code.substr(0, kFriendsCodeDigits), key_digits_);
    if (auto saved = store_.save_config(config); !saved) {
        spdlog::error(
            "room {}: cannot write its new friends code: {}", config.name, saved.error().message);
        config.code = old;
        return;
    }
    hand_to_disk(config.room_id);
    spdlog::warn("room {}: its friends code {} named another host key than this daemon's; it is "
                 "now {}, for this key: give players this code (a daemon that pinned the other "
                 "key refuses this host until its player runs `halma forget-host`)",
        config.name, old, config.code);
}

void HostService::restore_rooms(const Now& now) {
    // What a run killed before its helper flushed left in the kernel (a record, an unfolded
    // log's earlier game) goes to the disk before anything here replaces it or removes the files
    // that could make it again: a syncfs of the rooms' and the records' directories (start-up
    // may wait). It cannot report a write-back error that happened before it opened them: the
    // closed rooms' records are written afresh below for that.
    for (const auto& dir : { store_.dir(), records_.dir() }) {
        std::error_code ec;
        if (!std::filesystem::exists(dir, ec)) continue;
        if (auto synced = sync_file_system(dir); !synced)
            spdlog::warn("{}", synced.error().message);
    }
    // The records too, here where start-up may wait: each one's players are read, and a limit
    // lowered since the last run takes effect now.
    if (auto pruned = records_.index_and_prune(); !pruned)
        spdlog::warn("records: {}", pruned.error().message);
    else if (*pruned > 0)
        spdlog::info("records: {} past records-kept ({}) removed", *pruned, config_.records_kept);
    auto kept = store_.load();
    for (const auto& warning : kept.warnings) spdlog::warn("{}", warning);
    for (const auto& [id, why] : kept.refused) {
        auto named = kept.refused_names.find(id);
        if (named != kept.refused_names.end()) damaged_names_.insert(named->second);
        spdlog::error("room {}{} in {} not resumed: {}; its files are left as they are",
            named == kept.refused_names.end() ? "" : named->second + " ", id, store_.dir().string(),
            why);
    }
    for (auto& stored : kept.rooms) {
        std::string id = stored.config.room_id, name = stored.config.name;
        reissue_code_for_key(stored.config);
        auto authority = RoomAuthority::restore(std::move(stored.config), authority_options(),
            std::random_device {}(), stored.events, stored.members.tokens, now,
            stored.members.kept_seats);
        if (!authority) {
            spdlog::error("room {} ({}) not resumed: its events do not replay: {}", name, id,
                authority.error().message);
            continue;
        }
        if (authority->state().phase() == Phase::kClosed) {
            // Closed, and the daemon stopped before its files were gone: finish the job, with
            // the record of a game the close cut short if the disk lost it. A record there is
            // written again, the same bytes as a new file, flushed here (start-up may wait),
            // before the files that could make it again go: the closing run may have left it in
            // the kernel only, or over a write-back error that run's helper was told of and a
            // flush now would not be. (Made again from the log it could differ: seats taken
            // since, the close's time.)
            const RoomState& ended = authority->state();
            if (ended.game() && records_.has(id, ended.game_number())) {
                auto again = rewrite_file_afresh(records_.file_of(id, ended.game_number()));
                if (!again) {
                    spdlog::error("room {}: cannot keep the record of game {}: {}; its files "
                                  "are kept for the next start",
                        name, ended.game_number(), again.error().message);
                    continue;
                }
            } else if (!keep_record(ended)) {
                continue; // kept for the next start
            }
            remove_files(id, name);
            continue;
        }
        auto& room = *rooms_.emplace(id, std::make_unique<HostedRoom>(std::move(*authority)))
                          .first->second;
        index(room);
        if (auto token = room.authority.tokens().find(stored.members.local);
            token != room.authority.tokens().end()) {
            room.local_member = token->first;
            room.local_token = token->second;
        }
        room.kept_members = stored.members;
        room.member_keys = load_seat_keys(store_.dir() / id);
        if (!keep_record(room.authority.state())) {
            // The disk refused the record: the helper tries again, and the log is not folded
            // (the game not lost) until it is written (records_written).
            const RoomState& ended = room.authority.state();
            if (auto prepared = records_.prepare(id, record_of(ended, "")); prepared && *prepared) {
                auto& write = **prepared;
                std::uint64_t ticket = disk_.write(write.file, write.text, id);
                for (const auto& old : write.pruned) disk_.remove(old, "");
                room.unflushed_records.push_back(
                    { write.file, std::move(write.text), ended.game_number(), ticket });
            }
        }
        // A log replayed from disk may have folded on the way: the file follows at the next write.
        room.kept_folds = room.authority.state().folds() > 0 ? ~std::uint64_t { 0 } : 0;
        room.authority.lose_remote_members(room.local_member, now);
        room.authority.catch_up(now);
        const RoomState& state = room.authority.state();
        int held = 0;
        // Seats: a spectator held too was counted as one ("3 seat(s)" of two people).
        for (const auto& [member, m] : state.members())
            held += !m.bot && !m.connected && m.seat != kNoSeat;
        spdlog::info("resumed room {} at event {}; {}", name, state.seq(),
            held == 1 ? "1 seat held until its player rejoins"
                      : std::to_string(held) + " seats held until their players rejoin");
        flush(room, now);
        listener_.room_changed(state, nullptr, room.local_member, connected_state());
    }
}

bool HostService::keep_record(const RoomState& state) {
    // The daemon stopped after the events that ended the game were written but before its
    // record was (or the record was lost): it is made again from the log, which still holds the
    // whole game until the next one starts. A closed room's game had ended or was cut short.
    bool closed = state.phase() == Phase::kClosed;
    if (!state.game() || !(closed || game_ended(state))
        || records_.has(state.id(), state.game_number()))
        return true;
    bool cut_short = closed && !state.game()->over();
    if (auto saved = records_.save(state.id(), record_of(state, cut_short ? "room closed" : ""));
        !saved) {
        spdlog::error("room {}: cannot keep the record of game {}: {}", state.config().name,
            state.game_number(), saved.error().message);
        return false;
    }
    return true;
}

} // namespace halma::daemon
