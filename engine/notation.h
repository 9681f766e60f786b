// Text forms of holes and moves: "a1".."q1", "o1-m7", and full hop paths "q1-o1-m3".
// Position strings live with Position (position.h).
#pragma once

#include "result.h"
#include "types.h"

#include <string>
#include <string_view>
#include <vector>

namespace halma::engine {

std::string cell_name(Cell c);
Result<Cell> parse_cell(std::string_view text);

// "from-to" or a full path "from-hop-...-to": every hole named, joined by '-'.
Result<std::vector<Cell>> parse_path(std::string_view text);

std::string move_name(Move m); // "o1-m7", or "pass"
// A set as players see it: its colour, with its number ("red (set 4)"); docs/rules.md.
std::string set_words(SetId s);
std::string path_name(const std::vector<Cell>& path);

// What a user typed, as an error message can quote it: control characters as \xNN (a carriage
// return or an escape sequence garbled the terminal), the rest as it was.
std::string printable(std::string_view text);
// The character at `i` of `text` so: a control character as \xNN, a UTF-8 character whole.
std::string printable_char(std::string_view text, std::size_t i);

} // namespace halma::engine
