// `halma close`: ends a room this daemon hosts, for good. Closing a room in the middle of a game
// throws the game away for everyone in it, so it is asked first on a terminal, and a script must
// say --force.
#include "cli/client/client_common.h"
#include "cli/commands.h"

#include <iostream>
#include <string>
#include <unistd.h>

namespace halma::cli {

namespace {

// The player's answer to "close it? [y/N]" on the terminal; no by default.
bool confirmed(const std::string& question) {
    std::cerr << "halma: " << question << " [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer)) return false;
    return answer == "y" || answer == "Y" || answer == "yes";
}

} // namespace

void add_close_command(CLI::App& app, int& exit_code) {
    static std::string room;
    static bool force = false;
    auto* cmd = app.add_subcommand(
        "close", "Close a room this daemon hosts, for good: its players are told, it is deleted");
    cmd->add_option(
        "-r,--room", room, "Room name, code or id (default: the only room this daemon is in)");
    cmd->add_flag("-f,--force", force, "Close it even in the middle of a game, without asking");
    cmd->callback([&] {
        auto daemon = connect_daemon();
        std::string target = room;
        if (!force) {
            pb::Request r;
            r.mutable_view()->set_room(room);
            auto view = ask(daemon, r, exit_code);
            if (!view) return;
            const auto& v = view->view();
            // By id from here on: the room asked about is the room closed.
            target = v.summary().room_id();
            // A room hosted elsewhere: its host refuses the close, and says so, without asking.
            pb::Request st;
            st.mutable_status();
            auto status = ask(daemon, st, exit_code);
            if (!status) return;
            bool hosted = false;
            for (const auto& h : status->status().hosted()) hosted |= h.room_id() == target;
            if (hosted && v.summary().phase() == pb::PHASE_PLAYING) {
                std::string what = "room " + v.summary().name() + " has game "
                    + std::to_string(v.game_number()) + " in progress";
                if (!isatty(STDIN_FILENO)) {
                    std::cerr << "halma: " << what << "; close it anyway with --force\n";
                    exit_code = 2;
                    return;
                }
                if (!confirmed(what + "; close it for good?")) {
                    std::cerr << "halma: not closed\n";
                    exit_code = 1;
                    return;
                }
            }
        }
        pb::Request r;
        r.mutable_close()->set_room(target);
        if (auto reply = ask(daemon, r, exit_code)) std::cout << reply->done().detail() << "\n";
    });
}

} // namespace halma::cli
