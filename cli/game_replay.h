// A game rebuilt from where it started and the moves played since: how `halma analyze best`
// and `halma engine` give the bots a game's history (so they see repetitions and stalls).
#pragma once

#include "engine/game.h"
#include "engine/position.h"
#include "engine/result.h"
#include "engine/rules.h"

#include <optional>
#include <string>
#include <vector>

namespace halma::cli {

// The setup a bare position implies: each set present its own player (2, 3, 4 or 6 sets).
engine::Result<engine::GameSetup> setup_for_position(
    const engine::Position& pos, const engine::Rules& rules);

// `setup` from `start` (its start position, triangle 1 first, when none is given), then each
// of `moves` ("o1-m7", a full hop path, or "pass") in turn. An illegal move is named with its
// number (1 = the first) and why; nothing after it is played.
engine::Result<engine::Game> replay_game(const engine::GameSetup& setup,
    const std::optional<engine::Position>& start, const std::vector<std::string>& moves);

// Splits a move list given as one argument ("o1-m7 b2-c3", commas also separate).
std::vector<std::string> split_moves(const std::string& text);

} // namespace halma::cli
