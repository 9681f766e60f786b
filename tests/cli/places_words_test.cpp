// A finished game's places as `halma records` and `halma replay` list them: by place, not by seat.
#include "cli/client/places_words.h"

#include <gtest/gtest.h>

using namespace halma::cli;

TEST(Ordinal, TeensTakeTh) {
    EXPECT_EQ(ordinal(1), "1st");
    EXPECT_EQ(ordinal(2), "2nd");
    EXPECT_EQ(ordinal(3), "3rd");
    EXPECT_EQ(ordinal(4), "4th");
    EXPECT_EQ(ordinal(11), "11th");
    EXPECT_EQ(ordinal(12), "12th");
    EXPECT_EQ(ordinal(13), "13th");
    EXPECT_EQ(ordinal(21), "21st");
}

TEST(PlacesInOrder, TheWinnerComesFirstWhateverTheirSeat) {
    // What the list read before: "bot (2) 2nd, bot 1st".
    EXPECT_EQ(places_in_order({ "bot (2)", "bot" }, { 2, 1 }), "bot 1st, bot (2) 2nd");
    EXPECT_EQ(places_in_order({ "ann", "bob", "cat", "dan" }, { 3, 1, 4, 2 }),
        "bob 1st, dan 2nd, ann 3rd, cat 4th");
}

TEST(PlacesInOrder, TiesKeepSeatOrderAndUndecidedComeLast) {
    EXPECT_EQ(places_in_order({ "ann", "bob", "cat" }, { 0, 2, 2 }), "bob 2nd, cat 2nd, ann");
    EXPECT_EQ(places_in_order({ "ann", "bob", "cat" }, { 0, 1 }), "bob 1st, ann, cat")
        << "a place missing from the list is not decided";
    EXPECT_EQ(places_in_order({ "ann", "bob" }, { 0, 0 }), "ann, bob");
    EXPECT_EQ(places_in_order({}, {}), "");
}
