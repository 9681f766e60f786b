// A set of holes as 128 bits (121 used), so whole-board questions are a few word operations.
// Two 64-bit words rather than __int128 because 32-bit Raspberry Pi OS has no __int128.
#pragma once

#include "types.h"

#include <bit>
#include <cstdint>

namespace halma::engine {

struct Bitboard {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;

    static constexpr Bitboard of(Cell c) {
        return c < 64 ? Bitboard { std::uint64_t { 1 } << c, 0 }
                      : Bitboard { 0, std::uint64_t { 1 } << (c - 64) };
    }
    constexpr bool test(Cell c) const { return ((c < 64 ? lo : hi) >> (c & 63)) & 1; }
    constexpr void set(Cell c) { (c < 64 ? lo : hi) |= std::uint64_t { 1 } << (c & 63); }
    constexpr void reset(Cell c) { (c < 64 ? lo : hi) &= ~(std::uint64_t { 1 } << (c & 63)); }
    constexpr bool empty() const { return (lo | hi) == 0; }
    constexpr explicit operator bool() const { return !empty(); }
    constexpr int count() const { return std::popcount(lo) + std::popcount(hi); }

    // Lowest hole in the set; the set must not be empty.
    constexpr Cell first() const {
        return lo ? static_cast<Cell>(std::countr_zero(lo))
                  : static_cast<Cell>(64 + std::countr_zero(hi));
    }
    // Highest hole in the set; the set must not be empty.
    constexpr Cell last() const {
        return hi ? static_cast<Cell>(127 - std::countl_zero(hi))
                  : static_cast<Cell>(63 - std::countl_zero(lo));
    }
    constexpr Cell pop_last() {
        Cell c = last();
        reset(c);
        return c;
    }
    constexpr Cell pop_first() {
        Cell c = first();
        if (lo)
            lo &= lo - 1;
        else
            hi &= hi - 1;
        return c;
    }

    friend constexpr Bitboard operator&(Bitboard a, Bitboard b) {
        return { a.lo & b.lo, a.hi & b.hi };
    }
    friend constexpr Bitboard operator|(Bitboard a, Bitboard b) {
        return { a.lo | b.lo, a.hi | b.hi };
    }
    friend constexpr Bitboard operator^(Bitboard a, Bitboard b) {
        return { a.lo ^ b.lo, a.hi ^ b.hi };
    }
    constexpr Bitboard operator~() const { return { ~lo, ~hi }; }
    constexpr Bitboard& operator&=(Bitboard b) { return *this = *this & b; }
    constexpr Bitboard& operator|=(Bitboard b) { return *this = *this | b; }
    constexpr Bitboard& operator^=(Bitboard b) { return *this = *this ^ b; }
    friend constexpr bool operator==(Bitboard, Bitboard) = default;
};

// Every one of the 121 holes.
inline constexpr Bitboard kAllCells { ~std::uint64_t { 0 },
    (std::uint64_t { 1 } << (kCellNB - 64)) - 1 };

} // namespace halma::engine
