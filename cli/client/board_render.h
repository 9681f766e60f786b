// The star drawn for a terminal: in colour, turned so the viewer's start triangle is at the
// bottom (unless kept fixed), with hole names at both ends of each row and the last move's path
// marked, so a player can read off "o1-m7" without counting.
#pragma once

#include "halma/v1/api.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace halma::cli {

struct BoardStyle {
    bool fixed = false; // draw the star as notation has it, triangle 1 at the bottom
    bool colour = true; // ANSI colours; off: digits for marbles
    bool swap_colours
        = false; // tint each triangle with the colour heading there, not starting there
};

// The sixths of a clockwise turn that bring triangle `t` to the bottom.
int turn_to_bottom(int triangle);

// `marked`: holes to point out (where a picked marble can go), drawn as a ring in bold.
std::string render_board(const ::halma::v1::RoomView& view, const BoardStyle& style,
    const std::vector<std::uint8_t>& marked = {});

// A set's colour name and the ANSI code drawing it ("red", "\x1b[91m").
std::string set_colour_name(int set);
std::string set_colour_code(int set);

} // namespace halma::cli
