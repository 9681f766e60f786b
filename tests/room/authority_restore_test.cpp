// A host that restarts rebuilds each room from what it kept (config, log, seat tokens): the
// same room, the same members acting with the same tokens, member ids going on where they
// were; then every remote member is marked gone and held until its daemon rejoins. And a room
// the host closes accepts nothing more.
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>
#include <limits>
#include <set>

using namespace halma::testing;
using std::chrono::milliseconds;
namespace engine = halma::engine;

namespace {

AuthorityOptions lively_options() {
    AuthorityOptions options;
    options.bots_available = true;
    options.hold = milliseconds(1000);
    return options;
}

RoomAuthority restored(const RoomAuthority& room, const Now& now = at_ms(1'000'000)) {
    auto back = RoomAuthority::restore(
        room.state().config(), lively_options(), kSeed + 1, room.state().log(), room.tokens(), now);
    if (!back) throw std::runtime_error(back.error().message);
    return std::move(*back);
}

MemberId largest_member_ever(const RoomState& state) {
    MemberId largest = kNoMember;
    for (const auto& e : state.log())
        if (auto* j = std::get_if<event::MemberJoined>(&e.body))
            largest = std::max(largest, j->member);
    return largest;
}

} // namespace

TEST(AuthorityRestore, GivesTheSameRoomAtEveryStep) {
    int steps = 0;
    auto room = lively_room([&](RoomAuthority& host) {
        auto back = restored(host);
        auto diff = state_difference(host.state(), back.state());
        ASSERT_FALSE(diff) << "after step " << steps << ": " << *diff;
        EXPECT_EQ(back.tokens(), host.tokens()) << "after step " << steps;
        EXPECT_EQ(back.bot_to_move(), host.bot_to_move()) << "after step " << steps;
        EXPECT_TRUE(back.take_events().empty()) << "restoring made events";
        ++steps;
    });
    EXPECT_GT(steps, 30);
    auto back = restored(room);
    EXPECT_FALSE(state_difference(room.state(), back.state()));
}

TEST(AuthorityRestore, RestoredTokensActForTheirMembers) {
    TwoPlayers p;
    ASSERT_FALSE(
        p.room.act(p.ann.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(100)));
    auto back = RoomAuthority::restore(
        p.room.state().config(), {}, kSeed, p.room.state().log(), p.room.tokens(), at_ms(200));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->member_of(p.ann.token), p.ann.member);
    EXPECT_EQ(back->member_of(p.bob.token), p.bob.member);
    // ann has moved: it is bob's turn, and only bob's token plays it.
    std::string move = greedy_text(*back->state().game());
    auto refused = back->act(p.ann.token, action::Move { move }, at_ms(300));
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, Refusal::Code::kNotYourTurn);
    EXPECT_FALSE(back->act(p.bob.token, action::Move { move }, at_ms(300)));
    EXPECT_FALSE(back->act(p.ann.token, action::Chat { "still here" }, at_ms(400)));
    auto events = back->take_events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].seq, p.room.state().seq() + 1) << "the log goes on from where it was";
    // A rejoin with the token is the same member in the same seat.
    auto again = back->join("bob", p.bob.token, false, at_ms(500));
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->rejoined);
    EXPECT_EQ(again->member, p.bob.member);
    EXPECT_EQ(again->seat, 1);
}

TEST(AuthorityRestore, MemberIdsGoOnAfterTheLargestEverGiven) {
    auto room = lively_room();
    auto back = restored(room);
    // Members have left since the largest id was given: ids are still never reused.
    MemberId largest = largest_member_ever(room.state());
    ASSERT_LT(room.state().members().rbegin()->first, largest + 1);
    auto ticket = back.join("eve", "", true, at_ms(2'000'000));
    ASSERT_TRUE(ticket) << ticket.error().message;
    EXPECT_EQ(ticket->member, largest + 1);
    EXPECT_EQ(room.join("eve", "", true, at_ms(2'000'000))->member, ticket->member)
        << "the original room would have given the same id";
}

// A room that has used its member ids up (a standing room where strangers came and went for
// months; here its log says so) takes no newcomer, rather than wrap and hand one a seated
// player's id, and its computers still stand in for players gone.
TEST(AuthorityRestore, ARoomThatUsedUpItsMemberIdsTakesNoMoreAndReusesNone) {
    TwoPlayers p(lively_options());
    auto log = p.room.state().log();
    std::uint64_t seq = p.room.state().seq();
    std::int64_t ms = log.back().time_ms;
    MemberId last = RoomAuthority::kLastJoinable;
    log.push_back({ ++seq, ++ms, event::MemberJoined { last, "passer-by", kNoSeat, false } });
    log.push_back({ ++seq, ++ms, event::MemberLeft { last, false } });
    auto back = RoomAuthority::restore(
        p.room.state().config(), lively_options(), kSeed, log, p.room.tokens(), at_ms(100'000));
    ASSERT_TRUE(back) << back.error().message;
    back->take_events();
    auto refused = back->join("eve", "", true, at_ms(100'001));
    ASSERT_FALSE(refused) << "joined as member " << refused->member;
    EXPECT_NE(refused.error().message.find("takes no more"), std::string::npos)
        << refused.error().message;
    // bob's daemon is gone past the hold: a computer stands in, with an id past the last a
    // joiner gets, none reused.
    back->set_connected(p.bob.member, false, at_ms(100'002));
    back->tick(at_ms(10'000'000));
    std::set<MemberId> ids;
    for (const auto& e : back->state().log())
        if (auto* j = std::get_if<event::MemberJoined>(&e.body))
            EXPECT_TRUE(ids.insert(j->member).second) << "member id " << j->member << " reused";
    MemberId stand_in = back->state().seat_holder(1);
    EXPECT_GT(stand_in, last);
    ASSERT_NE(back->state().member(stand_in), nullptr);
    EXPECT_TRUE(back->state().member(stand_in)->bot);
}

// The very last id in a log (a hostile edit, or a room from before the limit): the next
// would wrap to 0 and then to a seated player's; nobody joins.
TEST(AuthorityRestore, AfterTheLastMemberIdNothingWraps) {
    TwoPlayers p(lively_options());
    auto log = p.room.state().log();
    std::uint64_t seq = p.room.state().seq();
    MemberId max = std::numeric_limits<MemberId>::max();
    log.push_back({ ++seq, 1, event::MemberJoined { max, "passer-by", kNoSeat, false } });
    log.push_back({ ++seq, 2, event::MemberLeft { max, false } });
    auto back = RoomAuthority::restore(
        p.room.state().config(), lively_options(), kSeed, log, p.room.tokens(), at_ms(100'000));
    ASSERT_TRUE(back) << back.error().message;
    for (int i = 0; i < 3; ++i) {
        auto refused = back->join("eve", "", true, at_ms(100'001 + i));
        ASSERT_FALSE(refused) << "joined as member " << refused->member;
    }
}

TEST(AuthorityRestore, TokensOfMembersWhoLeftAreIgnored) {
    TwoPlayers p;
    auto tokens = p.room.tokens();
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    // The tokens were written before bob left: his is stale and must not let anyone in.
    auto back = RoomAuthority::restore(
        p.room.state().config(), {}, kSeed, p.room.state().log(), tokens, at_ms(200));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->member_of(p.bob.token), kNoMember);
    EXPECT_EQ(back->member_of(p.ann.token), p.ann.member);
    auto refused = back->act(p.bob.token, action::Chat { "hi" }, at_ms(300));
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, Refusal::Code::kNotAllowed);
}

TEST(AuthorityRestore, ALogThatDoesNotReplayIsRefusedWithTheEvent) {
    TwoPlayers p;
    auto log = p.room.state().log();
    log[1].body = event::MemberJoined { p.ann.member, "twin", 1, false }; // ann's id again
    auto back = RoomAuthority::restore(p.room.state().config(), {}, kSeed, log, {}, at_ms(0));
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().message, "event 2: member id already in use");

    // A folded log may skip seqs, but never goes back.
    auto back_in_time = p.room.state().log();
    back_in_time[2].seq = back_in_time[1].seq;
    back = RoomAuthority::restore(p.room.state().config(), {}, kSeed, back_in_time, {}, at_ms(0));
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().message, "event 2: event 2 arrived where 3 was due");
}

TEST(AuthorityRestore, TwoMembersWithOneTokenAreRefused) {
    TwoPlayers p;
    std::map<MemberId, std::string> tokens { { p.ann.member, p.ann.token },
        { p.bob.member, p.ann.token } };
    auto back = RoomAuthority::restore(
        p.room.state().config(), {}, kSeed, p.room.state().log(), tokens, at_ms(0));
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().message, "two members hold the same seat token");
}

TEST(AuthorityRestore, AMemberAlreadyGoneIsHeldAfreshFromTheRestart) {
    AuthorityOptions options;
    options.hold = milliseconds(1000);
    TwoPlayers p(options);
    p.room.set_connected(p.bob.member, false, at_ms(100));
    auto back = RoomAuthority::restore(p.room.state().config(), options, kSeed,
        p.room.state().log(), p.room.tokens(), at_ms(50'000));
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_TRUE(back->next_deadline());
    EXPECT_EQ(*back->next_deadline(), at_ms(51'000).steady);
    back->tick(at_ms(50'999));
    EXPECT_TRUE(back->take_events().empty());
    back->tick(at_ms(51'000));
    auto events = back->take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* left = std::get_if<event::MemberLeft>(&events[0].body);
    ASSERT_NE(left, nullptr);
    EXPECT_EQ(left->member, p.bob.member);
    EXPECT_TRUE(left->timed_out);
}

TEST(AuthorityRestart, RemoteMembersAreMarkedGoneAndHeldButNotTheHostsOwnOrBots) {
    AuthorityOptions options;
    options.hold = milliseconds(1000);
    options.bots_available = true;
    RoomAuthority room(room_config(4), options, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value(); // the host's own player
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    auto wes = room.join("wes", "", true, at_ms(2)).value();
    ASSERT_EQ(room.add_bots(2, BotLevel::kEasy, at_ms(3)).value(), 2);
    room.take_events();
    std::uint64_t seq = room.state().seq();

    room.lose_remote_members(ann.member, at_ms(10));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 2u);
    std::set<MemberId> lost;
    for (const auto& e : events) {
        auto* c = std::get_if<event::Connection>(&e.body);
        ASSERT_NE(c, nullptr);
        EXPECT_FALSE(c->connected);
        lost.insert(c->member);
    }
    EXPECT_EQ(lost, (std::set<MemberId> { bob.member, wes.member }));
    EXPECT_EQ(room.state().seq(), seq + 2);
    EXPECT_EQ(*room.next_deadline(), at_ms(1010).steady);
    EXPECT_EQ(room.state().phase(), Phase::kPlaying) << "the game goes on";

    auto back = room.join("bob", bob.token, false, at_ms(20));
    ASSERT_TRUE(back);
    EXPECT_TRUE(back->rejoined);
    EXPECT_EQ(back->seat, 1);
    EXPECT_TRUE(room.state().member(bob.member)->connected);
    // Told again (a second restart before anyone came back), it changes nothing more.
    room.take_events();
    room.lose_remote_members(ann.member, at_ms(30));
    EXPECT_EQ(room.take_events().size(), 1u) << "only bob was back to lose";
}

// With a hold shorter than a daemon takes to notice the restart, the players kept nothing:
// each came back as a newcomer, in another seat.
TEST(AuthorityRestart, ASeatIsHeldAtLeastUntilThePlayersDaemonCanNoticeTheRestart) {
    AuthorityOptions options;
    options.hold = milliseconds(1000);
    options.restart_hold = milliseconds(7000);
    RoomAuthority room(room_config(3), options, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value();
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    auto cat = room.join("cat", "", false, at_ms(2)).value();
    room.lose_remote_members(ann.member, at_ms(10));
    EXPECT_EQ(*room.next_deadline(), at_ms(7010).steady);
    for (const auto& e : room.take_events())
        if (auto* lost = std::get_if<event::Connection>(&e.body))
            EXPECT_EQ(lost->hold_ms, 7000u) << "a restart's hold, as the events say it";
    room.tick(at_ms(5000)); // past the hold, within the restart's
    room.take_events();
    auto back = room.join("cat", cat.token, false, at_ms(5001));
    ASSERT_TRUE(back);
    EXPECT_TRUE(back->rejoined);
    EXPECT_EQ(back->seat, cat.seat);
    room.tick(at_ms(7010)); // bob never came back: his seat goes as the restart's hold ends
    auto events = room.take_events();
    auto left = std::find_if(events.begin(), events.end(), [&](const RoomEvent& e) {
        auto* l = std::get_if<event::MemberLeft>(&e.body);
        return l && l->member == bob.member;
    });
    EXPECT_NE(left, events.end()) << "bob's seat was not given up";
    // A player who vanishes later is held as long as the hold says.
    room.set_connected(cat.member, false, at_ms(8000));
    EXPECT_EQ(*room.next_deadline(), at_ms(9000).steady);
}

// The host's restart cut both players off; alice had voted for a new game, bob had not. Counted
// gone, bob let alice's vote carry when her daemon rejoined a millisecond before his.
TEST(AuthorityRestart, APlayerTheRestartCutOffStillCountsForVotes) {
    AuthorityOptions options;
    options.hold = milliseconds(60'000);
    RoomAuthority room(room_config(3), options, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value(); // the host's own player
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    auto cat = room.join("cat", "", false, at_ms(2)).value();
    ASSERT_EQ(room.state().game_number(), 1);
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kNewGame }, at_ms(3)));
    ASSERT_FALSE(room.act(cat.token, action::Vote { VoteKind::kNewGame }, at_ms(4)));
    room.lose_remote_members(ann.member, at_ms(10));
    room.join("cat", cat.token, false, at_ms(20)).value(); // cat's daemon is back first
    EXPECT_EQ(room.state().game_number(), 1) << "bob, cut off by the restart, has not voted";
    room.join("bob", bob.token, false, at_ms(21)).value();
    EXPECT_EQ(room.state().game_number(), 1);
    ASSERT_FALSE(room.act(bob.token, action::Vote { VoteKind::kNewGame }, at_ms(22)));
    EXPECT_EQ(room.state().game_number(), 2) << "all three voted";
    // One who vanishes on its own account (not the restart) no longer holds a cancel up, and
    // after it, no new game.
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kNewGame }, at_ms(30)));
    ASSERT_FALSE(room.act(cat.token, action::Vote { VoteKind::kNewGame }, at_ms(31)));
    room.set_connected(bob.member, false, at_ms(32));
    EXPECT_EQ(room.state().game_number(), 2) << "a game thrown away while bob was gone";
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kCancel }, at_ms(33)));
    ASSERT_FALSE(room.act(cat.token, action::Vote { VoteKind::kCancel }, at_ms(34)));
    ASSERT_EQ(room.state().phase(), Phase::kCancelled);
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kNewGame }, at_ms(35)));
    ASSERT_FALSE(room.act(cat.token, action::Vote { VoteKind::kNewGame }, at_ms(36)));
    EXPECT_EQ(room.state().game_number(), 3);
}

TEST(AuthorityRestart, OldCancelVotesDoNotCancelTheGameOnARestart) {
    AuthorityOptions options;
    options.hold = milliseconds(1000);
    RoomAuthority room(room_config(3), options, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value();
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    auto cat = room.join("cat", "", false, at_ms(2)).value();
    room.set_connected(cat.member, false, at_ms(3));
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kCancel }, at_ms(4)));
    room.join("cat", cat.token, false, at_ms(5)).value();
    ASSERT_EQ(room.state().phase(), Phase::kPlaying);

    room.lose_remote_members(ann.member, at_ms(10));
    EXPECT_EQ(room.state().phase(), Phase::kPlaying)
        << "ann's old vote must not cancel the game because the host restarted";
    (void)bob;
}

TEST(AuthorityClose, RoomClosedIsTheLastEventAndNothingIsAcceptedAfter) {
    AuthorityOptions options;
    options.bots_available = true;
    TwoPlayers p(options);
    p.room.set_connected(p.bob.member, false, at_ms(50));
    p.room.take_events();
    p.room.close(at_ms(100));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<event::RoomClosed>(events[0].body));
    EXPECT_EQ(p.room.state().phase(), Phase::kClosed);
    EXPECT_EQ(p.room.state().seat_to_move(), kNoSeat);
    EXPECT_FALSE(p.room.next_deadline()) << "no hold runs out in a closed room";

    auto join = p.room.join("cat", "", true, at_ms(200));
    ASSERT_FALSE(join);
    EXPECT_EQ(join.error().code, Refusal::Code::kUnknownRoom);
    auto rejoin = p.room.join("bob", p.bob.token, false, at_ms(200));
    ASSERT_FALSE(rejoin);
    for (Action a : std::vector<Action> { action::Move { "pass" }, action::Chat { "hi" },
             action::Vote { VoteKind::kNewGame }, action::Leave {}, action::Start {} }) {
        auto refused = p.room.act(p.ann.token, a, at_ms(300));
        ASSERT_TRUE(refused);
        EXPECT_EQ(refused->code, Refusal::Code::kBadRequest);
        EXPECT_EQ(refused->message, "room sunday has been closed");
    }
    EXPECT_FALSE(p.room.add_bots(1, std::nullopt, at_ms(300)));
    p.room.set_connected(p.ann.member, false, at_ms(400));
    p.room.lose_remote_members(kNoMember, at_ms(400));
    p.room.close(at_ms(500));
    p.room.tick(at_ms(1'000'000));
    EXPECT_TRUE(p.room.take_events().empty());

    // A replica applies it, and then nothing more; a restored closed room is still closed.
    RoomState replica(p.room.state().config());
    ASSERT_FALSE(replay(p.room.state().config(), p.room.state().log(), replica));
    EXPECT_EQ(replica.phase(), Phase::kClosed);
    auto after = replica.apply(
        RoomEvent { replica.seq() + 1, 0, event::Chat { p.ann.member, "too late" } });
    ASSERT_TRUE(after);
    EXPECT_EQ(*after, "the room is closed");
    auto back = RoomAuthority::restore(
        p.room.state().config(), {}, kSeed, p.room.state().log(), p.room.tokens(), at_ms(600));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->state().phase(), Phase::kClosed);
}

// A room a version before the forced pass left waiting for a player to type "pass" (its log as
// that version wrote it): restored at start-up, it passes for them at once.
TEST(AuthorityRestore, APassLeftToTypeIsPlayedAtStartUp) {
    RoomState old(room_config(2));
    auto add = [&](EventBody body) {
        RoomEvent e { old.seq() + 1, 1'700'000'000'000, std::move(body) };
        ASSERT_FALSE(old.apply(e));
    };
    add(event::MemberJoined { 1, "ann", 0, false });
    add(event::MemberJoined { 2, "bob", 1, false });
    add(event::GameStarted { 1, 0, { 0, 1 }, false });
    for (std::size_t ply = 0; ply < 107; ++ply) {
        const auto* game = old.game();
        auto move = engine::legal_move_along(
            game->position(), game->setup().rules, *engine::parse_path(kWalledInGame[ply]));
        ASSERT_TRUE(move) << ply;
        add(event::MovePlayed { old.seat_to_move(), *move,
            engine::move_path(game->position(), game->setup().rules, *move) });
    }
    ASSERT_EQ(old.seat_to_move(), 1) << "bob to move, with no move but to pass";
    auto back = RoomAuthority::restore(old.config(), lively_options(), kSeed, old.log(),
        { { 1, "ann-token" }, { 2, "bob-token" } }, at_ms(5000));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(back->take_events().empty()) << "restoring itself makes no event";
    back->catch_up(at_ms(5000));
    auto events = back->take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* pass = std::get_if<event::MovePlayed>(&events[0].body);
    ASSERT_TRUE(pass && pass->seat == 1 && pass->move.is_pass());
    EXPECT_EQ(back->state().seat_to_move(), 0);
}
