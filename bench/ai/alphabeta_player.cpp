#include "alphabeta_player.h"

#include "engine/ai/evaluation.h"
#include "engine/ai/rng.h"
#include "engine/ai/transposition.h"
#include "engine/ai/zobrist.h"
#include "engine/geometry.h"
#include "engine/movegen.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace halma::bench {

using namespace halma::engine;

namespace {

constexpr int kInfinity = 1 << 28;
constexpr int kWin = 1 << 20;

class AlphaBeta {
public:
    AlphaBeta(const Game& game)
        : rules_(game.setup().rules)
        , pos_(game.position())
        , tt_(1u << 20) {
        key_ = ai::board_key(pos_);
        sides_[0] = pos_.side_to_move();
        for (SetId s = 0; s < kSetNB; ++s)
            if (has_set(pos_.sets_present(), s) && s != sides_[0]) sides_[1] = s;
    }

    AlphaBetaResult run(int depth, std::uint64_t seed) {
        AlphaBetaResult result;
        MoveList list;
        generate_moves(pos_, rules_, list);
        std::vector<Move> root(list.begin(), list.end());
        ai::Rng rng(seed ^ key_);
        for (std::size_t i = root.size(); i > 1; --i)
            std::swap(root[i - 1], root[rng.below(static_cast<std::uint32_t>(i))]);
        SetId me = pos_.side_to_move();
        std::stable_sort(
            root.begin(), root.end(), [&](Move a, Move b) { return gain(me, a) > gain(me, b); });
        result.move = root[0];
        for (int d = 1; d <= depth; ++d) {
            int best = -kInfinity, best_raw = -kInfinity;
            std::size_t best_i = 0;
            for (std::size_t i = 0; i < root.size(); ++i) {
                play(root[i]);
                // A window one below the best so far: a move as good as it is scored exactly.
                int v = -negamax(
                    d - 1, -kInfinity, best_raw == -kInfinity ? kInfinity : -(best_raw - 1), 1);
                take_back(root[i], me);
                // Progress now breaks ties with progress later.
                int total = v * 64 + gain(me, root[i]);
                if (total > best) best = total, best_raw = v, best_i = i;
            }
            std::rotate(root.begin(), root.begin() + static_cast<std::ptrdiff_t>(best_i),
                root.begin() + static_cast<std::ptrdiff_t>(best_i) + 1);
            result.move = root[0];
            result.score = best_raw;
        }
        result.nodes = nodes_;
        return result;
    }

private:
    int gain(SetId s, Move m) const {
        if (m.is_pass()) return 0;
        return distance_to_home(s, m.from) - distance_to_home(s, m.to);
    }
    void play(Move m) {
        key_ ^= ai::move_key(pos_, m);
        pos_.make(m);
        ++nodes_;
    }
    void take_back(Move m, SetId mover) {
        pos_.unmake(m, mover);
        key_ ^= ai::move_key(pos_, m);
    }
    SetId opponent(SetId s) const { return s == sides_[0] ? sides_[1] : sides_[0]; }
    int evaluate(SetId s) const {
        return ai::distance_left(pos_, opponent(s)) - ai::distance_left(pos_, s);
    }

    int negamax(int depth, int alpha, int beta, int ply) {
        SetId s = pos_.side_to_move();
        SetId o = opponent(s);
        if (ai::home_complete(pos_, rules_, o)) return -kWin + ply;
        if (ai::home_complete(pos_, rules_, s)) return kWin - ply;
        if (depth <= 0) return evaluate(s);
        std::uint64_t key = key_ ^ ai::zobrist().to_move[s];
        Move tt_move = Move::pass();
        if (const ai::TtEntry* e = tt_.probe(key)) {
            tt_move = e->move;
            if (e->depth >= depth
                && (e->bound == ai::Bound::kExact
                    || (e->bound == ai::Bound::kLower && e->score >= beta)
                    || (e->bound == ai::Bound::kUpper && e->score <= alpha)))
                return e->score;
        }
        MoveList list;
        generate_moves(pos_, rules_, list);
        std::vector<std::pair<int, Move>> moves;
        moves.reserve(static_cast<std::size_t>(list.size));
        for (Move m : list) moves.emplace_back(m == tt_move ? 1000 : gain(s, m), m);
        std::stable_sort(moves.begin(), moves.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
        int alpha0 = alpha, best = -kInfinity;
        Move best_move = moves[0].second;
        for (auto [unused, m] : moves) {
            play(m);
            int v = -negamax(depth - 1, -beta, -alpha, ply + 1);
            take_back(m, s);
            if (v > best) best = v, best_move = m;
            alpha = std::max(alpha, v);
            if (alpha >= beta) break;
        }
        ai::Bound bound = best <= alpha0 ? ai::Bound::kUpper
            : best >= beta               ? ai::Bound::kLower
                                         : ai::Bound::kExact;
        tt_.store(key, depth, best, bound, best_move);
        return best;
    }

    const Rules& rules_;
    Position pos_;
    ai::TranspositionTable tt_;
    std::uint64_t key_ = 0;
    std::uint64_t nodes_ = 0;
    std::array<SetId, 2> sides_ { 0, 0 };
};

} // namespace

AlphaBetaResult alphabeta_move(const Game& game, int depth, std::uint64_t seed) {
    auto searcher = std::make_unique<AlphaBeta>(game);
    return searcher->run(std::max(depth, 1), seed);
}

} // namespace halma::bench
