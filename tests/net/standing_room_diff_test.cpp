// What the log says when a standing room's [[room]] was edited (daemon/net/standing_room_diff):
// each setting that differs, bots and their level included, and a close command that pastes.
#include "daemon/net/standing_room_diff.h"
#include "daemon/room/room_authority.h"

#include <gtest/gtest.h>

using namespace halma::daemon;

namespace {

Now at(std::int64_t ms) {
    Now now;
    now.steady = std::chrono::steady_clock::time_point(std::chrono::milliseconds(ms));
    now.wall_ms = 1'795'500'000'000 + ms;
    return now;
}

StandingRoom as_made() {
    StandingRoom spec;
    spec.name = "watch the bots";
    spec.mode.players = 2;
    spec.bots = 2;
    spec.bot_level = BotLevel::kEasy;
    return spec;
}

} // namespace

TEST(StandingRoomDiff, NamesEachSettingThatDiffersBotsIncluded) {
    StandingRoom spec = as_made();
    RoomConfig config;
    config.room_id = std::string(32, 'a');
    config.name = spec.name;
    config.mode = spec.mode;
    AuthorityOptions options;
    options.bots_available = true;
    RoomAuthority room(config, options, 7);
    ASSERT_TRUE(room.add_bots(2, BotLevel::kEasy, at(1)));
    EXPECT_TRUE(standing_room_differences(spec, room.state(), BotLevel::kHard).empty());

    spec.bot_level = BotLevel::kHard;
    spec.visibility = Visibility::kFriends;
    spec.mode.move_limit = 60;
    auto said = standing_room_differences(spec, room.state(), BotLevel::kHard);
    EXPECT_EQ(said,
        (std::vector<std::string> { "visibility: public in the room, friends in the file",
            "move-limit: 1000 in the room, 60 in the file",
            "bot-level: easy in the room, hard in the file" }));
    spec = as_made();
    spec.bots = 1;
    said = standing_room_differences(spec, room.state(), BotLevel::kHard);
    EXPECT_EQ(said, (std::vector<std::string> { "bots: 2 in the room, 1 in the file" }));
}

TEST(StandingRoomDiff, ACloseCommandPastesIntoAShell) {
    EXPECT_EQ(shell_word("lunch"), "lunch");
    EXPECT_EQ(shell_word("watch the bots"), "'watch the bots'");
    EXPECT_EQ(shell_word("ann's room"), "'ann'\\''s room'");
    EXPECT_EQ(shell_word("$(rm -rf x)"), "'$(rm -rf x)'");
}
