// `halma analyze record FILE`: the positions of a finished game's record (docs/records.md), for
// scripts and for feeding one of them to the other analyze commands. Offline, like them: the
// record is a file (`halma records ID > game.hrec`) or standard input ("-").
#include "cli/client/record_file.h"
#include "commands.h"
#include "engine/game_record.h"
#include "engine/notation.h"

#include <iostream>

namespace halma::cli {

void add_record_command(CLI::App& analyze, int& exit_code) {
    static std::string file;
    static int only = -1;
    auto* cmd = analyze.add_subcommand("record",
        "Print the positions of a game record: \"N MOVE POSITION\" a line, N=0 the start "
        "(MOVE '-')");
    cmd->add_option("FILE", file, "A record file (halma records ID > FILE), or - for stdin")
        ->required();
    cmd->add_option("--move", only, "Only the position after this move, as POSITION alone")
        ->check(CLI::NonNegativeNumber);
    cmd->callback([&] {
        std::string error;
        auto text = read_record_file(file, error);
        if (!text) {
            std::cerr << "halma: " << error << "\n";
            exit_code = 2;
            return;
        }
        auto record = engine::parse_record(*text);
        if (!record) {
            std::cerr << "halma: bad record: " << record.error().message << "\n";
            exit_code = 2;
            return;
        }
        if (only > static_cast<int>(record->moves.size())) {
            std::cerr << "halma: the record has " << record->moves.size() << " moves, not " << only
                      << "\n";
            exit_code = 2;
            return;
        }
        engine::Game game = *engine::start_of(*record); // parse_record played it through
        auto print = [&](std::size_t n, const std::string& move) {
            if (only < 0)
                std::cout << n << " " << move << " " << game.position().to_string() << "\n";
            else if (static_cast<int>(n) == only)
                std::cout << game.position().to_string() << "\n";
        };
        print(0, "-");
        for (std::size_t i = 0; i < record->moves.size(); ++i) {
            std::string move = record->moves[i].empty() ? std::string("pass")
                                                        : engine::path_name(record->moves[i]);
            (void)game.play(move);
            print(i + 1, move);
        }
    });
}

} // namespace halma::cli
