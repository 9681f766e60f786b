// The computer players: one call that picks a move for whoever is to move in a game.
// Pure engine tier (no I/O or threads): the daemon runs it off its event loop.
#pragma once

#include "engine/game.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"
#include "search.h"
#include "seating.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace halma::ai {

// kMax is the hard bot given several seconds a move: for patient players and analysis.
enum class Level { kEasy, kHard, kMax };

// The thinking budget a level gets when nobody names one: hard's is the daemon's default
// (bot-budget-ms); max thinks twenty times as long, about 3 s a move.
inline constexpr int kDefaultBudgetMs = 150;
inline constexpr int kMaxLevelBudgetMs = 3000;

struct BotSettings {
    Level level = Level::kHard;
    // Thinking budget per move. It is turned into a fixed amount of search work (node_budget),
    // so the move depends only on the position, the settings and the seed, never on machine
    // load; a clock stops the search only if it overruns the budget many times over.
    int budget_ms = kDefaultBudgetMs;
    std::uint64_t seed = 1;
    // For front ends that manage time themselves (the engine protocol's `go nodes` and
    // `go movetime`): the search work (0: from budget_ms) and the wall-clock limit (0: the
    // safety clock, eight budgets). `stop`, when set, ends the thinking early.
    std::uint64_t node_limit = 0;
    int clock_limit_ms = 0;
    const std::atomic<bool>* stop = nullptr;
    // The search's evaluation weights (kSearchWeights when unset): for tuning matches
    // (bench_ai's weights:S,L,H player), not for play.
    std::optional<EvalWeights> search_weights {};
};

// A legal move for the set to move in `game` (a pass when it has none). The game must not be
// over (then the result is a pass, which the Game refuses).
engine::Move choose_move(const engine::Game& game, const BotSettings& settings);

// What the bot decided and how: for analysis, tests and benchmarks.
struct BotResult {
    engine::Move move = engine::Move::pass();
    int score = 0; // hard bot: for the player to move, in sixteenths of a step
    int depth = 0; // hard bot: deepest full iteration (race planner: moves to finish, -1 unknown)
    std::uint64_t nodes = 0;
    bool clock_stopped = false; // the safety clock cut the search short (result machine-dependent)
};

// `on_iteration` hears of each completed iteration of the search (not of the race planner).
BotResult think(const engine::Game& game, const BotSettings& settings,
    const ProgressCallback& on_iteration = {});

// A bare position: `seating` says which sets play together (Seating::one_per_set for
// analysis); `earlier` the keys of positions seen before (see game_history_keys).
BotResult think(const engine::Position& pos, const engine::Rules& rules, const Seating& seating,
    const BotSettings& settings, const std::vector<std::uint64_t>& earlier = {},
    const ProgressCallback& on_iteration = {});

// Keys of the positions a game has passed through, for think() to avoid repeating them.
std::vector<std::uint64_t> game_history_keys(const engine::Game& game);

// The deterministic search work a budget buys (nodes searched).
std::uint64_t node_budget(int budget_ms);

// The budget for `level` where the hard level is given `hard_budget_ms` (a daemon's
// bot-budget-ms): max never thinks less than kMaxLevelBudgetMs, nor less than hard.
int level_budget_ms(Level level, int hard_budget_ms);

// "easy" / "hard" / "max" (the names the CLI and the daemon's config use).
std::optional<Level> parse_level(std::string_view name);
std::string_view level_name(Level level);

} // namespace halma::ai
