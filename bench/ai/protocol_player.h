// An engine in another process, spoken to through halma's engine protocol
// (docs/engine-protocol.md) over a pair of pipes: how the match runner plays engines that are
// not linked in, `halma engine` itself included.
#pragma once

#include "engine/game.h"

#include <optional>
#include <string>
#include <sys/types.h>

namespace halma::bench {

class ProtocolPlayer {
public:
    // Starts `command` through /bin/sh and greets it (`halma` ... `halmaok`). `movetime_ms`:
    // what each `go` gives it.
    ProtocolPlayer(std::string command, int movetime_ms);
    ~ProtocolPlayer();
    ProtocolPlayer(const ProtocolPlayer&) = delete;
    ProtocolPlayer& operator=(const ProtocolPlayer&) = delete;

    bool ready() const { return pid_ > 0 && ok_; }
    const std::string& problem() const { return problem_; }

    // The engine's move for `game` (the whole game is sent, so it sees the history), as text,
    // or nullopt when it did not answer in time or died (problem() says which).
    std::optional<std::string> move(const engine::Game& game);

private:
    bool send(const std::string& line);
    std::optional<std::string> read_line(int timeout_ms);

    std::string command_;
    int movetime_ms_;
    pid_t pid_ = -1;
    int to_engine_ = -1, from_engine_ = -1;
    std::string buffer_;
    bool ok_ = false;
    std::string problem_;
};

} // namespace halma::bench
