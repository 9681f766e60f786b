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
constexpr const char* kColourNames[kSetNB]
    = { "red", "magenta", "blue", "green", "yellow", "cyan" };
constexpr const char* kColourCodes[kSetNB] = { "91", "95", "94", "92", "93", "96" };

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

} // namespace

std::string set_colour_name(int set) {
    return set >= 0 && set < kSetNB ? kColourNames[set] : "?";
}
std::string set_colour_code(int set) {
    return set >= 0 && set < kSetNB ? std::string("\x1b[") + kColourCodes[set] + "m" : "";
}

int turn_to_bottom(int triangle) {
    for (int k = 0; k < 6; ++k)
        if (rotate_clockwise(kGeometry.apex[static_cast<std::size_t>(triangle)], k)
            == kGeometry.apex[0])
            return k;
    return 0;
}

std::string render_board(const ::halma::v1::RoomView& view, const BoardStyle& style,
    const std::vector<std::uint8_t>& marked) {
    if (view.position().empty()) return "(no game yet)\n";
    auto parsed = Position::parse(view.position());
    if (!parsed) return "(unreadable position: " + parsed.error().message + ")\n";
    const Position& pos = *parsed;
    int turn = style.fixed ? 0 : turn_to_bottom(viewer_triangle(view));
    int back = (6 - turn) % 6;
    std::vector<Cell> path(view.last_path().begin(), view.last_path().end());
    std::set<Cell> hops(path.size() > 2 ? path.begin() + 1 : path.end(),
        path.size() > 2 ? path.end() - 1 : path.end());
    SetMask in_play = pos.sets_present();

    std::string out;
    for (int r = 0; r < kRowNB; ++r) {
        std::string line(static_cast<std::size_t>(50), ' ');
        std::vector<std::string> cells_text(25);
        Cell first = kNoCell, last = kNoCell;
        for (int x = -12; x <= 12; ++x) {
            Cell shown = cell_at(r, x);
            if (shown == kNoCell) continue;
            Cell c = rotate_clockwise(shown, back);
            if (first == kNoCell) first = c;
            last = c;
            auto piece = pos.at(c);
            std::string glyph;
            std::string colour;
            bool is_from = !path.empty() && c == path.front();
            bool is_to = !path.empty() && c == path.back();
            if (piece == kFixed) {
                glyph = style.colour ? "■" : "#";
                colour = "\x1b[90m";
            } else if (piece != kEmpty) {
                int s = set_of(piece);
                glyph = style.colour ? "●" : std::string(1, static_cast<char>('1' + s));
                colour = set_colour_code(s) + (is_to ? "\x1b[1;4m" : "");
                if (is_to && !style.colour) glyph = std::string(1, static_cast<char>('1' + s));
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
            std::string cell = style.colour && !colour.empty() ? colour + glyph + kReset : glyph;
            cells_text[static_cast<std::size_t>(x + 12)] = cell;
        }
        std::string row;
        for (int x = -12; x <= 12; ++x) {
            const auto& t = cells_text[static_cast<std::size_t>(x + 12)];
            row += t.empty() ? " " : t;
            if (x < 12) row += " ";
        }
        // Trim trailing blanks (the visible ones only; escapes end with 'm').
        while (!row.empty() && row.back() == ' ') row.pop_back();
        out += pad(cell_name(first), 4, true) + "  " + row + "  " + cell_name(last) + "\n";
    }
    return out;
}

} // namespace halma::cli
