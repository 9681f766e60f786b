// The play screen fits whatever terminal it is given: exactly rows - 1 lines (the prompt has the
// last row), none wider than the terminal, the whole board when there are 18 rows and 59
// columns, and no crash on a terminal too small for anything.
#include "cli/client/board_render.h"
#include "cli/client/join_words.h"
#include "cli/client/output.h"
#include "cli/client/play_screen.h"
#include "cli/client/play_words.h"
#include "cli/client/room_table.h"
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

namespace {

int holes_drawn(const std::vector<std::string>& lines) {
    int n = 0;
    for (const auto& line : lines)
        for (char c : std::string("BGYRCP"))
            n += static_cast<int>(std::count(line.begin(), line.end(), c));
    return n;
}

} // namespace

TEST(ScreenLayout, EveryTerminalSizeGetsExactlyItsRowsAndColumns) {
    for (int players : { 2, 3, 4, 6 })
        for (bool long_names : { false, true })
            for (auto [cols, rows] : std::vector<std::pair<int, int>> {
                     { 80, 24 }, { 100, 30 }, { 250, 80 }, { 60, 20 }, { 20, 5 }, { 1, 1 } }) {
                auto view = room_view(players, long_names);
                std::deque<std::string> log(50, std::string(300, 'l'));
                ScreenContent c { render_board_lines(view, BoardStyle {}), kBoardWidth, &view, true,
                    &log };
                auto lines = compose_screen(c, cols, rows);
                SCOPED_TRACE(std::to_string(players) + " players at " + std::to_string(cols) + "x"
                    + std::to_string(rows));
                ASSERT_EQ(static_cast<int>(lines.size()), std::max(rows - 1, 1));
                for (const auto& line : lines) EXPECT_LE(visible_width(line), cols);
                if (rows >= 19 && cols >= kBoardWidth)
                    EXPECT_EQ(holes_drawn(lines), players * 11)
                        << "every marble on the board (and each seat's letter beside it)";
            }
}

TEST(ScreenLayout, At80x24TheStatusIsBesideTheBoardWithEverySeat) {
    auto view = room_view(6);
    std::deque<std::string> log { "ann played n3-m7" };
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    auto lines = compose_screen(c, 80, 24);
    EXPECT_EQ(lines[0].substr(kBoardWidth + 2, 11), "room sunday");
    int seats = 0;
    for (const auto& line : lines)
        if (line.size() > kBoardWidth + 4 && line.find("player", kBoardWidth) != std::string::npos)
            ++seats; // "player~ (you)": a name is cut to keep the marks
    EXPECT_EQ(seats, 6);
    EXPECT_EQ(lines[17], "ann played n3-m7") << "the log right below the board";
}

TEST(ScreenLayout, TheHelpFitsWhereTheBoardIs) {
    // /help is drawn in the board's place, so a line wider than the board is cut at 80 columns.
    std::istringstream help(kPlayHelp);
    int lines = 0;
    for (std::string line; std::getline(help, line); ++lines)
        EXPECT_LE(visible_width(line), kBoardWidth) << line;
    EXPECT_GE(lines, 10);
}

TEST(ScreenLayout, At80ColumnsALongRoomNameIsNotCut) {
    auto view = room_view(6);
    view.mutable_summary()->set_name("game-162316");
    view.set_game_number(12);
    std::deque<std::string> log;
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    auto lines = compose_screen(c, 80, 24);
    EXPECT_EQ(lines[0].substr(kBoardWidth + 2), "room game-162316");
    EXPECT_EQ(lines[1].substr(kBoardWidth + 2), "game 12");
    int seats = 0;
    for (const auto& line : lines)
        if (line.find("player", kBoardWidth) != std::string::npos) ++seats;
    EXPECT_EQ(seats, 6) << "every seat still shown";
    lines = compose_screen(c, 120, 24);
    EXPECT_EQ(lines[0].substr(kBoardWidth + 2), "room game-162316, game 12")
        << "one line where it fits";
}

TEST(ScreenLayout, TheWaitingScreenSaysHowOthersJoin) {
    auto view = room_view(3);
    view.mutable_summary()->set_phase(pb::PHASE_WAITING);
    view.mutable_summary()->set_seats_taken(1);
    auto shown = [&] {
        std::deque<std::string> log;
        ScreenContent c { waiting_lines(view), kBoardWidth, &view, false, &log };
        c.join_command = join_command(view.summary());
        std::string text;
        for (const auto& line : compose_screen(c, 80, 24)) text += line + "\n";
        return text;
    };
    std::string text = shown();
    EXPECT_NE(text.find("Waiting for 2 more players"), std::string::npos) << text;
    EXPECT_NE(text.find("halma join 127.0.0.1:7460/sunday"), std::string::npos) << text;
    view.mutable_summary()->set_visibility(pb::VISIBILITY_FRIENDS);
    view.mutable_summary()->set_code("ABCDE-FGHJK");
    text = shown();
    EXPECT_NE(text.find("halma join 127.0.0.1:7460/ABCDE-FGHJK"), std::string::npos) << text;
}

TEST(ScreenLayout, TheJoinCommandIsQuotedForTheShell) {
    // Pasted as it was shown, "halma join 127.0.0.1:7460/Sunday game" gave halma two arguments.
    auto view = room_view(3);
    view.mutable_summary()->set_phase(pb::PHASE_WAITING);
    view.mutable_summary()->set_seats_taken(1);
    view.mutable_summary()->set_name("Sunday game");
    EXPECT_EQ(join_command(view.summary()), "halma join '127.0.0.1:7460/Sunday game'");
    view.mutable_summary()->set_name("ann's $HOME");
    EXPECT_EQ(join_command(view.summary()), "halma join '127.0.0.1:7460/ann'\\''s $HOME'");
}

namespace {

const std::string kCode = "zm6xt-em7v7-18xar-tz7r6-kvhf-a7d0-6xmj-9vsd"; // with the host's key

pb::RoomView friends_room(int players, bool waiting) {
    auto view = room_view(players);
    auto* s = view.mutable_summary();
    s->set_visibility(pb::VISIBILITY_FRIENDS);
    s->set_code(kCode);
    s->set_address("10.77.0.1:7460");
    if (waiting) {
        s->set_phase(pb::PHASE_WAITING);
        s->set_seats_taken(1);
    }
    return view;
}

// The status panel's text (right of the board), its lines run together where one ends in a
// dash: a code broken at its dashes reads back whole.
std::string panel_text(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) {
        // By columns: the board's "·" takes one column and two bytes.
        std::size_t at = 0;
        for (int cols = 0; at < line.size() && cols < kBoardWidth + 2;) {
            std::size_t next = at + 1;
            while (next < line.size() && (static_cast<unsigned char>(line[next]) & 0xC0) == 0x80)
                ++next;
            cols += visible_width(line.substr(at, next - at));
            at = next;
        }
        std::string right = line.substr(at);
        right.erase(right.find_last_not_of(' ') + 1);
        text += right;
        if (right.empty() || right.back() != '-') text += "\n";
    }
    return text;
}

} // namespace

// A friends code is the room's key, and a cut one reads as the code: beside the board at 80x24
// it read "friends code zm6xt-em", and a friend who typed it got "no room".
TEST(ScreenLayout, TheFriendsCodeBesideTheBoardIsWhole) {
    for (bool waiting : { true, false })
        for (int players : { 2, 6 })
            for (auto [cols, rows] :
                std::vector<std::pair<int, int>> { { 80, 24 }, { 100, 30 }, { 120, 24 } }) {
                auto view = friends_room(players, waiting);
                std::deque<std::string> log;
                ScreenContent c { waiting
                        ? waiting_lines(view)
                        : render_board_lines(view, BoardStyle { false, false, false }),
                    kBoardWidth, &view, false, &log };
                auto lines = compose_screen(c, cols, rows);
                std::string shown;
                for (const auto& line : lines) shown += line + "\n";
                SCOPED_TRACE(std::to_string(players) + " players at " + std::to_string(cols) + "x"
                    + std::to_string(rows) + (waiting ? ", waiting" : ", playing") + ":\n" + shown);
                EXPECT_NE(panel_text(lines).find(kCode), std::string::npos);
                if (!waiting)
                    EXPECT_EQ(holes_drawn(lines), players * 11) << "the board still whole";
            }
}

// The join command the waiting screen shows holds the whole code, on one line at 80 columns
// and wider: it was cut at the board's edge ("halma join
// ann:7460/zm6xt-em7v7-18xar-tz7r6-kvhf-a7").
TEST(ScreenLayout, TheJoinCommandHoldsTheWholeCode) {
    for (int players : { 2, 6 })
        for (auto [cols, rows] :
            std::vector<std::pair<int, int>> { { 80, 24 }, { 100, 30 }, { 120, 24 } }) {
            auto view = friends_room(players, true);
            std::deque<std::string> log { "ann joined, seat 1" };
            ScreenContent c { waiting_lines(view), kBoardWidth, &view, false, &log };
            c.join_command = join_command(view.summary());
            auto lines = compose_screen(c, cols, rows);
            std::string shown;
            for (const auto& line : lines) shown += line + "\n";
            SCOPED_TRACE(std::to_string(players) + " players at " + std::to_string(cols) + "x"
                + std::to_string(rows) + ":\n" + shown);
            ASSERT_EQ(static_cast<int>(lines.size()), rows - 1);
            EXPECT_NE(
                shown.find("\n  halma join 10.77.0.1:7460/" + kCode + "\n"), std::string::npos);
            EXPECT_NE(shown.find("ann joined, seat 1"), std::string::npos) << "the log still shown";
        }
}

// Where the command does not fit a line, it goes on as a shell reads it back (a backslash at the
// line's end), or, narrower still, is broken and says so: never cut as if it were whole.
TEST(ScreenLayout, AJoinCommandTooWideIsContinuedNotCut) {
    auto view = friends_room(2, true);
    view.mutable_summary()->set_address("anne-hathaways-laptop.local:7460");
    std::deque<std::string> log;
    ScreenContent c { waiting_lines(view), kBoardWidth, &view, false, &log };
    c.join_command = join_command(view.summary());
    std::string shown;
    for (const auto& line : compose_screen(c, 80, 24)) shown += line + "\n";
    EXPECT_NE(shown.find("\n  halma join \\\n    anne-hathaways-laptop.local:7460/" + kCode + "\n"),
        std::string::npos)
        << shown;
    for (auto [cols, rows] : std::vector<std::pair<int, int>> { { 40, 30 }, { 20, 40 } }) {
        auto lines = compose_screen(c, cols, rows);
        std::string joined, words; // the lines run together, and with a space between
        for (const auto& line : lines) {
            EXPECT_LE(visible_width(line), cols) << line;
            auto from = line.find_first_not_of(' ');
            joined += from == std::string::npos ? "" : line.substr(from);
            words += " " + (from == std::string::npos ? "" : line.substr(from));
        }
        EXPECT_NE(joined.find("anne-hathaways-laptop.local:7460/" + kCode), std::string::npos)
            << "the pieces make the whole command at " << cols << " columns";
        EXPECT_NE(words.find("cut to fit"), std::string::npos) << "says it is broken";
        EXPECT_NE(words.find("halma status shows the code"), std::string::npos)
            << "and where it is whole";
    }
}

TEST(ScreenLayout, TheHoleKeyNamesEveryHoleOnce) {
    for (int players : { 2, 3, 4, 6 }) {
        auto view = room_view(players);
        view.set_your_seat(players - 1); // a turned board for 3, 4 and 6 players
        std::string all;
        for (const auto& line : render_hole_key(view, BoardStyle { false, false, false })) {
            EXPECT_LE(visible_width(line), kKeyWidth);
            all += " " + line + " ";
        }
        int names = 0;
        for (char row = 'a'; row <= 'q'; ++row)
            for (int hole = 1; hole <= 13; ++hole)
                names += all.find(" " + std::string(1, row) + std::to_string(hole) + " ")
                    != std::string::npos;
        EXPECT_EQ(names, 121) << players << " players";
    }
}

// A refusal longer than the terminal is wide is wrapped below the board, not cut: its advice
// is at its end.
TEST(ScreenLayout, ALongMessageIsWrappedNotCut) {
    auto view = room_view(2);
    std::deque<std::string> log { "ann played n3-m7",
        "! m7 can be reached by more than one marble (n2-m7, n3-m7, o1-m7, o3-m7): say which, "
        "e.g. n2-m7" };
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    auto lines = compose_screen(c, 80, 24);
    std::string shown;
    for (const auto& line : lines) shown += line + "\n";
    EXPECT_NE(shown.find("e.g. n2-m7"), std::string::npos) << shown;
    EXPECT_NE(shown.find("ann played n3-m7"), std::string::npos) << shown;
}

// A word wider than the screen (a link in the chat) is broken at the line's end: the screen cut
// it there, and the rest of a 300-character line was never seen. Wide characters are not split.
TEST(ScreenLayout, AWordWiderThanTheScreenIsBrokenNotCut) {
    EXPECT_EQ(wrap("see abcdefghij", 6, "  "), "see\n  abcd\n  efgh\n  ij\n");
    EXPECT_EQ(wrap("\u5bb6\u5bb6\u5bb6", 5), "\u5bb6\u5bb6\n\u5bb6\n");
    EXPECT_EQ(wrap("x", 0), "x\n") << "a line too narrow for anything still ends";
    std::string url = "https://example.org/" + std::string(120, 'a') + "/end";
    auto view = room_view(2);
    std::deque<std::string> log { "bob: rules: " + url };
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    std::string shown;
    for (const auto& line : compose_screen(c, 80, 24)) shown += line;
    EXPECT_NE(shown.find("/end"), std::string::npos) << shown;
}

// A window too small for the board says so, and what size shows it all: the board was cut
// silently ("h1" shown where "h10" is, the player's own rows gone at 40x15).
TEST(ScreenLayout, AWindowTooSmallForTheBoardSaysSo) {
    auto view = room_view(2);
    std::deque<std::string> log;
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    for (auto [cols, rows] : std::vector<std::pair<int, int>> { { 50, 30 }, { 70, 12 } }) {
        auto lines = compose_screen(c, cols, rows);
        ASSERT_FALSE(lines.empty());
        EXPECT_EQ(lines[0].rfind("! window too small for the board", 0), 0u)
            << cols << "x" << rows << ": " << lines[0];
    }
    for (const auto& line : compose_screen(c, 80, 24))
        EXPECT_EQ(line.find("too small"), std::string::npos) << line;
}

// In a short window the player's own side of the board stays: the line about their other rooms
// goes to one line, and the board loses its far rows first. At 60x20, in four other rooms,
// that line kept four rows and the board lost rows l to q, the player's own marbles; and the
// size asked for changed with the window (57x21 at 60x20, 57x22 at 40x15). A family QA pass.
TEST(ScreenLayout, AShortWindowKeepsThePlayersOwnSide) {
    auto view = room_view(2);
    auto board = render_board_lines(view, BoardStyle { false, false, false });
    std::deque<std::string> log { "/help lists the commands" };
    ScreenContent c { board, kBoardWidth, &view, false, &log };
    c.elsewhere = "your move in rooms 'Oma's Zimmer', 'a/b', 'lunch', 'porch' and 'Office 4' too: "
                  "/switch ROOM (the rooms where it is your move, other than this one)";
    c.player_at_bottom = true;
    std::string asked;
    for (auto [cols, rows] : std::vector<std::pair<int, int>> { { 60, 20 }, { 40, 15 } }) {
        auto lines = compose_screen(c, cols, rows);
        std::string screen;
        for (const auto& line : lines) screen += line + "\n";
        EXPECT_NE(screen.find(fit(board.back(), cols)), std::string::npos)
            << "the board's bottom row (the player's side) at " << cols << "x" << rows << ":\n"
            << screen;
        int about_rooms = 0;
        for (const auto& line : lines)
            about_rooms += line.find("your move in rooms") != std::string::npos
                || line.find("/switch") != std::string::npos;
        EXPECT_EQ(about_rooms, 1) << screen;
        const std::string said = "! window too small for the board: ";
        ASSERT_EQ(lines[0].rfind(said, 0), 0u) << lines[0];
        auto size = lines[0].substr(said.size(), lines[0].find(' ', said.size()) - said.size());
        if (asked.empty()) asked = size;
        EXPECT_EQ(size, asked) << "the size that shows it all is the same in every window";
    }
    EXPECT_EQ(asked.rfind("57x", 0), 0u) << asked;
}

// In a small window, what the player typed is answered: the latest message's beginning (what
// happened) when it is taller than the rows left, and a row of the log even when the board is
// cut. At 60x21 only its end was seen ("  from-to, like n1-m5)"), at 30x10 nothing (a family QA
// pass: a child in a small window got no answer to "zz").
TEST(ScreenLayout, ASmallWindowStillAnswersWhatWasTyped) {
    auto view = room_view(2);
    std::deque<std::string> log { "/help lists the commands",
        "! 'zz' is not a hole: rows run from a to q (write a move as from-to, like n1-m5)" };
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    for (auto [cols, rows] : std::vector<std::pair<int, int>> { { 60, 21 }, { 30, 10 } }) {
        auto lines = compose_screen(c, cols, rows);
        ASSERT_EQ(lines.size(), static_cast<std::size_t>(rows - 1));
        EXPECT_EQ(lines.back().rfind("! 'zz' is not a hole", 0), 0u)
            << cols << "x" << rows << ": " << lines.back();
        EXPECT_NE(lines.back().find("…"), std::string::npos) << "cut, and shown to be";
        for (const auto& line : lines) EXPECT_LE(visible_width(line), cols) << line;
    }
    // Where it fits, it is whole.
    std::string shown;
    for (const auto& line : compose_screen(c, 80, 24)) shown += line + "\n";
    EXPECT_NE(shown.find("like n1-m5)"), std::string::npos) << shown;
}

// Six players at 80x24: five level at the front are counted beside the board, not named over
// four lines, and the panel stays beside the board, so the six rows below it hold a whole
// round of moves (the player's own move was pushed off the log).
TEST(ScreenLayout, SixPlayersLeaveTheLogARoundOfMoves) {
    auto view = room_view(6);
    for (int i = 1; i < 6; ++i) {
        view.mutable_seats(i)->set_name(i == 1 ? "bot" : "bot (" + std::to_string(i) + ")");
        view.mutable_standings(i)->set_name(view.seats(i).name());
        view.mutable_standings(i)->set_distance_left(118);
    }
    view.mutable_standings(0)->set_distance_left(119);
    sort_standings(view);
    std::deque<std::string> log;
    for (int i = 0; i < 8; ++i) log.push_back("move " + std::to_string(i));
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    auto lines = compose_screen(c, 80, 24);
    ASSERT_EQ(lines.size(), 23u);
    std::string screen;
    for (const auto& line : lines) screen += line + "\n";
    EXPECT_NE(screen.find("in the lead: 5"), std::string::npos) << screen;
    EXPECT_NE(screen.find("players (level)"), std::string::npos) << screen;
    for (int i = 2; i < 8; ++i)
        EXPECT_NE(screen.find("move " + std::to_string(i)), std::string::npos)
            << "move " << i << " is off the log:\n"
            << screen;
}

// An open vote is on the screen whole, as halma status has it: what for, who voted, who is yet
// to, and what to type, even beside a board of six players where one is gone (play showed no
// leader vote, and of the others neither who was yet to vote nor how).
TEST(ScreenLayout, AnOpenVoteIsShownWholeBesideSixPlayers) {
    auto view = room_view(6);
    view.mutable_seats(5)->set_connected(false);
    view.mutable_seats(1)->set_voted_cancel(true);
    view.mutable_seats(2)->set_voted_cancel(true);
    std::deque<std::string> log;
    ScreenContent c { render_board_lines(view, BoardStyle { false, false, false }), kBoardWidth,
        &view, false, &log };
    std::string expected = "* vote to cancel the game: voted player 2, player 3; not yet you, "
                           "player 4, player 5; to agree: /vote cancel";
    EXPECT_EQ(open_vote_lines(view, "/vote"), std::vector<std::string> { expected });
    EXPECT_NE(format_room_status(view, false)
                  .find("* vote to cancel the game: voted player 2, player 3; not yet you, "
                        "player 4, player 5; to agree: halma vote cancel\n"),
        std::string::npos)
        << format_room_status(view, false);
    for (int cols : { 80, 120 }) {
        auto lines = compose_screen(c, cols, 24);
        ASSERT_EQ(lines.size(), 23u);
        // The panel's words in a row, however they were wrapped.
        std::string panel;
        for (const auto& line : lines) {
            EXPECT_LE(visible_width(line), cols) << line;
            std::string right = line.size() > kBoardWidth + 2 ? line.substr(kBoardWidth + 2) : "";
            std::istringstream words(right);
            for (std::string word; words >> word;) panel += (panel.empty() ? "" : " ") + word;
        }
        EXPECT_NE(panel.find(expected), std::string::npos) << cols << " columns:\n" << panel;
    }
}
