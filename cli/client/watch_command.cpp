// `halma watch`: the room's events, one line each, for as long as asked. It follows its own
// halmad across a restart: the new daemon knows nothing of the old one's subscribers, so watch
// notices the line drop (DaemonLink), subscribes again and goes on printing.
#include "cli/client/client_common.h"
#include "cli/client/daemon_link.h"
#include "cli/client/output.h"
#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

namespace halma::cli {

namespace {

using std::chrono::milliseconds;

// While the daemon is back but not yet subscribed to, try again this often.
constexpr milliseconds kRetry { 500 };

// Waits at most `wait` for the next event, subscribing again whenever halmad restarted. Sets
// exit_code and returns false when the room is gone for good.
struct Follower {
    Follower(DaemonConnection& d, std::string r)
        : daemon(d)
        , link(d)
        , room(std::move(r)) { }

    DaemonConnection& daemon;
    DaemonLink link;
    std::string room;
    bool resync = false;

    bool resubscribe(int& exit_code) {
        pb::Request r;
        r.mutable_subscribe()->set_room(room);
        auto reply = daemon.call(r);
        if (!reply) return true; // gone again: the monitor says when it is back
        if (reply->has_error()) {
            if (reply->error().code() != pb::ERROR_CODE_UNKNOWN_ROOM) return true;
            std::cerr << "halma: " << reply->error().message() << " (since halmad restarted)\n";
            exit_code = 1;
            return false;
        }
        resync = false;
        std::cerr << "halma: halmad is back; watching again" << std::endl;
        return true;
    }

    bool next(milliseconds wait, std::optional<pb::Event>& out, int& exit_code) {
        if (!daemon.has_event()) {
            zmq::pollitem_t items[] = { { daemon.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { link.socket().handle(), 0, ZMQ_POLLIN, 0 } };
            zmq::poll(items, 2, resync ? std::min(wait, kRetry) : wait);
            if (items[0].revents & ZMQ_POLLIN) daemon.drain();
        }
        switch (link.take()) {
        case DaemonLink::Change::kLost:
            std::cerr << "halma: lost halmad (restarting?); reconnecting by itself" << std::endl;
            resync = true;
            break;
        case DaemonLink::Change::kBack:
            resync = true;
            break;
        case DaemonLink::Change::kNone:
            break;
        }
        if (resync && link.up() && !resubscribe(exit_code)) return false;
        out = daemon.next_event(milliseconds(0));
        return true;
    }
};

} // namespace

void add_watch_command(CLI::App& app, int& exit_code) {
    static std::string room;
    static bool json = false;
    static int count = 0, for_ms = 0;
    static bool until_over = false;
    auto* cmd
        = app.add_subcommand("watch", "Print the room's events as they happen (Ctrl-C to stop)");
    cmd->add_option("-r,--room", room,
        "Room name, code or id (default: every room this daemon is in, each line headed by its "
        "room's name when there are several)");
    cmd->add_flag("--json", json, "Print JSON (docs/api.md field names)");
    cmd->add_option("--count", count, "Stop after this many events");
    cmd->add_option("--for-ms", for_ms, "Stop after this long");
    cmd->add_flag("--until-over", until_over, "Stop when the game ends");
    cmd->callback([&] {
        auto daemon = connect_daemon();
        Follower follow(daemon, room);
        pb::Request r;
        r.mutable_subscribe()->set_room(room);
        if (!ask(daemon, r, exit_code)) return;
        // Without -r, every room's events: each headed by its room's name when there are
        // several (they were printed mixed, with nothing to say whose).
        std::map<std::string, std::string> names; // room id -> name
        auto learn_names = [&] {
            pb::Request status;
            status.mutable_status();
            auto reply = daemon.call(status);
            if (!reply || reply->has_error()) return;
            names.clear();
            for (const auto& s : reply->status().hosted()) names[s.room_id()] = s.name();
            for (const auto& s : reply->status().joined()) names[s.room_id()] = s.name();
        };
        if (room.empty()) learn_names();
        auto end = std::chrono::steady_clock::now() + milliseconds(for_ms > 0 ? for_ms : 1);
        for (int seen = 0; count == 0 || seen < count;) {
            auto wait = for_ms > 0
                ? std::chrono::duration_cast<milliseconds>(end - std::chrono::steady_clock::now())
                : milliseconds(3'600'000);
            if (wait.count() <= 0) return;
            std::optional<pb::Event> e;
            if (!follow.next(wait, e, exit_code)) return;
            if (!e) continue;
            ++seen;
            std::string line = json ? to_json(*e) : e->text();
            if (room.empty() && !json) {
                if (!names.contains(e->room_id())) learn_names(); // joined or hosted since
                auto it = names.find(e->room_id());
                if (names.size() > 1)
                    line = "[" + (it == names.end() ? e->room_id().substr(0, 8) : it->second) + "] "
                        + line;
            }
            std::cout << line << std::endl;
            if (e->event().has_closed()) return; // nothing more will ever happen there
            bool over = e->phase() == pb::PHASE_OVER || e->phase() == pb::PHASE_CANCELLED;
            if (until_over && over && e->event().has_move()) return;
        }
    });
}

} // namespace halma::cli
