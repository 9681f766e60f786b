#include "zobrist.h"

#include "rng.h"

namespace halma::ai {

using namespace halma::engine;

namespace {

ZobristKeys build_keys() {
    ZobristKeys keys;
    Rng rng(0x68616c6d61ULL); // fixed: keys must be the same in every run
    for (auto& per_piece : keys.piece)
        for (auto& k : per_piece) k = rng.next();
    for (auto& k : keys.to_move) k = rng.next();
    keys.reply_node = rng.next();
    return keys;
}

} // namespace

const ZobristKeys& zobrist() {
    static const ZobristKeys keys = build_keys();
    return keys;
}

std::uint64_t board_key(const Position& pos) {
    const auto& z = zobrist();
    std::uint64_t key = 0;
    for (Cell c = 0; c < kCellNB; ++c)
        if (Piece p = pos.at(c); p != kEmpty) key ^= z.piece[p][c];
    return key;
}

std::uint64_t move_key(const Position& pos, Move m) {
    if (m.is_pass()) return 0;
    const auto& z = zobrist();
    Piece mover = pos.at(m.from);
    std::uint64_t key = z.piece[mover][m.from] ^ z.piece[mover][m.to];
    if (m.kind == Move::kSwap) {
        Piece other = pos.at(m.to);
        key ^= z.piece[other][m.to] ^ z.piece[other][m.from];
    }
    return key;
}

} // namespace halma::ai
