#include "easy_bot.h"

#include "engine/movegen.h"
#include "evaluation.h"
#include "rng.h"
#include "zobrist.h"

#include <algorithm>

namespace halma::ai {

using namespace halma::engine;

Move easy_move(const Position& pos, const Rules& rules, std::uint64_t seed) {
    MoveList list;
    generate_moves(pos, rules, list);
    if (list.size == 1) return list.moves[0];
    SetId s = pos.side_to_move();
    const auto& d = eval_tables().distance[s];
    Rng rng(seed ^ board_key(pos) ^ zobrist().to_move[s]);

    // Forward moves, each as likely as the steps it gains, and those of the rearmost marbles
    // likelier still: a beginner knows not to leave a marble behind in its start, where the
    // marbles coming home can wall it in for good.
    int rearmost = 0;
    for (Bitboard b = pos.marbles(s); b;) rearmost = std::max<int>(rearmost, d[b.pop_first()]);
    auto weight = [&](Move m) {
        int gain = d[m.from] - d[m.to];
        if (gain <= 0) return 0;
        return d[m.from] >= rearmost - 1 ? 3 * gain : gain;
    };
    int total = 0, best_sideways = -100;
    for (Move m : list) {
        int gain = d[m.from] - d[m.to];
        total += weight(m);
        if (gain <= 0 && gain > best_sideways) best_sideways = gain;
    }
    if (total > 0) {
        int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
        for (Move m : list) {
            int w = weight(m);
            if (w == 0) continue;
            if (pick < w) return m;
            pick -= w;
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
