// The wire codec: every event and whole snapshots survive protobuf and back (serialized bytes
// included), and what a broken or hostile peer could send is an error value, never a crash.
#include "daemon/wire/codec.h"
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;
namespace engine = halma::engine;
namespace wire = halma::daemon::wire;
namespace pb = halma::v1;

namespace {

// Through the bytes, as a peer receives it.
engine::Result<RoomEvent> round_trip(const RoomEvent& e) {
    pb::RoomEvent out;
    wire::to_proto(e, &out);
    std::string bytes;
    EXPECT_TRUE(out.SerializeToString(&bytes));
    pb::RoomEvent in;
    EXPECT_TRUE(in.ParseFromString(bytes));
    return wire::event_from_proto(in);
}

engine::Result<RoomState> snapshot_round_trip(const RoomState& state) {
    pb::Snapshot out;
    wire::to_proto(state, &out);
    std::string bytes;
    EXPECT_TRUE(out.SerializeToString(&bytes));
    pb::Snapshot in;
    if (!in.ParseFromString(bytes)) return engine::fail("the snapshot does not parse");
    return wire::state_from_proto(in);
}

pb::Snapshot snapshot_of(const RoomState& state) {
    pb::Snapshot s;
    wire::to_proto(state, &s);
    return s;
}

// The snapshot of a two player room whose first game has started: ann 1, bob 2, game 3.
pb::Snapshot started_snapshot() {
    TwoPlayers p;
    return snapshot_of(p.room.state());
}

void expect_bad_snapshot(const pb::Snapshot& s, std::string_view what) {
    SCOPED_TRACE(what);
    auto state = wire::state_from_proto(s);
    ASSERT_FALSE(state) << "accepted, seq " << state->seq();
    EXPECT_FALSE(state.error().message.empty());
}

} // namespace

TEST(CodecEvents, EveryKindRoundTrips) {
    std::vector<EventBody> bodies {
        event::MemberJoined { 1, "ann", 0, false, BotLevel::kHard },
        event::MemberJoined { 2, "Zoë \xf0\x9f\x8e\xb2", kNoSeat, false, BotLevel::kHard },
        event::MemberJoined { 3, "bot", 1, true, BotLevel::kEasy },
        event::MemberJoined { 4, "bot (2)", 5, true, BotLevel::kHard },
        event::MemberJoined { 5, "bot (3)", 4, true, BotLevel::kMax },
        event::MemberJoined { 6, "bot for bob", 2, true, BotLevel::kEasy, true },
        event::MemberLeft { 2, false },
        event::MemberLeft { 7, true },
        event::Connection { 1, false },
        event::Connection { 1, false, 120'000 },
        event::Connection { 1, true },
        event::Chat { 1, "gg  wp" },
        event::Chat { 1, "" },
        event::GameStarted { 1, 0, { 0, 1 } },
        event::GameStarted { 12, 5, { 2, 0, 1 } },
        event::MovePlayed { 0, engine::Move { 99, 81, engine::Move::kNormal }, { 99, 81 } },
        event::MovePlayed { 1, engine::Move { 0, 120, engine::Move::kSwap }, { 0, 60, 120 } },
        event::MovePlayed { 2, engine::Move::pass(), {} },
        event::MovePlayed { 1, engine::Move { 99, 81, engine::Move::kNormal }, { 99, 81 }, true },
        event::VoteCast { 1, VoteKind::kNewGame },
        event::VoteCast { 2, VoteKind::kCancel },
        event::VoteCast { 1, VoteKind::kLeader },
        event::VoteCast { 1, VoteKind::kTakeBack },
        event::GameCancelled {},
        event::LeaderDisplay { true },
        event::MovesTakenBack { 3 },
        event::RoomClosed {},
    };
    std::uint64_t seq = 1;
    for (const auto& body : bodies) {
        RoomEvent e { seq++, 1'700'000'000'123 + static_cast<std::int64_t>(seq), body };
        auto back = round_trip(e);
        ASSERT_TRUE(back) << "event " << e.seq << ": " << back.error().message;
        EXPECT_TRUE(same_event(e, *back)) << "event " << e.seq << " (kind " << body.index() << ")";
    }
}

TEST(CodecEvents, TheHostsLogRoundTripsEventByEvent) {
    auto room = lively_room();
    for (const auto& e : room.state().log()) {
        auto back = round_trip(e);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_TRUE(same_event(e, *back)) << "event " << e.seq;
    }
}

TEST(CodecSnapshot, AReplicaBuiltFromTheSnapshotIsTheHostsRoom) {
    auto room = lively_room();
    auto replica = snapshot_round_trip(room.state());
    ASSERT_TRUE(replica) << replica.error().message;
    auto diff = state_difference(room.state(), *replica);
    EXPECT_FALSE(diff) << *diff;
    EXPECT_EQ(replica->config().code, "k7f3q9xq2ma0b1cd2e3f");
    EXPECT_EQ(replica->config().visibility, Visibility::kFriends);
}

TEST(CodecSnapshot, AnEmptyRoomRoundTrips) {
    RoomState empty(room_config(6, 1, "jumps=long,spoil=swap,first=coin", 77));
    auto back = snapshot_round_trip(empty);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_FALSE(state_difference(empty, *back));
}

TEST(CodecSnapshot, EveryModeRoundTrips) {
    for (auto [players, sets] :
        { std::pair { 2, 1 }, { 3, 1 }, { 4, 1 }, { 6, 1 }, { 2, 2 }, { 2, 3 }, { 3, 2 } }) {
        RoomState s(room_config(players, sets, "rest=unused,release=off,home-lock=off", 1));
        auto back = snapshot_round_trip(s);
        ASSERT_TRUE(back) << back.error().message;
        auto diff = state_difference(s, *back);
        EXPECT_FALSE(diff) << players << "x" << sets << ": " << *diff;
    }
}

// The replica must have exactly the host's move limit, or the two disagree on when the game
// ends. A room's limit is 1..100000 (RoomMode::invalid); 0 on the wire asks for the default,
// and a limit past the maximum is refused rather than quietly cut.
TEST(CodecSnapshot, TheMoveLimitIsKeptExactly) {
    for (int limit : { 1, 999, 1000, 100'000 }) {
        RoomState s(room_config(2, 1, "", limit));
        auto back = snapshot_round_trip(s);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back->config().mode.move_limit, limit);
    }
    pb::RoomMode mode;
    mode.set_players(2);
    EXPECT_EQ(wire::mode_from_proto(mode)->move_limit, kDefaultMoveLimit);
    mode.set_move_limit(250'000);
    auto refused = wire::mode_from_proto(mode);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("move limit"), std::string::npos);
    for (int bad : { 0, -1, 100'001 }) {
        RoomMode m;
        m.move_limit = bad;
        EXPECT_TRUE(m.invalid()) << bad;
    }
}

// The pause before a bots-only room's next game: kept exactly, 0 on the wire is the default, and
// one past the maximum is refused with the reason.
TEST(CodecSnapshot, TheNextGamePauseIsKept) {
    RoomConfig config = room_config();
    config.mode.next_game_ms = 1234;
    auto back = snapshot_round_trip(RoomState(config));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->config().mode.next_game_ms, 1234);
    pb::RoomMode mode;
    mode.set_players(2);
    EXPECT_EQ(wire::mode_from_proto(mode)->next_game_ms, kDefaultNextGameMs);
    mode.set_next_game_ms(kMaxNextGameMs + 1);
    auto refused = wire::mode_from_proto(mode);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("next game"), std::string::npos);
}

// The turn limit: kept exactly; one past a day is refused with the reason.
TEST(CodecSnapshot, TheTurnLimitIsKept) {
    RoomConfig config = room_config();
    config.mode.turn_limit_s = 90;
    auto back = snapshot_round_trip(RoomState(config));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->config().mode.turn_limit_s, 90);
    pb::RoomMode mode;
    mode.set_players(2);
    EXPECT_EQ(wire::mode_from_proto(mode)->turn_limit_s, 0) << "unset: no limit";
    mode.set_turn_limit_s(kMaxTurnLimitS + 1);
    auto refused = wire::mode_from_proto(mode);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("turn limit"), std::string::npos);
}

// The computers a room was made with (what a host compares its config file's bots with): kept,
// unset kept apart from 0 (a room made before they were kept), and a count past the seats
// read as unknown.
TEST(CodecSnapshot, TheBotsARoomWasMadeWithAreKept) {
    RoomConfig config = room_config();
    for (std::optional<int> bots :
        { std::optional<int>(), std::optional<int>(0), std::optional<int>(1) }) {
        config.bots = bots;
        auto back = snapshot_round_trip(RoomState(config));
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back->config().bots, bots);
    }
    pb::RoomConfig message;
    config.bots.reset();
    wire::to_proto(config, &message);
    message.set_bots(static_cast<std::uint32_t>(config.mode.players) + 1);
    auto read = wire::config_from_proto(message);
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_FALSE(read->bots);
}

TEST(CodecMalformed, AnEventWithoutAKnownBodyIsRefused) {
    pb::RoomEvent none;
    none.set_seq(1);
    auto e = wire::event_from_proto(none);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().message, "an event of a kind this daemon does not know");
    // A body from a later version: field 30, unknown here.
    std::string bytes = std::string("\x08\x01", 2) + std::string("\xf2\x01\x02\x08\x01", 5);
    pb::RoomEvent later;
    ASSERT_TRUE(later.ParseFromString(bytes));
    EXPECT_FALSE(wire::event_from_proto(later));
}

TEST(CodecMalformed, HolesOffTheBoardAreRefused) {
    pb::RoomEvent e;
    e.set_seq(1);
    auto* m = e.mutable_move();
    m->set_kind(pb::MOVE_KIND_NORMAL);
    m->set_from(121);
    m->set_to(3);
    auto r = wire::event_from_proto(e);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "hole 121 is off the board");
    m->set_from(3);
    m->set_to(4'000'000'000u);
    EXPECT_FALSE(wire::event_from_proto(e));
    m->set_to(4);
    m->add_path(3);
    m->add_path(255);
    EXPECT_FALSE(wire::event_from_proto(e)) << "255 is kNoCell, not a hole";
    m->clear_path();
    m->add_path(120);
    EXPECT_TRUE(wire::event_from_proto(e));
    // A pass has no holes, whatever from and to say.
    m->set_kind(pb::MOVE_KIND_PASS);
    m->set_from(999);
    auto pass = wire::event_from_proto(e);
    ASSERT_TRUE(pass);
    EXPECT_TRUE(std::get<event::MovePlayed>(pass->body).move.is_pass());
}

TEST(CodecMalformed, SetsOutOfRangeAreRefused) {
    for (std::uint32_t set : { 6u, 255u, 256u, 0xffffffffu }) {
        pb::RoomEvent e;
        e.set_seq(1);
        e.mutable_started()->set_first_set(set);
        e.mutable_started()->add_seat_player(0);
        e.mutable_started()->add_seat_player(1);
        EXPECT_FALSE(wire::event_from_proto(e)) << set;
    }
}

TEST(CodecMalformed, ABotOfAnUnknownLevelIsRefused) {
    pb::RoomEvent e;
    e.set_seq(1);
    auto* j = e.mutable_joined();
    j->set_member(1);
    j->set_name("bot");
    j->set_seat(0);
    j->set_bot(true);
    for (std::string level : { "medium", "", "EASY", "hard " }) {
        j->set_bot_level(level);
        auto r = wire::event_from_proto(e);
        ASSERT_FALSE(r) << "'" << level << "'";
        EXPECT_EQ(r.error().message, "a bot of unknown level '" + level + "'");
    }
    j->set_bot_level("easy");
    auto r = wire::event_from_proto(e);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::get<event::MemberJoined>(r->body).bot_level, BotLevel::kEasy);
}

// A host's vote of a kind this daemon does not know is refused (it was taken as a vote for a
// new game).
TEST(CodecMalformed, AVoteOfAnUnknownKindIsRefused) {
    pb::RoomEvent e;
    e.set_seq(1);
    e.mutable_vote()->set_member(1);
    e.mutable_vote()->set_kind(static_cast<pb::VoteKind>(99));
    auto r = wire::event_from_proto(e);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "a vote of unknown kind 99");
    e.mutable_vote()->set_kind(pb::VOTE_KIND_CANCEL);
    ASSERT_TRUE(wire::event_from_proto(e));
}

TEST(CodecMalformed, SnapshotsThatDoNotReplayAreRefused) {
    {
        auto s = started_snapshot();
        s.mutable_config()->clear_room_id();
        expect_bad_snapshot(s, "no room id");
    }
    {
        auto s = started_snapshot();
        s.mutable_config()->mutable_mode()->set_players(5);
        expect_bad_snapshot(s, "5 players");
    }
    {
        auto s = started_snapshot();
        s.mutable_config()->mutable_mode()->set_players(0xffffffffu);
        expect_bad_snapshot(s, "4294967295 players");
    }
    {
        auto s = started_snapshot();
        s.mutable_config()->mutable_mode()->set_rules("jumps=sideways");
        expect_bad_snapshot(s, "bad rules");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(1)->set_seq(5);
        expect_bad_snapshot(s, "seq gap");
    }
    {
        auto s = started_snapshot();
        s.mutable_events()->SwapElements(0, 1);
        expect_bad_snapshot(s, "out of order");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(1)->mutable_joined()->set_seat(0);
        expect_bad_snapshot(s, "two in one seat");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(1)->mutable_joined()->set_seat(2);
        expect_bad_snapshot(s, "a seat past the last");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(1)->mutable_joined()->set_seat(-7);
        expect_bad_snapshot(s, "a negative seat");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(1)->mutable_joined()->set_member(1);
        expect_bad_snapshot(s, "a member id twice");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(2)->mutable_started()->add_seat_player(2);
        expect_bad_snapshot(s, "three seats in a two seat room");
    }
    {
        auto s = started_snapshot();
        s.mutable_events(2)->mutable_started()->set_first_set(2);
        expect_bad_snapshot(s, "first set not in play");
    }
    {
        auto s = started_snapshot();
        auto* e = s.add_events();
        e->set_seq(4);
        e->mutable_move()->set_seat(1);
        e->mutable_move()->set_from(99);
        e->mutable_move()->set_to(81);
        expect_bad_snapshot(s, "a move for the seat not to move");
    }
    {
        auto s = started_snapshot();
        auto* e = s.add_events();
        e->set_seq(4);
        e->mutable_move()->set_seat(0);
        e->mutable_move()->set_from(0);
        e->mutable_move()->set_to(1);
        expect_bad_snapshot(s, "an illegal move");
    }
    {
        auto s = started_snapshot();
        auto* e = s.add_events();
        e->set_seq(4);
        e->mutable_chat()->set_member(9);
        e->mutable_chat()->set_text("who am I");
        expect_bad_snapshot(s, "chat of an unknown member");
    }
}

TEST(CodecMalformed, ASnapshotWhoseSeatsAreNotAPermutationIsRefused) {
    auto s = started_snapshot();
    s.mutable_events(2)->mutable_started()->set_seat_player(1, 0);
    expect_bad_snapshot(s, "seat_player {0, 0}");
    s.mutable_events(2)->mutable_started()->set_seat_player(1, 7);
    expect_bad_snapshot(s, "seat_player {0, 7}");
}

TEST(CodecView, ARoomIsShownToEachMember) {
    auto room = lively_room();
    const RoomState& s = room.state();
    for (const auto& [id, m] : s.members()) {
        pb::RoomView v;
        wire::view(s, id, pb::CONNECTION_STATE_CONNECTED, "host:7460", &v);
        EXPECT_EQ(v.your_seat(), m.seat);
        EXPECT_EQ(v.seq(), s.seq());
        EXPECT_EQ(v.seats_size(), s.seats());
        EXPECT_EQ(v.summary().code(), s.config().code) << "members see the code";
        EXPECT_EQ(v.your_turn(), m.seat != kNoSeat && m.seat == s.seat_to_move());
        EXPECT_EQ(v.legal_moves_size() > 0, v.your_turn());
        EXPECT_EQ(v.standings_size(), s.seats());
        EXPECT_EQ(v.chat_size(), static_cast<int>(s.chat().size()));
        std::string bytes;
        EXPECT_TRUE(v.SerializeToString(&bytes));
    }
    pb::RoomView onlooker;
    wire::view(s, kNoMember, pb::CONNECTION_STATE_CONNECTED, "", &onlooker);
    EXPECT_EQ(onlooker.your_seat(), kNoSeat);
    EXPECT_TRUE(onlooker.summary().code().empty()) << "the code is for members only";
}

TEST(CodecView, EveryEventOfTheLogIsTold) {
    auto room = lively_room();
    RoomState replica(room.state().config());
    for (const auto& e : room.state().log()) {
        // replay: the second game's start folded the first game out of the log (seqs skip).
        ASSERT_FALSE(replica.replay(e));
        std::string text = wire::describe(replica, e);
        EXPECT_FALSE(text.empty()) << "event " << e.seq;
        EXPECT_TRUE(valid_utf8(text)) << text;
    }
}

// A leader vote is told as what it asks for, whether the room is told of it event by event (a
// replica) or after the whole batch, the vote and the agreement it completed (the host).
TEST(CodecView, ALeaderVoteIsToldAsWhatItAsksFor) {
    TwoPlayers p;
    RoomState replica(p.room.state().config());
    for (const auto& e : p.room.take_events()) ASSERT_FALSE(replica.apply(e));
    auto vote_texts
        = [&](const std::string& token, std::string& host_text, std::string& replica_text) {
              ASSERT_FALSE(p.room.act(token, action::Vote { VoteKind::kLeader }, at_ms(20)));
              auto events = p.room.take_events();
              for (const auto& e : events) {
                  ASSERT_FALSE(replica.apply(e));
                  if (std::holds_alternative<event::VoteCast>(e.body)) {
                      host_text = wire::describe(p.room.state(), e); // after the whole batch
                      replica_text = wire::describe(replica, e); // just after the vote
                  }
              }
          };
    std::string host, seen;
    for (bool hidden : { false, true }) {
        SCOPED_TRACE(hidden ? "showing it again" : "hiding it");
        std::string want
            = hidden ? "votes to show who is in the lead" : "votes to hide who is in the lead";
        vote_texts(p.ann.token, host, seen);
        EXPECT_NE(host.find(want), std::string::npos) << host;
        EXPECT_NE(seen.find(want), std::string::npos) << seen;
        vote_texts(p.bob.token, host, seen); // the second vote carries it
        EXPECT_NE(host.find(want), std::string::npos) << host;
        EXPECT_NE(seen.find(want), std::string::npos) << seen;
        EXPECT_EQ(p.room.state().leader_hidden(), !hidden);
    }
}

// A spectator's daemon that goes away holds no seat: it was said to ("wes lost the connection;
// the seat is held"), and players looked for a seat that was not there.
TEST(CodecView, ASpectatorsLostConnectionHoldsNoSeat) {
    TwoPlayers p;
    auto wes = p.room.join("wes", "", true, at_ms(10));
    ASSERT_TRUE(wes);
    p.room.take_events();
    p.room.set_connected(wes->member, false, at_ms(20));
    p.room.set_connected(p.bob.member, false, at_ms(30));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(wire::describe(p.room.state(), events[0]), "wes (watching) lost the connection");
    EXPECT_EQ(
        wire::describe(p.room.state(), events[1]), "bob lost the connection; the seat is held");
}
