// The peer role: one DEALER per host this daemon has joined rooms at, and the replica of each
// such room, built from the host's snapshot and kept up by its sequence-numbered events (the
// zguide's Clone pattern). A gap, a lost host or a restart leads to a rejoin with the seat token,
// which brings a fresh snapshot. Seats are remembered on disk so a restarted daemon rejoins.
#pragma once

#include "daemon/net/config.h"
#include "daemon/net/disk_syncer.h"
#include "daemon/net/durable_file.h"
#include "daemon/net/log_budget.h"
#include "daemon/net/room_listener.h"
#include "daemon/net/socket_monitor.h"
#include "daemon/room/room_state.h"
#include "daemon/trust/host_key.h"
#include "daemon/trust/known_hosts.h"

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <tuple>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

class PeerLinks {
public:
    // What a host's error or notice text (a read-only reason) is cut to, as a host cuts ours.
    static constexpr std::size_t kMaxErrorText = 500;
    // Rooms joined at once, and hosts talked to at once (each a few sockets: ZeroMQ's default
    // of 1023 sockets per context ran out past some 300, and halmad stopped at every start).
    static constexpr std::size_t kMaxReplicas = 256;
    static constexpr std::size_t kMaxHosts = 64;
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::seconds kMostRejoinBackoff { 64 };
    // How soon a send ZeroMQ refused (the link still connecting) is tried again.
    static constexpr std::chrono::milliseconds kSendRetry { 20 };
    // How often an unanswered key probe is sent again (it is lost if the host restarted
    // meanwhile), and a link that could not be opened is tried again.
    static constexpr std::chrono::milliseconds kProbeRetry { 1000 };
    // A host refused for its key is asked for it again every this many peer timeouts (30 s at
    // the default) while rooms here are held at it, so that a host whose owner put its old key
    // back is taken again; and at once when the user joins or lists there.
    static constexpr int kRefusedReprobeTimeouts = 6;
    // Called once with the host's answer, or with an ERROR_CODE_UNAVAILABLE error made up here.
    using Reply = std::function<void(const wire::pb::HostMessage&)>;
    // When the asker gives up (a front end's request deadline); unset: --request-timeout-ms.
    using Deadline = std::optional<Clock::time_point>;

    struct Pending {
        Reply done;
        Clock::time_point deadline;
        wire::pb::PeerMessage message; // kept until ZeroMQ takes it: a connecting link refuses
        bool sent = false;
        bool refused = false; // failed at once: the host's port refused the connection
        // When it was asked: a connect that failed at once was refused (nothing listens there);
        // one that failed after a second or more found no machine (no route, no ARP answer).
        Clock::time_point asked {};
    };
    struct Link {
        std::string address; // host:port as the user gave it
        zmq::socket_t socket;
        Clock::time_point last_recv {};
        Clock::time_point last_send {};
        Clock::time_point last_try {}; // a send (probe or request) ZeroMQ refused (not connected)
        bool up = false;
        std::map<std::uint64_t, Pending> pending;
        // The host's clock minus ours, at least (from HostMessage.clock_ms): deadlines are sent
        // in the host's clock, so neither clock's skew nor a stopped host can stretch them.
        std::optional<std::int64_t> host_clock_offset;
        // Reports refused connects; `refused` until a connect succeeds.
        std::unique_ptr<SocketMonitor> monitor;
        bool refused = false;
        // Encrypted links (peer_key_probe.cpp): until the host's key is known, `socket` is a
        // plain DEALER at its key-probe port, and nothing but the probe is sent.
        bool probing = false;
        Clock::time_point probe_sent {};
        // Not answered on the encrypted link by then (the host may have a new key, and a CURVE
        // handshake with the wrong one fails without a word): probed again.
        Clock::time_point reprobe_at {};
        std::string host_key; // the CURVE key the link is encrypted to, once known
        Clock::time_point key_heard_at {}; // when the probe port last told it
        std::string expected_digits; // fingerprint digits a friends code says the key has
        // The whole key the host must have: the one its rooms' host had at its old address,
        // for a link opened to follow that host to a new one (peer_host_moved.cpp); kept open
        // with no room on it until then, for its key probe to be answered.
        std::string expected_key;
        Clock::time_point kept_until {};
        std::string rejection; // why this host is refused (its key): every request fails so
        std::string rejection_said; // the last refusal logged as an error (repeats are not)
    };
    struct Replica {
        std::string address;
        std::string room_id;
        std::string name; // as last known (the seats file keeps it): listed before a snapshot
        std::string token;
        // The replica has every event up to its seq, in order: a rejoin may ask for only what
        // came after. False once an update did not apply: then it asks for the whole room.
        bool in_step = false;
        std::optional<RoomState> state; // empty until the first snapshot arrives
        MemberId me = kNoMember;
        bool spectator = false; // joined to watch: a rejoin that finds no held member watches
        wire::pb::ConnectionState connection = wire::pb::CONNECTION_STATE_CONNECTING;
        bool rejoin_in_flight = false;
        Clock::time_point next_rejoin {};
        // Answers to rejoins that could not be taken (a snapshot too large or that does not
        // replay), in a row: each doubles the wait before the next rejoin (a second or
        // heartbeat-ms, then 2, 4... up to kMostRejoinBackoff), also one a gap asks for. A hostile
        // host that answered each with 60 MB it knew would be refused, and said it was ahead at
        // every heartbeat, had its guest parse 2.4 of them a second (a red-team QA pass).
        int refused_answers = 0;
        Clock::time_point rejoin_not_before {};
        // Why the host takes no change in the room now (its disk is full; from its
        // heartbeats); empty: it does.
        std::string read_only;
        // Who hosts it as the LAN's adverts last named them (the host's player name and mDNS
        // name): kept while no advert is heard, so the room's host is shown the same way
        // whether or not its adverts are coming through. Empty until one is heard.
        std::string advertised_host_player;
        std::string advertised_machine;
        // When the turn of the person to move runs out (the room's turn limit), as the host's
        // heartbeats say, or a turn's start here; unset when no clock runs.
        std::optional<Clock::time_point> turn_due;
        std::tuple<MemberId, int, std::size_t> turn {}; // the turn turn_due is of (turn_key)
        // Until when the host holds each gone member's seat, as its Connection events and its
        // answer to a join said (members of the room only: bounded by its members).
        std::map<MemberId, Clock::time_point> held_until;
        // Not moved to another address of its host before then (peer_host_moved.cpp): an
        // address that takes the probe but never the link is left again, not every second.
        Clock::time_point next_follow {};
    };

    // A leave the user asked for while the room's host was out of reach: the room is gone from
    // here at once, and the host is told when it answers again (until then it holds the seat,
    // then a computer keeps it for this daemon's player, and nobody else could have it). Kept in
    // the seats file across restarts; given up after kOwedLeaveFor of trying, or when the host
    // says the room or the seat is gone.
    struct OwedLeave {
        std::string address;
        std::string room_id;
        std::string token;
        std::string name; // the room's, for the log
        std::string command_id; // the same at every try: the host does it once
        Clock::time_point next_try {};
        Clock::time_point give_up_at {};
        bool in_flight = false;
    };
    static constexpr std::chrono::seconds kOwedLeaveRetry { 10 };
    static constexpr std::chrono::hours kOwedLeaveFor { 24 * 7 };

    PeerLinks(zmq::context_t& context, const Config& config, RoomListener& listener);
    // Encrypts every link to a host with CURVE, as this daemon's key pair; before restore().
    // Without it links are plain (a testing option: --insecure-plain-links).
    void use_curve(const CurveKeyPair& keys) { identity_ = keys; }
    // From here on the seats file goes into the kernel on the loop and onto the disk on the
    // helper (disk_syncer.h); without it, each write waits for the disk. known_hosts is always
    // written to the disk at once: a pin is made once per host, and a power cut must never
    // leave the file empty (every pin lost, and TOFU silently pinning whatever key comes next).
    void flush_with(DiskSyncer& disk) { disk_ = &disk; }
    // Forgets the key pinned for a host (its owner made a new one), and asks a host refused
    // for its key for it again.
    struct Forgotten {
        bool pin = false; // a key was pinned for the address
        bool refused_link = false; // a link refused for its key is tried again
    };
    engine::Result<Forgotten> forget_host(const std::string& address);

    // Rejoins the rooms this daemon held seats in when it last ran.
    void restore(const Now& now);
    std::vector<Link*> links();
    void on_readable(Link& link, const Now& now);
    std::optional<Clock::time_point> next_deadline() const;
    void tick(const Now& now);

    void list_rooms(const std::string& address, Reply done, const Now& now, Deadline deadline = {});
    void join(const std::string& address, const std::string& room, bool spectate, Reply done,
        const Now& now, Deadline deadline = {});
    // A member's command in a joined room (room id and token are filled in here).
    void act(const std::string& room_id, wire::pb::RoomCommand command, Reply done, const Now& now,
        Deadline deadline = {});

    // The LAN advertises the host of `replica` at `to` now (its machine has a new address):
    // while the old one does not answer, the room is rejoined there, once the host there has
    // shown the key the room's host had (peer_host_moved.cpp). False while it stays where it is
    // (connected, no key known to check the new address against, a host with another key
    // there, or its key probe not answered yet: asked again later).
    bool follow_host(Replica& replica, const std::string& to, const Now& now);
    static constexpr std::chrono::seconds kFollowEvery { 10 };

    // A replica by room id, name or code.
    Replica* find(std::string_view room);
    // Why the link to this host was refused (its key changed: what to do), empty if it was not.
    std::string rejection(const std::string& address) const;
    std::vector<Replica*> replicas();
    std::size_t hosts_connected() const;
    // A room this daemon was in that ended without its player leaving it: its host closed it,
    // or gave its seat away while this daemon was gone. Said when the player asks for it, or
    // for their room, afterwards ("no room 'quick' on this daemon: its host closed it at
    // 17:40"): they were told only "in no room". The last kEndedKept, newest last.
    struct Ended {
        std::string room_id, name, why;
        std::int64_t wall_ms = 0;
    };
    static constexpr std::size_t kEndedKept = 8;
    const std::deque<Ended>& ended() const { return ended_; }

private:
    // An answer of ERROR_CODE_UNAVAILABLE with `message`, as a host's would be.
    static wire::pb::HostMessage unavailable(const std::string& message);
    Link* link_for(const std::string& address, std::string& error);
    // A DEALER to `endpoint`, encrypted to `server_key` (empty: plain), as links are tuned; a
    // `probe` socket reads only a probe's answer.
    zmq::socket_t open_socket(
        const std::string& endpoint, const std::string& server_key, bool probe = false);
    // The key probe (peer_key_probe.cpp): sent, answered, and the link then opened encrypted.
    void send_probe(Link& link, const Now& now);
    void on_probe_answer(Link& link, const zmq::message_t& frame, const Now& now);
    // Back to probing, on a fresh socket: a host that does not answer on the encrypted link
    // may have come back with another key (the handshake fails without a word), and is asked.
    void reprobe(Link& link);
    // Why `key` is not the host's at `address` (pinned otherwise, or not a friends code's).
    std::optional<std::string> key_rejection(const Link& link, const std::string& key) const;
    // The host at `address`, whose key is `key`, is not the one a friends code names: a typo in
    // the code's last part, or an impersonator (said the same whether the link is new or not).
    static std::string not_the_codes_host(const std::string& address, const std::string& key);
    void reject_host(Link& link, const std::string& why);
    // A link refused for its key probes the host afresh, and the rooms held at it that the
    // refusal cut off rejoin once it is taken.
    void retry_refused(Link& link);
    void pin_host_key(const std::string& address);
    void request(
        Link& link, wire::pb::PeerMessage msg, Reply done, const Now& now, Deadline deadline = {});
    // Hands a request to ZeroMQ unless its deadline has passed, stamped with the deadline in
    // the host's clock; false while the link refuses it.
    bool send_pending(Link& link, Pending& pending, const Now& now);
    // The host's name when no host has answered at it (it may not resolve), else empty; and
    // " Or is the name NAME misspelt?" for a refused link, where the name may be the trouble.
    std::string unconfirmed_name(const Link& link) const;
    std::string name_doubt(const Link& link) const;
    // Why a request expired on `link` never handed to the host, and what to do.
    static std::string never_sent(const Link& link, const Pending& p);
    // The ERROR_CODE_UNAVAILABLE answer to a request that expired on `link` unanswered.
    wire::pb::HostMessage unreached(const Link& link, const Pending& p, const Now& now) const;
    // Adds to `failed` the user's joins and listings waiting on a link whose connect was refused.
    void refuse_if_nobody_listens(Link& link, std::vector<std::uint64_t>& failed);
    void handle_update(Link& link, const wire::pb::RoomUpdate& update, const Now& now);
    void handle_heartbeat(Link& link, const wire::pb::Heartbeat& beat, const Now& now);
    // Whether a Joined answer's room has our member where it says, and is open; logs why not.
    bool answer_fits(
        const RoomState& state, const wire::pb::Joined& joined, const std::string& address);
    // Rebuilds a replica from a Joined answer; false if the snapshot was unusable.
    bool adopt(Replica& replica, const wire::pb::Joined& joined);
    void rejoin(Replica& replica, const Now& now);
    // An answer to a rejoin that could not be taken: the next waits longer (refused_answers).
    void refused_answer(Replica& replica);
    void set_connection(Replica& replica, wire::pb::ConnectionState state);
    void forget(const std::string& room_id);
    // `r` ended, as `why` says ("its host closed it"): kept for ended().
    void note_ended(const Replica& r, std::string why);
    // The user left `replica`'s room while its host was out of reach (peer_owed_leaves.cpp).
    void owe_leave(const Replica& replica, const Now& now);
    // Tells each host that answers again of the leaves owed to it.
    void deliver_owed_leaves(const Now& now);
    bool owes_leave_to(const std::string& address) const;
    void gone(Replica& replica); // the host has no such room: told as closed, then forgotten
    // The host has the room but no place in it for this daemon's player any more (their seat
    // went to another while this daemon was away, and the room is full): told as their leaving,
    // then forgotten.
    void seat_given_away(Replica& replica, const std::string& why);
    void save() const;
    // How this daemon's own files are written: into the kernel only when a helper flushes them.
    Flush flush_mode() const { return disk_ ? Flush::kLater : Flush::kNow; }
    // After a write with flush_mode(): the file and its directory to the helper, if there is one.
    void hand_to_disk(const std::filesystem::path& file) const;

    // Lines a host's messages make this daemon log: 20 at once, then one per 3 s, the rest
    // counted (a host sending 50,000 updates that do not apply wrote 5.6 MB of log in a second).
    template <typename... Args>
    void log_host(
        spdlog::level::level_enum level, fmt::format_string<Args...> format, Args&&... args) {
        std::string note;
        if (host_log_.allow(Clock::now(), note))
            spdlog::log(level, "{}{}", fmt::format(format, std::forward<Args>(args)...), note);
    }
    LogBudget host_log_ { 20, std::chrono::seconds(3) };
    // A link's coming and going ("connecting to host", its key, "is reachable"): a script
    // listing a host's rooms every ten seconds wrote three lines each time, 26,000 a day.
    template <class... Args> void log_link(fmt::format_string<Args...> format, Args&&... args) {
        std::string note;
        if (link_log_.allow(Clock::now(), note))
            spdlog::info("{}{}", fmt::format(format, std::forward<Args>(args)...), note);
    }
    LogBudget link_log_ { 12, std::chrono::seconds(60) };

    zmq::context_t& context_;
    const Config& config_;
    RoomListener& listener_;
    std::map<std::string, std::unique_ptr<Link>> links_; // by address
    std::vector<std::unique_ptr<Replica>> replicas_;
    std::deque<Ended> ended_; // at most kEndedKept
    std::vector<OwedLeave> owed_leaves_; // at most kMaxReplicas
    std::uint64_t next_request_ = 1;
    std::optional<CurveKeyPair> identity_;
    KnownHosts known_;
    DiskSyncer* disk_ = nullptr;
};

} // namespace halma::daemon
