#include "cli/client/terminal_io.h"

#include <csignal>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

namespace halma::cli {

int signal_fd() {
    sigset_t mask;
    sigemptyset(&mask);
    for (int s : { SIGWINCH, SIGINT, SIGTERM, SIGHUP }) sigaddset(&mask, s);
    if (sigprocmask(SIG_BLOCK, &mask, nullptr) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

OwnedFd::~OwnedFd() {
    if (fd >= 0) close(fd);
}

TerminalSize terminal_size() {
    winsize ws {};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0)
        return { ws.ws_col, ws.ws_row };
    return {};
}

} // namespace halma::cli
