#include "perft.h"

#include "movegen.h"

namespace halma::engine {
namespace {

void walk(Position& pos, const Rules& rules, int depth, PerftResult& result) {
    ++result.generated;
    if (depth == 1) {
        result.leaves += static_cast<std::uint64_t>(count_moves(pos, rules));
        return;
    }
    MoveList list;
    generate_moves(pos, rules, list);
    SetId mover = pos.side_to_move();
    // From one move's position straight to the next one's: the list always holds a move.
    const Move* played = nullptr;
    for (const Move& m : list) {
        if (played)
            pos.replace(*played, m, mover);
        else
            pos.make(m);
        walk(pos, rules, depth - 1, result);
        played = &m;
    }
    pos.unmake(*played, mover);
}

} // namespace

PerftResult perft(Position pos, const Rules& rules, int depth) {
    PerftResult result;
    if (depth <= 0) {
        result.leaves = 1;
        return result;
    }
    walk(pos, rules, depth, result);
    return result;
}

} // namespace halma::engine
