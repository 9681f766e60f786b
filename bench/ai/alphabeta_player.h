// A clean alpha-beta player of our own, a sparring partner for the hard bot: negamax to a fixed
// depth over the real turn order (two players), with a transposition table and move ordering
// (the table's move, then the biggest gain), and an evaluation that is the race alone: my
// distance to home less the opponent's. It prunes nothing, so it sees every move to its depth.
#pragma once

#include "engine/game.h"

#include <cstdint>

namespace halma::bench {

struct AlphaBetaResult {
    engine::Move move = engine::Move::pass();
    int score = 0; // steps, for the side to move
    std::uint64_t nodes = 0;
};

// Searches `depth` plies (iterative deepening to it, for the ordering). Two-player games only.
AlphaBetaResult alphabeta_move(const engine::Game& game, int depth, std::uint64_t seed);

} // namespace halma::bench
