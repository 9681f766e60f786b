// The star drawn for a terminal: turned so the viewer's start triangle is at the bottom (unless
// kept fixed), each set's marbles as its letter (in its colour when colours are on, so sets
// differ by more than colour), hole names at both ends of each row, the last move's path marked.
// A key with every hole's name, turned the same way, is there for rotated boards.
#pragma once

#include "halma/v1/api.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace halma::cli {

struct BoardStyle {
    bool fixed = false; // draw the star as notation has it, triangle 1 at the bottom
    bool colour = true; // ANSI colours; off: the letters alone
    bool swap_colours
        = false; // tint each triangle with the colour heading there, not starting there
};

// Columns a board line takes: a 3-column hole name each side of the 25 half-hole columns.
inline constexpr int kBoardWidth = 57;
inline constexpr int kBoardHeight = 17;
// Columns a line of the hole-name key takes.
inline constexpr int kKeyWidth = 51;

// The sixths of a clockwise turn that bring triangle `t` to the bottom.
int turn_to_bottom(int triangle);

// kBoardHeight lines of at most kBoardWidth columns (one line when there is no game yet).
// `marked`: holes to point out (where a picked marble can go), drawn as a ring in bold.
std::vector<std::string> render_board_lines(const ::halma::v1::RoomView& view,
    const BoardStyle& style, const std::vector<std::uint8_t>& marked = {});

// The same lines, each ending in a newline (`halma board`).
std::string render_board(const ::halma::v1::RoomView& view, const BoardStyle& style,
    const std::vector<std::uint8_t>& marked = {});

// The board with every hole's name in place (a marble's hole in its set's colour): how a player
// reads off "m7" on a board turned for 3, 4 or 6 players. kBoardHeight lines of kKeyWidth.
std::vector<std::string> render_hole_key(
    const ::halma::v1::RoomView& view, const BoardStyle& style);

// One mapping of sets to colours and letters, used everywhere (docs/rules.md, "Colours"):
// set 1 (the first mover under first=black) is black "B", then green G, yellow Y, red R,
// cyan C, purple P, so the two sets of a 2-player game are black and red.
std::string set_colour_name(int set);
char set_letter(int set);
std::string set_colour_code(int set); // the ANSI escape drawing the set ("\x1b[91m")
// "B black" or, with colours, the letter and name in the set's colour.
std::string set_label(int set, bool colour);

} // namespace halma::cli
