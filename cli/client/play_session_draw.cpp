// The play screen drawn from the session's view (play_session.h; the layout is play_screen.h's).
#include "cli/client/join_words.h"
#include "cli/client/other_rooms.h"
#include "cli/client/output.h"
#include "cli/client/play_screen.h"
#include "cli/client/play_session.h"
#include "cli/client/play_words.h"
#include "cli/client/prompt_line.h"
#include "cli/client/terminal_io.h"

#include <algorithm>
#include <iostream>

namespace halma::cli {

namespace pb = ::halma::v1;

void PlaySession::redraw() {
    if (turn_due_) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            *turn_due_ - std::chrono::steady_clock::now());
        view_.set_turn_ms_left(static_cast<std::uint32_t>(std::max<long long>(0, left.count())));
    }
    for (auto& seat : *view_.mutable_seats())
        if (auto due = hold_due_.find(seat.seat()); due != hold_due_.end()) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                due->second - std::chrono::steady_clock::now());
            seat.set_hold_ms_left(static_cast<std::uint32_t>(std::max<long long>(0, left.count())));
        }
    draw(view_);
}

pb::ConnectionState PlaySession::daemon_state() const {
    return !link_.up() ? pb::CONNECTION_STATE_DISCONNECTED
        : resync_      ? pb::CONNECTION_STATE_CONNECTING
                       : pb::CONNECTION_STATE_CONNECTED;
}

void PlaySession::draw(const pb::RoomView& view) {
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
        content.board
            = waiting ? waiting_lines(view) : render_board_lines(view, options_.style, marked());
        content.board_width = kBoardWidth;
        if (waiting) content.join_command = join_command(view.summary());
        content.player_at_bottom = !waiting;
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

std::vector<std::uint8_t> PlaySession::marked() const {
    return picked_ ? picked_->targets : std::vector<std::uint8_t> {};
}

} // namespace halma::cli
