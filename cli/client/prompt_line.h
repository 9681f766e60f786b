// The move prompt: line editing, history and its search (arrows, Home/End, Ctrl-R) when typing
// in a terminal, plain lines from a pipe otherwise. Read only when poll says its fd is ready, so
// the play loop can redraw the screen for an event at any time and put the prompt back with
// what the user had typed, cursor and all.
//
// The editing is libedit's (Debian's libedit-dev, BSD licence), through its readline-compatible
// callback interface: GNU readline is GPL-3, which would make every halma binary GPL-3, and halma
// has not chosen a licence yet; libedit puts no such condition on it. replxx is not in Debian 12.
#pragma once

#include "cli/client/line_reader.h"

#include <deque>
#include <optional>
#include <string>

namespace halma::cli {

class PromptLine {
public:
    // Editing when `fd` is a terminal; `fd` is read either way.
    explicit PromptLine(int fd);
    ~PromptLine();
    PromptLine(const PromptLine&) = delete;
    PromptLine& operator=(const PromptLine&) = delete;

    int fd() const { return fd_; }
    bool editing() const { return editing_; }
    // The prompt shown from now on ("your move> ", "> ").
    void set_prompt(const std::string& prompt);
    // Draws the prompt and what has been typed at the cursor's position (the screen's last row).
    void redraw();
    // The terminal changed size.
    void resized();
    // Reads what is there (after poll reported the fd ready).
    void fill();
    // The next line entered, if any.
    std::optional<std::string> next_line();
    // Input has ended (Ctrl-D on an empty line, or the pipe's end) and every line has been taken.
    bool done() const;
    // Something typed is waiting to be read (a key, not yet taken by fill()).
    bool pending() const;

private:
    int fd_;
    bool editing_;
    std::string prompt_;
    LineReader plain_;
};

} // namespace halma::cli
