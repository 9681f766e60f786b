// A room's view for the cli's unit tests: `players` one-set players, the first game just started,
// seen from seat 0; standings sorted as the daemon sends them.
#pragma once

#include "engine/game.h"
#include "halma/v1/api.pb.h"

#include <algorithm>
#include <string>

namespace halma::testing {

// A room of `players` one-set players, the first game just started, seen from seat 0.
inline ::halma::v1::RoomView room_view(int players, bool long_names = false) {
    ::halma::v1::RoomView v;
    auto* s = v.mutable_summary();
    s->set_name("sunday");
    s->set_seats(static_cast<unsigned>(players));
    s->set_seats_taken(static_cast<unsigned>(players));
    s->set_phase(::halma::v1::PHASE_PLAYING);
    s->set_address("127.0.0.1:7460");
    auto setup = ::halma::engine::GameSetup::make(players, 1, ::halma::engine::Rules {}).value();
    ::halma::engine::Game game(setup, 0);
    v.set_position(game.position().to_string());
    v.set_your_seat(0);
    v.set_turn_seat(0);
    v.set_your_turn(true);
    v.set_game_number(1);
    v.set_leader_seat(-1);
    for (int p = 0; p < players; ++p) {
        auto* seat = v.add_seats();
        seat->set_seat(p);
        seat->set_name(long_names ? std::string(40, 'x') + std::to_string(p)
                                  : "player " + std::to_string(p + 1));
        seat->set_connected(true);
        for (auto set : setup.sets_of(p)) seat->add_sets(static_cast<unsigned>(set));
        auto* st = v.add_standings();
        st->set_seat(p);
        st->set_name(seat->name());
        st->set_distance_left(120);
    }
    return v;
}

// Standings best first, as the daemon sends them: the finished by moves, then by distance.
inline void sort_standings(::halma::v1::RoomView& v) {
    std::stable_sort(v.mutable_standings()->begin(), v.mutable_standings()->end(),
        [](const ::halma::v1::Standing& a, const ::halma::v1::Standing& b) {
            if (a.finished() != b.finished()) return a.finished();
            return a.finished() ? a.moves() < b.moves() : a.distance_left() < b.distance_left();
        });
}

} // namespace halma::testing
