// Positions for tests, written as the marbles that matter: {"i5", '1'} puts a marble of set 1
// on i5. Every set named is topped up to its ten marbles in its own start triangle (tip first),
// so the result is a position the notation accepts.
#pragma once

#include "engine/position.h"

#include <string>
#include <utility>
#include <vector>

namespace halma::testing {

engine::Position board(const std::vector<std::pair<std::string, char>>& marbles, char side);

} // namespace halma::testing
