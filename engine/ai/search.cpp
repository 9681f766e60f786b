#include "search.h"

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "rng.h"
#include "transposition.h"
#include "zobrist.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <memory>
#include <optional>

namespace halma::ai {

using namespace halma::engine;

namespace {

constexpr int kInfinity = std::numeric_limits<int>::max() / 2;
constexpr int kWin = 1'000'000;
constexpr int kWinBound = kWin - 1000; // scores beyond this are forced finishes
constexpr int kMaxPly = 64;
// Going back to a position already seen in the game costs this much at the root.
constexpr int kRepetitionPenalty = 4 * kStep;
// Walling an opponent's marble in at home stalls the game: worse than any gain it brings.
constexpr int kWalledInPenalty = 12 * kStep;

// A move with the set that makes it (best-reply nodes mix several sets) and its order key.
struct Candidate {
    Move move;
    SetId set;
    int key;
};

struct Ply {
    MoveList list;
    std::vector<Candidate> candidates;
    std::array<Move, 2> killers { Move::pass(), Move::pass() };
};

class Searcher {
public:
    Searcher(const Position& pos, const Rules& rules, const Seating& seating,
        const SearchOptions& options, const std::vector<std::uint64_t>& earlier)
        : pos_(pos)
        , rules_(rules)
        , seating_(seating)
        , options_(options)
        , earlier_(earlier)
        , tt_(std::clamp<std::size_t>(
              static_cast<std::size_t>(options.node_limit) * 2, 1u << 12, 1u << 18))
        , plies_(kMaxPly + 2) {
        root_set_ = pos.side_to_move();
        root_player_ = seating.owner[root_set_];
        root_sets_ = seating.sets_of(root_player_) & pos.sets_present();
        best_reply_ = seating.players >= 3;
        key_ = board_key(pos);
        std::sort(earlier_.begin(), earlier_.end());
        for (auto& ply : plies_) ply.candidates.reserve(256);
    }

    SearchResult run(const ProgressCallback& on_iteration);
    std::vector<Move> principal_variation(Move first, int depth);

private:
    // Step helpers shared by both searches.
    bool set_done(SetId s) const { return home_complete(pos_, rules_, s); }
    bool team_done(SetMask sets) const {
        for (SetId s = 0; s < kSetNB; ++s)
            if (has_set(sets, s) && !set_done(s)) return false;
        return true;
    }
    int team_score(int player) const {
        int score = 0;
        for (SetId s = 0; s < kSetNB; ++s)
            if (seating_.owner[s] == player && has_set(pos_.sets_present(), s))
                score += set_score(pos_, s, options_.weights);
        return score;
    }
    int evaluate() const;
    // The move the side to move is about to make is worth something: without this, a leaf
    // after the bot's move (odd depths) scores higher than one after the reply (even depths),
    // and iterations of different parity disagree about the same line.
    int tempo(bool bot_to_move) const { return bot_to_move ? options_.tempo : -options_.tempo; }
    bool out_of_budget();
    int gain(SetId s, Move m) const {
        if (m.is_pass()) return 0;
        const auto& d = eval_tables().distance[s];
        return d[m.from] - d[m.to];
    }
    void order(Ply& ply, int count, Move tt_move, bool use_killers);
    void add_killer(int ply, Move m);
    int forward_only(const Ply& ply, int count) const;
    void play(Move m) {
        key_ ^= move_key(pos_, m);
        pos_.make(m);
        ++nodes_;
    }
    void take_back(Move m, SetId mover) {
        pos_.unmake(m, mover);
        key_ ^= move_key(pos_, m);
    }
    int tt_in(int score, int ply) const {
        return score > kWinBound ? score - ply : score < -kWinBound ? score + ply : score;
    }
    int tt_out(int score, int ply) const {
        return score > kWinBound ? score + ply : score < -kWinBound ? score - ply : score;
    }

    // What the table knows of this position: its best move (into tt_move) and, when the
    // stored search was deep enough and its bound decides against [alpha, beta], the score.
    std::optional<int> probe(
        std::uint64_t key, int depth, int alpha, int beta, int ply, Move& tt_move) const;
    int turn_node(int depth, int alpha, int beta, int ply);
    int reply_node(int depth, int alpha, int beta, int ply, SetId last_root_set);
    int own_node(int depth, int alpha, int beta, int ply, SetId set);
    int child_of_root(int depth, int alpha, int beta);
    SetId next_root_set(SetId after) const;

    Position pos_;
    const Rules& rules_;
    Seating seating_;
    SearchOptions options_;
    std::vector<std::uint64_t> earlier_;
    TranspositionTable tt_;
    std::vector<Ply> plies_;
    SetId root_set_ = 0;
    int root_player_ = 0;
    SetMask root_sets_ = 0;
    bool best_reply_ = false;
    std::uint64_t key_ = 0;
    std::uint64_t nodes_ = 0;
    bool stop_ = false;
    bool clock_stopped_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

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

// Best first: the transposition table's move, the killers, then the moves that gain most.
void Searcher::order(Ply& ply, int count, Move tt_move, bool use_killers) {
    auto& c = ply.candidates;
    for (int i = 0; i < count; ++i) {
        auto& cand = c[static_cast<std::size_t>(i)];
        int key = gain(cand.set, cand.move) * 64;
        if (cand.move == tt_move)
            key += 1 << 20;
        else if (use_killers && (cand.move == ply.killers[0] || cand.move == ply.killers[1]))
            key += 1 << 16;
        cand.key = key;
    }
    std::stable_sort(c.begin(), c.begin() + count,
        [](const Candidate& a, const Candidate& b) { return a.key > b.key; });
}

// Below the root, only moves that gain ground are searched (and any the table or a killer
// names), all moves only when none does: sideways and backward moves are most of a
// position's moves and rarely the best, and leaving them out buys depth (measured: 81% against
// the bot that searched them, docs/ai.md). Ordered keys are positive exactly for those moves.
int Searcher::forward_only(const Ply& ply, int count) const {
    if (!options_.prune_backward) return count;
    int kept = 0;
    while (kept < count && ply.candidates[static_cast<std::size_t>(kept)].key > 0) ++kept;
    return kept > 0 ? std::min(kept, options_.max_forward) : count;
}

void Searcher::add_killer(int ply, Move m) {
    auto& k = plies_[static_cast<std::size_t>(ply)].killers;
    if (k[0] == m) return;
    k[1] = k[0];
    k[0] = m;
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
    here.list.size = 0;
    generate_moves(pos_, rules_, here.list);
    here.candidates.clear();
    for (Move m : here.list) here.candidates.push_back(Candidate { m, mover, 0 });
    int count = static_cast<int>(here.candidates.size());
    order(here, count, tt_move, true);
    count = forward_only(here, count);

    int alpha0 = alpha, beta0 = beta;
    int best = maximizing ? -kInfinity : kInfinity;
    Move best_move = here.candidates[0].move;
    for (int i = 0; i < count; ++i) {
        Move m = here.candidates[static_cast<std::size_t>(i)].move;
        play(m);
        int v = turn_node(depth - 1, alpha, beta, ply + 1);
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
            break;
        }
    }
    Bound bound = best <= alpha0 ? Bound::kUpper : best >= beta0 ? Bound::kLower : Bound::kExact;
    tt_.store(key, depth, tt_out(best, ply), bound, best_move);
    return best;
}

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
    here.list.size = 0;
    generate_moves(pos_, rules_, here.list);
    here.candidates.clear();
    for (Move m : here.list) here.candidates.push_back(Candidate { m, set, 0 });
    int count = static_cast<int>(here.candidates.size());
    order(here, count, tt_move, true);
    count = forward_only(here, count);

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
    count = forward_only(here, count);
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

} // namespace

SearchResult search(const Position& pos, const Rules& rules, const Seating& seating,
    const SearchOptions& options, const std::vector<std::uint64_t>& earlier,
    const ProgressCallback& on_iteration) {
    auto searcher = std::make_unique<Searcher>(pos, rules, seating, options, earlier);
    return searcher->run(on_iteration);
}

} // namespace halma::ai
