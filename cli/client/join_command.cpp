// `halma join`: takes a seat (or watches) in a room found by name or code here or on the LAN,
// or at a host given by address. A mistyped target is a usage error (exit 2) before any daemon
// is asked.
#include "cli/client/client_common.h"
#include "cli/client/join_target.h"
#include "cli/client/output.h"
#include "cli/commands.h"

#include <iostream>
#include <string>

namespace halma::cli {

void add_join_command(CLI::App& app, int& exit_code) {
    static std::string target;
    static bool spectate = false, json = false;
    auto* cmd = app.add_subcommand("join",
        "Join a room: NAME or CODE (hosted here, or found on the LAN), HOST[:PORT]/ROOM (a "
        "public name or friends code at that host; port 7460 by default), or HOST:PORT (its "
        "only public room)");
    cmd->add_option("target", target, "Where to join")->required();
    cmd->add_flag("--spectate", spectate, "Watch without a seat");
    cmd->add_flag("--json", json, "Print the room as JSON");
    cmd->callback([&] {
        pb::Request r;
        auto parsed = parse_join_target(target);
        if (!parsed) {
            std::cerr << "halma: " << parsed.error() << "\n";
            exit_code = 2;
            return;
        }
        auto* j = r.mutable_join();
        *j = std::move(*parsed);
        j->set_spectate(spectate);
        auto daemon = connect_daemon();
        // A room of this daemon's named again, where the player already sits: said so. "joined
        // room hot, seat 1" answered a family who hoped for a second seat at the same computer.
        if (!spectate && !json) {
            pb::Request view;
            view.mutable_view()->set_room(target);
            // Only while its host is heard from: a join at a host that is down says so, and
            // what comes next (joining_while_the_host_is_down_says_what_to_do).
            if (auto seen = daemon.call(view); seen && seen->has_view()
                && seen->view().your_seat() >= 0
                && seen->view().connection() == pb::CONNECTION_STATE_CONNECTED) {
                const auto& v = seen->view();
                std::cout << "you are in room " << v.summary().name() << " already, seat "
                          << v.your_seat() + 1 << "; " << phase_name(v.summary().phase())
                          << " (halma play to play it)\n";
                if (v.summary().origin() == pb::ROOM_ORIGIN_HOSTED
                    && v.summary().phase() == pb::PHASE_WAITING)
                    std::cout << "another player at this computer needs a halmad of their own: "
                                 "README.md, \"Two players at one computer\"\n";
                return;
            }
        }
        auto reply = ask(daemon, r, exit_code);
        if (!reply) return;
        if (json) {
            std::cout << to_json(reply->has_view()
                    ? static_cast<const google::protobuf::Message&>(reply->view())
                    : reply->done())
                      << "\n";
            return;
        }
        if (!reply->has_view()) {
            std::cout << "joined\n";
            return;
        }
        const auto& v = reply->view();
        std::cout << "joined room " << v.summary().name() << ", "
                  << (v.your_seat() >= 0 ? "seat " + std::to_string(v.your_seat() + 1)
                                         : std::string("watching"))
                  << "; " << phase_name(v.summary().phase()) << "\n";
    });
}

} // namespace halma::cli
