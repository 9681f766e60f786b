// `halma records` (the finished games the local halmad keeps, or one of them as text) and
// `halma replay RECORD` (a record played back on the board, a move at a time or at a pace). The
// records are in the daemon's state directory, which is the service user's, so both ask the
// daemon (RecordsRequest, docs/api.md); replay also reads a record file given by its path.
#include "cli/client/board_render.h"
#include "cli/client/client_common.h"
#include "cli/client/output.h"
#include "cli/client/places_words.h"
#include "cli/client/record_file.h"
#include "cli/client/term_text.h"
#include "cli/client/terminal_io.h"
#include "cli/commands.h"
#include "engine/game_record.h"
#include "engine/notation.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace halma::cli {

namespace {

std::string places_text(const pb::RecordSummary& s) {
    return places_in_order(
        { s.players().begin(), s.players().end() }, { s.places().begin(), s.places().end() });
}

std::string move_text(const std::vector<engine::Cell>& path) {
    return path.empty() ? std::string("pass") : engine::path_name(path);
}

// The record's text: a file named by its path, else the daemon's record of that id.
std::optional<std::string> record_text(const std::string& name, int& exit_code) {
    std::error_code ec;
    if (name.find('/') != std::string::npos || std::filesystem::is_regular_file(name, ec)) {
        std::string error;
        auto text = read_record_file(name, error);
        if (!text) {
            std::cerr << "halma: " << error << "\n";
            exit_code = 2;
        }
        return text;
    }
    auto daemon = connect_daemon();
    pb::Request r;
    r.mutable_records()->set_record(name);
    auto reply = ask(daemon, r, exit_code);
    if (!reply) return std::nullopt;
    std::string text;
    for (const auto& line : reply->records().lines()) text += line + "\n";
    return text;
}

// The player of the record who is this machine's player (their name is the local halmad's), if
// any, so the replay is drawn from their side, as `halma play` drew the game. Quietly none when
// no halmad answers: a record file replays without one.
std::optional<int> own_player(const engine::GameRecord& record) {
    auto daemon = connect_daemon();
    pb::Request r;
    r.mutable_status();
    auto reply = daemon.call(r);
    if (!reply || !reply->has_status()) return std::nullopt;
    for (std::size_t p = 0; p < record.players.size(); ++p)
        if (record.players[p].name == reply->status().name()) return static_cast<int>(p);
    return std::nullopt;
}

// What the board needs of a room's view, for one position of the record: with a viewer, the
// seat whose first set is turned to the bottom.
pb::RoomView view_of(
    const engine::Game& game, const std::vector<engine::Cell>& path, std::optional<int> viewer) {
    pb::RoomView view;
    view.set_your_seat(-1);
    if (viewer) {
        auto* seat = view.add_seats();
        for (auto set : game.setup().sets_of(*viewer))
            seat->add_sets(static_cast<std::uint32_t>(set));
        view.set_your_seat(0);
    }
    view.set_position(game.position().to_string());
    for (auto c : path) view.add_last_path(c);
    return view;
}

} // namespace

void add_records_command(CLI::App& app, int& exit_code) {
    static std::string id;
    static bool json = false;
    auto* cmd = app.add_subcommand(
        "records", "List the finished games the local halmad keeps, or print one (RECORD)");
    cmd->add_option("RECORD", id, "A record's id (from the list): print its text");
    cmd->add_flag("--json", json, "One JSON object (the API's Records message)");
    cmd->callback([&] {
        auto daemon = connect_daemon();
        pb::Request r;
        r.mutable_records()->set_record(id);
        auto reply = ask(daemon, r, exit_code);
        if (!reply) return;
        const auto& records = reply->records();
        if (json) {
            std::cout << to_json(records) << "\n";
        } else if (!id.empty()) {
            for (const auto& line : records.lines()) std::cout << line << "\n";
        } else {
            // A guest looked for its games here: the host of each room keeps its records.
            if (records.records().empty())
                std::cout << "no records yet (each game's record is kept by the halmad that hosted "
                             "its room: run halma records there)\n";
            for (const auto& s : records.records())
                std::cout << s.id() << "  " << engine::iso_time(s.ended_ms()) << "  " << s.room()
                          << " game " << s.game() << "  " << s.moves()
                          << (s.moves() == 1 ? " move  " : " moves  ") << s.ending() << "  "
                          << places_text(s) << "\n";
        }
        for (const auto& u : records.unreadable())
            std::cerr << "halma: unreadable record " << u << "\n";
    });
}

void add_replay_command(CLI::App& app, int& exit_code) {
    static std::string name;
    static double pace = -1;
    static int from = 0;
    static bool fixed = false, no_colour = false;
    auto* cmd = app.add_subcommand("replay",
        "Play a finished game back on the board, from your side: Enter for the next move (b goes "
        "back, a number jumps there, q quits), or --pace");
    cmd->add_option("RECORD", name, "A record's id (halma records) or a record file")->required();
    cmd->add_option("--pace", pace, "Seconds between moves, played without waiting for Enter")
        ->check(CLI::Range(0.0, 3600.0));
    cmd->add_option("--from", from, "Start at the position after this move")
        ->check(CLI::NonNegativeNumber);
    cmd->add_flag("--fixed", fixed,
        "Draw triangle 1 at the bottom (by default your own triangle is, if you played in it)");
    cmd->add_flag("--no-colour,--no-color", no_colour, "Letters only, no ANSI colours");
    cmd->callback([&] {
        auto text = record_text(name, exit_code);
        if (!text) return;
        auto record = engine::parse_record(*text);
        if (!record) {
            std::cerr << "halma: " << name
                      << " is not a record I can read: " << record.error().message << "\n";
            exit_code = 2;
            return;
        }
        // Refused before anything is printed: the game's header came first, then the error.
        if (static_cast<std::size_t>(from) > record->moves.size()) {
            std::cerr << "halma: --from " << from << ": this game has " << record->moves.size()
                      << (record->moves.size() == 1 ? " move\n" : " moves\n");
            exit_code = 2;
            return;
        }
        BoardStyle style { fixed, use_colour(no_colour), false };
        // Wrapped at words to the terminal: six players' names made it longer than a line, and
        // the terminal broke it mid-name.
        int cols = terminal_size().cols;
        std::string header = record->room + ", game " + std::to_string(record->game_number) + ", "
            + engine::iso_time(record->started_ms) + ": ";
        for (std::size_t p = 0; p < record->players.size(); ++p)
            header += (p ? " vs " : "") + record->players[p].name;
        header += "; " + std::to_string(record->moves.size())
            + (record->moves.size() == 1 ? " move, " : " moves, ") + record->ending;
        std::cout << wrap(header, cols);
        // Who played which colours, and who made each move: the board shows only letters.
        engine::Game start = *engine::start_of(*record); // parse_record played it through
        for (std::size_t p = 0; p < record->players.size(); ++p) {
            std::string sets;
            for (auto set : start.setup().sets_of(static_cast<int>(p)))
                sets += (sets.empty() ? "" : " + ") + set_label(set, style.colour);
            std::cout << "  " << record->players[p].name << ": " << sets << "\n";
        }
        std::optional<int> viewer = fixed ? std::nullopt : own_player(*record);
        std::vector<std::string> movers;
        {
            engine::Game game = start;
            for (const auto& move : record->moves) {
                auto player = static_cast<std::size_t>(game.setup().owner(game.set_to_move()));
                movers.push_back(
                    player < record->players.size() ? record->players[player].name : "");
                (void)game.play(move_text(move));
            }
        }
        auto show
            = [&](const engine::Game& game, std::size_t n, const std::vector<engine::Cell>& path) {
                  std::cout << "\nmove " << n << "/" << record->moves.size();
                  if (n > 0) std::cout << ": " << move_text(path);
                  if (n > 0 && !movers[n - 1].empty()) std::cout << " (" << movers[n - 1] << ")";
                  std::cout << "\n" << render_board(view_of(game, path, viewer), style);
              };
        // Positions are rebuilt from the start, so a jump back costs a replay (microseconds).
        auto game_at = [&](std::size_t n) {
            engine::Game game = start;
            for (std::size_t i = 0; i < n; ++i) (void)game.play(move_text(record->moves[i]));
            return game;
        };
        std::size_t n = static_cast<std::size_t>(from);
        for (;;) {
            engine::Game game = game_at(n);
            show(game, n, n ? record->moves[n - 1] : std::vector<engine::Cell> {});
            if (n == record->moves.size()) break;
            if (pace >= 0) {
                std::this_thread::sleep_for(std::chrono::duration<double>(pace));
                ++n;
                continue;
            }
            std::cout << "[Enter: next, b: back, a number: that move, q: quit] " << std::flush;
            std::string line;
            if (!std::getline(std::cin, line) || line == "q") break;
            if (line.empty()) {
                ++n;
            } else if (line == "b") {
                n = n ? n - 1 : 0;
            } else if (line.find_first_not_of("0123456789") == std::string::npos
                && line.size() < 9) {
                n = std::min<std::size_t>(std::stoul(line), record->moves.size());
            } else {
                std::cout << "(Enter, b, a move number or q)\n";
            }
        }
        // Six long names' places overran the line as the header did.
        std::string ended = "ended: " + record->ending;
        std::vector<std::string> names;
        for (const auto& player : record->players) names.push_back(player.name);
        std::vector<unsigned> places(record->places.begin(), record->places.end());
        if (std::any_of(places.begin(), places.end(), [](unsigned p) { return p != 0; }))
            ended += "; places: " + places_in_order(names, places);
        std::cout << "\n" << wrap(ended, cols);
    });
}

} // namespace halma::cli
