// RoomState as a replica uses it: the host's log, applied in order to the config, gives the
// host's room exactly; an event that does not fit is refused and changes nothing. And the
// leader of a game.
#include "engine/movegen.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

// A room with ann (seat 0) and bob (seat 1) whose first game has started, as a replica has it.
RoomState started_replica() {
    TwoPlayers p;
    RoomState replica(p.room.state().config());
    for (const auto& e : p.room.take_events()) EXPECT_FALSE(replica.apply(e));
    return replica;
}

RoomEvent next(const RoomState& s, EventBody body) {
    return RoomEvent { s.seq() + 1, 1'700'000'000'000, std::move(body) };
}

// Applies `e` and checks that it was refused and that the room is as it was.
void expect_refused(RoomState& s, const RoomEvent& e, const char* what) {
    SCOPED_TRACE(what);
    RoomState before = s;
    auto error = s.apply(e);
    ASSERT_TRUE(error) << "accepted";
    EXPECT_FALSE(error->empty());
    auto diff = state_difference(before, s);
    EXPECT_FALSE(diff) << "the refused event changed the " << *diff;
}

} // namespace

TEST(RoomReplay, TheHostsLogRebuildsTheHostsRoomAtEveryStep) {
    std::optional<RoomState> replica;
    int steps = 0;
    auto room = lively_room([&](RoomAuthority& host) {
        if (!replica) replica.emplace(host.state().config());
        for (const auto& e : host.take_events()) {
            auto error = replica->apply(e);
            ASSERT_FALSE(error) << "event " << e.seq << ": " << *error;
        }
        auto diff = state_difference(host.state(), *replica);
        ASSERT_FALSE(diff) << "after step " << steps << ": " << *diff;
        ++steps;
    });
    for (const auto& e : room.take_events()) ASSERT_FALSE(replica->apply(e));
    EXPECT_FALSE(state_difference(room.state(), *replica));
    EXPECT_GT(steps, 30);
    EXPECT_GT(room.state().seq(), 40u);
}

TEST(RoomReplay, TheWholeLogAtOnceGivesTheSameRoom) {
    auto room = lively_room();
    RoomState replica(room.state().config());
    auto error = replay(room.state().config(), room.state().log(), replica);
    ASSERT_FALSE(error) << *error;
    auto diff = state_difference(room.state(), replica);
    EXPECT_FALSE(diff) << *diff;
    // The story the scenario tells, as the replica has it.
    EXPECT_EQ(replica.game_number(), 2);
    EXPECT_EQ(replica.phase(), Phase::kPlaying);
    EXPECT_EQ(replica.chat().size(), 2u);
    EXPECT_EQ(replica.chat()[0].name, "wes");
    EXPECT_EQ(replica.chat()[0].text, "good luck [0m, Zoë \xf0\x9f\x8e\xb2");
    EXPECT_EQ(replica.votes(VoteKind::kNewGame).size(), 1u);
    EXPECT_EQ(replica.spectators(), 2) << "cat and dan watch";
    ASSERT_NE(replica.member(3), nullptr) << "bob took his seat back from the computer";
    EXPECT_EQ(replica.member(3)->name, "bob");
    EXPECT_FALSE(replica.member(3)->bot);
}

TEST(RoomReplay, AWholeGameWithMultiSetPlayersReplays) {
    // Two players with two sets each: a finished set's turns become automatic passes, which
    // are no events; the replica's engine must make them just the same.
    TwoPlayers p({}, room_config(2, 2));
    int plies = 0;
    for (; p.room.state().phase() == Phase::kPlaying && plies < 2000; ++plies) {
        const auto& token = p.room.state().seat_to_move() == 0 ? p.ann.token : p.bob.token;
        ASSERT_FALSE(p.room.act(
            token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(100 + plies)));
    }
    ASSERT_EQ(p.room.state().phase(), Phase::kOver);
    bool automatic = false;
    for (const auto& m : p.room.state().game()->history()) automatic |= m.automatic;
    EXPECT_TRUE(automatic) << "no automatic pass came up: the test misses its point";
    RoomState replica(p.room.state().config());
    auto error = replay(p.room.state().config(), p.room.state().log(), replica);
    ASSERT_FALSE(error) << *error;
    auto diff = state_difference(p.room.state(), replica);
    EXPECT_FALSE(diff) << *diff;
}

TEST(RoomReplay, EventsOutOfOrderAreRefused) {
    RoomState s = started_replica();
    auto chat = event::Chat { 1, "hi" };
    for (std::uint64_t seq : { std::uint64_t { 0 }, s.seq(), s.seq() + 2, s.seq() + 100 }) {
        expect_refused(s, RoomEvent { seq, 0, chat }, "seq");
    }
    RoomState empty(room_config());
    expect_refused(empty, RoomEvent { 2, 0, event::MemberJoined { 1, "ann", 0 } }, "first seq 2");
    EXPECT_FALSE(s.apply(next(s, chat))) << "the right seq is taken";
}

TEST(RoomReplay, EventsOfUnknownMembersAreRefused) {
    RoomState s = started_replica();
    expect_refused(s, next(s, event::MemberLeft { 99, false }), "left");
    expect_refused(s, next(s, event::Connection { 99, false }), "connection");
    expect_refused(s, next(s, event::Chat { 99, "boo" }), "chat");
    expect_refused(s, next(s, event::VoteCast { 99, VoteKind::kNewGame }), "vote");
    expect_refused(s, next(s, event::Chat { kNoMember, "boo" }), "chat of member 0");
}

// A host's joins past the spectators a room holds do not apply: a replica took 200,000.
TEST(RoomReplay, SpectatorsPastTheRoomsBoundAreRefused) {
    RoomState s = started_replica();
    for (MemberId id = 10; id < 10 + kMaxSpectators; ++id)
        ASSERT_FALSE(
            s.apply(next(s, event::MemberJoined { id, "w" + std::to_string(id), kNoSeat })));
    EXPECT_EQ(s.spectators(), kMaxSpectators);
    expect_refused(s, next(s, event::MemberJoined { 500, "one more", kNoSeat }), "past the bound");
    ASSERT_FALSE(s.apply(next(s, event::MemberLeft { 10, false })));
    EXPECT_FALSE(s.apply(next(s, event::MemberJoined { 501, "in its place", kNoSeat })));
}

TEST(RoomReplay, JoinsThatDoNotFitAreRefused) {
    RoomState s = started_replica();
    expect_refused(s, next(s, event::MemberJoined { 1, "again", kNoSeat }), "id in use");
    expect_refused(s, next(s, event::MemberJoined { kNoMember, "zero", kNoSeat }), "id 0");
    expect_refused(s, next(s, event::MemberJoined { 5, "cat", 1 }), "seat taken");
    expect_refused(s, next(s, event::MemberJoined { 5, "cat", 2 }), "seat past the last");
    expect_refused(s, next(s, event::MemberJoined { 5, "cat", -2 }), "negative seat");
    EXPECT_FALSE(s.apply(next(s, event::MemberJoined { 5, "cat", kNoSeat }))) << "a spectator";
}

TEST(RoomReplay, GameStartsThatDoNotFitAreRefused) {
    RoomState s = started_replica();
    expect_refused(s, next(s, event::GameStarted { 2, 0, { 0 } }), "one seat of two");
    expect_refused(s, next(s, event::GameStarted { 2, 0, { 0, 1, 2 } }), "three seats of two");
    expect_refused(s, next(s, event::GameStarted { 2, 1, { 0, 1 } }), "set 1 is not in play");
    expect_refused(s, next(s, event::GameStarted { 2, 6, { 0, 1 } }), "no set 6");
    expect_refused(s, next(s, event::GameStarted { 2, engine::kNoSet, { 0, 1 } }), "kNoSet");
    EXPECT_FALSE(s.apply(next(s, event::GameStarted { 2, 3, { 1, 0 } })));
}

// seat_player says which engine player each seat plays: anything but a permutation leaves a
// player without a seat (seat_of_player() is kNoSeat), and the code that shows the room then
// indexes seat_holder(-1).
TEST(RoomReplay, AGameStartWhoseSeatsAreNotAPermutationIsRefused) {
    RoomState s = started_replica();
    expect_refused(s, next(s, event::GameStarted { 2, 0, { 0, 0 } }), "{0, 0}");
    expect_refused(s, next(s, event::GameStarted { 2, 3, { 1, 1 } }), "{1, 1}");
    expect_refused(s, next(s, event::GameStarted { 2, 0, { 0, 2 } }), "{0, 2}");
    expect_refused(s, next(s, event::GameStarted { 2, 0, { -1, 0 } }), "{-1, 0}");
    expect_refused(s, next(s, event::GameStarted { 2, 0, { 1, 64 } }), "{1, 64}");
}

TEST(RoomReplay, MovesThatDoNotFitAreRefused) {
    RoomState s = started_replica();
    const engine::Game& game = *s.game();
    engine::Move m = greedy_move(game);
    auto path = engine::move_path(game.position(), game.setup().rules, m);
    expect_refused(s, next(s, event::MovePlayed { 1, m, path }), "seat 1 is not to move");
    expect_refused(s, next(s, event::MovePlayed { kNoSeat, m, path }), "no seat");
    expect_refused(s, next(s, event::MovePlayed { 0, engine::Move::pass(), {} }), "pass");
    expect_refused(s, next(s, event::MovePlayed { 0, { m.to, m.from, engine::Move::kNormal }, {} }),
        "backwards");
    expect_refused(s, next(s, event::MovePlayed { 0, { 200, 201, engine::Move::kNormal }, {} }),
        "off the board");
    EXPECT_FALSE(s.apply(next(s, event::MovePlayed { 0, m, path })));
    EXPECT_EQ(s.seat_to_move(), 1);

    RoomState waiting(room_config());
    EXPECT_FALSE(waiting.apply(next(waiting, event::MemberJoined { 1, "ann", 0 })));
    expect_refused(waiting, next(waiting, event::MovePlayed { 0, m, path }), "no game");
    expect_refused(waiting, next(waiting, event::GameCancelled {}), "no game to cancel");
}

TEST(RoomReplay, ACancelledGameTakesNoMoves) {
    RoomState s = started_replica();
    ASSERT_FALSE(s.apply(next(s, event::GameCancelled {})));
    EXPECT_EQ(s.phase(), Phase::kCancelled);
    engine::Move m = greedy_move(*s.game());
    expect_refused(s, next(s, event::MovePlayed { 0, m, {} }), "move after cancel");
    expect_refused(s, next(s, event::GameCancelled {}), "second cancel");
}

TEST(RoomReplay, ALeaverFreesTheSeatAndTheirVotes) {
    RoomState s = started_replica();
    ASSERT_FALSE(s.apply(next(s, event::VoteCast { 2, VoteKind::kNewGame })));
    ASSERT_FALSE(s.apply(next(s, event::VoteCast { 2, VoteKind::kCancel })));
    ASSERT_FALSE(s.apply(next(s, event::MemberLeft { 2, false })));
    EXPECT_EQ(s.seat_holder(1), kNoMember);
    EXPECT_TRUE(s.votes(VoteKind::kNewGame).empty());
    EXPECT_TRUE(s.votes(VoteKind::kCancel).empty());
    EXPECT_EQ(s.member(2), nullptr);
    EXPECT_EQ(s.name_of(2), "bob");
    EXPECT_EQ(s.name_of(42), "member 42");
    expect_refused(s, next(s, event::MemberLeft { 2, false }), "second leave");
}

TEST(LeaderSeat, NobodyLeadsWithoutAGame) {
    RoomState s(room_config());
    EXPECT_EQ(s.leader_seat(), kNoSeat);
}

TEST(LeaderSeat, EveryGameStartsLevel) {
    for (auto [players, sets, rules] :
        { std::tuple { 2, 1, "" }, { 3, 1, "" }, { 4, 1, "" }, { 6, 1, "" }, { 2, 2, "" },
            { 2, 3, "" }, { 3, 2, "" }, { 2, 1, "unused=filled" }, { 3, 1, "first=coin" } }) {
        SCOPED_TRACE(::testing::Message() << players << "x" << sets << " " << rules);
        RoomAuthority room(room_config(players, sets, rules), AuthorityOptions {}, kSeed);
        for (int i = 0; i < players; ++i) room.join("p", "", false, at_ms(i));
        ASSERT_EQ(room.state().phase(), Phase::kPlaying);
        EXPECT_EQ(room.state().leader_seat(), kNoSeat);
    }
}

TEST(LeaderSeat, TheSeatWithLeastDistanceLeftLeads) {
    TwoPlayers p;
    const RoomState& s = p.room.state();
    ASSERT_EQ(s.leader_seat(), kNoSeat);
    // ann (seat 0, to move) steps forward: she is nearer home.
    ASSERT_FALSE(p.room.act(p.ann.token, action::Move { greedy_text(*s.game()) }, at_ms(20)));
    EXPECT_LT(s.game()->distance_left(0), s.game()->distance_left(1));
    EXPECT_EQ(s.leader_seat(), 0);
    // And so on: whoever is nearer leads, nobody on a tie.
    for (int ply = 0; ply < 20; ++ply) {
        const auto& token = s.seat_to_move() == 0 ? p.ann.token : p.bob.token;
        ASSERT_FALSE(p.room.act(token, action::Move { greedy_text(*s.game()) }, at_ms(21 + ply)));
        int d0 = s.game()->distance_left(s.player_of_seat(0));
        int d1 = s.game()->distance_left(s.player_of_seat(1));
        EXPECT_EQ(s.leader_seat(), d0 < d1 ? 0 : d1 < d0 ? 1 : kNoSeat) << d0 << " vs " << d1;
    }
}

TEST(LeaderSeat, TheLeaderIsASeatNotAPlayer) {
    TwoPlayers p;
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(20)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(21)));
    const RoomState& s = p.room.state();
    ASSERT_EQ(s.game_number(), 2);
    ASSERT_EQ(s.player_of_seat(1), 0) << "game 2 turns the colours";
    ASSERT_EQ(s.seat_to_move(), 1) << "black is player 0's, now bob's";
    EXPECT_EQ(s.leader_seat(), kNoSeat);
    ASSERT_FALSE(p.room.act(p.bob.token, action::Move { greedy_text(*s.game()) }, at_ms(22)));
    EXPECT_EQ(s.leader_seat(), 1);
}

TEST(LeaderSeat, OneAheadOfThreeLeads) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    room.join("bob", "", false, at_ms(1));
    room.join("cat", "", false, at_ms(2));
    ASSERT_FALSE(room.act(a->token, action::Move { greedy_text(*room.state().game()) }, at_ms(3)));
    EXPECT_EQ(room.state().leader_seat(), 0) << "the two behind are tied, but not for the lead";
}

// A log written before the host passed for a set with no move, and before a game where nobody
// can move ended at once: its GameStarted says nothing of the rule, and its passes after the
// deadlock replay (a room resumed after an upgrade, a replica of an older host). A game started
// under the rule ends at the deadlock, and a pass after it is refused.
TEST(RoomReplay, AnOlderLogWithPassesPastADeadlockStillReplays) {
    for (bool rule : { false, true }) {
        SCOPED_TRACE(rule ? "a game under the rule" : "an older game");
        RoomState s(room_config(2));
        ASSERT_FALSE(s.apply(next(s, event::MemberJoined { 1, "ann", 0, false })));
        ASSERT_FALSE(s.apply(next(s, event::MemberJoined { 2, "bob", 1, false })));
        ASSERT_FALSE(s.apply(next(s, event::GameStarted { 1, 0, { 0, 1 }, rule })));
        std::size_t ply = 0;
        for (const auto& text : kWalledInGame) {
            auto path = engine::parse_path(text);
            engine::Move move = engine::Move::pass();
            if (text != "pass") {
                ASSERT_TRUE(path) << text;
                auto legal = engine::legal_move_along(
                    s.game()->position(), s.game()->setup().rules, *path);
                ASSERT_TRUE(legal)
                    << "ply " << ply + 1 << " " << text << ": " << legal.error().message;
                move = *legal;
            }
            std::vector<engine::Cell> cells;
            if (!move.is_pass())
                cells = engine::move_path(s.game()->position(), s.game()->setup().rules, move);
            auto error = s.apply(next(s, event::MovePlayed { s.seat_to_move(), move, cells }));
            ++ply;
            if (rule && ply > 129) {
                EXPECT_TRUE(error) << "a pass after the deadlock, ply " << ply;
                break;
            }
            ASSERT_FALSE(error) << "ply " << ply << " " << text << ": " << *error;
        }
        if (rule) {
            EXPECT_EQ(s.game()->end(), engine::GameEnd::kStalled);
            EXPECT_EQ(s.move_names().size(), 129u);
        } else {
            EXPECT_EQ(s.phase(), Phase::kPlaying) << "the older game goes on, passing";
            EXPECT_EQ(s.move_names().size(), kWalledInGame.size());
        }
    }
}
