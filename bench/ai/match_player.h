// A seat in a match: one of our own bots (in-process) or an engine in another process, named
// by a short spec the match runner's command line takes:
//   hard[:MS]   the hard bot with a budget of MS ms (default 150)
//   v1[:MS]     the hard bot as it was before issue 14 (bench/ai/v1), same budgets
//   ab:DEPTH    the plain alpha-beta sparring partner, DEPTH plies (bench/ai/alphabeta_player)
//   easy, greedy
//   engine:MS:COMMAND   an engine speaking docs/engine-protocol.md, `go movetime MS`
//   weights:S,L,H       hard with these search weights (straggler, lateral, hop): for tuning
#pragma once

#include "engine/ai/evaluation.h"
#include "engine/game.h"
#include "engine/result.h"
#include "protocol_player.h"

#include <memory>
#include <string>

namespace halma::bench {

class MatchPlayer {
public:
    static engine::Result<std::unique_ptr<MatchPlayer>> parse(const std::string& spec);

    const std::string& name() const { return spec_; }
    // The player's move in `game`, played on it (every move is checked legal by the Game).
    // An error when the player failed: an illegal move, no answer, a dead engine.
    engine::Result<void> play(engine::Game& game, std::uint64_t seed);

private:
    enum class Kind { kHard, kWeights, kV1, kAlphaBeta, kEasy, kGreedy, kEngine };
    Kind kind_ = Kind::kHard;
    int budget_ms_ = 150;
    ai::EvalWeights weights_ {}; // kWeights
    int depth_ = 3;
    std::string spec_;
    std::unique_ptr<ProtocolPlayer> process_;
};

} // namespace halma::bench
