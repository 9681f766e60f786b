// The star's shape: what every other part (notation, rules, the board drawing) relies on.
#include "engine/geometry.h"
#include "engine/notation.h"

#include <gtest/gtest.h>
#include <set>

using namespace halma::engine;

TEST(Geometry, RowsHoldTheirHolesLeftToRight) {
    int total = 0;
    for (int r = 0; r < kRowNB; ++r) total += kRowLength[static_cast<std::size_t>(r)];
    EXPECT_EQ(total, 121);
    EXPECT_EQ(*parse_cell("a1"), 0);
    EXPECT_EQ(*parse_cell("q1"), 120);
    EXPECT_EQ(*parse_cell("i1"), kGeometry.row_start[8]);
    EXPECT_EQ(kRowLength[8], 9);
}

TEST(Geometry, EachTriangleHasTenHolesAndTheCentreSixtyOne) {
    for (SetId t = 0; t < kSetNB; ++t)
        EXPECT_EQ(triangle_cells(t).count(), 10) << "triangle " << t + 1;
    EXPECT_EQ(centre_cells().count(), 61);
    // Triangle 4 is rows a-d, triangle 1 rows n-q.
    EXPECT_TRUE(in_triangle(*parse_cell("d4"), 3));
    EXPECT_TRUE(in_triangle(*parse_cell("n1"), 0));
    // Row e: holes 1-4 upper left (3), 5-9 centre, 10-13 upper right (5).
    EXPECT_TRUE(in_triangle(*parse_cell("e4"), 2));
    EXPECT_EQ(kGeometry.region[*parse_cell("e5")], kCentre);
    EXPECT_TRUE(in_triangle(*parse_cell("e10"), 4));
    // Row m: lower left (2) and lower right (6).
    EXPECT_TRUE(in_triangle(*parse_cell("m1"), 1));
    EXPECT_TRUE(in_triangle(*parse_cell("m13"), 5));
    EXPECT_TRUE(in_triangle(*parse_cell("h1"), 2));
    EXPECT_TRUE(in_triangle(*parse_cell("j10"), 5));
}

TEST(Geometry, NeighboursAreSymmetricAndSix) {
    for (Cell c = 0; c < kCellNB; ++c) {
        for (int d = 0; d < kDirectionNB; ++d) {
            Cell n = kGeometry.neighbour[c][static_cast<std::size_t>(d)];
            if (n == kNoCell) continue;
            EXPECT_EQ(kGeometry.neighbour[n][opposite(static_cast<Direction>(d))], c);
        }
    }
    // The tips of the star have two neighbours, the centre six.
    for (const char* tip : { "a1", "e1", "e13", "m1", "m13", "q1" })
        EXPECT_EQ(kGeometry.neighbours[*parse_cell(tip)].count(), 2) << tip;
    // i5 is the centre: rows h and j have one hole more than i, so its neighbours are h5, h6, j5,
    // j6.
    std::set<std::string> names;
    for (Bitboard b = kGeometry.neighbours[*parse_cell("i5")]; b;)
        names.insert(cell_name(b.pop_first()));
    EXPECT_EQ(names, (std::set<std::string> { "h5", "h6", "i4", "i6", "j5", "j6" }));
}

TEST(Geometry, DistanceToHomeIsZeroAtTheTipAndTwentyOverAFullHome) {
    EXPECT_EQ(distance_to_home(0, *parse_cell("a1")), 0);
    EXPECT_EQ(distance_to_home(0, *parse_cell("q1")), 16);
    int sum = 0;
    for (Bitboard b = triangle_cells(home_of(0)); b;) sum += distance_to_home(0, b.pop_first());
    EXPECT_EQ(sum, kHomeDistanceFloor);
    for (SetId s = 0; s < kSetNB; ++s)
        for (Cell c = 0; c < kCellNB; ++c)
            if (!triangle_cells(home_of(s)).test(c)) EXPECT_GE(distance_to_home(s, c), 4);
}

TEST(Geometry, RotationTurnsTrianglesClockwiseAndKeepsAdjacency) {
    for (SetId t = 0; t < kSetNB; ++t)
        EXPECT_EQ(rotate_clockwise(kGeometry.apex[t], 1), kGeometry.apex[(t + 1) % kSetNB])
            << "triangle " << t + 1;
    for (Cell c = 0; c < kCellNB; ++c) {
        EXPECT_EQ(rotate_clockwise(c, 6), c);
        EXPECT_EQ(rotate_clockwise(rotate_clockwise(c, 2), -2), c);
        Cell r = rotate_clockwise(c, 1);
        ASSERT_NE(r, kNoCell);
        for (Bitboard b = kGeometry.neighbours[c]; b;)
            EXPECT_TRUE(kGeometry.neighbours[r].test(rotate_clockwise(b.pop_first(), 1)));
    }
}
