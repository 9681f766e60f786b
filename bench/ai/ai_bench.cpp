// The AI benchmarks of issue 4, each figure printed beside a baseline measured in the same run:
//   versus [games] [budget]     hard against easy, 2 players, first move alternating
//                               (baseline: the greedy bot against the same easy bot)
//   solitaire [budget]          one set crossing alone: moves needed (baselines: greedy, easy;
//                               optimum 27)
//   timing [games] [budget]     hard bot time per move, p50 / p95 (baselines: greedy, easy)
//   six [games] [budget]        six-player bot games: all finish? moves per game (baseline: easy)
// and the matches of issue 14 (match.h, seats.h):
//   match A B [--games N] ...   two players from seeded openings, both sides: won/lost/drawn
//   seats A,B,C... [--games N]  3 to 6 players, seats rotated: wins per seat position
#include "bot_players.h"
#include "engine/ai/evaluation.h"
#include "engine/ai/zobrist.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "match.h"
#include "seats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace halma;
using namespace halma::engine;
using bench::Player;

namespace {

int arg_or(int argc, char** argv, int i, int fallback) {
    return argc > i ? std::atoi(argv[i]) : fallback;
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

GameSetup two_player() {
    return *GameSetup::make(2, 1, Rules {});
}

struct Tally {
    int wins = 0, ties = 0, losses = 0, unfinished = 0;
    long moves = 0;
    std::vector<double> think_ms;
};

// Seat 0 is `a`, seat 1 the easy bot; game g starts with seat g % 2.
Tally match(Player a, int games, int budget) {
    Tally t;
    for (int g = 0; g < games; ++g) {
        a.seed = static_cast<std::uint64_t>(g) + 1;
        a.budget_ms = budget;
        Player easy { Player::kEasy, budget, static_cast<std::uint64_t>(g) + 1001 };
        SetId first = g % 2 == 0 ? 0 : 3;
        auto r = bench::play_game(two_player(), first, { a, easy });
        int place_a = 0, place_b = 0;
        for (const auto& s : r.standings) (s.player == 0 ? place_a : place_b) = s.place;
        if (!r.finished) ++t.unfinished;
        if (place_a < place_b)
            ++t.wins;
        else if (place_a == place_b)
            ++t.ties;
        else
            ++t.losses;
        t.moves += r.moves;
        t.think_ms.insert(t.think_ms.end(), r.think_ms.begin(), r.think_ms.end());
        if ((g + 1) % 20 == 0) std::fprintf(stderr, "  %s: %d/%d games\n", a.name(), g + 1, games);
    }
    return t;
}

void print_tally(const char* name, const Tally& t, int games) {
    std::printf(
        "  %-14s wins %3d  ties %3d  losses %3d  (%.1f%% won), unfinished %d, %.1f moves/game\n",
        name, t.wins, t.ties, t.losses, 100.0 * t.wins / games, t.unfinished,
        static_cast<double>(t.moves) / games);
}

int versus(int games, int budget) {
    std::printf("hard vs easy: %d two-player games, first move alternating, hard budget %d ms\n",
        games, budget);
    auto t0 = std::chrono::steady_clock::now();
    Tally hard = match(Player { Player::kHard }, games, budget);
    double hard_s = seconds_since(t0);
    Tally greedy = match(Player { Player::kGreedy }, games, budget);
    print_tally("hard vs easy", hard, games);
    print_tally("greedy vs easy", greedy, games);
    std::printf(
        "  hard time per move: p50 %.1f ms, p95 %.1f ms, max %.1f ms (%zu moves, %.0f s in all)\n",
        percentile(hard.think_ms, 0.5), percentile(hard.think_ms, 0.95),
        percentile(hard.think_ms, 1.0), hard.think_ms.size(), hard_s);
    return 0;
}

// One set alone on the board, moved by `p` until it is home (at most 200 moves).
int solitaire_moves(Player p, const Rules& rules) {
    Position pos = Position::start(mask_of(0), 0);
    ai::Seating seating = ai::Seating::one_per_set(pos.sets_present());
    std::vector<std::uint64_t> earlier;
    int moves = 0;
    while (!ai::home_complete(pos, rules, 0) && moves < 200) {
        Move m;
        if (p.kind == Player::kGreedy) {
            m = bench::greedy_move(pos, rules, p.seed + static_cast<std::uint64_t>(moves));
        } else {
            ai::BotSettings settings { p.kind == Player::kEasy ? ai::Level::kEasy
                                                               : ai::Level::kHard,
                p.budget_ms, p.seed + static_cast<std::uint64_t>(moves) };
            m = ai::think(pos, rules, seating, settings, earlier).move;
        }
        earlier.push_back(ai::board_key(pos) ^ ai::zobrist().to_move[0]);
        std::sort(earlier.begin(), earlier.end());
        pos.make(m);
        ++moves;
    }
    return moves;
}

int solitaire(int budget) {
    std::printf("solitaire: one set crossing alone (rules: defaults); proven optimum 27 moves\n");
    for (const char* text : { "", "jumps=long" }) {
        Rules rules = *Rules::parse(text);
        std::printf(" rules '%s'\n", text);
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            auto t0 = std::chrono::steady_clock::now();
            int hard = solitaire_moves(Player { Player::kHard, budget, seed }, rules);
            std::printf("  seed %llu: hard (%d ms) %d moves in %.1f s\n",
                static_cast<unsigned long long>(seed), budget, hard, seconds_since(t0));
        }
        std::vector<int> greedy;
        for (std::uint64_t seed = 1; seed <= 10; ++seed)
            greedy.push_back(solitaire_moves(Player { Player::kGreedy, budget, seed }, rules));
        std::sort(greedy.begin(), greedy.end());
        std::printf("  baseline greedy (10 seeds): median %d, best %d, worst %d moves\n", greedy[5],
            greedy[0], greedy[9]);
        std::vector<int> easy;
        for (std::uint64_t seed = 1; seed <= 10; ++seed)
            easy.push_back(solitaire_moves(Player { Player::kEasy, budget, seed }, rules));
        std::sort(easy.begin(), easy.end());
        std::printf("  baseline easy (10 seeds): median %d, best %d, worst %d moves\n", easy[5],
            easy[0], easy[9]);
    }
    return 0;
}

int timing(int games, int budget) {
    std::printf("time per move: %d hard-vs-hard two-player games and %d six-player hard games, "
                "budget %d ms\n",
        games, std::max(1, games / 5), budget);
    std::vector<double> two, six, greedy_ms, easy_ms;
    for (int g = 0; g < games; ++g) {
        Player a { Player::kHard, budget, static_cast<std::uint64_t>(2 * g + 1) };
        Player b { Player::kHard, budget, static_cast<std::uint64_t>(2 * g + 2) };
        auto r = bench::play_game(two_player(), g % 2 ? 3 : 0, { a, b });
        two.insert(two.end(), r.think_ms.begin(), r.think_ms.end());
    }
    for (int g = 0; g < std::max(1, games / 5); ++g) {
        std::vector<Player> six_hard;
        for (int p = 0; p < 6; ++p)
            six_hard.push_back(
                Player { Player::kHard, budget, static_cast<std::uint64_t>(10 * g + p) });
        auto r = bench::play_game(*GameSetup::make(6, 1, Rules {}), 0, six_hard);
        six.insert(six.end(), r.think_ms.begin(), r.think_ms.end());
    }
    // Baselines: the same kind of positions, for the bots that do not search.
    for (int g = 0; g < games; ++g) {
        Game game(two_player(), 0);
        while (!game.over()) {
            auto t0 = std::chrono::steady_clock::now();
            Move m = bench::greedy_move(game, static_cast<std::uint64_t>(g));
            greedy_ms.push_back(seconds_since(t0) * 1000);
            t0 = std::chrono::steady_clock::now();
            ai::choose_move(
                game, ai::BotSettings { ai::Level::kEasy, budget, static_cast<std::uint64_t>(g) });
            easy_ms.push_back(seconds_since(t0) * 1000);
            (void)game.play(m);
        }
    }
    auto line = [](const char* name, const std::vector<double>& v) {
        std::printf("  %-22s p50 %7.2f ms  p95 %7.2f ms  max %7.2f ms  (%zu moves)\n", name,
            percentile(v, 0.5), percentile(v, 0.95), percentile(v, 1.0), v.size());
    };
    line("hard, 2 players", two);
    line("hard, 6 players", six);
    std::vector<double> all = two;
    all.insert(all.end(), six.begin(), six.end());
    line("hard, all", all);
    line("baseline greedy", greedy_ms);
    line("baseline easy", easy_ms);
    return 0;
}

int six_player(int games, int budget) {
    std::printf(
        "six-player games: %d games of six hard bots (budget %d ms); baseline: six easy bots\n",
        games, budget);
    GameSetup setup = *GameSetup::make(6, 1, Rules {});
    for (int kind = 0; kind < 2; ++kind) {
        int finished = 0;
        std::vector<double> moves;
        auto t0 = std::chrono::steady_clock::now();
        for (int g = 0; g < games; ++g) {
            std::vector<Player> players;
            for (int p = 0; p < 6; ++p)
                players.push_back(Player { kind == 0 ? Player::kHard : Player::kEasy, budget,
                    static_cast<std::uint64_t>(100 * g + p + 1) });
            auto r = bench::play_game(setup, static_cast<SetId>(g % 6), players);
            finished += r.finished;
            moves.push_back(static_cast<double>(r.moves));
            if (kind == 0 && (g + 1) % 10 == 0)
                std::fprintf(stderr, "  six: %d/%d games\n", g + 1, games);
        }
        double sum = 0;
        for (double m : moves) sum += m;
        std::printf("  %-5s bots: %d/%d games finished, moves per game: mean %.1f, min %.0f, "
                    "median %.0f, max %.0f"
                    " (%.0f s)\n",
            kind == 0 ? "hard" : "easy", finished, games, sum / games, percentile(moves, 0),
            percentile(moves, 0.5), percentile(moves, 1), seconds_since(t0));
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    int budget_default = ai::BotSettings {}.budget_ms;
    if (mode == "match") return bench::run_match(argc, argv);
    if (mode == "seats") return bench::run_seats(argc, argv);
    if (mode == "versus")
        return versus(arg_or(argc, argv, 2, 200), arg_or(argc, argv, 3, budget_default));
    if (mode == "solitaire") return solitaire(arg_or(argc, argv, 2, budget_default));
    if (mode == "timing")
        return timing(arg_or(argc, argv, 2, 10), arg_or(argc, argv, 3, budget_default));
    if (mode == "six") return six_player(arg_or(argc, argv, 2, 100), arg_or(argc, argv, 3, 10));
    std::fprintf(stderr,
        "usage: bench_ai match A B [--games N] ... | seats A,B,C... [--games N] | versus [games] "
        "[budget_ms] | solitaire "
        "[budget_ms] | timing [games] "
        "[budget_ms]"
        " | six [games] [budget_ms]\n");
    return 2;
}
