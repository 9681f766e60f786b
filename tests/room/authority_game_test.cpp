// Playing in a room: the game starts when the last seat is taken, moves are checked for turn,
// seat and legality (the engine's reasons), and a MovePlayed carries the path to animate.
#include "engine/movegen.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>
#include <span>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

const event::GameStarted* started_in(const std::vector<RoomEvent>& events) {
    for (const auto& e : events)
        if (auto* s = std::get_if<event::GameStarted>(&e.body)) return s;
    return nullptr;
}

} // namespace

TEST(AuthorityGame, StartsWhenTheLastSeatIsTaken) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    room.join("wes", "", true, at_ms(2));
    EXPECT_EQ(room.state().phase(), Phase::kWaiting);
    EXPECT_EQ(started_in(room.take_events()), nullptr);
    EXPECT_EQ(room.state().game(), nullptr);
    auto c = room.join("cat", "", false, at_ms(3));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<event::MemberJoined>(events[0].body));
    auto* started = std::get_if<event::GameStarted>(&events[1].body);
    ASSERT_NE(started, nullptr);
    EXPECT_EQ(started->game_number, 1);
    EXPECT_EQ(started->seat_player, (std::vector<int> { 0, 1, 2 }));
    EXPECT_EQ(started->first_set, 0) << "first=black: black is player 0's first set";
    EXPECT_EQ(room.state().phase(), Phase::kPlaying);
    EXPECT_EQ(room.state().game_number(), 1);
    ASSERT_NE(room.state().game(), nullptr);
    EXPECT_EQ(room.state().seat_to_move(), 0);
    EXPECT_EQ(room.state().player_of_seat(2), 2);
    (void)a, (void)b, (void)c;
}

TEST(AuthorityGame, TheCoinPicksASetInPlay) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        RoomAuthority room(room_config(3, 1, "first=coin"), AuthorityOptions {}, seed);
        room.join("ann", "", false, at_ms(0));
        room.join("bob", "", false, at_ms(1));
        room.join("cat", "", false, at_ms(2));
        auto events = room.take_events();
        auto* started = started_in(events);
        ASSERT_NE(started, nullptr);
        auto sets = room_config(3).mode.setup().sets();
        EXPECT_TRUE(engine::has_set(sets, started->first_set)) << int(started->first_set);
        EXPECT_EQ(room.state().game()->set_to_move(), started->first_set);
    }
}

TEST(AuthorityGame, AMoveBeforeTheGameIsRefused) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto refusal = room.act(a->token, action::Move { "n1-m5" }, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "the game has not started: waiting for 1 more player(s)");
}

TEST(AuthorityGame, AMoveIsPlayedWithItsPath) {
    TwoPlayers p;
    p.room.take_events();
    const engine::Game& game = *p.room.state().game();
    engine::Move m = greedy_move(game);
    auto expected_path = engine::move_path(game.position(), game.setup().rules, m);
    std::string before = game.position().to_string();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Move { engine::move_name(m) }, at_ms(20)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* played = std::get_if<event::MovePlayed>(&events[0].body);
    ASSERT_NE(played, nullptr);
    EXPECT_EQ(played->seat, 0);
    EXPECT_EQ(played->move, m);
    ASSERT_GE(played->path.size(), 2u);
    EXPECT_EQ(played->path, expected_path);
    EXPECT_EQ(played->path.front(), m.from);
    EXPECT_EQ(played->path.back(), m.to);
    EXPECT_NE(p.room.state().game()->position().to_string(), before);
    EXPECT_EQ(p.room.state().seat_to_move(), 1);
    ASSERT_EQ(p.room.state().last_played().size(), 1u);
    EXPECT_EQ(p.room.state().last_played()[0].move, m);
}

TEST(AuthorityGame, AHopChainMayBeGivenInFull) {
    TwoPlayers p;
    // Step ann's front marble out, so bob's reply from the top can be played as given; then
    // find a move of ann's that hops, and play it by its full path.
    for (int ply = 0; ply < 12; ++ply) {
        const engine::Game& game = *p.room.state().game();
        engine::MoveList list;
        game.legal_moves(list);
        for (engine::Move m : list) {
            auto path = engine::move_path(game.position(), game.setup().rules, m);
            if (path.size() < 3) continue;
            const auto& token = p.room.state().seat_to_move() == 0 ? p.ann.token : p.bob.token;
            p.room.take_events();
            ASSERT_FALSE(p.room.act(token, action::Move { engine::path_name(path) }, at_ms(50)));
            auto events = p.room.take_events();
            ASSERT_EQ(events.size(), 1u);
            EXPECT_EQ(std::get<event::MovePlayed>(events[0].body).path, path);
            return;
        }
        const auto& token = p.room.state().seat_to_move() == 0 ? p.ann.token : p.bob.token;
        ASSERT_FALSE(p.room.act(token, action::Move { greedy_text(game) }, at_ms(20 + ply)));
    }
    FAIL() << "no hop came up in 12 plies";
}

TEST(AuthorityGame, OutOfTurnIsRefused) {
    TwoPlayers p;
    p.room.take_events();
    auto refusal = p.room.act(p.bob.token, action::Move { "d1-e5" }, at_ms(20));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotYourTurn);
    EXPECT_EQ(refusal->message, "not your turn: it is ann's turn (seat 1)");
    EXPECT_TRUE(p.room.take_events().empty());
}

TEST(AuthorityGame, SpectatorsCannotMove) {
    TwoPlayers p;
    auto w = p.room.join("wes", "", true, at_ms(20));
    ASSERT_TRUE(w);
    auto refusal
        = p.room.act(w->token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(21));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
    EXPECT_EQ(refusal->message, "spectators cannot move");
}

TEST(AuthorityGame, IllegalMovesAreRefusedWithTheEnginesReason) {
    TwoPlayers p;
    p.room.take_events();
    const engine::Game& game = *p.room.state().game();
    const auto& rules = game.setup().rules;
    for (std::string text : { "a1-b1", "q1-i5", "n1-n2", "o1-m5-k5" }) {
        auto path = engine::parse_path(text);
        ASSERT_TRUE(path) << text;
        auto legal = engine::legal_move_along(game.position(), rules, *path);
        ASSERT_FALSE(legal) << text << " is legal after all";
        auto refusal = p.room.act(p.ann.token, action::Move { text }, at_ms(20));
        ASSERT_TRUE(refusal) << text;
        EXPECT_EQ(refusal->code, Refusal::Code::kIllegalMove) << text;
        EXPECT_EQ(refusal->message, legal.error().message) << text;
    }
    auto refusal = p.room.act(p.ann.token, action::Move { "a1-b1" }, at_ms(21));
    EXPECT_EQ(
        refusal->message, "a1 holds a marble of red (set 4); it is the turn of black (set 1)");
    EXPECT_TRUE(p.room.take_events().empty());
    EXPECT_EQ(p.room.state().seat_to_move(), 0);
}

TEST(AuthorityGame, UnreadableMovesAreRefused) {
    TwoPlayers p;
    for (std::string text : { "", "o1", "zz-m7", "o1-m7-", "hello" }) {
        auto refusal = p.room.act(p.ann.token, action::Move { text }, at_ms(20));
        ASSERT_TRUE(refusal) << "'" << text << "'";
        EXPECT_EQ(refusal->code, Refusal::Code::kIllegalMove) << "'" << text << "'";
        auto parsed = engine::parse_path(text);
        ASSERT_FALSE(parsed) << text;
        EXPECT_EQ(refusal->message, parsed.error().message);
    }
}

TEST(AuthorityGame, PassIsRefusedWhileThereIsALegalMove) {
    TwoPlayers p;
    p.room.take_events();
    auto refusal = p.room.act(p.ann.token, action::Move { "pass" }, at_ms(20));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kIllegalMove);
    EXPECT_EQ(refusal->message, "black (set 1) has legal moves and may not pass");
    EXPECT_TRUE(p.room.take_events().empty());
}

TEST(AuthorityGame, AGameOverRefusesMoves) {
    // A move limit of 2 ends the game on distance after two moves each.
    TwoPlayers p({}, room_config(2, 1, "", 2));
    for (int ply = 0; ply < 4; ++ply) {
        const auto& token = p.room.state().seat_to_move() == 0 ? p.ann.token : p.bob.token;
        ASSERT_FALSE(p.room.act(
            token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(20 + ply)));
    }
    EXPECT_EQ(p.room.state().phase(), Phase::kOver);
    EXPECT_EQ(p.room.state().seat_to_move(), kNoSeat);
    auto refusal = p.room.act(p.ann.token, action::Move { "n1-m5" }, at_ms(30));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "the game is over");
}

TEST(AuthorityGame, AWholeGameIsPlayedToTheEnd) {
    TwoPlayers p;
    int plies = 0;
    for (; p.room.state().phase() == Phase::kPlaying && plies < 1000; ++plies) {
        int seat = p.room.state().seat_to_move();
        const auto& token = seat == 0 ? p.ann.token : p.bob.token;
        ASSERT_FALSE(p.room.act(
            token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(100 + plies)));
    }
    ASSERT_EQ(p.room.state().phase(), Phase::kOver) << "after " << plies << " plies";
    auto standings = p.room.state().game()->standings();
    ASSERT_EQ(standings.size(), 2u);
    EXPECT_TRUE(standings[0].finished);
    EXPECT_EQ(standings[0].place, 1);
    int leader = p.room.state().leader_seat();
    if (standings[1].finished && standings[1].moves == standings[0].moves)
        EXPECT_EQ(leader, kNoSeat) << "a draw has no leader";
    else
        EXPECT_EQ(leader, p.room.state().seat_of_player(standings[0].player));
}

// A game two people played (a QA pass): each left the marble at the tip of its start, and from
// move 108 bob's set had no move but to pass, then after move 129 neither had. The room passes for
// bob at once each time (he was left to find out and type "pass", turn after turn), and the
// game ends at the first position where nobody can move, placed by distance; it went on for 200
// typed passes. The moves as played (kWalledInGame), "pass" where the room now passes by itself.
TEST(AuthorityGame, ASetWithNoMovePassesAtOnceAndNobodyAbleToMoveEndsTheGame) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0));
    auto bob = room.join("bob", "", false, at_ms(1));
    ASSERT_TRUE(ann && bob);
    std::size_t ply = 0;
    for (std::string_view text : std::span(kWalledInGame).first(129)) {
        const auto& names = room.state().move_names();
        if (text == "pass") {
            ASSERT_GT(names.size(), ply) << "no pass made for the set at ply " << ply + 1;
            EXPECT_EQ(names[ply], "pass") << "ply " << ply + 1;
        } else {
            ASSERT_EQ(room.state().phase(), Phase::kPlaying) << "ply " << ply + 1;
            ASSERT_EQ(names.size(), ply) << "ply " << ply + 1;
            const auto& token = room.state().seat_to_move() == 0 ? ann->token : bob->token;
            auto refused = room.act(token, action::Move { std::string(text) }, at_ms(10 + ply));
            ASSERT_FALSE(refused) << "ply " << ply + 1 << " " << text << ": " << refused->message;
        }
        ++ply;
    }
    EXPECT_EQ(room.state().move_names().size(), 129u);
    EXPECT_EQ(room.state().phase(), Phase::kOver);
    EXPECT_EQ(room.state().game()->end(), engine::GameEnd::kStalled);
}
