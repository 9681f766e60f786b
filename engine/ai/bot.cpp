#include "bot.h"

#include "easy_bot.h"
#include "engine/movegen.h"
#include "race_planner.h"
#include "search.h"
#include "zobrist.h"

#include <algorithm>

namespace halma::ai {

using namespace halma::engine;

namespace {

// Search nodes per millisecond of budget: the hard bot's speed in the middle game measured on
// the reference machine (docs/ai.md). A fixed rate, so a slower machine thinks longer rather
// than worse.
constexpr std::uint64_t kNodesPerMs = 1000;
// The safety clock: a search still running this many budgets in is stopped whatever it has.
constexpr int kClockFactor = 8;

} // namespace

std::uint64_t node_budget(int budget_ms) {
    return std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::max(budget_ms, 1)) * kNodesPerMs);
}

std::optional<Level> parse_level(std::string_view name) {
    if (name == "easy") return Level::kEasy;
    if (name == "hard") return Level::kHard;
    if (name == "max") return Level::kMax;
    return std::nullopt;
}

std::string_view level_name(Level level) {
    switch (level) {
    case Level::kEasy:
        return "easy";
    case Level::kHard:
        return "hard";
    case Level::kMax:
        return "max";
    }
    return "hard";
}

int level_budget_ms(Level level, int hard_budget_ms) {
    return level == Level::kMax ? std::max(hard_budget_ms, kMaxLevelBudgetMs) : hard_budget_ms;
}

BotResult think(const Position& pos, const Rules& rules, const Seating& seating,
    const BotSettings& settings, const std::vector<std::uint64_t>& earlier,
    const ProgressCallback& on_iteration) {
    BotResult result;
    std::uint64_t nodes
        = settings.node_limit > 0 ? settings.node_limit : node_budget(settings.budget_ms);
    if (settings.level == Level::kEasy) {
        result.move = easy_move(pos, rules, settings.seed);
        return result;
    }
    // Step 1: a race no opponent can interfere with any more is planned, not searched.
    if (race_is_decoupled(pos, pos.side_to_move())) {
        RacePlan plan = plan_race(pos, rules, pos.side_to_move(), nodes, EvalWeights {},
            settings.stop, settings.clock_limit_ms);
        result.move = plan.move;
        result.score = plan.score;
        result.depth = plan.moves_to_finish;
        result.nodes = plan.nodes;
        return result;
    }
    // Step 2: otherwise alpha-beta (two players) or best-reply search (three or more).
    SearchOptions options;
    options.node_limit = nodes;
    options.clock_limit_ms = settings.clock_limit_ms > 0
        ? settings.clock_limit_ms
        : std::max(settings.budget_ms, 1) * kClockFactor;
    options.seed = settings.seed;
    options.stop = settings.stop;
    if (settings.search_weights) options.weights = *settings.search_weights;
    SearchResult found = search(pos, rules, seating, options, earlier, on_iteration);
    result.move = found.move;
    result.score = found.score;
    result.depth = found.depth;
    result.nodes = found.nodes;
    result.clock_stopped = found.clock_stopped;
    return result;
}

std::vector<std::uint64_t> game_history_keys(const Game& game) {
    const auto& history = game.history();
    std::vector<std::uint64_t> keys(history.size());
    // Walk back from the position now, so a game resumed from any position (not only the
    // start) gives the right keys. Only the boards matter here, so retirements (which change
    // whose turn it is, not the board) need not be undone.
    Position pos = game.position();
    std::uint64_t board = board_key(pos);
    for (std::size_t i = history.size(); i-- > 0;) {
        const PlayedMove& played = history[i];
        pos.unmake(played.move, played.set);
        board ^= move_key(pos, played.move);
        keys[i] = board ^ zobrist().to_move[played.set];
    }
    return keys;
}

BotResult think(
    const Game& game, const BotSettings& settings, const ProgressCallback& on_iteration) {
    if (game.over()) return BotResult {};
    return think(game.position(), game.setup().rules, Seating::of(game.setup()), settings,
        game_history_keys(game), on_iteration);
}

Move choose_move(const Game& game, const BotSettings& settings) {
    return think(game, settings).move;
}

} // namespace halma::ai
