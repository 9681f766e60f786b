// A room's event told to a person, as front ends show it ("ann played o1-m7", "bob's time ran
// out: the computer played ...", "game 2 started; cat moves first").
#include "daemon/wire/codec.h"
#include "engine/notation.h"

namespace halma::daemon::wire {

namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };

// Who holds a seat, a computer named as one: "the computer's reply".
std::string mover_of(const RoomState& state, int seat) {
    const Member* m = state.member(state.seat_holder(seat));
    return m && m->bot ? std::string("the computer") : state.name_of(state.seat_holder(seat));
}

// `state` may be past the take-back this vote carried (a batch is told once applied): the asker
// is then the last take-back's.
std::string take_back_vote_text(const RoomState& state, MemberId voter) {
    MemberId asker = state.take_back_asker();
    bool open = asker != kNoMember;
    if (!open) asker = state.last_take_back().asker;
    if (voter == asker) {
        auto at = open ? state.last_own_move(asker) : std::nullopt;
        return state.name_of(voter) + " asks to take back their last move"
            + (at ? " (" + state.move_names()[*at] + ")" : std::string());
    }
    return state.name_of(voter) + " agrees to take back "
        + (asker == kNoMember ? std::string("a move") : state.name_of(asker) + "'s last move");
}

// "ann took back o1-m7 (and the computer's reply)"
std::string taken_back_text(const RoomState& state) {
    const TakeBack& t = state.last_take_back();
    if (t.moves.empty()) return "moves were taken back";
    std::vector<const TakeBack::Move*> after;
    for (std::size_t i = 1; i < t.moves.size(); ++i)
        if (!t.moves[i].automatic) after.push_back(&t.moves[i]);
    std::string text = mover_of(state, t.moves[0].seat) + " took back " + t.moves[0].name;
    if (after.size() == 1)
        text += " (and " + mover_of(state, after[0]->seat) + "'s reply)";
    else if (after.size() > 1)
        text += " (and the " + std::to_string(after.size()) + " moves after it)";
    return text + "; " + mover_of(state, t.moves[0].seat) + " moves again";
}

} // namespace

std::string describe(const RoomState& state, const RoomEvent& e) {
    auto seat_text = [](int seat) { return "seat " + std::to_string(seat + 1); };
    return std::visit(
        Overloaded {
            [&](const event::MemberJoined& b) -> std::string {
                if (b.seat == kNoSeat) return b.name + " is watching";
                // A computer sitting down mid-game stands in for a player who has gone.
                // For one whose daemon vanished the seat is kept: it is theirs again when they
                // are back ("lost the seat" said otherwise, and they came back to it).
                if (b.bot && state.phase() == Phase::kPlaying && state.game()
                    && !state.game()->history().empty())
                    return b.seat_open
                        ? "a computer (" + std::string(bot_level_name(b.bot_level)) + ") plays "
                            + seat_text(b.seat) + " from now on, as " + b.name
                            + ", so the game goes on"
                        : b.name + ", a computer (" + std::string(bot_level_name(b.bot_level))
                            + "), plays " + seat_text(b.seat) + " until they are back";
                return b.name + " joined, " + seat_text(b.seat);
            },
            [&](const event::MemberLeft& b) -> std::string {
                return state.name_of(b.member) + (b.timed_out ? " was gone too long" : " left");
            },
            [&](const event::Connection& b) -> std::string {
                // A spectator has no seat to hold (it said "the seat is held" of one).
                const Member* m = state.member(b.member);
                bool watching = m && m->seat == kNoSeat;
                return state.name_of(b.member)
                    + (b.connected     ? " is back"
                            : watching ? " (watching) lost the connection"
                                       : " lost the connection; the seat is held");
            },
            [&](const event::Chat& b) -> std::string {
                return state.name_of(b.member) + ": " + b.text;
            },
            [&](const event::GameStarted& b) -> std::string {
                int seat = state.seat_of_player(state.config().mode.setup().owner(b.first_set));
                return "game " + std::to_string(b.game_number) + " started; "
                    + state.name_of(state.seat_holder(seat)) + " moves first";
            },
            [&](const event::MovePlayed& b) -> std::string {
                std::string name = state.name_of(state.seat_holder(b.seat));
                std::string move
                    = b.move.is_pass() ? std::string("pass") : engine::path_name(b.path);
                // A pass is only ever forced (the host plays it), whoever is said to make it.
                std::string text = b.move.is_pass() ? name + " has no move and passes"
                    : b.by_computer
                    ? name + "'s time ran out: the computer played " + move + " for " + name
                    : name + " played " + move;
                if (state.phase() == Phase::kOver) text += "; the game is over";
                return text;
            },
            [&](const event::VoteCast& b) -> std::string {
                if (b.kind == VoteKind::kTakeBack) return take_back_vote_text(state, b.member);
                // What a leader vote asks for depends on the setting before it. `state` may be
                // past the LeaderDisplay that this vote completed (a host tells a batch once it
                // is applied), which turned the setting and used the votes up: a vote no longer
                // counted is one that was carried.
                bool hidden_before = state.leader_hidden()
                    != (b.kind == VoteKind::kLeader && !state.votes(b.kind).count(b.member));
                return state.name_of(b.member)
                    + (b.kind == VoteKind::kCancel ? " votes to cancel the game"
                            : b.kind == VoteKind::kLeader
                            ? (hidden_before ? " votes to show who is in the lead"
                                             : " votes to hide who is in the lead")
                            : " votes for a new game");
            },
            [&](const event::LeaderDisplay& b) -> std::string {
                return b.hidden ? "everyone agreed: who is in the lead is hidden until the end"
                                : "everyone agreed: who is in the lead is shown again";
            },
            [&](const event::MovesTakenBack&) -> std::string { return taken_back_text(state); },
            [&](const event::GameCancelled&) -> std::string { return "the game was cancelled"; },
            [&](const event::RoomClosed&) -> std::string {
                return "the host closed room " + state.config().name;
            },
        },
        e.body);
}

std::optional<MemberId> member_of(const RoomEvent& event) {
    return std::visit(
        [](const auto& b) -> std::optional<MemberId> {
            if constexpr (requires { b.member; })
                return b.member;
            else
                return std::nullopt;
        },
        event.body);
}

} // namespace halma::daemon::wire
