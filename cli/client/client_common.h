// What the client commands share: the connection settings, asking the daemon with the exit-code
// contract applied (0 done, 1 not done, 2 bad input), and reading a move the way players type it.
#pragma once

#include "cli/client/daemon_connection.h"

#include <optional>
#include <string>

namespace halma::cli {

struct ClientOptions {
    std::string runtime_dir;
    int timeout_ms = 10'000;
};
ClientOptions& client_options();

// Sends the request; on no reply or an error reply prints why, sets exit_code and returns nullopt.
std::optional<pb::Reply> ask(DaemonConnection& daemon, pb::Request request, int& exit_code);
DaemonConnection connect_daemon();

// A move as typed: "o1-m7", a full path, "pass", or just the target hole when only one of the
// player's marbles can get there. Returns the text to send, or sets exit_code (1: cannot be
// played, 2: not a move at all) and prints why.
std::optional<std::string> read_move(
    const pb::RoomView& view, const std::string& typed, int& exit_code, std::string* why = nullptr);

// Colour when writing to a terminal, unless NO_COLOR is set or --no-colour was given.
bool use_colour(bool no_colour_flag);

} // namespace halma::cli
