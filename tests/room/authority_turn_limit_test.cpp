// A room's turn limit: a person who lets a turn run out has a computer move for them and counts
// as away, so one who walked off (or will not move) holds up neither the game nor the votes of
// those present; their own next move brings them back.
#include "daemon/wire/codec.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
using std::chrono::milliseconds;
using std::chrono::seconds;
namespace engine = halma::engine;

namespace {

constexpr int kLimitS = 30;

RoomConfig limited(int players, int limit_s = kLimitS) {
    RoomConfig config = room_config(players);
    config.mode.turn_limit_s = limit_s;
    return config;
}

AuthorityOptions with_bots() {
    AuthorityOptions options;
    options.bots_available = true;
    return options;
}

// ann, bob and cat take the seats of a three-player room, the last at 20 ms: the game starts.
struct ThreePlayers {
    explicit ThreePlayers(RoomConfig config = limited(3), AuthorityOptions options = with_bots())
        : room(std::move(config), options, kSeed)
        , ann(room.join("ann", "", false, at_ms(0)).value())
        , bob(room.join("bob", "", false, at_ms(10)).value())
        , cat(room.join("cat", "", false, at_ms(20)).value()) { }
    RoomAuthority room;
    SeatTicket ann, bob, cat;

    const SeatTicket& to_move() const {
        int seat = room.state().seat_to_move();
        return seat == ann.seat ? ann : seat == bob.seat ? bob : cat;
    }
    // The person to move plays a greedy move of their own.
    void own_move(std::int64_t ms) {
        ASSERT_FALSE(room.act(
            to_move().token, action::Move { greedy_text(*room.state().game()) }, at_ms(ms)));
    }
    // The person to move lets the turn run out at `ms` and the computer moves for them.
    MemberId times_out(std::int64_t ms) {
        MemberId who = to_move().member;
        room.tick(at_ms(ms));
        EXPECT_EQ(room.computer_to_move(), who);
        EXPECT_FALSE(room.bot_move(who, greedy_move(*room.state().game()), at_ms(ms + 5)));
        return who;
    }
};

std::chrono::steady_clock::time_point steady_at(std::int64_t ms) {
    return at_ms(ms).steady;
}

} // namespace

TEST(AuthorityTurnLimit, WhenATurnRunsOutTheComputerMovesForThePersonWhoIsThenAway) {
    ThreePlayers p;
    ASSERT_EQ(p.room.state().phase(), Phase::kPlaying);
    EXPECT_EQ(p.room.turn_due(), steady_at(20) + seconds(kLimitS)) << "from the game's start";
    EXPECT_EQ(p.room.next_deadline(), p.room.turn_due()) << "the host wakes up for it";

    p.room.tick(at_ms(20 + kLimitS * 1000 - 1));
    EXPECT_EQ(p.room.computer_to_move(), kNoMember) << "not yet";
    p.room.take_events();
    MemberId idle = p.times_out(20 + kLimitS * 1000);

    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* moved = std::get_if<event::MovePlayed>(&events[0].body);
    ASSERT_NE(moved, nullptr);
    EXPECT_TRUE(moved->by_computer);
    const Member* m = p.room.state().member(idle);
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->away);
    EXPECT_NE(m->seat, kNoSeat) << "the seat stays theirs";
    EXPECT_EQ(wire::describe(p.room.state(), events[0])
                  .rfind(m->name + "'s time ran out: the computer played ", 0),
        0u)
        << wire::describe(p.room.state(), events[0]);
    // The next person's clock starts with their turn.
    EXPECT_EQ(p.room.turn_due(), steady_at(20 + kLimitS * 1000 + 5) + seconds(kLimitS));
    EXPECT_EQ(p.room.computer_to_move(), kNoMember);
}

TEST(AuthorityTurnLimit, ChatAndVotesMidTurnLeaveTheClockRunningAndAMoveRestartsIt) {
    ThreePlayers p;
    auto due = p.room.turn_due();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Chat { "hurry up" }, at_ms(5000)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kLeader }, at_ms(6000)));
    EXPECT_EQ(p.room.turn_due(), due);
    p.own_move(7000);
    EXPECT_EQ(p.room.turn_due(), steady_at(7000) + seconds(kLimitS));
}

TEST(AuthorityTurnLimit, ThePersonWhoMovesBeforeTheComputerKeepsTheTurn) {
    ThreePlayers p;
    MemberId slow = p.to_move().member;
    p.room.tick(at_ms(20 + kLimitS * 1000));
    ASSERT_EQ(p.room.computer_to_move(), slow);
    p.own_move(20 + kLimitS * 1000 + 1); // the computer is still thinking
    EXPECT_FALSE(p.room.state().member(slow)->away);
    auto refusal = p.room.bot_move(slow, greedy_move(*p.room.state().game()), at_ms(40'000));
    ASSERT_TRUE(refusal) << "the computer's move for a turn that has passed";
    EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
}

TEST(AuthorityTurnLimit, OneAwayHoldsUpNeitherANewGameNorACancel) {
    // ann walks off: her turns run out. bob and cat vote for a new game: it starts.
    {
        ThreePlayers p;
        MemberId first = p.times_out(20 + kLimitS * 1000);
        ASSERT_TRUE(p.room.state().member(first)->away);
        const SeatTicket& a = first == p.ann.member ? p.bob : p.ann;
        const SeatTicket& b = first == p.cat.member ? p.bob : p.cat;
        ASSERT_FALSE(p.room.act(a.token, action::Vote { VoteKind::kNewGame }, at_ms(31'000)));
        EXPECT_EQ(p.room.state().game_number(), 1);
        ASSERT_FALSE(p.room.act(b.token, action::Vote { VoteKind::kNewGame }, at_ms(31'001)));
        EXPECT_EQ(p.room.state().game_number(), 2) << "the one away did not have to vote";
        EXPECT_FALSE(p.room.state().member(first)->away) << "a new game: everyone starts afresh";
    }
    // The same, voting to cancel: refused while everyone is here, carried once one is away.
    {
        ThreePlayers p;
        const SeatTicket& voter = p.to_move().member == p.ann.member ? p.bob : p.ann;
        auto refusal = p.room.act(voter.token, action::Vote { VoteKind::kCancel }, at_ms(100));
        ASSERT_TRUE(refusal);
        EXPECT_EQ(refusal->message,
            "every player is still here: a game is cancelled only when a player has vanished or "
            "let a turn run out");
        MemberId idle = p.times_out(20 + kLimitS * 1000);
        for (const SeatTicket* t : { &p.ann, &p.bob, &p.cat })
            if (t->member != idle)
                ASSERT_FALSE(
                    p.room.act(t->token, action::Vote { VoteKind::kCancel }, at_ms(31'000)));
        EXPECT_EQ(p.room.state().phase(), Phase::kCancelled);
    }
}

TEST(AuthorityTurnLimit, VotesCastBeforeSomeoneWentAwayCarryWhenTheyDo) {
    ThreePlayers p;
    MemberId idle = p.to_move().member;
    for (const SeatTicket* t : { &p.ann, &p.bob, &p.cat })
        if (t->member != idle)
            ASSERT_FALSE(p.room.act(t->token, action::Vote { VoteKind::kNewGame }, at_ms(100)));
    EXPECT_EQ(p.room.state().game_number(), 1) << "waiting for the third vote";
    p.times_out(20 + kLimitS * 1000);
    EXPECT_EQ(p.room.state().game_number(), 2);
}

TEST(AuthorityTurnLimit, TheirOwnMoveBringsThemBack) {
    ThreePlayers p;
    MemberId idle = p.times_out(20 + kLimitS * 1000);
    std::int64_t t = 31'000;
    while (p.to_move().member != idle) p.own_move(t += 10);
    EXPECT_TRUE(p.room.state().member(idle)->away) << "away until they move";
    p.own_move(t += 10);
    EXPECT_FALSE(p.room.state().member(idle)->away);
}

TEST(AuthorityTurnLimit, AReplicaReplayingTheEventsSeesWhoIsAway) {
    ThreePlayers p;
    MemberId idle = p.times_out(20 + kLimitS * 1000);
    RoomState replica(p.room.state().config());
    ASSERT_FALSE(replay(p.room.state().config(), p.room.state().log(), replica));
    EXPECT_TRUE(replica.member(idle)->away);
    for (const auto& [id, m] : replica.members()) EXPECT_EQ(m.away, id == idle) << m.name;
}

TEST(AuthorityTurnLimit, NoClockWithoutALimitForComputersOrWithoutComputers) {
    ThreePlayers unlimited(limited(3, 0));
    EXPECT_FALSE(unlimited.room.turn_due());
    EXPECT_FALSE(unlimited.room.next_deadline());

    ThreePlayers no_bots(limited(3), AuthorityOptions {});
    EXPECT_FALSE(no_bots.room.turn_due()) << "nobody could move for whoever runs out";

    // A computer to move keeps no clock: the person's starts when their turn does.
    RoomAuthority room(limited(2), with_bots(), kSeed);
    auto ann = room.join("ann", "", false, at_ms(0));
    ASSERT_TRUE(room.add_bots(1, BotLevel::kEasy, at_ms(10)));
    std::int64_t ann_from = 10;
    if (MemberId bot = room.bot_to_move(); bot != kNoMember) {
        EXPECT_FALSE(room.turn_due());
        ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(500)));
        ann_from = 500;
    }
    ASSERT_EQ(room.state().seat_to_move(), ann->seat);
    EXPECT_EQ(room.turn_due(), steady_at(ann_from) + seconds(kLimitS));
}

TEST(AuthorityTurnLimit, TheModeSaysItsRange) {
    RoomMode mode;
    mode.turn_limit_s = kMaxTurnLimitS + 1;
    ASSERT_TRUE(mode.invalid());
    EXPECT_EQ(*mode.invalid(), "a turn limit is 1 to 86400 seconds (a day), or 0 for none");
    mode.turn_limit_s = kMaxTurnLimitS;
    EXPECT_FALSE(mode.invalid());
}

// When every person in a seat is away, those of them who vote decide: an away player comes back
// only by moving, and once the game is over nobody can, so waiting for all of them left the room
// stuck for good (a review: two players out of time, the game over, a new game never came).
TEST(AuthorityTurnLimit, WhenEveryoneIsAwayThoseWhoVoteDecide) {
    TwoPlayers p(with_bots(), limited(2));
    std::int64_t t = 10 + kLimitS * 1000;
    for (int i = 0; i < 2; ++i, t += kLimitS * 1000 + 10) {
        p.room.tick(at_ms(t));
        MemberId idle = p.room.computer_to_move();
        ASSERT_NE(idle, kNoMember);
        ASSERT_FALSE(p.room.bot_move(idle, greedy_move(*p.room.state().game()), at_ms(t + 5)));
    }
    ASSERT_TRUE(
        p.room.state().member(p.ann.member)->away && p.room.state().member(p.bob.member)->away);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(t)));
    EXPECT_EQ(p.room.state().phase(), Phase::kCancelled) << "nobody else is there to agree";
}

TEST(AuthorityTurnLimit, AGameOverWithEveryoneAwayCanBeFollowed) {
    RoomConfig config = limited(2);
    config.mode.move_limit = 1;
    TwoPlayers p(with_bots(), config);
    std::int64_t t = 10 + kLimitS * 1000;
    for (int i = 0; i < 2 && p.room.state().phase() == Phase::kPlaying;
         ++i, t += kLimitS * 1000 + 10) {
        p.room.tick(at_ms(t));
        ASSERT_FALSE(p.room.bot_move(
            p.room.computer_to_move(), greedy_move(*p.room.state().game()), at_ms(t + 5)));
    }
    ASSERT_EQ(p.room.state().phase(), Phase::kOver);
    ASSERT_TRUE(
        p.room.state().member(p.ann.member)->away && p.room.state().member(p.bob.member)->away);
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(t)));
    EXPECT_EQ(p.room.state().game_number(), 2);
}

// A pass the host plays for a set with no move leaves its player as they were: bob let a turn
// run out (away), then his set was walled in; the passes made for him said he was back, and
// the votes waited for him again while he was gone (a review of the forced pass).
TEST(AuthorityTurnLimit, APassPlayedForAnAwayPlayerLeavesThemAway) {
    RoomAuthority room(limited(2), with_bots(), kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value();
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    std::int64_t t = 10;
    for (std::size_t ply = 0; ply < 107; ++ply) {
        const std::string& text = kWalledInGame[ply];
        bool bobs = room.state().seat_to_move() == bob.seat;
        if (bobs && ply == 105) { // bob's last move of his own: his time runs out
            t += kLimitS * 1000 + 10;
            room.tick(at_ms(t));
            ASSERT_EQ(room.computer_to_move(), bob.member);
            auto path = engine::parse_path(text);
            auto move = engine::legal_move_along(
                room.state().game()->position(), room.state().game()->setup().rules, *path);
            ASSERT_TRUE(move);
            ASSERT_FALSE(room.bot_move(bob.member, *move, at_ms(t + 1)));
        } else {
            ASSERT_FALSE(room.act(bobs ? bob.token : ann.token, action::Move { text }, at_ms(t)))
                << "ply " << ply + 1;
        }
        ++t;
    }
    // ann's move 107 walled bob's set in: the host passed for him (ply 108).
    ASSERT_EQ(room.state().move_names().size(), 108u);
    EXPECT_EQ(room.state().move_names().back(), "pass");
    EXPECT_TRUE(room.state().member(bob.member)->away) << "the pass brought bob back";
}

// A player coming back is told what the computer played for them while they were away: the
// moves since their own last one, for them only, on a replica too, until they move again.
TEST(AuthorityTurnLimit, TheMovesMadeForSomeoneAwayAreToldToThemUntilTheyMove) {
    ThreePlayers p;
    std::int64_t t = 20 + kLimitS * 1000;
    MemberId idle = p.times_out(t);
    auto named = [&](MemberId who) {
        std::vector<std::string> names;
        for (auto i : p.room.state().moves_made_for(who))
            names.push_back(p.room.state().move_names().at(i));
        return names;
    };
    ASSERT_EQ(named(idle), std::vector<std::string> { p.room.state().move_names().back() });
    while (p.to_move().member != idle) p.own_move(t += 10);
    p.times_out(t += kLimitS * 1000 + 10);
    auto made = named(idle);
    ASSERT_EQ(made.size(), 2u);
    EXPECT_EQ(made.back(), p.room.state().move_names().back());
    for (const SeatTicket* other : { &p.ann, &p.bob, &p.cat })
        if (other->member != idle) EXPECT_TRUE(named(other->member).empty()) << other->member;

    halma::v1::RoomView view;
    halma::daemon::wire::view(
        p.room.state(), idle, halma::v1::CONNECTION_STATE_CONNECTED, "", &view);
    EXPECT_EQ(view.moves_made_for_you_count(), 2u);
    EXPECT_EQ(std::vector<std::string>(
                  view.moves_made_for_you().begin(), view.moves_made_for_you().end()),
        made);

    RoomState replica(p.room.state().config());
    ASSERT_FALSE(replay(p.room.state().config(), p.room.state().log(), replica));
    EXPECT_EQ(replica.moves_made_for(idle), p.room.state().moves_made_for(idle));

    while (p.to_move().member != idle) p.own_move(t += 10);
    p.own_move(t += 10);
    EXPECT_TRUE(named(idle).empty()) << "back: their own move";
}
