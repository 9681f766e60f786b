// perft: the number of move sequences `depth` plies deep, the standard check of a move
// generator against independent implementations (shared golden values in tests/).
#pragma once

#include "position.h"
#include "rules.h"

#include <cstdint>

namespace halma::engine {

struct PerftResult {
    std::uint64_t leaves = 0; // move sequences of length depth
    std::uint64_t generated = 0; // positions whose moves were generated
};

// The last ply is counted, not played. Takes the position by value: it is played on and
// restored.
PerftResult perft(Position pos, const Rules& rules, int depth);

} // namespace halma::engine
