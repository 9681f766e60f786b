// A room as everyone sees it: members, seats, chat, votes and the game, changed only by applying
// the room's events in order. The host's room and every replica are this same class, which is
// what keeps a replica identical to its host.
#pragma once

#include "daemon/room/room_event.h"
#include "daemon/room/room_types.h"
#include "engine/game.h"

#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace halma::daemon {

struct Member {
    MemberId id = kNoMember;
    std::string name;
    int seat = kNoSeat;
    bool bot = false;
    BotLevel bot_level = BotLevel::kHard; // bots only
    bool connected = true;
    bool seat_open = false; // a stand-in a newcomer may replace (event::MemberJoined)
    // A person whose last turn ran past the room's turn limit (a computer moved for them), and
    // who has not moved since in this game: votes do not wait for them.
    bool away = false;
};

// The last take-back of this game: who asked, and the moves it took back (seat, move as text;
// the asker's first), so that it can be told after the game forgot them.
struct TakeBack {
    MemberId asker = kNoMember;
    struct Move {
        int seat = kNoSeat;
        std::string name; // "o1-m7", or "pass"
        bool automatic = false;
    };
    std::vector<Move> moves;
};

struct ChatLine {
    std::uint64_t seq = 0;
    std::int64_t time_ms = 0;
    std::string name;
    std::string text;
};

class RoomState {
public:
    explicit RoomState(RoomConfig config);

    const RoomConfig& config() const { return config_; }
    const std::string& id() const { return config_.room_id; }
    std::uint64_t seq() const { return seq_; }
    // The room's log, folded (room_fold.h): replaying it rebuilds this room. Between folds it
    // grows to at most twice its folded size (and kFoldAtLeast events); a new game folds it at
    // once, so the games before it leave only the recent tail behind.
    const std::vector<RoomEvent>& log() const { return log_; }
    // How many times the log was folded: a host rewrites its copy on disk when this changes.
    std::uint64_t folds() const { return folds_; }

    // Applies the event that comes next (seq() + 1). An error means it does not fit this room:
    // for a replica, a sign it is out of step and needs a fresh snapshot. Nothing changes then.
    // Nothing follows RoomClosed.
    std::optional<std::string> apply(const RoomEvent& e);
    // Applies an event of a folded log (a snapshot, a host's file): seqs may jump ahead, and so
    // may game numbers (the games before were folded away).
    std::optional<std::string> replay(const RoomEvent& e);

    const std::map<MemberId, Member>& members() const { return members_; }
    const Member* member(MemberId id) const;
    // The name a member had, even after it left (for telling the room's story).
    std::string name_of(MemberId id) const;
    // How many names it knows: the members' and the last few who left (a bound, for tests).
    std::size_t names_known() const { return names_.size(); }
    bool knows_name_of(MemberId id) const { return names_.contains(id); }
    int seats() const { return config_.mode.players; }
    MemberId seat_holder(int seat) const { return seat_holder_[static_cast<std::size_t>(seat)]; }
    // Who played the seat in this game, each who made a move for it, in turn ("ann / bot for
    // ann"), or its holder before anyone moved: standings, winners and records credit them, not
    // whoever holds it when the game ends (a stand-in that never moved, a newcomer in the pause).
    std::string player_name(int seat) const;
    // The members who moved for the seat in this game, in turn (empty before anyone did).
    const std::vector<Member>& played_for(int seat) const;
    int free_seats() const;
    // Seats a newcomer cannot have: what room lists and adverts show as taken. A computer
    // standing in for a player who left counts as free, as the next newcomer takes it over.
    int seats_taken() const;
    int first_free_seat() const; // kNoSeat when full
    int spectators() const;

    Phase phase() const;
    const engine::Game* game() const { return game_ ? &*game_ : nullptr; }
    int game_number() const { return game_number_; }
    int player_of_seat(int seat) const;
    int seat_of_player(int player) const;
    int seat_to_move() const; // kNoSeat unless a game is being played
    // The seat ahead of all others (finished first, else least distance left); kNoSeat when
    // the best are tied or there is no game.
    int leader_seat() const;
    // Whether views leave the leader out now: the room's setting, turned by a LeaderDisplay.
    bool leader_hidden() const { return leader_hidden_; }

    const std::vector<ChatLine>& chat() const { return chat_; }
    const std::set<MemberId>& votes(VoteKind kind) const {
        return votes_[static_cast<std::size_t>(kind)];
    }
    // Who asked to take back their last move (the first VOTE_KIND_TAKE_BACK since the last move),
    // kNoMember if nobody; the other take-back votes agree to it.
    MemberId take_back_asker() const { return take_back_asker_; }
    // The index in the game's history of the member's last own move in this game being played (a
    // move they chose, not a pass, not one a computer made for them): what a take-back they ask
    // for goes back to. nullopt if none, or no game is being played.
    std::optional<std::size_t> last_own_move(MemberId member) const;
    // While the member is away (their turn ran out): the moves a computer made for them since
    // their own last move, as indices in the game's history, oldest first; empty otherwise.
    // What a returning player needs to be told: they were not there to see them.
    std::vector<std::size_t> moves_made_for(MemberId member) const;
    // The last take-back of this game (empty moves: none yet).
    const TakeBack& last_take_back() const { return last_take_back_; }
    // The moves the last MovePlayed made (the player's own, then any automatic passes).
    const std::vector<engine::PlayedMove>& last_played() const { return last_played_; }
    // This game's moves as text (full paths, "pass"), one per entry of the game's history:
    // named once as they are played, so a view (which lists them all) formats none again.
    const std::vector<std::string>& move_names() const { return move_names_; }

private:
    // Every take-back vote goes, and with it who asked (a move, a take-back, the asker leaving).
    void clear_take_back();
    std::optional<std::string> apply_event(const RoomEvent& e, bool folded);
    std::optional<std::string> apply_body(
        const EventBody& body, std::uint64_t seq, std::int64_t time_ms, bool folded);

    RoomConfig config_;
    std::uint64_t seq_ = 0;
    std::vector<RoomEvent> log_;
    std::size_t fold_at_ = 0;
    std::uint64_t folds_ = 0;
    std::map<MemberId, Member> members_;
    // Names of the members, and of the last kDepartedNamesKept to leave (an event about one
    // who left is told after it: "bob left"). It kept every name ever, so each join grew a
    // room that stands for months, past any bound.
    std::map<MemberId, std::string> names_;
    std::deque<MemberId> departed_;
    std::vector<MemberId> seat_holder_;
    std::vector<std::vector<Member>> played_for_; // per seat, this game's movers (as they were)
    // Per entry of the game's history: the member it credits (the seat's holder when it was
    // played; kNoMember for automatic passes), so a take-back also takes back the credit of one
    // whose every move it took back.
    std::vector<MemberId> credited_;
    std::optional<engine::Game> game_;
    int game_number_ = 0;
    std::vector<int> seat_player_;
    bool cancelled_ = false;
    bool closed_ = false;
    std::vector<ChatLine> chat_;
    std::array<std::set<MemberId>, kVoteKindNB> votes_;
    MemberId take_back_asker_ = kNoMember;
    // Per entry of the game's history: the member whose own move it was (kNoMember for passes,
    // automatic or not, and for moves a computer made for a person out of time).
    std::vector<MemberId> own_moves_;
    TakeBack last_take_back_;
    bool leader_hidden_ = false;
    std::vector<engine::PlayedMove> last_played_;
    std::vector<std::string> move_names_;
};

} // namespace halma::daemon
