// The computer players: one call that picks a move for whoever is to move in a game.
// Pure engine tier (no I/O, threads or clocks the caller can see): the daemon runs it off its loop.
#pragma once

#include "engine/game.h"
#include "engine/types.h"

#include <cstdint>

namespace halma::ai {

enum class Level { kEasy, kHard };

struct BotSettings {
    Level level = Level::kHard;
    // Thinking budget per move. It is turned into a fixed amount of search work, so the move
    // depends only on the position, the settings and the seed, never on machine load.
    int budget_ms = 150;
    std::uint64_t seed = 1;
};

// A legal move for the set to move in `game` (a pass when it has none). The game must not be over.
engine::Move choose_move(const engine::Game& game, const BotSettings& settings);

} // namespace halma::ai
