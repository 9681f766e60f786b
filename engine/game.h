// A whole game: who plays which sets, whose turn it is, the moves so far, who has finished,
// and the ranking with draws. The room in the daemon owns one; the bots and tests play them.
#pragma once

#include "movegen.h"
#include "position.h"
#include "result.h"
#include "rules.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace halma::engine {

// How the game is set up: the room's mode.
struct GameSetup {
    int players = 2;
    int sets_per_player = 1;
    Rules rules;
    // Play on after the first place is decided, for the other places.
    bool play_all_places = true;
    // A game still running after this many moves by each player ends; the unfinished are
    // ranked by distance left. 0: no limit.
    int move_limit = 1000;
    // A game in which no player still playing has got nearer home than ever before during
    // this many moves each ends the same way: a deadlock (a set walled into its start by the
    // marbles that need its holes) or players who only shuffle. 0: never.
    int stall_limit = 100;
    // A game in which no set still playing has a move but to pass ends at once, the same way
    // (a pass changes nothing). Games begun before this rule (their logs and records hold the
    // passes that followed) are replayed without it.
    bool end_when_stuck = true;

    // Checks the combination: 2, 3, 4 or 6 players with one set each, 2 players with 2 or 3
    // sets, 3 players with 2 sets.
    static Result<GameSetup> make(int players, int sets_per_player, Rules rules);
    std::optional<Error> validate() const;

    // The triangles in use: 2 sets {1,4}, 3 {1,3,5}, 4 {1,2,4,5}, 6 all.
    SetMask sets() const;
    // Seats are numbered 0.. clockwise; sets are dealt to them in turn, clockwise from set 1,
    // so a player's sets alternate with the others' (2x3: 1,3,5 and 2,4,6).
    int owner(SetId s) const;
    std::vector<SetId> sets_of(int player) const;

    // The set that moves first: `black` (the set the room gave black) with first=black, or
    // one of the sets in the game chosen by `coin` (any random number) with first=coin.
    SetId first_mover(SetId black, std::uint64_t coin) const;
};

// One move as played, with the hop path a front end animates.
struct PlayedMove {
    Move move;
    SetId set = kNoSet;
    int player = -1;
    bool automatic = false; // a pass the game made for a set that has already finished
    std::vector<Cell> path;
};

// Why a game ended.
enum class GameEnd : std::uint8_t {
    kNotOver,
    kAllHome, // every player finished
    kPlacesDecided, // the first place (play_all_places off) or all but the last were decided
    kMoveLimit, // GameSetup::move_limit
    kStalled, // GameSetup::stall_limit, or at once when nobody still playing can move
};

struct Standing {
    int player = 0;
    int place = 0; // 1 = first; players who tie share a place; 0 = not decided yet
    bool finished = false;
    int moves = 0; // moves made; for a finished player, the moves it needed
    int distance_left = 0; // total distance of its marbles from home (0 = all home)
};

class Game {
public:
    // `first` is the set that moves first: the one given black, or the winner of a coin toss.
    Game(GameSetup setup, SetId first);
    // A game resumed from a position (an endgame study, a test): the sets on the board must be
    // the setup's, each player counted as having made no moves yet.
    static Result<Game> from_position(GameSetup setup, const Position& pos);

    const GameSetup& setup() const { return setup_; }
    const Position& position() const { return position_; }
    const std::vector<PlayedMove>& history() const { return history_; }

    SetId set_to_move() const { return position_.side_to_move(); }
    int player_to_move() const { return setup_.owner(set_to_move()); }
    bool over() const { return end_ != GameEnd::kNotOver; }
    GameEnd end() const { return end_; }

    // The game with its last `count` moves (entries of history(), automatic passes included)
    // taken back, replayed from its start so that every counter is as it was then: the take-back
    // a room agrees to. The first move taken back must be one a player made (not an automatic
    // pass): the passes that follow a move go with it. Refused for a count past the history.
    Result<Game> taken_back(std::size_t count) const;

    // Plays a move for the player to move; on error nothing changes. Returns the moves made,
    // the player's own and any automatic passes that follow it.
    Result<std::vector<PlayedMove>> play(Move m);
    // As above, from text: "o1-m7", a full path, or "pass" when there is no legal move.
    Result<std::vector<PlayedMove>> play(std::string_view text);

    void legal_moves(MoveList& list) const { generate_moves(position_, setup_.rules, list); }

    bool set_finished(SetId s) const { return has_set(finished_sets_, s); }
    // Distance still to go for the player's marbles: the "who is in the lead" metric.
    int distance_left(int player) const;
    // Every player, best first: the finished by moves needed, then the rest by distance left.
    std::vector<Standing> standings() const;

private:
    bool home_complete(SetId s) const;
    // Whether no set still playing has a move but to pass: a pass changes nothing, so nobody
    // can ever move again.
    bool nobody_can_move() const;
    void after_move();
    void note_progress(int player);
    void update_over();

    GameSetup setup_;
    SetId first_ = 0; // the set that moved first: a take-back replays from the start
    // from_position's position, to replay from. Shared and never changed, so a copy of the game
    // costs a pointer: a Position is about 2 KB, and every room holds a game.
    std::shared_ptr<const Position> resumed_from_;
    Position position_;
    std::vector<PlayedMove> history_;
    std::vector<int> moves_made_;
    std::vector<std::optional<int>> finished_after_; // per player: moves it needed
    std::vector<int> best_distance_; // per player: the least distance left so far
    int moves_without_progress_ = 0; // by unfinished players, since one improved its best
    SetMask finished_sets_ = 0;
    GameEnd end_ = GameEnd::kNotOver;
};

} // namespace halma::engine
