// What the player types in `halma play`: moves, a marble picked by its hole, /commands
// (play_session.h; the words themselves are play_words.h's).
#include "cli/client/client_common.h"
#include "cli/client/other_rooms.h"
#include "cli/client/output.h"
#include "cli/client/play_log.h"
#include "cli/client/play_screen.h"
#include "cli/client/play_session.h"
#include "cli/client/play_words.h"
#include "cli/client/room_picker.h"
#include "engine/notation.h"
#include "engine/position.h"

#include <algorithm>
#include <iostream>
#include <utility>

namespace halma::cli {

namespace pb = ::halma::v1;

bool PlaySession::pick(const std::string& typed) {
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

bool PlaySession::act(const std::function<void(pb::ActionRequest*)>& fill) {
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

bool PlaySession::switch_room(const std::string& typed) {
    auto opened = !resync_ ? open_room(daemon_, typed, room_)
        : not_running_.empty()
        ? std::unexpected(std::string("not now: halmad is restarting; try again when it is back"))
        : std::unexpected("not now: " + not_running_);
    if (!opened) {
        note("! " + opened.error());
        redraw();
        return true;
    }
    std::string left = others_->word_for(room_, view_.summary().name());
    if (!show_room(*opened)) return false;
    note("room " + view_.summary().name() + " (/switch " + left + " goes back)");
    note_opening();
    redraw();
    return true;
}

bool PlaySession::show_room(const pb::RoomView& opened) {
    room_ = opened.summary().room_id();
    others_->show(room_);
    take_view(opened);
    if (!reread() && end_) return false; // what happened before the subscription took
    log_.clear();
    picked_.reset();
    told_read_only_.clear();
    was_your_turn_ = view_.your_turn();
    return true;
}

bool PlaySession::move_on(const std::string& why) {
    if (!others_ || resync_) return false;
    others_->forget(room_);
    auto waiting = others_->your_move();
    auto rooms = waiting.empty() ? others_->names() : waiting;
    for (const auto& word : rooms) {
        auto opened = open_room(daemon_, word, room_);
        if (!opened) continue; // gone meanwhile too: the next
        if (!show_room(*opened)) return false;
        // Said as a line of the log, not on the way out: "halma: " is for the shell.
        note(why.rfind("halma: ", 0) == 0 ? why.substr(7) : why);
        note("room " + view_.summary().name() + ", where you are too"
            + (others_->names().empty() ? "" : " (/switch ROOM for another)"));
        note_opening();
        redraw();
        return true;
    }
    return false;
}

void PlaySession::send_move(const std::string& move) {
    if (!resync_) {
        if (auto why = out_of_reach_words(view_, daemon_state()); !why.empty()) {
            note("! not sent: " + why + "; you can move once the room is back");
            redraw();
            return;
        }
    }
    act([&](pb::ActionRequest* a) { a->set_move(move); });
}

bool PlaySession::leave_needs_asking() const {
    return view_.summary().phase() == pb::PHASE_PLAYING && view_.your_seat() >= 0;
}

bool PlaySession::handle(const std::string& raw) {
    std::string line = raw;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(line.begin());
    bool had_overlay = overlay_ != Overlay::kNone;
    // The hole key's hint goes with it: it stayed in the log, saying Enter went back to a board
    // already shown.
    if (overlay_ == Overlay::kHoleKey && !log_.empty() && log_.back() == kHoleKeyHint)
        log_.pop_back();
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
            note(kHoleKeyHint);
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

} // namespace halma::cli
