// The largest snapshot a host can be made to send, given the bounds (docs/protocol.md, Limits):
// a six-player room filled with every spectator it takes, each name as long as allowed, flooded
// with chat lines of the longest length by every member at the rate limit while spectators come
// and go, measured after each event through the real room code (RoomAuthority, its fold, the
// wire codec); beside it, the same room before the flood. The current game's moves are never
// folded: their share is the largest move event times the moves a game can have. Figures only.
#include "daemon/room/room_authority.h"
#include "daemon/room/room_fold.h"
#include "daemon/wire/codec.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace halma::daemon;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;

namespace {

constexpr int kPlayers = 6;
constexpr int kSpectators = 64; // RoomAuthority's bound
constexpr int kRounds = 80; // each member says one line a round, one second apart
constexpr std::size_t kPeerAccepts = 64u << 20; // what a guest reads from a host (kMaxFromHost)

Now at_ms(std::int64_t ms) {
    return Now { std::chrono::steady_clock::time_point {} + std::chrono::hours(1000)
            + std::chrono::milliseconds(ms),
        1'700'000'000'000 + ms };
}

std::size_t snapshot_bytes(const RoomState& state) {
    pb::Snapshot s;
    wire::to_proto(state, &s);
    return s.ByteSizeLong();
}

// A name of the longest length, different for each n.
std::string long_name(int n) {
    std::string name = "member " + std::to_string(n) + " ";
    return name + std::string(kMaxMemberName - name.size(), 'x');
}

std::size_t move_event_bytes(int cells) {
    RoomEvent e;
    e.seq = 1ull << 40;
    e.time_ms = 1'700'000'000'000 + (1ll << 40);
    event::MovePlayed played;
    played.seat = kPlayers - 1;
    for (int i = 0; i < cells; ++i)
        played.path.push_back(static_cast<halma::engine::Cell>(120 - i % 8));
    e.body = played;
    pb::RoomEvent out;
    wire::to_proto(e, &out);
    return out.ByteSizeLong() + 2; // its tag and length in the snapshot
}

} // namespace

int main() {
    RoomConfig config;
    config.room_id = std::string(32, 'f');
    config.name = std::string(kMaxRoomName, 'r');
    config.visibility = Visibility::kFriends;
    config.code = "k7f3q-9xq2m-aaaaa-bbbbb";
    config.mode.players = kPlayers;
    RoomAuthority room(config, {}, 1);
    std::vector<std::string> tokens;
    std::vector<MemberId> members;
    int names = 0;
    for (int i = 0; i < kPlayers + kSpectators; ++i) {
        auto ticket = room.join(long_name(names++), "", i >= kPlayers, at_ms(0));
        if (!ticket) {
            std::fprintf(stderr, "join %d: %s\n", i, ticket.error().message.c_str());
            return 1;
        }
        tokens.push_back(ticket->token);
        members.push_back(ticket->member);
    }
    // What a fold keeps besides chat raises the size at which the next fold comes: each
    // member's last connection event (a peer's daemon that vanished and came back) and the
    // players' votes.
    for (int i = kPlayers; i < kPlayers + kSpectators; ++i) {
        room.set_connected(members[static_cast<std::size_t>(i)], false, at_ms(1));
        room.set_connected(members[static_cast<std::size_t>(i)], true, at_ms(2));
    }
    for (int i = 0; i < kPlayers; ++i)
        room.act(
            tokens[static_cast<std::size_t>(i)], action::Vote { VoteKind::kNewGame }, at_ms(3));
    const std::size_t filled = snapshot_bytes(room.state());
    const std::size_t filled_events = room.state().log().size();
    std::size_t largest = filled, largest_events = filled_events, lines = 0, refused = 0;
    const std::string line(kMaxChatText, 'x');
    for (int round = 1; round <= kRounds; ++round) {
        Now now = at_ms(round * 1000);
        for (const auto& token : tokens) {
            if (room.act(token, action::Chat { line }, now))
                ++refused;
            else
                ++lines;
            if (auto size = snapshot_bytes(room.state()); size > largest) {
                largest = size;
                largest_events = room.state().log().size();
            }
        }
        // A spectator leaves and another comes: churn the fold must drop.
        std::string& gone = tokens[kPlayers + round % kSpectators];
        room.act(gone, action::Leave {}, now);
        auto ticket = room.join(long_name(names++), "", true, now);
        if (!ticket) {
            std::fprintf(stderr, "rejoin: %s\n", ticket.error().message.c_str());
            return 1;
        }
        gone = ticket->token;
    }
    const std::size_t step = move_event_bytes(2),
                      longest = move_event_bytes(halma::engine::kCellNB);
    std::printf("baseline: the room filled (%d players, %d spectators, every name %zu bytes, "
                "their connections and votes): "
                "snapshot %zu bytes, %zu events\n",
        kPlayers, kSpectators, kMaxMemberName, filled, filled_events);
    std::printf(
        "largest snapshot under %zu chat lines of %zu bytes (%zu refused at the rate limit) "
        "and %d spectators coming and going: %zu bytes, %zu events (folds: %llu)\n",
        lines, kMaxChatText, refused, kRounds, largest, largest_events,
        static_cast<unsigned long long>(room.state().folds()));
    std::printf("a move in a snapshot: %zu bytes for a step, %zu for a path through all %d holes "
                "(the wire's bound)\n",
        step, longest, halma::engine::kCellNB);
    for (int limit : { kDefaultMoveLimit, kMaxMoveLimit }) {
        std::size_t moves = static_cast<std::size_t>(kPlayers) * static_cast<std::size_t>(limit);
        std::size_t typical = largest + moves * step, worst = largest + moves * longest;
        std::printf("with move limit %d (%zu moves): largest snapshot %zu bytes with steps only, "
                    "%zu bytes if every move crossed all holes; a guest reads %zu (%s)\n",
            limit, moves, typical, worst, kPeerAccepts,
            worst <= kPeerAccepts ? "fits" : "does NOT fit");
    }
    return 0;
}
