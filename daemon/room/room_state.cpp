#include "daemon/room/room_state.h"

#include "daemon/room/room_fold.h"
#include "engine/notation.h"

#include <algorithm>

namespace halma::daemon {

namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };

// A log is folded when it reaches twice its last folded size, and never below this: folding
// costs a pass over the log, so it happens once per that many events.
constexpr std::size_t kFoldAtLeast = 512;

// Names of members who left that a room still knows (RoomState::names_).
constexpr std::size_t kDepartedNamesKept = 32;

} // namespace

engine::GameSetup RoomMode::setup() const {
    engine::GameSetup s;
    s.players = players;
    s.sets_per_player = sets_per_player;
    s.rules = rules;
    s.move_limit = move_limit;
    return s;
}

std::optional<std::string> RoomMode::invalid() const {
    if (auto error = setup().validate()) return error->message;
    if (move_limit < 1 || move_limit > kMaxMoveLimit)
        return "a move limit is 1 to " + std::to_string(kMaxMoveLimit) + " moves per player";
    if (next_game_ms < 1 || next_game_ms > kMaxNextGameMs)
        return "the pause before a bots-only room's next game is 1 to "
            + std::to_string(kMaxNextGameMs) + " ms";
    if (turn_limit_s < 0 || turn_limit_s > kMaxTurnLimitS)
        return "a turn limit is 1 to " + std::to_string(kMaxTurnLimitS)
            + " seconds (a day), or 0 for none";
    return std::nullopt;
}

std::optional<BotLevel> parse_bot_level(std::string_view name) {
    if (name == "easy") return BotLevel::kEasy;
    if (name == "hard") return BotLevel::kHard;
    if (name == "max") return BotLevel::kMax;
    return std::nullopt;
}

std::string_view bot_level_name(BotLevel level) {
    switch (level) {
    case BotLevel::kEasy:
        return "easy";
    case BotLevel::kHard:
        return "hard";
    case BotLevel::kMax:
        return "max";
    }
    return "hard";
}

Now Now::current() {
    using namespace std::chrono;
    return Now { steady_clock::now(),
        duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() };
}

RoomState::RoomState(RoomConfig config)
    : config_(std::move(config))
    , seat_holder_(static_cast<std::size_t>(std::max(config_.mode.players, 0)), kNoMember)
    , played_for_(seat_holder_.size())
    , leader_hidden_(config_.mode.hide_leader) { }

const Member* RoomState::member(MemberId id) const {
    auto it = members_.find(id);
    return it == members_.end() ? nullptr : &it->second;
}

std::string RoomState::name_of(MemberId id) const {
    auto it = names_.find(id);
    return it == names_.end() ? "member " + std::to_string(id) : it->second;
}

const std::vector<Member>& RoomState::played_for(int seat) const {
    static const std::vector<Member> none;
    auto s = static_cast<std::size_t>(seat);
    return s < played_for_.size() ? played_for_[s] : none;
}

std::string RoomState::player_name(int seat) const {
    // The people who moved for the seat first, then the computers that stood in for them, each
    // name once: "kid / bot for kid". It named them in the order they first moved, and a winner
    // whose laptop slept through one move was "bot for kid / kid".
    std::vector<std::string> people, computers;
    for (const Member& m : played_for(seat)) {
        auto& list = m.bot ? computers : people;
        if (std::find(list.begin(), list.end(), m.name) == list.end()) list.push_back(m.name);
    }
    std::string names;
    for (const auto* list : { &people, &computers })
        for (const auto& name : *list) names += (names.empty() ? "" : " / ") + name;
    if (!names.empty()) return names;
    auto s = static_cast<std::size_t>(seat);
    MemberId holder = s < seat_holder_.size() ? seat_holder_[s] : kNoMember;
    return holder == kNoMember ? std::string() : name_of(holder);
}

int RoomState::free_seats() const {
    return static_cast<int>(std::count(seat_holder_.begin(), seat_holder_.end(), kNoMember));
}

int RoomState::seats_taken() const {
    return seats() - free_seats()
        - static_cast<int>(std::count_if(members_.begin(), members_.end(),
            [](const auto& m) { return m.second.seat != kNoSeat && m.second.seat_open; }));
}

int RoomState::first_free_seat() const {
    auto it = std::find(seat_holder_.begin(), seat_holder_.end(), kNoMember);
    return it == seat_holder_.end() ? kNoSeat : static_cast<int>(it - seat_holder_.begin());
}

int RoomState::spectators() const {
    return static_cast<int>(std::count_if(
        members_.begin(), members_.end(), [](const auto& m) { return m.second.seat == kNoSeat; }));
}

Phase RoomState::phase() const {
    if (closed_) return Phase::kClosed;
    if (!game_) return Phase::kWaiting;
    if (cancelled_) return Phase::kCancelled;
    return game_->over() ? Phase::kOver : Phase::kPlaying;
}

int RoomState::player_of_seat(int seat) const {
    if (seat < 0 || static_cast<std::size_t>(seat) >= seat_player_.size()) return -1;
    return seat_player_[static_cast<std::size_t>(seat)];
}

int RoomState::seat_of_player(int player) const {
    auto it = std::find(seat_player_.begin(), seat_player_.end(), player);
    return it == seat_player_.end() ? kNoSeat : static_cast<int>(it - seat_player_.begin());
}

int RoomState::seat_to_move() const {
    if (phase() != Phase::kPlaying) return kNoSeat;
    return seat_of_player(game_->player_to_move());
}

int RoomState::leader_seat() const {
    if (!game_) return kNoSeat;
    auto standings = game_->standings();
    if (standings.empty()) return kNoSeat;
    // Nobody leads a tie (every game starts as one).
    auto rank = [](const engine::Standing& s) {
        return std::pair { !s.finished, s.finished ? s.moves : s.distance_left };
    };
    if (standings.size() > 1 && rank(standings[0]) == rank(standings[1])) return kNoSeat;
    return seat_of_player(standings.front().player);
}

std::optional<std::size_t> RoomState::last_own_move(MemberId member) const {
    if (phase() != Phase::kPlaying || member == kNoMember) return std::nullopt;
    for (std::size_t i = own_moves_.size(); i-- > 0;)
        if (own_moves_[i] == member) return i;
    return std::nullopt;
}

std::vector<std::size_t> RoomState::moves_made_for(MemberId member) const {
    std::vector<std::size_t> made;
    const Member* m = this->member(member);
    if (!m || !m->away || m->bot || !game_) return made;
    const auto& history = game_->history();
    for (std::size_t i = own_moves_.size(); i-- > 0;) {
        if (own_moves_[i] == member) break;
        const auto& played = history[i];
        if (!played.automatic && !played.move.is_pass() && seat_of_player(played.player) == m->seat)
            made.push_back(i);
    }
    std::reverse(made.begin(), made.end());
    return made;
}

void RoomState::clear_take_back() {
    votes_[static_cast<std::size_t>(VoteKind::kTakeBack)].clear();
    take_back_asker_ = kNoMember;
}

std::optional<std::string> RoomState::apply(const RoomEvent& e) {
    return apply_event(e, false);
}

std::optional<std::string> RoomState::replay(const RoomEvent& e) {
    return apply_event(e, true);
}

std::optional<std::string> RoomState::apply_event(const RoomEvent& e, bool folded) {
    if (folded ? e.seq <= seq() : e.seq != seq() + 1)
        return "event " + std::to_string(e.seq) + " arrived where " + std::to_string(seq() + 1)
            + " was due";
    if (closed_) return "the room is closed";
    // Who moves for a seat: the holder, listed once a game (a move neither seats nor removes
    // anyone, so the member is still there after it; copied only on its first move).
    const auto* moved = std::get_if<event::MovePlayed>(&e.body);
    if (auto error = apply_body(e.body, e.seq, e.time_ms, folded)) return error;
    if (moved && moved->seat >= 0 && moved->seat < seats()) {
        const Member* m = member(seat_holder(moved->seat));
        if (m) {
            auto& who = played_for_[static_cast<std::size_t>(moved->seat)];
            if (std::none_of(
                    who.begin(), who.end(), [&](const Member& w) { return w.id == m->id; }))
                who.push_back(*m);
        }
        for (const auto& played : last_played_)
            credited_.push_back(m && !played.automatic ? m->id : kNoMember);
    }
    if (std::holds_alternative<event::MovesTakenBack>(e.body) && game_) {
        // Whoever no move left credits is no longer one who played the seat (a player who
        // moved once, took it back and left was named in the game's record beside the computer
        // that played all of it).
        const auto& history = game_->history();
        credited_.resize(history.size());
        for (int s = 0; s < seats(); ++s) {
            auto& who = played_for_[static_cast<std::size_t>(s)];
            std::erase_if(who, [&](const Member& w) {
                for (std::size_t i = 0; i < history.size(); ++i)
                    if (credited_[i] == w.id && seat_of_player(history[i].player) == s)
                        return false;
                return true;
            });
        }
    }
    if (std::holds_alternative<event::GameStarted>(e.body)) {
        played_for_.assign(static_cast<std::size_t>(seats()), {});
        credited_.clear();
    }
    seq_ = e.seq;
    log_.push_back(e);
    // A new game folds the log at once: the game before it is a record now (the host keeps it
    // apart, game_recording.h), so the room's log starts again from the new game and a room that
    // stands for months holds one game, the chat window and its members, however many were played.
    const auto* started = std::get_if<event::GameStarted>(&e.body);
    bool game_changed = started && game_number_ > 1 && !folded;
    if (game_changed || log_.size() >= std::max(fold_at_, kFoldAtLeast)) {
        log_ = fold_log(log_, game_changed ? 0 : kRecentEvents);
        fold_at_ = 2 * log_.size();
        ++folds_;
    }
    return std::nullopt;
}

std::optional<std::string> RoomState::apply_body(
    const EventBody& body, std::uint64_t seq, std::int64_t time_ms, bool folded) {
    auto seat_ok = [&](int seat) { return seat >= 0 && seat < seats(); };
    return std::visit(
        Overloaded {
            [&](const event::MemberJoined& e) -> std::optional<std::string> {
                if (e.member == kNoMember || members_.count(e.member))
                    return "member id already in use";
                if (e.seat != kNoSeat && (!seat_ok(e.seat) || seat_holder(e.seat) != kNoMember))
                    return "seat " + std::to_string(e.seat) + " is not free";
                if (e.seat == kNoSeat && spectators() >= kMaxSpectators)
                    return "a spectator past the " + std::to_string(kMaxSpectators)
                        + " a room holds";
                members_[e.member]
                    = Member { e.member, e.name, e.seat, e.bot, e.bot_level, true, e.seat_open };
                names_[e.member] = e.name;
                // One who takes a seat back comes back under its own id: not a leaver now.
                std::erase(departed_, e.member);
                if (e.seat != kNoSeat) seat_holder_[static_cast<std::size_t>(e.seat)] = e.member;
                return std::nullopt;
            },
            [&](const event::MemberLeft& e) -> std::optional<std::string> {
                auto it = members_.find(e.member);
                if (it == members_.end()) return "no such member";
                if (it->second.seat != kNoSeat)
                    seat_holder_[static_cast<std::size_t>(it->second.seat)] = kNoMember;
                for (auto& v : votes_) v.erase(e.member);
                if (e.member == take_back_asker_) clear_take_back();
                members_.erase(it);
                departed_.push_back(e.member);
                if (departed_.size() > kDepartedNamesKept) {
                    if (!members_.count(departed_.front())) names_.erase(departed_.front());
                    departed_.pop_front();
                }
                return std::nullopt;
            },
            [&](const event::Connection& e) -> std::optional<std::string> {
                auto it = members_.find(e.member);
                if (it == members_.end()) return "no such member";
                it->second.connected = e.connected;
                return std::nullopt;
            },
            [&](const event::Chat& e) -> std::optional<std::string> {
                auto* m = member(e.member);
                if (!m) return "no such member";
                chat_.push_back(ChatLine { seq, time_ms, m->name, e.text });
                if (chat_.size() > kChatWindow) chat_.erase(chat_.begin());
                return std::nullopt;
            },
            [&](const event::GameStarted& e) -> std::optional<std::string> {
                if (folded ? e.game_number <= game_number_ : e.game_number != game_number_ + 1)
                    return "game " + std::to_string(e.game_number) + " started where game "
                        + std::to_string(game_number_ + 1) + " was due";
                // Every seat plays one engine player and every player has a seat.
                auto order = e.seat_player;
                std::sort(order.begin(), order.end());
                bool one_each = order.size() == static_cast<std::size_t>(seats());
                for (std::size_t i = 0; one_each && i < order.size(); ++i)
                    one_each = order[i] == static_cast<int>(i);
                if (!one_each)
                    return "the seats' players are not one each of 0.."
                        + std::to_string(seats() - 1);
                auto setup = config_.mode.setup();
                if (auto error = setup.validate()) return error->message;
                if (e.first_set >= engine::kSetNB || !engine::has_set(setup.sets(), e.first_set))
                    return "the first set is not in play";
                setup.end_when_stuck = e.end_when_stuck;
                game_.emplace(setup, e.first_set);
                game_number_ = e.game_number;
                seat_player_ = e.seat_player;
                cancelled_ = false;
                leader_hidden_ = config_.mode.hide_leader;
                // A computer standing in keeps the seat open to a newcomer, game after game
                // (RoomAuthority::start_game keeps its stand-ins likewise).
                for (auto& v : votes_) v.clear();
                take_back_asker_ = kNoMember;
                for (auto& [id, m] : members_) m.away = false;
                last_played_.clear();
                move_names_.clear();
                own_moves_.clear();
                last_take_back_ = {};
                return std::nullopt;
            },
            [&](const event::MovePlayed& e) -> std::optional<std::string> {
                if (phase() != Phase::kPlaying) return "no game is being played";
                if (e.seat != seat_to_move()) return "a move for a seat not to move";
                auto played = game_->play(e.move);
                if (!played) return played.error().message;
                last_played_ = std::move(*played);
                MemberId mover
                    = e.by_computer || e.move.is_pass() ? kNoMember : seat_holder(e.seat);
                for (const auto& m : last_played_) {
                    move_names_.push_back(m.move.is_pass() ? "pass" : engine::path_name(m.path));
                    own_moves_.push_back(m.automatic ? kNoMember : mover);
                }
                // A take-back asked for before this move would take back more than was asked.
                clear_take_back();
                // The seat's person is away while a computer moves for them, back once they
                // move themselves.
                if (auto it = members_.find(seat_holder(e.seat)); it != members_.end())
                    it->second.away = e.by_computer && !it->second.bot;
                return std::nullopt;
            },
            [&](const event::VoteCast& e) -> std::optional<std::string> {
                if (!members_.count(e.member)) return "no such member";
                auto& votes = votes_[static_cast<std::size_t>(e.kind)];
                if (e.kind == VoteKind::kTakeBack && votes.empty()) take_back_asker_ = e.member;
                votes.insert(e.member);
                return std::nullopt;
            },
            [&](const event::GameCancelled&) -> std::optional<std::string> {
                if (phase() != Phase::kPlaying) return "no game to cancel";
                cancelled_ = true;
                for (auto& v : votes_) v.clear();
                take_back_asker_ = kNoMember;
                return std::nullopt;
            },
            [&](const event::RoomClosed&) -> std::optional<std::string> {
                closed_ = true;
                return std::nullopt;
            },
            [&](const event::LeaderDisplay& e) -> std::optional<std::string> {
                if (phase() != Phase::kPlaying) return "no game is being played";
                leader_hidden_ = e.hidden;
                votes_[static_cast<std::size_t>(VoteKind::kLeader)].clear();
                return std::nullopt;
            },
            [&](const event::MovesTakenBack& e) -> std::optional<std::string> {
                if (phase() != Phase::kPlaying) return "no game is being played";
                std::size_t moves = game_->history().size();
                if (e.count < 1 || e.count > moves)
                    return "a take-back of " + std::to_string(e.count) + " moves in a game of "
                        + std::to_string(moves);
                auto back = game_->taken_back(e.count);
                if (!back) return back.error().message;
                last_take_back_ = { take_back_asker_, {} };
                for (std::size_t i = back->history().size(); i < moves; ++i) {
                    const auto& m = game_->history()[i];
                    last_take_back_.moves.push_back(
                        { seat_of_player(m.player), move_names_[i], m.automatic });
                }
                game_ = std::move(*back);
                move_names_.resize(game_->history().size());
                own_moves_.resize(game_->history().size());
                last_played_.clear();
                clear_take_back();
                return std::nullopt;
            },
        },
        body);
}

} // namespace halma::daemon
