// Following the room and the local halmad: events, views, restarts (play_session.h).
#include "cli/client/play_session.h"

#include "cli/client/client_common.h"
#include "cli/client/missed_moves.h"
#include "cli/client/move_animation.h"
#include "cli/client/other_rooms.h"
#include "cli/client/output.h"
#include "cli/client/play_log.h"
#include "cli/client/play_screen.h"
#include "cli/client/play_words.h"
#include "cli/client/prompt_line.h"
#include "cli/client/term_text.h"
#include "cli/client/terminal_io.h"
#include "engine/position.h"

#include <algorithm>
#include <csignal>
#include <iostream>
#include <sstream>
#include <sys/signalfd.h>
#include <thread>
#include <unistd.h>

namespace halma::cli {

namespace pb = ::halma::v1;

int PlaySession::run() {
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
    if (farewell_.empty()) return code;
    // Wrapped at words on a terminal: it broke "(halma l" / "eave to give it up)" at 80 columns.
    std::string said;
    std::istringstream lines(farewell_);
    for (std::string line; std::getline(lines, line);)
        said += terminal_ ? wrap(line, std::max(terminal_size().cols, 20)) : line + "\n";
    (code ? std::cerr : std::cout) << said << std::flush;
    return code;
}

int PlaySession::run_screen() {
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
    note_opening();
    redraw();
    while (true) {
        zmq::pollitem_t items[] = { { daemon_.socket().handle(), 0, ZMQ_POLLIN, 0 },
            { nullptr, input.fd(), ZMQ_POLLIN, 0 }, { link_.socket().handle(), 0, ZMQ_POLLIN, 0 },
            { others.socket().handle(), 0, ZMQ_POLLIN, 0 },
            { others.link_socket().handle(), 0, ZMQ_POLLIN, 0 },
            { nullptr, signals.fd, ZMQ_POLLIN, 0 } };
        int count = signals.fd >= 0 ? 6 : 5;
        // While the room is still to be read again, try every half second; while a turn's
        // clock or a gone player's hold runs, show it going down once a second.
        bool counting = turn_due_ || !hold_due_.empty();
        auto wait = std::chrono::milliseconds(resync_ ? 500 : counting ? 1000 : -1);
        if (auto other = others.next_wake(); other.count() >= 0)
            wait = wait.count() < 0 ? other : std::min(wait, other);
        if (!daemon_.has_event()) zmq::poll(items, count, wait);
        if (counting && !daemon_.has_event() && items[1].revents == 0) redraw();
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

void PlaySession::follow_other_rooms() {
    auto news = others_->tick();
    for (const auto& line : news.chat) note(line);
    if (!news.changed && news.chat.empty()) return;
    if (news.newly_waiting && options_.bell && terminal_) std::cout << '\a' << std::flush;
    if (terminal_)
        redraw();
    else if (news.newly_waiting)
        std::cout << your_move_elsewhere(others_->your_move()) << "\n";
}

std::optional<int> PlaySession::follow_daemon() {
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

void PlaySession::say_if_not_running() {
    if (!lost_at_ || !not_running_.empty()
        || std::chrono::steady_clock::now() - *lost_at_ < kRestartWait)
        return;
    auto why = daemon_.no_daemon();
    if (!why) return; // its socket takes connections: one is starting
    not_running_ = *why;
    note("! " + not_running_ + "; the room shows again once it runs");
    redraw();
}

std::optional<int> PlaySession::lost_in_restart(const pb::Reply& reply) {
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

std::optional<int> PlaySession::take_events() {
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
            // In other rooms too: one of them is shown (play ended, as if in none).
            if (move_on(e->text())) return std::nullopt;
            if (end_) return end_;
            farewell_ = e->text();
            return 0;
        }
        if (e->event().has_left()) {
            const auto& left = e->event().left();
            if (me != 0 && left.member() == me) {
                auto code = left_elsewhere(left.timed_out());
                if (move_on(farewell_)) {
                    farewell_.clear();
                    return std::nullopt;
                }
                return end_ ? end_ : code;
            }
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
    for (const auto& e : events) told_moves += e.event().has_move() && e.event().seq() > shown_seq;
    // A move is played out hop by hop only when it can be followed: the one new move, in the
    // game shown, with nothing else waiting (more events, or what the player types). A room of
    // computers playing as fast as they can sent moves faster than they were drawn (up to a
    // second each): play fell minutes behind, read no key, and a new game's moves were played
    // on the old game's board ("unreadable position"). Otherwise the room is drawn as it is.
    bool new_game = before.game_number() != view_.game_number()
        || std::any_of(events.begin(), events.end(), [](const pb::Event& e) {
               return e.event().has_started() || e.event().has_taken_back();
           });
    bool animate = terminal_ && overlay_ == Overlay::kNone && told_moves == 1 && !new_game
        && !daemon_.has_event() && !(input_ && input_->pending());
    bool rebuilt = std::any_of(
        events.begin(), events.end(), [](const pb::Event& e) { return !e.has_event(); });
    for (const auto& e : events) {
        note(log_line(e, view_));
        if (!e.has_event() && rebuilt) {
            for (const auto& line : missed_moves(before, view_, view_.moves_size() - told_moves))
                note(line);
            rebuilt = false;
        }
        if (!animate || !e.event().has_move() || e.event().seq() <= shown_seq || !shown) continue;
        play_out_move(e.event().move(), *shown, view_, true,
            [this](const pb::RoomView& frame) { draw(frame); });
    }
    redraw();
    return std::nullopt;
}

bool PlaySession::wait_for_room(int& code) {
    bool told = false;
    for (;;) {
        pb::Request r;
        r.mutable_view()->set_room(room_);
        auto reply = daemon_.call(r);
        if (!reply || !reply->has_error() || reply->error().code() != pb::ERROR_CODE_UNAVAILABLE)
            return refresh(code);
        if (!told) {
            std::cout << reply->error().message() << "\nWaiting for it (Ctrl-C to stop)...\n"
                      << std::flush;
            told = true;
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
}

std::optional<int> PlaySession::left_elsewhere(bool timed_out) {
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

void PlaySession::room_gone() {
    farewell_ = "halma: room " + view_.summary().name()
        + " is no longer on your halmad (left or closed from another halma)";
    end_ = 1;
}

bool PlaySession::reread() {
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

bool PlaySession::refresh(int& code) {
    pb::Request r;
    r.mutable_view()->set_room(room_);
    auto reply = ask(daemon_, r, code);
    if (reply) take_view(reply->view());
    return reply.has_value();
}

void PlaySession::take_view(const pb::RoomView& view) {
    view_ = view;
    turn_due_.reset();
    if (view_.has_turn_ms_left())
        turn_due_
            = std::chrono::steady_clock::now() + std::chrono::milliseconds(view_.turn_ms_left());
    hold_due_.clear();
    for (const auto& seat : view_.seats())
        if (seat.has_hold_ms_left())
            hold_due_[seat.seat()]
                = std::chrono::steady_clock::now() + std::chrono::milliseconds(seat.hold_ms_left());
}

void PlaySession::note_opening() {
    for (const auto& line : recent_chat(view_, kChatShownOnOpening)) note(line);
    if (auto last = last_move_words(view_); !last.empty()) note(last);
}

void PlaySession::note(const std::string& line) {
    log_.push_back(line);
    if (log_.size() > kLogKept) log_.pop_front();
    if (!terminal_) std::cout << line << "\n";
}

} // namespace halma::cli
