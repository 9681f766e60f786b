// Legal moves of a position under a set of rules: generation into a caller-owned list (nothing
// allocated), the release rule, the hop path a move takes, and why a move is illegal.
#pragma once

#include "position.h"
#include "result.h"
#include "rules.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace halma::engine {

// Every marble could in principle reach every hole.
inline constexpr int kMaxMoves = kMarblesPerSet * kCellNB;

struct MoveList {
    std::array<Move, kMaxMoves> moves;
    int size = 0;

    void push(Move m) { moves[static_cast<std::size_t>(size++)] = m; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + size; }
    bool contains(Move m) const;
};

// Holes where a marble of set s may come to rest under these rules (hops pass anywhere).
Bitboard resting_cells(const Rules& rules, SetMask sets_present, SetId s);

// The legal moves of the side to move. A side with no legal move gets the single move
// Move::pass(): the forfeit counts as a move.
void generate_moves(const Position& pos, const Rules& rules, MoveList& list);

// The number of moves generate_moves() would list, found without listing them (perft's last
// ply counts moves this way).
int count_moves(const Position& pos, const Rules& rules);

// The moves set s could make here if it were its turn, ignoring the release rule.
void generate_set_moves(const Position& pos, const Rules& rules, SetId s, MoveList& list);

// The release rule: if the side to move must free the home of the set opposite it, that set.
std::optional<SetId> release_owed(const Position& pos, const Rules& rules);

// Why a move of the side to move is illegal, in words a player understands; nullopt if legal.
// A move to an opponent's marble in the mover's home is taken as a swap where spoil=swap.
std::optional<Error> explain_illegal(const Position& pos, const Rules& rules, Move m);

// The legal move from `from` to `to`, choosing a swap where that is what it must be.
Result<Move> legal_move(const Position& pos, const Rules& rules, Cell from, Cell to);

// A legal move given as its full path (from, every landing, to), checked hop by hop.
Result<Move> legal_move_along(
    const Position& pos, const Rules& rules, const std::vector<Cell>& path);

// The holes a legal move passes through, from its origin to its destination, for a front end
// to animate: a step is two holes, a hop chain every landing (the shortest chain if several).
std::vector<Cell> move_path(const Position& pos, const Rules& rules, Move m);

} // namespace halma::engine
