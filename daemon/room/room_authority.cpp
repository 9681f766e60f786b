#include "daemon/room/room_authority.h"

#include "engine/movegen.h"
#include "engine/notation.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <limits>

namespace halma::daemon {

namespace {

constexpr std::size_t kMaxChat = kMaxChatText;
// Chat per member: a burst of lines, then one a second. The room keeps kChatWindow lines
// whatever the rate; the limit keeps a spectator from pushing everyone's chat out of it at once.
constexpr int kChatBurst = 10;
constexpr std::chrono::milliseconds kChatRefill { 1000 };

Refusal refuse(Refusal::Code code, std::string message) {
    return Refusal { code, std::move(message) };
}

std::string seat_name(const RoomState& state, int seat) {
    auto* m = state.member(state.seat_holder(seat));
    return m ? m->name : "seat " + std::to_string(seat + 1);
}

// A hold as a Connection event says it (a day at most: the wire's field is 32 bits).
std::uint32_t hold_ms(std::chrono::milliseconds hold) {
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(hold.count(), 0, 86'400'000));
}

} // namespace

RoomAuthority::RoomAuthority(RoomConfig config, AuthorityOptions options, std::uint64_t seed)
    : state_(std::move(config))
    , options_(options)
    , rng_(seed) { }

engine::Result<RoomAuthority> RoomAuthority::restore(RoomConfig config, AuthorityOptions options,
    std::uint64_t seed, const std::vector<RoomEvent>& log,
    const std::map<MemberId, std::string>& tokens, const Now& now,
    const std::map<int, KeptSeat>& kept_seats) {
    RoomAuthority room(std::move(config), options, seed);
    for (const RoomEvent& e : log) {
        if (auto error = room.state_.replay(e))
            return engine::fail("event " + std::to_string(e.seq) + ": " + *error);
        // Member ids are never reused, also those of members who have left since.
        if (auto* joined = std::get_if<event::MemberJoined>(&e.body))
            room.next_member_ = std::max(room.next_member_,
                joined->member == std::numeric_limits<MemberId>::max() ? joined->member
                                                                       : joined->member + 1);
    }
    for (const auto& [id, token] : tokens) {
        const Member* m = room.state_.member(id);
        if (!m || m->bot || token.empty()) continue;
        if (!room.member_by_token_.emplace(token, id).second)
            return engine::fail("two members hold the same seat token");
        room.token_of_[id] = token;
    }
    for (const auto& [id, m] : room.state_.members())
        if (!m.bot && !m.connected) room.hold(id, now);
    // A seat whose player left for good is still the next newcomer's (the log says which).
    for (const auto& [id, m] : room.state_.members())
        if (m.seat != kNoSeat && m.seat_open)
            room.stand_ins_[m.seat] = StandIn { id, kNoMember, {}, {} };
    // One kept for a player who vanished is theirs again, where a computer still plays it and
    // the player is not back some other way (files written around a failed write may name a
    // seat taken back since, or a token the room now knows).
    for (const auto& [seat, kept] : kept_seats) {
        if (seat < 0 || seat >= room.state_.seats()) continue;
        const Member* holder = room.state_.member(room.state_.seat_holder(seat));
        if (!holder || !holder->bot || holder->seat_open || room.stand_ins_.contains(seat)
            || room.state_.member(kept.gone) || kept.token.empty() || room.knows_token(kept.token))
            continue;
        // The name the player had, if the room still knows it (it keeps a few of those who
        // left); else the one they come back with.
        std::string name
            = room.state_.knows_name_of(kept.gone) ? room.state_.name_of(kept.gone) : std::string();
        room.stand_ins_[seat] = StandIn { holder->id, kept.gone, std::move(name), kept.token };
        room.kept_seats_[seat] = kept;
    }
    room.plan_next_game(now); // a pause cut short by the restart starts afresh
    room.plan_turn(now); // and so does the turn of whoever is to move
    return room;
}

void RoomAuthority::emit(EventBody body, const Now& now) {
    RoomEvent e { state_.seq() + 1, now.wall_ms, std::move(body) };
    // A game still being played when the next starts (every player voted for a new one) is
    // recorded as it stood, ending as the next starts (not at its last move, which may be long
    // before the vote that ended it); a game that ended was recorded when it did.
    if (std::holds_alternative<event::GameStarted>(e.body) && state_.phase() == Phase::kPlaying)
        finished_.push_back(record_of(state_, "restarted", e.time_ms));
    bool was_ended = state_.game() && game_ended(state_);
    // An event the host's own room refuses is a bug: in a release build too it is neither
    // logged nor sent (a replica would refuse it, and the log would not load again).
    if (auto error = state_.apply(e)) {
        assert(false && "the host made an event its own room refuses");
        return;
    }
    if (!was_ended && state_.game() && game_ended(state_)) finished_.push_back(record_of(state_));
    bool moved = std::holds_alternative<event::MovePlayed>(e.body);
    pending_.push_back(std::move(e));
    plan_next_game(now);
    plan_turn(now);
    if (moved) pass_if_forced(now);
}

void RoomAuthority::catch_up(const Now& now) {
    pass_if_forced(now);
}

void RoomAuthority::pass_if_forced(const Now& now) {
    // A set with no move but to pass forfeits its turn at once (rules.md): a person with nothing
    // to do was left to find that out and type "pass", turn after turn. Bounded: when no set
    // still playing can move, the game ends (Game's deadlock rule) instead of passing round.
    if (state_.phase() != Phase::kPlaying) return;
    engine::MoveList list;
    state_.game()->legal_moves(list);
    if (list.size != 1 || !list.moves[0].is_pass()) return;
    // A pass the player did not make leaves them as they were: one away (their time ran out)
    // stays away (by_computer keeps it so, in every version's replay), one there stays there.
    int seat = state_.seat_to_move();
    const Member* m = state_.member(state_.seat_holder(seat));
    emit(event::MovePlayed { seat, engine::Move::pass(), {}, m && m->away }, now);
}

std::vector<engine::GameRecord> RoomAuthority::take_finished_games() {
    std::vector<engine::GameRecord> out;
    out.swap(finished_);
    return out;
}

std::vector<RoomEvent> RoomAuthority::take_events() {
    std::vector<RoomEvent> out;
    out.swap(pending_);
    return out;
}

std::optional<Refusal> RoomAuthority::act(
    std::string_view token, const Action& action, const Now& now, std::string_view command_id) {
    MemberId id = member_of(token);
    // A player whose seat a computer keeps (gone past the hold) may still leave: the seat then
    // goes to the next newcomer. Their daemon owed the host this leave (it was asked while the
    // host was out of reach), and the seat was otherwise kept for good.
    if (id == kNoMember && std::holds_alternative<action::Leave>(action))
        for (const auto& [seat, kept] : kept_seats_)
            if (kept.token == token) {
                open_kept_seat(seat, now);
                return std::nullopt;
            }
    if (id == kNoMember)
        return refuse(Refusal::Code::kNotAllowed,
            "that seat token is not valid in room " + state_.config().name);
    if (closed())
        return refuse(
            Refusal::Code::kBadRequest, "room " + state_.config().name + " has been closed");
    if (command_id.empty()) return act_as(id, action, now);
    // A retry (the answer to the first send was lost or late) must not move or chat twice.
    if (auto again = retried_.answer_again(id, command_id, action)) return *again;
    auto refusal = act_as(id, action, now);
    if (member_of(token) == kNoMember)
        return refusal; // it left: its token acts no more, nothing to remember
    retried_.remember(id, command_id, action, refusal);
    return refusal;
}

std::optional<Refusal> RoomAuthority::act_as(MemberId id, const Action& action, const Now& now) {
    const Member* m = state_.member(id);
    if (!m) return refuse(Refusal::Code::kNotAllowed, "not a member of this room");
    if (auto* mv = std::get_if<action::Move>(&action)) return move(*m, mv->text, now);
    if (auto* chat = std::get_if<action::Chat>(&action)) {
        // Blank is nothing to say too (it showed an empty "bob:" line to everyone).
        if (chat->text.find_first_not_of(" \t\r\n") == std::string::npos)
            return refuse(Refusal::Code::kBadRequest, "nothing to say");
        if (chat->text.size() > kMaxChat)
            return refuse(Refusal::Code::kBadRequest,
                "a chat line is at most " + std::to_string(kMaxChat) + " bytes");
        auto& full_at = chat_spent_until_[id];
        full_at = std::max(full_at, now.steady) + kChatRefill;
        if (full_at - now.steady > kChatBurst * kChatRefill) {
            full_at -= kChatRefill; // a refused line costs nothing
            return refuse(Refusal::Code::kBadRequest,
                "too much chat: at most " + std::to_string(kChatBurst)
                    + " lines at once, then one a second");
        }
        emit(event::Chat { id, sanitize_text(chat->text) }, now);
        return std::nullopt;
    }
    if (auto* v = std::get_if<action::Vote>(&action)) return vote(*m, v->kind, now);
    if (std::holds_alternative<action::Leave>(action)) {
        remove_member(id, false, now);
        settle(now);
        return std::nullopt;
    }
    return start(*m, std::get<action::Start>(action), now);
}

std::optional<Refusal> RoomAuthority::move(const Member& m, std::string_view text, const Now& now) {
    if (m.seat == kNoSeat) return refuse(Refusal::Code::kNotAllowed, "spectators cannot move");
    switch (state_.phase()) {
    case Phase::kWaiting:
        return refuse(Refusal::Code::kBadRequest,
            "the game has not started: waiting for " + std::to_string(state_.free_seats())
                + " more player(s)");
    case Phase::kOver:
        return refuse(Refusal::Code::kBadRequest, "the game is over");
    case Phase::kCancelled:
        return refuse(Refusal::Code::kBadRequest, "the game was cancelled");
    case Phase::kClosed:
        return refuse(Refusal::Code::kBadRequest, "the room has been closed");
    case Phase::kPlaying:
        break;
    }
    int to_move = state_.seat_to_move();
    if (m.seat != to_move)
        return refuse(Refusal::Code::kNotYourTurn,
            "not your turn: it is " + seat_name(state_, to_move) + "'s turn (seat "
                + std::to_string(to_move + 1) + ")");
    const engine::Game& game = *state_.game();
    const auto& rules = game.setup().rules;
    engine::Move chosen = engine::Move::pass();
    if (text == "pass") {
        if (auto error = engine::explain_illegal(game.position(), rules, chosen))
            return refuse(Refusal::Code::kIllegalMove, error->message);
    } else {
        auto path = engine::parse_path(text);
        if (!path) return refuse(Refusal::Code::kIllegalMove, path.error().message);
        auto legal = engine::legal_move_along(game.position(), rules, *path);
        if (!legal) return refuse(Refusal::Code::kIllegalMove, legal.error().message);
        chosen = *legal;
    }
    std::vector<engine::Cell> path;
    if (!chosen.is_pass()) path = engine::move_path(game.position(), rules, chosen);
    bool was_away = m.away; // `m` is the room's: the move below changes it
    emit(event::MovePlayed { m.seat, chosen, std::move(path) }, now);
    // Back from away: the votes are looked at now, not at the next unrelated event (a cancel
    // voted long before carried when someone else's time ran out).
    if (was_away) settle(now);
    return std::nullopt;
}

std::optional<Refusal> RoomAuthority::bot_move(MemberId bot, engine::Move move, const Now& now) {
    const Member* m = state_.member(bot);
    bool for_person = m && !m->bot && bot == computer_to_move();
    if (!m || (!m->bot && !for_person))
        return refuse(Refusal::Code::kNotAllowed, "not a bot of this room");
    if (state_.phase() != Phase::kPlaying || state_.seat_to_move() != m->seat)
        return refuse(Refusal::Code::kNotYourTurn, "the bot's turn has passed");
    const engine::Game& game = *state_.game();
    if (auto error = engine::explain_illegal(game.position(), game.setup().rules, move))
        return refuse(Refusal::Code::kIllegalMove, error->message);
    std::vector<engine::Cell> path;
    if (!move.is_pass()) path = engine::move_path(game.position(), game.setup().rules, move);
    emit(event::MovePlayed { m->seat, move, std::move(path), for_person }, now);
    // One who ran out of time no longer holds up the votes of those present.
    if (for_person) settle(now);
    return std::nullopt;
}

MemberId RoomAuthority::bot_to_move() const {
    int seat = state_.seat_to_move();
    if (seat == kNoSeat) return kNoMember;
    const Member* m = state_.member(state_.seat_holder(seat));
    return m && m->bot ? m->id : kNoMember;
}

bool RoomAuthority::someone_vanished() const {
    for (int s = 0; s < state_.seats(); ++s) {
        const Member* m = state_.member(state_.seat_holder(s));
        if (!m || !m->connected || m->away) return true;
    }
    return false;
}

std::optional<Refusal> RoomAuthority::vote(const Member& m, VoteKind kind, const Now& now) {
    if (m.seat == kNoSeat) return refuse(Refusal::Code::kNotAllowed, "spectators do not vote");
    if (kind == VoteKind::kNewGame && state_.game_number() == 0)
        return refuse(Refusal::Code::kBadRequest,
            "no game yet: the first one starts when every seat is taken");
    if (kind == VoteKind::kLeader && state_.phase() != Phase::kPlaying)
        return refuse(Refusal::Code::kBadRequest,
            "no game is being played: hiding who is in the lead is voted on during a game");
    if (kind == VoteKind::kTakeBack)
        if (auto refusal = take_back_refusal(m, now)) return refusal;
    if (kind == VoteKind::kCancel) {
        if (state_.phase() != Phase::kPlaying)
            return refuse(Refusal::Code::kBadRequest, "no game is being played");
        if (!someone_vanished()) {
            // A computer standing in is no one missing: the game goes on (it said "every player
            // is still here", of a player who was gone).
            bool stand_in = !stand_ins_.empty();
            return refuse(Refusal::Code::kBadRequest,
                stand_in ? "nobody is missing: a computer plays the seat of the player who went, "
                           "so the game goes on (a game is cancelled only while a seat waits for "
                           "its player)"
                         : "every player is still here: a game is cancelled only when a player "
                           "has vanished or let a turn run out");
        }
    }
    if (!state_.votes(kind).count(m.id)) emit(event::VoteCast { m.id, kind }, now);
    settle(now);
    return std::nullopt;
}

std::optional<Refusal> RoomAuthority::start(
    const Member& m, const action::Start& request, const Now& now) {
    if (m.seat == kNoSeat)
        return refuse(Refusal::Code::kNotAllowed, "spectators cannot start the game");
    // After the first game, a seat left free (its player gone past the hold once the game was
    // over) would hold up the next game for good: everyone voted and nothing started. Start
    // puts computers there, as it does before the first game; the votes then start it.
    if (state_.free_seats() == 0)
        return refuse(Refusal::Code::kBadRequest,
            state_.phase() == Phase::kPlaying
                ? "the game has started already; to start another, vote for a new game"
                : state_.game_number() != 0 ? "the room has had its first game; vote for a new one"
                                            : "every seat is taken already");
    auto added = add_bots(state_.free_seats(), request.level, now);
    if (!added) return added.error();
    return std::nullopt;
}

Outcome<int> RoomAuthority::add_bots(int count, std::optional<BotLevel> level, const Now& now) {
    if (closed())
        return std::unexpected(refuse(
            Refusal::Code::kBadRequest, "room " + state_.config().name + " has been closed"));
    if (!options_.bots_available)
        return std::unexpected(refuse(Refusal::Code::kBadRequest,
            "this halmad has no computer players: the game starts when every seat is taken"));
    BotLevel chosen = level.value_or(options_.default_bot_level);
    int added = 0;
    for (int seat; added < count && (seat = state_.first_free_seat()) != kNoSeat; ++added) {
        auto id = take_member_id(true);
        if (!id) {
            if (added == 0) return std::unexpected(ids_used_up());
            break;
        }
        emit(event::MemberJoined { *id, unique_name("bot"), seat, true, chosen }, now);
    }
    settle(now);
    return added;
}

void RoomAuthority::remove_member(MemberId id, bool timed_out, const Now& now) {
    const Member* m = state_.member(id);
    int seat = m && !m->bot ? m->seat : kNoSeat;
    emit(event::MemberLeft { id, timed_out }, now);
    retried_.forget(id);
    std::string token;
    if (auto it = token_of_.find(id); it != token_of_.end()) {
        token = it->second;
        member_by_token_.erase(it->second);
        token_of_.erase(it);
    }
    held_until_.erase(id);
    cut_off_by_restart_.erase(id);
    chat_spent_until_.erase(id);
    take_back_allowed_at_.erase(id);
    // Only a player whose daemon vanished may come back for the seat: one who chose to leave
    // has said so.
    if (seat != kNoSeat && state_.phase() == Phase::kPlaying)
        stand_in(seat, id, timed_out ? token : std::string(), now);
}

void RoomAuthority::hold(MemberId id, const Now& now) {
    held_until_[id] = now.steady + options_.hold;
}

void RoomAuthority::set_connected(MemberId id, bool connected, const Now& now) {
    const Member* m = state_.member(id);
    if (closed() || !m || m->bot || m->connected == connected) return;
    emit(event::Connection { id, connected, connected ? 0 : hold_ms(options_.hold) }, now);
    cut_off_by_restart_.erase(id); // back, or gone on its own account
    if (connected)
        held_until_.erase(id);
    else
        hold(id, now);
    settle(now);
}

void RoomAuthority::lose_remote_members(MemberId keep, const Now& now) {
    if (closed()) return;
    std::vector<MemberId> lost;
    for (const auto& [id, m] : state_.members())
        if (id != keep && !m.bot && m.connected) lost.push_back(id);
    // No settle(): the host's restart is nobody's choice, so it must not decide anything (old
    // cancel votes of those still here would otherwise cancel the game). What happens next,
    // a rejoin or a hold running out, settles as usual.
    for (MemberId id : lost) {
        auto hold = std::max(options_.hold, options_.restart_hold);
        emit(event::Connection { id, false, hold_ms(hold) }, now);
        held_until_[id] = now.steady + hold;
        cut_off_by_restart_.insert(id);
    }
}

void RoomAuthority::close(const Now& now) {
    if (closed()) return;
    bool playing = state_.phase() == Phase::kPlaying;
    emit(event::RoomClosed {}, now);
    // Recorded after RoomClosed, so that the record's end is the close (records.md).
    if (playing) finished_.push_back(record_of(state_, "room closed"));
    held_until_.clear();
}

std::optional<std::chrono::steady_clock::time_point> RoomAuthority::next_deadline() const {
    std::optional<std::chrono::steady_clock::time_point> next = next_game_at_;
    if (turn_.due && !turn_.overdue && (!next || *turn_.due < *next)) next = turn_.due;
    for (const auto& [id, until] : held_until_)
        if (!next || until < *next) next = until;
    return next;
}

void RoomAuthority::tick(const Now& now) {
    std::vector<MemberId> expired;
    for (const auto& [id, until] : held_until_)
        if (until <= now.steady) expired.push_back(id);
    for (MemberId id : expired) remove_member(id, true, now);
    if (!expired.empty()) settle(now);
    // Nobody in the seats can vote: the next game starts by itself once the pause is over.
    if (next_game_at_ && *next_game_at_ <= now.steady) start_game(now);
    // The person to move ran out of time: a computer moves for them (the host asks its bots).
    if (turn_.due && *turn_.due <= now.steady) turn_.overdue = true;
}

std::optional<std::string> role_change_refusal(const RoomState& state, MemberId me, bool spectate) {
    const Member* m = state.member(me);
    if (!m) return std::nullopt;
    const std::string& room = state.config().name;
    if (spectate && m->seat != kNoSeat)
        return "you hold seat " + std::to_string(m->seat + 1) + " in room " + room
            + ": to watch it instead, leave it (halma leave) and join again as a spectator";
    if (!spectate && m->seat == kNoSeat)
        return "you are watching room " + room
            + ": to take a seat, leave it (halma leave) and join again"
            + (state.seats_taken() == state.seats() ? " (no seat is free now)" : "");
    return std::nullopt;
}

} // namespace halma::daemon
