#include "daemon/discovery/friends_tag.h"
#include "daemon/room/secrets.h"

#include <gtest/gtest.h>

namespace halma::daemon {
namespace {

TEST(FriendsTag, MatchesItsCodeHoweverItIsTyped) {
    std::string code = random_room_code();
    auto t = make_friends_tag(code);
    EXPECT_EQ(t.salt.size(), 16u);
    EXPECT_EQ(t.tag.size(), 32u);
    EXPECT_TRUE(friends_tag_matches(code, t.salt, t.tag));
    std::string shouted = code;
    for (auto& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_TRUE(friends_tag_matches(shouted, t.salt, t.tag));
    std::string squashed;
    for (char c : code)
        if (c != '-') squashed += c;
    EXPECT_TRUE(friends_tag_matches(squashed, t.salt, t.tag));
}

TEST(FriendsTag, NoOtherCodeMatches) {
    std::string code = random_room_code();
    auto t = make_friends_tag(code);
    for (int i = 0; i < 200; ++i)
        EXPECT_FALSE(friends_tag_matches(random_room_code(), t.salt, t.tag));
    EXPECT_FALSE(friends_tag_matches("", t.salt, t.tag));
    EXPECT_FALSE(friends_tag_matches(code, std::string(16, '0'), t.tag)); // another salt
}

TEST(FriendsTag, AFreshSaltEachTimeSoAdvertsCannotBeLinked) {
    std::string code = random_room_code();
    auto a = make_friends_tag(code), b = make_friends_tag(code);
    EXPECT_NE(a.salt, b.salt);
    EXPECT_NE(a.tag, b.tag);
}

} // namespace
} // namespace halma::daemon
