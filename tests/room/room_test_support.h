// What the room tests share: rooms and clocks made to order, a plain greedy player to move
// games along, and comparisons of whole rooms and events, which the room types do not define.
#pragma once

#include "daemon/room/room_authority.h"
#include "daemon/room/room_state.h"
#include "engine/game.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

// A test that shows a known bug in daemon/: skipped, so the suite stays green, unless
// HALMA_RUN_KNOWN_BUGS is set in the environment; whoever fixes the bug runs it that way, sees
// it fail, then pass, and removes the line.
#define SKIP_KNOWN_BUG(text)                                                                       \
    if (!std::getenv("HALMA_RUN_KNOWN_BUGS")) GTEST_SKIP() << "bug: " << text

namespace halma::testing {

using namespace halma::daemon;

inline constexpr std::uint64_t kSeed = 20240601;

RoomConfig room_config(int players = 2, int sets_per_player = 1, std::string_view rules = "",
    int move_limit = kDefaultMoveLimit);

// A fixed point on both clocks plus `ms`: tests never read the real time.
Now at_ms(std::int64_t ms);

// A legal move that brings the mover's marbles closest to home, so a game moves along and
// ends (the same game gives the same move); and its text as a member types it.
engine::Move greedy_move(const engine::Game& game);
std::string greedy_text(const engine::Game& game);

bool valid_utf8(std::string_view s);

// The first way two rooms differ, in words; nullopt when they are the same room (config, log,
// members, seats, game, chat, votes, standings).
std::optional<std::string> state_difference(const RoomState& a, const RoomState& b);
bool same_event(const RoomEvent& a, const RoomEvent& b);

// A room rebuilt by applying `log` in order to a fresh room of `config`; an error names the
// first event refused.
std::optional<std::string> replay(
    const RoomConfig& config, const std::vector<RoomEvent>& log, RoomState& out);

// Two seated humans, ann (seat 0) and bob (seat 1), in a two player room: the first game runs.
struct TwoPlayers {
    explicit TwoPlayers(AuthorityOptions options = {}, RoomConfig config = room_config());
    RoomAuthority room;
    SeatTicket ann, bob;
};

// A room that has seen every kind of event: joins of people, spectators and bots, chat with
// control characters, moves, a vanished player, a cancelled game, a second game with turned
// colours, a time-out with a computer standing in until the player takes the seat back, a move
// taken back. `step` sees
// the room after each action (a replica test compares itself with the host there).
RoomAuthority lively_room(const std::function<void(RoomAuthority&)>& step = {});

// The first 140 moves of a two-player game people played (a QA pass), as the version before
// forced passes were the host's typed them: each kept the marble at the tip of its start, from
// move 108 the second player's set had no move but to pass, and after move 129 neither had (the
// passes went on to the stall limit, at move 329).
extern const std::vector<std::string> kWalledInGame;
} // namespace halma::testing
