// Records of finished games (engine/game_record): a record written and read back is the same
// game, move by move, and every kind of damaged or foreign text is refused with a message
// naming the line and the problem.
#include "engine/game_record.h"
#include "engine/notation.h"

#include <gtest/gtest.h>
#include <random>

using namespace halma::engine;

namespace {

// A two-player game played some random legal moves, as a room would record it.
GameRecord played_record(int moves, std::uint64_t seed) {
    GameRecord r;
    r.room = "office \"east\" \\ wing";
    r.game_number = 7;
    r.started_ms = 1795500000000;
    r.ended_ms = 1795500600000;
    r.setup = *GameSetup::make(2, 1, Rules {});
    r.first_set = 0;
    r.players = { { "alice", 1, "human" }, { "bot", 2, "bot easy" } };
    Game game = *start_of(r);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < moves && !game.over(); ++i) {
        MoveList list;
        game.legal_moves(list);
        Move m = list.size ? list.moves[rng() % static_cast<std::size_t>(list.size)] : Move::pass();
        auto played = game.play(m);
        EXPECT_TRUE(played.has_value());
        r.moves.push_back(played->front().path);
    }
    r.places = { 0, 0 };
    r.ending = "cancelled";
    return r;
}

std::string replace(std::string text, std::string_view from, std::string_view to) {
    auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

std::string error_of(std::string_view text) {
    auto r = parse_record(text);
    EXPECT_FALSE(r.has_value()) << text;
    return r ? "" : r.error().message;
}

} // namespace

TEST(GameRecord, WrittenAndReadBackIsTheSameGame) {
    GameRecord r = played_record(60, 1);
    std::string text = format_record(r);
    EXPECT_EQ(text.rfind("[Format \"halma-record 1\"]\n", 0), 0u);
    EXPECT_NE(text.find("[Room \"office \\\"east\\\" \\\\ wing\"]"), std::string::npos);
    EXPECT_NE(text.find("[Started \"2026-11-24T06:00:00Z\"]"), std::string::npos);
    auto back = parse_record(text);
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(back->room, r.room);
    EXPECT_EQ(back->game_number, 7);
    EXPECT_EQ(back->started_ms, r.started_ms);
    EXPECT_EQ(back->ended_ms, r.ended_ms);
    EXPECT_EQ(back->players[1].name, "bot");
    EXPECT_EQ(back->players[1].kind, "bot easy");
    EXPECT_EQ(back->moves, r.moves);
    EXPECT_EQ(back->ending, "cancelled");
    EXPECT_EQ(format_record(*back), text);
}

TEST(GameRecord, HopPathsAreWrittenInFull) {
    GameRecord r = played_record(200, 2);
    std::string text = format_record(r);
    bool chain = false;
    for (const auto& path : r.moves) {
        EXPECT_NE(text.find(path.empty() ? "pass" : path_name(path)), std::string::npos);
        chain = chain || path.size() > 2;
    }
    EXPECT_TRUE(chain) << "200 random moves made no hop chain";
}

TEST(GameRecord, ShortMovesAreReadAsTheirPath) {
    GameRecord r = played_record(0, 3);
    r.moves.clear();
    std::string text = format_record(r);
    text = replace(text, "[Moves \"0\"]", "[Moves \"1\"]") + "1. n4-m8\n";
    auto back = parse_record(text);
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(path_name(back->moves.at(0)), "n4-m8");
}

TEST(GameRecord, CommentsAndWindowsLineEndsAreRead) {
    std::string text = format_record(played_record(4, 4));
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    crlf += "; a comment after the moves\r\n";
    EXPECT_TRUE(parse_record(crlf).has_value());
}

TEST(GameRecord, GarbageIsRefusedWithTheReason) {
    EXPECT_EQ(
        error_of(""), "not a halma record: it does not start with [Format \"halma-record 1\"]");
    EXPECT_EQ(error_of("\x89PNG\r\n\x1a\n"), "line 1: a tag is [Name \"value\"]");
    EXPECT_EQ(error_of("[Event \"x\"]\n"), "line 1: a record starts with its Format tag");
    EXPECT_EQ(error_of("[Format \"halma-record 2\"]\n"),
        "line 1: this is \"halma-record 2\", not \"halma-record 1\" (the only format this halma "
        "reads)");
    std::string good = format_record(played_record(10, 5));
    EXPECT_EQ(error_of(replace(good, "[Players \"2\"]\n", "")), "the record has no Players tag");
    EXPECT_EQ(error_of(replace(good, "[Players \"2\"]", "[Players \"two\"]")),
        "Players is \"two\"; it must be a number 2 to 6");
    EXPECT_EQ(error_of(replace(good, "[Players \"2\"]", "[Players \"5\"]"))
                  .rfind("Players and SetsPerPlayer: ", 0),
        0u);
    EXPECT_EQ(error_of(replace(good, "[Game \"7\"]", "[Game \"7\"]\n[Game \"8\"]")),
        "line 4: tag Game is given twice");
    EXPECT_EQ(error_of(replace(good, "[Ending \"cancelled\"]", "[Ending \"boredom\"]")),
        "Ending is \"boredom\"; it must be all home, places decided, move limit, stalled, "
        "cancelled, restarted or room closed");
    EXPECT_EQ(error_of(replace(good, "T", "X")).substr(0, 9), "Started: ");
    EXPECT_NE(error_of(replace(good, "[Rules \"", "[Rules \"jumps=sideways,")).find("Rules: "),
        std::string::npos);
    EXPECT_EQ(error_of(replace(good, "[Room \"office", "[Room office")),
        "line 2: tag Room: its value must be in double quotes");
    EXPECT_EQ(error_of(replace(good, "[Moves \"10\"]", "[Moves \"11\"]")),
        "the Moves tag says 11 moves; the record has 10");
    EXPECT_NE(error_of(replace(good, "\n3. ", "\n4. ")).find("expected move \"3. PATH\""),
        std::string::npos);
}

TEST(GameRecord, AnIllegalMoveNamesItsLine) {
    GameRecord r = played_record(0, 6);
    std::string text = replace(format_record(r), "[Moves \"0\"]", "[Moves \"1\"]");
    // Read without replaying (a listing), the move is only a path.
    EXPECT_TRUE(parse_record(text + "1. q1-i5\n", false).has_value());
    std::string error = error_of(text + "1. q1-i5\n");
    EXPECT_EQ(error.rfind("line ", 0), 0u) << error;
    EXPECT_NE(error.find("move 1. q1-i5: "), std::string::npos) << error;
    EXPECT_NE(error_of(text + "1. z9-a1\n").find("z9"), std::string::npos);
}

TEST(GameRecord, TimesRoundTripAndBadOnesAreRefused) {
    EXPECT_EQ(iso_time(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(iso_time(1795500000000), "2026-11-24T06:00:00Z");
    EXPECT_EQ(*parse_iso_time("2026-11-24T06:00:00Z"), 1795500000000);
    EXPECT_FALSE(parse_iso_time("2026-02-30T03:20:00Z").has_value());
    EXPECT_FALSE(parse_iso_time("2026-11-24 03:20:00").has_value());
}
