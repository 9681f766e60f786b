// `halma play`: the game in a terminal. The board (your triangle at the bottom), the room's
// status beside it, the latest events below and a prompt taking "o1-m7" or just "m7", with chat
// and votes as /commands. The screen is laid out for the terminal's size and laid out again when
// it changes. It is only a front end: the local halmad does the talking.
#include "cli/client/board_render.h"
#include "cli/client/client_common.h"
#include "cli/client/daemon_link.h"
#include "cli/client/missed_moves.h"
#include "cli/client/move_animation.h"
#include "cli/client/other_rooms.h"
#include "cli/client/output.h"
#include "cli/client/play_log.h"
#include "cli/client/play_screen.h"
#include "cli/client/play_words.h"
#include "cli/client/prompt_line.h"
#include "cli/client/room_picker.h"
#include "cli/client/terminal_io.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "engine/position.h"

#include <algorithm>
#include <csignal>
#include <deque>
#include <iostream>
#include <optional>
#include <sys/signalfd.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace halma::cli {

namespace {

constexpr std::size_t kLogKept = 200;
constexpr std::size_t kChatShownOnOpening = 3;
// How long halmad gone is taken for a restart. systemd's Restart=on-failure starts the service
// again 2 s after it died (RestartSec, systemd/halmad.service.in), and it answers within a few
// seconds more on a Pi; past this, nothing is bringing it back (it was started by hand), and
// "halmad is restarting" kept a player waiting for good: the screen says it is not running.
constexpr std::chrono::seconds kRestartWait { 10 };

enum class Overlay { kNone, kHelp, kHoleKey };

struct PlayOptions {
    BoardStyle style;
    bool bell = true;
};

class PlaySession {
public:
    PlaySession(DaemonConnection& daemon, std::string room, PlayOptions options)
        : daemon_(daemon)
        , link_(daemon)
        , room_(std::move(room))
        , options_(options)
        , terminal_(isatty(STDOUT_FILENO)) { }

    // The last words (why the session ended) are printed once the screen is the shell's again:
    // printed before, they were on the play screen's way out, and leaving it put the cursor back
    // above them, so the shell's prompt wrote over them.
    int run() {
        int code = run_screen();
        // The room ended (closed, left, the seat given up): the player's other rooms are said,
        // and how to go there. Play ended as if the player were in no room at all.
        if (!farewell_.empty() && !still_in_.empty()) farewell_ += "\n" + still_in_words(still_in_);
        // Quit, Ctrl-D or Ctrl-C: the player is still in the room, which a family did not know.
        if (farewell_.empty() && code == 0 && view_.your_seat() >= 0
            && view_.summary().phase() != pb::PHASE_CLOSED)
            farewell_ = "your seat in " + view_.summary().name()
                + " stays yours while halmad runs: halma play to come back (halma leave to give "
                  "it up)";
        if (!farewell_.empty()) (code ? std::cerr : std::cout) << farewell_ << "\n" << std::flush;
        return code;
    }

private:
    int run_screen() {
        int code = 0;
        // The room by its id before subscribing: a subscription to "" (the daemon's only room,
        // when none is named) follows every room, and a room hosted later showed its events,
        // and its board, on this one's screen.
        if (!wait_for_room(code)) return code;
        room_ = view_.summary().room_id();
        pb::Request sub;
        sub.mutable_subscribe()->set_room(room_);
        if (!ask(daemon_, sub, code)) return code;
        if (!refresh(code)) return code; // what happened before the subscription took
        was_your_turn_ = view_.your_turn();
        OtherRooms others(connect_daemon(), room_);
        others_ = &others;
        others.tick();
        FullScreen screen(terminal_);
        PromptLine input(STDIN_FILENO);
        input_ = &input;
        OwnedFd signals { terminal_ ? signal_fd() : -1 };
        if (!terminal_) std::cout << kPlayHelp;
        note("/help lists the commands; /keys shows every hole's name");
        for (const auto& line : recent_chat(view_, kChatShownOnOpening)) note(line);
        redraw();
        while (true) {
            zmq::pollitem_t items[] = { { daemon_.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { nullptr, input.fd(), ZMQ_POLLIN, 0 },
                { link_.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { others.socket().handle(), 0, ZMQ_POLLIN, 0 },
                { others.link_socket().handle(), 0, ZMQ_POLLIN, 0 },
                { nullptr, signals.fd, ZMQ_POLLIN, 0 } };
            int count = signals.fd >= 0 ? 6 : 5;
            // While the room is still to be read again, try every half second; while a turn's
            // clock runs, show it going down once a second.
            auto wait = std::chrono::milliseconds(resync_ ? 500 : turn_due_ ? 1000 : -1);
            if (auto other = others.next_wake(); other.count() >= 0)
                wait = wait.count() < 0 ? other : std::min(wait, other);
            if (!daemon_.has_event()) zmq::poll(items, count, wait);
            if (turn_due_ && !daemon_.has_event() && items[1].revents == 0) redraw();
            if (items[0].revents & ZMQ_POLLIN) daemon_.drain();
            // The rooms the player is still in, for the last words.
            auto ended = [&](int result) {
                still_in_ = others.names();
                return result;
            };
            if (auto end = follow_daemon()) return ended(*end);
            follow_other_rooms();
            if (count == 6 && (items[5].revents & ZMQ_POLLIN)) {
                signalfd_siginfo info;
                bool resized = false;
                while (read(signals.fd, &info, sizeof info) == sizeof info) {
                    if (info.ssi_signo != SIGWINCH) return 0;
                    resized = true;
                }
                if (resized) {
                    input.resized();
                    redraw();
                }
            }
            if (auto end = take_events()) return ended(*end);
            // Readable or hung up (end of input shows as an error to zmq::poll).
            if (items[1].revents != 0) {
                input.fill();
                while (auto line = input.next_line())
                    if (!handle(*line) || end_) return ended(end_.value_or(0));
                if (input.done()) return 0;
            }
        }
    }

    // The player's move in their other rooms: shown under the board (and printed without a
    // terminal), with the bell when a room newly waits for them, as for this room's turn.
    void follow_other_rooms() {
        auto news = others_->tick();
        if (!news.changed) return;
        if (news.newly_waiting && options_.bell && terminal_) std::cout << '\a' << std::flush;
        if (terminal_)
            redraw();
        else if (news.newly_waiting)
            std::cout << your_move_elsewhere(others_->your_move()) << "\n";
    }

    // Notices our own halmad going and coming back (a restart): a new daemon has no record of
    // our subscription, so subscribe again and show the room as it is now. The exit code when
    // the room is gone for good.
    std::optional<int> follow_daemon() {
        switch (link_.take()) {
        case DaemonLink::Change::kLost:
            resync_ = true;
            lost_at_ = std::chrono::steady_clock::now();
            note("! lost halmad (restarting?); reconnecting by itself");
            redraw();
            return std::nullopt;
        case DaemonLink::Change::kBack:
            resync_ = true;
            lost_at_.reset();
            not_running_.clear();
            redraw();
            break;
        case DaemonLink::Change::kNone:
            break;
        }
        if (!link_.up()) {
            say_if_not_running();
            return std::nullopt;
        }
        if (!resync_) return std::nullopt;
        pb::Request sub;
        sub.mutable_subscribe()->set_room(room_);
        auto subscribed = daemon_.call(sub);
        if (!subscribed) return std::nullopt;
        // The subscription is refused too once the daemon has dropped the room: asked again
        // every half second, that kept play at "halmad back" for good.
        if (subscribed->has_error()) return lost_in_restart(*subscribed);
        pb::Request r;
        r.mutable_view()->set_room(room_);
        auto reply = daemon_.call(r);
        if (!reply) return std::nullopt;
        if (reply->has_error()) return lost_in_restart(*reply);
        pb::RoomView before = view_;
        take_view(reply->view());
        resync_ = false;
        picked_.reset();
        was_your_turn_ = view_.your_turn();
        note("halmad is back: the room as it is now");
        for (const auto& line : missed_moves(before, view_, view_.moves_size())) note(line);
        redraw();
        return std::nullopt;
    }

    // halmad gone past the time a restart takes: said once, with how to start it, as `halma`
    // says it with no halmad. The line is still watched: the room comes back once one runs.
    void say_if_not_running() {
        if (!lost_at_ || !not_running_.empty()
            || std::chrono::steady_clock::now() - *lost_at_ < kRestartWait)
            return;
        auto why = daemon_.no_daemon();
        if (!why) return; // its socket takes connections: one is starting
        not_running_ = *why;
        note("! " + not_running_ + "; the room shows again once it runs");
        redraw();
    }

    // The daemon that came back refused the room: the exit code when it is gone for good.
    // UNKNOWN_ROOM is final (docs/api.md, "When your own daemon restarts"): the daemon restores
    // its rooms and seats before it answers anyone, and a joined room it has not heard of from
    // its host yet is UNAVAILABLE, asked again in a moment. It says UNKNOWN_ROOM once the host
    // has said it no longer has the room.
    std::optional<int> lost_in_restart(const pb::Reply& reply) {
        if (reply.error().code() != pb::ERROR_CODE_UNKNOWN_ROOM) return std::nullopt;
        const std::string& name = view_.summary().name();
        if (view_.summary().origin() == pb::ROOM_ORIGIN_HOSTED) {
            farewell_ = "halma: room " + name + " did not come back when halmad restarted";
            return 1;
        }
        // As a close seen as it happens ends play: said, and done.
        farewell_ = "room " + name + " is gone: its host closed it while your halmad was down";
        return 0;
    }

    // Applies what the daemon pushed; the exit code when the room has closed.
    std::optional<int> take_events() {
        std::vector<pb::Event> events;
        // Who we are in the room, by the number events name members with: our own `left` is
        // a `halma leave` typed elsewhere. Shown as "dan left", the screen stayed as it was.
        std::uint32_t me = view_.your_seat() >= 0 && view_.your_seat() < view_.seats_size()
            ? view_.seats(view_.your_seat()).member()
            : 0;
        bool someone_left = false;
        while (auto e = daemon_.next_event(std::chrono::milliseconds(0))) {
            // The room shown before a /switch: its last events may still come.
            if (e->room_id() != room_) continue;
            if (e->event().has_closed()) {
                farewell_ = e->text();
                return 0;
            }
            if (e->event().has_left()) {
                const auto& left = e->event().left();
                if (me != 0 && left.member() == me) return left_elsewhere(left.timed_out());
                someone_left |= !left.timed_out();
            }
            events.push_back(std::move(*e));
        }
        if (events.empty()) return std::nullopt;
        // The board as last shown, then the room as it is now: each new move is played out
        // between the two, its line appearing in the log as its marble starts to move.
        auto shown = engine::Position::parse(view_.position());
        std::uint64_t shown_seq = view_.seq();
        pb::RoomView before = view_;
        picked_.reset();
        if (!reread() && end_) {
            // A spectator holds no seat to be named by: its own leave shows as the room gone
            // from halmad just after someone left.
            if (someone_left) return left_elsewhere(false);
            return end_;
        }
        // The bell: a player looking elsewhere hears that the game waits for them.
        if (view_.your_turn() && !was_your_turn_ && options_.bell && terminal_)
            std::cout << '\a' << std::flush;
        was_your_turn_ = view_.your_turn();
        // A room rebuilt from its host's snapshot (a rejoin after a drop) comes with no events
        // for what was played meanwhile: named here, those its events do not name.
        int told_moves = 0;
        for (const auto& e : events)
            told_moves += e.event().has_move() && e.event().seq() > shown_seq;
        bool rebuilt = std::any_of(
            events.begin(), events.end(), [](const pb::Event& e) { return !e.has_event(); });
        for (const auto& e : events) {
            note(e.text());
            if (!e.has_event() && rebuilt) {
                for (const auto& line :
                    missed_moves(before, view_, view_.moves_size() - told_moves))
                    note(line);
                rebuilt = false;
            }
            if (!e.event().has_move() || e.event().seq() <= shown_seq || !shown) continue;
            play_out_move(e.event().move(), *shown, view_, terminal_ && overlay_ == Overlay::kNone,
                [this](const pb::RoomView& frame) { draw(frame); });
        }
        redraw();
        return std::nullopt;
    }

    // The room's first view. A room joined on another daemon that this halmad has not heard from
    // since it started (the laptop restarted while the host was off) has none until its host
    // answers: said once, then waited for (Ctrl-C stops), where play stopped at once.
    bool wait_for_room(int& code) {
        bool told = false;
        for (;;) {
            pb::Request r;
            r.mutable_view()->set_room(room_);
            auto reply = daemon_.call(r);
            if (!reply || !reply->has_error()
                || reply->error().code() != pb::ERROR_CODE_UNAVAILABLE)
                return refresh(code);
            if (!told) {
                std::cout << reply->error().message() << "\nWaiting for it (Ctrl-C to stop)...\n"
                          << std::flush;
                told = true;
            }
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }

    // The room left from another halma (`halma leave`), or the seat given up by its host (held
    // in vain while our halmad was out of its reach): the exit code.
    std::optional<int> left_elsewhere(bool timed_out) {
        const std::string& name = view_.summary().name();
        if (timed_out) {
            farewell_ = "halma: you are no longer in room " + name
                + ": its host gave your seat up while your halmad was out of its reach";
            return 1;
        }
        // As /leave typed here ends play.
        farewell_ = "you left room " + name + " (from another halma)";
        return 0;
    }

    // Our halmad answered UNKNOWN_ROOM for the room's id: it dropped the room without an event
    // (a leave typed elsewhere while its host was out of reach does). The session ends, naming
    // the room as the player knows it: the daemon's message named it by its 32-hex id.
    void room_gone() {
        farewell_ = "halma: room " + view_.summary().name()
            + " is no longer on your halmad (left or closed from another halma)";
        end_ = 1;
    }

    // The room read again once the screen is up: false when it was not (end_ is set when the
    // room is gone). Nothing is printed: stderr would write over the screen.
    bool reread() {
        pb::Request r;
        r.mutable_view()->set_room(room_);
        auto reply = daemon_.call(r);
        if (!reply) return false;
        if (reply->has_error()) {
            if (reply->error().code() == pb::ERROR_CODE_UNKNOWN_ROOM) room_gone();
            return false;
        }
        take_view(reply->view());
        return true;
    }

    bool refresh(int& code) {
        pb::Request r;
        r.mutable_view()->set_room(room_);
        auto reply = ask(daemon_, r, code);
        if (reply) take_view(reply->view());
        return reply.has_value();
    }

    // The room as the daemon shows it now; a turn's time left counts down from here.
    void take_view(const pb::RoomView& view) {
        view_ = view;
        turn_due_.reset();
        if (view_.has_turn_ms_left())
            turn_due_ = std::chrono::steady_clock::now()
                + std::chrono::milliseconds(view_.turn_ms_left());
    }

    std::string told_read_only_;

    void note(const std::string& line) {
        log_.push_back(line);
        if (log_.size() > kLogKept) log_.pop_front();
        if (!terminal_) std::cout << line << "\n";
    }

    void redraw() {
        if (turn_due_) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                *turn_due_ - std::chrono::steady_clock::now());
            view_.set_turn_ms_left(
                static_cast<std::uint32_t>(std::max<long long>(0, left.count())));
        }
        draw(view_);
    }

    // The line to the local halmad, as the status's light shows it.
    pb::ConnectionState daemon_state() const {
        return !link_.up() ? pb::CONNECTION_STATE_DISCONNECTED
            : resync_      ? pb::CONNECTION_STATE_CONNECTING
                           : pb::CONNECTION_STATE_CONNECTED;
    }

    void draw(const pb::RoomView& view) {
        // No move is invited that cannot be sent (the status says why).
        bool can_move = view.your_turn()
            && out_of_reach_words(view, daemon_state(), !not_running_.empty()).empty();
        if (input_) input_->set_prompt(can_move ? "your move> " : "> ");
        // Why the room takes no change (the host's disk, a host whose key changed), once.
        if (view.read_only() != told_read_only_) {
            told_read_only_ = view.read_only();
            if (!told_read_only_.empty()) note("! " + told_read_only_);
        }
        if (!terminal_) {
            std::cout << render_board(view, options_.style, marked())
                      << format_room_status(view, options_.style.colour);
            if (input_) input_->redraw();
            return;
        }
        ScreenContent content;
        content.view = &view;
        content.colour = options_.style.colour;
        content.log = &log_;
        content.daemon = daemon_state();
        content.daemon_not_running = !not_running_.empty();
        if (others_) content.elsewhere = your_move_elsewhere(others_->your_move());
        switch (overlay_) {
        case Overlay::kHelp:
            content.board = play_help_lines();
            content.board_width = kBoardWidth;
            break;
        case Overlay::kHoleKey:
            content.board = render_hole_key(view, options_.style);
            content.board_width = kKeyWidth;
            break;
        case Overlay::kNone: {
            bool waiting = view.summary().phase() == pb::PHASE_WAITING;
            content.board = waiting ? waiting_lines(view)
                                    : render_board_lines(view, options_.style, marked());
            content.board_width = kBoardWidth;
            if (waiting) content.join_command = join_command(view.summary());
        }
        }
        auto size = terminal_size();
        std::string frame = "\x1b[H";
        for (const auto& line : compose_screen(content, size.cols, size.rows))
            frame += line + "\x1b[K\r\n";
        frame += "\x1b[K";
        std::cout << frame << std::flush;
        if (input_) input_->redraw();
    }

    std::vector<std::uint8_t> marked() const {
        return picked_ ? picked_->targets : std::vector<std::uint8_t> {};
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
        // Another set's marble, the player's own (several sets each) or not: whose it is and
        // whose turn, as the host says it for a whole move ("the marble on m5 cannot move now"
        // left a player with three sets guessing).
        if (pos && pos->at(*cell) != engine::kEmpty && pos->at(*cell) != engine::kFixed
            && engine::set_of(pos->at(*cell)) != pos->side_to_move()) {
            note("! " + engine::cell_name(*cell) + " holds a marble of "
                + engine::set_words(engine::set_of(pos->at(*cell))) + "; it is the turn of "
                + engine::set_words(pos->side_to_move()));
            redraw();
            return true;
        }
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

    // False when it was not done (the reason is noted on the screen).
    bool act(const std::function<void(pb::ActionRequest*)>& fill) {
        // Sent now it would wait in the socket for a daemon that knows nothing of us yet.
        if (resync_) {
            note(link_.up() ? "! not sent: halmad is back but has not got the room from its host "
                              "yet; try again when the room is back"
                    : not_running_.empty()
                    ? "! not sent: halmad is restarting; try again when the room is back"
                    : "! not sent: " + not_running_);
            redraw();
            return false;
        }
        pb::Request r;
        r.mutable_action()->set_room(room_);
        fill(r.mutable_action());
        auto reply = daemon_.call(r);
        bool done = reply && !reply->has_error();
        if (reply && reply->has_error() && reply->error().code() == pb::ERROR_CODE_UNKNOWN_ROOM) {
            room_gone();
            return false;
        }
        if (!reply)
            note("! " + reply.error().message);
        else if (reply->has_error())
            note("! " + reply->error().message());
        redraw();
        return done;
    }

    // Another of this daemon's rooms on the screen, subscribed to alone as the first one was,
    // its log begun afresh. False when the session is to end (the room shown until now is gone).
    bool switch_room(const std::string& typed) {
        auto opened = !resync_     ? open_room(daemon_, typed, room_)
            : not_running_.empty() ? std::unexpected(
                  std::string("not now: halmad is restarting; try again when it is back"))
                                   : std::unexpected("not now: " + not_running_);
        if (!opened) {
            note("! " + opened.error());
            redraw();
            return true;
        }
        std::string left = others_->word_for(room_, view_.summary().name());
        room_ = opened->summary().room_id();
        others_->show(room_);
        take_view(*opened);
        if (!reread() && end_) return false; // what happened before the subscription took
        log_.clear();
        picked_.reset();
        told_read_only_.clear();
        was_your_turn_ = view_.your_turn();
        note("room " + view_.summary().name() + " (/switch " + left + " goes back)");
        for (const auto& line : recent_chat(view_, kChatShownOnOpening)) note(line);
        redraw();
        return true;
    }

    // A move, unless the room is out of reach now: the host would never hear of it (halmad's
    // own restart is act()'s to say).
    void send_move(const std::string& move) {
        if (!resync_) {
            if (auto why = out_of_reach_words(view_, daemon_state()); !why.empty()) {
                note("! not sent: " + why + "; you can move once the room is back");
                redraw();
                return;
            }
        }
        act([&](pb::ActionRequest* a) { a->set_move(move); });
    }

    // A seated player leaving a game in progress: a computer plays the seat from then on.
    bool leave_needs_asking() const {
        return view_.summary().phase() == pb::PHASE_PLAYING && view_.your_seat() >= 0;
    }

    // False when the player is done.
    bool handle(const std::string& raw) {
        std::string line = raw;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        while (!line.empty() && line.front() == ' ') line.erase(line.begin());
        bool had_overlay = overlay_ != Overlay::kNone;
        overlay_ = Overlay::kNone;
        // Asked once: anything else typed meanwhile is an answer of no.
        bool leave_asked = std::exchange(leave_asked_, false);
        // A word that cannot be a hole or a move: the command it names, or its slash form.
        if (auto word = read_bare_word(line)) {
            if (!word->run_as.empty())
                line = word->run_as;
            else {
                note("! " + word->advice);
                redraw();
                return true;
            }
        }
        if (line.empty() || line == "/board") {
            if (!had_overlay && !resync_ && !reread() && end_) return false;
            redraw();
            return true;
        }
        if (line == "/quit" || line == "/q") return false;
        if (line == "/help" || line == "?") {
            overlay_ = terminal_ ? Overlay::kHelp : Overlay::kNone;
            if (!terminal_) std::cout << kPlayHelp;
            redraw();
            return true;
        }
        if (line == "/keys" || line == "/names") {
            if (!terminal_) {
                for (const auto& l : render_hole_key(view_, options_.style)) std::cout << l << "\n";
            } else {
                overlay_ = Overlay::kHoleKey;
                note("every hole's name; Enter: back to the board");
            }
            redraw();
            return true;
        }
        if (line.rfind("/c ", 0) == 0 || line.rfind("/chat ", 0) == 0) {
            std::string text = line.substr(line.find(' ') + 1);
            act([&](pb::ActionRequest* a) { a->set_chat(text); });
            return true;
        }
        if (line == "/vote new" || line == "/vote cancel" || line == "/vote leader"
            || line == "/vote takeback" || line == "/takeback") {
            act([&](pb::ActionRequest* a) {
                a->set_vote(line == "/vote new"  ? pb::VOTE_KIND_NEW_GAME
                        : line == "/vote leader" ? pb::VOTE_KIND_LEADER
                        : line == "/vote cancel" ? pb::VOTE_KIND_CANCEL
                                                 : pb::VOTE_KIND_TAKE_BACK);
            });
            return true;
        }
        if (line == "/start" || line == "/start easy" || line == "/start hard"
            || line == "/start max") {
            std::string level = line.size() > 7 ? line.substr(7) : "";
            act([&](pb::ActionRequest* a) { a->mutable_start()->set_bot_level(level); });
            return true;
        }
        if (line == "/leave") {
            // Mid-game a computer takes the seat, and a later leave cannot be undone: asked
            // first, as halma close asks. It acted at once.
            if (leave_needs_asking() && !leave_asked) {
                leave_asked_ = true;
                note(kLeaveQuestion);
                redraw();
                return true;
            }
            // A leave the daemon refused (it cannot reach the host) keeps the player here.
            if (!act([](pb::ActionRequest* a) { a->mutable_leave(); })) return true;
            farewell_ = "left room " + view_.summary().name();
            return false;
        }
        if (line == "/switch" || line.rfind("/switch ", 0) == 0)
            return switch_room(line.substr(std::min<std::size_t>(line.size(), 8)));
        if (line.rfind("/start ", 0) == 0) {
            note("! /start LEVEL: the computers' level is easy, hard or max (or /start alone)");
            redraw();
            return true;
        }
        if (line == "/c" || line == "/chat") {
            note("! /c TEXT: say what to chat");
            redraw();
            return true;
        }
        if (line.rfind("/vote", 0) == 0) {
            note("! vote for what: /vote new, cancel, leader or takeback");
            redraw();
            return true;
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
            send_move(move);
            return true;
        }
        if (pick(line)) return true;
        int code = 0;
        std::string why;
        auto move = read_move(view_, line, code, &why);
        if (!move) {
            if (auto chat = chat_hint(line)) why = *chat;
            note("! " + why);
            redraw();
            return true;
        }
        send_move(*move);
        return true;
    }

    DaemonConnection& daemon_;
    DaemonLink link_;
    bool resync_ = false; // halmad went: subscribe and read the room again when it is back
    // When the line to halmad dropped, while it is down; and, once it has been down longer than
    // a restart takes (kRestartWait), that it is not running and how to start it.
    std::optional<std::chrono::steady_clock::time_point> lost_at_;
    std::string not_running_;
    std::string room_;
    std::string farewell_; // printed when the session ends
    std::vector<std::string> still_in_; // the player's other rooms, when it ended
    std::optional<int> end_; // the exit code, once the room is gone from halmad
    PlayOptions options_;
    bool terminal_;
    PromptLine* input_ = nullptr;
    OtherRooms* others_ = nullptr; // while the screen is up
    pb::RoomView view_;
    // When the turn of the person to move runs out (a room with a turn limit), by this clock.
    std::optional<std::chrono::steady_clock::time_point> turn_due_;
    bool was_your_turn_ = false;
    bool leave_asked_ = false; // the last line was /leave mid-game, asked to be typed again
    Overlay overlay_ = Overlay::kNone;
    std::deque<std::string> log_;
    struct Picked {
        std::uint8_t from;
        std::vector<std::uint8_t> targets;
    };
    std::optional<Picked> picked_; // a marble picked by typing its hole, and where it can go
};

} // namespace

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
