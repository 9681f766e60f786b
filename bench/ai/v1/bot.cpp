#include "bench/ai/v1/bot.h"

#include "bench/ai/v1/race_planner.h"
#include "bench/ai/v1/search.h"

#include <algorithm>

namespace halma::v1 {

using namespace halma::engine;

ai::BotResult think(const Game& game, int budget_ms, std::uint64_t seed) {
    ai::BotResult result;
    if (game.over()) return result;
    const Position& pos = game.position();
    const Rules& rules = game.setup().rules;
    std::uint64_t nodes = static_cast<std::uint64_t>(std::max(budget_ms, 1)) * 1000;
    if (race_is_decoupled(pos, pos.side_to_move())) {
        RacePlan plan = plan_race(pos, rules, pos.side_to_move(), nodes, EvalWeights {});
        result.move = plan.move;
        result.score = plan.score;
        result.depth = plan.moves_to_finish;
        result.nodes = plan.nodes;
        return result;
    }
    SearchOptions options;
    options.node_limit = nodes;
    options.clock_limit_ms = std::max(budget_ms, 1) * 8;
    options.seed = seed;
    SearchResult found
        = search(pos, rules, ai::Seating::of(game.setup()), options, ai::game_history_keys(game));
    result.move = found.move;
    result.score = found.score;
    result.depth = found.depth;
    result.nodes = found.nodes;
    result.clock_stopped = found.clock_stopped;
    return result;
}

} // namespace halma::v1
