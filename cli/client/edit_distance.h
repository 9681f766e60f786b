// How far one word is from another, for "did you mean ...?" (commands and room names alike).
#pragma once

#include <cstddef>
#include <string>

namespace halma::cli {

// Letters to change, add or drop to turn a into b (Levenshtein, ignoring case): "mvoe" is 2
// from "move".
std::size_t edit_distance(const std::string& a, const std::string& b);

} // namespace halma::cli
