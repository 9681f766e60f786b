// What halma play needs of its terminal, apart from drawing: signals as events in its loop,
// the window's size, and the alternate screen, given back however play ends.
#pragma once

#include <iostream>

namespace halma::cli {

// SIGWINCH, and the signals that end halma play (Ctrl-C, a closed terminal, kill), blocked and
// read from a signalfd that the loop polls with the rest: a signal is an event in the loop. It
// never interrupts a wait for the daemon's reply (EINTR) half-way, and ending is a normal return,
// so the terminal gets its modes and its screen back. -1 if it cannot be made.
int signal_fd();

struct OwnedFd {
    int fd;
    ~OwnedFd();
};

struct TerminalSize {
    int cols = 80;
    int rows = 24;
};
// Of standard output; 80x24 when it is not a terminal.
TerminalSize terminal_size();

// The alternate screen while playing, so the shell's screen comes back as it was afterwards.
class FullScreen {
public:
    explicit FullScreen(bool on)
        : on_(on) {
        if (on_) std::cout << "\x1b[?1049h" << std::flush;
    }
    ~FullScreen() {
        if (on_) std::cout << "\x1b[?1049l" << std::flush;
    }

private:
    bool on_;
};

} // namespace halma::cli
