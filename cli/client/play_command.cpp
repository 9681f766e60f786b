// `halma play`: the game in a terminal. The board (your triangle at the bottom), the room's
// status beside it, the latest events below and a prompt taking "o1-m7" or just "m7", with chat
// and votes as /commands. The screen is laid out for the terminal's size and laid out again when
// it changes. It is only a front end: the local halmad does the talking.
#include "cli/client/client_common.h"
#include "cli/client/play_session.h"
#include "cli/client/room_picker.h"
#include "cli/commands.h"

namespace halma::cli {

void add_play_command(CLI::App& app, int& exit_code) {
    static std::string room;
    static PlayOptions options;
    static bool no_colour = false;
    static bool no_bell = false;
    auto* cmd = app.add_subcommand(
        "play", "Play in this terminal: board, moves, chat, live updates (/help inside)");
    cmd->add_option(
        "-r,--room", room, "Room name, code or id (default: the only room this daemon is in)");
    cmd->add_flag("--fixed", options.style.fixed, "Keep triangle 1 at the bottom");
    cmd->add_flag("--swap-colours,--swap-colors", options.style.swap_colours,
        "Colour triangles by who is heading there");
    cmd->add_flag("--no-colour,--no-color", no_colour,
        "No colours, letters alone tell the sets apart (also NO_COLOR=1)");
    cmd->add_flag("--no-bell", no_bell, "No bell when it becomes your turn");
    cmd->callback([&] {
        auto daemon = connect_daemon();
        PlayOptions o = options;
        o.style.colour = use_colour(no_colour);
        o.bell = !no_bell;
        std::string target = room;
        if (target.empty()) { // in no room yet: pick one of the LAN's
            auto picked = pick_room(daemon, exit_code);
            if (!picked) return;
            target = *picked;
        }
        exit_code = PlaySession(daemon, target, o).run();
    });
}

} // namespace halma::cli
