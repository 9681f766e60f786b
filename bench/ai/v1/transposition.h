// The transposition table: what a search already learnt about a position reached again by
// another move order (frequent here: two marbles moved in either order give the same board).
// One table per search, so a search's result never depends on an earlier one.
#pragma once

#include "engine/types.h"

#include <cstdint>
#include <vector>

namespace halma::v1 {

enum class Bound : std::uint8_t { kNone, kExact, kLower, kUpper };

struct TtEntry {
    std::uint64_t key = 0;
    std::int32_t score = 0;
    engine::Move move = engine::Move::pass();
    std::int8_t depth = -1;
    Bound bound = Bound::kNone;
};

class TranspositionTable {
public:
    // About `entries` slots, rounded down to a power of two.
    explicit TranspositionTable(std::size_t entries) {
        std::size_t size = 1;
        while (size * 2 <= entries) size *= 2;
        table_.resize(size);
        mask_ = size - 1;
    }

    const TtEntry* probe(std::uint64_t key) const {
        const TtEntry& e = table_[key & mask_];
        return e.bound != Bound::kNone && e.key == key ? &e : nullptr;
    }

    // Keeps the deeper result when two positions share a slot, unless the slot is stale.
    void store(std::uint64_t key, int depth, int score, Bound bound, engine::Move move) {
        TtEntry& e = table_[key & mask_];
        if (e.key != key && e.bound != Bound::kNone && e.depth > depth + 2) return;
        e = TtEntry { key, score, move, static_cast<std::int8_t>(depth), bound };
    }

private:
    std::vector<TtEntry> table_;
    std::size_t mask_ = 0;
};

} // namespace halma::v1
