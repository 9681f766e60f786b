// The hard bot's search. Two players (any number of sets each): alpha-beta over the real turn
// order. Three to six players: Best-Reply Search (Schadd & Winands 2011), where the opponents
// together make one reply, the strongest any of them has, between two of the bot's own moves.
// Both use iterative deepening, a transposition table and move ordering, and stop after a fixed
// number of nodes, so the same input always gives the same move.
#pragma once

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"
#include "evaluation.h"
#include "seating.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace halma::ai {

struct SearchOptions {
    std::uint64_t node_limit = 100'000;
    int max_depth = 40;
    // Safety net only: stop anyway after this long (0: never). Reaching it makes the result
    // depend on the machine, so the node limit should always come first.
    int clock_limit_ms = 0;
    // Best-reply search: how many of the opponents' replies to try at each reply node.
    int reply_width = 24;
    // Below the root, search only moves that gain ground (see forward_only).
    bool prune_backward = true;
    int max_forward = 16; // and at most this many of them, the biggest gains first
    // Two players only (the best-reply search of three to six is as measured before these):
    // where this many plies or more remain, sideways moves (gain 0: blocking, setting up a
    // ladder) are searched too, up to twice max_forward. Deeper iterations (more time) widen
    // more of the tree's top, which is what lets more time pay (docs/ai.md). 0: never.
    int full_width_depth = 5;
    // Moves after the first three (and not the table's or a killer) are searched two plies
    // shallower first, and again fully only if they look better than the best so far.
    bool late_move_reductions = true;
    // Moves that cut off elsewhere in the tree are tried first among equal gains.
    bool history = true;
    EvalWeights weights = kSearchWeights;
    // Added at a leaf for the bot to move, taken off for an opponent to move: half of what a
    // move is worth, so that odd and even depths agree (see Searcher::tempo).
    int tempo = 2 * kStep;
    std::uint64_t seed = 1;
    // Set by the caller (a front end's `stop`) to end the search early: it is polled as the
    // nodes are, and the best move found so far is returned. The engine starts no thread.
    const std::atomic<bool>* stop = nullptr;
};

// What an iteration of the search found, for a front end's `info` lines.
struct SearchProgress {
    int depth = 0;
    int score = 0;
    std::uint64_t nodes = 0;
    std::vector<engine::Move> pv; // the expected line, the move to play first
};
using ProgressCallback = std::function<void(const SearchProgress&)>;

struct SearchResult {
    engine::Move move = engine::Move::pass();
    int score = 0; // for the player to move, in sixteenths of a step (kStep)
    int depth = 0; // deepest iteration completed
    std::uint64_t nodes = 0;
    bool clock_stopped = false;
};

// `earlier` holds the keys (board_key ^ to_move) of positions already seen in the game: the
// bot avoids going back to them, so it never shuffles in a circle.
SearchResult search(const engine::Position& pos, const engine::Rules& rules, const Seating& seating,
    const SearchOptions& options, const std::vector<std::uint64_t>& earlier = {},
    const ProgressCallback& on_iteration = {});

} // namespace halma::ai
