// A game never freezes: when a seated person leaves or its hold runs out mid-game, a computer
// player of the room's level plays the seat (where this daemon has them), the person who comes
// back with its token within the game takes the seat back, and a new game needs only the votes
// of those present.
#include "daemon/wire/codec.h"
#include "engine/notation.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
using std::chrono::milliseconds;

namespace {

AuthorityOptions with_bots(BotLevel level = BotLevel::kHard) {
    AuthorityOptions options;
    options.bots_available = true;
    options.default_bot_level = level;
    options.hold = milliseconds(1000);
    return options;
}

// Moves the game on until it is `seat`'s turn (by greedy moves of whoever is to move).
void play_until_turn_of(RoomAuthority& room, const std::map<int, std::string>& tokens, int seat) {
    for (int i = 0; i < 10 && room.state().seat_to_move() != seat; ++i) {
        int mover = room.state().seat_to_move();
        auto text = greedy_text(*room.state().game());
        if (MemberId bot = room.bot_to_move(); bot != kNoMember)
            ASSERT_FALSE(room.bot_move(bot, greedy_move(*room.state().game()), at_ms(50 + i)));
        else
            ASSERT_FALSE(room.act(tokens.at(mover), action::Move { text }, at_ms(50 + i)));
    }
    ASSERT_EQ(room.state().seat_to_move(), seat);
}

// bob's daemon vanishes and his hold runs out at 1100 ms: the events that made.
std::vector<RoomEvent> bob_times_out(TwoPlayers& p) {
    p.room.set_connected(p.bob.member, false, at_ms(100));
    p.room.take_events();
    p.room.tick(at_ms(1100));
    return p.room.take_events();
}

std::map<int, std::string> seat_tokens(const TwoPlayers& p) {
    return { { p.ann.seat, p.ann.token }, { p.bob.seat, p.bob.token } };
}

// bob makes a move of his, then his daemon vanishes past the hold (a computer takes his seat).
void bob_moves_then_times_out(TwoPlayers& p, const std::map<int, std::string>& tokens) {
    play_until_turn_of(p.room, tokens, p.bob.seat);
    ASSERT_FALSE(
        p.room.act(p.bob.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(90)));
    bob_times_out(p);
}

} // namespace

TEST(AuthorityStandIn, AComputerTakesTheSeatWhenTheHoldRunsOut) {
    TwoPlayers p(with_bots());
    auto events = bob_times_out(p);
    ASSERT_EQ(events.size(), 2u);
    auto* left = std::get_if<event::MemberLeft>(&events[0].body);
    ASSERT_TRUE(left && left->member == p.bob.member && left->timed_out);
    auto* joined = std::get_if<event::MemberJoined>(&events[1].body);
    ASSERT_NE(joined, nullptr) << "a computer is announced in the seat";
    EXPECT_TRUE(joined->bot);
    EXPECT_EQ(joined->seat, 1);
    EXPECT_EQ(joined->name, "bot for bob") << "the status says whom it plays for";
    EXPECT_EQ(joined->bot_level, BotLevel::kHard) << "no bot in the room: the daemon's level";
    EXPECT_EQ(p.room.state().seat_holder(1), joined->member);
    EXPECT_EQ(p.room.state().phase(), Phase::kPlaying);
    EXPECT_EQ(p.room.state().player_of_seat(1), 1) << "it plays bob's marbles";

    // And it plays: on the seat's turn the room asks the computer, and its move is taken.
    play_until_turn_of(p.room, { { 0, p.ann.token } }, 1);
    EXPECT_EQ(p.room.bot_to_move(), joined->member);
    ASSERT_FALSE(p.room.bot_move(joined->member, greedy_move(*p.room.state().game()), at_ms(2000)));
    EXPECT_EQ(p.room.state().seat_to_move(), 0);
}

TEST(AuthorityStandIn, TheComputerPlaysAtTheLevelOfTheRoomsOtherComputers) {
    RoomAuthority room(room_config(3), with_bots(BotLevel::kHard), kSeed);
    auto ann = room.join("ann", "", false, at_ms(0)).value();
    auto bob = room.join("bob", "", false, at_ms(1)).value();
    ASSERT_FALSE(room.act(ann.token, action::Start { BotLevel::kEasy }, at_ms(2)));
    ASSERT_EQ(room.state().phase(), Phase::kPlaying);
    ASSERT_FALSE(room.act(bob.token, action::Leave {}, at_ms(3)));
    const Member* stand_in = room.state().member(room.state().seat_holder(bob.seat));
    ASSERT_NE(stand_in, nullptr);
    EXPECT_TRUE(stand_in->bot);
    EXPECT_EQ(stand_in->bot_level, BotLevel::kEasy);
    EXPECT_EQ(stand_in->name, "bot for bob");
}

TEST(AuthorityStandIn, ThePlayerWhoComesBackTakesTheSeatBack) {
    TwoPlayers p(with_bots());
    auto events = bob_times_out(p);
    MemberId bot = std::get<event::MemberJoined>(events[1].body).member;
    // Someone else cannot have it: it is bob's to take back while the game lasts.
    auto cat = p.room.join("cat", "", false, at_ms(1200));
    ASSERT_FALSE(cat);
    EXPECT_EQ(cat.error().code, Refusal::Code::kRoomFull);

    auto back = p.room.join("bob", p.bob.token, false, at_ms(1300));
    ASSERT_TRUE(back);
    EXPECT_TRUE(back->rejoined);
    EXPECT_EQ(back->member, p.bob.member) << "the same member, so his daemon's replica fits";
    EXPECT_EQ(back->seat, 1);
    EXPECT_EQ(back->token, p.bob.token);
    events = p.room.take_events();
    ASSERT_EQ(events.size(), 2u);
    auto* bot_left = std::get_if<event::MemberLeft>(&events[0].body);
    ASSERT_TRUE(bot_left && bot_left->member == bot);
    auto* bob_joined = std::get_if<event::MemberJoined>(&events[1].body);
    ASSERT_TRUE(bob_joined && bob_joined->member == p.bob.member && !bob_joined->bot);
    EXPECT_EQ(bob_joined->name, "bob");
    EXPECT_EQ(p.room.state().seat_holder(1), p.bob.member);
    EXPECT_EQ(p.room.member_of(p.bob.token), p.bob.member);
    // His token works again: he plays his own turn.
    play_until_turn_of(p.room, { { 0, p.ann.token }, { 1, p.bob.token } }, 1);
    EXPECT_EQ(p.room.bot_to_move(), kNoMember);
    ASSERT_FALSE(
        p.room.act(p.bob.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(1500)));
}

TEST(AuthorityStandIn, TheSeatOfOneWhoLeftGoesToTheNextNewcomer) {
    TwoPlayers p(with_bots());
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    MemberId bot = p.room.state().seat_holder(1);
    ASSERT_TRUE(p.room.state().member(bot) && p.room.state().member(bot)->bot);
    p.room.take_events();
    auto watcher = p.room.join("wes", "", true, at_ms(150));
    ASSERT_TRUE(watcher);
    EXPECT_EQ(watcher->seat, kNoSeat) << "a spectator stays a spectator";
    auto cat = p.room.join("cat", "", false, at_ms(200));
    ASSERT_TRUE(cat);
    EXPECT_EQ(cat->seat, 1);
    EXPECT_FALSE(cat->rejoined) << "cat is new here: her daemon needs the whole room";
    EXPECT_EQ(p.room.state().member(bot), nullptr) << "the computer made way";
    EXPECT_EQ(p.room.state().seat_holder(1), cat->member);
    EXPECT_EQ(p.room.state().game_number(), 1) << "cat takes over bob's marbles in this game";
}

// While the game is played, a standing names the seat's player now, as the seats and the leader
// do: it named everyone who had moved for the seat ("bot for bob" beside "in the lead: cat"), and
// cat, who took the seat over, only once she had moved. From an office QA pass.
TEST(AuthorityStandIn, TheStandingsNameWhoPlaysTheSeatNow) {
    TwoPlayers p(with_bots());
    auto tokens = seat_tokens(p);
    play_until_turn_of(p.room, tokens, p.bob.seat);
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    MemberId bot = p.room.state().seat_holder(1);
    ASSERT_FALSE(p.room.bot_move(bot, greedy_move(*p.room.state().game()), at_ms(110)));
    auto cat = p.room.join("cat", "", false, at_ms(200));
    ASSERT_TRUE(cat);
    halma::v1::RoomView view;
    halma::daemon::wire::view(
        p.room.state(), p.ann.member, halma::v1::CONNECTION_STATE_CONNECTED, "", &view);
    ASSERT_EQ(view.standings_size(), 2);
    for (const auto& st : view.standings())
        EXPECT_EQ(st.name(), view.seats(st.seat()).name()) << "seat " << st.seat();
    EXPECT_EQ(view.seats(1).name(), "cat");
}

TEST(AuthorityStandIn, WithoutComputersTheSeatWaitsForANewcomer) {
    AuthorityOptions options;
    options.hold = milliseconds(1000);
    TwoPlayers p(options);
    auto events = bob_times_out(p);
    ASSERT_EQ(events.size(), 1u) << "only the leaving: no computer to stand in";
    EXPECT_EQ(p.room.state().seat_holder(1), kNoMember);
    EXPECT_EQ(p.room.state().phase(), Phase::kPlaying);
    // Those present may end it.
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(1200)));
    EXPECT_EQ(p.room.state().phase(), Phase::kCancelled);
}

// A new game mid-game throws the game away: bob, whose daemon vanished (a blip of the Wi-Fi),
// must agree until his hold runs out; then the computer keeping his seat agrees for him, and
// bob, back, takes his seat in the new game. The others' votes carried at once in his blip
// (an office QA pass).
TEST(AuthorityStandIn, ANewGameMidGameWaitsForOneGoneUntilTheHold) {
    TwoPlayers p(with_bots());
    p.room.set_connected(p.bob.member, false, at_ms(100));
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(200)));
    EXPECT_EQ(p.room.state().game_number(), 1) << "bob's game thrown away while he was gone";
    p.room.tick(at_ms(1100));
    EXPECT_EQ(p.room.state().game_number(), 2) << "the computer keeping bob's seat agrees";
    ASSERT_TRUE(p.room.join("bob", p.bob.token, false, at_ms(1200)));
    EXPECT_EQ(p.room.state().seat_holder(1), p.bob.member) << "bob's seat is his again";
}

// Once a game is over nothing is lost: one who is gone does not hold up the next game. Nor
// does one gone mid-game hold up a cancel, after which the new game needs only those present.
TEST(AuthorityStandIn, ANewGameAfterTheLastNeedsOnlyThosePresent) {
    TwoPlayers p(with_bots());
    p.room.set_connected(p.bob.member, false, at_ms(100));
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(200)));
    ASSERT_EQ(p.room.state().phase(), Phase::kCancelled);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(300)));
    EXPECT_EQ(p.room.state().game_number(), 2) << "bob, gone, cannot hold up the next game";
    EXPECT_EQ(p.room.state().seat_holder(1), p.bob.member) << "and keeps his seat in it";
}

// A player whose daemon slept through the rest of the game and a new-game vote gets the seat
// back in the next game (the next game made it the computer's for good, and `halma join` said
// the room was full).
TEST(AuthorityStandIn, TheSeatIsTakenBackInALaterGameToo) {
    TwoPlayers p(with_bots());
    bob_times_out(p);
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(1200)));
    ASSERT_EQ(p.room.state().game_number(), 2) << "ann and the computer agree";
    const Member* bot = p.room.state().member(p.room.state().seat_holder(1));
    ASSERT_TRUE(bot && bot->bot) << "the computer plays on for bob";
    auto cat = p.room.join("cat", "", false, at_ms(1250));
    ASSERT_FALSE(cat) << "the seat is bob's, not a newcomer's";
    EXPECT_EQ(cat.error().code, Refusal::Code::kRoomFull);
    auto back = p.room.join("bob", p.bob.token, false, at_ms(1300));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->seat, 1);
    EXPECT_EQ(p.room.state().game_number(), 2) << "bob takes over his marbles in game 2";
}

TEST(AuthorityStandIn, AReplicaFollowsTheStandInAndTheTakingBack) {
    TwoPlayers p(with_bots());
    bob_times_out(p);
    ASSERT_TRUE(p.room.join("bob", p.bob.token, false, at_ms(1300)));
    RoomState replica(p.room.state().config());
    auto error = replay(p.room.state().config(), p.room.state().log(), replica);
    ASSERT_FALSE(error) << *error;
    auto diff = state_difference(p.room.state(), replica);
    EXPECT_FALSE(diff) << *diff;
}

// Room lists and adverts count a seat whose player left for good as free: the next newcomer
// takes it over (it showed 2/2, full, though a newcomer could join). A seat held for a player
// who vanished is not free: it is theirs to take back.
TEST(AuthorityStandIn, ASeatANewcomerWouldTakeIsListedAsFree) {
    TwoPlayers p(with_bots());
    ASSERT_EQ(p.room.state().seats_taken(), 2);
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    EXPECT_EQ(p.room.state().free_seats(), 0) << "a computer plays the seat";
    EXPECT_EQ(p.room.state().seats_taken(), 1) << "but a newcomer may have it";
    RoomState replica(p.room.state().config());
    ASSERT_FALSE(replay(p.room.state().config(), p.room.state().log(), replica));
    EXPECT_EQ(replica.seats_taken(), 1) << "a replica's list says so too";
    ASSERT_TRUE(p.room.join("cat", "", false, at_ms(200)));
    EXPECT_EQ(p.room.state().seats_taken(), 2);

    TwoPlayers q(with_bots());
    bob_times_out(q);
    EXPECT_EQ(q.room.state().seats_taken(), 2) << "held for bob";
}

// Where people play on, the seat of one who left still goes to the next newcomer in the games
// after (it became the computer's own at the next game).
TEST(AuthorityStandIn, TheSeatOfOneWhoLeftStaysOpenInTheNextGames) {
    TwoPlayers p(with_bots());
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(200)));
    ASSERT_EQ(p.room.state().game_number(), 2);
    EXPECT_EQ(p.room.state().seats_taken(), 1) << "listed free";
    auto cat = p.room.join("cat", "", false, at_ms(300));
    ASSERT_TRUE(cat) << cat.error().message;
    EXPECT_EQ(cat->seat, 1);
    EXPECT_EQ(p.room.state().seats_taken(), 2);
    RoomState replica(p.room.state().config());
    auto error = replay(p.room.state().config(), p.room.state().log(), replica);
    ASSERT_FALSE(error) << *error;
    auto diff = state_difference(p.room.state(), replica);
    EXPECT_FALSE(diff) << *diff;
}

// A restarted host still gives the seat to the next newcomer, as its list says it would (the
// stand-ins were not kept across a restart: the room stayed full until the next game).
TEST(AuthorityStandIn, ARestoredRoomStillGivesTheSeatToANewcomer) {
    TwoPlayers p(with_bots());
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(100)));
    auto back = RoomAuthority::restore(p.room.state().config(), with_bots(), kSeed,
        p.room.state().log(), p.room.tokens(), at_ms(5000));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->state().seats_taken(), 1);
    auto cat = back->join("cat", "", false, at_ms(5100));
    ASSERT_TRUE(cat) << cat.error().message;
    EXPECT_EQ(cat->seat, 1);
    EXPECT_EQ(back->state().game_number(), 1) << "cat takes over bob's marbles";
    EXPECT_EQ(back->state().seats_taken(), 2);
}

// A player gone past the hold once the game is over leaves the seat free: everyone present voted
// for a new game and nothing started, and `halma start` said to vote. Start puts a computer
// there, and the votes start the next game.
TEST(AuthorityStandIn, StartFillsASeatLeftFreeAfterTheGame) {
    TwoPlayers p(with_bots(), room_config(2, 1, "", 1));
    ASSERT_FALSE(
        p.room.act(p.ann.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(20)));
    ASSERT_FALSE(
        p.room.act(p.bob.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(30)));
    ASSERT_EQ(p.room.state().phase(), Phase::kOver) << "one move each";
    p.room.set_connected(p.bob.member, false, at_ms(100));
    p.room.tick(at_ms(1100));
    ASSERT_EQ(p.room.state().free_seats(), 1) << "no game to stand in for: the seat is free";
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(1200)));
    EXPECT_EQ(p.room.state().game_number(), 1) << "a free seat holds the next game up";
    ASSERT_FALSE(p.room.act(p.ann.token, action::Start {}, at_ms(1300)));
    EXPECT_EQ(p.room.state().free_seats(), 0);
    EXPECT_EQ(p.room.state().game_number(), 2) << "ann's vote stood: the next game starts";
    auto again = p.room.act(p.ann.token, action::Start {}, at_ms(1400));
    ASSERT_TRUE(again);
    EXPECT_EQ(
        again->message, "the game has started already; to start another, vote for a new game");
}

// A game is credited to whoever made its moves: a record named the computer that held bob's seat
// when a new-game vote ended the game, though bob made every move and it made none.
TEST(AuthorityStandIn, TheRecordNamesWhoMadeTheSeatsMoves) {
    TwoPlayers p(with_bots());
    auto tokens = seat_tokens(p);
    ASSERT_NO_FATAL_FAILURE(bob_moves_then_times_out(p, tokens));
    EXPECT_EQ(p.room.state().player_name(p.bob.seat), "bob") << "the computer has not moved yet";
    ASSERT_FALSE(p.room.act(p.ann.token, action::Vote { VoteKind::kNewGame }, at_ms(1200)));
    auto records = p.room.take_finished_games();
    ASSERT_EQ(records.size(), 1u);
    int bob_player = 0;
    for (int player = 0; player < 2; ++player)
        if (records[0].players[static_cast<std::size_t>(player)].seat == p.bob.seat + 1)
            bob_player = player;
    const auto& bob = records[0].players[static_cast<std::size_t>(bob_player)];
    EXPECT_EQ(bob.name, "bob");
    EXPECT_EQ(bob.kind, "human");
}

TEST(AuthorityStandIn, BothWhoMovedForASeatAreNamed) {
    TwoPlayers p(with_bots());
    auto tokens = seat_tokens(p);
    ASSERT_NO_FATAL_FAILURE(bob_moves_then_times_out(p, tokens));
    play_until_turn_of(p.room, tokens, p.bob.seat);
    MemberId bot = p.room.bot_to_move();
    ASSERT_NE(bot, kNoMember);
    ASSERT_FALSE(p.room.bot_move(bot, greedy_move(*p.room.state().game()), at_ms(1500)));
    EXPECT_EQ(p.room.state().player_name(p.bob.seat), "bob / bot for bob");
}

// The person first, whoever moved first: a winner whose laptop slept through his first move
// was named "bot for kid / kid".
TEST(AuthorityStandIn, ThePersonIsNamedBeforeTheComputerThatStoodIn) {
    TwoPlayers p(with_bots());
    auto tokens = seat_tokens(p);
    bob_times_out(p); // before any move of his
    play_until_turn_of(p.room, { { p.ann.seat, p.ann.token } }, p.bob.seat);
    MemberId bot = p.room.bot_to_move();
    ASSERT_NE(bot, kNoMember);
    ASSERT_FALSE(p.room.bot_move(bot, greedy_move(*p.room.state().game()), at_ms(1500)));
    auto back = p.room.join("bob", p.bob.token, false, at_ms(1600));
    ASSERT_TRUE(back && back->rejoined) << "bob takes his seat back";
    tokens[p.bob.seat] = back->token;
    play_until_turn_of(p.room, tokens, p.bob.seat);
    ASSERT_FALSE(
        p.room.act(back->token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(1700)));
    EXPECT_EQ(p.room.state().player_name(p.bob.seat), "bob / bot for bob");
}

// With a computer in a gone player's seat, a cancel vote says why the game goes on (it said
// "every player is still here", of a player who was gone).
TEST(AuthorityStandIn, ACancelVoteSaysAComputerPlaysTheSeat) {
    TwoPlayers p(with_bots());
    bob_times_out(p);
    auto refusal = p.room.act(p.ann.token, action::Vote { VoteKind::kCancel }, at_ms(1200));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->message.rfind("nobody is missing: a computer plays the seat", 0), 0u)
        << refusal->message;
}

// bob's daemon vanished past the hold and the host restarted: the status promised that the
// computer plays his seat "until they are back", but the restarted host had forgotten whose
// it was, and bob's daemon, back with his token, was refused: the room was full.
TEST(AuthorityStandIn, ARestartedHostStillKeepsTheSeatForThePlayerWhoTimedOut) {
    TwoPlayers p(with_bots());
    auto events = bob_times_out(p);
    MemberId bot = std::get<event::MemberJoined>(events[1].body).member;
    ASSERT_EQ(p.room.kept_seats().size(), 1u) << "the seat kept for bob is there to be saved";
    EXPECT_EQ(p.room.kept_seats().at(1), (KeptSeat { p.bob.member, p.bob.token }));

    auto back = RoomAuthority::restore(p.room.state().config(), with_bots(), kSeed,
        p.room.state().log(), p.room.tokens(), at_ms(5000), p.room.kept_seats());
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->kept_seats(), p.room.kept_seats());
    EXPECT_TRUE(back->knows_token(p.bob.token));
    auto cat = back->join("cat", "", false, at_ms(5100));
    ASSERT_FALSE(cat) << "the seat is bob's, not the next newcomer's";
    EXPECT_EQ(cat.error().code, Refusal::Code::kRoomFull);

    auto bob = back->join("bob", p.bob.token, false, at_ms(5200));
    ASSERT_TRUE(bob) << bob.error().message;
    EXPECT_TRUE(bob->rejoined);
    EXPECT_EQ(bob->member, p.bob.member);
    EXPECT_EQ(bob->seat, 1);
    EXPECT_EQ(back->state().seat_holder(1), p.bob.member);
    EXPECT_EQ(back->state().member(bot), nullptr) << "the computer made way";
    EXPECT_EQ(back->state().member(p.bob.member)->name, "bob");
    EXPECT_TRUE(back->kept_seats().empty()) << "taken back: nothing left to keep";
}

// What the host kept may be out of step with its log after a failed write (both files are
// written around the events): a seat kept for someone who is in the room, or whose seat a
// person holds, is not kept again.
TEST(AuthorityStandIn, AKeptSeatTheLogDoesNotBearOutIsDropped) {
    TwoPlayers p(with_bots());
    std::string stranger(32, 'c');
    std::map<int, KeptSeat> kept {
        { 1, KeptSeat { p.bob.member, stranger } }, // bob is in his seat: not kept for him
        { 0, KeptSeat { 99, stranger } }, // ann holds seat 0: no computer plays it
        { 7, KeptSeat { 99, stranger } }, // no such seat
    };
    auto back = RoomAuthority::restore(p.room.state().config(), with_bots(), kSeed,
        p.room.state().log(), p.room.tokens(), at_ms(5000), kept);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(back->kept_seats().empty());
    EXPECT_FALSE(back->knows_token(stranger));
    EXPECT_EQ(back->member_of(p.bob.token), p.bob.member) << "bob's own token still acts";
}

// bob's daemon left the room while the host was out of reach, and told the host once it was
// back, past the hold: his seat, kept for him, is the next newcomer's. The host refused the
// leave (the token no longer a member's) and the seat stayed kept for good.
TEST(AuthorityStandIn, ALeaveWithTheTokenOfAKeptSeatOpensItToANewcomer) {
    TwoPlayers p(with_bots());
    bob_times_out(p);
    auto moved = p.room.act(p.bob.token, action::Move { "pass" }, at_ms(1150));
    ASSERT_TRUE(moved) << "a kept seat's token does nothing else";
    EXPECT_EQ(moved->code, Refusal::Code::kNotAllowed);

    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(1200)));
    EXPECT_TRUE(p.room.kept_seats().empty());
    EXPECT_FALSE(p.room.knows_token(p.bob.token));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 2u);
    ASSERT_TRUE(std::holds_alternative<event::MemberLeft>(events[0].body));
    auto* open = std::get_if<event::MemberJoined>(&events[1].body);
    ASSERT_TRUE(open && open->bot && open->seat_open && open->seat == 1);
    EXPECT_EQ(open->name, "bot for bob");
    EXPECT_EQ(p.room.state().phase(), Phase::kPlaying) << "the computer plays on meanwhile";

    auto cat = p.room.join("cat", "", false, at_ms(1300));
    ASSERT_TRUE(cat) << cat.error().message;
    EXPECT_EQ(cat->seat, 1);
    auto again = p.room.join("bob", p.bob.token, false, at_ms(1400));
    ASSERT_FALSE(again) << "bob left: his token takes nothing back";
}
