#include "cli/client/room_picker.h"

#include "cli/client/client_common.h"
#include "cli/client/join_target.h"
#include "cli/client/line_reader.h"
#include "cli/client/room_table.h"
#include "cli/client/term_text.h"
#include "cli/client/terminal_io.h"

#include <algorithm>
#include <chrono>
#include <expected>
#include <iostream>
#include <unistd.h>

namespace halma::cli {

namespace {

// The lobby's list is printed again when the LAN's rooms change, at most this often: a room of
// computers going between "playing" and "game over" had it printed 36 times in four minutes, each
// time pushing what the player had begun to type out of sight (and it renumbered the rows).
constexpr std::chrono::seconds kLobbyReprintEvery { 5 };

// The list as show() prints it. `lan`: the LAN's rooms are being looked for (discovery runs).
std::string room_list_text(const pb::RoomList& rooms, bool lan) {
    if (rooms.rooms_size() == 0)
        // Wrapped at words: the terminal broke it anywhere ("directl" / "y"). With discovery
        // off no room of the LAN is coming, and it was said they would.
        return wrap(std::string(lan ? "No rooms on the LAN yet (they appear here as they open). "
                                    : "No rooms to join here. ")
                + "Type c to play against the computer now (c hard: a stronger one), host a room "
                  "with `halma host NAME`, or type HOST[:PORT]/ROOM to join one by address.",
            terminal_size().cols);
    std::string out;
    {
        std::string table = format_room_table(rooms);
        // Number the rows after the header, so a room can be picked by its number.
        int row = 0;
        for (std::size_t start = 0; start < table.size();) {
            auto end = table.find('\n', start);
            std::string line = table.substr(start, end - start);
            out += (row == 0 ? std::string("     ")
                             : "[" + std::to_string(row) + "]" + std::string(row < 10 ? 2 : 1, ' '))
                + line + "\n";
            ++row;
            start = end + 1;
        }
    }
    return out;
}

void show(const pb::RoomList& rooms, bool lan) {
    std::cout << room_list_text(rooms, lan)
              << "Join (number, name or HOST[:PORT]/ROOM; c: the computer; q: quit): "
              << std::flush;
}

// "c" (or "computer"), with a level after it or not: a room of two hosted here, the other seat a
// computer's, as the quick start makes one. A family's first `halma play` had no game to offer:
// quit, `halma host NAME`, `halma play` again. Nullopt when it is not such a word.
std::optional<pb::Request> computer_game_request(
    const std::string& typed, const std::string& player) {
    std::string word = typed.substr(0, typed.find(' '));
    if (word != "c" && word != "computer") return std::nullopt;
    std::string level = typed.size() > word.size() ? typed.substr(word.size() + 1) : "easy";
    pb::Request r;
    auto* host = r.mutable_host();
    // At most 40 bytes, as a room name is (a long player name is cut at a character's start).
    std::string name = player.empty() ? "game" : player;
    constexpr std::size_t kKept = 40 - 12;
    if (name.size() > kKept) {
        std::size_t cut = kKept;
        while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
        name.resize(cut);
    }
    host->set_name(name + " vs computer");
    host->mutable_mode()->set_players(2);
    host->set_bots(1);
    host->set_bot_level(level);
    return r;
}

// The join request for what was typed: a row's number, a name, or an address as `halma join`
// takes it (HOST:PORT alone is that host's only public room); or why it cannot be one.
std::expected<pb::Request, std::string> join_request(
    const pb::RoomList& rooms, const std::string& typed) {
    pb::Request r;
    auto* j = r.mutable_join();
    bool number = !typed.empty() && typed.find_first_not_of("0123456789") == std::string::npos;
    if (number) {
        int n = std::stoi(typed.substr(0, 4));
        if (n < 1 || n > rooms.rooms_size())
            return std::unexpected("No room number " + typed + ".");
        const auto& room = rooms.rooms(n - 1);
        // By address when the name alone would be ambiguous on the LAN.
        int same = 0;
        for (const auto& other : rooms.rooms()) same += other.name() == room.name();
        if (same > 1 && !room.address().empty()) j->set_address(room.address());
        j->set_room(room.name());
        return r;
    }
    // "/help", "/join": a command of the game's prompt, not a room here.
    if (typed.front() == '/')
        return std::unexpected("Type a room's number or name, or HOST[:PORT]/ROOM to join one by "
                               "address; q to quit.");
    auto parsed = parse_join_target(typed);
    if (!parsed) return std::unexpected(parsed.error());
    *j = std::move(*parsed);
    return r;
}

// What the player finds in a room of theirs, beside its name in the list: only "your move" was
// said, and finished rooms looked as live as the others.
std::string room_mark(const pb::RoomView& v) {
    const auto& s = v.summary();
    switch (s.phase()) {
    case pb::PHASE_WAITING: {
        unsigned missing = s.seats() > s.seats_taken() ? s.seats() - s.seats_taken() : 0;
        return "waiting for " + std::to_string(missing) + " more player"
            + (missing == 1 ? "" : "s");
    }
    case pb::PHASE_PLAYING:
        return v.your_turn() ? "your move" : "";
    case pb::PHASE_OVER:
        return "game over";
    case pb::PHASE_CANCELLED:
        return "game cancelled";
    default:
        return "";
    }
}

// In several rooms, at a terminal: the player's rooms, numbered (the one where it is their move
// marked), and the pick; "" to leave it to play (one room of theirs, or no terminal to ask at:
// play then names the rooms and -r). It stopped with "say which with -r ROOM". A daemon whose
// player sits in none of its rooms (a headless host's standing rooms, looked at by its owner)
// offers the rooms it hosts, to watch: it stopped there too.
std::optional<std::string> pick_own_room(
    DaemonConnection& daemon, const pb::DaemonStatus& status, int& exit_code) {
    if (!isatty(STDIN_FILENO)) return "";
    struct Mine {
        std::string id, name;
        std::string mark; // room_mark()
    };
    std::vector<Mine> mine, hosted;
    for (const auto* list : { &status.hosted(), &status.joined() })
        for (const auto& summary : *list) {
            pb::Request r;
            r.mutable_view()->set_room(summary.room_id());
            int ignored = 0;
            auto view = ask(daemon, r, ignored);
            if (!view || !view->has_view()) continue;
            const auto& v = view->view();
            Mine room { summary.room_id(), summary.name(), room_mark(v) };
            if (list == &status.joined() || v.your_seat() >= 0)
                mine.push_back(room);
            else
                hosted.push_back(room);
        }
    bool watching = mine.empty();
    if (watching) mine = std::move(hosted);
    if (mine.size() < 2) return "";
    if (watching)
        std::cout << "You sit in no room here; this daemon hosts " << mine.size()
                  << " rooms, to watch:\n";
    else
        std::cout << "You are in " << mine.size() << " rooms:\n";
    for (std::size_t i = 0; i < mine.size(); ++i)
        std::cout << "[" << i + 1 << "] " << mine[i].name
                  << (mine[i].mark.empty() ? "" : "  (" + mine[i].mark + ")") << "\n";
    LineReader input(STDIN_FILENO);
    for (;;) {
        std::cout << (watching ? "Room to watch" : "Room to play")
                  << " (number or name; q to quit): " << std::flush;
        std::optional<std::string> line;
        while (!(line = input.next_line()) && !input.done()) {
            zmq::pollitem_t item { nullptr, input.fd(), ZMQ_POLLIN, 0 };
            zmq::poll(&item, 1, std::chrono::milliseconds(-1));
            input.fill();
        }
        if (!line) {
            exit_code = 1;
            std::cerr << "halma: no room picked\n";
            return std::nullopt;
        }
        std::string typed = *line;
        while (!typed.empty() && (typed.back() == ' ' || typed.back() == '\r')) typed.pop_back();
        while (!typed.empty() && typed.front() == ' ') typed.erase(0, 1);
        if (typed == "q" || typed == "quit" || typed == "/quit") return std::nullopt;
        bool number = !typed.empty() && typed.size() < 4
            && typed.find_first_not_of("0123456789") == std::string::npos;
        if (number) {
            std::size_t n = std::stoul(typed);
            if (n >= 1 && n <= mine.size()) return mine[n - 1].id;
        }
        for (const auto& m : mine)
            if (m.name == typed) return m.id;
        std::cout << "No room " << typed << " among these.\n";
    }
}

} // namespace

std::optional<std::string> pick_room(DaemonConnection& daemon, int& exit_code) {
    pb::Request status;
    status.mutable_status();
    auto st = ask(daemon, status, exit_code);
    if (!st) return std::nullopt;
    if (st->status().hosted_size() + st->status().joined_size() > 0)
        return pick_own_room(daemon, st->status(), exit_code);
    std::cout << "You are in no room yet.\n";
    if (auto note = discovery_note(st->status().discovery()); !note.empty())
        std::cout << wrap(note, terminal_size().cols);
    pb::Request sub;
    sub.mutable_subscribe()->set_lan(true);
    if (!ask(daemon, sub, exit_code)) return std::nullopt;
    pb::RoomList rooms;
    if (auto first = daemon.next_room_list(std::chrono::milliseconds(2000))) rooms = *first;
    bool lan = st->status().discovery().state() == pb::DISCOVERY_STATE_RUNNING;
    show(rooms, lan);
    // What the player sees: a number typed picks from `shown`, the list last printed, not from
    // one that came since and was not printed yet.
    pb::RoomList shown = rooms;
    std::string shown_text = room_list_text(shown, lan);
    auto shown_at = std::chrono::steady_clock::now();
    bool newer = false; // `rooms` differs from what is shown
    LineReader input(STDIN_FILENO);
    for (;;) {
        zmq::pollitem_t items[] = { { daemon.socket().handle(), 0, ZMQ_POLLIN, 0 },
            { nullptr, input.fd(), ZMQ_POLLIN, 0 } };
        auto wait = std::chrono::milliseconds(-1);
        if (newer)
            wait = std::max(std::chrono::milliseconds(0),
                std::chrono::ceil<std::chrono::milliseconds>(
                    shown_at + kLobbyReprintEvery - std::chrono::steady_clock::now()));
        zmq::poll(items, 2, wait);
        if (items[0].revents & ZMQ_POLLIN) {
            daemon.drain();
            if (auto list = daemon.next_room_list(std::chrono::milliseconds(0))) rooms = *list;
            newer = room_list_text(rooms, lan) != shown_text;
        }
        if (newer && std::chrono::steady_clock::now() >= shown_at + kLobbyReprintEvery) {
            shown = rooms;
            shown_text = room_list_text(shown, lan);
            shown_at = std::chrono::steady_clock::now();
            newer = false;
            std::cout << "\n";
            show(shown, lan);
        }
        if (items[1].revents == 0) continue;
        input.fill();
        while (auto line = input.next_line()) {
            std::string typed = *line;
            while (!typed.empty() && (typed.back() == ' ' || typed.back() == '\r'))
                typed.pop_back();
            while (!typed.empty() && typed.front() == ' ') typed.erase(0, 1);
            if (typed.empty()) continue;
            if (typed == "q" || typed == "quit" || typed == "/quit") return std::nullopt;
            auto request = join_request(shown, typed);
            // A room of the LAN named "c" is still joined by its name.
            bool named_so = std::any_of(shown.rooms().begin(), shown.rooms().end(),
                [&](const pb::RoomSummary& room) { return room.name() == typed; });
            auto computer = computer_game_request(typed, st->status().name());
            if (computer && !named_so) request = std::move(*computer);
            if (!request) {
                std::cout << request.error() << "\n";
                show(shown, lan);
                continue;
            }
            int code = 0;
            auto joined = ask(daemon, *request, code);
            if (!joined) {
                show(shown, lan); // ask() said why on stderr; the player may pick another
                continue;
            }
            if (joined->has_view()) return joined->view().summary().room_id();
            return joined->done().room_id();
        }
        if (input.done()) {
            exit_code = exit_code ? exit_code : 1;
            std::cerr << "halma: no room picked\n";
            return std::nullopt;
        }
    }
}

} // namespace halma::cli
