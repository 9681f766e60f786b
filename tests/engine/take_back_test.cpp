// Taking moves back (Game::taken_back): the game it gives must be the very game that stood
// before those moves, counters and all (moves made, progress, who finished, the end), so that
// a room that agreed to a take-back plays on exactly as if the moves had never been made.
#include "board_builder.h"
#include "engine/game.h"
#include "engine/geometry.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace halma::engine;
using halma::testing::board;

namespace {

// A move that is not a pass (a pass when there is none), seeded: deterministic.
Move some_move(const Game& game, std::mt19937_64& rng) {
    MoveList list;
    game.legal_moves(list);
    std::vector<Move> moves;
    for (Move m : list)
        if (!m.is_pass()) moves.push_back(m);
    if (moves.empty()) return Move::pass();
    // Mostly the move that gets furthest towards home, so that games finish.
    SetId s = game.set_to_move();
    Position pos = game.position();
    int best = 1 << 30;
    std::vector<Move> ties;
    for (Move m : moves) {
        pos.make(m);
        int sum = 0;
        for (Bitboard b = pos.marbles(s); b;) {
            int d = distance_to_home(s, b.pop_first());
            sum += d * d;
        }
        pos.unmake(m, s);
        if (sum < best) best = sum, ties.clear();
        if (sum == best) ties.push_back(m);
    }
    return ties[std::uniform_int_distribution<std::size_t>(0, ties.size() - 1)(rng)];
}

void expect_same(const Game& a, const Game& b, const std::string& where) {
    EXPECT_EQ(a.position(), b.position()) << where;
    EXPECT_EQ(a.history().size(), b.history().size()) << where;
    EXPECT_EQ(a.set_to_move(), b.set_to_move()) << where;
    EXPECT_EQ(a.over(), b.over()) << where;
    EXPECT_EQ(a.end(), b.end()) << where;
    auto sa = a.standings(), sb = b.standings();
    ASSERT_EQ(sa.size(), sb.size()) << where;
    for (std::size_t i = 0; i < sa.size(); ++i) {
        EXPECT_EQ(sa[i].player, sb[i].player) << where;
        EXPECT_EQ(sa[i].place, sb[i].place) << where;
        EXPECT_EQ(sa[i].finished, sb[i].finished) << where;
        EXPECT_EQ(sa[i].moves, sb[i].moves) << where;
        EXPECT_EQ(sa[i].distance_left, sb[i].distance_left) << where;
    }
}

} // namespace

// A whole game of two players with two sets each (finished sets pass automatically): taken back
// to before any player's move, it is the game as it stood then, and plays on the same.
TEST(TakeBack, GivesTheGameAsItStoodBeforeTheMoves) {
    auto setup = GameSetup::make(2, 2, Rules {});
    ASSERT_TRUE(setup);
    setup->stall_limit = 20;
    Game game(*setup, 0);
    std::mt19937_64 rng(7);
    // before[i]: the game before history entry i, for each entry a player moved at.
    std::map<std::size_t, Game> before;
    while (!game.over() && game.history().size() < 3000) {
        before.emplace(game.history().size(), game);
        ASSERT_TRUE(game.play(some_move(game, rng)));
    }
    ASSERT_TRUE(game.over());
    const std::size_t n = game.history().size();
    bool saw_automatic = false;
    for (std::size_t i = 0; i < n; ++i) {
        auto back = game.taken_back(n - i);
        if (game.history()[i].automatic) {
            saw_automatic = true;
            EXPECT_FALSE(back) << "a take-back starting at an automatic pass, entry " << i;
            continue;
        }
        ASSERT_TRUE(back) << back.error().message;
        expect_same(*back, before.at(i), "taken back to entry " + std::to_string(i));
        // It plays on as that game did: the same move gives the same game.
        Game again = before.at(i);
        ASSERT_TRUE(back->play(game.history()[i].move));
        ASSERT_TRUE(again.play(game.history()[i].move));
        expect_same(*back, again, "replayed entry " + std::to_string(i));
    }
    EXPECT_TRUE(saw_automatic) << "the game must have had automatic passes to test";
}

TEST(TakeBack, TheFinishingMoveTakenBackLeavesTheGameOpen) {
    // Set 1 one hop from home; set 4 far from it.
    std::vector<std::pair<std::string, char>> marbles { { "a1", '1' }, { "b1", '1' }, { "b2", '1' },
        { "c1", '1' }, { "c3", '1' }, { "d1", '1' }, { "d2", '1' }, { "d3", '1' }, { "d4", '1' },
        { "e6", '1' } };
    for (const char* h : { "q1", "p1", "p2", "o1", "o3", "n1", "n3", "n4", "n2" })
        marbles.push_back({ h, '4' });
    marbles.push_back({ "i5", '4' });
    auto setup = GameSetup::make(2, 1, Rules {});
    auto start = Game::from_position(*setup, board(marbles, '1'));
    ASSERT_TRUE(start);
    Game game = *start;
    ASSERT_TRUE(game.play("e6-c2"));
    ASSERT_TRUE(game.play("i5-i6"));
    ASSERT_TRUE(game.over());
    EXPECT_TRUE(game.standings()[0].finished);

    auto back = game.taken_back(2);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_FALSE(back->over());
    EXPECT_TRUE(back->history().empty());
    EXPECT_EQ(back->position(), start->position()) << "a resumed game goes back to its position";
    EXPECT_FALSE(back->set_finished(0));
    EXPECT_FALSE(back->standings()[0].finished);
    EXPECT_EQ(back->standings()[0].moves, start->standings()[0].moves);
    EXPECT_EQ(back->set_to_move(), 0);

    auto one = game.taken_back(1); // set 4's reply only: set 1 is home again, the round not done
    ASSERT_TRUE(one);
    EXPECT_FALSE(one->over());
    EXPECT_TRUE(one->set_finished(0));
    EXPECT_EQ(one->history().size(), 1u);
    EXPECT_EQ(one->set_to_move(), 3);
}

TEST(TakeBack, ACountOutsideTheGameIsRefused) {
    auto setup = GameSetup::make(2, 1, Rules {});
    Game game(*setup, 0);
    EXPECT_FALSE(game.taken_back(1)) << "nothing to take back before the first move";
    std::mt19937_64 rng(1);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(game.play(some_move(game, rng)));
    EXPECT_FALSE(game.taken_back(0));
    EXPECT_FALSE(game.taken_back(5));
    EXPECT_FALSE(game.taken_back(static_cast<std::size_t>(-1)));
    auto all = game.taken_back(4);
    ASSERT_TRUE(all);
    expect_same(*all, Game(*setup, 0), "every move taken back");
    // The history lists only the moves that stand: what a record made from it lists.
    auto two = game.taken_back(2);
    ASSERT_TRUE(two);
    ASSERT_EQ(two->history().size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(two->history()[i].move, game.history()[i].move);
}
