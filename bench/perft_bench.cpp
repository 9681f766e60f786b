// Move generation speed: perft(6) from the 2-player start (rest=any), the engine's generator
// beside the plain reference generator (tests/support) timed in the same run.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "engine/movegen.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "support/reference_movegen.h"

using namespace halma::engine;

namespace {

struct Count {
    std::uint64_t leaves = 0, generated = 0;
};

void reference_perft(Position& pos, const Rules& rules, int depth, Count& count) {
    auto moves = halma::reference::legal_moves(pos, rules);
    ++count.generated;
    if (depth == 1) {
        count.leaves += moves.size();
        return;
    }
    SetId mover = pos.side_to_move();
    for (Move m : moves) {
        pos.make(m);
        reference_perft(pos, rules, depth - 1, count);
        pos.unmake(m, mover);
    }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
    int depth = argc > 1 ? std::atoi(argv[1]) : 6;
    int baseline_depth = argc > 2 ? std::atoi(argv[2]) : 4;
    Rules rules = *Rules::parse("rest=any");
    Position start = Position::start(mask_of(0) | mask_of(3), 0);

    std::printf("perft(%d), 2-player start, rest=any, one thread\n", depth);
    auto t0 = std::chrono::steady_clock::now();
    auto fast = perft(start, rules, depth);
    double fast_s = seconds_since(t0);
    std::printf("  engine     : %llu leaves, %llu positions generated in %.3f s = %.2f M generations/s\n",
        static_cast<unsigned long long>(fast.leaves), static_cast<unsigned long long>(fast.generated), fast_s,
        static_cast<double>(fast.generated) / fast_s / 1e6);

    // The reference generator is two orders slower: time it on a shallower perft.
    Count ref;
    Position pos = start;
    t0 = std::chrono::steady_clock::now();
    reference_perft(pos, rules, baseline_depth, ref);
    double ref_s = seconds_since(t0);
    std::printf("  baseline   : plain reference generator, perft(%d): %llu positions in %.3f s = %.3f M generations/s\n",
        baseline_depth, static_cast<unsigned long long>(ref.generated), ref_s,
        static_cast<double>(ref.generated) / ref_s / 1e6);
    std::printf("  target     : 10 M generations/s (perft(6) in about 0.33 s)\n");
    std::printf("  speed-up   : %.1fx over the baseline\n",
        (static_cast<double>(fast.generated) / fast_s) / (static_cast<double>(ref.generated) / ref_s));
    return fast.leaves == 87946884 || depth != 6 ? 0 : 1;
}
