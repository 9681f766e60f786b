// A room's rules in words, as the play screen's panel says them beside the board.
#include "cli/client/rules_words.h"

#include <gtest/gtest.h>

using namespace halma::cli;
namespace pb = ::halma::v1;

namespace {

pb::RoomMode with_move_limit(unsigned limit) {
    pb::RoomMode mode;
    mode.set_players(2);
    mode.set_move_limit(limit);
    return mode;
}

} // namespace

TEST(RulesInWords, AMoveLimitOfOneIsOneMove) {
    auto words = rules_in_words(with_move_limit(1));
    ASSERT_EQ(words.size(), 1u);
    EXPECT_EQ(words[0].full, "ends after 1 move each, the rest placed by distance");
    EXPECT_EQ(words[0].brief, "1 move each, then by distance") << "it said \"1 moves each\"";
}

TEST(RulesInWords, AMoveLimitOfSeveralIsMoves) {
    auto words = rules_in_words(with_move_limit(15));
    ASSERT_EQ(words.size(), 1u);
    EXPECT_EQ(words[0].full, "ends after 15 moves each, the rest placed by distance");
    EXPECT_EQ(words[0].brief, "15 moves each, then by distance");
    EXPECT_TRUE(rules_in_words(with_move_limit(1000)).empty()) << "the default limit is not news";
}
