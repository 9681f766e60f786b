#include "cli/client/prompt_line.h"

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <editline/readline.h>
#include <langinfo.h>
#include <poll.h>
#include <string_view>
#include <unistd.h>

namespace halma::cli {

namespace {

// libedit's callback interface hands a finished line to a plain function: this is where it
// waits for next_line(). One prompt per process, as there is one terminal.
std::deque<std::string> entered;
bool input_ended = false;
std::string current_prompt;

void on_line(char* line) {
    if (!line) {
        input_ended = true;
        return;
    }
    std::string text(line);
    std::free(line);
    if (text.find_first_not_of(' ') != std::string::npos) add_history(text.c_str());
    entered.push_back(std::move(text));
    // libedit leaves the terminal in cooked mode once a line is done, so what is typed next would
    // be echoed by the terminal and never edited: installing the handler again restores editing.
    rl_callback_handler_remove();
    rl_callback_handler_install(current_prompt.c_str(), on_line);
}

} // namespace

PromptLine::PromptLine(int fd)
    : fd_(fd)
    , editing_(isatty(fd) && isatty(STDOUT_FILENO))
    , plain_(fd) {
    if (!editing_) return;
    // libedit reads characters past ASCII only in a UTF-8 locale: in the "C" locale of a shell
    // with no LANG it dropped every byte above 127 (typing "Grüße 🎲" sent "Gre"). halma's text
    // is UTF-8 throughout, so the character type is the user's if that is UTF-8, else C.UTF-8
    // (always there on Debian). Only LC_CTYPE: numbers and messages stay as they were.
    std::setlocale(LC_CTYPE, "");
    if (std::string_view(nl_langinfo(CODESET)) != "UTF-8") std::setlocale(LC_CTYPE, "C.UTF-8");
    // The play loop handles SIGWINCH and the rest itself (signals are events in its loop).
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    using_history();
    current_prompt = "> ";
    rl_callback_handler_install(current_prompt.c_str(), on_line);
}

PromptLine::~PromptLine() {
    if (editing_) rl_callback_handler_remove();
}

void PromptLine::set_prompt(const std::string& prompt) {
    prompt_ = prompt;
    if (!editing_) return;
    current_prompt = prompt;
    rl_set_prompt(current_prompt.c_str());
}

void PromptLine::redraw() {
    if (!editing_) {
        std::fputs(prompt_.c_str(), stdout);
        std::fflush(stdout);
        return;
    }
    std::fflush(stdout);
    rl_forced_update_display();
}

void PromptLine::resized() {
    if (editing_) rl_resize_terminal();
}

void PromptLine::fill() {
    if (editing_)
        rl_callback_read_char();
    else
        plain_.fill();
}

std::optional<std::string> PromptLine::next_line() {
    if (!editing_) return plain_.next_line();
    if (entered.empty()) return std::nullopt;
    std::string line = std::move(entered.front());
    entered.pop_front();
    return line;
}

bool PromptLine::done() const {
    return editing_ ? input_ended && entered.empty() : plain_.done();
}

bool PromptLine::pending() const {
    pollfd waiting { fd_, POLLIN, 0 };
    return poll(&waiting, 1, 0) > 0;
}

} // namespace halma::cli
