// What `halma play` understands besides moves: its /commands, their help, and the words people
// type without the slash. A word that cannot be a hole ("quit", "help", "vote new") either does
// what it says, when that cannot hurt, or is answered with the slash form to type.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace halma::cli {

extern const char* const kPlayHelp;
// kPlayHelp a line each, and how to go back, for the screen to show in place of the board.
std::vector<std::string> play_help_lines();

struct BareWord {
    std::string run_as; // the /command to carry out; empty: only advise
    std::string advice; // what to type instead
};

// Asked when /leave is typed mid-game; /leave again leaves.
extern const char* const kLeaveQuestion;

// `line` (already trimmed) as a command word without its slash; nullopt when it is not one
// (a move, a hole, a /command, or something else read_move will explain).
std::optional<BareWord> read_bare_word(const std::string& line);

// For a line that reads as words, not a move ("who is winning?"): how to say it as chat.
// nullopt for anything that may be a move or a hole, whose refusal says what is wrong with it.
std::optional<std::string> chat_hint(const std::string& line);

} // namespace halma::cli
