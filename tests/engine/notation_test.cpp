// Position strings, hole names and move paths: front ends and scripts depend on the exact form.
#include "engine/notation.h"
#include "engine/position.h"

#include <gtest/gtest.h>

using namespace halma::engine;

namespace {
constexpr const char* kTwoPlayerStart
    = "4/44/444/4444/............./............/.........../........../........./........../"
      ".........../............/............./1111/111/11/1 1";
}

TEST(Notation, EveryHoleNameRoundTrips) {
    for (Cell c = 0; c < kCellNB; ++c) {
        auto parsed = parse_cell(cell_name(c));
        ASSERT_TRUE(parsed) << cell_name(c);
        EXPECT_EQ(*parsed, c);
    }
    EXPECT_EQ(cell_name(*parse_cell("M7")), "m7");
}

TEST(Notation, BadHoleNamesSayWhy) {
    EXPECT_NE(parse_cell("z1").error().message.find("rows run from a to q"), std::string::npos);
    EXPECT_NE(parse_cell("a2").error().message.find("row a has holes 1 to 1"), std::string::npos);
    EXPECT_NE(parse_cell("e14").error().message.find("row e has holes 1 to 13"), std::string::npos);
    EXPECT_FALSE(parse_cell(""));
    EXPECT_FALSE(parse_cell("m"));
    EXPECT_FALSE(parse_cell("m7x"));
    EXPECT_FALSE(parse_cell("m-1"));
}

TEST(Notation, PathsParseAndPrint) {
    auto path = parse_path("q1-o1-m3");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->size(), 3u);
    EXPECT_EQ(path_name(*path), "q1-o1-m3");
    EXPECT_EQ(move_name(Move { *parse_cell("o1"), *parse_cell("m7"), Move::kNormal }), "o1-m7");
    EXPECT_EQ(move_name(Move::pass()), "pass");
    EXPECT_FALSE(parse_path("o1"));
    EXPECT_FALSE(parse_path("o1-"));
    EXPECT_FALSE(parse_path("o1-zz"));
}

TEST(Notation, StartPositionRoundTrips) {
    auto pos = Position::parse(kTwoPlayerStart);
    ASSERT_TRUE(pos) << pos.error().message;
    EXPECT_EQ(pos->to_string(), kTwoPlayerStart);
    EXPECT_EQ(*pos, Position::start(mask_of(0) | mask_of(3), 0));
    EXPECT_EQ(pos->side_to_move(), 0);
    EXPECT_EQ(pos->sets_present(), mask_of(0) | mask_of(3));
    for (int sets : { 0x3f, 0x15, 0x1b })
        EXPECT_EQ(Position::parse(Position::start(static_cast<SetMask>(sets), 0).to_string())
                      ->to_string(),
            Position::start(static_cast<SetMask>(sets), 0).to_string());
}

TEST(Notation, FixedMarblesAreWrittenX) {
    auto pos = Position::start(mask_of(0) | mask_of(3), 3, true);
    auto text = pos.to_string();
    EXPECT_EQ(std::count(text.begin(), text.end(), 'x'), 40);
    EXPECT_EQ(text.back(), '4');
    EXPECT_EQ(Position::parse(text)->to_string(), text);
}

TEST(Notation, GarbagePositionsGetAMessageNamingTheProblem) {
    auto error_of = [](std::string_view text) {
        auto pos = Position::parse(text);
        return pos ? std::string("(accepted)") : pos.error().message;
    };
    EXPECT_NE(error_of("").find("no set to move"), std::string::npos);
    EXPECT_NE(error_of("hello world").find("rows"), std::string::npos);
    std::string s = kTwoPlayerStart;
    EXPECT_NE(error_of(s.substr(0, s.size() - 1) + "7").find("not one of 1-6"), std::string::npos);
    EXPECT_NE(error_of(s.substr(0, s.size() - 1) + "2").find("set 2 is to move but has no marbles"),
        std::string::npos);
    std::string short_row = s;
    short_row.replace(0, 1, ""); // row a loses its hole
    EXPECT_NE(error_of(short_row).find("row a has 0 holes; it needs 1"), std::string::npos);
    std::string bad_char = s;
    bad_char[s.find("....")] = '?';
    EXPECT_NE(error_of(bad_char).find("'?'"), std::string::npos);
    std::string nine = s;
    nine[0] = '.'; // set 4 loses a marble
    EXPECT_NE(error_of(nine).find("set 4 has 9 marbles; a set has 10"), std::string::npos);
    std::string eighteen = s;
    eighteen.insert(s.find(' '), "/.");
    EXPECT_NE(error_of(eighteen).find("more than 17 rows"), std::string::npos)
        << error_of(eighteen);
    EXPECT_NE(
        error_of(
            "./../.../..../............./............/.........../........../........./........../"
            ".........../............/............./..../.../../. 1")
            .find("no marbles"),
        std::string::npos);
}
