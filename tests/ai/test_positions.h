// Setups, rule families and positions the bot tests share.
#pragma once

#include "engine/game.h"
#include "engine/rules.h"

#include <string>
#include <vector>

namespace halma::ai::test {

struct SetupCase {
    int players, sets_per_player;
    std::string rules;
};

// Every setup, each with rule families that change what is legal.
inline std::vector<SetupCase> all_setups() {
    std::vector<SetupCase> cases;
    const std::vector<std::string> families { "", "jumps=long", "rest=any", "rest=unused",
        "spoil=swap", "spoil=occupied", "release=off", "home-lock=off",
        "jumps=long,rest=any,spoil=swap,release=off" };
    const std::vector<std::pair<int, int>> setups { { 2, 1 }, { 3, 1 }, { 4, 1 }, { 6, 1 },
        { 2, 2 }, { 2, 3 }, { 3, 2 } };
    for (auto [players, sets] : setups)
        for (const auto& rules : families) cases.push_back({ players, sets, rules });
    // Fixed marbles in the unused triangles exist only where some triangles are unused.
    for (auto [players, sets] : std::vector<std::pair<int, int>> { { 2, 1 }, { 4, 1 }, { 2, 2 } })
        cases.push_back({ players, sets, "unused=filled" });
    return cases;
}

inline engine::GameSetup make_setup(const SetupCase& c) {
    auto rules = engine::Rules::parse(c.rules);
    auto setup = engine::GameSetup::make(c.players, c.sets_per_player, *rules);
    return *setup;
}

inline std::string describe(const SetupCase& c) {
    return std::to_string(c.players) + " players x " + std::to_string(c.sets_per_player)
        + " sets, rules '" + c.rules + "'";
}

} // namespace halma::ai::test
