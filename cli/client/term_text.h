// Text measured as a terminal shows it: ANSI colour escapes take no room, and a UTF-8 character
// as many columns as a terminal gives it (the board's "·" one, "家" and "🎲" two, a combining
// accent none). The play screen lays lines out by these widths, so a line
// never wraps and pushes the board off the top.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace halma::cli {

// Columns the text takes on the screen (escapes skipped).
int visible_width(std::string_view text);

// The text cut to at most `width` columns (escapes kept, colours reset when cut), then padded
// with spaces to exactly `width` when `pad` is set.
std::string fit(std::string_view text, int width, bool pad = false);

// The text's lines wrapped at spaces to at most `width` columns each (plain text only).
std::string wrap(std::string_view text, int width, std::string_view indent = "");

// The text wrapped to `width` columns, the lines after its first indented by two spaces, added
// to `out` a line each.
void add_wrapped(std::vector<std::string>& out, std::string_view text, int width);

} // namespace halma::cli
