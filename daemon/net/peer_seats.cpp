// PeerLinks' memory across restarts: the seats file (STATE_DIR/seats), which seats this daemon
// holds in which hosts' rooms, so that a restarted daemon rejoins them with their tokens.
#include "daemon/net/durable_file.h"
#include "daemon/net/peer_links.h"
#include "daemon/net/runtime_dir.h"
#include "daemon/room/clean_text.h"
#include "daemon/room/secrets.h"

#include <fstream>
#include <spdlog/spdlog.h>
#include <sstream>

namespace halma::daemon {

// The seats file: one "address room_id token seat|watch name" line per room held (the name,
// cleaned of control characters, runs to the end of the line; files without it are read as
// before), and one "address room_id token leave name" per room left while its host was out of
// reach, whose host is still to hear of it (peer_owed_leaves.cpp); owner-only. It is
// replaced atomically: a write that fails (a full disk) leaves the last whole file, never an
// empty or half one, and is logged. The loop writes it into the kernel (a crash of halmad loses
// nothing) and the disk helper flushes it and its directory: on an SD card an fsync at every
// join held up every room this daemon hosts.
void PeerLinks::save() const {
    if (auto made = make_private_dir(config_.state_dir); !made) {
        spdlog::error("cannot remember seats: {}", made.error().message);
        return;
    }
    std::ostringstream out;
    for (const auto& r : replicas_)
        if (!r->token.empty())
            out << r->address << ' ' << r->room_id << ' ' << r->token << ' '
                << (r->spectator ? "watch" : "seat") << ' ' << r->name << '\n';
    // Left while the host was out of reach: the host is still to be told (peer_owed_leaves.cpp).
    for (const auto& l : owed_leaves_)
        out << l.address << ' ' << l.room_id << ' ' << l.token << " leave " << l.name << '\n';
    auto file = config_.state_dir / "seats";
    if (auto written = write_file_atomically(file, out.str(), flush_mode()); !written)
        spdlog::error("cannot remember seats (the last seats file is kept, so a restart may "
                      "rejoin rooms left since or miss ones joined since): {}",
            written.error().message);
    else
        hand_to_disk(file);
}

void PeerLinks::hand_to_disk(const std::filesystem::path& file) const {
    if (!disk_) return;
    // A failure comes back under this label; the loop logs it (it names no room).
    std::string label = "this daemon's " + file.filename().string() + " file";
    disk_->sync(file, label);
    disk_->sync(file.parent_path(), label);
}

void PeerLinks::restore(const Now& now) {
    std::ifstream in(config_.state_dir / "seats");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string address, room_id, token, role;
        if (!(fields >> address >> room_id >> token)) {
            spdlog::warn("seats file: skipping '{}'", line);
            continue;
        }
        fields >> role;
        std::string name;
        std::getline(fields >> std::ws, name);
        // Held to what this daemon writes there: a line of anything else was not written by it.
        if (!wire::plain_id(room_id) || !wire::plain_id(token)) {
            spdlog::warn("seats file: skipping a line that is not a seat ('{}')",
                sanitize_text(line.substr(0, 80), 80));
            continue;
        }
        if (role == "leave") {
            if (owed_leaves_.size() >= kMaxReplicas) continue;
            std::string error;
            if (!link_for(address, error)) {
                spdlog::warn("seats file: {}", error);
                continue;
            }
            owed_leaves_.push_back(
                OwedLeave { address, room_id, token, sanitize_text(name, kMaxRoomName),
                    random_hex_id(), now.steady, now.steady + kOwedLeaveFor, false });
            spdlog::info("room {} at {}: left while its host was out of reach; telling it",
                owed_leaves_.back().name, address);
            continue;
        }
        if (replicas_.size() >= kMaxReplicas) {
            spdlog::warn("seats file: more than {} rooms; the rest are not rejoined", kMaxReplicas);
            break;
        }
        std::string error;
        if (!link_for(address, error)) {
            spdlog::warn("seats file: {}", error);
            // Past the hosts a daemon talks to, every line left says the same (217 kB a start).
            if (links_.size() >= kMaxHosts) break;
            continue;
        }
        auto r = std::make_unique<Replica>();
        r->address = address;
        r->room_id = room_id;
        r->name = sanitize_text(name, kMaxRoomName);
        r->token = token;
        r->spectator = role == "watch";
        r->next_rejoin = now.steady;
        spdlog::info("rejoining room {} at {}", room_id, address);
        replicas_.push_back(std::move(r));
    }
}

} // namespace halma::daemon
