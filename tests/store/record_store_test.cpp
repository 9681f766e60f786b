// Records of finished games on disk (daemon/net/record_store): what is saved is listed and read
// back, a game's record is replaced by a later one of the same game, the oldest go past the
// limit, and ids that name nothing, several records or a path are refused with the reason.
#include "daemon/net/record_store.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace halma;
using namespace halma::daemon;
namespace fs = std::filesystem;

namespace {

class RecordStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "halma-records-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        state_dir_ = fs::path(pattern) / "state";
    }
    void TearDown() override { fs::remove_all(state_dir_.parent_path()); }

    static engine::GameRecord record(int game, int moves) {
        engine::GameRecord r;
        r.room = "lunch";
        r.game_number = game;
        r.started_ms = 1795500000000 + game * 60'000;
        r.ended_ms = r.started_ms + 30'000;
        r.setup = *engine::GameSetup::make(2, 1, engine::Rules {});
        r.players = { { "alice", 1, "human" }, { "bot", 2, "bot easy" } };
        engine::Game g = *engine::start_of(r);
        for (int i = 0; i < moves; ++i) {
            engine::MoveList list;
            g.legal_moves(list);
            r.moves.push_back(g.play(list.moves[0])->front().path);
        }
        r.places = { 0, 0 };
        r.ending = "cancelled";
        return r;
    }

    fs::path state_dir_;
};

const std::string kRoom = "3f2a9c1b00000000000000000000000a";
const std::string kOther = "3f2a9c1b00000000000000000000000b";

} // namespace

TEST_F(RecordStoreTest, SavedRecordsAreListedAndReadBack) {
    RecordStore store(state_dir_, 10);
    EXPECT_TRUE(store.list().records.empty()); // no directory yet
    ASSERT_TRUE(store.save(kRoom, record(1, 4)));
    ASSERT_TRUE(store.save(kRoom, record(2, 6)));
    EXPECT_TRUE(store.has(kRoom, 2));
    EXPECT_FALSE(store.has(kRoom, 3));
    auto listing = store.list();
    ASSERT_EQ(listing.records.size(), 2u);
    EXPECT_EQ(listing.records[0].id, "3f2a9c1b-1");
    EXPECT_EQ(listing.records[1].moves, 6u);
    EXPECT_EQ(listing.records[1].players[1], "bot");
    auto text = store.read("3f2a9c1b-2");
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_EQ(*text, engine::format_record(record(2, 6)));
    struct stat st { };
    ASSERT_EQ(::stat(store.dir().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(RecordStoreTest, ALaterRecordOfTheSameGameReplacesIt) {
    RecordStore store(state_dir_, 10);
    ASSERT_TRUE(store.save(kRoom, record(1, 4)));
    ASSERT_TRUE(store.save(kRoom, record(1, 9)));
    auto listing = store.list();
    ASSERT_EQ(listing.records.size(), 1u);
    EXPECT_EQ(listing.records[0].moves, 9u);
}

TEST_F(RecordStoreTest, TheOldestGoPastTheLimit) {
    RecordStore store(state_dir_, 3);
    for (int game = 1; game <= 5; ++game) {
        ASSERT_TRUE(store.save(kRoom, record(game, 2)));
        // File times order the records: make each one visibly older than the next.
        auto file = store.dir() / (kRoom + "-" + std::to_string(game) + ".hrec");
        fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::hours(10 - game));
    }
    auto listing = store.list();
    ASSERT_EQ(listing.records.size(), 3u);
    EXPECT_EQ(listing.records[0].game_number, 3);
    EXPECT_FALSE(store.has(kRoom, 2));
    RecordStore none(state_dir_ / "none", 0);
    auto saved = none.save(kRoom, record(1, 2));
    ASSERT_TRUE(saved);
    EXPECT_FALSE(*saved) << "records-kept 0: nothing written, nothing to flush";
    EXPECT_FALSE(none.has(kRoom, 1));
}

// A record past the limit that the disk helper has not removed yet, or removed while the list
// was being made, is not listed, and is no "unreadable record": a listing beside rooms of bots
// pruning their records said "No such file or directory" one time in three.
TEST_F(RecordStoreTest, ARecordBeingPrunedIsNotListedAsUnreadable) {
    RecordStore store(state_dir_, 2);
    ASSERT_TRUE(store.save(kRoom, record(1, 2)));
    ASSERT_TRUE(store.save(kRoom, record(2, 2)));
    auto prepared = store.prepare(kRoom, record(3, 2)); // the helper's part not done yet
    ASSERT_TRUE(prepared && *prepared);
    ASSERT_EQ((*prepared)->pruned.size(), 1u);
    auto listing = store.list();
    EXPECT_TRUE(listing.unreadable.empty()) << listing.unreadable.front();
    for (const auto& r : listing.records)
        EXPECT_NE(store.file_of(kRoom, r.game_number), (*prepared)->pruned.front())
            << "game " << r.game_number << " is being removed";
}

// The store lists its directory once, when it is first asked to keep a record (a daemon's
// restart), ordering what it finds by file time; after that a game's end costs the same with a
// thousand records kept as with none. prepare() leaves the writing and the pruning to the caller
// (the host's disk helper).
TEST_F(RecordStoreTest, RecordsFromBeforeARestartArePrunedOldestFirst) {
    {
        RecordStore before(state_dir_, 10);
        for (int game = 1; game <= 4; ++game) {
            ASSERT_TRUE(before.save(kRoom, record(game, 2)));
            // Written in the order 3, 1, 4, 2 as far as file times tell.
            static const int age_hours[] = { 0, 8, 2, 9, 1 };
            fs::last_write_time(before.file_of(kRoom, game),
                fs::file_time_type::clock::now() - std::chrono::hours(age_hours[game]));
        }
    }
    RecordStore store(state_dir_, 3);
    auto prepared = store.prepare(kOther, record(1, 2));
    ASSERT_TRUE(prepared);
    ASSERT_TRUE(*prepared);
    const RecordWrite& write = **prepared;
    EXPECT_EQ(write.file, store.file_of(kOther, 1));
    EXPECT_EQ(write.text, engine::format_record(record(1, 2)));
    ASSERT_EQ(write.pruned.size(), 2u) << "four kept and one more, three allowed";
    EXPECT_EQ(write.pruned[0], store.file_of(kRoom, 3));
    EXPECT_EQ(write.pruned[1], store.file_of(kRoom, 1));
    EXPECT_FALSE(fs::exists(write.file)) << "prepare() writes nothing";
    EXPECT_TRUE(fs::exists(write.pruned[0])) << "nor removes anything";
    // The next one pushes out the next oldest; a record written again is the newest.
    auto again = store.prepare(kRoom, record(4, 3));
    ASSERT_TRUE(again && *again);
    ASSERT_EQ((*again)->pruned.size(), 0u) << "game 4's record replaced: still three";
    auto next = store.prepare(kOther, record(2, 2));
    ASSERT_TRUE(next && *next);
    ASSERT_EQ((*next)->pruned.size(), 1u);
    EXPECT_EQ((*next)->pruned[0], store.file_of(kRoom, 2));
    // What was pushed out is no longer kept (a failed write of it is not asked for again).
    EXPECT_FALSE(store.keeps(store.file_of(kRoom, 2)));
    EXPECT_FALSE(store.keeps(store.file_of(kRoom, 3)));
    EXPECT_TRUE(store.keeps(store.file_of(kOther, 2)));
    EXPECT_TRUE(store.keeps(store.file_of(kRoom, 4)));
}

// A room where only computers sit plays a game every few seconds: past the limit, their games go
// before the people's (the people's games of a week were pushed out in an hour and a half), so it
// costs the people's at most the one record its newest game takes.
TEST_F(RecordStoreTest, TheComputersGamesGoBeforeThePeoples) {
    RecordStore store(state_dir_, 3);
    auto computers = [](int game) {
        auto r = record(game, 2);
        r.players = { { "bot for alice", 1, "bot easy" }, { "bot", 2, "bot easy" } };
        return r;
    };
    for (int game = 1; game <= 3; ++game) ASSERT_TRUE(store.save(kRoom, record(game, 2)));
    for (int game = 4; game <= 9; ++game) {
        auto kept = store.save(kOther, computers(game));
        ASSERT_TRUE(kept && *kept) << "game " << game;
    }
    EXPECT_FALSE(store.has(kRoom, 1)) << "the newest computers' game takes one person's place";
    EXPECT_TRUE(store.has(kRoom, 2)) << "and no more";
    EXPECT_TRUE(store.has(kRoom, 3));
    EXPECT_TRUE(store.has(kOther, 9)) << "the newest computers' game";
    EXPECT_FALSE(store.has(kOther, 8)) << "the older ones went first";
    ASSERT_TRUE(store.save(kRoom, record(10, 2)));
    EXPECT_FALSE(store.has(kOther, 9)) << "a person's game pushes the computers' out";
    EXPECT_TRUE(store.has(kRoom, 2));
    ASSERT_TRUE(store.save(kRoom, record(11, 2)));
    EXPECT_FALSE(store.has(kRoom, 2)) << "past that, the oldest of all go, as before";
}

TEST_F(RecordStoreTest, AnEmptyOrTornRecordIsNotKept) {
    // A power cut before a record's flush (written with Flush::kLater, flushed by the helper) can
    // leave its file empty or cut short: the host then makes it again from the room's log.
    RecordStore store(state_dir_, 10);
    auto saved = store.save(kRoom, record(1, 4), Flush::kLater);
    ASSERT_TRUE(saved && *saved);
    EXPECT_TRUE(store.has(kRoom, 1));
    auto file = store.file_of(kRoom, 1);
    std::string text = engine::format_record(record(1, 4));
    std::ofstream(file, std::ios::trunc) << text.substr(0, 20);
    EXPECT_FALSE(store.has(kRoom, 1));
    std::ofstream(file, std::ios::trunc).close();
    EXPECT_FALSE(store.has(kRoom, 1));
}

TEST_F(RecordStoreTest, BadIdsAndDamagedFilesAreNamed) {
    RecordStore store(state_dir_, 10);
    ASSERT_TRUE(store.save(kRoom, record(1, 2)));
    ASSERT_TRUE(store.save(kOther, record(1, 2)));
    EXPECT_EQ(store.read("3f2a9c1b-1").error().message,
        "record id 3f2a9c1b-1 fits 2 records: give more of the room id");
    EXPECT_TRUE(store.read(kOther + "-1"));
    EXPECT_TRUE(store.read(kOther + "-1.hrec"));
    EXPECT_EQ(store.read("3f2a9c1b-7").error().message,
        "no record 3f2a9c1b-7 here (see `halma records`; "
        "each game's record is kept by the halmad that "
        "hosted its room)");
    EXPECT_EQ(store.read("../../etc/passwd").error().message,
        "\"../../etc/passwd\" is not a record id (like 3f2a9c1b-12: see `halma records`)");
    EXPECT_FALSE(store.read(""));
    std::ofstream(store.dir() / (kRoom + "-9.hrec")) << "[Format \"halma-record 9\"]\n";
    auto listing = store.list();
    EXPECT_EQ(listing.records.size(), 2u);
    ASSERT_EQ(listing.unreadable.size(), 1u);
    EXPECT_NE(listing.unreadable[0].find("-9.hrec: line 1: this is \"halma-record 9\""),
        std::string::npos)
        << listing.unreadable[0];
}

// A record being written when halmad was killed leaves its .hrec.tmp; nothing else removed it.
TEST_F(RecordStoreTest, AWriteCutShortByACrashIsClearedAway) {
    {
        RecordStore store(state_dir_, 10);
        ASSERT_TRUE(store.save(kRoom, record(1, 4)));
    }
    fs::path stray = state_dir_ / "records" / (kRoom + "-2.hrec.tmp");
    std::ofstream(stray) << "half a record";
    RecordStore store(state_dir_, 10);
    ASSERT_TRUE(store.save(kRoom, record(3, 4)));
    EXPECT_FALSE(fs::exists(stray));
    EXPECT_EQ(store.list().records.size(), 2u);
}

// The rule holds across a restart (a run's computers' games counted as people's in the next, and
// a newer person's game went before them), and a limit lowered since takes effect at start.
TEST_F(RecordStoreTest, AfterARestartTheComputersGamesStillGoFirstAndALowerLimitHolds) {
    auto computers = [](int game) {
        auto r = record(game, 2);
        r.players = { { "bot", 1, "bot easy" }, { "bot (2)", 2, "bot hard" } };
        return r;
    };
    {
        RecordStore store(state_dir_, 100);
        ASSERT_TRUE(store.save(kOther, computers(1)));
        ASSERT_TRUE(store.save(kOther, computers(2)));
        ASSERT_TRUE(store.save(kRoom, record(3, 2)));
        ASSERT_TRUE(store.save(kOther, computers(4)));
    }
    RecordStore restarted(state_dir_, 3);
    auto pruned = restarted.index_and_prune();
    ASSERT_TRUE(pruned) << pruned.error().message;
    EXPECT_EQ(*pruned, 1u);
    EXPECT_FALSE(restarted.has(kOther, 1)) << "the oldest computers' game went at start";
    EXPECT_EQ(restarted.list().records.size(), 3u);
    ASSERT_TRUE(restarted.save(kRoom, record(5, 2)));
    EXPECT_TRUE(restarted.has(kRoom, 3)) << "the person's game of the last run stays";
    EXPECT_FALSE(restarted.has(kOther, 2)) << "a computers' game of the last run goes first";
}

// A record damaged on disk is said so: its bytes went to the terminal as they were.
TEST_F(RecordStoreTest, ADamagedRecordIsSaidSoNotSent) {
    RecordStore store(state_dir_, 10);
    ASSERT_TRUE(store.save(kRoom, record(1, 4)));
    std::ofstream(state_dir_ / "records" / (kRoom + "-1.hrec"), std::ios::trunc)
        << "\x1b]0;owned\x07 not a record\n";
    auto text = store.read("3f2a9c1b-1");
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find("is damaged"), std::string::npos) << text.error().message;
}
