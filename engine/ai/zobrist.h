// Position keys for the transposition table and for spotting repeated positions: one random
// word per (piece, hole), combined by xor so a move updates the key in two or four steps.
#pragma once

#include "engine/position.h"
#include "engine/types.h"

#include <array>
#include <cstdint>

namespace halma::ai {

struct ZobristKeys {
    std::array<std::array<std::uint64_t, engine::kCellNB>, 8> piece {};
    std::array<std::uint64_t, engine::kSetNB> to_move {};
    std::uint64_t reply_node = 0; // best-reply search: the opponents are to reply
};
const ZobristKeys& zobrist();

// The key of the board alone (who is to move is added by the caller).
std::uint64_t board_key(const engine::Position& pos);

// How the board key changes when `m` is played on `pos` (before it is played).
std::uint64_t move_key(const engine::Position& pos, engine::Move m);

} // namespace halma::ai
