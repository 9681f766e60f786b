// `halma engine`'s protocol (docs/engine-protocol.md): one line in, zero or more lines out, in
// the spirit of UCI. The session owns the game the front end set up and, while it thinks, one
// search thread; `stop` ends the search through the engine's stop flag.
#pragma once

#include "engine/ai/bot.h"
#include "engine/game.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace halma::cli {

// The longest input line read; a longer one is refused whole (a game's move list is far shorter).
inline constexpr std::size_t kMaxEngineLine = 256 * 1024;

class EngineSession {
public:
    // `write` gets each output line (no newline); calls come from this thread or the search's,
    // never two at once.
    explicit EngineSession(std::function<void(const std::string&)> write);
    ~EngineSession();
    EngineSession(const EngineSession&) = delete;
    EngineSession& operator=(const EngineSession&) = delete;

    // Handles one input line. False once the front end said `quit`.
    bool handle(std::string_view line);
    // Stops a search under way (as `stop` does) and waits for its `bestmove`.
    void finish();
    // Reports input the reader refused before it became a line (`error MESSAGE`).
    void handle_error(const std::string& message) { error(message); }

private:
    void say(const std::string& line);
    void error(const std::string& message);
    void hello();
    void set_option(const std::vector<std::string>& words);
    void new_game(const std::vector<std::string>& words);
    void set_position(const std::vector<std::string>& words);
    void go(const std::vector<std::string>& words);
    void show();
    void think(engine::Game game, ai::BotSettings settings);
    bool thinking() const { return thinking_.load(); }

    std::function<void(const std::string&)> write_;
    std::mutex write_mutex_;
    engine::GameSetup setup_;
    engine::Game game_;
    ai::BotSettings settings_; // level, default budget and seed (setoption)
    bool time_set_ = false; // `time` was set: the level no longer chooses the budget
    std::thread search_;
    std::atomic<bool> stop_ { false };
    std::atomic<bool> thinking_ { false };
};

} // namespace halma::cli
