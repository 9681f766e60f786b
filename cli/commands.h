// Each group of `halma` subcommands registers itself on the app; main() only dispatches.
// A command's callback stores the exit code: 0 done, 1 the thing asked did not happen,
// 2 usage or input error (ripgrep's contract).
#pragma once

#include <CLI/CLI.hpp>

namespace halma::cli {

void add_analyze_commands(CLI::App& app, int& exit_code);
// `halma analyze best`, when the bots are built (cli/analyze_best.cpp).
void add_best_command(CLI::App& analyze, int& exit_code);
// `halma analyze record`: the positions of a game record (cli/analyze_record.cpp).
void add_record_command(CLI::App& analyze, int& exit_code);
// The daemon-facing commands (cli/client/), when the client library is built.
void add_client_commands(CLI::App& app, int& exit_code);
// `halma engine`, the bots over a line protocol (cli/engine/).
void add_engine_command(CLI::App& app, int& exit_code);
// `halma web`, the browser front end (cli/web/).
void add_web_command(CLI::App& app, int& exit_code);

} // namespace halma::cli
