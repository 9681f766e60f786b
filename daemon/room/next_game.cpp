// When a room's next game starts, and what its votes decide: the first game once every seat is
// taken, a next one when every person present in a seat votes for it (computers always agree;
// while a game is played, a player whose daemon vanished must agree too), or
// by itself after the room's pause when only computers sit, as nobody can vote there; a game
// cancelled when those present vote so while a player has vanished; the leader shown or hidden;
// a move taken back (take_back.cpp).
#include "daemon/room/room_authority.h"

#include <algorithm>
#include <vector>

namespace halma::daemon {

void RoomAuthority::start_game(const Now& now) {
    int players = state_.seats();
    int game_number = state_.game_number() + 1;
    // Each game turns the colours one seat on, so every player starts from a new triangle.
    std::vector<int> seat_player;
    for (int s = 0; s < players; ++s) seat_player.push_back((s + game_number - 1) % players);
    // Black goes to player 0's first set, which turns with the colours; the coin is ours.
    auto setup = state_.config().mode.setup();
    engine::SetId first = setup.first_mover(setup.sets_of(0).front(), rng_());
    emit(event::GameStarted { game_number, first, std::move(seat_player), true }, now);
    // Computers standing in keep standing in, game after game: the seat goes back to its player
    // whose daemon vanished when it comes back, and one whose player left goes to the next
    // newcomer (as RoomState lists it free). When the next game made them the seats' own, a
    // player whose laptop slept through a new-game vote was shut out of the room for good.
}

void RoomAuthority::settle(const Now& now) {
    bool full = state_.free_seats() == 0;
    if (state_.game_number() == 0) {
        if (full) start_game(now);
        return;
    }
    // The humans present in seats decide (one whose daemon vanished, or who let a turn run out
    // and has not moved since, cannot hold up the next game); bots always agree. One the host's
    // own restart cut off is not one who vanished.
    std::vector<const Member*> present, away;
    for (int s = 0; s < state_.seats(); ++s)
        if (const Member* m = state_.member(state_.seat_holder(s));
            m && !m->bot && (m->connected || cut_off_by_restart_.contains(m->id)))
            (m->away ? away : present).push_back(m);
    // When every person is away, the votes of those away are the only ones there are, and those
    // who voted decide: an away player comes back only by moving, and once the game is over
    // nobody can, so waiting for all of them left a room with nobody present stuck for good (a
    // game ended with everyone out of time could never be followed by another).
    bool nobody_present = present.empty();
    if (nobody_present) present = away;
    auto all_voted = [&](const std::vector<const Member*>& voters, VoteKind kind) {
        const auto& votes = state_.votes(kind);
        auto voted = [&](const Member* m) { return votes.count(m->id) > 0; };
        if (nobody_present) return std::any_of(voters.begin(), voters.end(), voted);
        return !voters.empty() && std::all_of(voters.begin(), voters.end(), voted);
    };
    // A new game while one is played throws that game away: a player whose daemon vanished is
    // asked too (a blip of the Wi-Fi let the others' votes discard a game they were holding
    // out against), until the hold runs out and a computer, which agrees, keeps the seat. To
    // go on without them at once, those present cancel the game (that vote does not wait for
    // them) and then start a new one. Once a game is over, nothing is lost by not waiting.
    std::vector<const Member*> new_game_voters = present;
    if (state_.phase() == Phase::kPlaying && !nobody_present)
        for (int s = 0; s < state_.seats(); ++s)
            if (const Member* m = state_.member(state_.seat_holder(s));
                m && !m->bot && !m->connected && !m->away && !cut_off_by_restart_.contains(m->id))
                new_game_voters.push_back(m);
    if (full && all_voted(new_game_voters, VoteKind::kNewGame)) {
        start_game(now);
        return;
    }
    if (state_.phase() == Phase::kPlaying && someone_vanished()
        && all_voted(present, VoteKind::kCancel)) {
        emit(event::GameCancelled {}, now);
        return;
    }
    if (state_.phase() == Phase::kPlaying && all_voted(present, VoteKind::kLeader)) {
        emit(event::LeaderDisplay { !state_.leader_hidden() }, now);
        return;
    }
    settle_take_back(all_voted(present, VoteKind::kTakeBack), now);
}

bool RoomAuthority::bots_only() const {
    if (state_.free_seats() != 0) return false;
    for (int s = 0; s < state_.seats(); ++s)
        if (const Member* m = state_.member(state_.seat_holder(s)); !m || !m->bot) return false;
    return true;
}

void RoomAuthority::plan_next_game(const Now& now) {
    // A person who takes a seat back (or over) in the pause makes it a room that votes again.
    if (closed() || !state_.game() || !game_ended(state_) || !bots_only()) {
        next_game_at_.reset();
        return;
    }
    if (!next_game_at_)
        next_game_at_ = now.steady + std::chrono::milliseconds(state_.config().mode.next_game_ms);
}

} // namespace halma::daemon
