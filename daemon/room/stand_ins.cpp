// The computers that stand in for people gone mid-game, so that a game never freezes: one takes
// the seat of a player who left (a newcomer's to take over) or whose hold ran out (kept for that
// player, whose token takes it back, or gives it up with a leave their daemon owed the host).
#include "daemon/room/room_authority.h"

namespace halma::daemon {

BotLevel RoomAuthority::room_bot_level() const {
    for (const auto& [id, m] : state_.members())
        if (m.bot) return m.bot_level;
    return options_.default_bot_level;
}

void RoomAuthority::stand_in(int seat, MemberId gone, std::string token, const Now& now) {
    // Without computer players the seat stays free, and the game waits for a newcomer to take
    // it over (or for those present to vote it cancelled).
    if (!options_.bots_available) return;
    std::string name = state_.name_of(gone);
    auto taken = take_member_id(false);
    if (!taken) return; // ids used up: the seat stays free, as without computer players
    MemberId bot = *taken;
    emit(event::MemberJoined { bot, unique_name("bot for " + name), seat, true, room_bot_level(),
             token.empty() },
        now);
    if (!token.empty()) kept_seats_[seat] = KeptSeat { gone, token };
    stand_ins_[seat] = StandIn { bot, gone, name, std::move(token) };
}

RoomAuthority::StandInFor RoomAuthority::stands_in_for(MemberId bot) const {
    for (const auto& [seat, in] : stand_ins_)
        if (in.bot == bot)
            return in.token.empty() ? StandInFor::kPersonWhoLeft : StandInFor::kPersonGone;
    return StandInFor::kNobody;
}

void RoomAuthority::open_kept_seat(int seat, const Now& now) {
    StandIn in = stand_ins_.at(seat);
    const Member* bot = state_.member(in.bot);
    std::string name = bot ? bot->name : "bot for " + in.name;
    BotLevel level = bot ? bot->bot_level : room_bot_level();
    stand_ins_.erase(seat);
    kept_seats_.erase(seat);
    // The events a leave mid-game makes: this computer, in the seat for good, a newcomer's to
    // take (seat_open), as for a player who left while here.
    emit(event::MemberLeft { in.bot, false }, now);
    auto open = take_member_id(false);
    if (!open) { // ids used up: the seat is free, as without computer players
        settle(now);
        return;
    }
    emit(event::MemberJoined { *open, unique_name(name), seat, true, level, true }, now);
    stand_ins_[seat] = StandIn { *open, in.gone, in.name, {} };
    settle(now);
}

SeatTicket RoomAuthority::take_back(
    int seat, MemberId id, std::string name, std::string token, bool rejoined, const Now& now) {
    MemberId bot = stand_ins_.at(seat).bot;
    stand_ins_.erase(seat);
    kept_seats_.erase(seat);
    emit(event::MemberLeft { bot, false }, now);
    emit(event::MemberJoined { id, unique_name(name), seat, false }, now);
    member_by_token_[token] = id;
    token_of_[id] = token;
    settle(now);
    return SeatTicket { id, seat, std::move(token), rejoined };
}

} // namespace halma::daemon
