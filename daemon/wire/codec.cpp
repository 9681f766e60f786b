#include "daemon/wire/codec.h"

#include "daemon/room/clean_text.h"
#include "engine/notation.h"

#include <algorithm>

namespace halma::daemon::wire {

namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };

constexpr std::size_t kChatLinesShown = 50;
// Room ids (32 hex digits from a host) and friends codes are short.
constexpr std::size_t kMaxIdText = 64;
// A folded room's log besides its current game's moves (room_fold.cpp: about 1,300), with room
// to spare: a snapshot with more comes from no honest host.
constexpr std::size_t kMaxFoldedEvents = 2'000;

pb::MoveKind to_proto(engine::Move::Kind kind) {
    switch (kind) {
    case engine::Move::kNormal:
        return pb::MOVE_KIND_NORMAL;
    case engine::Move::kSwap:
        return pb::MOVE_KIND_SWAP;
    case engine::Move::kPass:
        return pb::MOVE_KIND_PASS;
    }
    return pb::MOVE_KIND_NORMAL;
}

engine::Result<engine::Cell> cell_from_proto(std::uint32_t c) {
    if (c >= engine::kCellNB)
        return engine::fail("hole " + std::to_string(c) + " is off the board");
    return static_cast<engine::Cell>(c);
}

} // namespace

pb::VoteKind to_proto(VoteKind kind) {
    switch (kind) {
    case VoteKind::kNewGame:
        return pb::VOTE_KIND_NEW_GAME;
    case VoteKind::kCancel:
        return pb::VOTE_KIND_CANCEL;
    case VoteKind::kLeader:
        return pb::VOTE_KIND_LEADER;
    case VoteKind::kTakeBack:
        return pb::VOTE_KIND_TAKE_BACK;
    }
    return pb::VOTE_KIND_NEW_GAME;
}

VoteKind vote_kind_from_proto(pb::VoteKind kind) {
    if (kind == pb::VOTE_KIND_CANCEL) return VoteKind::kCancel;
    if (kind == pb::VOTE_KIND_LEADER) return VoteKind::kLeader;
    if (kind == pb::VOTE_KIND_TAKE_BACK) return VoteKind::kTakeBack;
    return VoteKind::kNewGame;
}

pb::Phase to_proto(Phase phase) {
    switch (phase) {
    case Phase::kWaiting:
        return pb::PHASE_WAITING;
    case Phase::kPlaying:
        return pb::PHASE_PLAYING;
    case Phase::kOver:
        return pb::PHASE_OVER;
    case Phase::kCancelled:
        return pb::PHASE_CANCELLED;
    case Phase::kClosed:
        return pb::PHASE_CLOSED;
    }
    return pb::PHASE_WAITING;
}

void to_proto(const RoomMode& mode, pb::RoomMode* out) {
    out->set_players(static_cast<std::uint32_t>(mode.players));
    out->set_sets_per_player(static_cast<std::uint32_t>(mode.sets_per_player));
    out->set_rules(mode.rules.to_string());
    out->set_move_limit(static_cast<std::uint32_t>(mode.move_limit));
    out->set_hide_leader(mode.hide_leader);
    out->set_next_game_ms(static_cast<std::uint32_t>(mode.next_game_ms));
    out->set_turn_limit_s(static_cast<std::uint32_t>(mode.turn_limit_s));
}

engine::Result<RoomMode> mode_from_proto(const pb::RoomMode& in) {
    RoomMode mode;
    mode.players = in.players() ? static_cast<int>(std::min(in.players(), 64u)) : 2;
    mode.sets_per_player
        = in.sets_per_player() ? static_cast<int>(std::min(in.sets_per_player(), 64u)) : 1;
    auto rules = engine::Rules::parse(in.rules());
    if (!rules) return std::unexpected(rules.error());
    mode.rules = *rules;
    // 0 asks for the default; anything past the maximum is refused, never quietly changed, so
    // a replica always has exactly the host's limit.
    mode.move_limit = in.move_limit() ? static_cast<int>(std::min<std::uint32_t>(
                          in.move_limit(), static_cast<std::uint32_t>(kMaxMoveLimit) + 1))
                                      : kDefaultMoveLimit;
    mode.hide_leader = in.hide_leader();
    mode.next_game_ms = in.next_game_ms() ? static_cast<int>(std::min<std::uint32_t>(
                            in.next_game_ms(), static_cast<std::uint32_t>(kMaxNextGameMs) + 1))
                                          : kDefaultNextGameMs;
    mode.turn_limit_s = static_cast<int>(
        std::min<std::uint32_t>(in.turn_limit_s(), static_cast<std::uint32_t>(kMaxTurnLimitS) + 1));
    if (auto why = mode.invalid()) return engine::fail(*why);
    return mode;
}

void to_proto(const RoomConfig& config, pb::RoomConfig* out) {
    out->set_room_id(config.room_id);
    out->set_name(config.name);
    out->set_visibility(
        config.visibility == Visibility::kFriends ? pb::VISIBILITY_FRIENDS : pb::VISIBILITY_PUBLIC);
    out->set_code(config.code);
    to_proto(config.mode, out->mutable_mode());
    if (config.bots) out->set_bots(static_cast<std::uint32_t>(*config.bots));
}

bool plain_id(std::string_view text) {
    return !text.empty() && text.size() <= kMaxIdText
        && text.find_first_not_of(
               "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-")
        == std::string_view::npos;
}

engine::Result<RoomConfig> config_from_proto(const pb::RoomConfig& in) {
    auto mode = mode_from_proto(in.mode());
    if (!mode) return std::unexpected(mode.error());
    // Read from a host (or a file) that may not be ours: held to what a host makes.
    if (!plain_id(in.room_id()))
        return engine::fail("a room id of other than letters and digits, or over 64 bytes");
    if (in.code().size() > kMaxIdText) return engine::fail("a room code over 64 bytes");
    // A count past the room's seats is no setup a host makes: taken as unknown.
    std::optional<int> bots;
    if (in.has_bots() && in.bots() <= static_cast<std::uint32_t>(mode->players))
        bots = static_cast<int>(in.bots());
    return RoomConfig { in.room_id(), sanitize_text(in.name(), kMaxRoomName),
        in.visibility() == pb::VISIBILITY_FRIENDS ? Visibility::kFriends : Visibility::kPublic,
        sanitize_text(in.code()), *mode, bots };
}

void to_proto(const RoomEvent& e, pb::RoomEvent* out) {
    out->set_seq(e.seq);
    out->set_time_ms(e.time_ms);
    std::visit(
        Overloaded {
            [&](const event::MemberJoined& b) {
                auto* m = out->mutable_joined();
                m->set_member(b.member);
                m->set_name(b.name);
                m->set_seat(b.seat);
                m->set_bot(b.bot);
                if (b.bot) m->set_bot_level(std::string(bot_level_name(b.bot_level)));
                m->set_seat_open(b.seat_open);
            },
            [&](const event::MemberLeft& b) {
                out->mutable_left()->set_member(b.member);
                out->mutable_left()->set_timed_out(b.timed_out);
            },
            [&](const event::Connection& b) {
                out->mutable_connection()->set_member(b.member);
                out->mutable_connection()->set_connected(b.connected);
                out->mutable_connection()->set_hold_ms(b.hold_ms);
            },
            [&](const event::Chat& b) {
                out->mutable_chat()->set_member(b.member);
                out->mutable_chat()->set_text(b.text);
            },
            [&](const event::GameStarted& b) {
                auto* m = out->mutable_started();
                m->set_game_number(static_cast<std::uint32_t>(b.game_number));
                m->set_first_set(b.first_set);
                for (int p : b.seat_player) m->add_seat_player(static_cast<std::uint32_t>(p));
                m->set_end_when_stuck(b.end_when_stuck);
            },
            [&](const event::MovePlayed& b) {
                auto* m = out->mutable_move();
                m->set_seat(b.seat);
                m->set_kind(to_proto(b.move.kind));
                if (!b.move.is_pass()) {
                    m->set_from(b.move.from);
                    m->set_to(b.move.to);
                }
                for (auto c : b.path) m->add_path(c);
                m->set_by_computer(b.by_computer);
            },
            [&](const event::VoteCast& b) {
                out->mutable_vote()->set_member(b.member);
                out->mutable_vote()->set_kind(to_proto(b.kind));
            },
            [&](const event::GameCancelled&) { out->mutable_cancelled(); },
            [&](const event::LeaderDisplay& b) { out->mutable_leader()->set_hidden(b.hidden); },
            [&](const event::MovesTakenBack& b) { out->mutable_taken_back()->set_count(b.count); },
            [&](const event::RoomClosed&) { out->mutable_closed(); },
        },
        e.body);
}

engine::Result<RoomEvent> event_from_proto(const pb::RoomEvent& in) {
    RoomEvent e;
    e.seq = in.seq();
    e.time_ms = in.time_ms();
    switch (in.body_case()) {
    case pb::RoomEvent::kJoined: {
        const auto& j = in.joined();
        auto level = parse_bot_level(j.bot_level());
        if (j.bot() && !level)
            return engine::fail(
                "a bot of unknown level '" + sanitize_text(j.bot_level(), 16) + "'");
        e.body = event::MemberJoined { j.member(), sanitize_text(j.name(), kMaxMemberName),
            j.seat(), j.bot(), j.bot() ? *level : BotLevel::kHard, j.bot() && j.seat_open() };
        break;
    }
    case pb::RoomEvent::kLeft:
        e.body = event::MemberLeft { in.left().member(), in.left().timed_out() };
        break;
    case pb::RoomEvent::kConnection:
        e.body = event::Connection { in.connection().member(), in.connection().connected(),
            in.connection().hold_ms() };
        break;
    case pb::RoomEvent::kChat:
        // A host takes no longer line from its members; a longer one from a host is cut.
        e.body = event::Chat { in.chat().member(), sanitize_text(in.chat().text(), kMaxChatText) };
        break;
    case pb::RoomEvent::kStarted: {
        const auto& s = in.started();
        if (s.first_set() >= engine::kSetNB) return engine::fail("first set out of range");
        if (s.seat_player_size() > engine::kSetNB) return engine::fail("more seats than sets");
        event::GameStarted b { static_cast<int>(s.game_number()),
            static_cast<engine::SetId>(s.first_set()), {} };
        for (auto p : s.seat_player()) b.seat_player.push_back(static_cast<int>(std::min(p, 64u)));
        b.end_when_stuck = s.end_when_stuck();
        e.body = std::move(b);
        break;
    }
    case pb::RoomEvent::kMove: {
        const auto& m = in.move();
        event::MovePlayed b;
        b.seat = m.seat();
        b.by_computer = m.by_computer();
        if (m.kind() != pb::MOVE_KIND_NORMAL && m.kind() != pb::MOVE_KIND_SWAP
            && m.kind() != pb::MOVE_KIND_PASS)
            return engine::fail("a move of a kind this daemon does not know");
        if (m.kind() == pb::MOVE_KIND_PASS) {
            b.move = engine::Move::pass();
        } else {
            auto from = cell_from_proto(m.from());
            auto to = cell_from_proto(m.to());
            if (!from) return std::unexpected(from.error());
            if (!to) return std::unexpected(to.error());
            b.move = engine::Move { *from, *to,
                m.kind() == pb::MOVE_KIND_SWAP ? engine::Move::kSwap : engine::Move::kNormal };
        }
        if (m.path_size() > engine::kCellNB) return engine::fail("a move's path is too long");
        for (auto c : m.path()) {
            auto cell = cell_from_proto(c);
            if (!cell) return std::unexpected(cell.error());
            b.path.push_back(*cell);
        }
        e.body = std::move(b);
        break;
    }
    case pb::RoomEvent::kVote:
        if (!pb::VoteKind_IsValid(in.vote().kind()))
            return engine::fail("a vote of unknown kind " + std::to_string(in.vote().kind()));
        e.body = event::VoteCast { in.vote().member(), vote_kind_from_proto(in.vote().kind()) };
        break;
    case pb::RoomEvent::kLeader:
        e.body = event::LeaderDisplay { in.leader().hidden() };
        break;
    case pb::RoomEvent::kTakenBack: // the count is checked against the game as it is applied
        e.body = event::MovesTakenBack { in.taken_back().count() };
        break;
    case pb::RoomEvent::kCancelled:
        e.body = event::GameCancelled {};
        break;
    case pb::RoomEvent::kClosed:
        e.body = event::RoomClosed {};
        break;
    default:
        return engine::fail("an event of a kind this daemon does not know");
    }
    return e;
}

void to_proto(const RoomState& state, pb::Snapshot* out) {
    to_proto(state.config(), out->mutable_config());
    for (const auto& e : state.log()) to_proto(e, out->add_events());
}

bool to_proto_after(const RoomState& state, std::uint64_t after, pb::Snapshot* out) {
    const auto& log = state.log();
    if (after == 0 || after > state.seq()) return false;
    // The unbroken end of the log: from there on no seq was folded away.
    std::size_t first = log.size();
    while (
        first > 0 && log[first - 1].seq == (first == log.size() ? state.seq() : log[first].seq - 1))
        --first;
    std::uint64_t covered_from = first < log.size() ? log[first].seq : state.seq() + 1;
    if (after + 1 < covered_from) return false;
    to_proto(state.config(), out->mutable_config());
    for (std::size_t i = first; i < log.size(); ++i)
        if (log[i].seq > after) to_proto(log[i], out->add_events());
    out->set_after_seq(after);
    return true;
}

engine::Result<RoomState> state_from_proto(const pb::Snapshot& snapshot) {
    auto config = config_from_proto(snapshot.config());
    if (!config) return std::unexpected(config.error());
    // A folded room holds at most about 1,300 events besides its current game's moves.
    std::size_t most = kMaxFoldedEvents
        + static_cast<std::size_t>(config->mode.players)
            * static_cast<std::size_t>(config->mode.move_limit);
    if (static_cast<std::size_t>(snapshot.events_size()) > most)
        return engine::fail("a snapshot of " + std::to_string(snapshot.events_size())
            + " events; a room holds at most " + std::to_string(most));
    RoomState state(std::move(*config));
    for (const auto& pe : snapshot.events()) {
        auto e = event_from_proto(pe);
        if (!e) return std::unexpected(e.error());
        if (auto error = state.replay(*e))
            return engine::fail("snapshot event " + std::to_string(pe.seq()) + ": " + *error);
    }
    return state;
}

pb::ErrorCode to_proto(Refusal::Code code) {
    switch (code) {
    case Refusal::Code::kUnknownRoom:
        return pb::ERROR_CODE_UNKNOWN_ROOM;
    case Refusal::Code::kNotAllowed:
        return pb::ERROR_CODE_NOT_ALLOWED;
    case Refusal::Code::kNotYourTurn:
        return pb::ERROR_CODE_NOT_YOUR_TURN;
    case Refusal::Code::kIllegalMove:
        return pb::ERROR_CODE_ILLEGAL_MOVE;
    case Refusal::Code::kRoomFull:
        return pb::ERROR_CODE_ROOM_FULL;
    case Refusal::Code::kBadRequest:
        return pb::ERROR_CODE_BAD_REQUEST;
    case Refusal::Code::kUnavailable:
        return pb::ERROR_CODE_UNAVAILABLE;
    }
    return pb::ERROR_CODE_UNSPECIFIED;
}

void set_error(pb::Error* out, pb::ErrorCode code, std::string message) {
    out->set_code(code);
    out->set_message(std::move(message));
    if (code == pb::ERROR_CODE_VERSION) out->set_supported_version(kProtocolVersion);
}

void summarize(
    const RoomState& state, const std::string& address, bool with_code, pb::RoomSummary* out) {
    const auto& config = state.config();
    out->set_room_id(config.room_id);
    out->set_name(config.name);
    out->set_visibility(
        config.visibility == Visibility::kFriends ? pb::VISIBILITY_FRIENDS : pb::VISIBILITY_PUBLIC);
    to_proto(config.mode, out->mutable_mode());
    out->set_seats(static_cast<std::uint32_t>(state.seats()));
    out->set_seats_taken(static_cast<std::uint32_t>(state.seats_taken()));
    out->set_spectators(static_cast<std::uint32_t>(state.spectators()));
    out->set_phase(to_proto(state.phase()));
    out->set_address(address);
    if (with_code) out->set_code(config.code);
}

pb::GameEnd to_proto(engine::GameEnd end) {
    switch (end) {
    case engine::GameEnd::kNotOver:
        return pb::GAME_END_NOT_OVER;
    case engine::GameEnd::kAllHome:
        return pb::GAME_END_ALL_HOME;
    case engine::GameEnd::kPlacesDecided:
        return pb::GAME_END_PLACES_DECIDED;
    case engine::GameEnd::kMoveLimit:
        return pb::GAME_END_MOVE_LIMIT;
    case engine::GameEnd::kStalled:
        return pb::GAME_END_STALLED;
    }
    return pb::GAME_END_NOT_OVER;
}

namespace {

// The open take-back vote, and what the viewer's own take-back would take back.
void take_back_view(const RoomState& state, MemberId me, pb::RoomView* out) {
    out->set_take_back_seat(kNoSeat);
    const auto& names = state.move_names();
    if (MemberId asker = state.take_back_asker(); asker != kNoMember)
        if (auto at = state.last_own_move(asker); at && state.member(asker)) {
            out->set_take_back_seat(state.member(asker)->seat);
            out->set_take_back_move(names[*at]);
            out->set_take_back_count(static_cast<std::uint32_t>(names.size() - *at));
        }
    if (auto mine = state.last_own_move(me)) {
        out->set_can_take_back(true);
        out->set_your_take_back_move(names[*mine]);
    }
}

// What a computer played for the viewer while they were away (the latest few).
void moves_made_for_view(const RoomState& state, MemberId me, pb::RoomView* out) {
    constexpr std::size_t kShown = 10;
    auto made = state.moves_made_for(me);
    out->set_moves_made_for_you_count(static_cast<std::uint32_t>(made.size()));
    for (std::size_t i = made.size() > kShown ? made.size() - kShown : 0; i < made.size(); ++i)
        out->add_moves_made_for_you(state.move_names()[made[i]]);
}

} // namespace

void view(const RoomState& state, MemberId me, pb::ConnectionState connection,
    const std::string& address, pb::RoomView* out) {
    const Member* self = state.member(me);
    summarize(state, address, self != nullptr, out->mutable_summary());
    out->set_seq(state.seq());
    out->set_connection(connection);
    out->set_your_seat(self ? self->seat : kNoSeat);
    const engine::Game* game = state.game();
    for (int s = 0; s < state.seats(); ++s) {
        auto* seat = out->add_seats();
        seat->set_seat(s);
        if (const Member* m = state.member(state.seat_holder(s))) {
            seat->set_member(m->id);
            seat->set_name(m->name);
            seat->set_bot(m->bot);
            if (m->bot) seat->set_bot_level(std::string(bot_level_name(m->bot_level)));
            seat->set_connected(m->connected);
            seat->set_away(m->away);
            seat->set_voted_new_game(state.votes(VoteKind::kNewGame).count(m->id) > 0);
            seat->set_voted_cancel(state.votes(VoteKind::kCancel).count(m->id) > 0);
            seat->set_voted_leader(state.votes(VoteKind::kLeader).count(m->id) > 0);
            seat->set_voted_take_back(state.votes(VoteKind::kTakeBack).count(m->id) > 0);
        }
        if (game) {
            int player = state.player_of_seat(s);
            seat->set_player(static_cast<std::uint32_t>(player));
            for (auto set : game->setup().sets_of(player)) seat->add_sets(set);
        }
    }
    for (const auto& [id, m] : state.members())
        if (m.seat == kNoSeat) out->add_spectators(m.name);
    out->set_game_number(static_cast<std::uint32_t>(state.game_number()));
    out->set_turn_seat(state.seat_to_move());
    out->set_your_turn(self && self->seat != kNoSeat && self->seat == state.seat_to_move());
    // Hidden here, not in the front ends, so that none of them can show it: while the game runs
    // the leader and every standing that ranks players not yet home stay out of the view.
    const bool leader_hidden
        = state.leader_hidden() && game && game->end() == engine::GameEnd::kNotOver;
    out->set_leader_hidden(leader_hidden);
    out->set_leader_seat(leader_hidden ? kNoSeat : state.leader_seat());
    if (game) out->set_game_end(to_proto(game->end()));
    if (game) {
        out->set_position(game->position().to_string());
        for (const auto& name : state.move_names()) out->add_moves(name);
        for (auto it = game->history().rbegin(); it != game->history().rend(); ++it)
            if (!it->automatic) {
                for (auto c : it->path) out->add_last_path(c);
                break;
            }
        if (out->your_turn()) {
            engine::MoveList list;
            game->legal_moves(list);
            for (auto m : list) out->add_legal_moves(engine::move_name(m));
        }
        for (const auto& st : game->standings()) {
            if (leader_hidden && !st.finished) continue;
            auto* s = out->add_standings();
            int seat = state.seat_of_player(st.player);
            s->set_seat(seat);
            // While the game is played, who plays the seat now, as the seats and the leader
            // name them: it named everyone who had moved for it ("bot for bob / bot for alice"
            // beside "in the lead: alice", and a newcomer only once she had moved). Once it is
            // over, everyone who moved for it, as its record credits them.
            MemberId holder = state.seat_holder(seat);
            s->set_name(state.phase() == Phase::kPlaying && state.member(holder)
                    ? state.name_of(holder)
                    : state.player_name(seat));
            s->set_place(static_cast<std::uint32_t>(st.place));
            s->set_finished(st.finished);
            s->set_moves(static_cast<std::uint32_t>(st.moves));
            s->set_distance_left(static_cast<std::uint32_t>(st.distance_left));
        }
    }
    take_back_view(state, me, out);
    moves_made_for_view(state, me, out);
    const auto& chat = state.chat();
    for (std::size_t i = chat.size() > kChatLinesShown ? chat.size() - kChatLinesShown : 0;
         i < chat.size(); ++i) {
        auto* line = out->add_chat();
        line->set_seq(chat[i].seq);
        line->set_name(chat[i].name);
        line->set_text(chat[i].text);
        line->set_time_ms(chat[i].time_ms);
    }
}

} // namespace halma::daemon::wire
