// halma: the command line front end. Analysis runs the engine in-process; every other command
// talks to the local halmad.
#include "commands.h"
#include "halma/version.h"

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app { "halma: Chinese checkers on your LAN.\n"
                   "Analysis commands work offline; the others talk to the local halmad." };
    app.set_version_flag("--version", std::string("halma ") + halma::kVersion);
    app.require_subcommand(1);
    int exit_code = 0;
    halma::cli::add_analyze_commands(app, exit_code);
    halma::cli::add_client_commands(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    return exit_code;
}
