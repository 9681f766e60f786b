#include "game_replay.h"

#include <bit>

namespace halma::cli {

using namespace halma::engine;

Result<GameSetup> setup_for_position(const Position& pos, const Rules& rules) {
    int sets = std::popcount(static_cast<unsigned>(pos.sets_present()));
    auto setup = GameSetup::make(sets, 1, rules);
    if (!setup)
        return fail("a position with " + std::to_string(sets)
            + " sets is not a game of one set per player: " + setup.error().message);
    if (setup->sets() != pos.sets_present())
        return fail("the position's sets are not those of a " + std::to_string(sets)
            + "-player game (docs/rules.md)");
    return setup;
}

Result<Game> replay_game(const GameSetup& setup, const std::optional<Position>& start,
    const std::vector<std::string>& moves) {
    auto game = start ? Game::from_position(setup, *start) : Result<Game>(Game(setup, 0));
    if (!game) return game;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto played = game->play(moves[i]);
        if (!played)
            return fail(
                "move " + std::to_string(i + 1) + " '" + moves[i] + "': " + played.error().message);
    }
    return game;
}

std::vector<std::string> split_moves(const std::string& text) {
    std::vector<std::string> moves;
    std::string word;
    for (char c : text + " ") {
        if (c == ' ' || c == ',' || c == '\t' || c == '\n') {
            if (!word.empty()) moves.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return moves;
}

} // namespace halma::cli
