// Taking back a move: the player asks (VOTE_KIND_TAKE_BACK), every other person present agrees
// (computers at once), and one MovesTakenBack puts the game back to before the asker's last own
// move, the same on the host, after its restart (the log and its fold) and on every replica.
#include "daemon/room/game_recording.h"
#include "daemon/room/room_fold.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;

namespace {

void move_greedy(RoomAuthority& room, const SeatTicket& who, std::int64_t ms) {
    auto refusal
        = room.act(who.token, action::Move { greedy_text(*room.state().game()) }, at_ms(ms));
    ASSERT_FALSE(refusal) << refusal->message;
}

const event::MovesTakenBack* taken_back_in(const std::vector<RoomEvent>& events) {
    for (const auto& e : events)
        if (auto* t = std::get_if<event::MovesTakenBack>(&e.body)) return t;
    return nullptr;
}

// ann in a two-player room whose other seat /start gave a computer, the game begun.
struct AgainstAComputer {
    RoomAuthority room { room_config(2), with_bots(), kSeed };
    SeatTicket ann = room.join("ann", "", false, at_ms(0)).value();

    AgainstAComputer() { EXPECT_FALSE(room.act(ann.token, action::Start {}, at_ms(1))); }
    static AuthorityOptions with_bots() {
        AuthorityOptions options;
        options.bots_available = true;
        return options;
    }
    // The computer's move, if it is its turn.
    void bot_moves(std::int64_t ms) {
        if (MemberId bot = room.bot_to_move(); bot != kNoMember)
            ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(ms)));
    }
};

} // namespace

TEST(AuthorityTakeBack, TakesBackTheAskersMoveAndTheReplyOnceTheOtherAgrees) {
    TwoPlayers p;
    ASSERT_EQ(p.room.state().seat_to_move(), p.ann.seat);
    const engine::Position start = p.room.state().game()->position();
    move_greedy(p.room, p.ann, 20);
    move_greedy(p.room, p.bob, 21);
    const std::string bobs = p.room.state().move_names().back();
    p.room.take_events();

    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(22)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u) << "asking alone takes nothing back";
    EXPECT_EQ(p.room.state().take_back_asker(), p.ann.member);
    EXPECT_EQ(p.room.state().game()->history().size(), 2u);

    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(23)));
    events = p.room.take_events();
    const auto* back = taken_back_in(events);
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(back->count, 2u) << "ann's move and bob's reply";
    const RoomState& s = p.room.state();
    EXPECT_EQ(s.game()->position(), start);
    EXPECT_TRUE(s.game()->history().empty());
    EXPECT_TRUE(s.move_names().empty());
    EXPECT_EQ(s.seat_to_move(), p.ann.seat) << "ann's turn again";
    EXPECT_TRUE(s.votes(VoteKind::kTakeBack).empty());
    EXPECT_EQ(s.take_back_asker(), kNoMember);
    ASSERT_EQ(s.last_take_back().moves.size(), 2u);
    EXPECT_EQ(s.last_take_back().moves[1].name, bobs);
    for (const auto& st : s.game()->standings()) EXPECT_EQ(st.moves, 0) << "moves made rebuilt";
    // The game goes on from there.
    move_greedy(p.room, p.ann, 24);
    EXPECT_EQ(p.room.state().seat_to_move(), p.bob.seat);
}

TEST(AuthorityTakeBack, AgainstAComputerItIsAtOnceAndTakesItsReplyBack) {
    AgainstAComputer a;
    auto& room = a.room;
    const auto& ann = a.ann;
    std::int64_t t = 2;
    a.bot_moves(t++);
    const engine::Position before = room.state().game()->position();
    const std::size_t moves_before = room.state().game()->history().size();
    move_greedy(room, ann, t++);
    MemberId bot = room.bot_to_move();
    ASSERT_NE(bot, kNoMember);
    ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(t++)));
    room.take_events();

    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(t++)));
    const auto* back = taken_back_in(room.take_events());
    ASSERT_NE(back, nullptr) << "computers agree at once";
    EXPECT_EQ(back->count, 2u);
    EXPECT_EQ(room.state().game()->position(), before);
    EXPECT_EQ(room.state().game()->history().size(), moves_before);
    EXPECT_EQ(room.state().seat_to_move(), ann.seat);
    EXPECT_EQ(room.bot_to_move(), kNoMember);
}

TEST(AuthorityTakeBack, IsAskedAtMostOnceInTwoSeconds) {
    AgainstAComputer a;
    auto& room = a.room;
    const auto& ann = a.ann;
    auto bot_moves = [&](std::int64_t ms) { a.bot_moves(ms); };
    bot_moves(2);
    move_greedy(room, ann, 3);
    bot_moves(4);
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(5)));
    ASSERT_NE(taken_back_in(room.take_events()), nullptr);
    move_greedy(room, ann, 6);
    bot_moves(7);
    // Against a computer, move and take back over and over: each a replay of the game.
    auto again = room.act(ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(1000));
    ASSERT_TRUE(again);
    EXPECT_NE(again->message.find("a moment ago"), std::string::npos) << again->message;
    EXPECT_EQ(taken_back_in(room.take_events()), nullptr);
    ASSERT_FALSE(room.act(ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(2005)));
    EXPECT_NE(taken_back_in(room.take_events()), nullptr) << "asked again after two seconds";
}

TEST(AuthorityTakeBack, IsRefusedWithNothingToTakeBack) {
    RoomAuthority waiting(room_config(2), AuthorityOptions {}, kSeed);
    auto a = waiting.join("ann", "", false, at_ms(0)).value();
    auto refusal = waiting.act(a.token, action::Vote { VoteKind::kTakeBack }, at_ms(1));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "no game is being played: a move is taken back during a game");

    TwoPlayers p;
    move_greedy(p.room, p.ann, 20);
    p.room.take_events();
    refusal = p.room.act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(21));
    ASSERT_TRUE(refusal) << "bob has not moved";
    EXPECT_NE(refusal->message.find("no move of your own"), std::string::npos) << refusal->message;
    EXPECT_TRUE(p.room.take_events().empty());

    auto w = p.room.join("wes", "", true, at_ms(22));
    refusal = p.room.act(w->token, action::Vote { VoteKind::kTakeBack }, at_ms(23));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
}

TEST(AuthorityTakeBack, IsRefusedOnceTheGameIsOver) {
    TwoPlayers p(AuthorityOptions {}, room_config(2, 1, "", 1)); // a move each ends it
    move_greedy(p.room, p.ann, 20);
    move_greedy(p.room, p.bob, 21);
    ASSERT_EQ(p.room.state().phase(), Phase::kOver);
    auto refusal = p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(22));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->message, "the game is over: its moves stand");
}

TEST(AuthorityTakeBack, AMoveWhileTheVoteIsOpenClearsIt) {
    TwoPlayers p;
    move_greedy(p.room, p.ann, 20);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(21)));
    move_greedy(p.room, p.bob, 22); // bob plays on instead of agreeing
    EXPECT_TRUE(p.room.state().votes(VoteKind::kTakeBack).empty());
    EXPECT_EQ(p.room.state().take_back_asker(), kNoMember);
    // Bob's vote now is his own asking, not an agreement to the old one.
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(23)));
    EXPECT_EQ(p.room.state().take_back_asker(), p.bob.member);
    EXPECT_EQ(taken_back_in(p.room.take_events()), nullptr);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(24)));
    EXPECT_EQ(p.room.state().game()->history().size(), 1u) << "only bob's move went";
    EXPECT_EQ(p.room.state().seat_to_move(), p.bob.seat);
}

TEST(AuthorityTakeBack, ARestartedHostHasTheTakenBackPositionAndTheOpenVote) {
    TwoPlayers p;
    for (int i = 0; i < 6; ++i) move_greedy(p.room, i % 2 ? p.bob : p.ann, 20 + i);
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(30)));
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(31)));
    ASSERT_EQ(p.room.state().game()->history().size(), 5u);
    move_greedy(p.room, p.bob, 32);
    move_greedy(p.room, p.ann, 33);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(34)));

    auto back = RoomAuthority::restore(p.room.state().config(), AuthorityOptions {}, kSeed,
        p.room.state().log(), p.room.tokens(), at_ms(40));
    ASSERT_TRUE(back) << back.error().message;
    auto diff = state_difference(p.room.state(), back->state());
    EXPECT_FALSE(diff) << *diff;
    // The log folded to its least (what a snapshot or a long-lived room keeps) gives it too.
    RoomState folded(p.room.state().config());
    for (const auto& e : fold_log(p.room.state().log(), 0)) ASSERT_FALSE(folded.replay(e));
    EXPECT_EQ(folded.game()->position(), p.room.state().game()->position());
    EXPECT_EQ(folded.move_names(), p.room.state().move_names());
    EXPECT_EQ(folded.take_back_asker(), p.ann.member);
    // The restored host carries the open vote when bob agrees.
    ASSERT_FALSE(back->act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(41)));
    EXPECT_EQ(back->state().game()->history().size(), 6u);
    EXPECT_EQ(back->state().seat_to_move(), p.ann.seat);
}

TEST(AuthorityTakeBack, AReplicaRefusesACountOutsideTheGame) {
    TwoPlayers p;
    move_greedy(p.room, p.ann, 20);
    move_greedy(p.room, p.bob, 21);
    RoomState replica(p.room.state().config());
    ASSERT_FALSE(replay(p.room.state().config(), p.room.state().log(), replica));
    for (std::uint32_t count : { 0u, 3u, 4'000'000'000u }) {
        RoomEvent e { replica.seq() + 1, 100, event::MovesTakenBack { count } };
        auto error = replica.apply(e);
        ASSERT_TRUE(error) << count;
        EXPECT_NE(error->find("a take-back of"), std::string::npos) << *error;
        EXPECT_EQ(replica.game()->history().size(), 2u) << "nothing changes";
    }
    EXPECT_FALSE(replica.apply(RoomEvent { replica.seq() + 1, 100, event::MovesTakenBack { 2 } }));
    EXPECT_TRUE(replica.game()->history().empty());
}

TEST(AuthorityTakeBack, ARecordListsOnlyTheMovesThatStand) {
    TwoPlayers p(AuthorityOptions {}, room_config(2, 1, "", 2)); // two moves each end it
    move_greedy(p.room, p.ann, 20);
    move_greedy(p.room, p.bob, 21);
    move_greedy(p.room, p.ann, 22);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(23)));
    ASSERT_FALSE(p.room.act(p.bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(24)));
    ASSERT_EQ(p.room.state().game()->history().size(), 2u);
    move_greedy(p.room, p.ann, 25);
    move_greedy(p.room, p.bob, 26);
    ASSERT_EQ(p.room.state().phase(), Phase::kOver);
    auto records = p.room.take_finished_games();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].moves.size(), 4u);
    EXPECT_EQ(records[0].moves.size(), p.room.state().move_names().size());
}

// A player whose every move was taken back did not play the seat: ann moves once, takes it back
// and leaves, and the computer that plays the seat for her is the only one the game credits. Her
// name stood in the record beside it.
TEST(AuthorityTakeBack, TakesBackTheCreditOfMovesTakenBack) {
    AgainstAComputer a;
    auto& room = a.room;
    std::int64_t t = 2;
    a.bot_moves(t++);
    move_greedy(room, a.ann, t++);
    a.bot_moves(t++);
    EXPECT_EQ(room.state().player_name(a.ann.seat), "ann");
    ASSERT_FALSE(room.act(a.ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(t++)));
    ASSERT_EQ(room.state().seat_to_move(), a.ann.seat);
    ASSERT_FALSE(room.act(a.ann.token, action::Leave {}, at_ms(t++)));
    MemberId stand_in = room.bot_to_move();
    ASSERT_NE(stand_in, kNoMember);
    ASSERT_FALSE(room.bot_move(stand_in, greedy_move(*room.state().game()), at_ms(t++)));
    EXPECT_EQ(room.state().player_name(a.ann.seat), "bot for ann");

    RoomState replica(room.state().config());
    ASSERT_FALSE(replay(room.state().config(), room.state().log(), replica));
    EXPECT_EQ(replica.player_name(a.ann.seat), "bot for ann") << "a replica credits as the host";
}
