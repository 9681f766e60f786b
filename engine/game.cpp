#include "game.h"

#include "geometry.h"
#include "notation.h"

#include <algorithm>
#include <cassert>

namespace halma::engine {

Result<GameSetup> GameSetup::make(int players, int sets_per_player, Rules rules) {
    GameSetup setup;
    setup.players = players;
    setup.sets_per_player = sets_per_player;
    setup.rules = rules;
    if (auto error = setup.validate()) return std::unexpected(*error);
    return setup;
}

std::optional<Error> GameSetup::validate() const {
    bool ok
        = (sets_per_player == 1 && (players == 2 || players == 3 || players == 4 || players == 6))
        || (players == 2 && (sets_per_player == 2 || sets_per_player == 3))
        || (players == 3 && sets_per_player == 2);
    if (!ok)
        return Error { std::to_string(players) + (players == 1 ? " player with " : " players with ")
            + std::to_string(sets_per_player) + (sets_per_player == 1 ? " set" : " sets")
            + " each is not a setup; choose 2, 3, 4 or 6 players with one set, 2 players "
              "with 2 or 3 sets, "
              "or 3 players with 2 sets" };
    if (rules.unused == Unused::kFilled && unused_triangles(sets()) == 0)
        return Error { "unused=filled needs unused triangles, and with "
            + std::to_string(players * sets_per_player)
            + " sets every triangle is a start or a home" };
    if (move_limit < 0) return Error { "the move limit cannot be negative" };
    if (stall_limit < 0) return Error { "the stall limit cannot be negative" };
    return std::nullopt;
}

SetMask GameSetup::sets() const {
    switch (players * sets_per_player) {
    case 2:
        return mask_of(0) | mask_of(3);
    case 3:
        return mask_of(0) | mask_of(2) | mask_of(4);
    case 4:
        return mask_of(0) | mask_of(1) | mask_of(3) | mask_of(4);
    default:
        return 0x3f;
    }
}

int GameSetup::owner(SetId s) const {
    int index = 0;
    for (SetId t = 0; t < s; ++t) index += has_set(sets(), t);
    return index % players;
}

std::vector<SetId> GameSetup::sets_of(int player) const {
    std::vector<SetId> result;
    for (SetId s = 0; s < kSetNB; ++s)
        if (has_set(sets(), s) && owner(s) == player) result.push_back(s);
    return result;
}

SetId GameSetup::first_mover(SetId black, std::uint64_t coin) const {
    if (rules.first == FirstMover::kBlack) return black;
    std::vector<SetId> in_game;
    for (SetId s = 0; s < kSetNB; ++s)
        if (has_set(sets(), s)) in_game.push_back(s);
    return in_game[coin % in_game.size()];
}

Game::Game(GameSetup setup, SetId first)
    : setup_(std::move(setup))
    , first_(first)
    , position_(Position::start(setup_.sets(), first, setup_.rules.unused == Unused::kFilled))
    , moves_made_(static_cast<std::size_t>(setup_.players), 0)
    , finished_after_(static_cast<std::size_t>(setup_.players)) {
    for (int p = 0; p < setup_.players; ++p) best_distance_.push_back(distance_left(p));
}

Result<Game> Game::from_position(GameSetup setup, const Position& pos) {
    if (auto error = setup.validate()) return std::unexpected(*error);
    if (pos.sets_present() != setup.sets())
        return fail("the position's sets do not match a game of " + std::to_string(setup.players)
            + " players with " + std::to_string(setup.sets_per_player) + " set(s) each");
    Game game(setup, pos.side_to_move());
    game.position_ = pos;
    game.resumed_from_ = std::make_shared<const Position>(pos);
    // A bare position says nothing of the moves before it: it is taken as part way through a
    // round that set 1 (black) began, so the sets before the one to move have moved once more.
    // A set that has just finished then leaves the others their moves to complete the round
    // (it ended the game at once, taking everyone's moves as equal).
    for (SetId s = 0; s < kSetNB && s != pos.side_to_move(); ++s)
        if (has_set(setup.sets(), s)) ++game.moves_made_[static_cast<std::size_t>(setup.owner(s))];
    for (int p = 0; p < setup.players; ++p)
        game.best_distance_[static_cast<std::size_t>(p)] = game.distance_left(p);
    game.after_move(); // a set may already be home
    if (game.set_finished(game.set_to_move()) && !game.over())
        game.position_.set_side_to_move(game.position_.next_in_turn(game.set_to_move()));
    return game;
}

bool Game::home_complete(SetId s) const {
    Bitboard home = triangle_cells(home_of(s));
    Bitboard own = position_.marbles(s) & home;
    if (own == position_.marbles(s)) return true;
    // spoil=occupied: a home filled to the last hole counts, whoever fills the rest.
    return setup_.rules.spoil == Spoil::kOccupied && own && (position_.occupied() & home) == home;
}

Result<std::vector<PlayedMove>> Game::play(std::string_view text) {
    if (text == "pass") return play(Move::pass());
    auto path = parse_path(text);
    if (!path) return std::unexpected(path.error());
    if (over()) return fail("the game is over");
    auto move = legal_move_along(position_, setup_.rules, *path);
    if (!move) return std::unexpected(move.error());
    return play(*move);
}

Result<std::vector<PlayedMove>> Game::play(Move m) {
    if (over()) return fail("the game is over");
    if (auto error = explain_illegal(position_, setup_.rules, m)) return std::unexpected(*error);

    std::vector<PlayedMove> played;
    auto record = [&](Move move, bool automatic) {
        PlayedMove p { move, set_to_move(), player_to_move(), automatic,
            move_path(position_, setup_.rules, move) };
        position_.make(move);
        ++moves_made_[static_cast<std::size_t>(p.player)];
        if (!automatic) note_progress(p.player);
        history_.push_back(p);
        played.push_back(std::move(p));
        after_move();
    };
    record(m, false);
    // A finished set of a player still playing keeps its turns, and passes them: each player
    // then makes the same number of moves a round, which the ranking compares.
    while (!over() && set_finished(set_to_move())) record(Move::pass(), true);
    return played;
}

Result<Game> Game::taken_back(std::size_t count) const {
    if (count == 0 || count > history_.size())
        return fail("cannot take back " + std::to_string(count) + " moves of a game of "
            + std::to_string(history_.size()));
    const std::size_t kept = history_.size() - count;
    if (history_[kept].automatic)
        return fail("the first move taken back is an automatic pass, not a player's move");
    // Step 1: the game as it began (a resumed one from its position, counters and all).
    Game game = resumed_from_ ? *from_position(setup_, *resumed_from_) : Game(setup_, first_);
    // Step 2: the players' moves that stand, played again; play() adds the passes between them.
    for (std::size_t i = 0; i < kept; ++i) {
        if (history_[i].automatic) continue;
        auto played = game.play(history_[i].move);
        assert(played && "a move of the game's own history is illegal on replay");
        (void)played;
    }
    assert(game.history_.size() == kept);
    return game;
}

void Game::after_move() {
    for (SetId s = 0; s < kSetNB; ++s) {
        if (!has_set(setup_.sets(), s) || set_finished(s) || !home_complete(s)) continue;
        finished_sets_ |= mask_of(s);
        int player = setup_.owner(s);
        auto sets = setup_.sets_of(player);
        bool all = std::all_of(sets.begin(), sets.end(), [&](SetId t) { return set_finished(t); });
        if (!all) continue;
        finished_after_[static_cast<std::size_t>(player)]
            = moves_made_[static_cast<std::size_t>(player)];
        for (SetId t : sets) position_.retire(t);
    }
    update_over();
}

void Game::note_progress(int player) {
    auto up = static_cast<std::size_t>(player);
    int distance = distance_left(player);
    if (distance < best_distance_[up]) {
        best_distance_[up] = distance;
        moves_without_progress_ = 0;
    } else {
        ++moves_without_progress_;
    }
}

void Game::update_over() {
    int unfinished = 0, fewest_made = 0;
    bool first = true;
    std::optional<int> latest_finish;
    for (int p = 0; p < setup_.players; ++p) {
        auto up = static_cast<std::size_t>(p);
        if (finished_after_[up]) {
            latest_finish = std::max(latest_finish.value_or(0), *finished_after_[up]);
            continue;
        }
        ++unfinished;
        fewest_made = first ? moves_made_[up] : std::min(fewest_made, moves_made_[up]);
        first = false;
    }
    if (unfinished == 0) {
        end_ = GameEnd::kAllHome;
        return;
    }
    if (setup_.move_limit && fewest_made >= setup_.move_limit) {
        end_ = GameEnd::kMoveLimit;
        return;
    }
    if (setup_.stall_limit && moves_without_progress_ >= setup_.stall_limit * unfinished) {
        end_ = GameEnd::kStalled;
        return;
    }
    // A deadlock nobody can undo ends now, not after the stall limit's hundreds of passes.
    if (setup_.end_when_stuck && !set_finished(set_to_move()) && nobody_can_move()) {
        end_ = GameEnd::kStalled;
        return;
    }
    // When a player finishes, the round is completed so that everyone has made as many moves;
    // whoever finishes in it ties. Then either the game ends or play goes on for more places.
    if (!latest_finish || fewest_made < *latest_finish) return;
    if (!setup_.play_all_places || unfinished <= 1) end_ = GameEnd::kPlacesDecided;
}

bool Game::nobody_can_move() const {
    MoveList list;
    generate_moves(position_, setup_.rules, list); // the set to move first: mostly it can
    if (list.size != 1 || !list.moves[0].is_pass()) return false;
    Position other = position_;
    for (SetId s = 0; s < kSetNB; ++s) {
        if (!has_set(setup_.sets(), s) || set_finished(s) || s == set_to_move()) continue;
        other.set_side_to_move(s);
        generate_moves(other, setup_.rules, list);
        if (list.size != 1 || !list.moves[0].is_pass()) return false;
    }
    return true;
}

int Game::distance_left(int player) const {
    int total = 0;
    for (SetId s : setup_.sets_of(player)) {
        int sum = 0;
        for (Bitboard b = position_.marbles(s); b;) sum += distance_to_home(s, b.pop_first());
        total += set_finished(s) ? 0 : sum - kHomeDistanceFloor;
    }
    return total;
}

std::vector<Standing> Game::standings() const {
    std::vector<Standing> list;
    for (int p = 0; p < setup_.players; ++p) {
        auto up = static_cast<std::size_t>(p);
        Standing s;
        s.player = p;
        s.finished = finished_after_[up].has_value();
        s.moves = finished_after_[up].value_or(moves_made_[up]);
        s.distance_left = distance_left(p);
        list.push_back(s);
    }
    // Finished players first, by moves needed; then the rest by distance left.
    auto key = [](const Standing& s) {
        return std::pair { s.finished ? 0 : 1, s.finished ? s.moves : s.distance_left };
    };
    std::stable_sort(list.begin(), list.end(),
        [&](const Standing& a, const Standing& b) { return key(a) < key(b); });
    // Places: finished players are placed as they finish (ties share); the unfinished get places
    // only when the game is over, ranked by distance left.
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].finished && !over()) continue;
        bool tie = i > 0 && key(list[i]) == key(list[i - 1]);
        list[i].place = tie ? list[i - 1].place : static_cast<int>(i) + 1;
    }
    return list;
}

} // namespace halma::engine
