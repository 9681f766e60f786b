// Core value types of the rules engine: holes, sets of marbles, moves.
// Kept tiny and dependency-free so every other engine file (and the daemon) can include it.
#pragma once

#include <cstdint>

namespace halma::engine {

// A hole of the 121-hole star, numbered row-major from a1 (0) to q1 (120).
using Cell = std::uint8_t;
inline constexpr int kCellNB = 121;
inline constexpr Cell kNoCell = 255;

// A set of ten marbles, named by the triangle it starts in: triangle 1 (bottom) is set 0 here,
// triangles then run clockwise: 2 lower left, 3 upper left, 4 top, 5 upper right, 6 lower right.
using SetId = std::uint8_t;
inline constexpr int kSetNB = 6;
inline constexpr int kMarblesPerSet = 10;
inline constexpr SetId kNoSet = 255;

// The triangle a set must reach: the one opposite its start.
constexpr SetId home_of(SetId s) {
    return static_cast<SetId>((s + 3) % kSetNB);
}

// What a hole holds. Fixed marbles fill unused triangles in some variants and never move.
enum Piece : std::uint8_t { kEmpty = 0, kSet1 = 1, kFixed = 7 };
constexpr Piece piece_of(SetId s) {
    return static_cast<Piece>(s + 1);
}
constexpr SetId set_of(std::uint8_t piece) {
    return static_cast<SetId>(piece - 1);
}

// A move takes the marble on `from` to `to`. A swap move (anti-spoiling) exchanges it with the
// opponent's marble on `to`; a pass is the forfeit of a player who has no legal move.
// No default member initialisers: a MoveList holds 1210 of them and must cost nothing to create.
struct alignas(4) Move { // four bytes: a list entry is one store
    enum Kind : std::uint8_t { kNormal, kSwap, kPass };
    Cell from;
    Cell to;
    Kind kind;

    static constexpr Move pass() { return Move { kNoCell, kNoCell, kPass }; }
    constexpr bool is_pass() const { return kind == kPass; }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};

} // namespace halma::engine
