// The hard bot's search, inside: the Searcher that both searches (alpha-beta for two players,
// best-reply for more) share, with its budget, transposition table and move ordering. Private
// to engine/ai: search.h is the interface. Its methods live by concept in search.cpp (the root
// and iterative deepening), two_player_search.cpp, best_reply_search.cpp and move_ordering.cpp.
#pragma once

#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"
#include "evaluation.h"
#include "search.h"
#include "seating.h"
#include "transposition.h"
#include "zobrist.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace halma::ai::detail {

using namespace halma::engine;

constexpr int kInfinity = std::numeric_limits<int>::max() / 2;
constexpr int kWin = 1'000'000;
constexpr int kWinBound = kWin - 1000; // scores beyond this are forced finishes
constexpr int kMaxPly = 64;
// Going back to a position already seen in the game costs this much at the root.
constexpr int kRepetitionPenalty = 4 * kStep;
// Walling an opponent's marble in at home stalls the game: worse than any gain it brings.
constexpr int kWalledInPenalty = 12 * kStep;
// Move ordering keys: this much per step a move gains (move_ordering.cpp).
constexpr int kGainUnit = 64;
// Keys of the table's move and of killers: above any gain.
constexpr int kTtMoveKey = 1 << 20;
constexpr int kKillerKey = 1 << 16;

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
    void add_history(Move m, int depth) {
        if (!options_.history || best_reply_ || m.is_pass()) return;
        history_[static_cast<std::size_t>(m.from) * kCellNB + m.to] += depth * depth;
    }
    int forward_only(const Ply& ply, int count, int depth) const;
    // The moves of `mover` (the side to move) a node searches, into ply's candidates: all of
    // them, ordered, then cut to the forward ones forward_only keeps. Returns how many.
    int gather_moves(Ply& here, SetId mover, Move tt_move, int depth);
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
    std::vector<int> history_ = std::vector<int>(kCellNB * kCellNB, 0);
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

} // namespace halma::ai::detail
