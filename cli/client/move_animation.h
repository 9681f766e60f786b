// A move played out on the board hop by hop, so a player sees how a marble got where it is rather
// than finding it there (halma play, for every move it is told of).
#pragma once

#include "engine/position.h"
#include "halma/v1/api.pb.h"

#include <functional>

namespace halma::cli {

// Makes the move on `shown` (the board as shown so far). With `animate`, first draws each hop of
// a normal move on a copy of `view` (the room as it is now) through `draw`, about a second for
// the whole move at most.
void play_out_move(const ::halma::v1::MovePlayed& move, engine::Position& shown,
    const ::halma::v1::RoomView& view, bool animate,
    const std::function<void(const ::halma::v1::RoomView&)>& draw);

} // namespace halma::cli
