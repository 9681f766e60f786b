#include "match.h"

#include "engine/ai/bot.h"
#include "match_player.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace halma::bench {

using namespace halma::engine;

namespace {

struct MatchArgs {
    std::string a, b;
    int games = 40;
    int opening = 6;
    std::uint64_t seed = 1;
    std::string rules;
};

bool parse_args(int argc, char** argv, MatchArgs& args) {
    std::vector<std::string> positional;
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        if (arg == "--games" && has_value)
            args.games = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--opening" && has_value)
            args.opening = std::clamp(std::atoi(argv[++i]), 0, 40);
        else if (arg == "--seed" && has_value)
            args.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--rules" && has_value)
            args.rules = argv[++i];
        else if (arg.rfind("--", 0) == 0)
            return false;
        else
            positional.push_back(arg);
    }
    if (positional.size() != 2) return false;
    args.a = positional[0];
    args.b = positional[1];
    return true;
}

// The pair's opening: `plies` moves of the easy bot (random, forward-weighted) from the start.
Result<Game> opening(const GameSetup& setup, int plies, std::uint64_t seed) {
    Game game(setup, 0);
    for (int i = 0; i < plies && !game.over(); ++i) {
        Move m = ai::choose_move(
            game, ai::BotSettings { ai::Level::kEasy, 1, seed * 1000 + static_cast<unsigned>(i) });
        if (auto played = game.play(m); !played) return std::unexpected(played.error());
    }
    return game;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(
        v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
}

// CPU time of this thread: what a move cost, whatever else the machine is doing.
double thread_cpu_ms() {
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1000.0 + static_cast<double>(t.tv_nsec) / 1e6;
}

double elo(double p) {
    p = std::clamp(p, 0.001, 0.999);
    return -400.0 * std::log10(1.0 / p - 1.0);
}

} // namespace

int run_match(int argc, char** argv) {
    MatchArgs args;
    if (!parse_args(argc, argv, args)) {
        std::fprintf(stderr,
            "usage: bench_ai match A B [--games N] [--opening PLIES] [--seed S] "
            "[--rules R]\n  players: hard[:MS] v1[:MS] ab:DEPTH easy greedy "
            "engine:MS:COMMAND weights:S,L,H\n");
        return 2;
    }
    auto rules = Rules::parse(args.rules);
    if (!rules) {
        std::fprintf(stderr, "bench_ai: bad --rules: %s\n", rules.error().message.c_str());
        return 2;
    }
    GameSetup setup = *GameSetup::make(2, 1, *rules);
    auto a = MatchPlayer::parse(args.a);
    auto b = MatchPlayer::parse(args.b);
    for (auto* p : { &a, &b })
        if (!*p) {
            std::fprintf(stderr, "bench_ai: %s\n", p->error().message.c_str());
            return 2;
        }
    std::printf("match: %s vs %s, %d games (pairs from %d-ply seeded openings, seed %llu), "
                "rules '%s'\n",
        args.a.c_str(), args.b.c_str(), args.games, args.opening,
        static_cast<unsigned long long>(args.seed), rules->to_string().c_str());
    std::fflush(stdout);

    int won = 0, lost = 0, drawn = 0, failed = 0, stalled = 0;
    long moves = 0;
    std::vector<double> ms_a, ms_b, cpu_a, cpu_b;
    for (int g = 0; g < args.games; ++g) {
        std::uint64_t pair = args.seed * 100'000 + static_cast<std::uint64_t>(g / 2);
        auto game = opening(setup, args.opening, pair);
        if (!game) {
            std::fprintf(stderr, "bench_ai: opening: %s\n", game.error().message.c_str());
            return 1;
        }
        // Even games: A has set 0 (moves first); odd games: B has it.
        bool a_first = g % 2 == 0;
        int seat_a = a_first ? 0 : 1;
        std::string failure;
        int failed_seat = -1;
        while (!game->over()) {
            int seat = game->player_to_move();
            MatchPlayer& p = seat == seat_a ? **a : **b;
            auto t0 = std::chrono::steady_clock::now();
            double cpu0 = thread_cpu_ms();
            auto played = p.play(*game, pair * 7919 + game->history().size());
            double ms
                = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                      .count();
            (seat == seat_a ? ms_a : ms_b).push_back(ms);
            (seat == seat_a ? cpu_a : cpu_b).push_back(thread_cpu_ms() - cpu0);
            if (!played) {
                failure = p.name() + ": " + played.error().message;
                failed_seat = seat;
                break;
            }
        }
        moves += static_cast<long>(game->history().size());
        char outcome;
        if (failed_seat >= 0) {
            ++failed;
            outcome = failed_seat == seat_a ? 'L' : 'W';
            std::fprintf(stderr, "  game %d: %s loses: %s\n", g + 1,
                failed_seat == seat_a ? args.a.c_str() : args.b.c_str(), failure.c_str());
        } else {
            int place_a = 0, place_b = 0;
            for (const auto& s : game->standings())
                (s.player == seat_a ? place_a : place_b) = s.place;
            outcome = place_a < place_b ? 'W' : place_a > place_b ? 'L' : 'D';
            if (game->end() == GameEnd::kStalled || game->end() == GameEnd::kMoveLimit) ++stalled;
        }
        (outcome == 'W' ? won : outcome == 'L' ? lost : drawn) += 1;
        std::fprintf(stderr, "  game %d (%s first): %c, %zu moves%s\n", g + 1,
            a_first ? args.a.c_str() : args.b.c_str(), outcome, game->history().size(),
            game->end() == GameEnd::kStalled ? " (stalled)" : "");
    }

    int n = args.games;
    double p = (won + 0.5 * drawn) / n;
    constexpr double z = 1.96;
    double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
    std::printf("  %s: won %d, lost %d, drawn %d of %d (score %.1f%%, 95%% interval %.1f%% to "
                "%.1f%%)\n",
        args.a.c_str(), won, lost, drawn, n, 100 * p, 100 * (centre - half), 100 * (centre + half));
    std::printf("  Elo difference %+.0f (95%%: %+.0f to %+.0f)\n", elo(p), elo(centre - half),
        elo(centre + half));
    std::printf("  %.1f moves a game; ended by the stall or move limit: %d; lost by failing: %d\n",
        static_cast<double>(moves) / n, stalled, failed);
    std::printf("  time per move: %s p50 %.1f ms p95 %.1f ms; %s p50 %.1f ms p95 %.1f ms\n",
        args.a.c_str(), percentile(ms_a, 0.5), percentile(ms_a, 0.95), args.b.c_str(),
        percentile(ms_b, 0.5), percentile(ms_b, 0.95));
    // An engine in another process thinks on its own CPU: this thread only waits for it.
    std::printf("  CPU per move (this process): %s p50 %.1f ms p95 %.1f ms; %s p50 %.1f ms p95 "
                "%.1f ms\n",
        args.a.c_str(), percentile(cpu_a, 0.5), percentile(cpu_a, 0.95), args.b.c_str(),
        percentile(cpu_b, 0.5), percentile(cpu_b, 0.95));
    return 0;
}

} // namespace halma::bench
