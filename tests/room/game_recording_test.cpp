// Records of a room's games (daemon/room/game_recording): the authority hands over one for each
// game that ends or is left for a new one, and it is the game as played (its text reads back
// and replays to the room's position); a new game folds the old one's moves out of the log.
#include "daemon/room/game_recording.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

// Plays greedy moves for whoever is to move until the game is over or `moves` were made.
void play(TwoPlayers& p, int moves, std::int64_t& t) {
    for (int i = 0; i < moves && p.room.state().phase() == Phase::kPlaying; ++i) {
        int seat = p.room.state().seat_to_move();
        const auto& token = seat == p.ann.seat ? p.ann.token : p.bob.token;
        ASSERT_FALSE(
            p.room.act(token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(t++)));
    }
}

void vote_new_game(TwoPlayers& p, std::int64_t& t) {
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(t++)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(t++)));
}

} // namespace

TEST(GameRecording, AGameThatEndsIsRecordedAsPlayed) {
    TwoPlayers p({}, room_config(2, 1, "", 4));
    std::int64_t t = 100;
    play(p, 20, t);
    ASSERT_EQ(p.room.state().phase(), Phase::kOver);
    auto records = p.room.take_finished_games();
    ASSERT_EQ(records.size(), 1u);
    const auto& r = records[0];
    EXPECT_EQ(r.game_number, 1);
    EXPECT_EQ(r.ending, "move limit");
    EXPECT_EQ(r.moves.size(), 8u);
    EXPECT_EQ(r.players[static_cast<std::size_t>(p.room.state().player_of_seat(0))].name, "ann");
    EXPECT_EQ(r.ended_ms, at_ms(t - 1).wall_ms);
    EXPECT_GT(r.places[0], 0);
    auto back = engine::parse_record(engine::format_record(r));
    ASSERT_TRUE(back) << back.error().message;
    engine::Game game = *engine::start_of(*back);
    for (const auto& path : back->moves) ASSERT_TRUE(game.play(engine::path_name(path)));
    EXPECT_EQ(game.position(), p.room.state().game()->position());
    EXPECT_TRUE(p.room.take_finished_games().empty()) << "one record a game";
}

TEST(GameRecording, AGameLeftForANewOneIsRecordedAsRestarted) {
    TwoPlayers p;
    std::int64_t t = 100;
    play(p, 5, t);
    t += 60'000; // a minute's talk before the vote that ends it
    vote_new_game(p, t);
    auto records = p.room.take_finished_games();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].ending, "restarted");
    EXPECT_EQ(records[0].ended_ms, at_ms(t - 1).wall_ms)
        << "it ended with the vote, not its last move";
    EXPECT_EQ(records[0].moves.size(), 5u);
    EXPECT_EQ(records[0].places, (std::vector<int> { 0, 0 }));
    EXPECT_EQ(p.room.state().game_number(), 2);
}

TEST(GameRecording, ANewGameFoldsTheOldOneOutOfTheLog) {
    TwoPlayers p({}, room_config(2, 1, "", 40));
    std::int64_t t = 100;
    std::vector<std::size_t> sizes;
    for (int game = 1; game <= 6; ++game) {
        play(p, 200, t);
        ASSERT_EQ(p.room.state().phase(), Phase::kOver);
        vote_new_game(p, t);
        sizes.push_back(p.room.state().log().size());
        // Nothing is left of the games before: the log is the members and the new game's start.
        int old_moves = 0;
        for (const auto& e : p.room.state().log()) {
            if (std::holds_alternative<event::GameStarted>(e.body))
                old_moves = 0;
            else
                old_moves += std::holds_alternative<event::MovePlayed>(e.body);
        }
        EXPECT_EQ(old_moves, 0);
        EXPECT_LE(p.room.state().log().size(), 6u) << "game " << game;
    }
    EXPECT_EQ(p.room.take_finished_games().size(), 6u);
    // A replica applying the same events folds the same way, and a restore of the folded log
    // is the same room.
    RoomState again(p.room.state().config());
    for (const auto& e : p.room.state().log()) ASSERT_FALSE(again.replay(e));
    auto diff = state_difference(p.room.state(), again);
    EXPECT_FALSE(diff) << *diff;
}

// A record of a game begun before the deadlock rule has no EndWhenStuck tag and holds the passes
// played after the deadlock: it reads and replays (halma replay, records show), as it did. One
// of a game under the rule says so, and ends at the deadlock.
TEST(GameRecording, ARecordFromBeforeTheDeadlockRuleStillReplays) {
    for (bool rule : { false, true }) {
        SCOPED_TRACE(rule ? "under the rule" : "from before it");
        engine::GameRecord r;
        r.room = "duel";
        r.game_number = 1;
        r.started_ms = 1795500000000;
        r.ended_ms = r.started_ms + 60'000;
        r.setup = *engine::GameSetup::make(2, 1, engine::Rules {});
        r.setup.end_when_stuck = rule;
        r.players = { { "ann", 1, "human" }, { "bob", 2, "human" } };
        engine::Game g = *engine::start_of(r);
        for (const auto& text : kWalledInGame) {
            if (g.over()) break;
            auto played = g.play(text);
            ASSERT_TRUE(played) << text << ": " << played.error().message;
            r.moves.push_back(played->front().path);
        }
        r.places = { 0, 0 };
        r.ending = rule ? "stalled" : "cancelled";
        std::string text = engine::format_record(r);
        EXPECT_EQ(text.find("[EndWhenStuck"),
            rule ? text.find("[EndWhenStuck \"on\"]") : std::string::npos);
        auto read = engine::parse_record(text, true);
        ASSERT_TRUE(read) << read.error().message;
        EXPECT_EQ(read->setup.end_when_stuck, rule);
        EXPECT_EQ(read->moves.size(), rule ? 129u : kWalledInGame.size());
    }
}

// Every level a computer can play at is written in a way the reader takes: a game with a max
// bot was written as "bot max", which the reader refused, and the record vanished from
// `halma records` and could not be replayed.
TEST(GameRecording, AComputerAtEveryLevelReadsBack) {
    for (BotLevel level : { BotLevel::kEasy, BotLevel::kHard, BotLevel::kMax }) {
        AuthorityOptions options;
        options.bots_available = true;
        RoomAuthority room(room_config(2), options, kSeed);
        ASSERT_TRUE(room.join("ann", "", false, at_ms(0)));
        ASSERT_TRUE(room.add_bots(1, level, at_ms(1)));
        ASSERT_EQ(room.state().phase(), Phase::kPlaying);
        auto record = halma::daemon::record_of(room.state(), "cancelled", at_ms(2).wall_ms);
        std::string kind = "bot " + std::string(bot_level_name(level));
        auto bot = std::find_if(record.players.begin(), record.players.end(),
            [](const engine::RecordPlayer& p) { return p.name == "bot"; });
        ASSERT_NE(bot, record.players.end());
        EXPECT_EQ(bot->kind, kind);
        auto back = engine::parse_record(engine::format_record(record));
        ASSERT_TRUE(back) << kind << ": " << back.error().message;
        ASSERT_EQ(back->players.size(), record.players.size());
        for (std::size_t i = 0; i < record.players.size(); ++i)
            EXPECT_EQ(back->players[i].kind, record.players[i].kind);
    }
}
