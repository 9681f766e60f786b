// Computer players: add_bots and the Start action fill free seats at the level asked for (or
// the daemon's default), only where bots are available; bot_move is checked like a member's.
#include "engine/movegen.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

AuthorityOptions with_bots(BotLevel default_level = BotLevel::kHard) {
    AuthorityOptions options;
    options.bots_available = true;
    options.default_bot_level = default_level;
    return options;
}

} // namespace

TEST(AuthorityBots, AddBotsFillsFreeSeatsAtTheLevelAsked) {
    RoomAuthority room(room_config(4), with_bots(BotLevel::kHard), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    room.take_events();
    auto added = room.add_bots(1, BotLevel::kEasy, at_ms(1));
    ASSERT_TRUE(added);
    EXPECT_EQ(*added, 1);
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* joined = std::get_if<event::MemberJoined>(&events[0].body);
    ASSERT_NE(joined, nullptr);
    EXPECT_TRUE(joined->bot);
    EXPECT_EQ(joined->bot_level, BotLevel::kEasy);
    EXPECT_EQ(joined->seat, 1);
    EXPECT_EQ(joined->name, "bot");
    const Member* bot = room.state().member(joined->member);
    ASSERT_NE(bot, nullptr);
    EXPECT_TRUE(bot->bot);
    EXPECT_EQ(bot->bot_level, BotLevel::kEasy);
    EXPECT_EQ(room.state().phase(), Phase::kWaiting);

    // Unset: the daemon's default. More than the free seats: as many as fit.
    added = room.add_bots(5, std::nullopt, at_ms(2));
    ASSERT_TRUE(added);
    EXPECT_EQ(*added, 2);
    EXPECT_EQ(room.state().member(room.state().seat_holder(2))->bot_level, BotLevel::kHard);
    EXPECT_EQ(room.state().member(room.state().seat_holder(3))->name, "bot (3)");
    EXPECT_EQ(room.state().phase(), Phase::kPlaying) << "the last seat taken starts the game";
    EXPECT_EQ(*room.add_bots(1, std::nullopt, at_ms(3)), 0) << "no seat left";
    (void)a;
}

TEST(AuthorityBots, RefusedWhereThereAreNoBots) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    room.take_events();
    auto added = room.add_bots(1, std::nullopt, at_ms(1));
    ASSERT_FALSE(added);
    EXPECT_EQ(added.error().code, Refusal::Code::kBadRequest);
    EXPECT_EQ(added.error().message,
        "this halmad has no computer players: the game starts when every seat is taken");
    auto refusal = room.act(a->token, action::Start {}, at_ms(2));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, added.error().message);
    EXPECT_TRUE(room.take_events().empty());
}

TEST(AuthorityBots, StartFillsEveryFreeSeatAndStarts) {
    RoomAuthority room(room_config(4), with_bots(BotLevel::kHard), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    room.take_events();
    ASSERT_FALSE(room.act(a->token, action::Start { BotLevel::kEasy }, at_ms(1)));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 4u);
    for (int i = 0; i < 3; ++i) {
        auto* j = std::get_if<event::MemberJoined>(&events[static_cast<std::size_t>(i)].body);
        ASSERT_NE(j, nullptr);
        EXPECT_TRUE(j->bot);
        EXPECT_EQ(j->bot_level, BotLevel::kEasy);
        EXPECT_EQ(j->seat, i + 1);
    }
    EXPECT_TRUE(std::holds_alternative<event::GameStarted>(events[3].body));
    EXPECT_EQ(room.state().phase(), Phase::kPlaying);
}

TEST(AuthorityBots, StartWithoutALevelTakesTheDefault) {
    RoomAuthority room(room_config(2), with_bots(BotLevel::kEasy), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    EXPECT_EQ(room.state().member(room.state().seat_holder(1))->bot_level, BotLevel::kEasy);
}

TEST(AuthorityBots, StartRefusals) {
    RoomAuthority room(room_config(2), with_bots(), kSeed);
    auto w = room.join("wes", "", true, at_ms(0));
    auto refusal = room.act(w->token, action::Start {}, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
    EXPECT_EQ(refusal->message, "spectators cannot start the game");

    auto a = room.join("ann", "", false, at_ms(2));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(3)));
    refusal = room.act(a->token, action::Start {}, at_ms(4));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(
        refusal->message, "the game has started already; to start another, vote for a new game");
}

TEST(AuthorityBots, BotToMoveAndBotMove) {
    RoomAuthority room(room_config(2), with_bots(), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    EXPECT_EQ(room.bot_to_move(), kNoMember) << "no game";
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    MemberId bot = room.state().seat_holder(1);
    ASSERT_EQ(room.state().seat_to_move(), 0);
    EXPECT_EQ(room.bot_to_move(), kNoMember) << "ann's turn";

    // Not the bot's turn.
    engine::Move ann_move = greedy_move(*room.state().game());
    auto refusal = room.bot_move(bot, ann_move, at_ms(2));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotYourTurn);
    EXPECT_EQ(refusal->message, "the bot's turn has passed");

    ASSERT_FALSE(room.act(a->token, action::Move { engine::move_name(ann_move) }, at_ms(3)));
    EXPECT_EQ(room.bot_to_move(), bot);

    // A human is not a bot, even on the bot's turn; nor is a member who does not exist.
    for (MemberId who : { a->member, MemberId { 77 } }) {
        refusal = room.bot_move(who, greedy_move(*room.state().game()), at_ms(4));
        ASSERT_TRUE(refusal);
        EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
        EXPECT_EQ(refusal->message, "not a bot of this room");
    }
    // Illegal for the bot: the engine's reason.
    const engine::Game& game = *room.state().game();
    engine::Move wrong { ann_move.to, ann_move.from, engine::Move::kNormal };
    auto why = engine::explain_illegal(game.position(), game.setup().rules, wrong);
    ASSERT_TRUE(why);
    refusal = room.bot_move(bot, wrong, at_ms(5));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kIllegalMove);
    EXPECT_EQ(refusal->message, why->message);
    refusal = room.bot_move(bot, engine::Move::pass(), at_ms(5));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kIllegalMove);

    room.take_events();
    engine::Move m = greedy_move(game);
    auto path = engine::move_path(game.position(), game.setup().rules, m);
    ASSERT_FALSE(room.bot_move(bot, m, at_ms(6)));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* played = std::get_if<event::MovePlayed>(&events[0].body);
    ASSERT_NE(played, nullptr);
    EXPECT_EQ(played->seat, 1);
    EXPECT_EQ(played->move, m);
    EXPECT_EQ(played->path, path);
    EXPECT_EQ(room.bot_to_move(), kNoMember);
    EXPECT_EQ(room.state().seat_to_move(), 0);
}

TEST(AuthorityBots, BotsNeverTakeATokenOrVanish) {
    RoomAuthority room(room_config(3), with_bots(), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    for (int s = 1; s < 3; ++s) {
        MemberId bot = room.state().seat_holder(s);
        room.set_connected(bot, false, at_ms(2));
        EXPECT_TRUE(room.state().member(bot)->connected);
    }
    // ann against bots: nobody can vanish, so a cancel vote is refused.
    auto refusal = room.act(a->token, action::Vote { VoteKind::kCancel }, at_ms(3));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
}

TEST(AuthorityBots, AGameOfBotsAndOneHumanPlaysOut) {
    RoomAuthority room(room_config(3, 1, "", 30), with_bots(), kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    for (int ply = 0; room.state().phase() == Phase::kPlaying && ply < 200; ++ply) {
        engine::Move m = greedy_move(*room.state().game());
        if (MemberId bot = room.bot_to_move(); bot != kNoMember)
            ASSERT_FALSE(room.bot_move(bot, m, at_ms(10 + ply)));
        else
            ASSERT_FALSE(
                room.act(a->token, action::Move { engine::move_name(m) }, at_ms(10 + ply)));
    }
    EXPECT_EQ(room.state().phase(), Phase::kOver) << "the move limit of 30 ends it";
}
