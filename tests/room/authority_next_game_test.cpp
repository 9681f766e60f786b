// A room where only computer players sit starts its next game by itself, mode.next_game_ms after
// a game ends (bots cannot vote); a room with a person in a seat waits for the votes. A room
// closed mid-game hands over the game as a record ("room closed").
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
using std::chrono::milliseconds;

namespace {

AuthorityOptions with_bots() {
    AuthorityOptions options;
    options.bots_available = true;
    return options;
}

// Bot moves for whoever is to move until the game is over or `moves` were made.
void play_bots(RoomAuthority& room, int moves, std::int64_t& t) {
    for (int i = 0; i < moves && room.state().phase() == Phase::kPlaying; ++i) {
        MemberId bot = room.bot_to_move();
        ASSERT_NE(bot, kNoMember);
        ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(t++)));
    }
}

// A 2-player room of two bots, a 2-move limit and a 3 s pause: its first game runs.
RoomAuthority bot_room() {
    RoomConfig config = room_config(2, 1, "", 2);
    config.mode.next_game_ms = 3000;
    RoomAuthority room(config, with_bots(), kSeed);
    EXPECT_TRUE(room.add_bots(2, BotLevel::kEasy, at_ms(0)));
    EXPECT_EQ(room.state().phase(), Phase::kPlaying);
    return room;
}

// Ann (seat 0) and an easy bot, 2-move games, a 1 s pause: ann leaves at once, so a computer
// stands in for her and only computers sit.
constexpr int kAnnSeat = 0;
RoomAuthority room_ann_left() {
    RoomConfig config = room_config(2, 1, "", 2);
    config.mode.next_game_ms = 1000;
    RoomAuthority room(config, with_bots(), kSeed);
    auto ann = room.join("ann", "", false, at_ms(0));
    EXPECT_TRUE(ann && ann->seat == kAnnSeat);
    EXPECT_TRUE(room.add_bots(1, BotLevel::kEasy, at_ms(1)));
    EXPECT_FALSE(room.act(ann->token, action::Leave {}, at_ms(2)));
    return room;
}

} // namespace

TEST(AuthorityNextGame, ABotsOnlyRoomStartsItsNextGameAfterThePause) {
    RoomAuthority room = bot_room();
    std::int64_t t = 10;
    EXPECT_FALSE(room.next_game_at()) << "no pause while a game is played";
    for (int game = 1; game <= 3; ++game) {
        play_bots(room, 20, t);
        ASSERT_EQ(room.state().phase(), Phase::kOver);
        std::int64_t ended = t - 1;
        ASSERT_TRUE(room.next_game_at());
        EXPECT_EQ(*room.next_game_at(), at_ms(ended).steady + milliseconds(3000));
        EXPECT_EQ(room.next_deadline(), room.next_game_at());
        room.tick(at_ms(ended + 2999));
        EXPECT_EQ(room.state().game_number(), game) << "not before the pause is over";
        room.tick(at_ms(ended + 3000));
        EXPECT_EQ(room.state().game_number(), game + 1);
        EXPECT_EQ(room.state().phase(), Phase::kPlaying);
        EXPECT_FALSE(room.next_game_at());
        t = ended + 3001;
    }
    auto records = room.take_finished_games();
    ASSERT_EQ(records.size(), 3u) << "each game is recorded";
    for (const auto& r : records) EXPECT_EQ(r.ending, "move limit");
}

TEST(AuthorityNextGame, ARoomWithAPersonSeatedWaitsForTheVote) {
    RoomConfig config = room_config(2, 1, "", 2);
    config.mode.next_game_ms = 10;
    RoomAuthority room(config, with_bots(), kSeed);
    auto ann = room.join("ann", "", false, at_ms(0));
    ASSERT_TRUE(room.add_bots(1, BotLevel::kEasy, at_ms(1)));
    std::int64_t t = 2;
    for (int i = 0; i < 20 && room.state().phase() == Phase::kPlaying; ++i) {
        if (MemberId bot = room.bot_to_move())
            ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(t++)));
        else
            ASSERT_FALSE(room.act(
                ann->token, action::Move { greedy_text(*room.state().game()) }, at_ms(t++)));
    }
    ASSERT_EQ(room.state().phase(), Phase::kOver);
    EXPECT_FALSE(room.next_game_at());
    room.tick(at_ms(t + 3'600'000));
    EXPECT_EQ(room.state().game_number(), 1) << "a person in a seat votes for the next game";
    ASSERT_FALSE(room.act(ann->token, action::Vote { VoteKind::kNewGame }, at_ms(t + 3'600'001)));
    EXPECT_EQ(room.state().game_number(), 2);
}

TEST(AuthorityNextGame, APersonWhoTakesASeatInThePauseStopsIt) {
    // Ann leaves mid-game: a bot stands in and the game ends among bots. In the pause, a
    // newcomer takes the seat over: the room has a person seated again and waits for a vote.
    RoomAuthority room = room_ann_left();
    std::int64_t t = 3;
    play_bots(room, 20, t);
    ASSERT_EQ(room.state().phase(), Phase::kOver);
    ASSERT_TRUE(room.next_game_at()) << "the people all left: only bots sit";
    auto carl = room.join("carl", "", false, at_ms(t));
    ASSERT_TRUE(carl);
    EXPECT_NE(carl->seat, kNoSeat);
    EXPECT_FALSE(room.next_game_at());
    room.tick(at_ms(t + 5000));
    EXPECT_EQ(room.state().game_number(), 1);
}

TEST(AuthorityNextGame, TheGameJustPlayedIsCreditedToWhoPlayedIt) {
    // The computer standing in for ann finishes the game; carl takes the seat in the pause.
    // The standings of that game name the computer (they named carl, who never moved), and the
    // next game is carl's.
    RoomAuthority room = room_ann_left();
    std::int64_t t = 3;
    play_bots(room, 20, t);
    ASSERT_EQ(room.state().phase(), Phase::kOver);
    EXPECT_EQ(room.state().player_name(kAnnSeat), "bot for ann");
    auto carl = room.join("carl", "", false, at_ms(t));
    ASSERT_TRUE(carl);
    ASSERT_EQ(carl->seat, kAnnSeat);
    EXPECT_EQ(room.state().player_name(kAnnSeat), "bot for ann") << "not carl: he never moved";
    ASSERT_FALSE(room.act(carl->token, action::Vote { VoteKind::kNewGame }, at_ms(t + 1)));
    ASSERT_EQ(room.state().game_number(), 2);
    EXPECT_EQ(room.state().player_name(kAnnSeat), "carl");
}

TEST(AuthorityNextGame, AfterGamesAmongComputersOnlyANewcomerStillGetsTheSeat) {
    // Ann leaves mid-game and nobody takes her seat in the pause: the next games start by
    // themselves among the computers. The one standing in for her keeps the seat for the next
    // newcomer all along (once the next game started, the room was the computers' for good, and
    // `halma join` said it was full).
    RoomAuthority room = room_ann_left();
    std::int64_t t = 3;
    for (int game = 1; game <= 2; ++game) {
        play_bots(room, 20, t);
        ASSERT_EQ(room.state().phase(), Phase::kOver);
        t += 1000;
        room.tick(at_ms(t++));
        ASSERT_EQ(room.state().game_number(), game + 1);
        EXPECT_EQ(room.state().seats_taken(), 1) << "the stand-in's seat is listed as free";
    }
    auto carl = room.join("carl", "", false, at_ms(t));
    ASSERT_TRUE(carl) << carl.error().message;
    EXPECT_NE(carl->seat, kNoSeat);
    EXPECT_EQ(room.state().game_number(), 3) << "carl takes over the computer's marbles";
    EXPECT_EQ(room.state().seats_taken(), 2);
    RoomState replica(room.state().config());
    auto error = replay(room.state().config(), room.state().log(), replica);
    ASSERT_FALSE(error) << *error;
    auto diff = state_difference(room.state(), replica);
    EXPECT_FALSE(diff) << *diff;
    auto back = RoomAuthority::restore(
        room.state().config(), with_bots(), kSeed, room.state().log(), room.tokens(), at_ms(t + 1));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->state().seats_taken(), 2);
}

TEST(AuthorityNextGame, ARestoredBotsOnlyRoomPausesAfresh) {
    RoomAuthority room = bot_room();
    std::int64_t t = 10;
    play_bots(room, 20, t);
    ASSERT_EQ(room.state().phase(), Phase::kOver);
    auto back = RoomAuthority::restore(room.state().config(), with_bots(), kSeed,
        room.state().log(), room.tokens(), at_ms(50'000));
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_TRUE(back->next_game_at());
    EXPECT_EQ(*back->next_game_at(), at_ms(53'000).steady);
    back->tick(at_ms(53'000));
    EXPECT_EQ(back->state().game_number(), 2);
}

TEST(AuthorityNextGame, AGameCutShortByTheCloseIsRecorded) {
    RoomAuthority room = bot_room();
    std::int64_t t = 10;
    play_bots(room, 1, t);
    room.close(at_ms(777));
    auto records = room.take_finished_games();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].ending, "room closed");
    EXPECT_EQ(records[0].moves.size(), 1u);
    EXPECT_EQ(records[0].places, (std::vector<int> { 0, 0 }));
    EXPECT_EQ(records[0].ended_ms, at_ms(777).wall_ms);
    auto text = halma::engine::format_record(records[0]);
    auto back = halma::engine::parse_record(text);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->ending, "room closed");
    EXPECT_FALSE(room.next_game_at());

    // A game already over when the room closes was recorded when it ended: not twice.
    RoomAuthority over = bot_room();
    play_bots(over, 20, t);
    ASSERT_EQ(over.take_finished_games().size(), 1u);
    over.close(at_ms(t));
    EXPECT_TRUE(over.take_finished_games().empty());
}
