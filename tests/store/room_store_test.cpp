// The host's rooms on disk: what is kept comes back the same (and restores the same room),
// private to its user; a record torn by a crash at the end of the events file is dropped, while
// damage anywhere else keeps that one room from loading, with the reason, and the others load.
#include "daemon/net/room_store.h"
#include "room_test_support.h"

#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace halma::testing;
namespace fs = std::filesystem;

namespace {

class RoomStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "halma-store-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        state_dir_ = fs::path(pattern) / "state";
    }
    void TearDown() override { fs::remove_all(state_dir_.parent_path()); }

    // A room kept as a host keeps it: created empty, then its events in batches.
    RoomAuthority keep_lively_room(RoomStore& store, std::string id = "") {
        auto room = lively_room();
        RoomConfig config = room.state().config();
        if (!id.empty()) config.room_id = id;
        EXPECT_TRUE(store.create(config, {}));
        const auto& log = room.state().log();
        for (std::size_t i = 0; i < log.size(); i += 5) {
            std::vector<RoomEvent> batch(log.begin() + static_cast<std::ptrdiff_t>(i),
                log.begin() + static_cast<std::ptrdiff_t>(std::min(i + 5, log.size())));
            auto ok = store.append(config.room_id, batch);
            EXPECT_TRUE(ok) << ok.error().message;
        }
        EXPECT_TRUE(store.save_members(config.room_id, members_of(room)));
        return room;
    }

    static StoredMembers members_of(const RoomAuthority& room) {
        return StoredMembers { room.tokens().begin()->first, room.tokens(), room.kept_seats() };
    }

    fs::path events_of(const std::string& room_id) const {
        return state_dir_ / "rooms" / room_id / "events";
    }

    void append_raw(const fs::path& path, std::string_view bytes) {
        std::ofstream out(path, std::ios::binary | std::ios::app);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

    std::string read_raw(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

    void write_raw(const fs::path& path, const std::string& bytes) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes;
    }

    fs::path state_dir_;
};

const std::string kOtherId = "ffeeddccbbaa99887766554433221100";

std::uint32_t mode_of(const fs::path& p) {
    struct stat st { };
    EXPECT_EQ(stat(p.c_str(), &st), 0) << p;
    return st.st_mode & 0777;
}

void expect_same_log(const std::vector<RoomEvent>& a, const std::vector<RoomEvent>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_TRUE(same_event(a[i], b[i])) << "event " << a[i].seq;
}

} // namespace

TEST_F(RoomStoreTest, WhatIsKeptComesBackAndRestoresTheSameRoom) {
    RoomAuthority room = [&] {
        RoomStore store(state_dir_);
        return keep_lively_room(store);
    }();
    RoomStore again(state_dir_);
    auto loaded = again.load();
    EXPECT_TRUE(loaded.warnings.empty());
    EXPECT_TRUE(loaded.refused.empty());
    ASSERT_EQ(loaded.rooms.size(), 1u);
    const StoredRoom& kept = loaded.rooms[0];
    EXPECT_EQ(kept.config.room_id, room.state().id());
    EXPECT_EQ(kept.config.code, room.state().config().code);
    EXPECT_EQ(kept.members, members_of(room));
    expect_same_log(kept.events, room.state().log());

    AuthorityOptions options;
    options.bots_available = true;
    auto back = RoomAuthority::restore(
        kept.config, options, kSeed, kept.events, kept.members.tokens, at_ms(0));
    ASSERT_TRUE(back) << back.error().message;
    auto diff = state_difference(room.state(), back->state());
    EXPECT_FALSE(diff) << *diff;

    // The loaded room is appended to where it ended.
    auto ticket = back->join("eve", "", true, at_ms(1));
    ASSERT_TRUE(ticket);
    ASSERT_TRUE(again.append(room.state().id(), back->take_events()));
    RoomStore third(state_dir_);
    auto reloaded = third.load();
    ASSERT_EQ(reloaded.rooms.size(), 1u);
    expect_same_log(reloaded.rooms[0].events, back->state().log());
}

// Issue 11: a host of thousands of rooms holds few descriptors for them: the logs written to
// last stay open (a busy room's appends reuse its descriptor), as many as it is told at most
// (kOpenLogs unless told; halmad gives an eighth of its descriptor limit).
TEST_F(RoomStoreTest, OnlyTheLatestWrittenLogsStayOpen) {
    auto open_files = [] {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
        return n;
    };
    std::size_t before = open_files();
    {
        RoomStore store(state_dir_);
        EXPECT_EQ(store.open_logs(), kOpenLogs);
        store.keep_logs_open(20);
        for (std::size_t i = 0; i < 70; ++i) {
            char id[33];
            std::snprintf(id, sizeof id, "%032zx", i + 1);
            keep_lively_room(store, id);
            EXPECT_LE(open_files(), before + 20);
        }
        EXPECT_EQ(open_files(), before + 20);
        store.keep_logs_open(5);
        EXPECT_EQ(open_files(), before + 5) << "told fewer: the rest are closed at once";
        EXPECT_EQ(RoomStore(state_dir_).load().rooms.size(), 70u);
    }
    EXPECT_EQ(open_files(), before) << "the store closes what it keeps open";
}

// A log rewritten (folded) or reloaded while open: the next append goes to the file at the path
// now, not to the one the rename replaced.
TEST_F(RoomStoreTest, AnAppendAfterARewriteGoesToTheNewFile) {
    RoomStore store(state_dir_);
    RoomAuthority room = keep_lively_room(store);
    const std::string id = room.state().id();
    const auto& log = room.state().log();
    std::vector<RoomEvent> head(log.begin(), log.begin() + 3), rest(log.begin() + 3, log.end());
    ASSERT_TRUE(store.rewrite(id, head));
    ASSERT_TRUE(store.append(id, rest));
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u);
    expect_same_log(loaded.rooms[0].events, log);
    ASSERT_TRUE(store.reload(id));
    ASSERT_TRUE(store.rewrite(id, head));
    ASSERT_TRUE(store.reload(id));
    ASSERT_TRUE(store.append(id, rest));
    expect_same_log(RoomStore(state_dir_).load().rooms[0].events, log);
}

TEST_F(RoomStoreTest, EverythingIsPrivateToItsUser) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path dir = state_dir_ / "rooms" / room.state().id();
    EXPECT_EQ(mode_of(state_dir_), 0700u);
    EXPECT_EQ(mode_of(state_dir_ / "rooms"), 0700u);
    EXPECT_EQ(mode_of(dir), 0700u);
    std::set<std::string> kept { "config", "events", "members", "members.b", "keys", "keys.b" };
    for (const auto& file : kept) EXPECT_EQ(mode_of(dir / file), 0600u) << file;
    std::set<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir)) files.insert(entry.path().filename());
    EXPECT_EQ(files, kept) << "no temporary file is left behind";
}

TEST_F(RoomStoreTest, ATornLastRecordIsDroppedAtEveryCut) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path events = events_of(room.state().id());
    std::string whole = read_raw(events);
    RoomEvent next { room.state().seq() + 1, 1, event::Chat { room.tokens().begin()->first, "x" } };
    std::string record = encode_event_record(next);
    for (std::size_t cut = 1; cut < record.size(); ++cut) {
        SCOPED_TRACE("cut after " + std::to_string(cut) + " bytes");
        write_raw(events, whole + record.substr(0, cut));
        RoomStore again(state_dir_);
        auto loaded = again.load();
        ASSERT_EQ(loaded.rooms.size(), 1u);
        ASSERT_EQ(loaded.warnings.size(), 1u);
        EXPECT_NE(loaded.warnings[0].find("dropped a torn last event"), std::string::npos)
            << loaded.warnings[0];
        expect_same_log(loaded.rooms[0].events, room.state().log());
        EXPECT_EQ(read_raw(events), whole) << "the torn bytes are cut off the file";
    }
}

TEST_F(RoomStoreTest, ALastRecordWrittenInPartOrAsZerosIsDropped) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path events = events_of(room.state().id());
    std::string whole = read_raw(events);
    // Its length was written, its data was not (zeros, or whatever was on the disk before).
    RoomEvent next { room.state().seq() + 1, 1, event::Chat { room.tokens().begin()->first, "x" } };
    std::string record = encode_event_record(next);
    std::string garbled = record;
    garbled.back() = static_cast<char>(garbled.back() ^ 0x5a);
    for (const std::string& tail : { garbled, std::string(4096, '\0'),
             record.substr(0, 8) + std::string(record.size() - 8, '\0') }) {
        write_raw(events, whole + tail);
        RoomStore again(state_dir_);
        auto loaded = again.load();
        ASSERT_EQ(loaded.rooms.size(), 1u);
        EXPECT_EQ(loaded.warnings.size(), 1u);
        expect_same_log(loaded.rooms[0].events, room.state().log());
    }
}

TEST_F(RoomStoreTest, DamageInTheMiddleRefusesThatRoomOnlyWithTheReason) {
    RoomStore store(state_dir_);
    auto damaged = keep_lively_room(store);
    auto sound = keep_lively_room(store, kOtherId);
    fs::path events = events_of(damaged.state().id());
    std::string whole = read_raw(events);
    std::size_t third = encode_event_record(damaged.state().log()[0]).size()
        + encode_event_record(damaged.state().log()[1]).size();
    struct Case {
        std::size_t at;
        char flip;
        std::string reason;
    };
    for (const Case& c : { Case { third + 10, 0x01, "checksum does not match at byte " },
             Case { third + 3, 0x40, "impossible length" },
             Case { third, 0x07, "checksum does not match at byte " } }) {
        SCOPED_TRACE(c.reason);
        std::string bytes = whole;
        bytes[c.at] = static_cast<char>(bytes[c.at] ^ c.flip);
        write_raw(events, bytes);
        RoomStore again(state_dir_);
        auto loaded = again.load();
        ASSERT_EQ(loaded.rooms.size(), 1u) << "the other room still loads";
        EXPECT_EQ(loaded.rooms[0].config.room_id, kOtherId);
        ASSERT_EQ(loaded.refused.size(), 1u);
        EXPECT_EQ(loaded.refused[0].first, damaged.state().id());
        EXPECT_NE(loaded.refused[0].second.find(c.reason), std::string::npos)
            << loaded.refused[0].second;
        EXPECT_EQ(read_raw(events), bytes) << "a refused room is left as it was";
    }
    (void)sound;
}

TEST_F(RoomStoreTest, DamagedConfigOrMembersRefuseTheRoom) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path dir = state_dir_ / "rooms" / room.state().id();
    std::string members = read_raw(dir / "members");
    fs::remove(dir / "members.b"); // the copy written last: "members" is then the file
    for (const std::string& bad :
        { std::string("member 1 not-a-token\n"), std::string("local 1\nlocal 2\n"),
            std::string("member 2 ") + std::string(32, 'a') + "\nmember 2 " + std::string(32, 'b')
                + "\n",
            std::string("seat 1\n"), std::string("kept 6 2 ") + std::string(32, 'a') + "\n",
            std::string("kept 1 2 not-a-token\n"),
            std::string("kept 1 0 ") + std::string(32, 'a') + "\n",
            std::string("kept 1 2 ") + std::string(32, 'a') + "\nkept 1 3 " + std::string(32, 'b')
                + "\n" }) {
        write_raw(dir / "members", bad);
        auto loaded = RoomStore(state_dir_).load();
        EXPECT_TRUE(loaded.rooms.empty()) << bad;
        ASSERT_EQ(loaded.refused.size(), 1u);
        EXPECT_NE(loaded.refused[0].second.find("members line"), std::string::npos);
    }
    write_raw(dir / "members", members);
    write_raw(dir / "config", "\xff\xff\xff");
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.refused.size(), 1u);
    EXPECT_EQ(loaded.refused[0].second, "its config does not parse");
}

// A seat a computer keeps for a player whose daemon vanished comes back with the tokens, so the
// restarted host still gives it back to that player only.
TEST_F(RoomStoreTest, SeatsKeptForVanishedPlayersComeBack) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    StoredMembers members = members_of(room);
    members.kept_seats[2] = KeptSeat { 41, std::string(32, 'e') };
    members.kept_seats[5] = KeptSeat { 7, std::string(32, 'f') };
    ASSERT_TRUE(store.save_members(room.state().id(), members));
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u);
    EXPECT_EQ(loaded.rooms[0].members, members);
}

TEST_F(RoomStoreTest, AHalfMadeRoomIsRemovedAndStrangersAreSkipped) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path half = state_dir_ / "rooms" / kOtherId;
    fs::create_directory(half);
    append_raw(half / "events", encode_event_record(room.state().log()[0]));
    fs::create_directory(state_dir_ / "rooms" / "notes");
    auto loaded = RoomStore(state_dir_).load();
    EXPECT_EQ(loaded.rooms.size(), 1u);
    EXPECT_FALSE(fs::exists(half)) << "a room without its config was never whole";
    EXPECT_TRUE(fs::exists(state_dir_ / "rooms" / "notes")) << "what is not ours is left alone";
    EXPECT_EQ(loaded.warnings.size(), 2u);
}

TEST_F(RoomStoreTest, ARemovedRoomIsGone) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    auto other = keep_lively_room(store, kOtherId);
    ASSERT_TRUE(store.remove(room.state().id()));
    EXPECT_FALSE(fs::exists(state_dir_ / "rooms" / room.state().id()));
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u);
    EXPECT_EQ(loaded.rooms[0].config.room_id, kOtherId);
    (void)other;
}

TEST_F(RoomStoreTest, NoStateDirectoryYetIsNoRooms) {
    auto loaded = RoomStore(state_dir_).load();
    EXPECT_TRUE(loaded.rooms.empty());
    EXPECT_TRUE(loaded.refused.empty());
    EXPECT_FALSE(fs::exists(state_dir_)) << "loading writes nothing";
}

TEST(EventLogRecords, AnEmptyLogAndAWholeOne) {
    auto empty = decode_event_log("");
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->events.empty());
    EXPECT_TRUE(empty->torn.empty());
    auto room = lively_room();
    std::string bytes;
    for (const auto& e : room.state().log()) bytes += encode_event_record(e);
    auto log = decode_event_log(bytes);
    ASSERT_TRUE(log) << log.error().message;
    EXPECT_TRUE(log->torn.empty());
    EXPECT_EQ(log->good_bytes, bytes.size());
    expect_same_log(log->events, room.state().log());
}

// A front end's new room is made by the disk helper (RoomStore::creation, run on another
// thread): the same files create() makes, on the disk when it returns, and the room loads.
TEST_F(RoomStoreTest, ARoomMadeByTheHelperLoadsAsOneMadeOnTheSpot) {
    RoomStore store(state_dir_);
    RoomConfig config = lively_room().state().config();
    config.room_id = kOtherId;
    StoredMembers members { 1, { { 1, "00112233445566778899aabbccddeeff" } }, {} };
    auto work = store.creation(config, members);
    EXPECT_FALSE(fs::exists(state_dir_ / "rooms" / kOtherId)) << "nothing is made before it runs";
    auto failure = std::async(std::launch::async, work).get();
    ASSERT_FALSE(failure) << *failure;
    for (const char* file : { "events", "members", "config" })
        EXPECT_EQ(mode_of(state_dir_ / "rooms" / kOtherId / file), 0600u) << file;
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u) << (loaded.refused.empty() ? "" : loaded.refused[0].second)
                                       << (loaded.warnings.empty() ? "" : loaded.warnings[0]);
    EXPECT_EQ(loaded.rooms[0].config.name, config.name);
    EXPECT_EQ(loaded.rooms[0].members, members);
    EXPECT_TRUE(loaded.rooms[0].events.empty());
    // A second making of the same room fails, naming why, and leaves the first as it was.
    auto again = work();
    ASSERT_TRUE(again);
    EXPECT_NE(again->find("exists already"), std::string::npos) << *again;
    EXPECT_EQ(RoomStore(state_dir_).load().rooms.size(), 1u);
}

// Where the room cannot be made (here its directory's parent is a plain file), the work says
// why, and nothing of the room is left.
TEST_F(RoomStoreTest, ARoomTheHelperCannotMakeLeavesNothing) {
    fs::create_directories(state_dir_);
    std::ofstream(state_dir_ / "rooms") << "not a directory";
    RoomStore store(state_dir_);
    RoomConfig config = lively_room().state().config();
    auto failure = store.creation(config, {})();
    ASSERT_TRUE(failure);
    EXPECT_NE(failure->find("rooms"), std::string::npos) << *failure;
    EXPECT_TRUE(fs::is_regular_file(state_dir_ / "rooms"));
}

// A fold written by the disk helper (folding) while the log takes more events, then put in the
// log's place with them (finish_fold): the room loads with every event, the appends after it go
// to the new file; a fold file a stop left behind is removed at the next load and the log, whole
// without it, loads as it was.
TEST_F(RoomStoreTest, AFoldWrittenByTheHelperTakesTheEventsLoggedMeanwhile) {
    RoomStore store(state_dir_);
    RoomAuthority room = keep_lively_room(store);
    const std::string id = room.state().id();
    const auto& log = room.state().log();
    ASSERT_GE(log.size(), 6u);
    std::vector<RoomEvent> folded(log.begin(), log.end() - 4);
    std::vector<RoomEvent> since(log.end() - 4, log.end() - 2);
    std::vector<RoomEvent> after(log.end() - 2, log.end());
    auto work = store.folding(id, folded);
    EXPECT_FALSE(fs::exists(store.fold_file(id))) << "nothing is written before it runs";
    auto failure = std::async(std::launch::async, work).get();
    ASSERT_FALSE(failure) << *failure;
    EXPECT_EQ(mode_of(store.fold_file(id)), 0600u);
    // Until it is put in place, the log is what loads (a stop here leaves the fold file).
    auto before = RoomStore(state_dir_).load();
    ASSERT_EQ(before.rooms.size(), 1u);
    expect_same_log(before.rooms[0].events, log);
    EXPECT_FALSE(fs::exists(store.fold_file(id))) << "the load removes a fold file left behind";

    ASSERT_FALSE(std::async(std::launch::async, work).get());
    ASSERT_TRUE(store.finish_fold(id, since));
    EXPECT_FALSE(fs::exists(store.fold_file(id)));
    ASSERT_TRUE(store.append(id, after));
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u);
    expect_same_log(loaded.rooms[0].events, log);
    EXPECT_EQ(read_raw(events_of(id)).size(), [&] {
        std::size_t n = 0;
        for (const auto& e : log) n += encode_event_record(e).size();
        return n;
    }()) << "the new file holds each event once";

    // No fold file (the room was closed meanwhile): the log stays as it was, and says why.
    auto missing = store.finish_fold(id, {});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("events.folded"), std::string::npos)
        << missing.error().message;
    expect_same_log(RoomStore(state_dir_).load().rooms[0].events, log);
}

// With the flushes left to the disk helper, the members file's copies take turns only once the
// last copy written is on the disk: until then the next write goes over it again, as the other
// may be the only copy on the disk (two writes in one group-commit window each tore a copy, and
// a power cut in the flush of both could tear both).
TEST_F(RoomStoreTest, TheMembersCopiesTakeTurnsOnlyOnceTheLastIsOnTheDisk) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    const std::string& id = room.state().id();
    store.flush_later(true);
    bool on_disk = false;
    store.flush_check([&](std::uint64_t ticket) { return on_disk && ticket == 7; });
    auto copy_written = [&](MemberId local) {
        EXPECT_TRUE(
            store.save_members(id, StoredMembers { local, room.tokens(), room.kept_seats() }));
        std::vector<fs::path> copies;
        for (const auto& path : store.take_unflushed())
            if (path.filename().string().starts_with("members")) copies.push_back(path);
        EXPECT_EQ(copies.size(), 1u);
        return copies.empty() ? fs::path() : copies.front();
    };
    fs::path first = copy_written(1);
    EXPECT_EQ(copy_written(2), first) << "not handed to the disk yet";
    store.flush_asked(first, 7);
    EXPECT_EQ(copy_written(3), first) << "handed to the disk, its flush not done";
    store.flush_asked(first, 7);
    on_disk = true;
    fs::path other = copy_written(4);
    EXPECT_NE(other, first) << "on the disk: the other copy's turn";
    EXPECT_EQ(RoomStore(state_dir_).load().rooms[0].members.local, 4u);
}

// Both copies empty (a power cut right after a room was made): the room loads, with no seat
// tokens, as it did from an empty file.
TEST_F(RoomStoreTest, EmptyMembersCopiesLoadAsNoTokens) {
    RoomStore store(state_dir_);
    auto room = keep_lively_room(store);
    fs::path dir = state_dir_ / "rooms" / room.state().id();
    write_raw(dir / "members", "");
    write_raw(dir / "members.b", "");
    auto loaded = RoomStore(state_dir_).load();
    ASSERT_EQ(loaded.rooms.size(), 1u) << (loaded.refused.empty() ? "" : loaded.refused[0].second);
    EXPECT_TRUE(loaded.rooms[0].members.tokens.empty());
}
