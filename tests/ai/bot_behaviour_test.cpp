// What the bots decide: the same seed gives the same move, obvious finishes are found, and the
// settings helpers read what the CLI and the daemon pass them.
#include "engine/ai/bot.h"
#include "engine/ai/race_planner.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"

#include <gtest/gtest.h>
#include <set>

namespace halma::ai {
namespace {

using namespace halma::engine;

Position parse(const std::string& text) {
    auto pos = Position::parse(text);
    if (!pos) ADD_FAILURE() << pos.error().message;
    return pos.value_or(Position::start(mask_of(0) | mask_of(3), 0));
}

std::string best(const Position& pos, Level level = Level::kHard, int budget = 20,
    const std::string& rules = "") {
    auto r = think(pos, *Rules::parse(rules), Seating::one_per_set(pos.sets_present()),
        BotSettings { level, budget, 1 });
    return move_name(r.move);
}

// Set 1 has nine marbles home and the tenth on e7, one step from the last hole d2.
constexpr const char* kOneStepFromHomeAlone
    = "1/11/111/1.11/......1....../............/.........../........../4444...../4444....../"
      "44........./"
      "............/............./..../.../../. 1";
// The same with a marble of set 4 beside it: the race is not decoupled, so alpha-beta decides.
constexpr const char* kOneStepFromHomeContested
    = "1/11/111/1.11/......14...../............/.........../........../4444...../4444....../"
      "4........../"
      "............/............./..../.../../. 1";
// Three sets (best-reply search): set 1 again one step from home.
constexpr const char* kOneStepFromHomeThreeSets
    = "1/11/111/1.11/......1....../............/.........../3333....../333333.../5555555.../"
      "555......../"
      "............/............./..../.../../. 1";

TEST(BotBehaviour, FindsTheFinishingMove) {
    EXPECT_FALSE(race_is_decoupled(parse(kOneStepFromHomeContested), 0));
    EXPECT_TRUE(race_is_decoupled(parse(kOneStepFromHomeAlone), 0));
    for (const char* text :
        { kOneStepFromHomeAlone, kOneStepFromHomeContested, kOneStepFromHomeThreeSets }) {
        Position pos = parse(text);
        EXPECT_EQ(best(pos), "e7-d2") << text;
        EXPECT_EQ(best(pos, Level::kHard, 1), "e7-d2") << text << " (smallest budget)";
    }
}

TEST(BotBehaviour, FindsAFinishInTwoWithAnOpponentAlongside) {
    // Two marbles out (e7 next to d2, e8 next to d3); set 4 alongside on e9 keeps the search on.
    Position pos = parse(
        "1/11/111/1..1/......114..../............/.........../........../4444...../44444...../"
        ".........../............/............./..../.../../. 1");
    auto r = think(pos, Rules {}, Seating::one_per_set(pos.sets_present()),
        BotSettings { Level::kHard, 20, 1 });
    std::string to = move_name(r.move).substr(3);
    EXPECT_TRUE(to == "d2" || to == "d3") << move_name(r.move);
    EXPECT_GT(r.score, 900'000) << "a forced finish is scored as one";
}

TEST(BotBehaviour, SameSeedSameMove) {
    // Positions from a game the bots play, each asked twice with the same settings.
    Game game(*GameSetup::make(3, 1, Rules {}), 0);
    int asked = 0;
    for (int ply = 0; ply < 60 && !game.over(); ++ply) {
        if (ply % 5 == 0) {
            for (Level level : { Level::kEasy, Level::kHard }) {
                BotSettings settings { level, 5, 42 };
                BotResult a = think(game, settings);
                BotResult b = think(game, settings);
                EXPECT_EQ(a.move, b.move) << game.position().to_string();
                EXPECT_EQ(a.nodes, b.nodes);
                EXPECT_EQ(a.score, b.score);
                EXPECT_EQ(a.depth, b.depth);
                EXPECT_FALSE(a.clock_stopped);
                ++asked;
            }
        }
        ASSERT_TRUE(game.play(
            choose_move(game, BotSettings { Level::kHard, 2, static_cast<std::uint64_t>(ply) })));
    }
    EXPECT_EQ(asked, 24);
}

TEST(BotBehaviour, SeedsVaryTheEasyBot) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    std::set<std::string> moves;
    for (std::uint64_t seed = 1; seed <= 30; ++seed)
        moves.insert(move_name(choose_move(game, BotSettings { Level::kEasy, 1, seed })));
    EXPECT_GE(moves.size(), 3u);
}

TEST(BotBehaviour, HardBotOpensForward) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    Move m = choose_move(game, BotSettings {});
    EXPECT_LT(distance_to_home(0, m.to), distance_to_home(0, m.from)) << move_name(m);
}

TEST(BotBehaviour, NodeBudgetGrowsWithTime) {
    EXPECT_LT(node_budget(10), node_budget(100));
    EXPECT_GT(node_budget(0), 0u);
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    auto small = think(game, BotSettings { Level::kHard, 2, 1 });
    EXPECT_LE(small.nodes, node_budget(2) + 64) << "a search stops within a line of the budget";
}

TEST(BotBehaviour, LevelNames) {
    EXPECT_EQ(parse_level("easy"), Level::kEasy);
    EXPECT_EQ(parse_level("hard"), Level::kHard);
    EXPECT_FALSE(parse_level("Hard").has_value());
    EXPECT_FALSE(parse_level("").has_value());
    EXPECT_EQ(level_name(Level::kEasy), "easy");
    EXPECT_EQ(level_name(Level::kHard), "hard");
    EXPECT_EQ(parse_level("max"), Level::kMax);
    EXPECT_EQ(level_name(Level::kMax), "max");
}

// Max is the hard bot with seconds to think: at least kMaxLevelBudgetMs, more if the hard level
// is given more (a daemon's bot-budget-ms), and the other levels keep the budget they are given.
TEST(BotBehaviour, MaxLevelThinksLonger) {
    EXPECT_EQ(level_budget_ms(Level::kHard, kDefaultBudgetMs), kDefaultBudgetMs);
    EXPECT_EQ(level_budget_ms(Level::kMax, kDefaultBudgetMs), kMaxLevelBudgetMs);
    EXPECT_GE(kMaxLevelBudgetMs, 10 * kDefaultBudgetMs);
    EXPECT_EQ(level_budget_ms(Level::kMax, 5000), 5000);
    EXPECT_EQ(level_budget_ms(Level::kEasy, 40), 40);
    // The max level plays the hard bot's search: with a budget, a legal forward opening.
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    auto result = think(game, BotSettings { Level::kMax, 20, 1 });
    EXPECT_GT(result.depth, 0) << "max searches";
    EXPECT_LT(distance_to_home(0, result.move.to), distance_to_home(0, result.move.from));
}

TEST(BotBehaviour, GameOverGivesPass) {
    Game game(*GameSetup::make(2, 1, Rules {}), 0);
    GameSetup setup = game.setup();
    setup.move_limit = 1;
    Game short_game(setup, 0);
    while (!short_game.over())
        ASSERT_TRUE(short_game.play(choose_move(short_game, BotSettings { Level::kEasy })));
    EXPECT_TRUE(choose_move(short_game, BotSettings {}).is_pass());
}

} // namespace
} // namespace halma::ai
