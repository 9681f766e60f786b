// Move ordering and pruning below the root: which moves a node searches, and in what order.
#include "searcher.h"

namespace halma::ai::detail {

// Best first: the transposition table's move, the killers, then the moves that gain most and,
// among equal gains (two players), those that cut off most elsewhere in the tree. A key is
// kGainUnit per step gained plus a history rank below kGainUnit, so the rank never outweighs a
// step and a key is at least kGainUnit exactly for the moves that gain ground (or are named).
void Searcher::order(Ply& ply, int count, Move tt_move, bool use_killers) {
    auto& c = ply.candidates;
    bool by_history = options_.history && !best_reply_;
    for (int i = 0; i < count; ++i) {
        auto& cand = c[static_cast<std::size_t>(i)];
        int key = gain(cand.set, cand.move) * kGainUnit;
        if (by_history && !cand.move.is_pass()) {
            // The rank grows with the log of the history count: 3 per doubling, at most 63.
            int h = history_[static_cast<std::size_t>(cand.move.from) * kCellNB + cand.move.to];
            int rank = 0;
            for (; h > 0 && rank < kGainUnit - 1; h >>= 1) rank += 3;
            key += std::min(rank, kGainUnit - 1);
        }
        if (cand.move == tt_move)
            key += kTtMoveKey;
        else if (use_killers && (cand.move == ply.killers[0] || cand.move == ply.killers[1]))
            key += kKillerKey;
        cand.key = key;
    }
    std::stable_sort(c.begin(), c.begin() + count,
        [](const Candidate& a, const Candidate& b) { return a.key > b.key; });
}

// Below the root, only moves that gain ground are searched (and any the table or a killer
// names), all moves only when none does: sideways and backward moves are most of a
// position's moves and rarely the best, and leaving them out buys depth (measured: 81% against
// the bot that searched them, docs/ai.md). But a search that never sees a sideways move never
// sees a block or a ladder being set up, however deep it goes, so more time bought little
// (hard:1000 against hard:150 scored 55%): two-player nodes with full_width_depth plies or
// more to go search the sideways moves too, and deeper iterations widen more of the tree.
int Searcher::forward_only(const Ply& ply, int count, int depth) const {
    if (!options_.prune_backward) return count;
    int kept = 0;
    if (!best_reply_ && options_.full_width_depth > 0 && depth >= options_.full_width_depth) {
        while (kept < count && ply.candidates[static_cast<std::size_t>(kept)].key >= 0) ++kept;
        return kept > 0 ? std::min(kept, 2 * options_.max_forward) : count;
    }
    while (kept < count && ply.candidates[static_cast<std::size_t>(kept)].key >= kGainUnit) ++kept;
    return kept > 0 ? std::min(kept, options_.max_forward) : count;
}

void Searcher::add_killer(int ply, Move m) {
    auto& k = plies_[static_cast<std::size_t>(ply)].killers;
    if (k[0] == m) return;
    k[1] = k[0];
    k[0] = m;
}

int Searcher::gather_moves(Ply& here, SetId mover, Move tt_move, int depth) {
    here.list.size = 0;
    generate_moves(pos_, rules_, here.list);
    here.candidates.clear();
    for (Move m : here.list) here.candidates.push_back(Candidate { m, mover, 0 });
    order(here, static_cast<int>(here.candidates.size()), tt_move, true);
    return forward_only(here, static_cast<int>(here.candidates.size()), depth);
}

} // namespace halma::ai::detail
