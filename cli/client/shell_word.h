// A word as a shell reads it back: every command halma shows for pasting (`halma host`'s and
// `halma play`'s join commands) quotes its arguments this way, so a room named "Sunday game"
// arrives as one argument.
#pragma once

#include <string>

namespace halma::cli {

// The word as is when it holds only characters no shell treats specially, else in single
// quotes (a room name may hold spaces, quotes, a dollar sign).
std::string shell_word(const std::string& word);

} // namespace halma::cli
