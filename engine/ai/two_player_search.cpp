// Two players (one or more sets each): alpha-beta over the real turn order, with late move
// reductions and the history heuristic (three to six players: best_reply_search.cpp).
#include "searcher.h"

namespace halma::ai::detail {

// Alpha-beta over the real turn order: one or two players. Scores are the root player's.
int Searcher::turn_node(int depth, int alpha, int beta, int ply) {
    if (team_done(root_sets_)) return kWin - ply;
    for (int p = 0; p < seating_.players; ++p) {
        SetMask sets = seating_.sets_of(p) & pos_.sets_present();
        if (p != root_player_ && sets && team_done(sets)) return -kWin + ply;
    }
    if (depth <= 0 || ply >= kMaxPly || out_of_budget())
        return evaluate() + tempo(seating_.owner[pos_.side_to_move()] == root_player_);

    SetId mover = pos_.side_to_move();
    bool maximizing = seating_.owner[mover] == root_player_;
    if (set_done(mover)) {
        // A finished set of a player still playing passes its turn (the Game does the same).
        play(Move::pass());
        int v = turn_node(depth, alpha, beta, ply + 1);
        take_back(Move::pass(), mover);
        return v;
    }

    std::uint64_t key = key_ ^ zobrist().to_move[mover];
    Move tt_move = Move::pass();
    if (auto cut = probe(key, depth, alpha, beta, ply, tt_move)) return *cut;

    Ply& here = plies_[static_cast<std::size_t>(ply)];
    int count = gather_moves(here, mover, tt_move, depth);

    int alpha0 = alpha, beta0 = beta;
    int best = maximizing ? -kInfinity : kInfinity;
    Move best_move = here.candidates[0].move;
    for (int i = 0; i < count; ++i) {
        const Candidate& cand = here.candidates[static_cast<std::size_t>(i)];
        Move m = cand.move;
        play(m);
        int v;
        // Late move reductions: ordered moves after the first three (not the table's move nor
        // a killer) rarely matter; a shallower look first, and a full one only if it beats
        // the bound, buys depth for the lines that do.
        if (options_.late_move_reductions && depth >= 3 && i >= 3 && cand.key < kKillerKey) {
            v = turn_node(depth - 2, alpha, beta, ply + 1);
            if (!stop_ && (maximizing ? v > alpha : v < beta))
                v = turn_node(depth - 1, alpha, beta, ply + 1);
        } else {
            v = turn_node(depth - 1, alpha, beta, ply + 1);
        }
        take_back(m, mover);
        if (stop_) return v;
        if (maximizing ? v > best : v < best) {
            best = v;
            best_move = m;
        }
        if (maximizing)
            alpha = std::max(alpha, v);
        else
            beta = std::min(beta, v);
        if (alpha >= beta) {
            add_killer(ply, m);
            add_history(m, depth);
            break;
        }
    }
    Bound bound = best <= alpha0 ? Bound::kUpper : best >= beta0 ? Bound::kLower : Bound::kExact;
    tt_.store(key, depth, tt_out(best, ply), bound, best_move);
    return best;
}

} // namespace halma::ai::detail
