// A vanished member's seat is held for the hold time: next_deadline() says when it runs out,
// tick() frees the seat then, and coming back before cancels it.
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
using std::chrono::milliseconds;

namespace {

AuthorityOptions hold_of(int ms) {
    AuthorityOptions options;
    options.hold = milliseconds(ms);
    return options;
}

} // namespace

TEST(AuthorityHold, NoDeadlineWhileEveryoneIsHere) {
    TwoPlayers p(hold_of(1000));
    EXPECT_FALSE(p.room.next_deadline());
    p.room.take_events();
    p.room.tick(at_ms(1'000'000));
    EXPECT_TRUE(p.room.take_events().empty());
}

TEST(AuthorityHold, ALostMemberIsMarkedAndItsSeatHeld) {
    TwoPlayers p(hold_of(1000));
    p.room.take_events();
    p.room.set_connected(p.bob.member, false, at_ms(100));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* lost = std::get_if<event::Connection>(&events[0].body);
    ASSERT_NE(lost, nullptr);
    EXPECT_EQ(lost->member, p.bob.member);
    EXPECT_FALSE(lost->connected);
    EXPECT_EQ(lost->hold_ms, 1000u)
        << "the event says how long the seat is held (replicas count it down)";
    EXPECT_EQ(p.room.state().seat_holder(1), p.bob.member);
    ASSERT_TRUE(p.room.next_deadline());
    EXPECT_EQ(*p.room.next_deadline(), at_ms(1100).steady);
    ASSERT_TRUE(p.room.held_until(p.bob.member));
    EXPECT_EQ(*p.room.held_until(p.bob.member), at_ms(1100).steady);
    EXPECT_FALSE(p.room.held_until(p.ann.member));
    // Told twice, it is one event.
    p.room.set_connected(p.bob.member, false, at_ms(200));
    EXPECT_TRUE(p.room.take_events().empty());
    EXPECT_EQ(*p.room.next_deadline(), at_ms(1100).steady) << "the hold is not extended";
}

TEST(AuthorityHold, TheSeatIsFreedWhenTheHoldRunsOut) {
    TwoPlayers p(hold_of(1000));
    p.room.set_connected(p.bob.member, false, at_ms(100));
    p.room.take_events();
    p.room.tick(at_ms(1099));
    EXPECT_TRUE(p.room.take_events().empty()) << "one millisecond early";
    EXPECT_NE(p.room.state().member(p.bob.member), nullptr);

    p.room.tick(at_ms(1100));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* left = std::get_if<event::MemberLeft>(&events[0].body);
    ASSERT_NE(left, nullptr);
    EXPECT_EQ(left->member, p.bob.member);
    EXPECT_TRUE(left->timed_out);
    EXPECT_EQ(p.room.state().member(p.bob.member), nullptr);
    EXPECT_EQ(p.room.state().seat_holder(1), kNoMember);
    EXPECT_EQ(p.room.member_of(p.bob.token), kNoMember) << "the token is dead";
    EXPECT_FALSE(p.room.next_deadline());
    EXPECT_EQ(p.room.state().name_of(p.bob.member), "bob") << "the story still names bob";

    auto again = p.room.join("bob", p.bob.token, false, at_ms(1200));
    ASSERT_TRUE(again);
    EXPECT_FALSE(again->rejoined);
    EXPECT_EQ(again->seat, 1) << "a new member in the first free seat";
}

TEST(AuthorityHold, ComingBackBeforeTheHoldRunsOutKeepsTheSeat) {
    TwoPlayers p(hold_of(1000));
    p.room.set_connected(p.bob.member, false, at_ms(100));
    auto again = p.room.join("bob", p.bob.token, false, at_ms(600));
    ASSERT_TRUE(again && again->rejoined);
    EXPECT_FALSE(p.room.next_deadline());
    p.room.take_events();
    p.room.tick(at_ms(5000));
    EXPECT_TRUE(p.room.take_events().empty());
    EXPECT_EQ(p.room.state().seat_holder(1), p.bob.member);
}

TEST(AuthorityHold, ReconnectingCancelsTheHold) {
    TwoPlayers p(hold_of(1000));
    p.room.set_connected(p.bob.member, false, at_ms(100));
    p.room.set_connected(p.bob.member, true, at_ms(300));
    EXPECT_TRUE(p.room.state().member(p.bob.member)->connected);
    EXPECT_FALSE(p.room.next_deadline());
    p.room.tick(at_ms(5000));
    EXPECT_NE(p.room.state().member(p.bob.member), nullptr);
    // Lost again later: a fresh hold from then.
    p.room.set_connected(p.bob.member, false, at_ms(6000));
    EXPECT_EQ(*p.room.next_deadline(), at_ms(7000).steady);
}

TEST(AuthorityHold, TheEarliestHoldIsTheNextDeadline) {
    RoomAuthority room(room_config(3), hold_of(1000), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(0));
    auto w = room.join("wes", "", true, at_ms(0));
    room.set_connected(b->member, false, at_ms(500));
    room.set_connected(w->member, false, at_ms(200));
    EXPECT_EQ(*room.next_deadline(), at_ms(1200).steady);
    room.take_events();
    room.tick(at_ms(1300));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(std::get<event::MemberLeft>(events[0].body).member, w->member);
    EXPECT_EQ(*room.next_deadline(), at_ms(1500).steady);
    room.tick(at_ms(1500));
    EXPECT_FALSE(room.next_deadline());
    EXPECT_EQ(room.state().members().size(), 1u);
    EXPECT_EQ(room.state().members().begin()->first, a->member);
}

TEST(AuthorityHold, LeavingWhileHeldEndsTheHold) {
    TwoPlayers p(hold_of(1000));
    p.room.set_connected(p.bob.member, false, at_ms(100));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(200)));
    EXPECT_FALSE(p.room.next_deadline());
    p.room.take_events();
    p.room.tick(at_ms(5000));
    EXPECT_TRUE(p.room.take_events().empty()) << "no second MemberLeft";
}

TEST(AuthorityHold, UnknownMembersAndBotsAreNotHeld) {
    AuthorityOptions options = hold_of(1000);
    options.bots_available = true;
    RoomAuthority room(room_config(2), options, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    MemberId bot = room.state().seat_holder(1);
    room.take_events();
    room.set_connected(bot, false, at_ms(2));
    room.set_connected(999, false, at_ms(2));
    EXPECT_TRUE(room.take_events().empty());
    EXPECT_FALSE(room.next_deadline());
    EXPECT_TRUE(room.state().member(bot)->connected);
}

TEST(AuthorityHold, TheGameGoesOnAfterATimeOut) {
    TwoPlayers p(hold_of(1000));
    p.room.set_connected(p.bob.member, false, at_ms(100));
    p.room.tick(at_ms(1100));
    EXPECT_EQ(p.room.state().phase(), Phase::kPlaying);
    auto cat = p.room.join("cat", "", false, at_ms(1200));
    ASSERT_TRUE(cat);
    EXPECT_EQ(cat->seat, 1);
    EXPECT_EQ(p.room.state().game_number(), 1) << "cat takes over bob's marbles";
    EXPECT_EQ(p.room.state().player_of_seat(1), 1);
}
