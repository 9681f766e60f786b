// The easy bot: no lookahead, a random forward move, bigger hops and the rearmost marbles
// likelier. It always makes progress, so it finishes, but it wastes moves and misses ladders:
// a beginner beats it.
#pragma once

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

#include <cstdint>

namespace halma::ai {

engine::Move easy_move(const engine::Position& pos, const engine::Rules& rules, std::uint64_t seed);

} // namespace halma::ai
