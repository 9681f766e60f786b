// A deliberately plain move generator: a byte per hole, neighbours found by coordinates, a
// breadth-first search per marble. Independent of the fast generator's tables, so the two can
// check each other, and the benchmark's baseline.
#pragma once

#include "engine/position.h"
#include "engine/rules.h"

#include <vector>

namespace halma::reference {

// Legal moves of the side to move, sorted by (from, to); release rule and swap included, and
// a pass when there is nothing else.
std::vector<engine::Move> legal_moves(const engine::Position& pos, const engine::Rules& rules);

} // namespace halma::reference
