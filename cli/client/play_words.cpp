#include "cli/client/play_words.h"

#include <algorithm>
#include <cctype>

namespace halma::cli {

const char* const kPlayHelp
    = "Type a move: o1-m7, a full path, just the target (m7) when one marble\n"
      "can get there, or a marble's hole (o1) to see where it can go.\n"
      "Up/Down: earlier lines; Ctrl-R: search them.\n"
      "  /c TEXT       chat\n"
      "  /vote new     vote for a new game (all seated must agree)\n"
      "  /vote cancel  vote to cancel (a player vanished)\n"
      "  /vote leader  vote to hide (or show) who is in the lead this game\n"
      "  /start [easy|hard|max]  start now, computers in the free seats\n"
      "  /keys         every hole's name on this board\n"
      "  /board        redraw\n"
      "  /leave        leave the room (a computer takes your seat)\n"
      "  /quit         stop playing (your seat stays yours)\n";

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

} // namespace halma::cli
