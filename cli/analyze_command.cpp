// `halma analyze ...`: the engine from the command line, for scripts and for checking a
// position by hand. Output formats are a contract (docs/cli.md): one item per line.
#include "commands.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "game_replay.h"

#include <iostream>
#include <numeric>
#include <string>
#include <vector>

namespace halma::cli {
namespace {

using namespace halma::engine;

// A position is two words ("rows side"); accept it quoted as one argument or as two.
std::string join(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

struct Inputs {
    std::string rules_text;
    std::vector<std::string> position_words;
};

int input_error(const std::string& what, const Error& e) {
    std::cerr << "halma: " << what << ": " << e.message << "\n";
    return 2;
}

// Parses the rules and position; on error prints it and returns the exit code.
std::optional<int> load(const Inputs& in, Rules& rules, Position& pos, bool position_optional) {
    auto parsed_rules = Rules::parse(in.rules_text);
    if (!parsed_rules) return input_error("bad --rules", parsed_rules.error());
    rules = *parsed_rules;
    if (in.position_words.empty() && position_optional) {
        // The two-player start under these rules: with unused=filled, the four other triangles
        // hold their fixed marbles, as the engine's startpos has them (it counted from an empty
        // board).
        pos = Position::start(mask_of(0) | mask_of(3), 0, rules.unused == Unused::kFilled);
        return std::nullopt;
    }
    std::string text = join(in.position_words);
    if (text.empty()) return input_error("bad position", Error { "no position given" });
    auto parsed = Position::parse(text);
    if (!parsed) return input_error("bad position", parsed.error());
    pos = *parsed;
    return std::nullopt;
}

void add_inputs(CLI::App* cmd, Inputs& in) {
    cmd->add_option("--rules", in.rules_text,
        "Rule settings, comma separated: jumps=short|long, rest=own|unused|any, home-lock=on|off,\n"
        "spoil=none|swap|occupied, release=on|off, unused=empty|filled, first=black|coin");
}

} // namespace

void add_analyze_commands(CLI::App& app, int& exit_code) {
    auto* analyze
        = app.add_subcommand("analyze", "Ask the rules engine about a position (offline)");
    analyze->require_subcommand(1);

    static Inputs moves_in;
    auto* moves = analyze->add_subcommand(
        "moves", "List the legal moves of the set to move, one from-to per line");
    add_inputs(moves, moves_in);
    moves->add_option("position", moves_in.position_words, "Position string (docs/notation.md)")
        ->required();
    moves->callback([&] {
        Rules rules;
        Position pos;
        if (auto code = load(moves_in, rules, pos, false)) {
            exit_code = *code;
            return;
        }
        // As a game goes on from here: a set that has finished only passes (with spoil=occupied,
        // a full home is finished too), and a game that is over has no moves (the list showed
        // the finished set's marbles moving on).
        if (auto setup = setup_for_position(pos, rules)) {
            if (auto game = Game::from_position(*setup, pos); game && game->over()) {
                std::cerr << "halma: the game is over here: no set moves\n";
                return;
            } else if (game && game->set_finished(pos.side_to_move())) {
                std::cout << "pass\n";
                return;
            }
        }
        MoveList list;
        generate_moves(pos, rules, list);
        for (Move m : list) std::cout << move_name(m) << "\n";
    });

    static Inputs perft_in;
    static int depth = 0;
    auto* perft_cmd = analyze->add_subcommand("perft", "Count the move sequences DEPTH plies deep");
    add_inputs(perft_cmd, perft_in);
    perft_cmd->add_option("depth", depth, "Plies")->required()->check(CLI::Range(0, 64));
    perft_cmd->add_option(
        "position", perft_in.position_words, "Position string (default: the 2-player start)");
    perft_cmd->callback([&] {
        Rules rules;
        Position pos;
        if (auto code = load(perft_in, rules, pos, true)) {
            exit_code = *code;
            return;
        }
        std::cout << perft(pos, rules, depth).leaves << "\n";
    });

    static Inputs path_in;
    static std::string move_text;
    auto* path_cmd
        = analyze->add_subcommand("path", "Show the holes a move passes through (its hop chain)");
    add_inputs(path_cmd, path_in);
    path_cmd->add_option("move", move_text, "The move, from-to")->required();
    path_cmd->add_option("position", path_in.position_words, "Position string")->required();
    path_cmd->callback([&] {
        Rules rules;
        Position pos;
        if (auto code = load(path_in, rules, pos, false)) {
            exit_code = *code;
            return;
        }
        auto cells = parse_path(move_text);
        if (!cells) {
            exit_code = input_error("bad move", cells.error());
            return;
        }
        auto move = legal_move_along(pos, rules, *cells);
        if (!move) {
            std::cerr << "halma: illegal move " << move_text << ": " << move.error().message
                      << "\n";
            exit_code = 1;
            return;
        }
        std::cout << path_name(cells->size() > 2 ? *cells : move_path(pos, rules, *move)) << "\n";
    });

    add_best_command(*analyze, exit_code);
    add_record_command(*analyze, exit_code);
}

} // namespace halma::cli
