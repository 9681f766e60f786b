#include "cli/client/move_animation.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace halma::cli {

namespace pb = ::halma::v1;

void play_out_move(const pb::MovePlayed& m, engine::Position& pos, const pb::RoomView& view,
    bool animate, const std::function<void(const pb::RoomView&)>& draw) {
    if (animate && m.path_size() >= 2 && m.kind() == pb::MOVE_KIND_NORMAL) {
        pb::RoomView frame = view;
        auto from = static_cast<engine::Cell>(m.path(0));
        // Long chains go faster: the whole move takes about a second at most.
        auto pause = std::chrono::milliseconds(std::min(150, 900 / m.path_size()));
        frame.clear_last_path();
        frame.add_last_path(from);
        for (int i = 1; i < m.path_size(); ++i) {
            engine::Position step = pos;
            step.make({ from, static_cast<engine::Cell>(m.path(i)), engine::Move::kNormal });
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

} // namespace halma::cli
