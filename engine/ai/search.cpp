// The hard bot's search: the root, iterative deepening, the budget and the evaluation the
// searches share. The node searches are in two_player_search.cpp and best_reply_search.cpp.
#include "rng.h"
#include "searcher.h"

#include <memory>

namespace halma::ai {
namespace detail {

int Searcher::evaluate() const {
    int own = team_score(root_player_) - kWalledInPenalty * walled_in(pos_, root_sets_);
    if (seating_.players == 1) return own;
    // Two players: the race between them. More: against the strongest opponent, whom the
    // replies (chosen to hurt the bot most) will tend to push on.
    int best_other = -kInfinity;
    for (int p = 0; p < seating_.players; ++p)
        if (p != root_player_ && (seating_.sets_of(p) & pos_.sets_present()))
            best_other = std::max(best_other, team_score(p));
    return best_other == -kInfinity ? own : own - best_other;
}

bool Searcher::out_of_budget() {
    if (stop_) return true;
    if (nodes_ >= options_.node_limit) stop_ = true;
    if (options_.stop && options_.stop->load(std::memory_order_relaxed)) stop_ = true;
    if (options_.clock_limit_ms > 0 && (nodes_ & 1023) == 0) {
        auto elapsed = std::chrono::steady_clock::now() - start_;
        if (elapsed > std::chrono::milliseconds(options_.clock_limit_ms))
            stop_ = clock_stopped_ = true;
    }
    return stop_;
}

std::optional<int> Searcher::probe(
    std::uint64_t key, int depth, int alpha, int beta, int ply, Move& tt_move) const {
    const TtEntry* e = tt_.probe(key);
    if (!e) return std::nullopt;
    tt_move = e->move;
    if (e->depth < depth) return std::nullopt;
    int s = tt_in(e->score, ply);
    if (e->bound == Bound::kExact || (e->bound == Bound::kLower && s >= beta)
        || (e->bound == Bound::kUpper && s <= alpha))
        return s;
    return std::nullopt;
}

int Searcher::child_of_root(int depth, int alpha, int beta) {
    if (best_reply_) return reply_node(depth, alpha, beta, 1, root_set_);
    return turn_node(depth, alpha, beta, 1);
}

SearchResult Searcher::run(const ProgressCallback& on_iteration) {
    SearchResult result;
    Ply& root = plies_[0];
    generate_moves(pos_, rules_, root.list);
    root.candidates.clear();
    for (Move m : root.list) root.candidates.push_back(Candidate { m, root_set_, 0 });
    result.move = root.candidates[0].move;
    if (root.candidates.size() == 1) return result;

    // Step 1: a seeded shuffle, then the biggest gains first; equal moves are tried (and so
    // chosen, ties going to the first) in an order that depends on the seed.
    Rng rng(options_.seed ^ key_);
    auto& cands = root.candidates;
    for (std::size_t i = cands.size() - 1; i > 0; --i)
        std::swap(cands[i], cands[rng.below(static_cast<std::uint32_t>(i + 1))]);
    int count = static_cast<int>(cands.size());
    order(root, count, Move::pass(), false);

    // Step 2: what each root move is worth beyond its search score: progress made now rather
    // than later breaks ties (so the bot never procrastinates), a return to an old position costs.
    std::vector<int> bonus(cands.size());
    for (std::size_t i = 0; i < cands.size(); ++i) {
        Move m = cands[i].move;
        bonus[i] = gain(root_set_, m);
        pos_.make(m);
        std::uint64_t child = board_key(pos_) ^ zobrist().to_move[pos_.side_to_move()];
        pos_.unmake(m, root_set_);
        if (std::binary_search(earlier_.begin(), earlier_.end(), child))
            bonus[i] -= kRepetitionPenalty;
    }

    // Step 3: iterative deepening, each iteration searching the previous best move first.
    for (int depth = 1; depth <= options_.max_depth; ++depth) {
        int best = -kInfinity;
        std::size_t best_index = 0;
        bool first_done = false;
        for (std::size_t i = 0; i < cands.size(); ++i) {
            Move m = cands[i].move;
            int b = bonus[i];
            play(m);
            int v;
            if (i == 0) {
                v = child_of_root(depth - 1, -kInfinity, kInfinity);
            } else {
                int a = best > kWinBound || best < -kWinBound ? best : best - b;
                v = child_of_root(depth - 1, a, a + 1);
                if (v > a && !stop_) v = child_of_root(depth - 1, a, kInfinity);
            }
            take_back(m, root_set_);
            if (stop_) break;
            first_done = true;
            // A forced finish is judged by its length alone.
            int total = v > kWinBound || v < -kWinBound ? v : v + b;
            if (total > best) {
                best = total;
                best_index = i;
            }
        }
        if (!first_done) break;
        // A partial iteration still counts: its first move is the previous best, so whatever
        // beat that is better.
        std::rotate(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(best_index),
            cands.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
        std::rotate(bonus.begin(), bonus.begin() + static_cast<std::ptrdiff_t>(best_index),
            bonus.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
        result.move = cands[0].move;
        result.score = best;
        if (stop_) break;
        result.depth = depth;
        if (on_iteration)
            on_iteration(
                SearchProgress { depth, best, nodes_, principal_variation(result.move, depth) });
        if (best > kWinBound || best < -kWinBound)
            break; // a forced finish: nothing deeper to learn
    }
    result.nodes = nodes_;
    result.clock_stopped = clock_stopped_;
    return result;
}

// The line the table expects from the root: the first move, then each position's stored best
// move while it is legal (two players; best-reply nodes mix sets, so their line stops at one).
std::vector<Move> Searcher::principal_variation(Move first, int depth) {
    std::vector<Move> line { first };
    if (best_reply_) return line;
    std::vector<SetId> movers { root_set_ };
    std::uint64_t nodes = nodes_; // looking up the line is not search work
    play(first);
    while (static_cast<int>(line.size()) < depth) {
        SetId mover = pos_.side_to_move();
        const TtEntry* e = tt_.probe(key_ ^ zobrist().to_move[mover]);
        if (!e) break;
        MoveList legal;
        generate_moves(pos_, rules_, legal);
        if (!legal.contains(e->move)) break;
        line.push_back(e->move);
        movers.push_back(mover);
        play(e->move);
    }
    for (std::size_t i = line.size(); i-- > 0;) take_back(line[i], movers[i]);
    nodes_ = nodes;
    return line;
}

} // namespace detail

using namespace halma::engine;

SearchResult search(const Position& pos, const Rules& rules, const Seating& seating,
    const SearchOptions& options, const std::vector<std::uint64_t>& earlier,
    const ProgressCallback& on_iteration) {
    auto searcher = std::make_unique<detail::Searcher>(pos, rules, seating, options, earlier);
    return searcher->run(on_iteration);
}

} // namespace halma::ai
