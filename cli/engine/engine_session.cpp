#include "engine_session.h"

#include "cli/game_replay.h"
#include "engine/notation.h"
#include "halma/version.h"

#include <charconv>
#include <chrono>
#include <cstdint>

namespace halma::cli {

using namespace halma::engine;

namespace {

std::vector<std::string> words_of(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    for (char c : line) {
        if (c == ' ' || c == '\t' || c == '\r') {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(word);
    return words;
}

// A whole number in [low, high], or nullopt.
std::optional<std::uint64_t> number(
    const std::string& text, std::uint64_t low, std::uint64_t high) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc {} || end != text.data() + text.size() || value < low || value > high)
        return std::nullopt;
    return value;
}

std::string line_of(const std::vector<Move>& moves) {
    std::string text;
    for (Move m : moves) text += (text.empty() ? "" : " ") + move_name(m);
    return text;
}

constexpr std::uint64_t kMaxMoveTimeMs = 600'000;
constexpr std::uint64_t kMaxNodes = 10'000'000'000ULL;
// `go movetime`: a node limit well above what a millisecond of search does, so the clock ends it.
constexpr std::uint64_t kNodesPerMsCeiling = 20'000;

} // namespace

EngineSession::EngineSession(std::function<void(const std::string&)> write)
    : write_(std::move(write))
    , setup_(*GameSetup::make(2, 1, Rules {}))
    , game_(setup_, 0) { }

EngineSession::~EngineSession() {
    finish();
}

void EngineSession::say(const std::string& line) {
    std::lock_guard lock(write_mutex_);
    write_(line);
}

// The input a message quotes may hold any byte: the front end gets printable ASCII only.
void EngineSession::error(const std::string& message) {
    std::string text = "error ";
    for (char c : message) text += c >= 32 && c < 127 ? c : '?';
    say(text);
}

void EngineSession::finish() {
    stop_ = true;
    if (search_.joinable()) search_.join();
    stop_ = false;
}

bool EngineSession::handle(std::string_view line) {
    auto words = words_of(line);
    if (words.empty()) return true;
    const std::string& command = words[0];
    if (command == "quit") {
        finish();
        return false;
    }
    if (command == "stop") {
        finish(); // a `stop` with no search under way is harmless, as in UCI
        return true;
    }
    if (command == "isready") {
        say("readyok");
        return true;
    }
    if (command == "halma") {
        hello();
        return true;
    }
    bool known = command == "setoption" || command == "newgame" || command == "position"
        || command == "go" || command == "show";
    if (!known) {
        error("unknown command '" + command
            + "' (halma, isready, setoption, newgame, position, go, stop, show, quit)");
        return true;
    }
    if (thinking()) {
        error("'" + command + "' while thinking: send stop first");
        return true;
    }
    if (search_.joinable()) search_.join(); // the last search has said its bestmove
    if (command == "setoption") set_option(words);
    if (command == "newgame") new_game(words);
    if (command == "position") set_position(words);
    if (command == "go") go(words);
    if (command == "show") show();
    return true;
}

void EngineSession::hello() {
    say(std::string("id name halma ") + kVersion);
    say("id author the halma authors");
    say("option name level type combo default hard var easy var hard var max");
    say("option name time type spin default 150 min 1 max 600000");
    say("option name seed type spin default 1 min 0 max 18446744073709551615");
    say("halmaok");
}

// setoption name NAME value VALUE
void EngineSession::set_option(const std::vector<std::string>& words) {
    if (words.size() != 5 || words[1] != "name" || words[3] != "value") {
        error("setoption takes: setoption name level|time|seed value VALUE");
        return;
    }
    const std::string& name = words[2];
    const std::string& value = words[4];
    if (name == "level") {
        auto level = ai::parse_level(value);
        if (!level) return error("level '" + value + "' is not one of easy|hard|max");
        settings_.level = *level;
        // Until `time` is set, a bare `go` thinks as long as the level does by default.
        if (!time_set_) settings_.budget_ms = ai::level_budget_ms(*level, ai::kDefaultBudgetMs);
    } else if (name == "time") {
        auto ms = number(value, 1, kMaxMoveTimeMs);
        if (!ms) return error("time '" + value + "' is not a number of ms from 1 to 600000");
        settings_.budget_ms = static_cast<int>(*ms);
        time_set_ = true;
    } else if (name == "seed") {
        auto seed = number(value, 0, UINT64_MAX);
        if (!seed) return error("seed '" + value + "' is not a whole number");
        settings_.seed = *seed;
    } else {
        error("no option '" + name + "' (level, time, seed)");
    }
}

// newgame [players N] [sets K] [rules R]
void EngineSession::new_game(const std::vector<std::string>& words) {
    int players = 2, sets = 1;
    std::string rules_text;
    for (std::size_t i = 1; i < words.size(); i += 2) {
        if (i + 1 >= words.size()) return error("newgame: '" + words[i] + "' needs a value");
        const std::string& key = words[i];
        const std::string& value = words[i + 1];
        if (key == "players" || key == "sets") {
            auto n = number(value, 1, 6);
            if (!n) return error("newgame: " + key + " '" + value + "' is not from 1 to 6");
            (key == "players" ? players : sets) = static_cast<int>(*n);
        } else if (key == "rules") {
            rules_text = value;
        } else {
            return error("newgame: unknown setting '" + key + "' (players, sets, rules)");
        }
    }
    auto rules = Rules::parse(rules_text);
    if (!rules) return error("newgame: bad rules: " + rules.error().message);
    auto setup = GameSetup::make(players, sets, *rules);
    if (!setup) return error("newgame: " + setup.error().message);
    setup_ = *setup;
    game_ = Game(setup_, 0);
}

// position startpos [moves M...] | position ROWS SIDE [moves M...]
void EngineSession::set_position(const std::vector<std::string>& words) {
    if (words.size() < 2) return error("position takes: position startpos|ROWS SIDE [moves M...]");
    std::size_t next = 2;
    std::optional<Position> start;
    GameSetup setup = setup_;
    if (words[1] != "startpos") {
        if (words.size() < 3) return error("position: a position is two words, ROWS SIDE");
        auto pos = Position::parse(words[1] + " " + words[2]);
        if (!pos) return error("position: " + pos.error().message);
        if (pos->sets_present() != setup.sets()) {
            // Not this game's sets: the position says who plays (one set each).
            auto implied = setup_for_position(*pos, setup.rules);
            if (!implied) return error("position: " + implied.error().message);
            setup = *implied;
        }
        start = *pos;
        next = 3;
    }
    std::vector<std::string> moves;
    if (next < words.size()) {
        if (words[next] != "moves")
            return error(
                "position: expected 'moves' after the position, got '" + words[next] + "'");
        moves.assign(words.begin() + static_cast<std::ptrdiff_t>(next) + 1, words.end());
    }
    auto game = replay_game(setup, start, moves);
    if (!game) return error("position: " + game.error().message + " (position unchanged)");
    game_ = std::move(*game);
}

// go [movetime MS] [nodes N]
void EngineSession::go(const std::vector<std::string>& words) {
    ai::BotSettings settings = settings_;
    settings.seed += game_.history().size(); // a seed per move, as in a room
    for (std::size_t i = 1; i < words.size(); i += 2) {
        if (i + 1 >= words.size()) return error("go: '" + words[i] + "' needs a value");
        const std::string& key = words[i];
        const std::string& value = words[i + 1];
        if (key == "movetime") {
            auto ms = number(value, 1, kMaxMoveTimeMs);
            if (!ms) return error("go: movetime '" + value + "' is not from 1 to 600000 ms");
            settings.budget_ms = static_cast<int>(*ms);
            settings.clock_limit_ms = static_cast<int>(*ms);
            if (settings.node_limit == 0) settings.node_limit = *ms * kNodesPerMsCeiling;
        } else if (key == "nodes") {
            auto n = number(value, 1, kMaxNodes);
            if (!n) return error("go: nodes '" + value + "' is not from 1 to 10000000000");
            settings.node_limit = *n;
        } else {
            return error("go: unknown setting '" + key + "' (movetime, nodes)");
        }
    }
    if (game_.over()) {
        error("go: the game is over");
        say("bestmove none");
        return;
    }
    thinking_ = true;
    search_ = std::thread([this, game = game_, settings] { think(game, settings); });
}

void EngineSession::think(Game game, ai::BotSettings settings) {
    settings.stop = &stop_;
    auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - t0)
            .count();
    };
    bool reported = false;
    auto result = ai::think(game, settings, [&](const ai::SearchProgress& p) {
        reported = true;
        say("info depth " + std::to_string(p.depth) + " score " + std::to_string(p.score)
            + " nodes " + std::to_string(p.nodes) + " time " + std::to_string(elapsed()) + " pv "
            + line_of(p.pv));
    });
    if (!reported)
        say("info depth " + std::to_string(result.depth) + " score " + std::to_string(result.score)
            + " nodes " + std::to_string(result.nodes) + " time " + std::to_string(elapsed())
            + " pv " + move_name(result.move));
    thinking_ = false; // before bestmove: the front end may answer it at once
    say("bestmove " + move_name(result.move));
}

void EngineSession::show() {
    say("position " + game_.position().to_string());
    const GameSetup& setup = game_.setup();
    say("setup players " + std::to_string(setup.players) + " sets "
        + std::to_string(setup.sets_per_player) + " rules " + setup.rules.to_string());
    say(std::string("status ") + (game_.over() ? "over" : "playing") + " moves "
        + std::to_string(game_.history().size()));
}

} // namespace halma::cli
