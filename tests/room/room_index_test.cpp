// The host's room index: what a front end or a joining daemon types (id, name, friends code)
// finds the right room, and only the rooms it may find.
#include "daemon/room/room_index.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>
#include <random>

using namespace halma::daemon;

namespace {

RoomConfig public_room(std::string name) {
    return RoomConfig { random_hex_id(), std::move(name), Visibility::kPublic, "", {}, {} };
}

RoomConfig friends_room(std::string name) {
    return RoomConfig { random_hex_id(), std::move(name), Visibility::kFriends,
        random_room_code(std::string(kFriendsKeyDigits, 'a')), {}, {} };
}

// A room of many, quickly: ids and codes from a seeded generator rather than the kernel's.
RoomConfig numbered_room(int i, std::mt19937_64& random) {
    constexpr std::string_view kCrockford = "0123456789abcdefghjkmnpqrstvwxyz";
    std::string id = std::to_string(random()), code;
    if (i % 2)
        for (std::size_t k = 0; k < kFriendsCodeWithKey; ++k) code += kCrockford[random() % 32];
    return RoomConfig { id, "room " + std::to_string(i),
        code.empty() ? Visibility::kPublic : Visibility::kFriends, code, {}, {} };
}

std::string shouted(std::string text) {
    std::ranges::transform(text, text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

} // namespace

TEST(RoomIndex, FrontEndsFindARoomByIdNameOrCodeAsTyped) {
    RoomIndex index;
    RoomConfig lounge = public_room("lounge");
    RoomConfig den = friends_room("den");
    index.add(lounge);
    index.add(den);
    using Ids = std::vector<std::string>;
    EXPECT_EQ(index.matching(lounge.room_id), Ids { lounge.room_id });
    EXPECT_EQ(index.matching("lounge"), Ids { lounge.room_id });
    // This daemon's own user sees its friends rooms by name too.
    EXPECT_EQ(index.matching("den"), Ids { den.room_id });
    EXPECT_EQ(index.matching(den.code), Ids { den.room_id });
    EXPECT_EQ(index.matching(shouted(den.code)), Ids { den.room_id });
    EXPECT_EQ(index.matching(normalize_code(den.code)), Ids { den.room_id });
    EXPECT_TRUE(index.matching("kitchen").empty());
    EXPECT_TRUE(index.matching("").empty());
    EXPECT_EQ(index.named("den"), den.room_id);
    EXPECT_EQ(index.named("Den"), std::nullopt);
}

TEST(RoomIndex, AJoiningDaemonNeedsAPublicNameOrTheCode) {
    RoomIndex index;
    RoomConfig lounge = public_room("lounge");
    RoomConfig den = friends_room("den");
    index.add(lounge);
    index.add(den);
    EXPECT_EQ(index.joinable("lounge"), lounge.room_id);
    EXPECT_EQ(index.joinable(shouted(den.code)), den.room_id);
    EXPECT_EQ(index.joinable("den"), std::nullopt) << "a friends room's name lets no one in";
    EXPECT_EQ(index.joinable(den.room_id), std::nullopt) << "nor its id";
    // A code one letter off, too short, or the room's code without its host-key digits.
    std::string wrong = normalize_code(den.code);
    wrong[3] = wrong[3] == 'a' ? 'b' : 'a';
    EXPECT_EQ(index.joinable(wrong), std::nullopt);
    EXPECT_EQ(index.joinable(normalize_code(den.code).substr(0, kFriendsCodeDigits)), std::nullopt);
    EXPECT_EQ(index.joinable(""), std::nullopt);
}

TEST(RoomIndex, ClosedRoomsAreGoneAndReAddingReplaces) {
    RoomIndex index;
    RoomConfig den = friends_room("den");
    index.add(den);
    RoomConfig renamed = den;
    renamed.name = "study";
    index.add(renamed); // the same id: replaces, keeps no stale name
    EXPECT_EQ(index.size(), 1u);
    EXPECT_EQ(index.named("den"), std::nullopt);
    EXPECT_EQ(index.named("study"), den.room_id);
    index.remove(den.room_id);
    index.remove(den.room_id); // twice, or an id never seen: nothing happens
    index.remove("not-a-room");
    EXPECT_EQ(index.size(), 0u);
    EXPECT_TRUE(index.matching("study").empty());
    EXPECT_EQ(index.joinable(den.code), std::nullopt);
}

TEST(RoomIndex, TenThousandRoomsEachFoundByItsOwnNameAndCode) {
    RoomIndex index;
    std::vector<RoomConfig> rooms;
    std::mt19937_64 random(11);
    for (int i = 0; i < 10000; ++i) rooms.push_back(numbered_room(i, random));
    for (const auto& r : rooms) index.add(r);
    ASSERT_EQ(index.size(), rooms.size());
    for (const auto& r : rooms) {
        ASSERT_EQ(index.named(r.name), r.room_id);
        if (r.visibility == Visibility::kFriends)
            ASSERT_EQ(index.joinable(r.code), r.room_id);
        else
            ASSERT_EQ(index.joinable(r.name), r.room_id);
    }
    // Closing every other room leaves the rest findable.
    for (std::size_t i = 0; i < rooms.size(); i += 2) index.remove(rooms[i].room_id);
    EXPECT_EQ(index.size(), rooms.size() / 2);
    for (std::size_t i = 0; i < rooms.size(); ++i)
        ASSERT_EQ(index.named(rooms[i].name).has_value(), i % 2 == 1) << rooms[i].name;
}
