// What the screens and halma status say of a room in words: its status and standings, who
// leads, who won, how the next game comes, a turn's time left, and the room list's columns.
#include "cli/client/output.h"
#include "cli/client/play_log.h"
#include "cli/client/play_screen.h"
#include "cli/client/room_table.h"
#include "cli/client/term_text.h"
#include "room_view_fixture.h"

#include <gtest/gtest.h>

using namespace halma::cli;
using halma::testing::room_view;
using halma::testing::sort_standings;
namespace pb = ::halma::v1;

TEST(TermText, EscapesAndUtf8TakeTheirRealWidth) {
    EXPECT_EQ(visible_width("\x1b[1;91mR\x1b[0m · ·"), 5);
    EXPECT_EQ(fit("\x1b[91mabcdef\x1b[0m", 3), "\x1b[91mabc\x1b[0m") << "cut colour is reset";
    EXPECT_EQ(fit("··", 4, true), "··  ");
    EXPECT_EQ(visible_width(fit("a\x1b[1mbcdefgh", 0)), 0);
    EXPECT_EQ(wrap("one two three", 7), "one two\nthree\n");
    // As a terminal shows them: wide characters take two columns, zero-width ones none (names
    // are anyone's text; a room list padded them by characters, and its columns went astray).
    EXPECT_EQ(visible_width("Zo\u00eb \U0001F3B2\u5bb6"), 8);
    EXPECT_EQ(visible_width("a\u200bb"), 2);
    EXPECT_EQ(visible_width("e\u0301"), 1);
    EXPECT_EQ(fit("\u5bb6\u5bb6", 3, true), "\u5bb6 ")
        << "a wide character that does not fit is left out";
}

// After a game, the screens say how the next one comes, as the room stands: a room of computer
// players starts it by itself (it told spectators to "halma vote new", which they cannot), a
// spectator cannot vote, and a player's vote needs only the players present.
TEST(NextGame, EachSaysHowTheNextGameComesForThem) {
    pb::RoomView v = room_view(2);
    v.mutable_summary()->set_phase(pb::PHASE_OVER);
    v.mutable_summary()->mutable_mode()->set_next_game_ms(5000);
    EXPECT_EQ(next_game_words(v, "halma vote new"),
        "halma vote new (every player present must agree; colours turn)");
    v.set_your_seat(-1);
    EXPECT_EQ(next_game_words(v, "halma vote new"), "when every player present votes for it");
    v.mutable_seats(1)->clear_name(); // gone past the hold after the game: free
    EXPECT_EQ(next_game_words(v, "/vote new"),
        "when seat 2 is taken (/start puts a computer there) and every player present votes for "
        "it");
    v.mutable_seats(1)->set_name("player 2");
    for (auto& seat : *v.mutable_seats()) seat.set_bot(true);
    EXPECT_EQ(next_game_words(v, "/vote new"),
        "starts by itself 5 s after the last one ended (only computers play here)");
    v.mutable_summary()->mutable_mode()->set_next_game_ms(50);
    EXPECT_EQ(next_game_words(v, "/vote new"),
        "starts by itself 50 ms after the last one ended (only computers play here)")
        << "it said 1 s";
    v.mutable_summary()->mutable_mode()->set_next_game_ms(5000);
    auto lines = status_panel(v, false, 40);
    std::string screen;
    for (const auto& line : lines) screen += line + "\n";
    EXPECT_NE(screen.find("starts by itself"), std::string::npos) << screen;
    EXPECT_EQ(screen.find("/vote new"), std::string::npos) << screen;
}

TEST(RoomTable, ColumnsLineUpOnScreenWhateverTheNames) {
    pb::RoomList rooms;
    // On screen: 4, 4 and 5 columns ("家" and "🎲" take two each), so the widest is 5.
    const std::vector<std::pair<std::string, int>> names { { "abcd", 3 }, { "\u5bb6\u5bb6", 3 },
        { "Zo\u00eb\U0001F3B2", 2 } };
    for (const auto& [name, gap] : names) {
        auto* r = rooms.add_rooms();
        r->set_name(name);
        r->set_seats(2);
        r->mutable_mode()->set_players(2);
        r->set_origin(pb::ROOM_ORIGIN_HOSTED);
    }
    std::string table = format_room_table(rooms);
    for (const auto& [name, gap] : names)
        EXPECT_NE(table.find(name + std::string(static_cast<std::size_t>(gap), ' ') + "2 players"),
            std::string::npos)
            << name << " followed by " << gap << " spaces:\n"
            << table;
}

// A person may call themselves "bot": the standings say which players are computers, as the
// seats do (they read "bot (2)" for a person beside a computer named "bot").
TEST(RoomStatus, TheStandingsSayWhichPlayersAreComputers) {
    pb::RoomView v = room_view(2);
    v.mutable_seats(0)->set_name("bot");
    v.mutable_standings(0)->set_name("bot");
    v.mutable_seats(1)->set_name("bot (2)");
    v.mutable_seats(1)->set_bot(true);
    v.mutable_seats(1)->set_bot_level("easy");
    v.mutable_standings(1)->set_name("bot (2)");
    std::string status = format_room_status(v, false);
    EXPECT_NE(status.find("  bot: 120 to go"), std::string::npos) << status;
    EXPECT_NE(status.find("  bot (2) [easy bot]: 120 to go"), std::string::npos) << status;
}

// A shared first place is a draw (docs/rules.md): the screens said "winner: ann" and, on the
// next line, "winner: bob", as if both had won alone.
TEST(RoomStatus, ASharedFirstPlaceIsCalledADraw) {
    pb::RoomView v = room_view(3);
    v.mutable_summary()->set_phase(pb::PHASE_OVER);
    v.set_game_end(pb::GAME_END_MOVE_LIMIT);
    for (int p = 0; p < 3; ++p) v.mutable_standings(p)->set_place(p == 2 ? 3 : 1);
    v.set_your_seat(2); // watching from the seat that came third
    EXPECT_EQ(winner_words(v), "draw: player 1 and player 2 share first place");
    std::string status = format_room_status(v, false);
    EXPECT_NE(status.find("draw: player 1 and player 2 share first place\n"), std::string::npos)
        << status;
    std::string screen;
    for (const auto& line : status_panel(v, false, 40)) screen += line + "\n";
    EXPECT_NE(screen.find("draw: player 1 and player 2"), std::string::npos) << screen;
    EXPECT_EQ(screen.find("winner:"), std::string::npos) << screen;
    v.mutable_standings(1)->set_place(2);
    EXPECT_EQ(winner_words(v), "winner: player 1");
}

// The viewer's own win is said to them as theirs: "winner: ann" to ann read as someone else's.
TEST(RoomStatus, TheViewersOwnWinIsSaidAsTheirs) {
    pb::RoomView v = room_view(3); // seen from seat 0, "player 1"
    v.mutable_summary()->set_phase(pb::PHASE_OVER);
    for (int p = 0; p < 3; ++p) v.mutable_standings(p)->set_place(p == 0 ? 2 : p == 1 ? 1 : 3);
    EXPECT_EQ(winner_words(v), "winner: player 2");
    v.mutable_standings(0)->set_place(1);
    EXPECT_EQ(winner_words(v), "draw: you and player 2 share first place");
    v.mutable_standings(1)->set_place(2);
    EXPECT_EQ(winner_words(v), "you won");
}

// Who leads, when nobody is ahead alone: those level at the front are named; "nobody" only when
// everyone still playing is level (it said "nobody (level)" of two level ahead of a third).
TEST(LeaderWords, NamesThoseLevelAtTheFront) {
    pb::RoomView v = room_view(3);
    v.set_leader_seat(-1);
    v.clear_standings();
    auto standing = [&](const char* name, unsigned left, bool finished = false) {
        auto* st = v.add_standings();
        st->set_name(name);
        st->set_distance_left(left);
        st->set_finished(finished);
    };
    standing("mum", 119);
    standing("kid", 119);
    standing("grandpa", 120);
    EXPECT_EQ(leader_words(v), "mum and kid (level)");
    v.mutable_standings(2)->set_distance_left(119);
    EXPECT_EQ(leader_words(v), "nobody yet (all level)");
    v.set_leader_seat(0);
    EXPECT_EQ(leader_words(v), v.seats(0).name());
}

// Two home in the same round are level ahead of those still playing: it named the best of those
// still playing (a review).
TEST(LeaderWords, TwoHomeInTheSameRoundLeadLevel) {
    pb::RoomView v = room_view(4);
    v.set_leader_seat(-1);
    for (int i = 0; i < 4; ++i) {
        auto* st = v.mutable_standings(i);
        st->set_finished(i < 2);
        st->set_moves(40);
        st->set_distance_left(i < 2 ? 0 : 10 + static_cast<unsigned>(i));
    }
    sort_standings(v);
    EXPECT_EQ(leader_words(v), "player 1 and player 2 (level, home)");
}

TEST(LeaderWords, ManyLevelAreCountedWhenAskedTo) {
    pb::RoomView v = room_view(6);
    for (int i = 1; i < 6; ++i) v.mutable_standings(i)->set_distance_left(118);
    sort_standings(v);
    EXPECT_EQ(leader_words(v), "player 2, player 3, player 4, player 5 and player 6 (level)");
    EXPECT_EQ(leader_words(v, 4), "5 players (level)");
}

TEST(TimeLeftWords, SecondsMinutesHours) {
    pb::RoomView v;
    EXPECT_EQ(time_left_words(v), "") << "no clock";
    v.set_turn_ms_left(44'001);
    EXPECT_EQ(time_left_words(v), "45 s");
    v.set_turn_ms_left(125'000);
    EXPECT_EQ(time_left_words(v), "2:05");
    v.set_turn_ms_left(3'725'000);
    EXPECT_EQ(time_left_words(v), "1:02:05");
    v.set_turn_ms_left(0);
    EXPECT_EQ(time_left_words(v), "0 s");
}

// A move limit the host chose is said where a player looks (the panel beside the board and
// halma status), not only in halma rooms: a family's game just ended on it, unannounced.
TEST(RoomStatus, AMoveLimitIsSaidBeforeTheGameEndsOnIt) {
    pb::RoomView v = room_view(2);
    v.mutable_summary()->mutable_mode()->set_players(2);
    v.mutable_summary()->mutable_mode()->set_move_limit(5);
    std::string status = format_room_status(v, false);
    EXPECT_NE(status.find("mode: 2 players, limit 5\n"), std::string::npos) << status;
    std::string screen;
    for (const auto& line : status_panel(v, false, 40)) screen += line + "\n";
    EXPECT_NE(screen.find("ends after 5 moves each, the"), std::string::npos) << screen;
    // The default ends no real game: not said.
    v.mutable_summary()->mutable_mode()->set_move_limit(1000);
    screen.clear();
    for (const auto& line : status_panel(v, false, 40)) screen += line + "\n";
    EXPECT_EQ(screen.find("moves each"), std::string::npos) << screen;
    EXPECT_EQ(screen.find("rules"), std::string::npos) << "plain rules are not news:\n" << screen;
}

// A room joined before a restart whose host has not answered since: nothing of it is known, and
// the table said so with made-up figures ("0 players", "0/0").
TEST(RoomTable, ARoomNotHeardOfYetShowsNoFigures) {
    pb::RoomList rooms;
    auto* r = rooms.add_rooms();
    r->set_name("porch");
    r->set_address("10.0.0.3:7460");
    r->set_origin(pb::ROOM_ORIGIN_JOINED);
    r->set_host_out_of_reach(true);
    std::string table = format_room_table(rooms);
    EXPECT_EQ(table.find("0 players"), std::string::npos) << table;
    EXPECT_EQ(table.find("0/0"), std::string::npos) << table;
    EXPECT_NE(table.find("not heard of yet, joined, host out of reach"), std::string::npos)
        << table;
}

// The player's own moves and votes are theirs in play's log: "ann votes for a new game" read to
// ann as another's vote. Others' stay named.
TEST(PlayLog, TheViewersOwnMovesAndVotesAreSaidAsTheirs) {
    pb::RoomView v = room_view(2);
    v.mutable_seats(0)->set_member(7);
    v.mutable_seats(1)->set_member(8);
    auto vote = [](std::uint32_t member, const std::string& text) {
        pb::Event e;
        e.mutable_event()->mutable_vote()->set_member(member);
        e.set_text(text);
        return e;
    };
    EXPECT_EQ(log_line(vote(7, "player 1 votes for a new game"), v), "you vote for a new game");
    EXPECT_EQ(
        log_line(vote(7, "player 1 votes to cancel the game"), v), "you vote to cancel the game");
    EXPECT_EQ(log_line(vote(7, "player 1 asks to take back their last move (a1-b2)"), v),
        "you ask to take back your last move (a1-b2)");
    EXPECT_EQ(log_line(vote(7, "player 1 agrees to take back player 2's last move"), v),
        "you agree to take back player 2's last move");
    EXPECT_EQ(
        log_line(vote(8, "player 2 votes for a new game"), v), "player 2 votes for a new game");
    pb::Event move;
    move.mutable_event()->mutable_move()->set_seat(0);
    move.set_text("player 1 played n3-m7");
    EXPECT_EQ(log_line(move, v), "you played n3-m7");
    move.mutable_event()->mutable_move()->set_seat(1);
    move.set_text("player 2 played a1-b2");
    EXPECT_EQ(log_line(move, v), "player 2 played a1-b2");
    v.set_your_seat(-1); // a spectator
    EXPECT_EQ(
        log_line(vote(7, "player 1 votes for a new game"), v), "player 1 votes for a new game");
}

// `halma status` while the host is out of reach: the turn is the player's, and a move waits for
// the host (it said "your turn" beside "connecting" and nothing more).
TEST(RoomStatus, YourTurnWithTheHostOutOfReachSaysTheMoveWaits) {
    pb::RoomView v = room_view(2);
    v.set_connection(pb::CONNECTION_STATE_CONNECTED);
    EXPECT_EQ(format_room_status(v, false).find("back in reach"), std::string::npos);
    EXPECT_NE(format_room_status(v, false).find("your turn\n"), std::string::npos);
    v.set_connection(pb::CONNECTION_STATE_CONNECTING);
    EXPECT_NE(format_room_status(v, false).find(
                  "your turn; a move can be sent once the host is back in reach\n"),
        std::string::npos)
        << format_room_status(v, false);
}
