#include "bot_players.h"

#include "engine/ai/rng.h"
#include "engine/ai/zobrist.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace halma::bench {

using namespace halma::engine;

Move greedy_move(const Position& pos, const Rules& rules, std::uint64_t seed) {
    MoveList list;
    generate_moves(pos, rules, list);
    SetId s = pos.side_to_move();
    ai::Rng rng(seed ^ ai::board_key(pos));
    Move best = list.moves[0];
    int best_gain = -1000, ties = 0;
    for (Move m : list) {
        int gain = m.is_pass() ? 0 : distance_to_home(s, m.from) - distance_to_home(s, m.to);
        if (gain > best_gain) {
            best_gain = gain, best = m, ties = 1;
        } else if (gain == best_gain && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
            best = m;
        }
    }
    return best;
}

GameRecord play_game(const GameSetup& setup, SetId first, const std::vector<Player>& players) {
    Game game(setup, first);
    GameRecord record;
    record.moves_by_player.assign(static_cast<std::size_t>(setup.players), 0);
    while (!game.over()) {
        const Player& p = players[static_cast<std::size_t>(game.player_to_move())];
        auto t0 = std::chrono::steady_clock::now();
        Move m;
        if (p.kind == Player::kGreedy) {
            m = greedy_move(game, p.seed);
        } else {
            ai::BotSettings settings { p.kind == Player::kEasy ? ai::Level::kEasy
                                                               : ai::Level::kHard,
                p.budget_ms, p.seed + game.history().size() };
            m = ai::choose_move(game, settings);
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
        if (p.kind == Player::kHard) record.think_ms.push_back(ms);
        ++record.moves_by_player[static_cast<std::size_t>(game.player_to_move())];
        auto played = game.play(m);
        if (!played) {
            std::fprintf(stderr, "bench: a %s bot chose an illegal move %s: %s\n", p.name(),
                move_name(m).c_str(), played.error().message.c_str());
            std::abort();
        }
        ++record.moves;
    }
    record.standings = game.standings();
    // The game stops once one player is left (play_all_places): finishing means everyone but
    // at most one got home before the move limit.
    int home = 0;
    for (const auto& s : record.standings) home += s.finished;
    record.finished = home >= setup.players - 1;
    return record;
}

} // namespace halma::bench
