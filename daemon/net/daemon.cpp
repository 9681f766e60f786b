#include "daemon/net/daemon.h"

#include "daemon/discovery/discovery.h"
#include "daemon/net/api_service.h"
#include "daemon/net/bot_pool.h"
#include "daemon/net/host_service.h"
#include "daemon/net/loop_poll.h"
#include "daemon/net/peer_conn_guard.h"
#include "daemon/net/peer_links.h"
#include "daemon/net/quiet_descriptors.h"
#include "daemon/net/quiet_socket.h"
#include "daemon/net/runtime_dir.h"
#include "daemon/net/standing_room_diff.h"
#include "daemon/net/watchdog.h"
#include "daemon/net/zmq_util.h"
#include "daemon/trust/host_key.h"
#include "daemon/trust/key_probe.h"
#include "daemon/trust/zap_handler.h"
#include "halma/version.h"

#include <algorithm>
#include <csignal>
#include <google/protobuf/stubs/logging.h>
#include <iostream>
#include <optional>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>
#include <zmq.hpp>

namespace halma::daemon {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBotMovesPerPass = 2; // bot-only rooms' moves (the loop's reasons are below)
constexpr int kPeopleBotMovesPerPass = 16; // moves of bots people play: at most one a room

// Hosted rooms and replicas are built before the API exists; this hands their news on: to the
// API's subscribers, and for the rooms this daemon hosts, to their adverts on the LAN.
class Forwarder : public RoomListener {
public:
    RoomListener* target = nullptr;
    HostService* host = nullptr;
    Discovery* discovery = nullptr;
    void room_changed(const RoomState& state, const RoomEvent* event, MemberId me,
        wire::pb::ConnectionState connection) override {
        if (discovery && host && (host->find(state.id()) || state.phase() == Phase::kClosed))
            discovery->room_changed(state);
        if (target) target->room_changed(state, event, me, connection);
    }
    bool hosted_here(std::string_view room_id) const override {
        return host && host->find(room_id);
    }
};

// Connections the key-probe port keeps at once: each lives for one probe and its answer.
constexpr std::size_t kProbeConnectionCap = 64;

// What LAN discovery needs of the settings: a daemon that listens on loopback only cannot be
// joined from the LAN, so it only looks (and says so).
Discovery::Options discovery_options(const Config& config, const std::string& address) {
    Discovery::Options o;
    o.enabled = config.mdns;
    o.interfaces = config.interfaces;
    o.player_name = config.name;
    auto colon = address.rfind(':');
    o.port = static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1)));
    std::string host = address.substr(0, colon);
    bool loopback = host.rfind("127.", 0) == 0 || host == "localhost" || host == "[::1]";
    o.publish = !loopback;
    if (config.mdns && loopback)
        spdlog::info("mDNS: listening on {} only: rooms are not published on the LAN", host);
    return o;
}

// Signals arrive as a readable fd in the loop, not as a handler interrupting it.
int block_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, nullptr); // before ZeroMQ starts its threads
    std::signal(SIGPIPE, SIG_IGN);
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

void create_standing_rooms(const Config& config, HostService& host) {
    auto now = Now::current();
    // A [[room]] renamed or removed in the file leaves its room standing (rooms stay until
    // closed): said, as an admin who edited the file has no other way to notice.
    if (!config.rooms.empty())
        for (auto* room : host.rooms()) {
            const std::string& name = room->authority.state().config().name;
            bool listed = std::any_of(config.rooms.begin(), config.rooms.end(),
                [&](const StandingRoom& s) { return s.name == name || s.name_as_written == name; });
            if (!listed)
                spdlog::info("room {}: hosted here, and not a [[room]] of the config file; it "
                             "stays until it is closed (halma close -r {})",
                    name, shell_word(name));
        }
    for (const auto& spec : config.rooms) {
        // A standing room the daemon hosted before it stopped goes on where it was.
        HostedRoom* resumed = host.find_named(spec.name);
        if (!resumed && spec.name_as_written != spec.name)
            resumed = host.find_named(spec.name_as_written);
        if (resumed) {
            spdlog::info("room {}: resumed, not made anew", spec.name);
            // Its setup is the one it was made with: a game in it must not change rules under
            // its players. Said, so that an edited [[room]] is not taken as in force.
            auto differences = standing_room_differences(spec, resumed->authority.state(),
                parse_bot_level(config.bot_level).value_or(BotLevel::kHard));
            std::string said;
            for (const auto& d : differences) said += (said.empty() ? "" : "; ") + d;
            if (!said.empty())
                spdlog::warn("room {}: the config file describes it differently now ({}); it "
                             "keeps the setup it was made with until it is closed (halma close "
                             "-r {}), then the next start makes it as the file says",
                    spec.name, said, shell_word(spec.name));
            // Its code as it stands: a public room the file now calls a friends room has none
            // (the log said "friends code " and nothing).
            if (const RoomConfig& made = resumed->authority.state().config();
                made.visibility == Visibility::kFriends)
                spdlog::info("room {}: friends code {}", spec.name, made.code);
            continue;
        }
        if (host.damaged(spec.name)) {
            spdlog::error("room {}: its files are damaged (above): not made anew, as a second "
                          "room of that name would stand beside it once they are repaired; "
                          "move its directory away to have it made anew",
                spec.name);
            continue;
        }
        auto id = host.create_room(spec.name, spec.visibility, spec.mode, spec.bots, now);
        if (!id) {
            spdlog::error("room {}: {}", spec.name, id.error().message);
            continue;
        }
        if (spec.bots > 0)
            if (auto added = host.add_bots(*host.find(*id), spec.bots, spec.bot_level, now); !added)
                spdlog::error("room {}: {}", spec.name, added.error().message);
        if (spec.visibility == Visibility::kFriends)
            spdlog::info("room {}: friends code {}", spec.name,
                host.find(*id)->authority.state().config().code);
    }
}

// Binds the peer port and, with CURVE, the key-probe port just above it. With --listen port 0
// the system picks a port whose neighbour may be taken: then another pair is tried.
void bind_peer_ports(const Config& config, HostService& host, KeyProbeListener* probe) {
    bool any_port = config.listen.ends_with(":0");
    for (int attempt = 0;; ++attempt) {
        host.bind();
        if (!probe) return;
        const std::string& address = host.address();
        int port = std::stoi(address.substr(address.rfind(':') + 1));
        if (port == 65535 && !any_port)
            throw std::runtime_error("cannot listen on port 65535: the port above the listen port "
                                     "answers key probes; choose a lower one");
        std::string listen = config.listen_endpoint();
        auto probe_port = key_probe_port(static_cast<std::uint16_t>(port)); // port < 65535 here
        try {
            probe->bind(listen.substr(0, listen.rfind(':') + 1) + std::to_string(probe_port));
            return;
        } catch (const zmq::error_t& e) {
            if (!any_port || attempt >= 20)
                throw std::runtime_error("cannot listen for key probes on port "
                    + std::to_string(probe_port) + " (the listen port + 1): " + e.what());
            host.unbind();
        }
    }
}

} // namespace

int run_daemon(const Config& config) {
    auto logger = spdlog::stderr_color_mt("halmad");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(config.log_level));
    // journald stamps time itself; a terminal reader still wants it.
    spdlog::set_pattern(std::getenv("JOURNAL_STREAM") ? "%l: %v" : "%H:%M:%S.%e %l: %v");
    // libprotobuf says what it finds wrong in what it parses (text that is not UTF-8, from a
    // front end or a peer) on stderr by itself, unstamped: the refusal we send and log says it.
    google::protobuf::SetLogHandler(
        [](google::protobuf::LogLevel, const char* file, int line, const std::string& message) {
            spdlog::debug("libprotobuf ({}:{}): {}", file, line, message);
        });

    int signal_fd = block_signals();
    // Before anything opens a descriptor: the peer cap below is a share of what we may open.
    std::size_t descriptors = raise_descriptor_limit();
    auto dir = RuntimeDir::claim(config.runtime_dir);
    if (!dir) {
        std::cerr << "halmad: " << dir.error().message << "\n";
        return 1;
    }
    // One daemon per state directory: two would both host its rooms and write their files.
    std::optional<DirLock> state_lock;
    if (auto made = make_private_dir(config.state_dir); !made) {
        // Without one, the daemon ran as if healthy with no standing room and a new key each
        // start, which every player's daemon then refused as an impostor's. One that holds a
        // key but cannot be written (an SD card remounted read-only) is used as it is: its
        // rooms resume read-only, and the key stays the one the players know.
        std::error_code ec;
        if (config.plain_links || !std::filesystem::exists(config.state_dir / "curve", ec)) {
            std::cerr << "halmad: cannot use the state directory: " << made.error().message
                      << "; rooms, seats and this daemon's key live there (--state-dir, or "
                         "state-dir in the config)\n";
            return 1;
        }
        spdlog::error("{}: rooms here take no change until the state directory can be written",
            made.error().message);
    } else if (auto lock = DirLock::take(config.state_dir / "state.lock"); !lock) {
        std::cerr << "halmad: " << lock.error().message
                  << "; stop it or choose another --state-dir\n";
        return 1;
    } else {
        state_lock.emplace(std::move(*lock));
    }
    std::optional<CurveKeyPair> keys;
    bool new_key = false;
    if (!config.plain_links) {
        std::error_code ec;
        new_key = !std::filesystem::exists(config.state_dir / "curve", ec);
        auto loaded = load_or_create_host_key(config.state_dir);
        if (!loaded) {
            std::cerr << "halmad: " << loaded.error().message << "\n";
            return 1;
        }
        keys = std::move(*loaded);
    } else {
        spdlog::warn("--insecure-plain-links: links to other daemons are NOT encrypted (testing "
                     "only: anyone on the network can read and use seat tokens)");
    }
    zmq::context_t context(1);
    if (!batch_io_thread(context))
        spdlog::debug("ZeroMQ's I/O thread keeps the default scheduling (SCHED_BATCH refused)");
    // Before the peer port is bound: no CURVE handshake may find no one to ask.
    std::optional<ZapHandler> zap;
    std::optional<KeyProbeListener> probe;
    if (keys) {
        zap.emplace(context);
        probe.emplace(context, keys->public_key, std::max(config.peer_timeout_ms, 1000));
    }
    BotPool bots(context, config);
    Forwarder forwarder;
    DiskSyncer disk(context); // before the host, so it outlives it and flushes what is queued
    HostService host(context, config, bots, disk, forwarder);
    host.keep_logs_open(open_logs_cap(descriptors));
    PeerLinks peers(context, config, forwarder);
    peers.flush_with(disk);
    if (keys) {
        host.use_curve(*keys);
        peers.use_curve(*keys);
    }
    try {
        bind_peer_ports(config, host, probe ? &*probe : nullptr);
    } catch (const zmq::error_t& e) {
        std::cerr << "halmad: cannot listen on " << config.listen << ": " << e.what() << "\n";
        return 1;
    } catch (const std::runtime_error& e) {
        std::cerr << "halmad: " << e.what() << "\n";
        return 1;
    }
    auto port = static_cast<std::uint16_t>(
        std::stoi(host.address().substr(host.address().rfind(':') + 1)));
    std::size_t peer_cap = peer_connection_cap(descriptors);
    PeerConnGuard guard(
        context, host.socket(), peer_cap, "host", peer_connections_per_machine(peer_cap));
    guard.set_port(port);
    // The key-probe port takes connections too: capped apart, small (one probe each).
    std::optional<PeerConnGuard> probe_guard;
    if (probe) {
        probe_guard.emplace(context, probe->socket(), kProbeConnectionCap, "probe");
        probe_guard->set_port(key_probe_port(port));
    }
    spdlog::debug("open files: {}; at most {} peer connections, {} from one machine", descriptors,
        guard.cap(), guard.per_machine());
    Discovery discovery(context, discovery_options(config, host.address()));
    ApiService api(context, config, host, peers, discovery, bots.available());
    if (keys) api.set_host_key(keys->public_key);
    forwarder.target = &api;
    forwarder.host = &host;
    forwarder.discovery = &discovery;
    try {
        api.bind(*dir);
    } catch (const std::exception& e) {
        std::cerr << "halmad: cannot open the local API at " << dir->api_socket().string() << ": "
                  << e.what() << "\n";
        return 1;
    }
    host.restore_rooms(Now::current());
    // Rooms from an earlier run and no key: the state directory came back without `curve` (a
    // backup that left it out). Every daemon that joined here pinned the old key and refuses
    // this one as an impostor's until its player forgets it; said where the owner looks.
    if (new_key && !host.rooms().empty())
        spdlog::warn("this daemon has a new host key ({} was missing) but hosted rooms before: "
                     "players who joined here must run `halma forget-host {}` once; if you have "
                     "the old key, stop halmad and put it back instead",
            (config.state_dir / "curve").string(), host.address());
    create_standing_rooms(config, host);
    for (auto* room : host.rooms()) discovery.room_changed(room->authority.state());
    discovery.flush();
    peers.restore(Now::current());
    // Where its rooms and key are: one started by hand with the service's config, as root,
    // took ~/.local/state/halma and made a second identity without a word.
    spdlog::info("halmad {} listening on {}, local API {}, state in {}", kVersion, host.address(),
        dir->api_socket().string(), config.state_dir.string());
    if (keys)
        spdlog::info("host key {} (links to other daemons are encrypted; key probes on port {})",
            key_fingerprint(keys->public_key), key_probe_port(port));
    sd_notify(0, "READY=1");
    Watchdog watchdog;

    // Sockets the loop reads, and answers (ZAP, key probes) only from within their handler, are
    // polled by descriptor (quiet_socket.h); the ones it also sends on at other times (the
    // host's, the API's, the links) stay ZeroMQ items, as a send can take in the signal of a
    // message arriving on the same socket.
    QuietSocket quiet_guard(guard.socket()), quiet_disk(disk.socket());
    std::optional<QuietSocket> quiet_people_bots, quiet_bots, quiet_discovery, quiet_zap,
        quiet_probe, quiet_probe_guard;
    if (bots.socket()) {
        quiet_people_bots.emplace(*bots.people_socket());
        quiet_bots.emplace(*bots.socket());
    }
    if (discovery.socket()) quiet_discovery.emplace(*discovery.socket());
    if (zap) quiet_zap.emplace(zap->socket());
    if (probe) {
        quiet_probe.emplace(probe->socket());
        quiet_probe_guard.emplace(probe_guard->socket());
    }
    // Every quiet descriptor in one epoll set, polled as one item (quiet_descriptors.h).
    QuietDescriptors quiet;
    quiet.add(signal_fd);
    for (QuietSocket* q : { &quiet_guard, &quiet_disk }) quiet.add(q->fd());
    for (auto* q : { &quiet_people_bots, &quiet_bots, &quiet_discovery, &quiet_zap, &quiet_probe,
             &quiet_probe_guard })
        if (*q) quiet.add((*q)->fd());
    bool stopping = false;
    std::vector<zmq::pollitem_t> items; // refilled each pass, its memory kept
    while (!stopping) {
        items.clear();
        items.push_back({ host.socket().handle(), 0, ZMQ_POLLIN, 0 });
        items.push_back({ api.socket().handle(), 0, ZMQ_POLLIN, 0 });
        std::size_t quiet_item = items.size();
        items.push_back(quiet.item());
        bool quiet_pending = quiet_guard.pending() || quiet_disk.pending()
            || (quiet_bots && (quiet_bots->pending() || quiet_people_bots->pending()))
            || (quiet_discovery && quiet_discovery->pending()) || (zap && quiet_zap->pending())
            || (probe && (quiet_probe->pending() || quiet_probe_guard->pending()));
        auto links = peers.links();
        std::size_t first_link = items.size();
        for (auto* link : links) items.push_back({ link->socket.handle(), 0, ZMQ_POLLIN, 0 });

        std::optional<Clock::time_point> deadline;
        for (auto d : { host.next_deadline(), peers.next_deadline(), watchdog.next_deadline(),
                 api.lan_push_due(), api.outbox_due() })
            if (d && (!deadline || *d < *deadline)) deadline = d;
        auto timeout = std::chrono::milliseconds(-1);
        if (bots.hand_over())
            deadline = std::min(deadline.value_or(Clock::time_point::max()),
                Clock::now() + BotPool::kHandOverRetry);
        if (quiet_pending) {
            timeout = std::chrono::milliseconds(0);
        } else if (deadline) {
            // Round up: waking a hair early would only find nothing due and poll again.
            auto wait = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
            timeout
                = std::clamp(wait, std::chrono::milliseconds(0), std::chrono::milliseconds(60'000));
        }
        disk.start(); // the pass's flushes, now that its messages are on their way
        try {
            poll_loop_items(items, timeout);
        } catch (const zmq::error_t& e) {
            if (e.num() == EINTR) continue;
            throw;
        }
        quiet.collect(items[quiet_item].revents);
        auto quiet_revents
            = [&](const std::optional<QuietSocket>& q) { return quiet.revents(q->fd()); };
        auto now = Now::current();
        // First: a flood's connections are shed before anything else is read.
        quiet_guard.serve(quiet.revents(quiet_guard.fd()), [&] { guard.on_readable(); });
        if (probe)
            quiet_probe_guard->serve(
                quiet_revents(quiet_probe_guard), [&] { probe_guard->on_readable(); });
        // Handshakes waiting for a verdict hold their peers' first messages back: answered first.
        if (zap) quiet_zap->serve(quiet_revents(quiet_zap), [&] { zap->on_readable(); });
        if (probe) quiet_probe->serve(quiet_revents(quiet_probe), [&] { probe->on_readable(); });
        if (items[0].revents & ZMQ_POLLIN) host.on_readable(now);
        if (items[1].revents & ZMQ_POLLIN) api.on_readable(now);
        if (quiet.revents(signal_fd)) {
            signalfd_siginfo info {};
            while (read(signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
                // Many send HUP to have a daemon read its config again: stopping (with 0,
                // which systemd's Restart=on-failure leaves be) took the office's rooms away.
                if (info.ssi_signo == SIGHUP) {
                    spdlog::warn("SIGHUP: halmad reads its config only when it starts; "
                                 "'systemctl restart halmad' (or a restart) applies a changed one");
                    continue;
                }
                spdlog::info("signal {}: stopping", info.ssi_signo), stopping = true;
            }
        }
        // The moves of bots people play come first, each pass, in batches (there is at most
        // one a room). Then two bot-only rooms' moves per pass: with hundreds of them playing,
        // the rest wait for the next pass, after the people's sockets were read (the socket stays
        // pending, so the next poll does not wait), so a burst of bots holds up a person's move,
        // or the reply of the bot they play, by two bot moves at most. With eight, a person
        // playing an easy bot beside 200 rooms of easy bots waited 1.0-1.2 ms at p50 against
        // 0.4-0.5 ms with two (bench_scale --sections bots --levels easy): the wait was the
        // passes ahead of them.
        if (quiet_bots) {
            quiet_people_bots->serve(quiet_revents(quiet_people_bots), [&] {
                for (int i = 0; i < kPeopleBotMovesPerPass; ++i) {
                    auto result = bots.take_person_result();
                    if (!result) break;
                    host.bot_moved(result->first, result->second, now);
                }
            });
            quiet_bots->serve(quiet_revents(quiet_bots), [&] {
                for (int i = 0; i < kBotMovesPerPass; ++i) {
                    auto result = bots.take_result();
                    if (!result) break;
                    host.bot_moved(result->first, result->second, now);
                }
            });
        }
        quiet_disk.serve(quiet.revents(quiet_disk.fd()), [&] {
            while (auto failure = disk.take_failure())
                if (!host.disk_failed(failure->first, failure->second))
                    spdlog::error("cannot flush {} to the disk: {}",
                        failure->first.empty() ? "an old record's removal" : failure->first,
                        failure->second);
            while (auto finished = disk.take_finished()) host.run_finished(*finished, now);
        });
        bool lan_news = false;
        if (quiet_discovery)
            quiet_discovery->serve(quiet_revents(quiet_discovery), [&] {
                if (discovery.on_readable()) api.lan_rooms_changed(), lan_news = true;
            });
        for (std::size_t i = 0; i < links.size(); ++i)
            if (items[first_link + i].revents & ZMQ_POLLIN) peers.on_readable(*links[i], now);
        now = Now::current();
        host.tick(now);
        peers.tick(now);
        api.follow_moved_hosts(now, lan_news);
        watchdog.tick(now.steady);
        discovery.flush();
        api.push_lan_list(now.steady);
        api.retry_outbox(now.steady);
    }
    sd_notify(0, "STOPPING=1");
    close(signal_fd);
    return 0;
}

} // namespace halma::daemon
