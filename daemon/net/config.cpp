#include "daemon/net/config.h"

#include "daemon/net/config_file.h"
#include "daemon/room/room_name.h"
#include "halma/version.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <net/if.h>
#include <optional>
#include <pwd.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace halma::daemon {

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::filesystem::path default_runtime_dir() {
    if (auto d = env("RUNTIME_DIRECTORY"); !d.empty()) return d; // systemd RuntimeDirectory=
    if (auto d = env("XDG_RUNTIME_DIR"); !d.empty()) return std::filesystem::path(d) / "halma";
    return "/tmp/halma-" + std::to_string(getuid());
}

// The login name: $USER is unset under systemd, cron and `env -i`, and may not be who runs us.
std::string login_name() {
    if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_name && *pw->pw_name)
        return pw->pw_name;
    return env("USER").empty() ? "player" : env("USER");
}

std::filesystem::path default_state_dir() {
    if (auto d = env("STATE_DIRECTORY"); !d.empty()) return d; // systemd StateDirectory=
    if (auto d = env("XDG_STATE_HOME"); !d.empty()) return std::filesystem::path(d) / "halma";
    if (auto d = env("HOME"); !d.empty()) return std::filesystem::path(d) / ".local/state/halma";
    return default_runtime_dir() / "state";
}

// What ZeroMQ can bind: *, an address, or an interface's name. A host name ("localhost", the
// machine's own) passed the check and then failed at start with "No such device".
bool listenable_host(std::string host) {
    if (host.starts_with("tcp://")) host = host.substr(6);
    if (host == "*") return true;
    bool v6 = host.size() > 2 && host.front() == '[' && host.back() == ']';
    if (v6) host = host.substr(1, host.size() - 2);
    std::string bare = host.substr(0, host.find('%'));
    unsigned char address[sizeof(in6_addr)];
    if (inet_pton(v6 ? AF_INET6 : AF_INET, bare.c_str(), address) == 1) return true;
    return !v6 && !host.empty() && if_nametoindex(host.c_str()) != 0;
}

// Why the state directory cannot be used, if it cannot: it must be a directory this process
// may write, or one it may make (a parent it may write).
std::optional<std::string> state_dir_problem(const std::filesystem::path& dir) {
    std::error_code ec;
    auto here = std::filesystem::absolute(dir, ec);
    if (ec) return ec.message();
    while (!here.empty() && !std::filesystem::exists(here, ec)) {
        if (here == here.parent_path()) break;
        here = here.parent_path();
    }
    if (!std::filesystem::is_directory(here, ec))
        return here == std::filesystem::absolute(dir, ec) ? "not a directory"
                                                          : here.string() + " is not a directory";
    if (::access(here.c_str(), W_OK | X_OK) != 0)
        return (here == std::filesystem::absolute(dir, ec) ? std::string("cannot be written")
                                                           : "cannot be made in " + here.string())
            + ": " + std::strerror(errno);
    return std::nullopt;
}

// Which of a [[room]]'s settings makes its mode one no game has (RoomMode::invalid()), so the
// error names that setting's line: it named the [[room]] line above it.
std::string setting_at_fault(const RoomMode& mode) {
    if (auto setup = mode.setup(); setup.validate()) {
        int p = mode.players;
        if (p != 2 && p != 3 && p != 4 && p != 6) return "players";
        // A setup of these players and sets, but for the rules (unused=filled with every
        // triangle in play): the rules are at fault; else the sets.
        setup.rules.unused = engine::Unused::kEmpty;
        return setup.validate() ? "sets" : "rules";
    }
    if (mode.move_limit < 1 || mode.move_limit > kMaxMoveLimit) return "move-limit";
    if (mode.next_game_ms < 1 || mode.next_game_ms > kMaxNextGameMs) return "next-game-ms";
    if (mode.turn_limit_s < 0 || mode.turn_limit_s > kMaxTurnLimitS) return "turn-limit-s";
    return ""; // the room's first line
}

std::optional<BadConfig> validate(Config& c) {
    if (c.listen_endpoint().empty()) {
        // A port past 65535 is named as such: "is not host:port" sent people looking at the host.
        auto port = c.listen.substr(c.listen.rfind(':') + 1);
        if (c.listen.find(':') != std::string::npos && !port.empty() && port.size() <= 9
            && port.find_first_not_of("0123456789") == std::string::npos)
            return BadConfig { "listen: '" + c.listen + "': the port is 0 to 65535, not " + port
                    + " (0: any free port)",
                "listen" };
        return BadConfig { "listen: '" + c.listen + "' is not host:port (port 0: any free port)",
            "listen" };
    }
    if (auto host = c.listen.substr(0, c.listen.rfind(':')); !listenable_host(host))
        return BadConfig { "listen: '" + c.listen
                + "': give an address (192.168.1.20:7460), * or a network interface (eth0:7460), "
                  "not a host name: halmad does not look names up to listen",
            "listen" };
    if (c.heartbeat_ms < 10 || c.heartbeat_ms > 60'000)
        return BadConfig { "heartbeat-ms must be 10..60000", "heartbeat-ms" };
    if (c.peer_timeout_ms <= c.heartbeat_ms)
        return BadConfig { "peer-timeout-ms must be longer than heartbeat-ms ("
                + std::to_string(c.heartbeat_ms) + ")",
            "peer-timeout-ms" };
    if (c.hold_ms < 0) return BadConfig { "hold-ms cannot be negative", "hold-ms" };
    if (c.rejoin_limit < 0 || c.rejoin_limit > 1000)
        return BadConfig { "rejoin-limit must be 0..1000 (0: none)", "rejoin-limit" };
    if (c.state_dir.empty())
        return BadConfig { "state-dir cannot be empty: rooms, seats and this daemon's key live "
                           "there",
            "state-dir" };
    if (c.runtime_dir.empty())
        return BadConfig { "runtime-dir cannot be empty: the local API's socket lives there",
            "runtime-dir" };
    if (c.request_timeout_ms < 100)
        return BadConfig { "request-timeout-ms must be at least 100", "request-timeout-ms" };
    if (c.max_message < 1024 || c.max_message > (64u << 20))
        return BadConfig { "max-message must be 1024..67108864 bytes", "max-message" };
    if (c.bot_threads < 0 || c.bot_threads > 256)
        return BadConfig { "bot-threads must be 0..256", "bot-threads" };
    // A hard bot's thinking per move: none is no bot, an hour a move a room that never moves.
    if (c.bot_budget_ms < 1 || c.bot_budget_ms > 60'000)
        return BadConfig { "bot-budget-ms must be 1..60000", "bot-budget-ms" };
    if (c.bot_pace_ms < 0 || c.bot_pace_ms > 60'000)
        return BadConfig { "bot-pace-ms must be 0..60000", "bot-pace-ms" };
    if (c.records_kept < 0 || c.records_kept > 1'000'000)
        return BadConfig { "records-kept must be 0..1000000", "records-kept" };
    if (!parse_bot_level(c.bot_level))
        return BadConfig { "bot-level must be easy, hard or max", "bot-level" };
    static const std::vector<std::string> levels { "trace", "debug", "info", "warn", "error",
        "off" };
    if (std::find(levels.begin(), levels.end(), c.log_level) == levels.end())
        return BadConfig { "log-level must be one of trace, debug, info, warn, error, off",
            "log-level" };
    if (c.name.size() > 32) return BadConfig { "name: at most 32 bytes", "name" };
    if (c.name.find_first_not_of(" \t") == std::string::npos)
        return BadConfig { "name: the player's name cannot be blank", "name" };
    // An escape sequence in the name would reach every screen it is shown on.
    if (std::any_of(c.name.begin(), c.name.end(),
            [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }))
        return BadConfig { "name: the player's name cannot hold control characters", "name" };
    // The port above the listen port answers key probes (trust/key_probe.h).
    if (!c.plain_links && c.listen.ends_with(":65535"))
        return BadConfig { "listen: port 65535 leaves no port above it for key probes; choose "
                           "a lower one",
            "listen" };
    for (const auto& i : c.interfaces)
        if (i.empty() || i.size() >= 16 || i.find_first_of("/ \t") != std::string::npos)
            return BadConfig { "interfaces: '" + i + "' is not an interface name", "interfaces" };
    std::set<std::string> names;
    for (int i = 0; i < static_cast<int>(c.rooms.size()); ++i) {
        auto& r = c.rooms[static_cast<std::size_t>(i)];
        if (r.name.empty()) return BadConfig { "[[room]]: every room needs a name", "name", i };
        // As halma host would take it: the name the room is made, and found again, by.
        auto name = room_name(r.name);
        if (!name) return BadConfig { "room '" + r.name + "': " + name.error().message, "name", i };
        r.name_as_written = std::exchange(r.name, *name);
        // A room is found again by its name after a restart: a second of the same name would
        // be taken for the first, and never made.
        if (!names.insert(r.name).second)
            return BadConfig { "room " + r.name + ": two [[room]] tables have this name", "name",
                i };
        if (auto why = r.mode.invalid())
            return BadConfig { "room " + r.name + ": " + *why, setting_at_fault(r.mode), i };
        // Every seat a bot's is a room to watch: it plays game after game (next-game-ms).
        if (r.bots < 0 || r.bots > r.mode.players)
            return BadConfig {
                "room " + r.name + ": bots must be 0.." + std::to_string(r.mode.players), "bots", i
            };
    }
    return std::nullopt;
}

} // namespace

std::string tcp_endpoint(const std::string& address, bool any_port) {
    if (address.rfind("tcp://", 0) == 0) return tcp_endpoint(address.substr(6), any_port);
    auto colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0) return "";
    std::string host = address.substr(0, colon), port = address.substr(colon + 1);
    if (port.empty() || port.size() > 5
        || port.find_first_not_of("0123456789") != std::string::npos)
        return "";
    int p = std::stoi(port);
    if (p < (any_port ? 0 : 1) || p > 65535) return "";
    if (host.find(':') != std::string::npos && host.front() != '[') return ""; // v6 needs brackets
    // A name (an mDNS one may be UTF-8), an address, [v6] with its %scope, or * (listen on
    // all): "not an address" was tried as a host and failed with "Invalid argument".
    bool odd = std::any_of(host.begin(), host.end(), [](char ch) {
        auto c = static_cast<unsigned char>(ch);
        return c == 0 || (c < 0x80 && !std::isalnum(c) && !std::strchr("-._[]:%*", c));
    });
    if (host.empty() || odd) return "";
    return "tcp://" + host + ":" + (p == 0 ? "*" : port); // ZeroMQ's spelling of "any port"
}

std::string Config::listen_endpoint() const {
    return tcp_endpoint(listen, true);
}

std::variant<Config, int> load_config(int argc, char** argv) {
    Config c;
    c.runtime_dir = default_runtime_dir();
    c.state_dir = default_state_dir();
    c.name = login_name();
    std::string config_file, runtime = c.runtime_dir.string(), state = c.state_dir.string();

    CLI::App app { "halmad: the halma daemon. Hosts and joins Chinese checkers rooms on the LAN;\n"
                   "front ends (the halma CLI, docs/api.md) attach to its local socket." };
    app.set_version_flag("--version", std::string("halmad ") + kVersion);
    app.add_option("-c,--config", config_file, "TOML file with these settings (flags win over it)")
        ->check(CLI::ExistingFile);
    app.add_flag("--check-config", c.check_only, "Check the settings and exit (0: fine, 2: not)");
    auto* net = "Network";
    app.add_option("--listen", c.listen,
           "host:port that other daemons join rooms at (port + 1 answers their key probes)")
        ->capture_default_str()
        ->group(net);
    app.add_option("--heartbeat-ms", c.heartbeat_ms, "Send a heartbeat after this much silence")
        ->capture_default_str()
        ->group(net);
    app.add_option(
           "--peer-timeout-ms", c.peer_timeout_ms, "Silence after which a daemon counts as gone")
        ->capture_default_str()
        ->group(net);
    app.add_option("--request-timeout-ms", c.request_timeout_ms,
           "How long a front end's request waits for a host")
        ->capture_default_str()
        ->group(net);
    app.add_option(
           "--max-message", c.max_message, "Largest message read from a peer or front end, bytes")
        ->capture_default_str()
        ->group(net);
    bool no_mdns = false;
    app.add_flag("--no-mdns", no_mdns,
           "Neither publish nor look for rooms on the LAN (join by address only)")
        ->group(net);
    app.add_option("--interfaces", c.interfaces,
           "Network interfaces to publish and find rooms on, e.g. eth0,wlan0 (default: all; "
           "leave out docker0 or a VPN)")
        ->delimiter(',')
        ->group(net);
    // Hidden (no group): for benchmarks measuring what encryption costs, never for play. Both
    // ends must have it; it leaves seat tokens and chat readable by anyone on the network.
    app.add_flag("--insecure-plain-links", c.plain_links,
           "Testing only: links between daemons in clear, no keys (both ends need it)")
        ->group("");
    auto* rooms = "Rooms";
    app.add_option("--name", c.name, "The local player's name")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--hold-ms", c.hold_ms, "How long a vanished player's seat is held")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--rejoin-limit", c.rejoin_limit,
           "Rejoins answered per member and peer timeout, each a copy of the room; past it, "
           "'rejoining too fast' (0: no limit)")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--bot-level", c.bot_level,
           "Level of the computer players: easy, hard or max (max: about 3 s a move)")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--bot-budget-ms", c.bot_budget_ms,
           "Thinking time per hard bot move, 1..60000 (max: at least 3000)")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--bot-pace-ms", c.bot_pace_ms,
           "In rooms where only computer players sit, at least this long between their moves, "
           "so spectators can follow (0: as fast as they think)")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--bot-threads", c.bot_threads,
           "Threads thinking for computer players in bot-only rooms, and one more for rooms "
           "with people (default 0: every core but one)")
        ->capture_default_str()
        ->group(rooms);
    app.add_option("--records-kept", c.records_kept,
           "Records of finished games kept (halma records); past it the oldest go. 0: none")
        ->capture_default_str()
        ->group(rooms);
    auto* files = "Files and logs";
    app.add_option("--runtime-dir", runtime, "Directory of the local API socket")
        ->envname("HALMA_RUNTIME_DIR")
        ->capture_default_str()
        ->group(files);
    app.add_option("--state-dir", state, "Directory remembering seats held in others' rooms")
        ->capture_default_str()
        ->group(files);
    app.add_option(
           "--log-level", c.log_level, "trace, debug, info, warn, error or off (logs go to stderr)")
        ->capture_default_str()
        ->group(files);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line, named as every other halmad message is (a journal reader greps for it).
        std::cerr << "halmad: " << e.what() << " (halmad --help lists the options)\n";
        return 2;
    }
    c.runtime_dir = runtime;
    c.state_dir = state;
    c.mdns = !no_mdns;
    std::optional<FileLines> lines;
    if (!config_file.empty()) {
        // One it may not read was "not valid TOML ... line 0": the service reads it as user
        // halma, and a file made private to root (chmod 600) read so in systemctl status.
        if (std::FILE* f = std::fopen(config_file.c_str(), "r"))
            std::fclose(f);
        else {
            int error = errno;
            const passwd* user = getpwuid(geteuid());
            std::cerr << "halmad: cannot read the config file " << config_file << ": "
                      << std::strerror(error)
                      << (error == EACCES && user ? std::string(" (halmad runs as user ")
                                     + user->pw_name + " here: the file must be readable by it)"
                                                  : std::string())
                      << "\n";
            return 2;
        }
        // A config is a small text file: /dev/zero read as an empty one ("config fine").
        struct stat st { };
        if (::stat(config_file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            std::cerr << "halmad: the config file " << config_file
                      << " is not a file (a directory, a device or a pipe)\n";
            return 2;
        }
        if (st.st_size > kMaxConfigBytes) {
            std::cerr << "halmad: the config file " << config_file << " is over "
                      << (kMaxConfigBytes >> 20) << " MiB: not a halmad config\n";
            return 2;
        }
        lines.emplace();
        if (auto error = apply_file(config_file, c, app, *lines)) {
            std::cerr << "halmad: bad config: " << error->message << "\n";
            return 2;
        }
    }
    if (auto error = validate(c)) {
        // A setting from the file is named with its line; one given as an option, as the option
        // ("bad config: listen: ..." sent people looking in a file they had not given).
        std::string at = where(*error, lines);
        std::cerr << (at.empty() ? "halmad: --" : "halmad: bad config: " + at) << error->message
                  << "\n";
        return 2;
    }
    // The check before a service starts also asks whether the state directory can be used: a
    // read-only disk (an SD card remounted so) or a path the service may not write passed it,
    // and halmad then ran without its rooms.
    if (c.check_only) {
        if (auto unusable = state_dir_problem(c.state_dir)) {
            std::cerr << "halmad: bad config: " << where(BadConfig { "", "state-dir" }, lines)
                      << "state-dir " << c.state_dir.string() << ": " << *unusable << "\n";
            return 2;
        }
        // Said, so that a check that passed is told from one that printed nothing at all.
        std::cout << "halmad: config fine: listen " << c.listen << ", state in "
                  << c.state_dir.string() << ", " << c.rooms.size() << " standing room(s)\n";
        // Not an error (a Wi-Fi interface may come up after halmad starts), but what halmad
        // would warn of once running, said here too: the check said "fine" of a typo in a name.
        for (const auto& name : c.interfaces)
            if (if_nametoindex(name.c_str()) == 0)
                std::cout << "halmad: note: " << where(BadConfig { "", "interfaces" }, lines)
                          << "no interface here is called " << name
                          << " now: rooms are neither published nor found on it until there is\n";
    }
    return c;
}

} // namespace halma::daemon
