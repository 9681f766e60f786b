#include "daemon/room/game_recording.h"

#include <algorithm>

namespace halma::daemon {

bool game_ended(const RoomState& state) {
    return state.phase() == Phase::kOver || state.phase() == Phase::kCancelled;
}

engine::GameRecord record_of(
    const RoomState& state, std::string_view ending, std::optional<std::int64_t> ended_ms) {
    engine::GameRecord r;
    const engine::Game& game = *state.game();
    r.room = state.config().name;
    r.game_number = state.game_number();
    r.setup = game.setup();
    // The log still holds the game's start (a fold keeps the current game whole): its time, the
    // first set, and the time of its last move, of the vote that cancelled it or of the close.
    bool in_game = false;
    for (const RoomEvent& e : state.log()) {
        if (const auto* s = std::get_if<event::GameStarted>(&e.body)) {
            in_game = s->game_number == state.game_number();
            if (in_game) {
                r.started_ms = r.ended_ms = e.time_ms;
                r.first_set = s->first_set;
            }
        } else if (in_game
            && (std::holds_alternative<event::MovePlayed>(e.body)
                || std::holds_alternative<event::GameCancelled>(e.body)
                || std::holds_alternative<event::RoomClosed>(e.body))) {
            r.ended_ms = e.time_ms;
        }
    }
    if (ended_ms) r.ended_ms = std::max(r.ended_ms, *ended_ms);
    // Each seat's player is whoever made its moves ("ann / bot for ann"), not whoever holds it
    // when the game ends (a stand-in that never moved, a newcomer in the pause); a person if a
    // person moved. A seat nobody moved for is its holder's.
    for (int p = 0; p < r.setup.players; ++p) {
        int seat = state.seat_of_player(p);
        engine::RecordPlayer player { "(empty seat)", seat + 1, "human" };
        std::vector<Member> movers
            = seat == kNoSeat ? std::vector<Member> {} : state.played_for(seat);
        if (movers.empty())
            if (const Member* m = seat == kNoSeat ? nullptr : state.member(state.seat_holder(seat)))
                movers.push_back(*m);
        if (!movers.empty()) {
            player.name = state.player_name(seat);
            auto person = std::find_if(
                movers.begin(), movers.end(), [](const Member& m) { return !m.bot; });
            if (person == movers.end())
                player.kind = "bot " + std::string(bot_level_name(movers.back().bot_level));
        }
        r.players.push_back(std::move(player));
    }
    for (const engine::PlayedMove& m : game.history())
        if (!m.automatic)
            r.moves.push_back(m.move.is_pass() ? std::vector<engine::Cell> {} : m.path);
    r.places.assign(static_cast<std::size_t>(r.setup.players), 0);
    if (game.over())
        for (const engine::Standing& s : game.standings())
            r.places[static_cast<std::size_t>(s.player)] = s.place;
    r.ending = !ending.empty()               ? std::string(ending)
        : state.phase() == Phase::kCancelled ? std::string("cancelled")
                                             : std::string(engine::ending_name(game.end()));
    return r;
}

} // namespace halma::daemon
