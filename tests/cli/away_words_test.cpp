// What a computer played for a player while they were away, as halma status and halma play say
// it to them when they come back: one move named, or how many and the latest few.
#include "cli/client/output.h"

#include <gtest/gtest.h>

using namespace halma::cli;
namespace pb = ::halma::v1;

namespace {

pb::RoomView made_for_you(unsigned count, std::initializer_list<const char*> latest) {
    pb::RoomView v;
    v.set_moves_made_for_you_count(count);
    for (const char* m : latest) v.add_moves_made_for_you(m);
    return v;
}

} // namespace

TEST(MovesMadeForYouWords, NoneSaysNothing) {
    EXPECT_EQ(moves_made_for_you_words(made_for_you(0, {})), "");
}

TEST(MovesMadeForYouWords, OneOrAFewAreNamed) {
    EXPECT_EQ(moves_made_for_you_words(made_for_you(1, { "n4-m9" })),
        "the computer played n4-m9 for you");
    EXPECT_EQ(moves_made_for_you_words(made_for_you(3, { "n4-m9", "o3-m5-k5", "p2-o2" })),
        "the computer played n4-m9, o3-m5-k5, p2-o2 for you");
}

// Past three, the count and the latest three: a line under the board, not the game's record.
TEST(MovesMadeForYouWords, ManyAreCountedWithTheLatestNamed) {
    EXPECT_EQ(moves_made_for_you_words(made_for_you(
                  12, { "a", "b", "c", "d", "e", "f", "g", "h", "n4-m9", "o3-m5", "p2-o2" })),
        "the computer played 12 moves for you; the last 3 were n4-m9, o3-m5, p2-o2");
    EXPECT_EQ(moves_made_for_you_words(made_for_you(4, { "a", "b", "c", "d" })),
        "the computer played 4 moves for you; the last 3 were b, c, d");
}
