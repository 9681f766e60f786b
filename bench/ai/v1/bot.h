// The hard bot as it was before issue 14 (commit 87bcc79), frozen as a sparring partner for
// the match runner: the search, evaluation and race planner are copies of engine/ai/ at that
// commit in namespace halma::v1. Never change them: matches against v1 measure progress.
#pragma once

#include "engine/ai/bot.h"
#include "engine/game.h"

namespace halma::v1 {

// The move v1 plays in `game` with `budget_ms` (1000 nodes per ms, as then).
ai::BotResult think(const engine::Game& game, int budget_ms, std::uint64_t seed);

} // namespace halma::v1
