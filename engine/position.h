// A position: which marble is in each hole, and which set moves next.
// Kept both as a byte per hole (to answer "what is here") and as bitboards (to answer
// "which holes are empty" in one operation); make/unmake keep the two in step.
#pragma once

#include "bitboard.h"
#include "result.h"
#include "types.h"

#include <array>
#include <string>
#include <string_view>

namespace halma::engine {

// A bitmask of sets: bit s for set s.
using SetMask = std::uint8_t;
constexpr SetMask mask_of(SetId s) {
    return static_cast<SetMask>(1u << s);
}
constexpr bool has_set(SetMask m, SetId s) {
    return (m >> s) & 1u;
}

class Position {
public:
    // The empty board; use the factories below for a playable position.
    Position();

    // The start position with the given sets in their start triangles, `first` to move.
    // With `fill_unused`, every triangle that is neither a start nor a home of those sets is
    // filled with fixed marbles.
    static Position start(SetMask sets, SetId first, bool fill_unused = false);

    // Position notation (docs/notation.md): 17 rows joined by '/', then a space and the set
    // to move, e.g. "4/44/444/4444/.../1111/111/11/1 1".
    static Result<Position> parse(std::string_view text);
    std::string to_string() const;

    Piece at(Cell c) const { return static_cast<Piece>(board_[c]); }
    // The Piece in every hole, for code that scans the whole board.
    const std::array<std::uint8_t, kCellNB>& pieces() const { return board_; }

    // The holes a short hop from c over a neighbouring marble would land on, whether empty or
    // not. Kept up to date by make/unmake: with the empty holes, all the hop search needs to know
    // of c's neighbourhood, in one load instead of twelve.
    Bitboard hops_over_marbles(Cell c) const {
        return Bitboard { hops_over_words_[2 * c], hops_over_words_[2 * c + 1] };
    }
    Bitboard occupied() const { return occupied_; }
    Bitboard marbles(SetId s) const { return by_set_[s]; }
    SetId side_to_move() const { return side_to_move_; }
    Bitboard fixed_marbles() const;

    // Sets that have marbles on the board (fixed marbles belong to no set).
    SetMask sets_present() const { return present_; }
    // Sets that take turns: those present, less any the game has retired (finished).
    SetMask sets_in_turn() const { return in_turn_; }
    void retire(SetId s);
    // The set that moves after s: the next one clockwise that is still taking turns.
    SetId next_in_turn(SetId s) const { return next_[s]; }
    void set_side_to_move(SetId s) { side_to_move_ = s; }

    // Plays a move of the side to move (which the caller has checked is legal) and passes the
    // turn on. unmake() takes it back, given the same move and the set that made it.
    void make(Move m);
    void unmake(Move m, SetId mover);
    // unmake(played, mover) then make(next), for a loop over the moves of one position. A list
    // gives each marble's moves together, so mostly both move the same marble: it then goes
    // straight from one destination to the other, half the work of the pair.
    void replace(Move played, Move next, SetId mover);

    friend bool operator==(const Position& a, const Position& b) {
        return a.board_ == b.board_ && a.side_to_move_ == b.side_to_move_
            && a.in_turn_ == b.in_turn_;
    }

private:
    void put(Cell c, Piece p);
    void lift(Cell c);
    void move_marble(Cell from, Cell to);
    void flip_hops_over(Cell c);

    std::array<std::uint8_t, kCellNB> board_ {};
    // hops_over_marbles() of each hole; index kOffBoard is a sink for updates that fall off the
    // board. (Whether a landing is empty is not kept: that is one AND with the empty holes, and
    // keeping it doubled the cost of every move made.)
    // Kept as words, lo then hi, so a move flips each landing with one 64-bit XOR.
    std::array<std::uint64_t, 2 * (kCellNB + 1)> hops_over_words_ {};
    std::array<Bitboard, kSetNB> by_set_ {};
    Bitboard occupied_ {};
    SetId side_to_move_ = 0;
    SetMask present_ = 0;
    SetMask in_turn_ = 0;
    std::array<SetId, kSetNB> next_ {}; // next_in_turn, cached: make() asks it every move
    void update_turn_order();
};

// Triangles that no present set starts in or is heading for.
SetMask unused_triangles(SetMask sets_present);

} // namespace halma::engine
