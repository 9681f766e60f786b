#include "cli/client/board_render.h"

#include "engine/geometry.h"
#include "engine/notation.h"
#include "engine/position.h"

#include <algorithm>
#include <set>

namespace halma::cli {

namespace {

using namespace halma::engine;

constexpr const char* kReset = "\x1b[0m";
// Black is drawn bold bright-black (grey): readable on dark and light backgrounds alike, which
// plain black or white are not. The letters are the names' initials, all different.
constexpr const char* kColourNames[kSetNB]
    = { "black", "green", "yellow", "red", "cyan", "purple" };
constexpr char kLetters[kSetNB] = { 'B', 'G', 'Y', 'R', 'C', 'P' };
constexpr const char* kColourCodes[kSetNB] = { "1;90", "92", "93", "91", "96", "95" };

int viewer_triangle(const ::halma::v1::RoomView& view) {
    if (view.your_seat() < 0 || view.your_seat() >= view.seats_size()) return 0;
    const auto& seat = view.seats(view.your_seat());
    return seat.sets_size() > 0 ? static_cast<int>(seat.sets(0)) : 0;
}

std::string pad(const std::string& s, std::size_t width, bool left) {
    if (s.size() >= width) return s;
    std::string spaces(width - s.size(), ' ');
    return left ? spaces + s : s + spaces;
}

// The hole shown at (row, x) of the drawn star, in the position's own numbering.
Cell shown_cell(int r, int x, int back) {
    Cell shown = cell_at(r, x);
    return shown == kNoCell ? kNoCell : rotate_clockwise(shown, back);
}

int back_turn(const ::halma::v1::RoomView& view, const BoardStyle& style) {
    int turn = style.fixed ? 0 : turn_to_bottom(viewer_triangle(view));
    return (6 - turn) % 6;
}

} // namespace

std::string set_colour_name(int set) {
    return set >= 0 && set < kSetNB ? kColourNames[set] : "?";
}
char set_letter(int set) {
    return set >= 0 && set < kSetNB ? kLetters[set] : '?';
}
std::string set_colour_code(int set) {
    return set >= 0 && set < kSetNB ? std::string("\x1b[") + kColourCodes[set] + "m" : "";
}
std::string set_label(int set, bool colour) {
    std::string text = std::string(1, set_letter(set)) + " " + set_colour_name(set);
    return colour ? set_colour_code(set) + text + kReset : text;
}

int turn_to_bottom(int triangle) {
    for (int k = 0; k < 6; ++k)
        if (rotate_clockwise(kGeometry.apex[static_cast<std::size_t>(triangle)], k)
            == kGeometry.apex[0])
            return k;
    return 0;
}

std::vector<std::string> render_board_lines(const ::halma::v1::RoomView& view,
    const BoardStyle& style, const std::vector<std::uint8_t>& marked) {
    if (view.position().empty()) return { "(no game yet)" };
    auto parsed = Position::parse(view.position());
    if (!parsed) return { "(unreadable position: " + parsed.error().message + ")" };
    const Position& pos = *parsed;
    int back = back_turn(view, style);
    std::vector<Cell> path(view.last_path().begin(), view.last_path().end());
    std::set<Cell> hops(path.size() > 2 ? path.begin() + 1 : path.end(),
        path.size() > 2 ? path.end() - 1 : path.end());
    SetMask in_play = pos.sets_present();

    std::vector<std::string> out;
    for (int r = 0; r < kRowNB; ++r) {
        std::string row;
        Cell first = kNoCell, last = kNoCell;
        int blanks = 0; // spaces owed before the next hole (none after the last)
        for (int x = -12; x <= 12; ++x) {
            Cell c = shown_cell(r, x, back);
            if (c == kNoCell) {
                blanks += x < 12 ? 2 : 0;
                continue;
            }
            if (first == kNoCell) first = c;
            last = c;
            row.append(static_cast<std::size_t>(blanks), ' ');
            blanks = 1;
            auto piece = pos.at(c);
            std::string glyph;
            std::string colour;
            bool is_from = !path.empty() && c == path.front();
            bool is_to = !path.empty() && c == path.back();
            if (piece == kFixed) {
                glyph = style.colour ? "■" : "#";
                colour = "\x1b[2m";
            } else if (piece != kEmpty) {
                int s = set_of(piece);
                glyph = std::string(1, set_letter(s));
                colour = set_colour_code(s) + (is_to ? "\x1b[1;4m" : "\x1b[1m");
            } else if (std::find(marked.begin(), marked.end(), c) != marked.end()) {
                glyph = style.colour ? "◎" : "@";
                colour = "\x1b[1m";
            } else {
                glyph = is_from     ? (style.colour ? "○" : "o")
                    : hops.count(c) ? (style.colour ? "∘" : "*")
                                    : "·";
                int region = kGeometry.region[c];
                if (region < kSetNB) {
                    // A triangle takes the colour of the set starting in it, or with --swap-colours
                    // of the set whose home it is.
                    int owner = style.swap_colours ? (region + 3) % kSetNB : region;
                    if (has_set(in_play, static_cast<SetId>(owner)))
                        colour = "\x1b[2m" + set_colour_code(owner);
                }
                if (is_from || hops.count(c)) colour = "\x1b[1m";
            }
            row += style.colour && !colour.empty() ? colour + glyph + kReset : glyph;
        }
        out.push_back(pad(cell_name(first), 3, true) + " " + row + " " + cell_name(last));
    }
    return out;
}

std::string render_board(const ::halma::v1::RoomView& view, const BoardStyle& style,
    const std::vector<std::uint8_t>& marked) {
    std::string out;
    for (const auto& line : render_board_lines(view, style, marked)) out += line + "\n";
    return out;
}

std::vector<std::string> render_hole_key(
    const ::halma::v1::RoomView& view, const BoardStyle& style) {
    auto parsed = Position::parse(view.position());
    int back = back_turn(view, style);
    std::vector<std::string> out;
    for (int r = 0; r < kRowNB; ++r) {
        std::string row;
        int column = 0; // columns written so far; hole x starts at column 2 * (x + 12)
        for (int x = -12; x <= 12; ++x) {
            Cell c = shown_cell(r, x, back);
            if (c == kNoCell) continue;
            std::string name = cell_name(c);
            int at = 2 * (x + 12) + (name.size() < 3 ? 1 : 0);
            row.append(static_cast<std::size_t>(std::max(at - column, 0)), ' ');
            column = std::max(at, column) + static_cast<int>(name.size());
            auto piece = parsed ? parsed->at(c) : kEmpty;
            std::string colour = piece == kEmpty ? "\x1b[2m"
                : piece == kFixed                ? ""
                                                 : set_colour_code(set_of(piece)) + "\x1b[1m";
            row += style.colour && !colour.empty() ? colour + name + kReset : name;
        }
        out.push_back(row);
    }
    return out;
}

} // namespace halma::cli
