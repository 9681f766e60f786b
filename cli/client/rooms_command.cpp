// `halma rooms`: the rooms this daemon and the LAN have, or a host's; with --watch, the list again
// whenever it changes, across restarts of the local halmad too (it subscribes again).
#include "cli/client/client_common.h"
#include "cli/client/daemon_link.h"
#include "cli/client/host_address.h"
#include "cli/client/output.h"
#include "cli/client/room_table.h"
#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <unistd.h>

namespace halma::cli {

namespace {

using std::chrono::milliseconds;

// While the daemon is back but not yet subscribed to, try again this often.
constexpr milliseconds kRetry { 500 };

} // namespace

void add_rooms_command(CLI::App& app, int& exit_code) {
    static std::string address;
    static bool rooms_json = false, rooms_watch = false;
    static int rooms_for_ms = 0;
    auto* rooms = app.add_subcommand("rooms",
        "List rooms: this daemon's and every public room on the LAN, or those at HOST[:PORT]");
    rooms->add_option("address", address, "Ask this daemon instead (HOST[:PORT])");
    rooms->add_flag("--json", rooms_json, "Print JSON (with --watch: one list per line)");
    rooms->add_flag(
        "--watch", rooms_watch, "Print the list again whenever it changes (Ctrl-C ends)");
    rooms->add_option("--for-ms", rooms_for_ms, "With --watch: stop after this long")
        ->check(CLI::NonNegativeNumber);
    rooms->callback([&] {
        if (!address.empty()) {
            if (rooms_watch) {
                std::cerr << "halma: --watch follows the LAN's rooms; it takes no address\n";
                exit_code = 2;
                return;
            }
            // As for a join: the user's typing, said before any daemon is asked.
            if (auto why = host_address_problem(address)) {
                std::cerr << "halma: '" << address << "': " << *why << "\n";
                exit_code = 2;
                return;
            }
        }
        auto daemon = connect_daemon();
        if (!address.empty()) {
            pb::Request r;
            r.mutable_list()->set_address(address);
            if (auto reply = ask(daemon, r, exit_code)) {
                // One host asked, not the LAN; a friends room is joined by its code.
                if (!rooms_json && reply->rooms().rooms_size() == 0)
                    std::cout << "no public rooms at " << address
                              << " (a friends room is joined by its code)\n";
                else
                    std::cout << (rooms_json ? to_json(reply->rooms()) + "\n"
                                             : format_room_table(reply->rooms()));
            }
            return;
        }
        pb::Request status_request;
        status_request.mutable_status();
        auto status = ask(daemon, status_request, exit_code);
        if (!status) return;
        std::string note = discovery_note(status->status().discovery());
        if (!rooms_json && !note.empty()) std::cerr << "halma: " << note << "\n";
        auto print = [&](const pb::RoomList& list) {
            if (rooms_json) {
                std::cout << to_json(list) << std::endl;
                return;
            }
            // On a terminal the table is redrawn in place; into a pipe each list follows the last.
            if (rooms_watch && isatty(STDOUT_FILENO)) std::cout << "\x1b[H\x1b[2J";
            // With discovery not running, "no rooms here or on the LAN" said more than is known.
            std::cout << (list.rooms_size() == 0 && !note.empty() ? "no rooms here\n"
                                                                  : format_room_table(list))
                      << (rooms_watch ? "\n" : "") << std::flush;
        };
        if (!rooms_watch) {
            pb::Request r;
            r.mutable_list()->set_lan(true);
            if (auto reply = ask(daemon, r, exit_code)) print(reply->rooms());
            return;
        }
        DaemonLink link(daemon);
        pb::Request r;
        r.mutable_subscribe()->set_lan(true);
        if (!ask(daemon, r, exit_code)) return;
        bool resync = false; // halmad restarted: subscribe to the new one
        auto end = std::chrono::steady_clock::now() + milliseconds(rooms_for_ms);
        for (;;) {
            auto wait = rooms_for_ms > 0
                ? std::chrono::duration_cast<milliseconds>(end - std::chrono::steady_clock::now())
                : milliseconds(3'600'000);
            if (wait.count() <= 0) return;
            zmq::pollitem_t items[] = { { daemon.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { link.socket().handle(), 0, ZMQ_POLLIN, 0 } };
            zmq::poll(items, 2, resync ? std::min(wait, kRetry) : wait);
            if (items[0].revents & ZMQ_POLLIN) daemon.drain();
            auto change = link.take();
            if (change == DaemonLink::Change::kLost)
                std::cerr << "halma: lost halmad (restarting?); reconnecting by itself"
                          << std::endl;
            resync |= change != DaemonLink::Change::kNone;
            if (resync && link.up()) {
                auto reply = daemon.call(r);
                resync = !reply || reply->has_error();
                if (!resync) std::cerr << "halma: halmad is back; watching again" << std::endl;
            }
            if (auto list = daemon.next_room_list(milliseconds(0))) print(*list);
        }
    });
}

} // namespace halma::cli
