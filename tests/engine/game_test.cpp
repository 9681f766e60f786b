// Whole games: turn order, finishing, the round completed after the first finisher, places
// with draws, and multi-set players. Played by a simple greedy player written here, so the
// engine's tests do not depend on the bots.
#include "board_builder.h"
#include "engine/game.h"
#include "engine/geometry.h"
#include "engine/notation.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace halma::engine;
using halma::testing::board;

namespace {

// Squared distances make stragglers expensive, which is enough to finish games.
int cost(const Position& pos, SetId s) {
    int sum = 0;
    for (Bitboard b = pos.marbles(s); b;) {
        int d = distance_to_home(s, b.pop_first());
        sum += d * d;
    }
    return sum;
}

Move greedy(const Game& game, std::mt19937_64& rng) {
    MoveList list;
    game.legal_moves(list);
    SetId s = game.set_to_move();
    Position pos = game.position();
    int best = 1 << 30;
    std::vector<Move> ties;
    for (Move m : list) {
        pos.make(m);
        int c = cost(pos, s);
        pos.unmake(m, s);
        if (c < best) best = c, ties.clear();
        if (c == best) ties.push_back(m);
    }
    return ties[std::uniform_int_distribution<std::size_t>(0, ties.size() - 1)(rng)];
}

struct GameCase {
    const char* name;
    int players, sets_per_player;
    const char* rules;
};

class WholeGames : public ::testing::TestWithParam<GameCase> { };

} // namespace

TEST_P(WholeGames, EndWithAConsistentRanking) {
    const GameCase& s = GetParam();
    auto setup = GameSetup::make(s.players, s.sets_per_player, *Rules::parse(s.rules));
    ASSERT_TRUE(setup) << setup.error().message;
    Game game(*setup, 0);
    std::mt19937_64 rng(7);
    int turns = 0;
    while (!game.over() && turns < 20000) {
        auto played = game.play(greedy(game, rng));
        ASSERT_TRUE(played) << played.error().message;
        turns += static_cast<int>(played->size());
    }
    ASSERT_TRUE(game.over()) << s.name << " did not finish in " << turns << " moves";
    auto standings = game.standings();
    ASSERT_EQ(standings.size(), static_cast<std::size_t>(s.players));
    // Everyone is placed; the finished first, by the moves they needed; place 1 exists.
    EXPECT_EQ(standings.front().place, 1);
    for (std::size_t i = 0; i < standings.size(); ++i) {
        EXPECT_GT(standings[i].place, 0);
        if (standings[i].finished) EXPECT_EQ(standings[i].distance_left, 0);
        if (i == 0) continue;
        EXPECT_GE(standings[i].place, standings[i - 1].place);
        if (standings[i].finished && standings[i - 1].finished)
            EXPECT_GE(standings[i].moves, standings[i - 1].moves);
        if (standings[i].place == standings[i - 1].place)
            EXPECT_EQ(standings[i].moves, standings[i - 1].moves);
    }
    ASSERT_TRUE(standings.front().finished) << s.name << " ended by the move limit";
    EXPECT_TRUE(game.end() == GameEnd::kAllHome || game.end() == GameEnd::kPlacesDecided);
    // The round was completed: every player made at least as many moves as the winner needed.
    for (const auto& st : standings) EXPECT_GE(st.moves, standings.front().moves);
    // The history replays to the same final position.
    Game replay(*setup, 0);
    for (const auto& p : game.history())
        if (!p.automatic) ASSERT_TRUE(replay.play(p.move));
    EXPECT_EQ(replay.position(), game.position());
}

INSTANTIATE_TEST_SUITE_P(EverySetup, WholeGames,
    ::testing::Values(GameCase { "two", 2, 1, "" }, GameCase { "three", 3, 1, "" },
        GameCase { "four", 4, 1, "" }, GameCase { "six", 6, 1, "" },
        GameCase { "two_by_two", 2, 2, "" }, GameCase { "two_by_three", 2, 3, "" },
        GameCase { "three_by_two", 3, 2, "" },
        GameCase { "two_long_any", 2, 1, "jumps=long,rest=any" },
        GameCase { "four_filled", 4, 1, "unused=filled" },
        GameCase { "six_swap", 6, 1, "spoil=swap" }),
    [](const auto& info) { return std::string(info.param.name); });

namespace {

// Set 1 one move from home: nine home, c2 free, its last marble on e6 (a hop over d2 into c2).
// Set 4 has nine home with o2 free and its last marble on `four_last`. Set 1 to move.
Game nearly_done(const char* four_last, const char* rules = "") {
    std::vector<std::pair<std::string, char>> marbles { { "a1", '1' }, { "b1", '1' }, { "b2", '1' },
        { "c1", '1' }, { "c3", '1' }, { "d1", '1' }, { "d2", '1' }, { "d3", '1' }, { "d4", '1' },
        { "e6", '1' } };
    for (const char* h : { "q1", "p1", "p2", "o1", "o3", "n1", "n3", "n4", "n2" })
        marbles.push_back({ h, '4' });
    marbles.push_back({ four_last, '4' });
    auto setup = GameSetup::make(2, 1, *Rules::parse(rules));
    return *Game::from_position(*setup, board(marbles, '1'));
}

} // namespace

TEST(GameEnd, BothFinishingInTheSameRoundIsADraw) {
    Game game = nearly_done("i5");
    ASSERT_TRUE(game.play("e6-c2"));
    EXPECT_TRUE(game.set_finished(0));
    EXPECT_FALSE(game.over()) << "set 4 must get its move in the round";
    EXPECT_EQ(game.standings()[0].place, 1);
    // Set 4's last marble on i5 cannot reach o2 in one move: set 1 wins alone.
    ASSERT_TRUE(game.play("i5-i6"));
    EXPECT_TRUE(game.over());
    auto st = game.standings();
    EXPECT_EQ(st[0].player, 0);
    EXPECT_EQ(st[0].place, 1);
    EXPECT_EQ(st[1].place, 2);
    EXPECT_FALSE(st[1].finished);
    EXPECT_FALSE(game.play("i6-i7")) << "no moves after the end";

    // From m6 set 4 hops over n2 into o2 in the same round: a draw.
    Game draw = nearly_done("m6");
    ASSERT_TRUE(draw.play("e6-c2"));
    ASSERT_TRUE(draw.play("m6-o2"));
    EXPECT_TRUE(draw.over());
    auto ds = draw.standings();
    EXPECT_EQ(ds[0].place, 1);
    EXPECT_EQ(ds[1].place, 1);
    EXPECT_TRUE(ds[0].finished && ds[1].finished);
    EXPECT_EQ(ds[0].moves, 1);
    EXPECT_EQ(ds[1].moves, 1);
}

TEST(GameEnd, OccupiedHomeCountsAsFinishedWithSpoilOccupied) {
    // Set 1 has nine home, set 4 never left d4: with spoil=occupied set 1 is finished.
    std::vector<std::pair<std::string, char>> marbles { { "a1", '1' }, { "b1", '1' }, { "b2", '1' },
        { "c1", '1' }, { "c2", '1' }, { "c3", '1' }, { "d1", '1' }, { "d2", '1' }, { "e7", '1' },
        { "e9", '1' }, { "d4", '4' } };
    for (const char* h : { "n1", "n2", "n3", "n4", "o1", "o2", "o3", "p1", "i5" })
        marbles.push_back({ h, '4' });
    auto occupied = GameSetup::make(2, 1, *Rules::parse("spoil=occupied,release=off"));
    auto none = GameSetup::make(2, 1, *Rules::parse("spoil=none,release=off"));
    Position pos = board(marbles, '1');
    Game a = *Game::from_position(*occupied, pos);
    Game b = *Game::from_position(*none, pos);
    ASSERT_TRUE(a.play("e7-d3"));
    ASSERT_TRUE(b.play("e7-d3"));
    EXPECT_TRUE(a.set_finished(0));
    EXPECT_FALSE(b.set_finished(0));
}

// A deadlock six easy bots reached: set 5's last marble never left e13, the tip of its start,
// and set 2's marbles filled the rest of that triangle around it, so neither can move there
// again. Four players are home; the game must end on the stall rule, not 1000 moves each later.
TEST(GameEnd, ADeadlockEndsOnTheStallRule) {
    auto pos = Position::parse("1/11/111/1111/6666.....2225/666......222/66.......22/6.......22/"
                               "........./5........3/55.......33/55.......333/5555.....3333/"
                               "4444/444/44/4 2");
    ASSERT_TRUE(pos) << pos.error().message;
    auto setup = GameSetup::make(6, 1, Rules {});
    auto game = Game::from_position(*setup, *pos);
    ASSERT_TRUE(game) << game.error().message;
    std::mt19937_64 rng(3);
    int moves = 0;
    while (!game->over() && moves < 2000) {
        ASSERT_TRUE(game->play(greedy(*game, rng)));
        ++moves;
    }
    ASSERT_EQ(game->end(), GameEnd::kStalled) << "after " << moves << " moves";
    // 100 moves each by the two players still playing (the others pass automatically).
    EXPECT_LE(moves, 2 * 100 * 6);
    auto standings = game->standings();
    for (const auto& st : standings) EXPECT_GT(st.place, 0);
    // Set 2 (player 1) is nearer home than set 5 (player 4), so it is placed ahead.
    auto place = [&](int player) {
        return std::find_if(standings.begin(), standings.end(), [&](const Standing& s) {
            return s.player == player;
        })->place;
    };
    EXPECT_LT(place(1), place(4));
}

// Each side left the marble at the tip of its start, and the other's marbles filled the rest of
// that triangle around it: neither can ever move again, and a pass changes nothing. The game
// ends at once, placed by distance; it went on for 200 passes (100 each), typed by the players.
TEST(GameEnd, NobodyAbleToMoveEndsAtOnce) {
    auto pos = Position::parse("4/11/111/1111/............./............/.........../........../"
                               "........./........../.........../............/............./"
                               "4444/444/44/1 1");
    ASSERT_TRUE(pos) << pos.error().message;
    auto game = Game::from_position(*GameSetup::make(2, 1, Rules {}), *pos);
    ASSERT_TRUE(game) << game.error().message;
    EXPECT_EQ(game->end(), GameEnd::kStalled);
    for (const auto& st : game->standings()) EXPECT_EQ(st.place, 1) << "level: a draw";
    // One side still able to move: the game goes on, the other side passing.
    auto open = Position::parse("4/11/111/1111/............./............/.........../........../"
                                "....4..../........../.........../............/............./"
                                "4444/444/4./1 1");
    ASSERT_TRUE(open) << open.error().message;
    game = Game::from_position(*GameSetup::make(2, 1, Rules {}), *open);
    ASSERT_TRUE(game);
    EXPECT_FALSE(game->over());
}

TEST(GameEnd, NoStallRuleWithStallLimitZero) {
    auto pos = Position::parse("1/11/111/1111/6666.....2225/666......222/66.......22/6.......22/"
                               "........./5........3/55.......33/55.......333/5555.....3333/"
                               "4444/444/44/4 2");
    auto setup = GameSetup::make(6, 1, Rules {});
    setup->stall_limit = 0;
    setup->move_limit = 300;
    auto game = Game::from_position(*setup, *pos);
    std::mt19937_64 rng(3);
    for (int moves = 0; !game->over() && moves < 5000; ++moves)
        ASSERT_TRUE(game->play(greedy(*game, rng)));
    EXPECT_EQ(game->end(), GameEnd::kMoveLimit);
}

TEST(GameSetup, OnlyRealSetupsAreAccepted) {
    EXPECT_TRUE(GameSetup::make(2, 3, Rules {}));
    EXPECT_TRUE(GameSetup::make(3, 2, Rules {}));
    auto bad = GameSetup::make(5, 1, Rules {});
    ASSERT_FALSE(bad);
    EXPECT_NE(
        bad.error().message.find("5 players with 1 set each is not a setup"), std::string::npos);
    EXPECT_FALSE(GameSetup::make(4, 2, Rules {}));
    auto filled = GameSetup::make(3, 1, *Rules::parse("unused=filled"));
    ASSERT_FALSE(filled);
    EXPECT_NE(filled.error().message.find("unused=filled"), std::string::npos);
}

TEST(GameSetup, SetsAreDealtClockwiseSoPlayersAlternate) {
    auto two_by_three = *GameSetup::make(2, 3, Rules {});
    EXPECT_EQ(two_by_three.sets_of(0), (std::vector<SetId> { 0, 2, 4 }));
    EXPECT_EQ(two_by_three.sets_of(1), (std::vector<SetId> { 1, 3, 5 }));
    auto four = *GameSetup::make(4, 1, Rules {});
    EXPECT_EQ(four.sets(), mask_of(0) | mask_of(1) | mask_of(3) | mask_of(4));
    Game game(four, 0);
    std::vector<SetId> order;
    for (int i = 0; i < 5; ++i) {
        order.push_back(game.set_to_move());
        MoveList list;
        game.legal_moves(list);
        ASSERT_TRUE(game.play(list.moves[0]));
    }
    EXPECT_EQ(order, (std::vector<SetId> { 0, 1, 3, 4, 0 }));
}

TEST(GameSetup, BlackStartsOrACoinDecides) {
    auto black = *GameSetup::make(3, 1, Rules {});
    EXPECT_EQ(black.first_mover(4, 12345), 4);
    auto coin = *GameSetup::make(3, 1, *Rules::parse("first=coin"));
    std::set<SetId> seen;
    for (std::uint64_t toss = 0; toss < 30; ++toss) seen.insert(coin.first_mover(0, toss));
    EXPECT_EQ(seen, (std::set<SetId> { 0, 2, 4 })); // every set in the game, and only those
    Game game(coin, coin.first_mover(0, 1));
    EXPECT_EQ(game.set_to_move(), 2);
}

TEST(GameMoves, WrongMovesAreRefusedAndChangeNothing) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    Position before = game.position();
    auto out_of_turn = game.play("d1-e6");
    ASSERT_FALSE(out_of_turn);
    EXPECT_NE(out_of_turn.error().message.find("set 4"), std::string::npos);
    EXPECT_FALSE(game.play("o1-m9"));
    EXPECT_FALSE(game.play("garbage"));
    EXPECT_FALSE(game.play("pass"));
    EXPECT_EQ(game.position(), before);
    EXPECT_TRUE(game.history().empty());
    auto played = game.play("o1-m7");
    ASSERT_TRUE(played);
    EXPECT_EQ(path_name(played->front().path), "o1-m7");
    EXPECT_EQ(game.set_to_move(), 3);
}
