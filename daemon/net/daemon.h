// halmad as a whole: every socket, the one event loop that owns them, and start-up/shut-down.
// Each part says when it next needs to wake (next_deadline) and does its timed work in tick();
// the loop sleeps in zmq::poll until a socket is readable or that deadline comes.
#pragma once

#include "daemon/net/config.h"

namespace halma::daemon {

// Runs until SIGINT or SIGTERM; returns the process exit code (1 for a start-up failure such
// as a port in use or a runtime directory held by another daemon).
int run_daemon(const Config& config);

} // namespace halma::daemon
