// halmad's settings: command-line flags (CLI11), optionally a TOML file (toml++) for what the
// flags leave unset. A bad setting is a start-up error: a message naming it, and exit code 2.
#pragma once

#include "daemon/room/room_types.h"

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace halma::daemon {

// A room the daemon hosts from the start (headless hosting, e.g. on a Raspberry Pi).
struct StandingRoom {
    std::string name; // as halma host takes it: spaces at either end dropped (room_name.h)
    // As the file has it: a room made by a halmad that kept those spaces goes on by this name.
    std::string name_as_written;
    Visibility visibility = Visibility::kPublic;
    RoomMode mode;
    int bots = 0;
    std::optional<BotLevel> bot_level; // unset: the daemon's bot-level
};

// A config file is a few kilobytes; past this it is not one (read whole before it is checked).
inline constexpr long kMaxConfigBytes = 1 << 20;
// Standing rooms in one config: a Pi carries a few hundred busy ones (docs/scaling.md); 3,000
// rooms of six computers each were "config fine" and would start 18,000 bots.
inline constexpr std::size_t kMaxStandingRooms = 1000;

struct Config {
    std::string listen = "*:7460"; // host:port that peers join at; port 0: any free one
    std::filesystem::path runtime_dir; // the local API socket and lock file
    std::filesystem::path state_dir; // seats held in other daemons' rooms, for rejoin
    std::string name; // the local player's name
    int heartbeat_ms = 1000;
    int peer_timeout_ms = 5000; // silence after which a peer or host counts as gone
    int hold_ms = 120'000; // how long a vanished player's seat is held
    // Rejoins answered per member and peer timeout (each a copy of the room sent); 0: no limit.
    int rejoin_limit = 4;
    int request_timeout_ms = 5000;
    std::size_t max_message = 64 * 1024;
    int bot_budget_ms = 150;
    // Where only computer players sit (a room to watch), at least this long between their
    // moves; 0: as fast as they think.
    int bot_pace_ms = 0;
    int bot_threads = 0; // threads thinking for computer players; 0: every core but one
    std::string bot_level = "hard";
    std::string log_level = "info";
    std::vector<StandingRoom> rooms;
    // Records of finished games kept in STATE_DIR/records; past it the oldest go. 0: none kept.
    int records_kept = 1000;
    bool mdns = true; // publish and browse rooms on the LAN (avahi)
    std::vector<std::string> interfaces; // where to publish and browse; empty: every interface
    bool check_only = false;
    // Testing only (the benchmark's baseline): links between daemons without CURVE.
    bool plain_links = false;

    std::string listen_endpoint() const; // "tcp://..." for ZeroMQ
};

// The config, or the exit code to end with (0 after --help or --version, 2 on a bad setting).
std::variant<Config, int> load_config(int argc, char** argv);

// "host:port", "[v6]:port" or "tcp://..." as a ZeroMQ endpoint; empty when it is not one.
// With `any_port` (a listen address), port 0 means any free port.
std::string tcp_endpoint(const std::string& address, bool any_port = false);

} // namespace halma::daemon
