// Each rule on a position built to show it. Holes are named by (row, doubled column) through
// `at` where the geometry matters more than the name: rows 0..16 are a..q, x = 0 is the middle.
#include "board_builder.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace halma::engine;
using halma::testing::board;

namespace {

std::string at(int row, int x) {
    return cell_name(cell_at(row, x));
}

Rules rules(std::string_view text) {
    return *Rules::parse(text);
}

// The destinations of the marble on `from`, as hole names ("!" marks a swap).
std::set<std::string> targets(const Position& pos, const Rules& r, const std::string& from) {
    MoveList list;
    generate_moves(pos, r, list);
    std::set<std::string> result;
    for (Move m : list)
        if (!m.is_pass() && cell_name(m.from) == from)
            result.insert(cell_name(m.to) + (m.kind == Move::kSwap ? "!" : ""));
    return result;
}

Move move(const Position& pos, const Rules& r, std::string_view from, std::string_view to) {
    auto m = legal_move(pos, r, *parse_cell(from), *parse_cell(to));
    EXPECT_TRUE(m) << from << "-" << to << ": " << (m ? "" : m.error().message);
    return m.value_or(Move::pass());
}

} // namespace

TEST(MoveGen, StartPositionHasFourteenMoves) {
    Position pos = Position::start(mask_of(0) | mask_of(3), 0);
    MoveList list;
    generate_moves(pos, Rules {}, list);
    EXPECT_EQ(list.size, 14);
    EXPECT_EQ(targets(pos, Rules {}, "o1"), (std::set<std::string> { "m5", "m7" }));
    EXPECT_EQ(targets(pos, Rules {}, "n1"), (std::set<std::string> { "m5", "m6" }));
    EXPECT_TRUE(targets(pos, Rules {}, "q1").empty());
}

TEST(MoveGen, StepsHopsAndChains) {
    // Set 1 on i5; marbles to hop over on h5 and on the hole up-left-down-left of it.
    Position pos = board({ { "i5", '1' }, { at(7, -1), '4' }, { at(7, -3), '4' } }, '1');
    auto t = targets(pos, rules("release=off"), "i5");
    // Five steps (h5 is taken), a hop to g5 and on from there to i3.
    EXPECT_EQ(t, (std::set<std::string> { "h6", "i4", "i6", "j5", "j6", at(6, -2), at(8, -4) }));
    EXPECT_EQ(at(6, -2), "g5");
    EXPECT_EQ(at(8, -4), "i3");
    // The engine reports the chain it took.
    EXPECT_EQ(path_name(move_path(pos, Rules {}, move(pos, Rules {}, "i5", "i3"))), "i5-g5-i3");
    EXPECT_EQ(path_name(move_path(pos, Rules {}, move(pos, Rules {}, "i5", "i6"))), "i5-i6");
    // A full path is checked hop by hop.
    EXPECT_TRUE(legal_move_along(pos, Rules {}, *parse_path("i5-g5-i3")));
    EXPECT_TRUE(legal_move_along(pos, Rules {}, *parse_path("i5-i3"))); // from-to: any chain
    EXPECT_FALSE(legal_move_along(pos, Rules {}, *parse_path("i5-i1-i3"))); // i5-i1 is no hop
    EXPECT_FALSE(legal_move_along(pos, Rules {}, *parse_path("i5-g5-g7-i3")));
    // A wrong hop on the way to an end the marble cannot reach is named, not the end (it said
    // "i1 is not reachable from i5", for a player who typed i5-g5-i1).
    auto wrong = legal_move_along(pos, Rules {}, *parse_path("i5-g5-i1"));
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().message, "the hop g5-i1 is not possible");
    // A step followed by more is named as the step it is, not as a hop (a front-end author's
    // QA pass: "the hop n3-m7 is not possible" for n3-m7-n3).
    auto step_then = legal_move_along(pos, Rules {}, *parse_path("i5-i6-i5"));
    ASSERT_FALSE(step_then);
    EXPECT_EQ(step_then.error().message,
        "i5-i6 is a step, and a step is a whole move: a move is one step, or hops only");
}

TEST(MoveGen, LongJumpsPassOverOneMarbleAtAnyDistanceAndTheOriginIsEmpty) {
    Position pos
        = board({ { "i5", '1' }, { at(7, -1), '4' }, { at(7, -3), '4' }, { at(8, 6), '4' } }, '1');
    Rules long_any = rules("jumps=long,rest=any,release=off");
    auto t = targets(pos, long_any, "i5");
    // East: one marble two holes beyond the gap (i8), landing as far beyond: off the row... i8 is
    // at distance 3, so the landing would be 6 holes east: off the board. North-west chain as
    // with short jumps. From i3 looking east, i5 (the origin) is empty: no jump to i7.
    EXPECT_EQ(t, (std::set<std::string> { "h6", "i4", "i6", "j5", "j6", "g5", "i3" }));
    // With the marble at distance 2 instead, the long jump lands at distance 4.
    Position near = board({ { "i5", '1' }, { at(8, 4), '4' } }, '1');
    EXPECT_TRUE(targets(near, long_any, "i5").count(at(8, 8)));
    EXPECT_FALSE(targets(near, rules("jumps=short,rest=any,release=off"), "i5").count(at(8, 8)));
    // A hole between the marble and the landing must be empty.
    Position blocked = board({ { "i5", '1' }, { at(8, 4), '4' }, { at(8, 6), '4' } }, '1');
    EXPECT_FALSE(targets(blocked, long_any, "i5").count(at(8, 8)));
}

TEST(MoveGen, RestRuleDecidesWhereAMarbleMayStop) {
    // Set 1 on i1, the left end of the middle row; a marble on h1 (triangle 3) to hop over.
    Position pos = board({ { "i1", '1' }, { "h1", '4' } }, '1');
    auto own = targets(pos, rules("rest=own,release=off"), "i1");
    auto unused = targets(pos, rules("rest=unused,release=off"), "i1");
    auto any = targets(pos, rules("rest=any,release=off"), "i1");
    EXPECT_FALSE(own.count("g1")); // triangle 3
    EXPECT_FALSE(own.count("j1")); // triangle 2
    EXPECT_TRUE(own.count("i2"));
    EXPECT_TRUE(unused.count("g1")); // two players: triangles 2, 3, 5, 6 are unused
    EXPECT_TRUE(unused.count("j1"));
    EXPECT_EQ(any, unused);
    // With three players every triangle is a start or a home: unused is own.
    SetMask three = mask_of(0) | mask_of(2) | mask_of(4);
    EXPECT_EQ(
        resting_cells(rules("rest=unused"), three, 0), resting_cells(rules("rest=own"), three, 0));
    EXPECT_EQ(resting_cells(rules("rest=unused"), mask_of(0) | mask_of(3), 0).count(), 121);
    EXPECT_EQ(resting_cells(rules("rest=own"), mask_of(0) | mask_of(3), 0).count(), 61 + 20);
    // Hops may pass through a triangle where they may not stop: i1 over h1 to g1 (triangle 3),
    // on over g2 to g3 (centre).
    Position through = board({ { "i1", '1' }, { "h1", '4' }, { "g2", '4' } }, '1');
    auto passing = targets(through, rules("rest=own,release=off"), "i1");
    EXPECT_TRUE(passing.count("g3"));
    EXPECT_FALSE(passing.count("g1"));
    auto error = explain_illegal(pos, rules("rest=own,release=off"),
        Move { *parse_cell("i1"), *parse_cell("g1"), Move::kNormal });
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("may not come to rest on g1"), std::string::npos)
        << error->message;
}

TEST(MoveGen, HomeLockKeepsAHomeMarbleInside) {
    // Set 1 has d4 and five more at home, the rest in the middle; set 4 is home too.
    std::vector<std::pair<std::string, char>> marbles { { "d4", '1' }, { "a1", '1' }, { "b1", '1' },
        { "b2", '1' }, { "c1", '1' }, { "c2", '1' }, { "i1", '1' }, { "i3", '1' }, { "i7", '1' },
        { "i9", '1' } };
    for (const char* h : { "n1", "n2", "n3", "n4", "o1", "o2", "o3", "p1", "p2", "q1" })
        marbles.push_back({ h, '4' });
    Position pos = board(marbles, '1');
    auto locked = targets(pos, rules("home-lock=on"), "d4");
    auto free = targets(pos, rules("home-lock=off"), "d4");
    EXPECT_EQ(locked, (std::set<std::string> { "c3", "d3" }));
    EXPECT_TRUE(free.count("e8") && free.count("e9") && free.count("c3"));
    auto error = explain_illegal(
        pos, rules("home-lock=on"), Move { *parse_cell("d4"), *parse_cell("e9"), Move::kNormal });
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("home-lock=on"), std::string::npos) << error->message;
}

TEST(MoveGen, SwapLetsAMarbleTakeAnOpponentsPlaceInItsHome) {
    // Set 4 still holds d2 in set 1's home; set 1 stands below it on e6, and on f5 with e6 to
    // hop over.
    Position pos = board({ { "e6", '1' }, { "f5", '1' }, { "d2", '4' } }, '1');
    EXPECT_TRUE(targets(pos, rules("spoil=swap,release=off"), "e6").count("d2!"));
    EXPECT_TRUE(targets(pos, rules("spoil=swap,release=off"), "f5").count("d2!"));
    EXPECT_FALSE(targets(pos, rules("spoil=none,release=off"), "e6").count("d2!"));
    Rules swap = rules("spoil=swap,release=off");
    Move m = move(pos, swap, "f5", "d2");
    EXPECT_EQ(m.kind, Move::kSwap);
    EXPECT_EQ(path_name(move_path(pos, swap, m)), "f5-d2");
    Position after = pos;
    after.make(m);
    EXPECT_EQ(after.at(*parse_cell("d2")), piece_of(0));
    EXPECT_EQ(after.at(*parse_cell("f5")), piece_of(3));
    after.unmake(m, 0);
    EXPECT_EQ(after, pos);
    // Only in the mover's home: an opponent elsewhere cannot be swapped.
    Position elsewhere = board({ { "i5", '1' }, { "h5", '4' } }, '1');
    EXPECT_FALSE(targets(elsewhere, swap, "i5").count("h5!"));
}

TEST(MoveGen, ReleaseRuleMakesTheBlockerLeave) {
    // Set 1 has nine marbles home and one on e7 that cannot get in: set 4 still sits on d4.
    std::vector<std::pair<std::string, char>> marbles { { "a1", '1' }, { "b1", '1' }, { "b2", '1' },
        { "c1", '1' }, { "c2", '1' }, { "c3", '1' }, { "d1", '1' }, { "d2", '1' }, { "d3", '1' },
        { "e7", '1' }, { "d4", '4' } };
    for (const char* h : { "n1", "n2", "n3", "n4", "o1", "o2", "o3", "p1", "i5" })
        marbles.push_back({ h, '4' });
    Position pos = board(marbles, '4');
    auto owed = release_owed(pos, Rules {});
    ASSERT_TRUE(owed);
    EXPECT_EQ(*owed, 0);
    MoveList list;
    generate_moves(pos, Rules {}, list);
    ASSERT_GT(list.size, 0);
    EXPECT_EQ(count_moves(pos, Rules {}), list.size);
    EXPECT_LT(count_moves(pos, rules("release=off")), 40);
    EXPECT_GT(count_moves(pos, rules("release=off")), list.size);
    for (Move m : list) {
        EXPECT_EQ(cell_name(m.from), "d4");
        EXPECT_FALSE(triangle_cells(3).test(m.to));
    }
    auto error = explain_illegal(
        pos, Rules {}, Move { *parse_cell("i5"), *parse_cell("i6"), Move::kNormal });
    ASSERT_TRUE(error);
    EXPECT_NE(
        error->message.find("you must release the marbles of black (set 1)"), std::string::npos)
        << error->message;
    // Without the rule, any move will do.
    EXPECT_FALSE(release_owed(pos, rules("release=off")));
    EXPECT_FALSE(explain_illegal(
        pos, rules("release=off"), Move { *parse_cell("i5"), *parse_cell("i6"), Move::kNormal }));
    // Once set 1 can move forward again, set 4 is free.
    Position freed = pos;
    freed.make(Move { *parse_cell("d4"), *parse_cell("e9"), Move::kNormal });
    freed.make(Move { *parse_cell("e7"), *parse_cell("e8"), Move::kNormal });
    EXPECT_FALSE(release_owed(freed, Rules {}));
}

TEST(MoveGen, ASetWithNoMoveForfeitsItsTurn) {
    std::vector<std::pair<std::string, char>> marbles;
    for (const char* h : { "a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4" })
        marbles.push_back({ h, '1' });
    for (const char* h : { "n1", "n2", "n3", "n4", "o1", "o2", "o3", "p1", "p2", "q1" })
        marbles.push_back({ h, '4' });
    Position pos = board(marbles, '1');
    MoveList list;
    generate_moves(pos, Rules {}, list);
    ASSERT_EQ(list.size, 1);
    EXPECT_TRUE(list.moves[0].is_pass());
    EXPECT_EQ(count_moves(pos, Rules {}), 1);
    EXPECT_FALSE(explain_illegal(pos, Rules {}, Move::pass()));
    Position start = Position::start(mask_of(0) | mask_of(3), 0);
    EXPECT_TRUE(explain_illegal(start, Rules {}, Move::pass()));
    pos.make(Move::pass());
    EXPECT_EQ(pos.side_to_move(), 3);
}

TEST(MoveGen, FixedMarblesNeverMoveAndBlock) {
    Position pos = Position::start(mask_of(0) | mask_of(3), 0, true);
    MoveList list;
    generate_moves(pos, rules("rest=any"), list);
    for (Move m : list) {
        EXPECT_NE(pos.at(m.from), kFixed);
        EXPECT_EQ(pos.at(m.to), kEmpty);
    }
    auto error = explain_illegal(
        pos, Rules {}, Move { *parse_cell("m4"), *parse_cell("l5"), Move::kNormal });
    ASSERT_TRUE(error);
    EXPECT_NE(error->message.find("fixed"), std::string::npos) << error->message;
}

TEST(MoveGen, IllegalMovesGetReasonsAPersonUnderstands) {
    Position pos = Position::start(mask_of(0) | mask_of(3), 0);
    auto reason = [&](std::string_view from, std::string_view to) {
        auto e = explain_illegal(
            pos, Rules {}, Move { *parse_cell(from), *parse_cell(to), Move::kNormal });
        return e ? e->message : std::string("(legal)");
    };
    EXPECT_EQ(reason("o1", "m7"), "(legal)");
    EXPECT_EQ(reason("o1", "m9"), "m9 is not reachable from o1; it can go to m5, m7");
    EXPECT_EQ(
        reason("q1", "m7"), "m7 is not reachable from q1, and the marble on q1 cannot move now");
    EXPECT_EQ(reason("n4", "m5"), "m5 is not reachable from n4; it can go to m8, m9");
    EXPECT_EQ(reason("i5", "i6"), "i5 is empty");
    EXPECT_EQ(
        reason("a1", "b1"), "a1 holds a marble of red (set 4); it is the turn of black (set 1)");
    EXPECT_EQ(reason("o1", "n1"), "n1 is occupied");
}
