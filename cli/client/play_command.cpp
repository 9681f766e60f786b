// `halma play`: the game in a terminal. The board (your triangle at the bottom), whose turn it
// is, a prompt taking "o1-m7" or just "m7", chat and votes as /commands, and everything others
// do appearing as it happens. It is only a front end: the local halmad does the talking.
#include "cli/client/board_render.h"
#include "cli/client/client_common.h"
#include "cli/client/line_reader.h"
#include "cli/client/output.h"
#include "cli/commands.h"

#include <deque>
#include <iostream>
#include <unistd.h>

namespace halma::cli {

namespace {

constexpr std::size_t kRecentLines = 8;

constexpr const char* kHelp
    = "Type a move (o1-m7, a full path, or just the target like m7).\n"
      "  /c TEXT    chat            /vote new   vote for a new game\n"
      "  /board     redraw          /vote cancel  vote to cancel (a player vanished)\n"
      "  /start [easy|hard]  start now, bots in the free seats\n"
      "  /leave     leave the room\n"
      "  /quit      stop playing (your seat stays yours)\n";

class PlaySession {
public:
    PlaySession(DaemonConnection& daemon, std::string room, BoardStyle style)
        : daemon_(daemon)
        , room_(std::move(room))
        , style_(style)
        , terminal_(isatty(STDOUT_FILENO)) { }

    int run() {
        int code = 0;
        pb::Request sub;
        sub.mutable_subscribe()->set_room(room_);
        if (!ask(daemon_, sub, code)) return code;
        if (!refresh(code)) return code;
        room_ = view_.summary().room_id();
        redraw();
        LineReader input(STDIN_FILENO);
        while (true) {
            prompt();
            zmq::pollitem_t items[] = { { daemon_.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { nullptr, input.fd(), ZMQ_POLLIN, 0 } };
            if (!daemon_.has_event()) zmq::poll(items, 2, std::chrono::milliseconds(-1));
            if (items[0].revents & ZMQ_POLLIN) daemon_.drain();
            bool changed = false;
            while (auto e = daemon_.next_event(std::chrono::milliseconds(0))) {
                note(e->text());
                changed = true;
            }
            if (changed) {
                int ignored = 0;
                refresh(ignored);
                redraw();
            }
            // Readable or hung up (end of input shows as an error to zmq::poll).
            if (items[1].revents != 0) {
                input.fill();
                while (auto line = input.next_line())
                    if (!handle(*line)) return 0;
                if (input.done()) return 0;
            }
        }
    }

private:
    bool refresh(int& code) {
        pb::Request r;
        r.mutable_view()->set_room(room_);
        auto reply = ask(daemon_, r, code);
        if (reply) view_ = reply->view();
        return reply.has_value();
    }

    void note(const std::string& line) {
        recent_.push_back(line);
        if (recent_.size() > kRecentLines) recent_.pop_front();
        if (!terminal_) std::cout << line << "\n";
    }

    void redraw() {
        if (!terminal_) {
            std::cout << render_board(view_, style_) << format_room_status(view_, style_.colour)
                      << std::flush;
            return;
        }
        std::cout << "\x1b[2J\x1b[H" << render_board(view_, style_) << "\n"
                  << format_room_status(view_, style_.colour);
        for (const auto& line : recent_) std::cout << "  | " << line << "\n";
        std::cout << std::flush;
    }

    void prompt() { std::cout << (view_.your_turn() ? "your move> " : "> ") << std::flush; }

    void act(const std::function<void(pb::ActionRequest*)>& fill) {
        pb::Request r;
        r.mutable_action()->set_room(room_);
        fill(r.mutable_action());
        auto reply = daemon_.call(r);
        if (!reply)
            note("! " + reply.error().message);
        else if (reply->has_error())
            note("! " + reply->error().message());
        else
            return;
        redraw();
    }

    // False when the player is done.
    bool handle(const std::string& raw) {
        std::string line = raw;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        while (!line.empty() && line.front() == ' ') line.erase(line.begin());
        if (line.empty() || line == "/board") {
            int ignored = 0;
            refresh(ignored);
            redraw();
            return true;
        }
        if (line == "/quit" || line == "/q") return false;
        if (line == "/help" || line == "?") {
            std::cout << kHelp;
            return true;
        }
        if (line.rfind("/c ", 0) == 0 || line.rfind("/chat ", 0) == 0) {
            std::string text = line.substr(line.find(' ') + 1);
            act([&](pb::ActionRequest* a) { a->set_chat(text); });
            return true;
        }
        if (line == "/vote new" || line == "/vote cancel") {
            act([&](pb::ActionRequest* a) {
                a->set_vote(line == "/vote new" ? pb::VOTE_KIND_NEW_GAME : pb::VOTE_KIND_CANCEL);
            });
            return true;
        }
        if (line == "/start" || line == "/start easy" || line == "/start hard") {
            std::string level = line.size() > 7 ? line.substr(7) : "";
            act([&](pb::ActionRequest* a) { a->mutable_start()->set_bot_level(level); });
            return true;
        }
        if (line == "/leave") {
            act([](pb::ActionRequest* a) { a->mutable_leave(); });
            return false;
        }
        if (line.front() == '/') {
            note("! unknown command " + line + "; /help lists them");
            redraw();
            return true;
        }
        int code = 0;
        std::string why;
        auto move = read_move(view_, line, code, &why);
        if (!move) {
            note("! " + why);
            redraw();
            return true;
        }
        act([&](pb::ActionRequest* a) { a->set_move(*move); });
        return true;
    }

    DaemonConnection& daemon_;
    std::string room_;
    BoardStyle style_;
    bool terminal_;
    pb::RoomView view_;
    std::deque<std::string> recent_;
};

} // namespace

void add_play_command(CLI::App& app, int& exit_code) {
    static std::string room;
    static BoardStyle style;
    static bool no_colour = false;
    auto* cmd = app.add_subcommand(
        "play", "Play in this terminal: board, moves, chat, live updates (/help inside)");
    cmd->add_option(
        "-r,--room", room, "Room name, code or id (default: the only room this daemon is in)");
    cmd->add_flag("--fixed", style.fixed, "Keep triangle 1 at the bottom");
    cmd->add_flag("--swap-colours,--swap-colors", style.swap_colours,
        "Colour triangles by who is heading there");
    cmd->add_flag("--no-colour,--no-color", no_colour, "No colours (also NO_COLOR=1)");
    cmd->callback([&] {
        auto daemon = connect_daemon();
        BoardStyle s = style;
        s.colour = use_colour(no_colour);
        std::cout << kHelp;
        exit_code = PlaySession(daemon, room, s).run();
    });
}

} // namespace halma::cli
