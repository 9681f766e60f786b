// A command sent again with the same id (a front end or a peer retrying after a lost answer) is
// answered as the first time and never carried out twice (docs/protocol.md, Deadlines and retries).
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;

TEST(Retry, ACommandSentTwiceIsCarriedOutOnce) {
    TwoPlayers p;
    p.room.take_events();
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(10), "k1"));
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(11), "k1"));
    EXPECT_EQ(p.room.take_events().size(), 1u);
    // Another id, or another member with the same id, is another command.
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(12), "k2"));
    EXPECT_FALSE(p.room.act(p.bob.token, action::Chat { "hi" }, at_ms(13), "k1"));
    EXPECT_EQ(p.room.take_events().size(), 2u);
    // No id: nothing remembered, every send acts.
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(14)));
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(15)));
    EXPECT_EQ(p.room.take_events().size(), 2u);
}

TEST(Retry, ARefusalIsAnsweredAgainAsItWas) {
    TwoPlayers p;
    auto first = p.room.act(p.ann.token, action::Chat { " " }, at_ms(10), "k1");
    ASSERT_TRUE(first);
    auto again = p.room.act(p.ann.token, action::Chat { " " }, at_ms(11), "k1");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->message, first->message);
    EXPECT_TRUE(p.room.state().chat().empty());
}

// A front end that reuses a key for a new request (keys counted from 1 again after its
// restart): answering "done" as for the first would tell it a leave was carried out that never
// was, and its daemon would forget a room whose host keeps the seat.
TEST(Retry, AnotherActionUnderAKeyUsedBeforeIsRefusedNamingTheFirst) {
    TwoPlayers p;
    ASSERT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(10), "k1"));
    p.room.take_events();
    auto leave = p.room.act(p.ann.token, action::Leave {}, at_ms(11), "k1");
    ASSERT_TRUE(leave);
    EXPECT_EQ(leave->code, Refusal::Code::kBadRequest);
    EXPECT_NE(
        leave->message.find("used before for another request, a chat line"), std::string::npos)
        << leave->message;
    EXPECT_TRUE(p.room.take_events().empty());
    EXPECT_NE(p.room.state().member(p.ann.member), nullptr); // still in the room
    // Another chat line under it is another request too; the same line again is the retry.
    EXPECT_TRUE(p.room.act(p.ann.token, action::Chat { "hello" }, at_ms(12), "k1"));
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "hi" }, at_ms(13), "k1"));
    EXPECT_TRUE(p.room.take_events().empty());
    // A move under a key its chat had: refused, the move not played.
    auto moves = p.room.state().game()->history().size();
    auto move = p.room.act(p.ann.token, action::Move { "n3-m7" }, at_ms(14), "k1");
    ASSERT_TRUE(move);
    EXPECT_NE(move->message.find("used before"), std::string::npos) << move->message;
    EXPECT_EQ(p.room.state().game()->history().size(), moves);
    // Under a new key, the leave is carried out.
    EXPECT_FALSE(p.room.act(p.ann.token, action::Leave {}, at_ms(15), "k2"));
    EXPECT_EQ(p.room.state().member(p.ann.member), nullptr);
}

TEST(Retry, OnlyTheLatestIdsAreRemembered) {
    TwoPlayers p;
    // A second apart: chat is rate-limited (docs/protocol.md, Limits), and this is about ids.
    std::int64_t ms = 0;
    for (std::size_t i = 0; i <= RoomAuthority::kRememberedCommands; ++i)
        ASSERT_FALSE(p.room.act(
            p.ann.token, action::Chat { "x" }, at_ms(ms += 1000), "k" + std::to_string(i)));
    p.room.take_events();
    // k0 was pushed out by the 65th; k1 is still known.
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "x" }, at_ms(ms += 1000), "k1"));
    EXPECT_TRUE(p.room.take_events().empty());
    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { "x" }, at_ms(ms += 1000), "k0"));
    EXPECT_EQ(p.room.take_events().size(), 1u);
}
