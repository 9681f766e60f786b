// The race planner: once a player's marbles can no longer meet an opponent's (always so when
// a set crosses alone), the game is a race against the clock and the best move is the first
// of the shortest way home. A beam search over the player's own moves looks much further
// ahead than the adversarial search can, which is what ladders into the home need.
#pragma once

#include "bench/ai/v1/evaluation.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

#include <cstdint>

namespace halma::v1 {

struct RacePlan {
    engine::Move move = engine::Move::pass();
    int moves_to_finish = -1; // when the plan reaches home within its horizon, else -1
    int score = 0; // set_score at the end of the plan
    std::uint64_t nodes = 0;
};

// Plans for set s (it need not be the side to move) with `node_limit` positions at most.
RacePlan plan_race(const engine::Position& pos, const engine::Rules& rules, engine::SetId s,
    std::uint64_t node_limit, const EvalWeights& weights);

// True when no marble of another set can come in the way of set s or be hopped over by it on
// its way home: every other marble is further from s's home than every marble of s, and is
// not heading there.
bool race_is_decoupled(const engine::Position& pos, engine::SetId s);

} // namespace halma::v1
