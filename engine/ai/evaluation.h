// The hard bot's judgement of a position: how far each set still has to go, corrected for what
// makes a crossing slow (marbles left behind, marbles off the straight line) or fast (hops ready).
#pragma once

#include "engine/bitboard.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

#include <array>
#include <cstdint>

namespace halma::ai {

// Scores are in sixteenths of a step: one step nearer home is worth kStep.
inline constexpr int kStep = 16;

struct EvalWeights {
    int straggler = 8; // per step a marble lags more than kStragglerSlack behind the set's mean
    int lateral = 2; // per column a marble strays from the line between start and home
    int hop = 3; // per forward hop a marble could make at once
};

// The search's weights: stragglers count twice what the race planner gives them. A marble left
// in its start walks home alone at the end, one step a move, with no ladders left; with the
// planner's weight the search left it there while ladders elsewhere gained more (docs/ai.md,
// "Stragglers"). Measured over 40-game matches against the planner's weight: 28-8-4 with the
// default rules, 29-5-6 with the sparring rules; 24 and 32 did no better than 16.
inline constexpr EvalWeights kSearchWeights { 16, 2, 3 };

// Per-set lookup tables, built once.
struct EvalTables {
    std::array<std::array<std::uint8_t, engine::kCellNB>, engine::kSetNB> distance {};
    std::array<std::array<std::uint8_t, engine::kCellNB>, engine::kSetNB> lateral {};
    std::array<std::array<std::uint8_t, 2>, engine::kSetNB>
        forward {}; // the two directions homewards
    std::array<engine::Bitboard, engine::kSetNB> home {};
};
const EvalTables& eval_tables();

// Steps still to go for set s: 0 when all its marbles are home.
int distance_left(const engine::Position& pos, engine::SetId s);

// How well set s is doing, higher is better; 0 is all home, otherwise negative.
int set_score(const engine::Position& pos, engine::SetId s, const EvalWeights& w);

// The set's home counts as complete (the Game's rule, spoil=occupied included).
bool home_complete(const engine::Position& pos, const engine::Rules& rules, engine::SetId s);

// Opponents' marbles in the homes of bot_sets that the bot's marbles leave with no move at all.
int walled_in(const engine::Position& pos, engine::SetMask bot_sets);

} // namespace halma::ai
