// What the bots know of a game beyond its board (issue 14): the positions it has passed through,
// also for a game resumed from a position, and a stop flag that ends the thinking early.
#include "engine/ai/bot.h"
#include "engine/ai/zobrist.h"
#include "engine/movegen.h"
#include "engine/notation.h"

#include <atomic>
#include <gtest/gtest.h>

namespace halma::ai {
namespace {

using namespace halma::engine;

// Key of the position a game was in before its move i, computed by playing the moves forward.
std::vector<std::uint64_t> keys_forward(Position pos, const Game& game) {
    std::vector<std::uint64_t> keys;
    for (const PlayedMove& played : game.history()) {
        keys.push_back(board_key(pos) ^ zobrist().to_move[played.set]);
        pos.set_side_to_move(played.set);
        pos.make(played.move);
    }
    return keys;
}

TEST(BotHistory, KeysOfAGameFromTheStart) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    Position start = game.position();
    for (int i = 0; i < 12; ++i)
        ASSERT_TRUE(game.play(choose_move(game, BotSettings { Level::kEasy, 1, 5u + i })));
    EXPECT_EQ(game_history_keys(game), keys_forward(start, game));
}

TEST(BotHistory, KeysOfAGameResumedFromAPosition) {
    // Play a few moves, then resume a new game from there: its history starts at that position,
    // not at the start (the keys were once replayed from the start position and came out wrong).
    Game opening(*GameSetup::make(2, 1, Rules {}), 0);
    for (int i = 0; i < 6; ++i)
        ASSERT_TRUE(opening.play(choose_move(opening, BotSettings { Level::kEasy, 1, 9u + i })));
    auto resumed = Game::from_position(opening.setup(), opening.position());
    ASSERT_TRUE(resumed.has_value()) << resumed.error().message;
    Position from = resumed->position();
    for (int i = 0; i < 8; ++i)
        ASSERT_TRUE(resumed->play(choose_move(*resumed, BotSettings { Level::kEasy, 1, 20u + i })));
    auto keys = game_history_keys(*resumed);
    ASSERT_EQ(keys.size(), 8u);
    EXPECT_EQ(keys, keys_forward(from, *resumed));
    EXPECT_EQ(keys.front(), board_key(from) ^ zobrist().to_move[from.side_to_move()]);
}

TEST(BotHistory, AStopFlagEndsTheSearchWithALegalMove) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    std::atomic<bool> stop { true };
    BotSettings settings { Level::kHard, 600'000, 1 };
    settings.stop = &stop;
    auto result = think(game, settings);
    EXPECT_LT(result.nodes, node_budget(1)) << "the search went on after the stop";
    MoveList legal;
    game.legal_moves(legal);
    EXPECT_TRUE(legal.contains(result.move)) << move_name(result.move);
}

TEST(BotHistory, ProgressIsReportedPerIterationWithALegalLine) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    std::vector<SearchProgress> seen;
    auto result = think(game, BotSettings { Level::kHard, 20, 1 },
        [&](const SearchProgress& p) { seen.push_back(p); });
    ASSERT_FALSE(seen.empty());
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i].depth, static_cast<int>(i) + 1);
        ASSERT_FALSE(seen[i].pv.empty());
        // Every move of the line is legal where it is played.
        Game line = game;
        for (Move m : seen[i].pv) ASSERT_TRUE(line.play(m)) << move_name(m);
    }
    EXPECT_EQ(seen.back().pv.front(), result.move);
    EXPECT_EQ(seen.back().depth, result.depth);
    // Listening changes nothing: the same move and work without a listener.
    auto quiet = think(game, BotSettings { Level::kHard, 20, 1 });
    EXPECT_EQ(quiet.move, result.move);
    EXPECT_EQ(quiet.nodes, result.nodes);
}

} // namespace
} // namespace halma::ai
