// Move generation speed: perft(6) from the 2-player start (rest=any, release=off: the rules the
// plain generator plays, so both do the same work; 87,946,884 leaves,
// 3,309,091 positions generated), the engine beside the plain generator of
// shared/reference/perft.md, both timed in this run. Each is run a few times and the best run
// reported: the machine is shared and noisy, and the best run is the least disturbed.
#include "engine/movegen.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "plain_perft.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace halma::engine;

namespace {

// perft as the engine runs it (a list per position, walked with Position::replace), but with
// the last ply's moves listed rather than counted: shows what bulk counting is worth.
void perft_listing(Position& pos, const Rules& rules, int depth, PerftResult& result) {
    MoveList list;
    generate_moves(pos, rules, list);
    ++result.generated;
    if (depth == 1) {
        result.leaves += static_cast<std::uint64_t>(list.size);
        return;
    }
    SetId mover = pos.side_to_move();
    const Move* played = nullptr;
    for (const Move& m : list) {
        if (played)
            pos.replace(*played, m, mover);
        else
            pos.make(m);
        perft_listing(pos, rules, depth - 1, result);
        played = &m;
    }
    pos.unmake(*played, mover);
}

template <class F> double seconds(F&& run) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
    int depth = argc > 1 ? std::atoi(argv[1]) : 6;
    int runs = std::max(1, argc > 2 ? std::atoi(argv[2]) : 5);
    // The plain generator knows no release rule; with it on, the engine would also check it at
    // every node (about 6% of its time) for the same counts.
    Rules rules = *Rules::parse("rest=any,release=off");
    Position start = Position::start(mask_of(0) | mask_of(3), 0);

    PerftResult engine, listing;
    halma::bench::PlainPerft plain;
    double engine_s = 1e300, listing_s = 1e300, plain_s = 1e300;
    std::vector<double> round_ratios; // listing against baseline, each round's own pair
    for (int r = 0; r < runs; ++r) {
        engine_s = std::min(engine_s, seconds([&] { engine = perft(start, rules, depth); }));
        double l = seconds([&] {
            listing = {};
            Position pos = start;
            perft_listing(pos, rules, depth, listing);
        });
        double p = seconds([&] { plain = halma::bench::plain_perft(depth); });
        listing_s = std::min(listing_s, l);
        plain_s = std::min(plain_s, p);
        round_ratios.push_back(p / l);
    }
    std::sort(round_ratios.begin(), round_ratios.end());

    auto rate = [](std::uint64_t n, double s) { return static_cast<double>(n) / s / 1e6; };
    std::printf(
        "perft(%d) from the 2-player start, rest=any, release=off, one thread, best of %d runs\n",
        depth, runs);
    auto row = [&](const char* name, std::uint64_t leaves, std::uint64_t generated, double secs,
                   const char* what) {
        std::printf("  %-8s %12llu leaves  %10llu positions generated  %7.3f s  %6.2f M "
                    "generations/s  (%s)\n",
            name, static_cast<unsigned long long>(leaves),
            static_cast<unsigned long long>(generated), secs, rate(generated, secs), what);
    };
    row("engine", engine.leaves, engine.generated, engine_s,
        "last ply counted from each marble's destination set");
    row("listing", listing.leaves, listing.generated, listing_s,
        "engine, every move of the last ply listed");
    row("baseline", plain.leaves, plain.generated, plain_s,
        "plain byte-array generator, moves listed");
    // Like for like first: both list every move of every ply. Bulk counting of the last ply is
    // a trick the plain generator does not play, so it is reported apart, not as the headline.
    std::printf("  listing / baseline: %.2fx, like for like (every move listed by both); goal: "
                "at least 2x\n",
        rate(listing.generated, listing_s) / rate(plain.generated, plain_s));
    std::printf("  listing / baseline, round by round: %.2fx to %.2fx, median %.2fx\n",
        round_ratios.front(), round_ratios.back(), round_ratios[round_ratios.size() / 2]);
    std::printf("  engine / baseline:  %.2fx, with the last ply counted instead of listed\n",
        rate(engine.generated, engine_s) / rate(plain.generated, plain_s));
    if (engine.leaves != plain.leaves || listing.leaves != plain.leaves) {
        std::printf("  MISMATCH: the two generators disagree\n");
        return 1;
    }
    return 0;
}
