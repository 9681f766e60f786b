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

// A QA pass: 3 computers of 6 in the file, a player from another daemon started, 2 more took
// the free seats, and the next start said "bots: 5 in the room, 3 in the file" of a file never
// edited. The room's setup is the computers it was made with, kept in its config, or, in a room
// made before that, the first of its log.
TEST(StandingRoomDiff, ComputersAStartSeatsAreNotTheRoomsSetup) {
    StandingRoom spec = as_made();
    spec.name = "office six";
    spec.mode.players = 6;
    spec.bots = 3;
    for (bool kept : { true, false }) {
        SCOPED_TRACE(kept ? "bots kept in the config" : "a room made before they were");
        RoomConfig config;
        config.room_id = std::string(32, 'b');
        config.name = spec.name;
        config.mode = spec.mode;
        if (kept) config.bots = 3;
        AuthorityOptions options;
        options.bots_available = true;
        options.default_bot_level = BotLevel::kHard;
        RoomAuthority room(config, options, 7);
        ASSERT_TRUE(room.add_bots(3, BotLevel::kEasy, at(1)));
        auto dan = room.join("dan", "", false, at(2000));
        ASSERT_TRUE(dan);
        ASSERT_FALSE(room.act(dan->token, action::Start {}, at(3000)));
        ASSERT_EQ(room.state().phase(), Phase::kPlaying);
        EXPECT_TRUE(standing_room_differences(spec, room.state(), BotLevel::kHard).empty());
        spec.bots = 2;
        EXPECT_EQ(standing_room_differences(spec, room.state(), BotLevel::kHard),
            (std::vector<std::string> { "bots: 3 in the room, 2 in the file" }));
        spec.bots = 3;
    }
}

TEST(StandingRoomDiff, ACloseCommandPastesIntoAShell) {
    EXPECT_EQ(shell_word("lunch"), "lunch");
    EXPECT_EQ(shell_word("watch the bots"), "'watch the bots'");
    EXPECT_EQ(shell_word("ann's room"), "'ann'\\''s room'");
    EXPECT_EQ(shell_word("$(rm -rf x)"), "'$(rm -rf x)'");
}
