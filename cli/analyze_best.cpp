// `halma analyze best`: the bots' choice for a position, for checking them by hand and for
// scripts. A bare position says nothing of who owns which set, so each set is its own player.
#include "commands.h"
#include "engine/ai/bot.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "game_replay.h"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace halma::cli {
namespace {

using namespace halma::engine;

struct BestInputs {
    std::string level = "hard";
    std::optional<int> time_ms; // none: the level's own (hard 150 ms, max 3000 ms)
    std::uint64_t seed = ai::BotSettings {}.seed;
    std::string rules_text;
    std::vector<std::string> position_words;
    std::string moves; // the moves that led here, from the position (or the start)
    int players = 2; // for the start position, when no position is given
    bool verbose = false;
};

int input_error(const std::string& what, const std::string& message) {
    std::cerr << "halma: " << what << ": " << message << "\n";
    return 2;
}

int run_best(const BestInputs& in) {
    auto level = ai::parse_level(in.level);
    if (!level) return input_error("bad --level", "'" + in.level + "' is not one of easy|hard|max");
    int time_ms = in.time_ms.value_or(ai::level_budget_ms(*level, ai::kDefaultBudgetMs));
    if (time_ms < 1 || time_ms > 600'000)
        return input_error(
            "bad --time", std::to_string(time_ms) + " ms is not between 1 and 600000");
    auto rules = Rules::parse(in.rules_text);
    if (!rules) return input_error("bad --rules", rules.error().message);
    std::string text;
    for (const auto& w : in.position_words) text += (text.empty() ? "" : " ") + w;
    std::optional<Position> pos;
    if (!text.empty()) {
        auto parsed = Position::parse(text);
        if (!parsed) return input_error("bad position", parsed.error().message);
        pos = *parsed;
    }

    ai::BotSettings settings { *level, time_ms, in.seed };
    ai::BotResult result;
    if (pos && in.moves.empty()) {
        result = ai::think(*pos, *rules, ai::Seating::one_per_set(pos->sets_present()), settings);
    } else {
        // A game, not a position: the bot sees the history, so it avoids repeating itself. With
        // neither a position nor moves, it is the start of a game of --players.
        auto setup
            = pos ? setup_for_position(*pos, *rules) : GameSetup::make(in.players, 1, *rules);
        if (!setup)
            return input_error(pos ? "bad position" : "bad --players", setup.error().message);
        auto game = replay_game(*setup, pos, split_moves(in.moves));
        if (!game) return input_error("bad --moves", game.error().message);
        if (game->over()) return input_error("bad --moves", "the game is over after them");
        result = ai::think(*game, settings);
    }
    std::cout << move_name(result.move) << "\n";
    if (in.verbose && *level != ai::Level::kEasy)
        std::cerr << "halma: depth " << result.depth << ", " << result.nodes << " nodes, score "
                  << result.score << (result.clock_stopped ? ", stopped by the safety clock" : "")
                  << "\n";
    return 0;
}

} // namespace

void add_best_command(CLI::App& analyze, int& exit_code) {
    static BestInputs in;
    auto* best = analyze.add_subcommand(
        "best", "Print the move a bot chooses for the set to move (from-to)");
    best->add_option("--level", in.level, "Bot level: easy|hard|max (max: the hard bot, 3 s)")
        ->capture_default_str();
    best->add_option("--time", in.time_ms,
        "Thinking budget in ms (default: the level's, hard 150, max 3000), turned into a fixed "
        "amount of search: the same input gives the same move");
    best->add_option("--seed", in.seed, "Seed for the bot's random choices")->capture_default_str();
    best->add_option("--rules", in.rules_text,
        "Rule settings, comma separated: jumps=short|long, rest=own|unused|any, home-lock=on|off,\n"
        "spoil=none|swap|occupied, release=on|off, unused=empty|filled, first=black|coin");
    best->add_flag(
        "-v,--verbose", in.verbose, "Also print the search depth, nodes and score (stderr)");
    best->add_option("--moves", in.moves,
        "The moves played from the position (or from the start) to the one to analyse, e.g.\n"
        "\"o1-m7 c2-e2\": the bot then sees the game's history (repetitions, stalls)");
    best->add_option("--players", in.players,
            "Players (one set each) of the start position, where --moves starts (or the "
            "position analysed) when no position is given")
        ->capture_default_str();
    best->add_option("position", in.position_words,
        "Position string (docs/notation.md); with --moves, where the moves start (default: the "
        "start position)");
    best->callback([&] { exit_code = run_best(in); });
}

} // namespace halma::cli
