// Joining a room: seats in order, spectators, a full room, names made clean and unique, seat
// tokens that act for their member only, and rejoining with a token.
#include "daemon/wire/codec.h"
#include "room_test_support.h"

#include <gtest/gtest.h>
#include <set>

using namespace halma::testing;

namespace {

RoomAuthority make_room(int players = 3) {
    return RoomAuthority(room_config(players), AuthorityOptions {}, kSeed);
}

std::string joined_name(RoomAuthority& room, const SeatTicket& t) {
    const Member* m = room.state().member(t.member);
    return m ? m->name : "<no member>";
}

} // namespace

TEST(AuthorityJoin, SeatsAreGivenInOrderAndSpectatorsTakeNone) {
    auto room = make_room(3);
    auto a = room.join("ann", "", false, at_ms(0));
    auto watcher = room.join("wes", "", true, at_ms(1));
    auto b = room.join("bob", "", false, at_ms(2));
    ASSERT_TRUE(a && watcher && b);
    EXPECT_EQ(a->seat, 0);
    EXPECT_EQ(watcher->seat, kNoSeat);
    EXPECT_EQ(b->seat, 1);
    EXPECT_FALSE(a->rejoined);
    EXPECT_EQ(room.state().seat_holder(0), a->member);
    EXPECT_EQ(room.state().seat_holder(1), b->member);
    EXPECT_EQ(room.state().seat_holder(2), kNoMember);
    EXPECT_EQ(room.state().free_seats(), 1);
    EXPECT_EQ(room.state().spectators(), 1);
    EXPECT_EQ(room.state().phase(), Phase::kWaiting);
    // Member ids count up from 1, one per join.
    EXPECT_EQ(a->member, 1u);
    EXPECT_EQ(watcher->member, 2u);
    EXPECT_EQ(b->member, 3u);
}

TEST(AuthorityJoin, EachJoinIsOneMemberJoinedEvent) {
    auto room = make_room(3);
    auto a = room.join("ann", "", false, at_ms(5));
    auto events = room.take_events();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].seq, 1u);
    EXPECT_EQ(events[0].time_ms, at_ms(5).wall_ms);
    auto* joined = std::get_if<event::MemberJoined>(&events[0].body);
    ASSERT_NE(joined, nullptr);
    EXPECT_EQ(joined->member, a->member);
    EXPECT_EQ(joined->name, "ann");
    EXPECT_EQ(joined->seat, 0);
    EXPECT_FALSE(joined->bot);
    EXPECT_TRUE(room.take_events().empty()) << "take_events hands each event out once";
}

TEST(AuthorityJoin, AFullRoomRefusesPlayersButNotSpectators) {
    TwoPlayers p;
    auto third = p.room.join("cat", "", false, at_ms(20));
    ASSERT_FALSE(third);
    EXPECT_EQ(third.error().code, Refusal::Code::kRoomFull);
    EXPECT_EQ(third.error().message,
        "room sunday is full (2 seats taken): join it as a spectator to watch");
    auto watcher = p.room.join("cat", "", true, at_ms(21));
    ASSERT_TRUE(watcher);
    EXPECT_EQ(watcher->seat, kNoSeat);
}

TEST(AuthorityJoin, SpectatorsAreBoundedButTheirRejoinsAreNot) {
    auto room = make_room(2);
    std::vector<SeatTicket> watchers;
    for (int i = 0; i < 64; ++i) {
        auto w = room.join("w", "", true, at_ms(i));
        ASSERT_TRUE(w) << i << ": " << w.error().message;
        watchers.push_back(*w);
    }
    auto one_more = room.join("late", "", true, at_ms(100));
    ASSERT_FALSE(one_more);
    EXPECT_EQ(one_more.error().code, Refusal::Code::kRoomFull);
    EXPECT_EQ(one_more.error().message, "room sunday has 64 spectators already");
    // A held member coming back is no new spectator, and seats are still open to players.
    auto back = room.join("w", watchers.front().token, true, at_ms(101));
    ASSERT_TRUE(back);
    EXPECT_TRUE(back->rejoined);
    EXPECT_TRUE(room.join("ann", "", false, at_ms(102)));
}

TEST(AuthorityJoin, AnUnknownTokenIsANewJoin) {
    auto room = make_room(2);
    auto a = room.join("ann", "ffffffffffffffffffffffffffffffff", false, at_ms(0));
    ASSERT_TRUE(a);
    EXPECT_FALSE(a->rejoined);
    EXPECT_NE(a->token, "ffffffffffffffffffffffffffffffff");
    EXPECT_EQ(room.member_of("ffffffffffffffffffffffffffffffff"), kNoMember);
}

TEST(AuthorityJoin, ALeftSeatGoesToTheNextJoiner) {
    TwoPlayers p;
    ASSERT_FALSE(p.room.act(p.ann.token, action::Leave {}, at_ms(20)));
    EXPECT_EQ(p.room.state().seat_holder(0), kNoMember);
    auto cat = p.room.join("cat", "", false, at_ms(30));
    ASSERT_TRUE(cat);
    EXPECT_EQ(cat->seat, 0);
    EXPECT_NE(cat->member, p.ann.member) << "member ids are never reused";
}

TEST(AuthorityJoin, NamesAreMadeUnique) {
    auto room = make_room(3);
    auto a = room.join("bob", "", false, at_ms(0));
    auto b = room.join("bob", "", false, at_ms(1));
    auto c = room.join("bob", "", true, at_ms(2));
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(joined_name(room, *a), "bob");
    EXPECT_EQ(joined_name(room, *b), "bob (2)");
    EXPECT_EQ(joined_name(room, *c), "bob (3)");
}

TEST(AuthorityJoin, ANameFreedByALeaverCanBeTakenAgain) {
    auto room = make_room(3);
    auto a = room.join("bob", "", false, at_ms(0));
    ASSERT_FALSE(room.act(a->token, action::Leave {}, at_ms(1)));
    auto b = room.join("bob", "", false, at_ms(2));
    EXPECT_EQ(joined_name(room, *b), "bob");
}

TEST(AuthorityJoin, BlankAndControlNamesAreCleaned) {
    auto room = make_room(3);
    auto blank = room.join("", "", true, at_ms(0));
    auto spaces = room.join(" \t\n", "", true, at_ms(1));
    auto escape = room.join("\x1b[31mred", "", true, at_ms(2));
    EXPECT_EQ(joined_name(room, *blank), "player");
    EXPECT_EQ(joined_name(room, *spaces), "player (2)");
    EXPECT_EQ(joined_name(room, *escape), "[31mred")
        << "the escape a space, and spaces at the ends gone";
}

TEST(AuthorityJoin, LongNamesAreCutTo32BytesAndStillUnique) {
    auto room = make_room(3);
    std::string long_name(100, 'x');
    auto a = room.join(long_name, "", false, at_ms(0));
    auto b = room.join(long_name, "", false, at_ms(1));
    EXPECT_EQ(joined_name(room, *a), std::string(32, 'x'));
    EXPECT_EQ(joined_name(room, *b), std::string(32, 'x') + " (2)");
}

TEST(AuthorityJoin, MultiByteNamesWithinTheLimitAreKept) {
    auto room = make_room(3);
    // 8 four-byte characters: 32 bytes exactly.
    std::string name;
    for (int i = 0; i < 8; ++i) name += "\xf0\x9f\x8e\xb2"; // U+1F3B2 game die
    auto a = room.join(name, "", false, at_ms(0));
    auto b = room.join("Zoë Ångström", "", false, at_ms(1));
    EXPECT_EQ(joined_name(room, *a), name);
    EXPECT_EQ(joined_name(room, *b), "Zoë Ångström");
}

// A name cut in the middle of a character is no longer UTF-8: protobuf then refuses to parse
// the snapshot that carries it, so no replica can be built of the room.
TEST(AuthorityJoin, NamesCutAtTheLimitStayValidUtf8) {
    for (std::size_t ascii = 28; ascii <= 31; ++ascii) {
        for (std::string ch : { "é", "日", "\xf0\x9f\x8e\xb2" }) {
            auto room = make_room(2);
            std::string wanted = std::string(ascii, 'a') + ch + ch;
            auto a = room.join(wanted, "", false, at_ms(0));
            ASSERT_TRUE(a);
            std::string got = joined_name(room, *a);
            SCOPED_TRACE(::testing::Message() << ascii << " ASCII then " << ch.size() << "-byte");
            EXPECT_TRUE(valid_utf8(got)) << "name of " << got.size() << " bytes";
            EXPECT_LE(got.size(), 32u);
            EXPECT_EQ(wanted.rfind(got, 0), 0u) << "the name is a prefix of the one asked for";
        }
    }
}

TEST(AuthorityJoin, ARoomWithACutNameStillMakesASnapshotThatParses) {
    auto room = make_room(2);
    auto a = room.join(std::string(31, 'a') + "é", "", false, at_ms(0));
    ASSERT_TRUE(a);
    halma::v1::Snapshot snapshot;
    halma::daemon::wire::to_proto(room.state(), &snapshot);
    std::string bytes;
    ASSERT_TRUE(snapshot.SerializeToString(&bytes));
    halma::v1::Snapshot parsed;
    EXPECT_TRUE(parsed.ParseFromString(bytes)) << "the replica could not read the snapshot";
}

TEST(AuthorityTokens, EachMemberGetsItsOwnUnguessableToken) {
    auto room = make_room(3);
    std::set<std::string> tokens;
    for (int i = 0; i < 6; ++i) {
        auto t = room.join("p", "", i >= 3, at_ms(i));
        ASSERT_TRUE(t);
        EXPECT_EQ(t->token.size(), 32u);
        EXPECT_EQ(t->token.find_first_not_of("0123456789abcdef"), std::string::npos);
        EXPECT_EQ(room.member_of(t->token), t->member);
        tokens.insert(t->token);
    }
    EXPECT_EQ(tokens.size(), 6u);
}

TEST(AuthorityTokens, UnknownAndEmptyTokensAreNotAllowed) {
    TwoPlayers p;
    p.room.take_events();
    for (std::string token : { std::string(), std::string("nope"), std::string(32, '0') }) {
        auto refusal = p.room.act(token, action::Chat { "hi" }, at_ms(20));
        ASSERT_TRUE(refusal) << "token '" << token << "'";
        EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
        EXPECT_EQ(refusal->message, "that seat token is not valid in room sunday");
    }
    EXPECT_EQ(p.room.member_of(""), kNoMember);
    EXPECT_TRUE(p.room.take_events().empty());
}

TEST(AuthorityTokens, ATokenActsForItsOwnMemberOnly) {
    TwoPlayers p;
    ASSERT_EQ(p.room.state().seat_to_move(), 0);
    // bob's token is bob's, whatever seat is to move.
    auto refusal
        = p.room.act(p.bob.token, action::Move { greedy_text(*p.room.state().game()) }, at_ms(20));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotYourTurn);
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.bob.token, action::Chat { "hello" }, at_ms(21)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* chat = std::get_if<event::Chat>(&events[0].body);
    ASSERT_NE(chat, nullptr);
    EXPECT_EQ(chat->member, p.bob.member);
    EXPECT_EQ(p.room.state().chat().back().name, "bob");
}

TEST(AuthorityTokens, ALeaversTokenIsDead) {
    TwoPlayers p;
    ASSERT_FALSE(p.room.act(p.bob.token, action::Leave {}, at_ms(20)));
    EXPECT_EQ(p.room.member_of(p.bob.token), kNoMember);
    auto refusal = p.room.act(p.bob.token, action::Chat { "still here?" }, at_ms(21));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kNotAllowed);
    // A rejoin with the dead token is a new member.
    auto again = p.room.join("bob", p.bob.token, false, at_ms(22));
    ASSERT_TRUE(again);
    EXPECT_FALSE(again->rejoined);
    EXPECT_NE(again->member, p.bob.member);
    EXPECT_NE(again->token, p.bob.token);
}

TEST(AuthorityTokens, RejoinWithAHeldTokenGivesTheSameMemberAndSeat) {
    TwoPlayers p;
    p.room.take_events();
    auto again = p.room.join("someone else", p.bob.token, true, at_ms(20));
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->rejoined);
    EXPECT_EQ(again->member, p.bob.member);
    EXPECT_EQ(again->seat, 1) << "spectate is not looked at on a rejoin";
    EXPECT_EQ(again->token, p.bob.token);
    EXPECT_EQ(p.room.state().member(p.bob.member)->name, "bob") << "nor is the name";
    EXPECT_TRUE(p.room.take_events().empty()) << "a connected member's rejoin changes nothing";
}

TEST(AuthorityTokens, RejoinOfAVanishedMemberSaysItIsBack) {
    TwoPlayers p;
    p.room.set_connected(p.bob.member, false, at_ms(20));
    EXPECT_FALSE(p.room.state().member(p.bob.member)->connected);
    p.room.take_events();
    auto again = p.room.join("bob", p.bob.token, false, at_ms(30));
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->rejoined);
    EXPECT_EQ(again->seat, 1);
    EXPECT_TRUE(p.room.state().member(p.bob.member)->connected);
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* back = std::get_if<event::Connection>(&events[0].body);
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(back->member, p.bob.member);
    EXPECT_TRUE(back->connected);
}

// A room that stands for months sees thousands come and go (a script looping join, chat and
// leave grew a host by about 150 bytes a cycle, for good): what it keeps about members follows
// those who are there, and it names only the last few who left.
TEST(AuthorityJoin, ComingAndGoingLeavesNothingBehind) {
    RoomAuthority room(room_config(3), AuthorityOptions {}, kSeed);
    auto ann = room.join("ann", "", false, at_ms(0));
    ASSERT_TRUE(ann);
    std::size_t entries_with_ann = room.member_entries();
    for (int i = 0; i < 2000; ++i) {
        auto bob = room.join("bob", "", i % 2 == 1, at_ms(10 + i));
        ASSERT_TRUE(bob) << i;
        ASSERT_FALSE(room.act(bob->token, action::Chat { "hi" }, at_ms(10 + i)));
        ASSERT_FALSE(room.act(bob->token, action::Leave {}, at_ms(10 + i)));
        room.take_events();
    }
    EXPECT_EQ(room.member_entries(), entries_with_ann);
    EXPECT_LE(room.state().names_known(), 1u + 32u);
    EXPECT_EQ(room.state().members().size(), 1u);
}

// One who takes a seat back comes back under the same member id, after a computer stood in:
// forty such returns (a laptop sleeping past the hold, again and again) kept the name, where the
// bound on the names of those who left had made him "member 2" for good.
TEST(AuthorityJoin, APlayerBackInTheSeatKeepsTheName) {
    AuthorityOptions options;
    options.bots_available = true;
    options.hold = std::chrono::milliseconds(1000);
    TwoPlayers p(options);
    std::int64_t t = 100;
    for (int i = 0; i < 40; ++i) {
        p.room.set_connected(p.bob.member, false, at_ms(t));
        p.room.tick(at_ms(t + 1100)); // past the hold: a computer takes the seat
        ASSERT_NE(p.room.state().seat_holder(p.bob.seat), p.bob.member) << i;
        auto back = p.room.join("bob", p.bob.token, false, at_ms(t + 1200));
        ASSERT_TRUE(back && back->member == p.bob.member) << i;
        p.room.take_events();
        t += 2000;
    }
    EXPECT_EQ(p.room.state().name_of(p.bob.member), "bob");
    EXPECT_LE(p.room.state().names_known(), 2u + 32u);
}
