// Move generation speed: perft(6) from the 2-player start (rest=any; 87,946,884 leaves,
// 3,309,091 positions generated), the engine beside the plain generator of
// shared/reference/perft.md, both timed in this run. Each is run a few times and the best run
// reported: the machine is shared and noisy, and the best run is the least disturbed.
#include "engine/perft.h"
#include "engine/position.h"
#include "plain_perft.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace halma::engine;

namespace {

template <class F> double best_seconds(int runs, F&& run) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        run();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    int depth = argc > 1 ? std::atoi(argv[1]) : 6;
    int runs = argc > 2 ? std::atoi(argv[2]) : 5;
    Rules rules = *Rules::parse("rest=any");
    Position start = Position::start(mask_of(0) | mask_of(3), 0);

    PerftResult engine;
    double engine_s = best_seconds(runs, [&] { engine = perft(start, rules, depth); });
    halma::bench::PlainPerft plain;
    double plain_s = best_seconds(runs, [&] { plain = halma::bench::plain_perft(depth); });

    auto rate = [](std::uint64_t n, double s) { return static_cast<double>(n) / s / 1e6; };
    std::printf(
        "perft(%d) from the 2-player start, rest=any, one thread, best of %d runs\n", depth, runs);
    std::printf(
        "  engine   %12llu leaves  %10llu positions generated  %7.3f s  %6.2f M generations/s\n",
        static_cast<unsigned long long>(engine.leaves),
        static_cast<unsigned long long>(engine.generated), engine_s,
        rate(engine.generated, engine_s));
    std::printf(
        "  baseline %12llu leaves  %10llu positions generated  %7.3f s  %6.2f M generations/s"
        "  (plain byte-array generator)\n",
        static_cast<unsigned long long>(plain.leaves),
        static_cast<unsigned long long>(plain.generated), plain_s, rate(plain.generated, plain_s));
    std::printf("  engine / baseline: %.2fx; target: 10 M generations/s (about 2x the plain "
                "generator's 5 M "
                "on a quiet machine of this kind)\n",
        rate(engine.generated, engine_s) / rate(plain.generated, plain_s));
    if (engine.leaves != plain.leaves) {
        std::printf("  MISMATCH: the two generators disagree\n");
        return 1;
    }
    return 0;
}
