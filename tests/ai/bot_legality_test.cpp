// The bots only ever return legal moves: in every setup and rule family, in positions from
// the opening to finished games (finished sets, passes, swaps, release).
#include "engine/ai/bot.h"
#include "engine/ai/rng.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "test_positions.h"

#include <gtest/gtest.h>

namespace halma::ai {
namespace {

using namespace halma::engine;

// Asks both bots about the game's position and checks the Game accepts their moves.
void expect_legal_choices(const Game& game, std::uint64_t seed, const std::string& where) {
    MoveList legal;
    game.legal_moves(legal);
    for (Level level : { Level::kEasy, Level::kHard }) {
        BotSettings settings { level, 1, seed };
        Move m = choose_move(game, settings);
        ASSERT_TRUE(legal.contains(m)) << level_name(level) << " chose " << move_name(m) << " in "
                                       << game.position().to_string() << " (" << where << ")";
        Game copy = game;
        ASSERT_TRUE(copy.play(m).has_value()) << where;
    }
}

TEST(BotLegality, SeededPositionsInEverySetupAndRuleFamily) {
    int checked = 0;
    for (const auto& c : test::all_setups()) {
        GameSetup setup = test::make_setup(c);
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            Rng rng(seed * 7919);
            Game game(setup, static_cast<SetId>(rng.below(kSetNB)) % kSetNB);
            // The first mover must be a set in the game.
            if (!has_set(setup.sets(), game.set_to_move())) game = Game(setup, 0);
            for (int ply = 0; ply < 90 && !game.over(); ++ply) {
                if (ply % 9 == 0) {
                    expect_legal_choices(
                        game, seed + static_cast<std::uint64_t>(ply), test::describe(c));
                    if (HasFatalFailure()) return;
                    ++checked;
                }
                // Walk on: mostly random moves, so the positions are varied and untidy.
                MoveList legal;
                game.legal_moves(legal);
                Move m = rng.below(4) == 0
                    ? choose_move(game, BotSettings { Level::kEasy, 1, seed })
                    : legal.moves[rng.below(static_cast<std::uint32_t>(legal.size))];
                ASSERT_TRUE(game.play(m).has_value());
            }
        }
    }
    EXPECT_GT(checked, 500);
}

// Whole games to the end: endgames, finished sets that pass, homes with intruders.
TEST(BotLegality, WholeGamesInEverySetup) {
    for (const auto& c : test::all_setups()) {
        bool defaults = c.rules.empty() || c.rules == "spoil=swap"
            || c.rules == "jumps=long,rest=any,spoil=swap,release=off";
        if (!defaults && c.players * c.sets_per_player != 2) continue;
        GameSetup setup = test::make_setup(c);
        Game game(setup, 0);
        int moves = 0;
        while (!game.over()) {
            // Hard bots (tiny budget) in even seats, easy ones in odd seats.
            bool hard = game.player_to_move() % 2 == 0;
            BotSettings settings { hard ? Level::kHard : Level::kEasy, 1,
                static_cast<std::uint64_t>(moves) };
            Move m = choose_move(game, settings);
            auto played = game.play(m);
            ASSERT_TRUE(played.has_value())
                << test::describe(c) << ": " << move_name(m) << " in "
                << game.position().to_string() << ": " << played.error().message;
            ++moves;
        }
        int finished = 0;
        for (const auto& s : game.standings()) finished += s.finished;
        EXPECT_GE(finished, 1) << test::describe(c) << " ended by the move limit after " << moves
                               << " moves";
    }
}

TEST(BotLegality, PassWhenThereIsNoMove) {
    // Fixed marbles fill rows l and m: set 1 can neither step nor hop out of its triangle.
    auto pos = Position::parse("4/44/444/4444/............./............/.........../........../"
                               "........./........../.........../"
                               "xxxxxxxxxxxx/xxxxxxxxxxxxx/1111/111/11/1 1");
    ASSERT_TRUE(pos.has_value()) << pos.error().message;
    Rules rules;
    MoveList legal;
    generate_moves(*pos, rules, legal);
    ASSERT_EQ(legal.size, 1);
    ASSERT_TRUE(legal.moves[0].is_pass());
    for (Level level : { Level::kEasy, Level::kHard }) {
        auto r = think(
            *pos, rules, Seating::one_per_set(pos->sets_present()), BotSettings { level, 5, 1 });
        EXPECT_TRUE(r.move.is_pass()) << move_name(r.move);
    }
}

} // namespace
} // namespace halma::ai
