#include "cli/client/play_words.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace halma::cli {

// Shown in place of the board: no line is wider than the board (tests/cli).
const char* const kPlayHelp = "Type a move: o1-m7, a full path, or just the target (m7)\n"
                              "when one marble can get there; a marble's hole (o1)\n"
                              "shows where it can go. Up/Down: earlier lines;\n"
                              "Ctrl-R: search them. No move at all: you pass by itself.\n"
                              "On the board: ○ (o) where the last move began, ∘ (*)\n"
                              "its hops, ◎ (@) where the marble you picked can go.\n"
                              "  /c TEXT       chat\n"
                              "  /vote new     a new game (all players present agree)\n"
                              "  /vote cancel  cancel the game (a player gone or away)\n"
                              "  /vote leader  hide (or show) who leads, this game\n"
                              "  /takeback     take back your last move (all agree)\n"
                              "  /start [easy|hard|max]\n"
                              "                start now, computers in the free seats\n"
                              "  /keys         every hole's name on this board\n"
                              "  /board        redraw\n"
                              "  /switch ROOM  play in another of your rooms\n"
                              "  /leave        leave the room; a computer sits in\n"
                              "  /quit         stop playing (your seat stays yours)\n";

std::vector<std::string> play_help_lines() {
    std::vector<std::string> lines;
    std::string text = kPlayHelp;
    for (std::size_t at = 0; at < text.size();) {
        auto nl = text.find('\n', at);
        lines.push_back(text.substr(at, nl - at));
        at = nl == std::string::npos ? text.size() : nl + 1;
    }
    lines.push_back("");
    lines.push_back("(Enter: back to the board)");
    return lines;
}

const char* const kLeaveQuestion
    = "leave the game in progress? a computer takes your seat. /leave again to confirm";

std::optional<BareWord> read_bare_word(const std::string& line) {
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string first = lower.substr(0, lower.find(' '));
    bool alone = first.size() == lower.size();
    if (alone && (first == "quit" || first == "exit" || first == "q"))
        return BareWord { "/quit", "" };
    if (alone && (first == "help" || first == "h")) return BareWord { "/help", "" };
    if (alone && (first == "keys" || first == "names" || first == "holes"))
        return BareWord { "/keys", "" };
    if (alone && first == "board") return BareWord { "/board", "" };
    if (first == "vote")
        return BareWord { "", "to vote, type /vote new (a new game) or /vote cancel" };
    if (first == "start") return BareWord { "", "to start now with computers, type /start" };
    if (first == "leave")
        return BareWord { "", "to leave the room for good, type /leave (/quit keeps your seat)" };
    if (first == "chat" || first == "say") return BareWord { "", "to chat, type /c and your text" };
    return std::nullopt;
}

std::optional<std::string> chat_hint(const std::string& line) {
    // Holes, separators and the dashes people type are a move however mistyped ("n1 m55",
    // "n1m5"): the refusal says what is wrong with it. A word of letters alone is speech, two
    // letters only among others ("hello mom": "'hello' is not a hole", while "i want to win" was
    // taken for chat; every letter of "hello" is a row's). "zz" alone is a typo.
    std::vector<std::string> words;
    std::string token;
    bool has_digit = false;
    auto end_token = [&] {
        if (!token.empty() && !has_digit) words.push_back(token);
        token.clear();
        has_digit = false;
    };
    for (unsigned char c : line) {
        // Separators: spaces, dashes, commas, and UTF-8 (en and em dashes, and any letter of
        // another script, which is no hole either).
        if (c == ' ' || c == '\t' || c == '-' || c == ',' || c >= 0x80) {
            end_token();
            continue;
        }
        has_digit |= std::isdigit(c) != 0;
        token += static_cast<char>(c);
    }
    end_token();
    bool spoken = std::any_of(words.begin(), words.end(), [&](const std::string& w) {
        bool letters = std::all_of(
            w.begin(), w.end(), [](unsigned char c) { return std::isalpha(c) || std::ispunct(c); });
        bool alone = line.find(' ') == std::string::npos;
        return letters
            && std::any_of(w.begin(), w.end(), [](unsigned char c) { return std::isalpha(c); })
            && w.size() >= (alone ? 3u : 2u);
    });
    if (!spoken) return std::nullopt;
    return "'" + line + "' is not a move; to chat, type /c " + line;
}

} // namespace halma::cli
