// `halma engine`: the bots behind a line protocol on stdin/stdout (docs/engine-protocol.md), for
// tournament managers, other front ends and other engines. This file is the I/O loop; the
// protocol itself is EngineSession.
#include "cli/commands.h"
#include "engine_session.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace halma::cli {
namespace {

// Reads one line of at most kMaxEngineLine bytes into `line`; a longer one is read to its end
// and reported through `too_long`. False at the end of input.
bool read_line(std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    int c;
    bool any = false;
    while ((c = std::getchar()) != EOF) {
        any = true;
        if (c == '\n') return true;
        if (line.size() < kMaxEngineLine)
            line += static_cast<char>(c);
        else
            too_long = true;
    }
    return any;
}

int run_engine() {
    EngineSession session([](const std::string& line) {
        std::fputs(line.c_str(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    });
    std::string line;
    bool too_long = false;
    while (read_line(line, too_long)) {
        if (too_long) {
            session.handle_error(
                "line too long (over " + std::to_string(kMaxEngineLine) + " bytes), ignored");
            continue;
        }
        if (!session.handle(line)) return 0;
    }
    session.finish(); // end of input: as `quit`
    return 0;
}

} // namespace

void add_engine_command(CLI::App& app, int& exit_code) {
    auto* engine = app.add_subcommand(
        "engine", "Play the bots over a line protocol on stdin/stdout (docs/engine-protocol.md)");
    engine->callback([&] { exit_code = run_engine(); });
}

} // namespace halma::cli
