#include "daemon/discovery/service_txt.h"

#include <gtest/gtest.h>

namespace halma::daemon {
namespace {

const std::string kDaemon = "0123456789abcdef";

RoomConfig family() {
    RoomConfig c;
    c.room_id = "00112233445566778899aabbccddeeff";
    c.name = "Family";
    c.mode.players = 3;
    c.mode.sets_per_player = 2;
    c.mode.rules = *engine::Rules::parse("jumps=long");
    c.mode.move_limit = 500;
    return c;
}

TEST(ServiceTxt, PublicRoomRoundTrips) {
    auto txt = public_room_txt(family(), 3, 1, Phase::kWaiting, "ann", kDaemon);
    for (const auto& item : txt) EXPECT_LE(item.size(), 255u) << item; // one DNS TXT string
    auto a = read_room_txt(txt);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->name, "Family");
    EXPECT_EQ(a->host_player, "ann");
    EXPECT_EQ(a->daemon_id, kDaemon);
    EXPECT_EQ(a->room_id, family().room_id);
    EXPECT_EQ(a->players, 3);
    EXPECT_EQ(a->sets_per_player, 2);
    EXPECT_EQ(*engine::Rules::parse(a->rules), family().mode.rules);
    EXPECT_EQ(a->move_limit, 500);
    EXPECT_EQ(a->seats, 3);
    EXPECT_EQ(a->seats_taken, 1);
    EXPECT_EQ(a->phase, Phase::kWaiting);
    EXPECT_FALSE(a->friends());
}

TEST(ServiceTxt, HiddenLeaderIsAdvertised) {
    EXPECT_FALSE(read_room_txt(public_room_txt(family(), 3, 1, Phase::kWaiting, "ann", kDaemon))
                     ->hide_leader);
    RoomConfig quiet = family();
    quiet.mode.hide_leader = true;
    auto a = read_room_txt(public_room_txt(quiet, 3, 1, Phase::kWaiting, "ann", kDaemon));
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->hide_leader);
}

TEST(ServiceTxt, FollowsPhaseAndSeats) {
    auto a = read_room_txt(public_room_txt(family(), 3, 3, Phase::kPlaying, "ann", kDaemon));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->seats_taken, 3);
    EXPECT_EQ(a->phase, Phase::kPlaying);
    a = read_room_txt(public_room_txt(family(), 3, 2, Phase::kOver, "ann", kDaemon));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->phase, Phase::kOver);
}

TEST(ServiceTxt, FriendsRoomSaysNothingOfItself) {
    auto txt = friends_room_txt(kDaemon, "00aa00aa00aa00aa", std::string(32, 'b'));
    for (const auto& item : txt) {
        EXPECT_EQ(item.find("Family"), std::string::npos);
        EXPECT_NE(item.rfind("room=", 0), 0u);
        EXPECT_NE(item.rfind("host=", 0), 0u);
    }
    auto a = read_room_txt(txt);
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->friends());
    EXPECT_EQ(a->friends_salt, "00aa00aa00aa00aa");
    EXPECT_TRUE(a->name.empty());
}

TEST(ServiceTxt, RefusesWhatIsNotAHalmaRoom) {
    auto good = public_room_txt(family(), 3, 1, Phase::kWaiting, "ann", kDaemon);
    auto without = [&](const std::string& key) {
        std::vector<std::string> items;
        for (const auto& i : good)
            if (i.rfind(key + "=", 0) != 0) items.push_back(i);
        return items;
    };
    auto with = [&](const std::string& key, const std::string& value) {
        auto items = without(key);
        items.insert(items.begin(), key + "=" + value);
        return items;
    };
    EXPECT_FALSE(read_room_txt({}));
    EXPECT_FALSE(read_room_txt({ "proto=1" }));
    for (const char* key :
        { "proto", "daemon", "rid", "room", "players", "sets", "limit", "seats", "phase" })
        EXPECT_FALSE(read_room_txt(without(key))) << "without " << key;
    EXPECT_FALSE(read_room_txt(with("proto", "2"))); // a protocol this daemon does not speak
    EXPECT_FALSE(read_room_txt(with("proto", "1x")));
    EXPECT_FALSE(read_room_txt(with("daemon", "xyz")));
    EXPECT_FALSE(read_room_txt(with("players", "7")));
    EXPECT_FALSE(read_room_txt(with("players", "-2")));
    EXPECT_FALSE(read_room_txt(with("players", "99999999999999999999")));
    EXPECT_FALSE(read_room_txt(with("seats", "4/3")));
    EXPECT_FALSE(read_room_txt(with("seats", "1")));
    EXPECT_FALSE(read_room_txt(with("seats", "/3")));
    EXPECT_FALSE(read_room_txt(with("phase", "dancing")));
    EXPECT_FALSE(read_room_txt(with("room", "   ")));
    EXPECT_FALSE(read_room_txt(with("friends", "nodot")));
    EXPECT_FALSE(read_room_txt(with("friends", "00.11")));
    // A mode no room can have, or rules this daemon does not play: they were listed, and the
    // rules' free text printed in every player's room list.
    EXPECT_FALSE(read_room_txt(with("sets", "3"))) << "3 players with 3 sets each";
    EXPECT_FALSE(read_room_txt(with("seats", "1/2"))) << "2 seats for 3 players";
    EXPECT_FALSE(read_room_txt(with("rules", "please-also-run=curl-evil|sh")));
    EXPECT_FALSE(read_room_txt(with("rules", "jumps=long," + std::string(200, ' '))));
    EXPECT_TRUE(read_room_txt(with("rules", "jumps=long")))
        << "a rule setting as rules.md spells it";
    std::vector<std::string> many(40, "x=y");
    many.insert(many.end(), good.begin(), good.end());
    EXPECT_FALSE(read_room_txt(many)); // more items than any halma record has
}

TEST(ServiceTxt, CleansAndBoundsWhatItShows) {
    auto txt = public_room_txt(family(), 3, 1, Phase::kWaiting, "ann", kDaemon);
    std::vector<std::string> hostile;
    for (const auto& i : txt) {
        if (i.rfind("room=", 0) == 0)
            hostile.push_back("room=\x1b]0;owned\x07" + std::string(300, 'r'));
        else if (i.rfind("host=", 0) == 0)
            hostile.push_back("host=\x1b[31mred\xe2\x80\xae" + std::string(100, 'h'));
        else
            hostile.push_back(i);
    }
    auto a = read_room_txt(hostile);
    ASSERT_TRUE(a);
    EXPECT_LE(a->name.size(), 40u);
    EXPECT_LE(a->host_player.size(), 32u);
    for (char c : a->name + a->host_player) EXPECT_FALSE(c == '\x1b' || c == '\x07');
    EXPECT_EQ(a->host_player.find("\xe2\x80\xae"), std::string::npos); // no bidi override
    // Padding that pushed the machine's column out of sight, and a padded room name, trimmed.
    std::vector<std::string> padded;
    for (const auto& i : txt)
        padded.push_back(i.rfind("host=", 0) == 0 ? "host=ann (ann.local)                    "
                : i.rfind("room=", 0) == 0        ? "room=  lunch     time  "
                                                  : i);
    auto p = read_room_txt(padded);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->host_player, "ann (ann.local)");
    EXPECT_EQ(p->name, "lunch     time") << "joined by its name as its host has it";
}

TEST(ServiceTxt, KeysAreCaseInsensitiveAndFirstWins) {
    auto txt = public_room_txt(family(), 3, 1, Phase::kWaiting, "ann", kDaemon);
    txt.insert(txt.begin(), "ROOM=First");
    auto a = read_room_txt(txt);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->name, "First");
}

} // namespace
} // namespace halma::daemon
