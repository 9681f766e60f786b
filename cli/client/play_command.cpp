// `halma play`: the game in a terminal. The board (your triangle at the bottom), whose turn it
// is, a prompt taking "o1-m7" or just "m7", chat and votes as /commands, and everything others
// do appearing as it happens. It is only a front end: the local halmad does the talking.
#include "cli/client/board_render.h"
#include "cli/client/client_common.h"
#include "cli/client/line_reader.h"
#include "cli/client/output.h"
#include "cli/client/room_picker.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "engine/position.h"

#include <algorithm>
#include <deque>
#include <iostream>
#include <optional>
#include <thread>
#include <unistd.h>

namespace halma::cli {

namespace {

constexpr std::size_t kRecentLines = 8;

constexpr const char* kHelp
    = "Type a move: o1-m7, a full path, just the target (m7) when one marble can get there,\n"
      "or a marble's hole (o1) to see where it can go, then one of those holes.\n"
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
            std::vector<pb::MovePlayed> moves;
            bool changed = false;
            while (auto e = daemon_.next_event(std::chrono::milliseconds(0))) {
                note(e->text());
                if (e->event().has_closed() && e->room_id() == room_) {
                    std::cout << e->text() << "\n";
                    return 0;
                }
                if (e->event().has_move()) moves.push_back(e->event().move());
                changed = true;
            }
            if (changed) {
                animate(moves);
                picked_.reset();
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

    void redraw() { draw(view_); }

    void draw(const pb::RoomView& view) {
        std::vector<std::uint8_t> marked;
        if (picked_) marked = picked_->targets;
        if (!terminal_) {
            std::cout << render_board(view, style_, marked)
                      << format_room_status(view, style_.colour) << std::flush;
            return;
        }
        std::cout << "\x1b[2J\x1b[H" << render_board(view, style_, marked) << "\n"
                  << format_room_status(view, style_.colour);
        for (const auto& line : recent_) std::cout << "  | " << line << "\n";
        std::cout << std::flush;
    }

    // Shows each new move hop by hop on the board as it was, so a player sees how a marble
    // got where it is rather than finding it there.
    void animate(const std::vector<pb::MovePlayed>& moves) {
        if (!terminal_ || moves.empty()) return;
        auto parsed = engine::Position::parse(view_.position());
        if (!parsed) return;
        engine::Position pos = *parsed;
        pb::RoomView frame = view_;
        for (const auto& m : moves) {
            if (m.path_size() >= 2 && m.kind() == pb::MOVE_KIND_NORMAL) {
                auto from = static_cast<engine::Cell>(m.path(0));
                // Long chains go faster: the whole move takes about a second at most.
                auto pause = std::chrono::milliseconds(std::min(150, 900 / m.path_size()));
                frame.clear_last_path();
                frame.add_last_path(from);
                for (int i = 1; i < m.path_size(); ++i) {
                    engine::Position step = pos;
                    step.make(
                        { from, static_cast<engine::Cell>(m.path(i)), engine::Move::kNormal });
                    frame.set_position(step.to_string());
                    frame.add_last_path(m.path(i));
                    draw(frame);
                    std::this_thread::sleep_for(pause);
                }
            }
            if (m.kind() != pb::MOVE_KIND_PASS)
                pos.make({ static_cast<engine::Cell>(m.from()), static_cast<engine::Cell>(m.to()),
                    m.kind() == pb::MOVE_KIND_SWAP ? engine::Move::kSwap : engine::Move::kNormal });
        }
    }

    // A hole holding one of the player's own marbles, typed alone on its turn: where it can go.
    bool pick(const std::string& typed) {
        auto cell = engine::parse_cell(typed);
        if (!cell || !view_.your_turn()) return false;
        std::vector<std::uint8_t> targets;
        std::string names;
        std::string prefix = engine::cell_name(*cell) + "-";
        for (const auto& m : view_.legal_moves())
            if (m.rfind(prefix, 0) == 0) {
                auto to = engine::parse_cell(m.substr(prefix.size()));
                if (to) targets.push_back(*to);
                names += (names.empty() ? "" : " ") + m.substr(prefix.size());
            }
        bool own = false;
        auto pos = engine::Position::parse(view_.position());
        if (pos && view_.your_seat() >= 0 && view_.your_seat() < view_.seats_size())
            for (auto s : view_.seats(view_.your_seat()).sets())
                own |= pos->at(*cell) == engine::piece_of(static_cast<engine::SetId>(s));
        if (!own) return false;
        if (targets.empty()) {
            note("! the marble on " + typed + " cannot move now");
        } else {
            picked_ = Picked { *cell, targets };
            note(typed + " can go to " + names + ": type one");
        }
        redraw();
        return true;
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
        // A target after picking a marble: that marble goes there.
        if (auto to = engine::parse_cell(line); to && picked_
            && std::find(picked_->targets.begin(), picked_->targets.end(), *to)
                != picked_->targets.end()) {
            std::string move = engine::cell_name(picked_->from) + "-" + line;
            picked_.reset();
            act([&](pb::ActionRequest* a) { a->set_move(move); });
            return true;
        }
        if (pick(line)) return true;
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
    struct Picked {
        std::uint8_t from;
        std::vector<std::uint8_t> targets;
    };
    std::optional<Picked> picked_; // a marble picked by typing its hole, and where it can go
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
        std::string target = room;
        if (target.empty()) { // in no room yet: pick one of the LAN's
            auto picked = pick_room(daemon, exit_code);
            if (!picked) return;
            target = *picked;
        }
        std::cout << kHelp;
        exit_code = PlaySession(daemon, target, s).run();
    });
}

} // namespace halma::cli
