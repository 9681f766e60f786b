// The status panel beside the board, in words: the house rules in force, seats whose names are
// cut to keep their marks, and at a game's end the places, the distances still to go and how
// the next game starts, whole in an 80x24 window.
#include "cli/client/board_render.h"
#include "cli/client/play_screen.h"
#include "cli/client/rules_words.h"
#include "cli/client/term_text.h"
#include "engine/game.h"
#include "room_view_fixture.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace halma::cli;
namespace pb = ::halma::v1;
namespace engine = halma::engine;
using halma::testing::room_view;
using halma::testing::sort_standings;

// The house rules in force are beside the board, in the web page's words where there is room
// (120 columns) and in a few words at 80: the play screen said none of them, and a family
// played long jumps by surprise. Only what differs from the plain rules; the panel's words
// in a row, however they are wrapped.
TEST(PlayScreen, TheHouseRulesAreSaidBesideTheBoard) {
    pb::RoomView v = room_view(2);
    auto* mode = v.mutable_summary()->mutable_mode();
    mode->set_players(2);
    mode->set_rules("jumps=long,rest=own,home-lock=off,spoil=swap,release=off");
    mode->set_move_limit(15);
    mode->set_turn_limit_s(120);
    mode->set_hide_leader(true);
    EXPECT_EQ(rules_sentence(*mode),
        "Rules: long jumps (over one marble from any distance); a marble home may leave it again; "
        "a marble left in your home may be swapped out; no need to release a blocked home; ends "
        "after 15 moves each, the rest placed by distance; 120 s a turn, then the computer moves; "
        "the leader is hidden until the end.");
    EXPECT_EQ(rules_sentence(pb::RoomMode {}), "Rules: the standard ones.");
    // The panel beside the board at 120 and at 80 columns, its words in a row.
    auto words = [&](int cols) {
        ScreenContent c { render_board_lines(v, BoardStyle {}), kBoardWidth, &v, false, nullptr };
        for (const auto& line : compose_screen(c, cols, cols == 80 ? 24 : 40))
            EXPECT_LE(visible_width(line), cols) << line;
        std::string panel;
        for (const auto& line : status_panel(v, false, std::min(cols - kBoardWidth - 2, 48))) {
            std::istringstream in(line);
            for (std::string word; in >> word;) panel += (panel.empty() ? "" : " ") + word;
        }
        return panel;
    };
    std::string wide = words(120);
    EXPECT_NE(wide.find("rules: long jumps (over one marble from any distance); a marble home "
                        "may leave it again; a marble left in your home may be swapped out; no "
                        "need to release a blocked home; ends after 15 moves each, the rest "
                        "placed by distance; 120 s a turn, then the computer moves"),
        std::string::npos)
        << wide;
    // The lead's own line says it is hidden while a game runs.
    EXPECT_EQ(wide.find("the leader is hidden until the end"), std::string::npos) << wide;
    std::string narrow = words(80);
    EXPECT_NE(narrow.find("rules: long jumps; marbles may leave home; spoilers swapped out; no "
                          "release rule; 15 moves each, then by distance; 120 s a turn"),
        std::string::npos)
        << narrow;
    // While the room waits, a hidden leader is news.
    v.mutable_summary()->set_phase(pb::PHASE_WAITING);
    std::string panel;
    for (const auto& line : status_panel(v, false, 21)) panel += line + " ";
    EXPECT_NE(panel.find("leader hidden"), std::string::npos) << panel;
}

// At 80 columns the panel is 22 wide: a long name is cut to keep what the line is for ("Grandma
// Eliza" lost "(you)", "away" and the vote's "*"; "gone, held" read "gone, hel").
TEST(PlayScreen, ALongNameIsCutToKeepTheSeatsMarks) {
    pb::RoomView v = room_view(2);
    v.mutable_seats(0)->set_name("Grandma Eliza Smith");
    v.mutable_seats(0)->set_away(true);
    v.mutable_seats(0)->set_voted_cancel(true);
    v.mutable_seats(1)->set_name("bob the builder");
    v.mutable_seats(1)->set_connected(false);
    std::string screen;
    for (const auto& line : status_panel(v, false, 22)) {
        EXPECT_LE(visible_width(line), 22) << line;
        screen += line + "\n";
    }
    // Their own name before "(you)", which their name tells them.
    EXPECT_NE(screen.find(">B Grandma~ away * 120"), std::string::npos) << screen;
    EXPECT_NE(screen.find(" R bob the b~ gone 120"), std::string::npos) << screen;
    screen.clear();
    v.mutable_seats(0)->set_away(false);
    for (const auto& line : status_panel(v, false, 24)) screen += line + "\n";
    EXPECT_NE(screen.find(">B Grandma Eliza~ *  120"), std::string::npos) << screen;
    // Too narrow for a name at all: "you".
    screen.clear();
    v.mutable_seats(0)->set_away(true);
    for (const auto& line : status_panel(v, false, 17)) screen += line + "\n";
    EXPECT_NE(screen.find(">B you away *"), std::string::npos) << screen;
}

// At 80 columns, in a room of three sets each, the player's own name was cut to "Gran~" to keep
// "(you)" beside it: ">BYC Gran~ (you)". The name is what they look for; "(you)" goes first,
// and the name may use the blanks the figure beside it leaves.
TEST(PlayScreen, YourOwnNameIsKeptBesideThreeSets) {
    pb::RoomView v = room_view(2);
    v.mutable_seats(0)->set_name("Granny Smith");
    v.mutable_seats(0)->clear_sets();
    v.mutable_seats(1)->clear_sets();
    for (unsigned set : { 0u, 2u, 4u }) v.mutable_seats(0)->add_sets(set);
    for (unsigned set : { 1u, 3u, 5u }) v.mutable_seats(1)->add_sets(set);
    int width = 80 - kBoardWidth - 2;
    std::string screen;
    for (const auto& line : status_panel(v, false, width)) {
        EXPECT_LE(visible_width(line), width) << line;
        screen += line + "\n";
    }
    EXPECT_NE(screen.find(">BYC Granny Smith 120"), std::string::npos) << screen;
    // Where it fits whole, "(you)" stays.
    screen.clear();
    for (const auto& line : status_panel(v, false, 40)) screen += line + "\n";
    EXPECT_NE(screen.find(">BYC Granny Smith (you)"), std::string::npos) << screen;
}

// At the end the column beside the seats holds places, under "place" (it read "to go" over
// "2nd" and "1st"), and how far those not home still had to go is said below the seats: it
// was only in halma status.
TEST(PlayScreen, AtTheEndThePlacesAndTheDistancesAreShown) {
    pb::RoomView v = room_view(3);
    v.mutable_summary()->set_phase(pb::PHASE_OVER);
    v.set_turn_seat(-1);
    v.set_your_turn(false);
    v.set_game_end(pb::GAME_END_MOVE_LIMIT);
    v.mutable_standings(0)->set_place(2);
    v.mutable_standings(0)->set_distance_left(12);
    v.mutable_standings(1)->set_place(1);
    v.mutable_standings(1)->set_distance_left(4);
    v.mutable_standings(2)->set_place(3);
    v.mutable_standings(2)->set_distance_left(30);
    sort_standings(v);
    for (int width : { 21, 48 }) {
        std::string screen;
        for (const auto& line : status_panel(v, false, width)) {
            EXPECT_LE(visible_width(line), width) << line;
            screen += line + " ";
        }
        std::string words;
        std::istringstream in(screen);
        for (std::string word; in >> word;) words += (words.empty() ? "" : " ") + word;
        SCOPED_TRACE(std::to_string(width) + " columns: " + words);
        EXPECT_NE(words.find("seats place"), std::string::npos);
        EXPECT_EQ(words.find("seats to go"), std::string::npos) << "\"to go\" heading places";
        EXPECT_NE(words.find("(you) 2nd"), std::string::npos);
        EXPECT_NE(words.find("player 2 1st"), std::string::npos);
        EXPECT_NE(words.find("still to go at the end: player 2 4, you 12, player 3 30"),
            std::string::npos);
    }
}

// Six players at 80x24, at a game's end: how the next game starts is shown whole. The distances
// still to go under the seats took six rows and cut its last line ("colours turn)") off; where
// the window is tall enough they stay.
TEST(ScreenLayout, AtAGamesEndHowTheNextStartsIsShownWhole) {
    pb::RoomView v = room_view(6);
    v.mutable_summary()->set_phase(pb::PHASE_OVER);
    v.set_turn_seat(-1);
    v.set_your_turn(false);
    for (int p = 0; p < 6; ++p) v.mutable_standings(p)->set_place(p + 1);
    v.mutable_standings(0)->set_finished(true);
    v.mutable_standings(0)->set_moves(40);
    sort_standings(v);
    std::deque<std::string> log { "player 2 played n3-m7", "you played a1-b2", "you won" };
    ScreenContent c { render_board_lines(v, BoardStyle { false, false, false }), kBoardWidth, &v,
        false, &log };
    auto words_of = [](const std::vector<std::string>& lines) {
        std::string words;
        for (const auto& line : lines) {
            std::string board_part = fit(line, kBoardWidth + 2);
            std::istringstream in(line.substr(std::min(board_part.size(), line.size())));
            for (std::string word; in >> word;) words += (words.empty() ? "" : " ") + word;
        }
        return words;
    };
    std::string shown = words_of(compose_screen(c, 80, 24));
    EXPECT_NE(shown.find("game over you won next game: /vote new (every player present must "
                         "agree; colours turn)"),
        std::string::npos)
        << shown;
    EXPECT_NE(shown.find("player 6 6th"), std::string::npos) << shown;
    shown = words_of(compose_screen(c, 100, 40));
    EXPECT_NE(shown.find("still to go at the end: player 2 120"), std::string::npos) << shown;
    EXPECT_NE(shown.find("colours turn)"), std::string::npos) << shown;
}
