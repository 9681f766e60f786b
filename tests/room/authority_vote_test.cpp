// Votes: a new game needs every seated human (bots agree), and turns the colours one seat on;
// a cancel is allowed only when a seat holder has vanished, and carries when every human still
// here has voted.
#include "daemon/room/room_fold.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

template <class T> int count_of(const std::vector<RoomEvent>& events) {
    int n = 0;
    for (const auto& e : events) n += std::holds_alternative<T>(e.body);
    return n;
}

std::vector<engine::SetId> sets_of_seat(const RoomState& state, int seat) {
    return state.game()->setup().sets_of(state.player_of_seat(seat));
}

} // namespace

TEST(AuthorityVote, NoNewGameVoteBeforeTheFirstGame) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto refusal = room.act(a->token, action::Vote { VoteKind::kNewGame }, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "no game yet: the first one starts when every seat is taken");
}

TEST(AuthorityVote, ANewGameNeedsEverySeatedHuman) {
    TwoPlayers p;
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(20)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* vote = std::get_if<event::VoteCast>(&events[0].body);
    ASSERT_NE(vote, nullptr);
    EXPECT_EQ(vote->member, p.ann.member);
    EXPECT_EQ(vote->kind, VoteKind::kNewGame);
    EXPECT_EQ(p.room.state().game_number(), 1);
    EXPECT_EQ(p.room.state().votes(VoteKind::kNewGame).size(), 1u);

    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(21)));
    events = p.room.take_events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<event::VoteCast>(events[0].body));
    auto* started = std::get_if<event::GameStarted>(&events[1].body);
    ASSERT_NE(started, nullptr);
    EXPECT_EQ(started->game_number, 2);
    EXPECT_EQ(p.room.state().game_number(), 2);
    EXPECT_TRUE(p.room.state().votes(VoteKind::kNewGame).empty()) << "a new game clears votes";
    EXPECT_TRUE(p.room.state().game()->history().empty());
}

TEST(AuthorityVote, ASecondVoteOfTheSameMemberIsNoEvent) {
    TwoPlayers p;
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(20)));
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(21)));
    EXPECT_EQ(p.room.take_events().size(), 1u);
}

TEST(AuthorityVote, SpectatorsDoNotVote) {
    TwoPlayers p;
    auto w = p.room.join("wes", "", true, at_ms(20));
    for (auto kind : { VoteKind::kNewGame, VoteKind::kCancel }) {
        auto refusal = p.room.act(w->token, action::Vote { kind }, at_ms(21));
        ASSERT_TRUE(refusal);
        EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
        EXPECT_EQ(refusal->message, "spectators do not vote");
    }
}

TEST(AuthorityVote, ANewGameWaitsForAFreeSeatToBeTaken) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    auto c = room.join("cat", "", false, at_ms(2));
    ASSERT_EQ(room.state().game_number(), 1);
    ASSERT_FALSE(room.act(c->token, action::Leave {}, at_ms(3)));
    ASSERT_FALSE(room.act(a->token, action::Vote { VoteKind::kNewGame }, at_ms(4)));
    ASSERT_FALSE(room.act(b->token, action::Vote { VoteKind::kNewGame }, at_ms(5)));
    EXPECT_EQ(room.state().game_number(), 1) << "a seat is free";
    auto d = room.join("dan", "", false, at_ms(6));
    EXPECT_EQ(d->seat, 2);
    EXPECT_EQ(room.state().game_number(), 1) << "dan has not voted";
    ASSERT_FALSE(room.act(d->token, action::Vote { VoteKind::kNewGame }, at_ms(7)));
    EXPECT_EQ(room.state().game_number(), 2);
}

TEST(AuthorityVote, BotsAlwaysAgree) {
    AuthorityOptions options;
    options.bots_available = true;
    RoomAuthority room(room_config(3), options, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Start {}, at_ms(1)));
    ASSERT_EQ(room.state().game_number(), 1);
    ASSERT_FALSE(room.act(a->token, action::Vote { VoteKind::kNewGame }, at_ms(2)));
    EXPECT_EQ(room.state().game_number(), 2);
}

// Game n gives seat s player (s + n - 1) mod players: each seat starts from other sets.
TEST(AuthorityVote, ColoursTurnOneSeatEachGame) {
    for (auto [players, sets] :
        { std::pair { 2, 1 }, { 3, 1 }, { 4, 1 }, { 6, 1 }, { 2, 3 }, { 3, 2 } }) {
        SCOPED_TRACE(::testing::Message() << players << " players x " << sets << " sets");
        RoomAuthority room(room_config(players, sets), AuthorityOptions {}, kSeed);
        std::vector<std::string> tokens;
        for (int i = 0; i < players; ++i)
            tokens.push_back(room.join("p" + std::to_string(i), "", false, at_ms(i))->token);
        std::vector<std::vector<engine::SetId>> previous;
        for (int s = 0; s < players; ++s) previous.push_back(sets_of_seat(room.state(), s));
        for (int game = 2; game <= players + 1; ++game) {
            room.take_events();
            for (const auto& t : tokens)
                ASSERT_FALSE(room.act(t, action::Vote { VoteKind::kNewGame }, at_ms(100 + game)));
            auto events = room.take_events();
            ASSERT_FALSE(events.empty());
            auto* started = std::get_if<event::GameStarted>(&events.back().body);
            ASSERT_NE(started, nullptr);
            EXPECT_EQ(started->game_number, game);
            for (int s = 0; s < players; ++s) {
                EXPECT_EQ(
                    started->seat_player[static_cast<std::size_t>(s)], (s + game - 1) % players);
                auto now = sets_of_seat(room.state(), s);
                EXPECT_NE(now, previous[static_cast<std::size_t>(s)])
                    << "seat " << s << " has the same sets as last game";
                previous[static_cast<std::size_t>(s)] = now;
            }
            // Black goes to player 0's first set, so the first mover turns with the colours.
            EXPECT_EQ(room.state().seat_to_move(), room.state().seat_of_player(0));
        }
        // After a full turn of the table, every seat is back where it began.
        EXPECT_EQ(room.state().player_of_seat(0), 0);
    }
}

TEST(AuthorityVote, CancelIsRefusedWhileEveryoneIsHere) {
    TwoPlayers p;
    p.room.take_events();
    auto refusal = p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(20));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message,
        "every player is still here: a game is cancelled only when a player has vanished or "
        "let a turn run out");
    EXPECT_TRUE(p.room.take_events().empty());
}

TEST(AuthorityVote, CancelIsRefusedWithoutAGameBeingPlayed) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto refusal = room.act(a->token, action::Vote { VoteKind::kCancel }, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "no game is being played");
}

TEST(AuthorityVote, CancelCarriesWhenAPlayerVanished) {
    TwoPlayers p;
    p.room.set_connected(p.bob.member, false, at_ms(20));
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(21)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 2u);
    auto* vote = std::get_if<event::VoteCast>(&events[0].body);
    ASSERT_NE(vote, nullptr);
    EXPECT_EQ(vote->kind, VoteKind::kCancel);
    EXPECT_TRUE(std::holds_alternative<event::GameCancelled>(events[1].body));
    EXPECT_EQ(p.room.state().phase(), Phase::kCancelled);
    EXPECT_EQ(p.room.state().seat_to_move(), kNoSeat);
    auto refusal = p.room.act(p.ann.token, action::Move { "n1-m5" }, at_ms(22));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->message, "the game was cancelled");
    // A new game may still be voted for once bob is back.
    ASSERT_TRUE(p.room.join("bob", p.bob.token, false, at_ms(23))->rejoined);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(24)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(25)));
    EXPECT_EQ(p.room.state().phase(), Phase::kPlaying);
    EXPECT_EQ(p.room.state().game_number(), 2);
}

TEST(AuthorityVote, CancelNeedsEveryHumanStillHere) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    auto c = room.join("cat", "", false, at_ms(2));
    room.set_connected(c->member, false, at_ms(3));
    ASSERT_FALSE(room.act(a->token, action::Vote { VoteKind::kCancel }, at_ms(4)));
    EXPECT_EQ(room.state().phase(), Phase::kPlaying) << "bob has not voted";
    ASSERT_FALSE(room.act(b->token, action::Vote { VoteKind::kCancel }, at_ms(5)));
    EXPECT_EQ(room.state().phase(), Phase::kCancelled);
}

TEST(AuthorityVote, AnEmptySeatAllowsACancel) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    auto c = room.join("cat", "", false, at_ms(2));
    ASSERT_FALSE(room.act(c->token, action::Leave {}, at_ms(3)));
    ASSERT_FALSE(room.act(a->token, action::Vote { VoteKind::kCancel }, at_ms(4)));
    ASSERT_FALSE(room.act(b->token, action::Vote { VoteKind::kCancel }, at_ms(5)));
    EXPECT_EQ(room.state().phase(), Phase::kCancelled);
}

TEST(AuthorityVote, AVoteOfAMemberWhoLeftNoLongerCounts) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    ASSERT_FALSE(room.act(b->token, action::Vote { VoteKind::kNewGame }, at_ms(2)));
    ASSERT_FALSE(room.act(b->token, action::Leave {}, at_ms(3)));
    EXPECT_TRUE(room.state().votes(VoteKind::kNewGame).empty());
    auto c = room.join("cat", "", false, at_ms(4));
    ASSERT_FALSE(room.act(a->token, action::Vote { VoteKind::kNewGame }, at_ms(5)));
    EXPECT_EQ(room.state().game_number(), 1) << "cat has not voted";
    ASSERT_FALSE(room.act(c->token, action::Vote { VoteKind::kNewGame }, at_ms(6)));
    EXPECT_EQ(room.state().game_number(), 2);
}

TEST(AuthorityVote, HidingTheLeaderNeedsEverySeatedHumanAndLastsTheGame) {
    TwoPlayers p;
    RoomState replica(p.room.state().config());
    for (const auto& e : p.room.take_events()) ASSERT_FALSE(replica.apply(e));
    EXPECT_FALSE(p.room.state().leader_hidden());
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kLeader }, at_ms(20)));
    auto events = p.room.take_events();
    EXPECT_EQ(count_of<event::LeaderDisplay>(events), 0) << "one vote of two";
    for (const auto& e : events) ASSERT_FALSE(replica.apply(e));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kLeader }, at_ms(21)));
    events = p.room.take_events();
    ASSERT_EQ(count_of<event::LeaderDisplay>(events), 1);
    for (const auto& e : events) ASSERT_FALSE(replica.apply(e));
    EXPECT_TRUE(p.room.state().leader_hidden());
    EXPECT_TRUE(replica.leader_hidden()) << "the replica follows the host";
    EXPECT_TRUE(p.room.state().votes(VoteKind::kLeader).empty()) << "the agreement used the votes";

    // The fold keeps the agreement: a replica rebuilt from the folded log has it too.
    RoomState rebuilt(p.room.state().config());
    for (const auto& e : fold_log(p.room.state().log(), 0)) ASSERT_FALSE(rebuilt.replay(e));
    EXPECT_TRUE(rebuilt.leader_hidden());

    // The next game starts with the room's setting again.
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(30)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kNewGame }, at_ms(31)));
    EXPECT_EQ(p.room.state().game_number(), 2);
    EXPECT_FALSE(p.room.state().leader_hidden());
}

TEST(AuthorityVote, NoLeaderVoteWithoutAGame) {
    RoomAuthority room(room_config(2), AuthorityOptions {}, kSeed);
    auto a = room.join("ann", "", false, at_ms(0));
    auto refusal = room.act(a->token, action::Vote { VoteKind::kLeader }, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
}
