// Three to six players: Best-Reply Search (Schadd & Winands 2011). The opponents together
// make one reply, the strongest any of them has, between two of the bot's own moves.
#include "searcher.h"

namespace halma::ai::detail {

SetId Searcher::next_root_set(SetId after) const {
    for (int i = 1; i <= kSetNB; ++i) {
        auto s = static_cast<SetId>((after + i) % kSetNB);
        if (has_set(root_sets_, s) && has_set(pos_.sets_in_turn(), s) && !set_done(s)) return s;
    }
    return after;
}

// Best-reply search, the bot's own move: set `set` moves.
int Searcher::own_node(int depth, int alpha, int beta, int ply, SetId set) {
    if (team_done(root_sets_)) return kWin - ply;
    if (depth <= 0 || ply >= kMaxPly || out_of_budget()) return evaluate() + tempo(true);

    std::uint64_t key = key_ ^ zobrist().to_move[set];
    Move tt_move = Move::pass();
    if (auto cut = probe(key, depth, alpha, beta, ply, tt_move)) return *cut;

    SetId saved = pos_.side_to_move();
    pos_.set_side_to_move(set);
    Ply& here = plies_[static_cast<std::size_t>(ply)];
    int count = gather_moves(here, set, tt_move, depth);

    int alpha0 = alpha;
    int best = -kInfinity;
    Move best_move = here.candidates[0].move;
    for (int i = 0; i < count; ++i) {
        Move m = here.candidates[static_cast<std::size_t>(i)].move;
        play(m);
        int v = reply_node(depth - 1, alpha, beta, ply + 1, set);
        take_back(m, set);
        if (stop_) break;
        if (v > best) {
            best = v;
            best_move = m;
        }
        alpha = std::max(alpha, v);
        if (alpha >= beta) {
            add_killer(ply, m);
            break;
        }
    }
    pos_.set_side_to_move(saved);
    if (stop_) return best == -kInfinity ? evaluate() : best;
    Bound bound = best <= alpha0 ? Bound::kUpper : best >= beta ? Bound::kLower : Bound::kExact;
    tt_.store(key, depth, tt_out(best, ply), bound, best_move);
    return best;
}

// Best-reply search, the opponents' turn: every move of every opponent set still playing
// competes, and only the one that hurts the bot most is played.
int Searcher::reply_node(int depth, int alpha, int beta, int ply, SetId last_root_set) {
    if (team_done(root_sets_)) return kWin - ply;
    if (depth <= 0 || ply >= kMaxPly || out_of_budget()) return evaluate() + tempo(false);
    SetId next_own = next_root_set(last_root_set);

    std::uint64_t key = key_ ^ zobrist().reply_node ^ zobrist().to_move[next_own];
    Move tt_move = Move::pass();
    if (auto cut = probe(key, depth, alpha, beta, ply, tt_move)) return *cut;

    SetId saved = pos_.side_to_move();
    Ply& here = plies_[static_cast<std::size_t>(ply)];
    here.candidates.clear();
    for (SetId s = 0; s < kSetNB; ++s) {
        if (has_set(root_sets_, s) || !has_set(pos_.sets_in_turn(), s) || set_done(s)) continue;
        pos_.set_side_to_move(s);
        here.list.size = 0;
        generate_moves(pos_, rules_, here.list);
        for (Move m : here.list)
            if (!m.is_pass()) here.candidates.push_back(Candidate { m, s, 0 });
    }
    pos_.set_side_to_move(saved);
    if (here.candidates.empty()) return own_node(depth, alpha, beta, ply + 1, next_own);

    int count = static_cast<int>(here.candidates.size());
    order(here, count, tt_move, true);
    count = forward_only(here, count, depth);
    count = std::min(count, options_.reply_width);

    int beta0 = beta;
    int best = kInfinity;
    Move best_move = here.candidates[0].move;
    for (int i = 0; i < count; ++i) {
        auto [m, s, unused] = here.candidates[static_cast<std::size_t>(i)];
        pos_.set_side_to_move(s);
        play(m);
        int v = own_node(depth - 1, alpha, beta, ply + 1, next_own);
        take_back(m, s);
        if (stop_) break;
        if (v < best) {
            best = v;
            best_move = m;
        }
        beta = std::min(beta, v);
        if (alpha >= beta) {
            add_killer(ply, m);
            break;
        }
    }
    pos_.set_side_to_move(saved);
    if (stop_) return best == kInfinity ? evaluate() : best;
    Bound bound = best >= beta0 ? Bound::kLower : best <= alpha ? Bound::kUpper : Bound::kExact;
    tt_.store(key, depth, tt_out(best, ply), bound, best_move);
    return best;
}

} // namespace halma::ai::detail
