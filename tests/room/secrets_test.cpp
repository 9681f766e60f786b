// The secrets of a room: ids, friends codes and their canonical form, and the comparison that
// does not leak through timing (only its result can be tested here).
#include "daemon/room/secrets.h"

#include <gtest/gtest.h>
#include <set>

using namespace halma::daemon;

TEST(Secrets, HexIdsAre32HexDigitsAndDiffer) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        std::string id = random_hex_id();
        EXPECT_EQ(id.size(), 32u);
        EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 100u);
}

TEST(Secrets, RoomCodesAreFourGroupsOfFiveCrockfordLetters) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        std::string code = random_room_code();
        ASSERT_EQ(code.size(), 23u) << code;
        for (std::size_t k = 0; k < code.size(); ++k) {
            if (k % 6 == 5) {
                EXPECT_EQ(code[k], '-') << code;
                continue;
            }
            EXPECT_NE(std::string_view("0123456789abcdefghjkmnpqrstvwxyz").find(code[k]),
                std::string_view::npos)
                << code;
        }
        EXPECT_EQ(normalize_code(code).size(), 20u);
        EXPECT_EQ(normalize_code(code), normalize_code(normalize_code(code)));
        seen.insert(code);
    }
    EXPECT_EQ(seen.size(), 100u);
}

TEST(Secrets, CodesAreReadAsPeopleTypeThem) {
    EXPECT_EQ(normalize_code("K7F3Q-9XQ2M-A0B1C-D2E3F"), "k7f3q9xq2ma0b1cd2e3f");
    EXPECT_EQ(normalize_code("k7f3q 9xq2m aOb1c d2e3f"), "k7f3q9xq2ma0b1cd2e3f");
    EXPECT_EQ(normalize_code("aIbLcl-Oo"), "a1b1c100");
    EXPECT_EQ(normalize_code(""), "");
}

TEST(Secrets, SecretsEqual) {
    EXPECT_TRUE(secrets_equal("", ""));
    EXPECT_TRUE(secrets_equal("abc", "abc"));
    EXPECT_FALSE(secrets_equal("abc", "abd"));
    EXPECT_FALSE(secrets_equal("abc", "ab"));
    EXPECT_FALSE(secrets_equal("abc", "abcd"));
    EXPECT_FALSE(secrets_equal(std::string("a\0c", 3), "abc"));
}

// A room looked for by a code and not found is said to be a code with a typo, not a name.
TEST(Secrets, AFriendsCodeIsToldFromARoomName) {
    std::string code = random_room_code("abcdefghjkmnpqrs");
    EXPECT_TRUE(looks_like_friends_code(code)) << code;
    EXPECT_TRUE(looks_like_friends_code(code.substr(0, 23))) << "the room's part alone";
    EXPECT_TRUE(looks_like_friends_code("K7F3Q 9XQ2M A0B1C D2E3F"));
    EXPECT_FALSE(looks_like_friends_code("family"));
    EXPECT_TRUE(looks_like_friends_code(normalize_code(code))) << "run together";
    EXPECT_FALSE(looks_like_friends_code("wednesday-afternoon-chess"));
    EXPECT_FALSE(looks_like_friends_code("k7f3q-9xq2m-a0b1c")) << "three groups";
    EXPECT_FALSE(looks_like_friends_code("the office's standing room"));
    EXPECT_FALSE(looks_like_friends_code(""));
}
