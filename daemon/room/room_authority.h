// The host's side of a room: the only place that decides. It checks who may do what (seat
// tokens), asks the engine whether a move is legal, and turns everything it accepts into the
// room's next events, which the network edge then sends to every replica.
#pragma once

#include "daemon/room/clean_text.h"
#include "daemon/room/game_recording.h"
#include "daemon/room/retried_commands.h"
#include "daemon/room/room_action.h"
#include "daemon/room/room_state.h"
#include "engine/result.h"

#include <chrono>
#include <deque>
#include <expected>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace halma::daemon {

struct AuthorityOptions {
    // How long a vanished player's seat is kept for it.
    std::chrono::milliseconds hold { 120'000 };
    // After the host's restart, a seat is kept at least this long: a player's daemon may notice
    // the restart only once it has heard nothing for its peer timeout, and rejoins after that.
    // With a hold shorter than that, every player lost the seat (and a vote) to the restart.
    std::chrono::milliseconds restart_hold { 0 };
    // Whether this daemon can put computer players in seats, and how well they play unless
    // the one who adds them says otherwise.
    bool bots_available = false;
    BotLevel default_bot_level = BotLevel::kHard;
};

struct SeatTicket {
    MemberId member = kNoMember;
    int seat = kNoSeat;
    std::string token;
    bool rejoined = false; // the token's member was still held, seat and all
};

template <class T> using Outcome = std::expected<T, Refusal>;

class RoomAuthority {
public:
    RoomAuthority(RoomConfig config, AuthorityOptions options, std::uint64_t seed);
    // The room a host had before it stopped, from what it kept: its config, every event it
    // accepted (replayed as a replica would) and the seat token of each member that had one.
    // Tokens of members no longer in the room are ignored (they left after the tokens were
    // last written). A vanished member's seat is held afresh from `now`. Seats kept for
    // vanished players (kept_seats()) are kept again where a computer still plays them for
    // that player. No event is made.
    static engine::Result<RoomAuthority> restore(RoomConfig config, AuthorityOptions options,
        std::uint64_t seed, const std::vector<RoomEvent>& log,
        const std::map<MemberId, std::string>& tokens, const Now& now,
        const std::map<int, KeptSeat>& kept_seats = {});

    const RoomState& state() const { return state_; }
    // Each member's seat token (bots have none): what a host keeps to restore the room.
    const std::map<MemberId, std::string>& tokens() const { return token_of_; }
    // By seat, the seats computers keep for vanished players: kept by the host as tokens are.
    const std::map<int, KeptSeat>& kept_seats() const { return kept_seats_; }
    // Entries it keeps about members (tokens, holds, chat budgets, answers): while members come
    // and go this follows the members there are, not those there were (a bound, for tests).
    std::size_t member_entries() const {
        return token_of_.size() + held_until_.size() + cut_off_by_restart_.size()
            + chat_spent_until_.size() + retried_.members();
    }

    // A new member (a seat if one is free, unless spectating) or, with a token still held, the
    // same member back in its seat.
    Outcome<SeatTicket> join(
        std::string_view name, std::string_view token, bool spectate, const Now& now);
    // The member a token stands for; kNoMember if none.
    MemberId member_of(std::string_view token) const;
    // Whether the token is a member's, or a vanished player's whose seat a computer keeps.
    bool knows_token(std::string_view token) const;
    // `command_id` (may be empty) names the command across retries: a member's command seen
    // again among its last kRememberedCommands is answered as the first time, not done twice;
    // another action under an id used before is refused (retried_commands.h).
    std::optional<Refusal> act(std::string_view token, const Action& action, const Now& now,
        std::string_view command_id = {});
    static constexpr std::size_t kRememberedCommands = RetriedCommands::kKept;
    // Member ids are 32 bits and never reused: a standing room where strangers come and go
    // for months could run through them, and a wrapped id would hand a newcomer a seated
    // player's. People and bots join while ids are at most kLastJoinable; the rest is kept for
    // the computers that stand in for players gone (stand_in), which cannot be refused.
    static constexpr MemberId kLastJoinable = std::numeric_limits<MemberId>::max() - 4096;
    // A computer's move: a bot's (bots hold no token: they live in this daemon), or one made
    // for a person whose turn ran past the room's turn limit (computer_to_move()).
    std::optional<Refusal> bot_move(MemberId bot, engine::Move move, const Now& now);
    // Gives up to `count` free seats to computer players; how many it gave.
    Outcome<int> add_bots(int count, std::optional<BotLevel> level, const Now& now);
    // The bot whose turn it is, if any.
    MemberId bot_to_move() const;
    // Who a computer must move for now: the bot whose turn it is, or the person whose turn ran
    // past the room's turn limit; kNoMember if nobody.
    MemberId computer_to_move() const;
    // How well the computer plays for `member`: a bot's own level; for a person out of time,
    // the room's (its bots', else the daemon's default).
    BotLevel level_for(MemberId member) const;
    // When the turn of the person to move runs out (the room's turn limit); nullopt with no
    // limit, no game, or a computer to move.
    std::optional<std::chrono::steady_clock::time_point> turn_due() const { return turn_.due; }

    // Until when a gone member's seat is held for them (then a computer keeps it); nullopt for a
    // member who is not gone, or not held.
    std::optional<std::chrono::steady_clock::time_point> held_until(MemberId member) const {
        auto it = held_until_.find(member);
        return it == held_until_.end() ? std::nullopt : std::optional(it->second);
    }
    // Every gone member's hold, by member.
    const std::map<MemberId, std::chrono::steady_clock::time_point>& holds() const {
        return held_until_;
    }

    // The network edge reports a member's daemon lost or back; a lost seat is held for a while.
    void set_connected(MemberId member, bool connected, const Now& now);
    // After the host restarted, every member but `keep` (its own player) and the bots has lost
    // its daemon: each connected one is marked gone and its seat held until it rejoins.
    void lose_remote_members(MemberId keep, const Now& now);
    // Ends the room for good: RoomClosed, after which nothing is accepted. A game still being
    // played is recorded as it stood ("room closed"), so nothing played is lost.
    void close(const Now& now);

    // Events accepted since the last call, in order, for the network edge to send out.
    // After a restore at start-up: what a version before this one left to its players, done
    // now (a set with no move but to pass, which they had to type, passes). Its events are
    // taken as any others.
    void catch_up(const Now& now);
    std::vector<RoomEvent> take_events();
    // The games that ended (or were left for a new one) since the last call, as records
    // (game_recording.h), for the host to keep before their moves leave the room's log.
    std::vector<engine::GameRecord> take_finished_games();

    // The next hold to run out, or the next game of a room of computer players only.
    std::optional<std::chrono::steady_clock::time_point> next_deadline() const;
    void tick(const Now& now);
    // When a room where only computer players sit starts its next game by itself (its last one
    // ended and nobody there can vote); nullopt when no such start is due.
    std::optional<std::chrono::steady_clock::time_point> next_game_at() const {
        return next_game_at_;
    }
    // Whether `bot` stands in for a person gone mid-game, and if so whether the seat is kept for
    // them (their hold ran out: their token takes it back) or is the next newcomer's (they left).
    enum class StandInFor { kNobody, kPersonGone, kPersonWhoLeft };
    StandInFor stands_in_for(MemberId bot) const;

private:
    bool closed() const { return state_.phase() == Phase::kClosed; }
    void hold(MemberId id, const Now& now);
    std::optional<Refusal> act_as(MemberId id, const Action& action, const Now& now);
    std::optional<Refusal> move(const Member& m, std::string_view text, const Now& now);
    std::optional<Refusal> vote(const Member& m, VoteKind kind, const Now& now);
    std::optional<Refusal> start(const Member& m, const action::Start& start, const Now& now);
    // Why `m` may not vote to take back a move now (take_back.cpp); nullopt if they may. Asking
    // counts against the member's allowance (kTakeBackGap), so that is noted when it is not
    // refused.
    std::optional<Refusal> take_back_refusal(const Member& m, const Now& now);
    // The take-back asked for, once every person present agreed to it (`agreed`): its event.
    void settle_take_back(bool agreed, const Now& now);
    void emit(EventBody body, const Now& now);
    // Plays the pass of a set that has no other move (after a move made the turn its).
    void pass_if_forced(const Now& now);
    void remove_member(MemberId id, bool timed_out, const Now& now);
    // Starts a game or cancels one when the seats and votes now allow it.
    void settle(const Now& now);
    void start_game(const Now& now);
    // Every seat is taken, and only by computer players.
    bool bots_only() const;
    // Sets or clears next_game_at_ as the room now stands (after every event).
    void plan_next_game(const Now& now);
    // Starts the turn limit's clock when a person's turn begins (after every event); a chat line
    // or a vote in the middle of the turn leaves it running.
    void plan_turn(const Now& now);
    bool someone_vanished() const;
    std::string unique_name(std::string_view wanted) const;
    // A seated person gone mid-game: a computer player takes the seat so the game goes on.
    void stand_in(int seat, MemberId gone, std::string token, const Now& now);
    // The person a computer stands in for takes the seat back (or, for a seat whose player
    // left for good, a newcomer takes it over: `rejoined` false): the bot leaves and `id` joins
    // in its place.
    SeatTicket take_back(
        int seat, MemberId id, std::string name, std::string token, bool rejoined, const Now& now);
    // The player a computer keeps `seat` for left for good: the seat is the next newcomer's.
    void open_kept_seat(int seat, const Now& now);
    BotLevel room_bot_level() const;

    RoomState state_;
    AuthorityOptions options_;
    std::mt19937_64 rng_;
    MemberId next_member_ = 1;
    // The next id, for a join (false: ids are used up) or for a stand-in (up to the last).
    std::optional<MemberId> take_member_id(bool joining);
    Refusal ids_used_up() const;
    std::unordered_map<std::string, MemberId> member_by_token_;
    std::map<MemberId, std::string> token_of_;
    std::map<MemberId, std::chrono::steady_clock::time_point> held_until_;
    // Members the host's restart cut off, until they rejoin or their hold runs out: they count
    // as present for votes, as the restart was not their doing. Counted gone, one player's
    // pending new-game vote carried when that player's daemon rejoined a millisecond first.
    std::set<MemberId> cut_off_by_restart_;
    // Each member's chat allowance: kChatBurst lines at once, then one per kChatRefill (a
    // token bucket: `spent_until` is when it is full again).
    std::map<MemberId, std::chrono::steady_clock::time_point> chat_spent_until_;
    // When each member may next ask to take back a move: a take-back replays the game from its
    // start (a few ms for a long one), and one asked over and over against computers, who agree
    // at once, would have the host replaying games all day.
    std::map<MemberId, std::chrono::steady_clock::time_point> take_back_allowed_at_;
    // Seats a computer plays for a person gone mid-game. A person
    // whose hold ran out keeps its token here and may take the seat back with it; the seat of
    // one who left for good (no token) goes to the next newcomer. A restarted host makes the
    // first kind again from kept_seats_, the second from the log (seat_open).
    struct StandIn {
        MemberId bot = kNoMember;
        MemberId gone = kNoMember;
        std::string name;
        std::string token;
    };
    std::map<int, StandIn> stand_ins_; // by seat
    // The stand-ins that hold a token, as the host keeps them (in step with stand_ins_): the
    // host compares them at every event, so they are kept, not made at each call.
    std::map<int, KeptSeat> kept_seats_;
    RetriedCommands retried_; // each member's latest command ids and their answers
    std::vector<RoomEvent> pending_;
    std::vector<engine::GameRecord> finished_;
    std::optional<std::chrono::steady_clock::time_point> next_game_at_;
    // The turn the limit is timing: which person, at which move of which game, and when it runs
    // out; `overdue` once it has (a computer is then asked to move for them).
    struct TurnClock {
        MemberId member = kNoMember;
        int game_number = 0;
        std::size_t ply = 0;
        std::optional<std::chrono::steady_clock::time_point> due;
        bool overdue = false;
    };
    TurnClock turn_;
};

// A player's join of a room its daemon is in already, asking to play where it watches or to
// watch where it plays: why it is refused, and how to get what was asked (a front end's join;
// the authority's own rejoin does not look at `spectate`, as a daemon's rejoin after a drop
// asks for what it had). nullopt when the member is what it asks to be.
std::optional<std::string> role_change_refusal(const RoomState& state, MemberId me, bool spectate);

} // namespace halma::daemon
