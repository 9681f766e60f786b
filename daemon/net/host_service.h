// The host role: a ROUTER socket other daemons join rooms through, and the rooms this daemon
// hosts (each a RoomAuthority). It turns peers' messages into room actions, writes every accepted
// event to disk and then sends it to each daemon in the room, heartbeats idle peers and notices
// the ones that vanish. A restarted host resumes its rooms from disk.
#pragma once

#include "daemon/net/bot_pool.h"
#include "daemon/net/config.h"
#include "daemon/net/disk_syncer.h"
#include "daemon/net/log_budget.h"
#include "daemon/net/peer_address_budget.h"
#include "daemon/net/record_store.h"
#include "daemon/net/room_listener.h"
#include "daemon/net/room_store.h"
#include "daemon/net/wakeup_queue.h"
#include "daemon/room/room_authority.h"
#include "daemon/room/room_index.h"
#include "daemon/trust/host_key.h"
#include "daemon/trust/seat_keys.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

struct HostedRoom {
    explicit HostedRoom(RoomAuthority room)
        : authority(std::move(room)) { }

    RoomAuthority authority;
    MemberId local_member = kNoMember; // the player at this daemon's own front ends
    // The local player's number while their leave is still to be announced: the front ends that
    // follow the rooms where the player sits are told of it (local_member is gone by then, and
    // play's line kept saying it was their move there).
    MemberId local_leaving = kNoMember;
    std::string local_token;
    std::uint64_t bot_asked_at = 0; // seq a bot move was last asked for
    // Where only computer players sit, the next bot move is not asked for before
    // next_bot_move_at (the last bot move plus bot-pace-ms); bot_due is set while one waits.
    std::chrono::steady_clock::time_point next_bot_move_at {};
    std::optional<std::chrono::steady_clock::time_point> bot_due;
    // Why the room takes no change now (the disk refused its last write), empty when it does;
    // the disk is tried again at disk_retry_at.
    std::string read_only;
    std::chrono::steady_clock::time_point disk_retry_at {};
    StoredMembers kept_members; // the members file as last written
    std::uint64_t kept_folds = 0; // the room's log was folded this often when last written whole
    std::vector<RoomEvent> unsent; // on disk, not yet sent to anyone
    // Answers to each member's rejoins in the current window (Config::rejoin_limit per peer
    // timeout): one token asking from 400 connections, never reading, queued 500 MB of
    // snapshots in five seconds.
    struct RejoinWindow {
        std::chrono::steady_clock::time_point started {};
        int answered = 0;
    };
    std::map<MemberId, RejoinWindow> rejoins;
    std::filesystem::path log_file; // its events file, once known (flushed after every write)
    // Records written into the kernel whose flush DiskSyncer has not confirmed yet: the log
    // that holds their games is not folded (nor the room removed) before they are on the disk.
    // A finished game's record the disk helper has not written yet (kept to ask again if the
    // disk refuses it).
    struct UnflushedRecord {
        std::filesystem::path file;
        std::string text;
        int game_number = 0;
        // The helper's write; or the flushes of the loop's own write, the file's first_ticket
        // and its directory's ticket: on the disk when every flush in [first_ticket, ticket]
        // succeeded (first_ticket 0: ticket alone).
        std::uint64_t ticket = 0;
        std::uint64_t first_ticket = 0;
        bool in_kernel = false; // the file holds it (a crash of halmad cannot lose it)
    };
    std::vector<UnflushedRecord> unflushed_records;
    // The room's folded log, being written by the disk helper (RoomStore::folding) while the
    // loop appends to the log as before; put in the log's place once written (fold_written).
    struct Fold {
        std::uint64_t ticket = 0; // the helper's run; 0: none
        std::uint64_t folds = 0; // how often the log had been folded when it was taken
        // The events logged since, to follow it (at most kFoldSinceMax: past that, it is
        // taken afresh once written).
        std::vector<RoomEvent> since;
        // The room was reloaded from its files, or its log written whole, or too much was
        // logged since: it is not put in place.
        bool stale = false;
        std::chrono::steady_clock::time_point not_before {}; // after the disk refused one
    };
    Fold fold;
    SeatKeys member_keys; // the CURVE key each remote member joined with (seat_keys.h)
};

// A peer's connection as the log names it: "p" and 7 hex digits.
std::string short_id(const std::string& routing_id);

class HostService {
public:
    using Clock = std::chrono::steady_clock;

    HostService(zmq::context_t& context, const Config& config, BotPool& bots, DiskSyncer& disk,
        RoomListener& listener);

    // Makes the peer port a CURVE server with this key pair, its handshakes judged by the ZAP
    // handler (zap_handler.h); before bind(). Without it links are plain (a testing option).
    void use_curve(const CurveKeyPair& keys);
    // Binds the listening address; throws zmq::error_t when it cannot (port taken...).
    void bind();
    void unbind();
    zmq::socket_t& socket() { return socket_; }
    void on_readable(const Now& now);
    std::optional<Clock::time_point> next_deadline() const;
    void tick(const Now& now);

    // At start-up: the rooms this daemon hosted when it stopped, from disk. Every remote member
    // is marked gone and held until its daemon rejoins; a bot whose turn it is is asked again.
    void restore_rooms(const Now& now);
    // How many rooms' logs may stay open between writes (RoomStore::keep_logs_open).
    void keep_logs_open(std::size_t logs) { store_.keep_logs_open(logs); }
    // The disk refused to flush a room's log (DiskSyncer): the room is read-only until a write
    // succeeds again.
    // False if the label names no room hosted here (a closed room's, a file of the daemon's own).
    bool disk_failed(const std::string& room_id, const std::string& why);

    // For the local front ends.
    const RecordStore& records() const { return records_; }
    // Makes a room and its files on the spot (the loop waits for them): for the standing rooms
    // of the config, made before the loop runs. `bots`: the computers it is made with (seated
    // by the caller), kept in its config as its setup.
    Outcome<std::string> create_room(
        std::string name, Visibility visibility, RoomMode mode, int bots, const Now& now);
    // Makes a room for a front end: its files are made by the disk helper (a new file on a busy
    // ext4 or an SD card can take milliseconds, which every room would wait for), and `made` is
    // called on the loop once they are on the disk, with the new room's id, or with why not.
    // For a bad name or mode, and past kMaxRoomsBeingMade waiting at once, `made` is called at
    // once with the refusal. Not after `deadline` (the front end's, docs/api.md): a room not
    // made loadable (its config written) by then never is.
    using RoomMade = std::function<void(Outcome<std::string>, const Now&)>;
    void make_room(std::string name, Visibility visibility, RoomMode mode, int bots,
        std::optional<Clock::time_point> deadline, RoomMade made, const Now& now);
    static constexpr std::size_t kMaxRoomsBeingMade = 64;
    // The disk helper finished a run() (DiskSyncer::take_finished): a room being made is hosted
    // now, or refused; a room's folded log takes the log's place.
    void run_finished(const DiskSyncer::Finished& finished, const Now& now);
    // Ends the room: RoomClosed goes to everyone in it, its files are deleted, it is gone. A game
    // still being played is kept as a record first; when the disk refuses that record, or
    // refuses RoomClosed and the files cannot be removed either, the room is not closed (and is
    // read-only): why, in words.
    std::optional<std::string> close_room(HostedRoom& room, const Now& now);
    HostedRoom* find(std::string_view room_id);
    HostedRoom* find_named(std::string_view name);
    // Whether a room of this name is on disk but could not be resumed (restore_rooms()).
    bool damaged(const std::string& name) const { return damaged_names_.contains(name); }
    // The rooms a front end may mean by `room`: its id, its name or (friends rooms) its code;
    // looked up in an index, so a request costs the same beside ten rooms or ten thousand.
    std::vector<HostedRoom*> matching(std::string_view room);
    std::vector<HostedRoom*> rooms();
    std::size_t room_count() const { return rooms_.size(); }
    Outcome<SeatTicket> local_join(HostedRoom& room, bool spectate, const Now& now);
    std::optional<Refusal> local_act(
        HostedRoom& room, const Action& action, const Now& now, std::string_view command_id = {});
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
        std::string key; // the CURVE key of the connection's last message (its User-Id)
        std::string address; // where it comes from (its last message's Peer-Address)
    };

    void handle(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    void handle_join(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    void handle_command(const std::string& conn, const wire::pb::PeerMessage& msg, const Now& now);
    // From now on `conn` carries the member's updates and heartbeats (no other connection does).
    void speak_for(const std::string& conn, const std::string& room_id, MemberId member);
    HostedRoom* lookup(std::string_view room, std::string_view token);
    // Why a join names no room here: with no name, the public rooms to choose from.
    std::string no_room(const std::string& room) const;
    // Why `key` may not act for `member` (a seat token is good only from the key that joined
    // with it: seat_keys.h); nullopt when it may. host_seat_keys.cpp.
    std::optional<std::string> seat_key_refusal(
        const HostedRoom& room, MemberId member, const std::string& key) const;
    // Binds the member to the key it joined with, on disk before the joiner hears of its token.
    void bind_seat_key(HostedRoom& room, MemberId member, const std::string& key);
    // Writes the room's new events (and changed seat tokens) to disk: only then may anyone
    // hear of them (write-ahead), so a restarted host has every event a peer has seen. False
    // when the disk refused them: the room is then back to what its files hold, and read-only.
    bool persist(HostedRoom& room, const Now& now);
    // A write failed: the room's unwritten changes are undone (it is reloaded from its files,
    // which a failed write leaves as they were) and it takes no change until the disk does.
    void lose_disk(HostedRoom& room, const std::string& why, const Now& now);
    // The files the store wrote into the kernel for the room, to DiskSyncer to flush.
    void hand_to_disk(const std::string& room_id);
    // A friends room's code made with another host key than this daemon's: its key part made
    // this key's, written to the room's config (restore_rooms).
    void reissue_code_for_key(RoomConfig& config);
    // A read-only room, when its retry time has come: writable again if the disk takes a write.
    void retry_disk(HostedRoom& room, const Now& now);
    // A room whose log was folded in memory since its file was last written whole: the disk
    // helper writes the folded log (unless it is writing one, or a record it would fold away
    // is not on the disk yet). host_log_fold.cpp.
    void fold_log_if_due(HostedRoom& room, const Now& now);
    // Events the room logged (its log file has them) while its folded log is being written:
    // kept to follow it, up to kFoldSinceMax.
    void keep_for_fold(HostedRoom& room, const std::vector<RoomEvent>& events);
    // The helper wrote a room's folded log (or could not): the loop puts it in the log's place,
    // with the events logged since, if the room is still the one it was taken from.
    void fold_written(
        std::uint64_t ticket, const std::optional<std::string>& failure, const Now& now);
    // At start-up: writes the record of a room's ended game if the daemon stopped before it did.
    // False if the record was needed and the disk refused it.
    bool keep_record(const RoomState& state);
    // Whether the disk helper wrote every finished game's record of the room (asking again for
    // any it failed to write).
    bool records_written(HostedRoom& room);
    // Writes a record the helper has not written yet here and now (taking its job back, or,
    // if it has begun, waiting for the helper when `wait_for_helper`, else leaving the record
    // to it): into the kernel with Flush::kLater (its flushes handed to the helper), on the
    // disk with kNow.
    engine::Result<bool> write_record_now(HostedRoom& room, HostedRoom::UnflushedRecord& record,
        Flush flush, bool wait_for_helper = true);
    // Whether the record is on the disk: every flush that puts it there done, none failed.
    bool record_flushed(const HostedRoom::UnflushedRecord& record) const {
        return disk_.flushed(
            record.first_ticket ? record.first_ticket : record.ticket, record.ticket);
    }
    // A closed room's files, once the records of its games are on the disk: removed then (or
    // kept, if the disk refused a record), else looked at again in kClosingCheck.
    void finish_closing(const std::string& id, const Now& now);
    // A closed room's files removed, the removal handed to the disk helper; a failure logged.
    void remove_files(const std::string& id, const std::string& name);
    // The refusal for anything that would change a read-only room.
    static std::optional<Refusal> read_only_refusal(const HostedRoom& room);
    // Persists the room's new events, then sends them to every daemon in it, tells the local
    // API, wakes its bot. False, and nothing sent, when the disk refused them (see persist).
    bool flush(HostedRoom& room, const Now& now);
    // Sends the room's written events (unsent) to every daemon in it and tells the local API.
    void announce(HostedRoom& room, const Now& now);
    // Keeps index_: a room is indexed when made or resumed, unindexed when closed.
    void index(HostedRoom& room);
    void unindex(HostedRoom& room);
    // Puts the room's next timed work (a hold running out, a disk retry, its bot's pace) in
    // wakeups_.
    void schedule(const HostedRoom& room);
    // A room whose time has come: its disk retried, its holds run out, what that changed sent.
    void wake(HostedRoom& room, const Now& now);
    AuthorityOptions authority_options() const;
    // A new room's config, once what a front end asked for is found good (name, mode).
    Outcome<RoomConfig> new_room_config(
        std::string name, Visibility visibility, const RoomMode& mode, int bots) const;
    // A room whose files are made: hosted from now on (indexed, told to the front ends).
    HostedRoom& host_made_room(RoomConfig config);
    void send(const std::string& conn, wire::pb::HostMessage& msg, const Now& now);
    // A HostMessage already serialized, its version and clock set as send() sets them.
    void send_bytes(const std::string& conn, std::string_view bytes, const Now& now);
    void send_error(const std::string& conn, std::uint64_t request_id, wire::pb::ErrorCode code,
        const std::string& message, const Now& now);
    void mark_alive(const std::string& conn, PeerConn& peer, const Now& now);

    const Config& config_;
    BotPool& bots_;
    DiskSyncer& disk_;
    RoomListener& listener_;
    zmq::socket_t socket_;
    std::string address_;
    std::string bound_endpoint_;
    bool curve_ = false;
    std::string key_digits_; // the key's fingerprint digits, that friends codes carry
    RoomStore store_;
    RecordStore records_;
    std::map<std::string, std::unique_ptr<HostedRoom>, std::less<>> rooms_; // by room id
    std::map<std::string, PeerConn> conns_; // by ZeroMQ routing id
    // New members and chat lines one machine may add, however many keys it uses.
    PeerAddressBudget address_budget_;
    // Whether the peer's machine may do one more of `kind`; if not, it is told so.
    bool within_address_budget(const std::string& conn, std::uint64_t request_id,
        PeerAddressBudget::Kind kind, const Now& now);
    RoomIndex index_; // the rooms by id, name and friends code, for matching() and joins

    WakeupQueue wakeups_; // rooms by when they next need tick(); a quiet room is not looked at
    // Lines about what peers send (a refusal, a malformed message), bounded: a script on a
    // player's machine wrote a line per request into the host's journal (log_budget.h).
    LogBudget peer_log_ { 20, std::chrono::seconds(3) };
    template <typename... Args>
    void log_peer(
        spdlog::level::level_enum level, fmt::format_string<Args...> format, Args&&... args) {
        std::string note;
        if (peer_log_.allow(Clock::now(), note))
            spdlog::log(level, "{}{}", fmt::format(format, std::forward<Args>(args)...), note);
    }
    // Names of rooms on disk that could not be resumed (damaged files): no standing room of
    // that name is made beside them, which made two rooms of one name once they were repaired.
    std::set<std::string> damaged_names_;
    // When the loop was next due here, as the last tick() left it: to tell a stall (tick()).
    std::optional<Clock::time_point> due_by_;
    // Closed rooms whose files wait for their records to reach the disk (finish_closing), by
    // room id; each also waits in wakeups_. At most one per room closed in the last moments.
    struct ClosingRoom {
        std::string name;
        std::vector<HostedRoom::UnflushedRecord> records;
    };
    std::map<std::string, ClosingRoom> closing_;
    // Rooms whose files the disk helper is making (make_room), by its ticket; at most
    // kMaxRoomsBeingMade. Their names are taken: no second room is made with one.
    struct RoomBeingMade {
        RoomConfig config;
        RoomMade made;
    };
    std::map<std::uint64_t, RoomBeingMade> being_made_;
    // Rooms whose folded log the disk helper is writing, by its ticket: at most one per room.
    std::map<std::uint64_t, std::string> folds_in_flight_;
    static constexpr std::chrono::milliseconds kClosingCheck { 25 };
};

wire::pb::ConnectionState connected_state();

// How long a command id (RoomCommand.command_id, Request.request_key) may be.
inline constexpr std::size_t kMaxCommandId = 64;
// Events a room may log while the disk helper writes its folded log (HostedRoom::Fold): a
// bound on what the loop keeps for it when the disk stalls.
inline constexpr std::size_t kFoldSinceMax = 1000;
// How often a read-only room tries its disk again.
inline constexpr std::chrono::seconds kDiskRetry { 1 };

} // namespace halma::daemon
