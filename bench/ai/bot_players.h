// The players the AI benchmarks pit against each other, and a loop that plays a whole game.
#pragma once

#include "engine/ai/bot.h"
#include "engine/game.h"

#include <cstdint>
#include <vector>

namespace halma::bench {

// Who sits in a seat: the easy or hard bot, or the greedy baseline (biggest gain now).
struct Player {
    enum Kind { kEasy, kHard, kGreedy } kind = kHard;
    int budget_ms = ai::BotSettings {}.budget_ms;
    std::uint64_t seed = 1;
    const char* name() const { return kind == kEasy ? "easy" : kind == kHard ? "hard" : "greedy"; }
};

// The greedy baseline: the move that gains most steps, ties broken by the seed.
engine::Move greedy_move(
    const engine::Position& pos, const engine::Rules& rules, std::uint64_t seed);
inline engine::Move greedy_move(const engine::Game& game, std::uint64_t seed) {
    return greedy_move(game.position(), game.setup().rules, seed + game.history().size());
}

struct GameRecord {
    std::vector<engine::Standing> standings;
    int moves = 0; // moves played, automatic passes excluded
    bool finished = false; // over before the move limit
    std::vector<double> think_ms; // per move of a hard player
    std::vector<int> moves_by_player;
};

// Plays `setup` to the end with players[p] in seat p; `first` moves first.
GameRecord play_game(
    const engine::GameSetup& setup, engine::SetId first, const std::vector<Player>& players);

} // namespace halma::bench
