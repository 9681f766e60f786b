// Who plays which set. The bots search for a player, not a set: a player with several sets
// wants all of them home, and a bare position (analysis) gives every set its own player.
#pragma once

#include "engine/game.h"
#include "engine/position.h"
#include "engine/types.h"

#include <array>
#include <cstdint>

namespace halma::ai {

struct Seating {
    int players = 0;
    std::array<std::int8_t, engine::kSetNB> owner { -1, -1, -1, -1, -1, -1 };

    static Seating of(const engine::GameSetup& setup) {
        Seating seating;
        seating.players = setup.players;
        for (engine::SetId s = 0; s < engine::kSetNB; ++s)
            if (engine::has_set(setup.sets(), s))
                seating.owner[s] = static_cast<std::int8_t>(setup.owner(s));
        return seating;
    }

    // Each set present is its own player, numbered in set order.
    static Seating one_per_set(engine::SetMask present) {
        Seating seating;
        for (engine::SetId s = 0; s < engine::kSetNB; ++s)
            if (engine::has_set(present, s))
                seating.owner[s] = static_cast<std::int8_t>(seating.players++);
        return seating;
    }

    engine::SetMask sets_of(int player) const {
        engine::SetMask mask = 0;
        for (engine::SetId s = 0; s < engine::kSetNB; ++s)
            if (owner[s] == player) mask |= engine::mask_of(s);
        return mask;
    }
};

} // namespace halma::ai
