// A TOML syntax error in halmad's config file, said in an admin's words: toml++ says "Error while
// parsing string: unescaped control characters other than TAB (U+0009) are explicitly
// prohibited" of a quote left open, which sent people looking for a control character.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace halma::daemon {

// "PATH line L, column C: what is wrong and how to write it; the TOML parser says: ...", from
// toml++'s position and description. `line_text` is the file's line L (for what stands at the
// column: a line's end inside quotes is a quote left open), empty if unknown.
std::string toml_syntax_error(const std::string& path, std::uint32_t line, std::uint32_t column,
    std::string_view description, std::string_view line_text);

} // namespace halma::daemon
