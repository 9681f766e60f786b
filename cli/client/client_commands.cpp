// `halma daemon status|host|board|status|move|chat|vote|leave|start`: each is one request to the
// local halmad (docs/api.md). `halma play`, `join`, `close`, `rooms` and the rest have files of
// their own (*_command.cpp).
#include "cli/client/board_render.h"
#include "cli/client/client_common.h"
#include "cli/client/join_target.h"
#include "cli/client/lan_addresses.h"
#include "cli/client/name_lookup.h"
#include "cli/client/output.h"
#include "cli/client/room_hint.h"
#include "cli/client/room_table.h"
#include "cli/client/shell_word.h"
#include "cli/commands.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/rules.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace halma::cli {

void add_play_command(CLI::App& app, int& exit_code);
void add_watch_command(CLI::App& app, int& exit_code);
void add_close_command(CLI::App& app, int& exit_code);
void add_join_command(CLI::App& app, int& exit_code);
void add_forget_host_command(CLI::App& app, int& exit_code);
void add_rooms_command(CLI::App& app, int& exit_code);
void add_records_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);

ClientOptions& client_options() {
    static ClientOptions options;
    return options;
}

DaemonConnection connect_daemon() {
    auto& o = client_options();
    return DaemonConnection(o.runtime_dir.empty() ? default_runtime_dir() : o.runtime_dir,
        std::chrono::milliseconds(o.timeout_ms));
}

std::optional<pb::Reply> ask(DaemonConnection& daemon, pb::Request request, int& exit_code) {
    auto reply = daemon.call(request);
    if (!reply) {
        std::cerr << "halma: " << reply.error().message << "\n";
        exit_code = 1;
        return std::nullopt;
    }
    if (reply->has_error()) {
        auto code = reply->error().code();
        exit_code = code == pb::ERROR_CODE_MALFORMED || code == pb::ERROR_CODE_VERSION ? 2 : 1;
        RoomHint hint;
        if (code == pb::ERROR_CODE_UNKNOWN_ROOM) hint = unknown_room_hint(daemon, request);
        // The daemon could not tell a name that does not resolve from a machine that refuses;
        // the lookup it leaves to us says which.
        std::optional<std::string> not_found;
        if (code == pb::ERROR_CODE_UNAVAILABLE && !reply->error().unconfirmed_name().empty())
            not_found = name_not_found(reply->error().unconfirmed_name());
        if (not_found) std::cerr << "halma: " << *not_found << "\n";
        // A room left unnamed among several: the hint says it all, as the usage error it is.
        else if (!hint.usage)
            std::cerr << "halma: " << reply->error().message() << "\n";
        std::cerr << hint.text;
        if (code == pb::ERROR_CODE_ROOM_FULL && request.has_join() && !request.join().spectate())
            std::cerr << "to watch it: halma join --spectate "
                      << shell_word(join_target_text(request.join())) << "\n";
        if (hint.usage) exit_code = 2;
        return std::nullopt;
    }
    return std::move(*reply);
}

bool use_colour(bool no_colour_flag) {
    if (no_colour_flag) return false;
    if (const char* n = std::getenv("NO_COLOR"); n && *n) return false;
    return isatty(STDOUT_FILENO);
}

namespace {

// The address others type to reach this daemon: its listen address, with a wildcard host
// replaced by this machine's name.
std::string shareable(const std::string& listen) {
    auto colon = listen.rfind(':');
    std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
    if (host == "*" || host == "0.0.0.0" || host == "[::]") {
        char name[256] = {};
        gethostname(name, sizeof name - 1);
        return std::string(name) + listen.substr(colon);
    }
    return listen;
}

bool same_ignoring_case(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

// What `halma host` tells the player to pass on: the room's name (or code) for players on the
// LAN, and an address for where multicast does not get through, naming the machine as the others'
// daemons see it (its mDNS name) when LAN discovery knows it.
std::string join_hint(const pb::RoomSummary& s, bool name_taken_on_lan) {
    const std::string& what = s.visibility() == pb::VISIBILITY_FRIENDS ? s.code() : s.name();
    auto colon = s.address().rfind(':');
    std::string port = colon == std::string::npos ? "7460" : s.address().substr(colon + 1);
    std::string host = colon == std::string::npos ? s.address() : s.address().substr(0, colon);
    std::string out;
    if (host.rfind("127.", 0) == 0 || host == "localhost" || host == "[::1]") {
        out = "hosting room " + s.name() + " at " + s.address() + "\n";
        if (!s.code().empty()) out += "friends code: " + s.code() + "\n";
        return out + "others join with: halma join " + shell_word(s.address() + "/" + what)
            + "\n(this halmad listens on loopback only: only daemons on this machine can join; "
              "halmad --listen '*:7460' opens it to the LAN)\n";
    }
    std::string address = s.machine().empty() ? shareable(s.address()) : s.machine() + ":" + port;
    out = "hosting room " + s.name() + " on " + (s.machine().empty() ? address : s.machine())
        + "\n";
    if (!s.code().empty()) out += "friends code: " + s.code() + "\n";
    // A name another host on the LAN has too is ambiguous there: the machine picks this one.
    if (!s.machine().empty())
        out += "others on the LAN join with: halma join "
            + shell_word(name_taken_on_lan ? s.machine() + "/" + what : what) + "\n";
    out += (s.machine().empty() ? "others join with: halma join "
                                : "where multicast is blocked: halma join ")
        + shell_word(address + "/" + what) + "\n";
    // Where multicast is blocked a machine's .local name does not resolve either (nor, without
    // avahi, its bare name on most home networks): its address does. For a daemon listening on
    // every interface, the addresses this machine has on them.
    if (host == "*" || host == "0.0.0.0" || host == "[::]")
        for (const auto& ip : lan_ipv4_addresses(3))
            out += "  or by address: halma join " + shell_word(ip + ":" + port + "/" + what) + "\n";
    return out;
}

struct RoomOption {
    std::string room;
    bool json = false;
};

void add_room_option(CLI::App* cmd, RoomOption& o, bool json) {
    cmd->add_option(
        "-r,--room", o.room, "Room name, code or id (default: the only room this daemon is in)");
    if (json) cmd->add_flag("--json", o.json, "Print JSON (docs/api.md field names)");
}

pb::Request view_request(const std::string& room) {
    pb::Request r;
    r.mutable_view()->set_room(room);
    return r;
}

void action(const std::string& room, int& exit_code,
    const std::function<void(pb::ActionRequest*)>& fill, const std::string& done_text) {
    auto daemon = connect_daemon();
    pb::Request r;
    r.mutable_action()->set_room(room);
    fill(r.mutable_action());
    auto reply = ask(daemon, r, exit_code);
    if (!reply) return;
    // The daemon's words when they say more than what was done ("left; its host is out of
    // reach ..."), else the short form.
    const std::string& detail = reply->done().detail();
    std::cout << (detail.rfind(done_text + ";", 0) == 0 ? detail : done_text) << "\n";
}

void add_host(CLI::App& app, int& exit_code) {
    static std::string name, rules, bot_level;
    static int players = 2, sets = 1, bots = 0, move_limit = 0, next_game_ms = 0, turn_limit_s = 0;
    static bool friends = false, spectate = false, json = false, hide_leader = false;
    auto* cmd = app.add_subcommand("host", "Host a room on this daemon (you take seat 1)");
    // Input the daemon would refuse is refused here, with exit code 2 (a usage error).
    cmd->add_option("name", name, "Room name (1 to 40 bytes; spaces at either end are dropped)")
        ->required()
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                auto first = s.find_first_not_of(" \t");
                if (first == std::string::npos) return "a room name cannot be blank";
                auto length = s.find_last_not_of(" \t") - first + 1;
                return length > 40 ? "a room name is at most 40 bytes" : "";
            },
            "NAME"));
    cmd->add_option("-p,--players", players, "Players: 2, 3, 4 or 6")
        ->capture_default_str()
        // Says what it got ("-p --bots 1" read --bots as the count, and said "--players: --bots").
        ->check(CLI::Validator(
            [](std::string& s) {
                return s == "2" || s == "3" || s == "4" || s == "6"
                    ? std::string()
                    : "the players are 2, 3, 4 or 6, not '" + s + "'";
            },
            "2|3|4|6"));
    cmd->add_option(
           "-s,--sets", sets, "Sets of marbles per player (2 players: 1-3; 3 players: 1-2)")
        ->capture_default_str()
        ->check(CLI::Range(1, 3));
    cmd->add_option("--rules", rules, "Rule settings, e.g. jumps=long,rest=any (docs/rules.md)")
        ->check(CLI::Validator(
            [](std::string& s) {
                auto parsed = engine::Rules::parse(s);
                return parsed ? std::string() : parsed.error().message;
            },
            "RULES"));
    cmd->add_option("--move-limit", move_limit,
           "Moves per player before the game ends on distance (default 1000)")
        ->check(CLI::Range(1, 100'000)); // the daemon's kMaxMoveLimit (daemon/room/room_types.h)
    cmd->add_option("--next-game-ms", next_game_ms,
           "When only computer players sit, the next game starts this long after one ends "
           "(default 5000)")
        ->check(CLI::Range(1, 3'600'000));
    cmd->add_option("--turn-limit-s", turn_limit_s,
           "Seconds a person has for a turn; then the computer moves for them, and the others' "
           "votes no longer wait for them until they move again (default: no limit)")
        ->check(CLI::Range(1, 86'400)); // the daemon's kMaxTurnLimitS
    cmd->add_flag(
        "--hide-leader", hide_leader, "Nobody is told who is in the lead until the game ends");
    cmd->add_flag(
        "--friends", friends, "A friends room: not listed, joined with the code it prints");
    cmd->add_option("--bots", bots, "Seats given to computer players now")->check(CLI::Range(0, 6));
    cmd->add_option("--bot-level", bot_level,
           "How well they play: easy, hard or max (max: slower, ~3 s a move; default: halmad's)")
        ->transform(CLI::IsMember({ "easy", "hard", "max" }, CLI::ignore_case));
    cmd->add_flag("--spectate", spectate, "Take no seat yourself (a room for others)");
    cmd->add_flag("--json", json, "Print the room as JSON");
    cmd->callback([&] {
        // A setup the rules do not allow (3 players with 3 sets each) is a usage error too.
        auto parsed = engine::Rules::parse(rules);
        if (auto setup
            = engine::GameSetup::make(players, sets, parsed ? *parsed : engine::Rules {});
            !setup) {
            std::cerr << "halma: " << setup.error().message << "\n";
            exit_code = 2;
            return;
        }
        // The level is that of the computers seated now: a room keeps none for later, and a
        // later start took the daemon's default, silently.
        if (!bot_level.empty() && bots == 0) {
            std::cerr << "halma: --bot-level " << bot_level
                      << " is the level of the computers --bots seats now; for computers later, "
                         "give it to the start: halma start --bot-level "
                      << bot_level << " (or /start " << bot_level << " in halma play)\n";
            exit_code = 2;
            return;
        }
        if (int seats = players - (spectate ? 0 : 1); bots > seats) {
            std::cerr << "halma: --bots " << bots << ": a room of " << players << " has " << seats
                      << (seats == 1 ? " seat" : " seats") << " for computer players"
                      << (spectate ? "" : " (you take one; with --spectate, none)") << "\n";
            exit_code = 2;
            return;
        }
        auto daemon = connect_daemon();
        pb::Request r;
        auto* h = r.mutable_host();
        h->set_name(name);
        h->set_visibility(friends ? pb::VISIBILITY_FRIENDS : pb::VISIBILITY_PUBLIC);
        h->mutable_mode()->set_players(static_cast<std::uint32_t>(std::max(players, 0)));
        h->mutable_mode()->set_sets_per_player(static_cast<std::uint32_t>(std::max(sets, 0)));
        h->mutable_mode()->set_rules(rules);
        h->mutable_mode()->set_move_limit(static_cast<std::uint32_t>(std::max(move_limit, 0)));
        h->mutable_mode()->set_hide_leader(hide_leader);
        h->mutable_mode()->set_next_game_ms(static_cast<std::uint32_t>(std::max(next_game_ms, 0)));
        h->mutable_mode()->set_turn_limit_s(static_cast<std::uint32_t>(std::max(turn_limit_s, 0)));
        h->set_spectate(spectate);
        h->set_bots(static_cast<std::uint32_t>(std::max(bots, 0)));
        h->set_bot_level(bot_level);
        auto reply = ask(daemon, r, exit_code);
        if (!reply) return;
        if (json) {
            std::cout << to_json(reply->view()) << "\n";
            return;
        }
        const auto& made = reply->view().summary();
        bool taken = false;
        if (made.visibility() == pb::VISIBILITY_PUBLIC) {
            pb::Request list;
            list.mutable_list()->set_lan(true);
            if (auto rooms = daemon.call(list); rooms && rooms->has_rooms())
                for (const auto& room : rooms->rooms().rooms())
                    taken |= room.origin() == pb::ROOM_ORIGIN_LAN
                        && room.room_id() != made.room_id()
                        && same_ignoring_case(room.name(), made.name());
        }
        std::cout << join_hint(made, taken);
    });
}

void add_reads(CLI::App& app, int& exit_code) {
    auto* daemon_cmd = app.add_subcommand("daemon", "The local halmad");
    daemon_cmd->require_subcommand(1);
    static bool status_json = false;
    auto* st = daemon_cmd->add_subcommand("status", "Is halmad running; its rooms and peers");
    st->add_flag("--json", status_json, "Print JSON");
    st->callback([&] {
        auto daemon = connect_daemon();
        pb::Request r;
        r.mutable_status();
        if (auto reply = ask(daemon, r, exit_code))
            std::cout << (status_json ? to_json(reply->status()) + "\n"
                                      : format_daemon_status(reply->status()));
    });

    static RoomOption board_o;
    static BoardStyle style;
    static bool no_colour = false;
    auto* board = app.add_subcommand("board", "Draw the board, your triangle at the bottom");
    add_room_option(board, board_o, true);
    board->add_flag("--fixed", style.fixed, "Keep triangle 1 at the bottom, as notation has it");
    board->add_flag("--swap-colours,--swap-colors", style.swap_colours,
        "Colour triangles by who is heading there");
    board->add_flag("--no-colour,--no-color", no_colour, "No colours (also NO_COLOR=1)");
    board->callback([&] {
        auto daemon = connect_daemon();
        auto reply = ask(daemon, view_request(board_o.room), exit_code);
        if (!reply) return;
        if (board_o.json) {
            std::cout << to_json(reply->view()) << "\n";
            return;
        }
        BoardStyle s = style;
        s.colour = use_colour(no_colour);
        std::cout << render_board(reply->view(), s) << format_room_status(reply->view(), s.colour);
    });

    static RoomOption status_o;
    auto* status
        = app.add_subcommand("status", "The room's state: whose turn, who leads, standings, votes");
    add_room_option(status, status_o, true);
    status->callback([&] {
        auto daemon = connect_daemon();
        auto reply = ask(daemon, view_request(status_o.room), exit_code);
        if (!reply) return;
        if (status_o.json) {
            pb::RoomView v = reply->view();
            v.clear_legal_moves();
            std::cout << to_json(v) << "\n";
        } else {
            std::cout << format_room_status(reply->view(), use_colour(false));
        }
    });
}

void add_actions(CLI::App& app, int& exit_code) {
    static RoomOption move_o;
    static std::string move_text;
    auto* move
        = app.add_subcommand("move", "Play a move: o1-m7, a full path, or just the target hole");
    move->add_option("move", move_text, "The move")->required();
    add_room_option(move, move_o, false);
    move->callback([&] {
        auto daemon = connect_daemon();
        auto view = ask(daemon, view_request(move_o.room), exit_code);
        if (!view) return;
        auto text = read_move(view->view(), move_text, exit_code);
        if (!text) return;
        pb::Request r;
        r.mutable_action()->set_room(view->view().summary().room_id());
        r.mutable_action()->set_move(*text);
        if (ask(daemon, r, exit_code)) std::cout << "played " << *text << "\n";
    });

    static RoomOption chat_o;
    static std::vector<std::string> words;
    auto* chat = app.add_subcommand("chat", "Say something to the room");
    chat->add_option("text", words, "What to say")->required();
    add_room_option(chat, chat_o, false);
    chat->callback([&] {
        std::string text;
        for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
        // The daemon's bounds (kMaxChatText), as usage errors.
        if (text.find_first_not_of(" \t") == std::string::npos) {
            std::cerr << "halma: a chat line needs something to say (it was blank)\n";
            exit_code = 2;
            return;
        }
        if (text.size() > 500) {
            std::cerr << "halma: a chat line is 1 to 500 bytes"
                      << (text.size() > 500 ? " (this one has " + std::to_string(text.size()) + ")"
                                            : std::string())
                      << "\n";
            exit_code = 2;
            return;
        }
        action(
            chat_o.room, exit_code, [&](pb::ActionRequest* a) { a->set_chat(text); }, "said");
    });

    static RoomOption vote_o;
    static std::string what;
    auto* vote = app.add_subcommand("vote",
        "Vote for a new game (new), to cancel one when a player vanished or is away (cancel), to "
        "hide or show who is in the lead for this game (leader), or to take back your last move "
        "and every move after it (takeback; the other players agree with the same vote)");
    vote->add_option("what", what, "new, cancel, leader or takeback")
        ->required()
        ->check(CLI::IsMember({ "new", "cancel", "leader", "takeback" }));
    add_room_option(vote, vote_o, false);
    vote->callback([&] {
        action(
            vote_o.room, exit_code,
            [&](pb::ActionRequest* a) {
                a->set_vote(what == "cancel" ? pb::VOTE_KIND_CANCEL
                        : what == "leader"   ? pb::VOTE_KIND_LEADER
                        : what == "takeback" ? pb::VOTE_KIND_TAKE_BACK
                                             : pb::VOTE_KIND_NEW_GAME);
            },
            "voted");
    });

    static RoomOption leave_o;
    auto* leave
        = app.add_subcommand("leave", "Leave the room (mid-game a computer plays your seat on)");
    add_room_option(leave, leave_o, false);
    leave->callback([&] {
        action(
            leave_o.room, exit_code, [](pb::ActionRequest* a) { a->mutable_leave(); }, "left");
    });

    static RoomOption start_o;
    static std::string start_level;
    auto* start = app.add_subcommand("start", "Start now, with computer players in the free seats");
    add_room_option(start, start_o, false);
    start
        ->add_option(
            "--bot-level", start_level, "How well they play: easy, hard or max (~3 s a move)")
        ->transform(CLI::IsMember({ "easy", "hard", "max" }, CLI::ignore_case));
    start->callback([&] {
        action(
            start_o.room, exit_code,
            [](pb::ActionRequest* a) { a->mutable_start()->set_bot_level(start_level); },
            "started");
    });
}

} // namespace

void add_client_commands(CLI::App& app, int& exit_code) {
    auto& o = client_options();
    app.add_option("--runtime-dir", o.runtime_dir, "Directory of the local halmad's socket")
        ->envname("HALMA_RUNTIME_DIR");
    app.add_option("--timeout-ms", o.timeout_ms, "How long to wait for halmad's answer")
        ->capture_default_str()
        ->check(CLI::Range(1, 3'600'000));
    app.fallthrough();
    add_reads(app, exit_code);
    add_host(app, exit_code);
    add_join_command(app, exit_code);
    add_watch_command(app, exit_code);
    add_close_command(app, exit_code);
    add_forget_host_command(app, exit_code);
    add_rooms_command(app, exit_code);
    add_records_command(app, exit_code);
    add_replay_command(app, exit_code);
    add_actions(app, exit_code);
    add_play_command(app, exit_code);
}

} // namespace halma::cli
