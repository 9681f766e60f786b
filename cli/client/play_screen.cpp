#include "cli/client/play_screen.h"

#include "cli/client/board_render.h"
#include "cli/client/join_words.h"
#include "cli/client/output.h"
#include "cli/client/places_words.h"
#include "cli/client/rules_words.h"
#include "cli/client/term_text.h"

#include <algorithm>

namespace halma::cli {

namespace pb = ::halma::v1;

namespace {

constexpr int kMinPanel = 20; // narrower than this, the status goes below the board
constexpr int kMaxPanel = 48;
constexpr const char* kReset = "\x1b[0m";

std::string paint(const std::string& text, const char* code, bool colour) {
    return colour ? std::string(code) + text + kReset : text;
}

std::string letters(const pb::SeatView& seat, bool colour) {
    std::string out;
    for (auto set : seat.sets()) {
        std::string l(1, set_letter(static_cast<int>(set)));
        out += colour ? set_colour_code(static_cast<int>(set)) + "\x1b[1m" + l + kReset : l;
    }
    return out.empty() ? "-" : out;
}

std::string seat_name(const pb::RoomView& v, int seat) {
    if (seat < 0 || seat >= v.seats_size()) return "?";
    const auto& s = v.seats(seat);
    return s.name().empty() ? "seat " + std::to_string(seat + 1) : s.name();
}

const pb::Standing* standing_of(const pb::RoomView& v, int seat) {
    for (const auto& st : v.standings())
        if (st.seat() == seat) return &st;
    return nullptr;
}

// How close it was, at the end: the places are beside the seats, and the distances still to go
// of those not home were only in halma status.
std::vector<std::string> final_distance_lines(const pb::RoomView& v, int width) {
    std::string said;
    for (const auto& st : v.standings()) {
        if (st.finished()) continue;
        std::string who = st.seat() == v.your_seat() ? "you" : seat_name(v, st.seat());
        said += (said.empty() ? "still to go at the end: " : ", ") + who + " "
            + std::to_string(st.distance_left());
    }
    std::vector<std::string> out;
    if (!said.empty()) add_wrapped(out, said, width);
    return out;
}

std::string seat_line(const pb::RoomView& v, const pb::SeatView& seat, bool colour, int width) {
    bool turn = seat.seat() == v.turn_seat();
    std::string left = std::string(turn ? ">" : " ") + letters(seat, colour) + " ";
    std::string name = seat.name().empty() ? "(free seat)" : seat.name();
    // The marks are what the line is for when something is wrong: a long name is cut to keep
    // them ("Grandma Eliza" lost "(you)", "away" and the vote's "*"; "gone, held" read "gone,
    // hel").
    std::string marks;
    bool yours = seat.seat() == v.your_seat();
    if (yours) marks += " (you)";
    // A narrow panel names a computer by its name alone ("bot (2)", "bot for ann").
    if (seat.bot() && width >= 30) marks += " [" + seat.bot_level() + " bot]";
    // With the hold's time left, where known: the others wait on it ("gone, held 1:45").
    if (!seat.name().empty() && !seat.connected()) {
        std::string held = hold_left_words(seat);
        // A narrow panel has no room for the time: the line under the seats says it ("gone 22 s"
        // there read as gone for 22 s).
        marks += width < 30 ? " gone" : held.empty() ? " gone, held" : " gone, held " + held;
    }
    if (seat.away()) marks += " away";
    if (seat.voted_new_game() || seat.voted_cancel() || seat.voted_leader()
        || seat.voted_take_back())
        marks += " *";
    std::string right;
    if (const pb::Standing* st = standing_of(v, seat.seat())) {
        if (st->place())
            right = ordinal(st->place());
        else if (st->finished())
            right = "home";
        else
            right = std::to_string(st->distance_left());
    }
    // The right column's figure is right-aligned under its heading: the name may run into the
    // blanks before it ("120" leaves one of the five, "3" three).
    int for_right = right.empty() ? 0 : visible_width(right) + 1;
    int for_name = width - for_right - visible_width(left) - visible_width(marks);
    const std::string you = " (you)";
    if (yours && visible_width(name) > for_name) {
        // Their own name is what a player looks for: "(you)" goes before the name is cut
        // (">BYC Gran~ (you)" at 80 columns, in a room of three sets each).
        marks.erase(0, you.size());
        for_name += static_cast<int>(you.size());
        if (for_name < 4) name = "you"; // too narrow for any of it
    }
    if (visible_width(name) > for_name) {
        name = fit(name, std::max(for_name - 1, 3));
        while (name.size() > 1 && name.back() == ' ') name.pop_back();
        name += "~";
    }
    name += marks;
    left += turn ? paint(name, "\x1b[1m", colour) : name;
    int room = width - for_right;
    return fit(left, room, true) + (right.empty() ? "" : fit(" " + right, for_right));
}

std::vector<std::string> next_steps(
    const pb::RoomView& v, int width, pb::ConnectionState daemon, bool not_running) {
    std::vector<std::string> out;
    const auto& s = v.summary();
    switch (s.phase()) {
    case pb::PHASE_WAITING: {
        int missing = static_cast<int>(s.seats()) - static_cast<int>(s.seats_taken());
        add_wrapped(out,
            "waiting for " + std::to_string(missing) + " more player" + (missing == 1 ? "" : "s"),
            width);
        add_wrapped(out, "or /start: computers take the free seats", width);
        break;
    }
    case pb::PHASE_PLAYING: {
        // The turn as last heard, when no move can be sent now: "your turn" under a yellow
        // light invited a move that went nowhere.
        std::string unreachable = out_of_reach_words(v, daemon, not_running);
        if (!unreachable.empty() && !v.your_turn()) add_wrapped(out, unreachable, width);
        if (!unreachable.empty() && v.your_turn()) {
            bool refused = daemon == pb::CONNECTION_STATE_CONNECTED
                && v.connection() == pb::CONNECTION_STATE_DISCONNECTED;
            add_wrapped(out,
                unreachable
                    + (refused ? ": no move can be sent" : ": you can move once the room is back"),
                width);
        } else if (v.your_turn() && v.legal_moves_size() == 1 && v.legal_moves(0) == "pass") {
            add_wrapped(out, "your turn, and you have no move: type pass", width);
        } else if (v.your_turn()) {
            // With several sets each, which of yours moves now (the position's last character).
            const auto& own = v.your_seat() >= 0 && v.your_seat() < v.seats_size()
                ? v.seats(v.your_seat()).sets()
                : decltype(v.seats(0).sets()) {};
            int set = v.position().empty() ? -1 : v.position().back() - '1';
            if (own.size() > 1 && set >= 0 && set < 6)
                add_wrapped(out, "your turn: move " + set_label(set, false) + " (/help)", width);
            else
                add_wrapped(out, "your turn: type a move (/help)", width);
            if (auto left = time_left_words(v); !left.empty())
                add_wrapped(out, left + " left, then the computer moves for you", width);
        } else if (v.turn_seat() >= 0 && v.turn_seat() < v.seats_size()
            && v.seats(v.turn_seat()).name().empty())
            add_wrapped(out,
                "seat " + std::to_string(v.turn_seat() + 1)
                    + " is free: the game waits for someone to join",
                width);
        else if (auto left = time_left_words(v); !left.empty())
            add_wrapped(out, seat_name(v, v.turn_seat()) + "'s turn (" + left + " left)", width);
        else
            add_wrapped(out, seat_name(v, v.turn_seat()) + "'s turn", width);
        // Beside the board, several level at the front are counted when naming them takes more
        // than two lines: five bots level took four, and pushed the last move off the log.
        std::vector<std::string> lead;
        add_wrapped(lead,
            v.leader_hidden()          ? "in the lead: hidden until the game ends"
                : v.leader_seat() >= 0 ? "in the lead: " + seat_name(v, v.leader_seat())
                                       : "in the lead: " + leader_words(v),
            width);
        if (lead.size() > 2 && !v.leader_hidden() && v.leader_seat() < 0) {
            lead.clear();
            add_wrapped(lead, "in the lead: " + leader_words(v, 1), width);
        }
        out.insert(out.end(), lead.begin(), lead.end());
        bool vanished = false, away = false;
        for (const auto& seat : v.seats()) {
            vanished |= !seat.name().empty() && !seat.connected();
            away |= seat.away();
        }
        // Only to those who vote (a spectator was told to, and refused), and as what it is: the
        // players present must all agree. Once someone has voted to cancel, the vote's own line
        // says how (both took seven rows of a six-player panel, and the last votes were cut).
        bool seated = v.your_seat() >= 0 && v.your_seat() < v.seats_size();
        bool cancel_open = std::any_of(v.seats().begin(), v.seats().end(),
            [](const pb::SeatView& seat) { return seat.voted_cancel(); });
        if (seated && v.seats(v.your_seat()).away()) {
            add_wrapped(out, "you are away: your time ran out; make a move to come back", width);
            if (auto made = moves_made_for_you_words(v); !made.empty())
                add_wrapped(out, made, width);
        } else if (seated && (vanished || away) && !cancel_open) {
            // Who is gone and when a computer takes their turns, where the hold's time is known.
            std::string said
                = std::string(vanished ? "a player is gone" : "a player is away") + ":";
            for (const auto& seat : v.seats())
                if (auto held = hold_left_words(seat); !held.empty()) {
                    said = "a computer plays for " + seat.name() + " in " + held + ";";
                    break;
                }
            add_wrapped(out, said + " /vote cancel ends the game if all present agree", width);
        }
        for (const auto& line : open_vote_lines(v, "/vote")) add_wrapped(out, line, width);
        break;
    }
    case pb::PHASE_OVER:
    case pb::PHASE_CANCELLED: {
        out.push_back(s.phase() == pb::PHASE_OVER ? "game over" : "game cancelled");
        if (v.game_end() == pb::GAME_END_MOVE_LIMIT)
            add_wrapped(out, "(the move limit: the rest placed by distance)", width);
        else if (v.game_end() == pb::GAME_END_STALLED)
            add_wrapped(out, "(nobody got nearer home, or could move: placed by distance)", width);
        if (s.phase() == pb::PHASE_OVER)
            if (auto won = winner_words(v); !won.empty()) add_wrapped(out, won, width);
        add_wrapped(out, "next game: " + next_game_words(v, "/vote new"), width);
        for (const auto& line : open_vote_lines(v, "/vote")) add_wrapped(out, line, width);
        break;
    }
    default:
        out.push_back(phase_name(s.phase()));
    }
    return out;
}

// The house rules in force, only what differs from the plain ones: the play screen said none of
// them (long jumps played by surprise), and a move limit ended a game with no word before. In
// the web page's words where the column has room for them, else in a few words each.
std::vector<std::string> rules_lines(const pb::RoomView& v, int width) {
    constexpr int kRoomForFullWords = 40;
    pb::RoomMode mode = v.summary().mode();
    // Once a game is on, the lead's line says whether it is hidden (a vote may have turned the
    // room's setting around), and at its end a "hidden" beside the places would mislead.
    if (v.summary().phase() != pb::PHASE_WAITING) mode.set_hide_leader(false);
    std::string said;
    for (const auto& words : rules_in_words(mode))
        said += (said.empty() ? "rules: " : "; ")
            + (width >= kRoomForFullWords ? words.full : words.brief);
    std::vector<std::string> out;
    if (!said.empty()) add_wrapped(out, said, width);
    return out;
}

} // namespace

std::string out_of_reach_words(
    const pb::RoomView& v, pb::ConnectionState daemon, bool not_running) {
    if (daemon == pb::CONNECTION_STATE_DISCONNECTED)
        return not_running ? "halmad is not running (below)" : "halmad is restarting";
    if (daemon == pb::CONNECTION_STATE_CONNECTING) return "halmad is back, reading the room again";
    if (v.connection() == pb::CONNECTION_STATE_CONNECTING)
        return "waiting for the host (reconnecting)";
    if (v.connection() == pb::CONNECTION_STATE_DISCONNECTED) return "disconnected from the host";
    return "";
}

namespace {

// One light for the whole line to the room: our own daemon first, then its host.
std::string connection_light(
    const pb::RoomView& v, pb::ConnectionState daemon, bool not_running, bool colour) {
    auto state = daemon != pb::CONNECTION_STATE_CONNECTED ? daemon : v.connection();
    const char* light = state == pb::CONNECTION_STATE_CONNECTED ? "\x1b[92m"
        : state == pb::CONNECTION_STATE_CONNECTING              ? "\x1b[93m"
                                                                : "\x1b[91m";
    std::string said = daemon == pb::CONNECTION_STATE_DISCONNECTED
        ? (not_running ? "halmad not running" : "halmad gone")
        : daemon == pb::CONNECTION_STATE_CONNECTING ? "halmad back"
                                                    : connection_name(state);
    return paint("●", light, colour) + " " + said;
}

} // namespace

std::vector<std::string> waiting_lines(const pb::RoomView& v) {
    const auto& s = v.summary();
    int missing = static_cast<int>(s.seats()) - static_cast<int>(s.seats_taken());
    return { "",
        "  Waiting for " + std::to_string(missing) + " more player" + (missing == 1 ? "" : "s")
            + " (" + std::to_string(s.seats_taken()) + " of " + std::to_string(s.seats())
            + " seats taken):",
        "  how others join is below.", "", "  Or type /start: computers take the free seats",
        "  and the game begins." };
}

std::vector<std::string> status_panel(const pb::RoomView& v, bool colour, int width,
    pb::ConnectionState daemon, bool not_running, bool final_distances) {
    const auto& s = v.summary();
    std::vector<std::string> out;
    std::string title = "room " + s.name();
    std::string game = v.game_number() ? "game " + std::to_string(v.game_number()) : "";
    // The room's name is what a player tells others to join: when the name and the game number
    // do not fit on one line, the number goes below rather than cutting the name.
    if (!game.empty() && visible_width(title + ", " + game) <= width) {
        title += ", " + game;
        game.clear();
    }
    out.push_back(fit(paint(title, "\x1b[1m", colour), width));
    if (!game.empty()) out.push_back(fit(game, width));
    out.push_back(fit(connection_light(v, daemon, not_running, colour), width));
    // Why, in full, goes to the lines below the board (play_command.cpp): it can be long.
    if (!v.read_only().empty()) out.push_back(fit("! takes no move now (below)", width));
    if (has_code(s))
        for (auto& line : code_lines(s.code(), width)) out.push_back(line);
    // Once the game is over, the column holds places ("to go" read "2nd" and "1st").
    bool over = s.phase() == pb::PHASE_OVER;
    out.push_back(
        fit("seats", width - 5, true) + (v.standings_size() ? (over ? "place" : "to go") : ""));
    for (const auto& seat : v.seats()) out.push_back(seat_line(v, seat, colour, width));
    if (over && final_distances)
        for (auto& line : final_distance_lines(v, width)) out.push_back(fit(line, width));
    out.push_back("");
    for (auto& line : next_steps(v, width, daemon, not_running)) out.push_back(fit(line, width));
    for (auto& line : rules_lines(v, width)) out.push_back(fit(line, width));
    if (v.spectators_size()) {
        std::string names;
        for (const auto& n : v.spectators()) names += (names.empty() ? "" : ", ") + n;
        add_wrapped(out, "watching: " + names, width);
    }
    out.push_back("");
    out.push_back(fit(width >= 24 ? "/help  /keys: hole names" : "/keys: hole names", width));
    return out;
}

std::vector<std::string> status_brief(
    const pb::RoomView& v, bool colour, int width, pb::ConnectionState daemon, bool not_running) {
    // Every seat's letter always shows: names are shortened, then left out, until they fit.
    std::string seats;
    for (std::size_t longest : { std::size_t { 32 }, std::size_t { 6 }, std::size_t { 0 } }) {
        seats.clear();
        for (const auto& seat : v.seats()) {
            std::string name = seat.name().empty() ? "free" : seat.name();
            if (seat.seat() == v.your_seat()) name = "you";
            if (name != "you") name = name.substr(0, longest);
            seats += std::string(seat.seat() == v.turn_seat() ? ">" : " ") + letters(seat, colour)
                + (name.empty() ? "" : " " + name) + " ";
        }
        if (visible_width(seats) <= width) break;
    }
    auto steps = next_steps(v, width, daemon, not_running);
    return { fit(seats, width), fit(steps.empty() ? "" : steps.front(), width) };
}

std::vector<std::string> compose_screen(const ScreenContent& c, int cols, int rows) {
    int avail = std::max(rows - 1, 1);
    std::vector<std::string> out;
    const auto& board = c.board;
    int board_h = static_cast<int>(board.size());
    // The join command's rows are kept for it first: cut at the bottom, it would lose the code.
    auto join = join_lines(c.join_command, has_code(c.view->summary()), cols);
    if (!join.empty() && static_cast<int>(join.size()) > avail - 1)
        join = { fit("! window too small to show how others join", cols) };
    // The room waiting elsewhere goes under the join command, whole where the window is tall
    // enough for the board and all of it, else on one line: in a short window it kept its four
    // lines and the board lost its bottom rows, the player's own marbles (a family QA pass).
    std::vector<std::string> elsewhere;
    add_wrapped(elsewhere, c.elsewhere, cols);
    if (elsewhere.size() > 1
        && board_h + static_cast<int>(join.size() + elsewhere.size()) + 3 > avail)
        elsewhere = { fit(c.elsewhere, std::max(cols - 1, 1)) + "…" };
    // The size that shows it all, the same whatever the window is now (it said 57x21 at 60x20
    // and 57x22 at 40x15, the line above wrapped to the window's width).
    std::vector<std::string> elsewhere_whole;
    add_wrapped(elsewhere_whole, c.elsewhere, c.board_width);
    int whole_below = static_cast<int>(join.size() + elsewhere_whole.size());
    join.insert(join.end(), elsewhere.begin(), elsewhere.end());
    int reserved = std::min(static_cast<int>(join.size()), avail - 1);
    int top_rows = avail - reserved;
    // Of a board cut for rows, the rows kept: its bottom ones when the player sits there.
    auto board_row = [&](int i, int shown) {
        int first = c.player_at_bottom ? std::max(board_h - shown, 0) : 0;
        return board[static_cast<std::size_t>(first + i)];
    };
    if (cols >= c.board_width + 2 + kMinPanel) {
        int panel_w = std::min(cols - c.board_width - 2, kMaxPanel);
        // A panel taller than the board gives up its footer (/help and /keys, which the log's
        // first line and /help also name) before it takes a row from the log: a round of six
        // moves needs the six rows below the board at 80x24.
        auto panel_for = [&](bool final_distances) {
            auto panel = status_panel(
                *c.view, c.colour, panel_w, c.daemon, c.daemon_not_running, final_distances);
            if (panel.size() > board.size() && panel.size() >= 2 && panel[panel.size() - 2].empty())
                panel.resize(panel.size() - 2);
            return panel;
        };
        auto panel = panel_for(true);
        // The panel may run below the board into the log's rows, but leaves it two if it can.
        // At a game's end, the distances still to go go first (the places are beside the seats):
        // with six players at 80x24 they pushed how the next game starts off the screen.
        if (static_cast<int>(panel.size()) > std::max(board_h, top_rows - 2))
            panel = panel_for(false);
        int panel_h = static_cast<int>(panel.size());
        int top = std::min(top_rows, std::max(board_h, std::min(panel_h, top_rows - 2)));
        for (int i = 0; i < top; ++i) {
            std::string left = i < board_h ? board_row(i, std::min(top, board_h)) : "";
            std::string right = i < panel_h ? panel[static_cast<std::size_t>(i)] : "";
            out.push_back(fit(left, c.board_width, true) + "  " + fit(right, panel_w));
        }
    } else {
        auto brief = status_brief(*c.view, c.colour, cols, c.daemon, c.daemon_not_running);
        // The line to the room is news only when it is down: then it takes the second line.
        if (c.daemon != pb::CONNECTION_STATE_CONNECTED
            || c.view->connection() != pb::CONNECTION_STATE_CONNECTED)
            brief.back()
                = fit(connection_light(*c.view, c.daemon, c.daemon_not_running, c.colour), cols);
        int shown = std::min(board_h, std::max(top_rows - static_cast<int>(brief.size()), 1));
        // A board cut at the side shows "h1" where "h10" is, and cut at the bottom it loses the
        // player's own marbles: the screen says so, and what size shows it all.
        if ((cols < c.board_width || shown < board_h) && top_rows > 1) {
            out.push_back(
                fit("! window too small for the board: " + std::to_string(c.board_width) + "x"
                        + std::to_string(board_h + static_cast<int>(brief.size()) + whole_below + 2)
                        + " shows it all",
                    cols));
            // The board is cut anyway: a row of it goes to the log, so what the player typed
            // is answered ("'zz' is not a hole"); at 30x10 nothing was.
            int log_row = c.log && !c.log->empty() ? 1 : 0;
            shown = std::min(
                board_h, std::max(top_rows - static_cast<int>(brief.size()) - 1 - log_row, 1));
        }
        for (int i = 0; i < shown; ++i) out.push_back(fit(board_row(i, shown), cols));
        for (const auto& line : brief)
            if (static_cast<int>(out.size()) < top_rows) out.push_back(line);
    }
    for (const auto& line : join)
        if (static_cast<int>(out.size()) < avail) out.push_back(line);
    int log_rows = avail - static_cast<int>(out.size());
    if (c.log && !c.log->empty() && log_rows > 0) {
        // The latest lines, each wrapped rather than cut (a refusal's advice is at its end).
        std::size_t n = std::min(c.log->size(), static_cast<std::size_t>(log_rows));
        std::vector<std::string> lines;
        for (std::size_t i = c.log->size() - n; i < c.log->size(); ++i)
            add_wrapped(lines, (*c.log)[i], cols);
        std::vector<std::string> latest;
        add_wrapped(latest, c.log->back(), cols);
        if (latest.size() > static_cast<std::size_t>(log_rows)) {
            // The latest alone is taller than the rows left (a small window): its beginning,
            // which says what happened, cut where the rows end. Its end alone was shown,
            // "  from-to, like n1-m5)", and a child typing "zz" saw no answer at all.
            latest.resize(static_cast<std::size_t>(log_rows));
            latest.back() = fit(latest.back(), std::max(cols - 1, 1)) + "…";
            lines = std::move(latest);
        }
        std::size_t shown = std::min(lines.size(), static_cast<std::size_t>(log_rows));
        for (std::size_t i = lines.size() - shown; i < lines.size(); ++i)
            out.push_back(fit(lines[i], cols));
    }
    while (static_cast<int>(out.size()) < avail) out.push_back("");
    return out;
}

} // namespace halma::cli
