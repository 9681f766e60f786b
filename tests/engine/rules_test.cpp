#include "engine/rules.h"

#include <gtest/gtest.h>

using namespace halma::engine;

TEST(Rules, DefaultsAreTheClassicGame) {
    Rules r = *Rules::parse("");
    EXPECT_EQ(r.jumps, Jumps::kShort);
    EXPECT_EQ(r.rest, Rest::kOwn);
    EXPECT_TRUE(r.home_lock);
    EXPECT_EQ(r.spoil, Spoil::kNone);
    EXPECT_TRUE(r.release);
    EXPECT_EQ(r.unused, Unused::kEmpty);
    EXPECT_EQ(r.first, FirstMover::kBlack);
}

TEST(Rules, EverySettingParsesAndRoundTrips) {
    auto r = Rules::parse(
        "jumps=long, rest=any,home-lock=off,spoil=swap,release=off,unused=filled,first=coin");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->jumps, Jumps::kLong);
    EXPECT_EQ(r->rest, Rest::kAny);
    EXPECT_FALSE(r->home_lock);
    EXPECT_EQ(r->spoil, Spoil::kSwap);
    EXPECT_FALSE(r->release);
    EXPECT_EQ(r->unused, Unused::kFilled);
    EXPECT_EQ(r->first, FirstMover::kCoin);
    EXPECT_EQ(*Rules::parse(r->to_string()), *r);
    EXPECT_EQ(Rules::parse("rest=unused,spoil=occupied")->to_string(),
        "jumps=short,rest=unused,home-lock=on,spoil=occupied,release=on,unused=empty,first=black");
}

TEST(Rules, BadSettingsNameTheProblem) {
    EXPECT_NE(
        Rules::parse("jumps=huge").error().message.find("jumps=short|long"), std::string::npos);
    EXPECT_NE(Rules::parse("colour=red").error().message.find("unknown rule setting 'colour'"),
        std::string::npos);
    EXPECT_NE(Rules::parse("rest").error().message.find("has no value"), std::string::npos);
    // Two settings with a space between them, not a comma: said so, not "long rest=any is
    // not one of jumps=short|long".
    EXPECT_EQ(Rules::parse("jumps=long rest=any").error().message,
        "rule settings are separated by commas: 'jumps=long rest=any' reads as one; write "
        "jumps=long,rest=any");
    EXPECT_NE(Rules::parse("rest=any,,jumps=long").error().message.find("empty rule setting"),
        std::string::npos);
    // A contradiction is refused, not settled by the last (jumps=long,jumps=short made a room
    // of short jumps).
    auto twice = Rules::parse("jumps=long,rest=any,jumps=short");
    ASSERT_FALSE(twice);
    EXPECT_EQ(twice.error().message, "rule setting jumps is given twice; give it once");
}
