#include "cli/client/join_words.h"

#include "cli/client/shell_word.h"
#include "cli/client/term_text.h"

#include <algorithm>
#include <unistd.h>

namespace halma::cli {

namespace pb = ::halma::v1;

namespace {

// The text in pieces of at most `width` columns, at least one character each, so that they put
// back together are the text (wrap() would drop a quoted name's space where it breaks).
std::vector<std::string> pieces(std::string text, int width) {
    std::vector<std::string> out;
    while (!text.empty()) {
        std::string piece = fit(text, width);
        if (piece.empty()) { // a character wider than the line
            std::size_t n = 1;
            while (n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) ++n;
            piece = text.substr(0, n);
        }
        text.erase(0, piece.size());
        out.push_back(piece);
    }
    return out;
}

} // namespace

bool has_code(const pb::RoomSummary& s) {
    return s.visibility() == pb::VISIBILITY_FRIENDS && !s.code().empty();
}

// "friends code: CODE" in lines of `width`, broken only after the code's dashes, so a line that
// does not end the code ends in a dash: cut at the panel's edge it read "friends code zm6xt-em",
// and a friend who typed that got "no room".
std::vector<std::string> code_lines(const std::string& code, int width) {
    std::vector<std::string> out;
    std::string line = "friends code: ";
    for (std::size_t at = 0; at < code.size();) {
        auto dash = code.find('-', at);
        std::size_t end = dash == std::string::npos ? code.size() : dash + 1;
        std::string group = code.substr(at, end - at);
        at = end;
        if (visible_width(line + group) > width && line.back() == '-') {
            out.push_back(fit(line, width));
            line.clear();
        }
        line += group;
    }
    out.push_back(fit(line, width));
    return out;
}

// The join command laid out for `width` columns, whole: on one line when it fits; else its
// argument on a line of its own after a backslash, which a shell pasted into reads as one
// command; else (a window too narrow for the argument) in pieces, saying so.
std::vector<std::string> join_lines(const std::string& command, bool friends, int width) {
    std::vector<std::string> out;
    if (command.empty()) return out;
    out.push_back("");
    add_wrapped(out, "Others join from their own halma with:", width);
    const std::string verb = "halma join";
    std::string word = command.substr(std::min(command.size(), verb.size() + 1));
    if (visible_width("  " + command) <= width) {
        out.push_back("  " + command);
    } else if (visible_width("    " + word) <= width) {
        out.push_back("  " + verb + " \\");
        out.push_back("    " + word);
    } else {
        out.push_back(fit("  " + verb, width));
        for (const auto& piece : pieces(word, std::max(width - 4, 1)))
            out.push_back(fit("    " + piece, width));
        add_wrapped(out,
            friends ? "(cut to fit: type it as one word; halma status shows the code)"
                    : "(cut to fit: type it as one word)",
            width);
    }
    if (friends) add_wrapped(out, "(a friends room: the code is the last part)", width);
    return out;
}

// The host's address with a wildcard host made this machine's name, quoted as `halma host`
// quotes it, so it works pasted ("halma join ann:7460/Sunday game" read "game" as a second
// argument).
std::string join_command(const pb::RoomSummary& s) {
    std::string address = s.address();
    auto colon = address.rfind(':');
    std::string host = colon == std::string::npos ? address : address.substr(0, colon);
    if (host == "*" || host == "0.0.0.0" || host == "[::]") {
        char name[256] = {};
        gethostname(name, sizeof name - 1);
        address = std::string(name) + address.substr(colon);
    }
    return "halma join " + shell_word(address + "/" + (has_code(s) ? s.code() : s.name()));
}

} // namespace halma::cli
