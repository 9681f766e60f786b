#include "protocol_player.h"

#include "engine/notation.h"

#include <chrono>
#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace halma::bench {

using namespace halma::engine;

namespace {

// Time an engine may take beyond its movetime before it loses the game on time.
constexpr int kGraceMs = 2000;
// The most lines an engine may print for one `go` (info lines) before we stop listening.
constexpr int kMaxLinesPerMove = 10'000;

} // namespace

ProtocolPlayer::ProtocolPlayer(std::string command, int movetime_ms)
    : command_(std::move(command))
    , movetime_ms_(movetime_ms) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) {
        problem_ = "no pipes";
        return;
    }
    pid_ = fork();
    if (pid_ == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_engine_ = in[1];
    from_engine_ = out[0];
    std::signal(SIGPIPE, SIG_IGN); // a dead engine must not take the match runner with it
    if (!send("halma")) return;
    for (int i = 0; i < 100; ++i) {
        auto line = read_line(10'000);
        if (!line) return;
        if (*line == "halmaok") {
            ok_ = true;
            return;
        }
    }
    problem_ = "no halmaok";
}

ProtocolPlayer::~ProtocolPlayer() {
    if (pid_ > 0) {
        send("quit");
        close(to_engine_);
        // Bounded wait for it to leave, then make sure.
        for (int i = 0; i < 50; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            usleep(20'000);
        }
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    if (from_engine_ >= 0) close(from_engine_);
}

bool ProtocolPlayer::send(const std::string& line) {
    std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t n = write(to_engine_, text.data() + done, text.size() - done);
        if (n <= 0) {
            problem_ = "the engine closed its input";
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> ProtocolPlayer::read_line(int timeout_ms) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
        auto end = buffer_.find('\n');
        if (end != std::string::npos) {
            std::string line = buffer_.substr(0, end);
            buffer_.erase(0, end + 1);
            return line;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0) {
            problem_ = "no answer in time";
            return std::nullopt;
        }
        pollfd p { from_engine_, POLLIN, 0 };
        if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
        char chunk[4096];
        ssize_t n = read(from_engine_, chunk, sizeof chunk);
        if (n <= 0) {
            problem_ = "the engine exited";
            return std::nullopt;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<std::string> ProtocolPlayer::move(const Game& game) {
    if (!ready()) return std::nullopt;
    const GameSetup& setup = game.setup();
    std::string position = "position startpos";
    bool first = true;
    for (const PlayedMove& played : game.history()) {
        if (played.automatic) continue; // the engine's game makes those passes itself
        position += first ? " moves " : " ";
        position += move_name(played.move);
        first = false;
    }
    if (!send("newgame players " + std::to_string(setup.players) + " sets "
            + std::to_string(setup.sets_per_player) + " rules " + setup.rules.to_string())
        || !send(position) || !send("go movetime " + std::to_string(movetime_ms_)))
        return std::nullopt;
    for (int i = 0; i < kMaxLinesPerMove; ++i) {
        auto line = read_line(movetime_ms_ + kGraceMs);
        if (!line) return std::nullopt;
        if (line->rfind("error ", 0) == 0) problem_ = *line;
        if (line->rfind("bestmove ", 0) == 0) return line->substr(9);
    }
    problem_ = "no bestmove";
    return std::nullopt;
}

} // namespace halma::bench
