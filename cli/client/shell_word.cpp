#include "cli/client/shell_word.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace halma::cli {

std::string shell_word(const std::string& word) {
    bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
        return std::isalnum(c) || (c != 0 && std::strchr("._:/@%+=,-", c));
    });
    if (plain) return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace halma::cli
