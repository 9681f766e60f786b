// The room's turn limit: a person has mode.turn_limit_s for a turn; past it a computer moves for
// them and they count as away until they move themselves (room_state.cpp), so that one who walked
// off, or one who will not move, holds up neither the game nor the votes of those present. The
// clock starts when the person's turn does: a move played, a game started, or the seat taken
// (back) in the middle of the turn. It needs the daemon's computer players (every halmad has
// them; a room made without, as in unit tests, keeps no clock).
#include "daemon/room/room_authority.h"

namespace halma::daemon {

void RoomAuthority::plan_turn(const Now& now) {
    int limit = state_.config().mode.turn_limit_s;
    int seat = state_.phase() == Phase::kPlaying ? state_.seat_to_move() : kNoSeat;
    const Member* m = seat != kNoSeat ? state_.member(state_.seat_holder(seat)) : nullptr;
    if (limit <= 0 || !options_.bots_available || closed() || !m || m->bot) {
        turn_ = {};
        return;
    }
    std::size_t ply = state_.move_names().size();
    if (turn_.member == m->id && turn_.game_number == state_.game_number() && turn_.ply == ply)
        return; // the same turn: it runs on
    turn_ = { m->id, state_.game_number(), ply, now.steady + std::chrono::seconds(limit), false };
}

MemberId RoomAuthority::computer_to_move() const {
    if (MemberId bot = bot_to_move(); bot != kNoMember) return bot;
    return turn_.overdue ? turn_.member : kNoMember;
}

BotLevel RoomAuthority::level_for(MemberId member) const {
    const Member* m = state_.member(member);
    return m && m->bot ? m->bot_level : room_bot_level();
}

} // namespace halma::daemon
