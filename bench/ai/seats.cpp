#include "seats.h"

#include "match_player.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace halma::bench {

using namespace halma::engine;

namespace {

double thread_cpu_ms() {
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1000.0 + static_cast<double>(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(
        v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
}

} // namespace

int run_seats(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_ai seats A,B,C[,...] [--games N] [--seed S]\n");
        return 2;
    }
    std::vector<std::string> specs;
    std::string list = argv[2];
    for (std::size_t start = 0; start <= list.size();) {
        std::size_t comma = list.find(',', start);
        if (comma == std::string::npos) comma = list.size();
        specs.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    int games = 12;
    std::uint64_t seed = 1;
    for (int i = 3; i + 1 < argc; i += 2) {
        std::string arg = argv[i];
        if (arg == "--games")
            games = std::max(1, std::atoi(argv[i + 1]));
        else if (arg == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
    }
    int n = static_cast<int>(specs.size());
    auto setup = GameSetup::make(n, 1, Rules {});
    if (!setup) {
        std::fprintf(stderr, "bench_ai: %d players: %s\n", n, setup.error().message.c_str());
        return 2;
    }
    std::vector<std::unique_ptr<MatchPlayer>> players;
    for (const auto& spec : specs) {
        auto p = MatchPlayer::parse(spec);
        if (!p) {
            std::fprintf(stderr, "bench_ai: %s\n", p.error().message.c_str());
            return 2;
        }
        players.push_back(std::move(*p));
    }
    std::printf("seats: %d games of %d players (%s), seats rotated each game, seed %llu\n", games,
        n, list.c_str(), static_cast<unsigned long long>(seed));
    std::fflush(stdout);

    std::vector<int> wins(static_cast<std::size_t>(n)), place_sum(static_cast<std::size_t>(n));
    std::vector<int> first_wins_by_seat(static_cast<std::size_t>(n)),
        first_games_by_seat(static_cast<std::size_t>(n));
    std::vector<double> first_cpu_ms; // CPU per move of the first player
    int finished = 0, failed = 0;
    long moves = 0;
    for (int g = 0; g < games; ++g) {
        // Seat s (0 moves first) holds player (s + g) % n.
        auto who = [&](int seat) { return (seat + g) % n; };
        Game game(*setup, 0);
        bool broke = false;
        while (!game.over()) {
            int seat = game.player_to_move();
            double cpu0 = thread_cpu_ms();
            auto played = players[static_cast<std::size_t>(who(seat))]->play(game,
                seed * 1'000'003 + static_cast<std::uint64_t>(g) * 7919 + game.history().size());
            if (who(seat) == 0) first_cpu_ms.push_back(thread_cpu_ms() - cpu0);
            if (!played) {
                std::fprintf(stderr, "  game %d: %s failed: %s\n", g + 1,
                    specs[static_cast<std::size_t>(who(seat))].c_str(),
                    played.error().message.c_str());
                broke = true;
                break;
            }
        }
        moves += static_cast<long>(game.history().size());
        if (broke) {
            ++failed;
            continue;
        }
        bool ended_well = game.end() == GameEnd::kAllHome || game.end() == GameEnd::kPlacesDecided;
        finished += ended_well;
        int first_seat = (n - g % n) % n; // the seat player 0 holds this game
        ++first_games_by_seat[static_cast<std::size_t>(first_seat)];
        for (const auto& s : game.standings()) {
            auto p = static_cast<std::size_t>(who(s.player));
            place_sum[p] += s.place;
            if (s.place == 1) {
                ++wins[p];
                if (p == 0) ++first_wins_by_seat[static_cast<std::size_t>(first_seat)];
            }
        }
        std::fprintf(stderr, "  game %d: %zu moves, %s\n", g + 1, game.history().size(),
            ended_well ? "finished" : "ended by the stall or move limit");
    }
    for (int p = 0; p < n; ++p)
        std::printf("  %-10s won %2d of %d (%.0f%%), mean place %.2f\n",
            specs[static_cast<std::size_t>(p)].c_str(), wins[static_cast<std::size_t>(p)], games,
            100.0 * wins[static_cast<std::size_t>(p)] / games,
            static_cast<double>(place_sum[static_cast<std::size_t>(p)]) / games);
    std::printf("  %s by seat position (0 moves first):", specs[0].c_str());
    for (int s = 0; s < n; ++s)
        std::printf(" %d/%d", first_wins_by_seat[static_cast<std::size_t>(s)],
            first_games_by_seat[static_cast<std::size_t>(s)]);
    std::printf("\n  games finished: %d of %d (failed %d), %.0f moves a game\n", finished, games,
        failed, static_cast<double>(moves) / games);
    std::printf("  %s CPU per move: p50 %.1f ms, p95 %.1f ms, max %.1f ms\n", specs[0].c_str(),
        percentile(first_cpu_ms, 0.5), percentile(first_cpu_ms, 0.95),
        percentile(first_cpu_ms, 1.0));
    return 0;
}

} // namespace halma::bench
