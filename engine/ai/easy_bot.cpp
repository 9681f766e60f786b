#include "easy_bot.h"

#include "engine/movegen.h"
#include "evaluation.h"
#include "rng.h"
#include "zobrist.h"

namespace halma::ai {

using namespace halma::engine;

Move easy_move(const Position& pos, const Rules& rules, std::uint64_t seed) {
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.size == 1) return list.moves[0];
    SetId s = pos.side_to_move();
    const auto& d = eval_tables().distance[s];
    Rng rng(seed ^ board_key(pos) ^ zobrist().to_move[s]);

    // Forward moves, each as likely as the steps it gains.
    int total = 0, best_sideways = -100;
    for (Move m : list) {
        int gain = d[m.from] - d[m.to];
        if (gain > 0) total += gain;
        if (gain <= 0 && gain > best_sideways) best_sideways = gain;
    }
    if (total > 0) {
        int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
        for (Move m : list) {
            int gain = d[m.from] - d[m.to];
            if (gain <= 0) continue;
            if (pick < gain) return m;
            pick -= gain;
        }
    }
    // No way forward: a random one of the moves that lose least.
    int ties = 0;
    for (Move m : list) ties += d[m.from] - d[m.to] == best_sideways;
    int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(ties)));
    for (Move m : list)
        if (d[m.from] - d[m.to] == best_sideways && pick-- == 0) return m;
    return list.moves[0];
}

} // namespace halma::ai
