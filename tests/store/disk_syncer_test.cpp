// The helper thread that flushes a host's files (daemon/net/disk_syncer): each request gets a
// ticket, and the loop can ask whether the flushes of a range of tickets are done and all
// succeeded (the host relies on that before it folds a finished game out of a room's log). Real
// files in a temporary directory and a real helper thread; every wait is bounded.
#include "daemon/net/disk_syncer.h"

#include <chrono>
#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <thread>

using namespace halma::daemon;
namespace fs = std::filesystem;

namespace {

class DiskSyncerTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "halma-syncer-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Whether flushed(first, last) turns true within 10 s.
    static bool becomes_flushed(const DiskSyncer& disk, std::uint64_t first, std::uint64_t last) {
        for (int i = 0; i < 1000; ++i) {
            if (disk.flushed(first, last)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

    // Files events0, events1... each with an event, their flushes asked for: the first and the
    // last ticket.
    std::pair<std::uint64_t, std::uint64_t> queue_room_logs(DiskSyncer& disk, std::size_t n) {
        std::uint64_t first = 0, last = 0;
        for (std::size_t i = 0; i < n; ++i) {
            auto file = dir_ / ("events" + std::to_string(i));
            std::ofstream(file) << "an event";
            last = disk.sync(file, "room" + std::to_string(i));
            if (!first) first = last;
        }
        return { first, last };
    }

    // The first failure the helper reports within 10 s, if any.
    static std::optional<std::pair<std::string, std::string>> first_failure(DiskSyncer& disk) {
        std::optional<std::pair<std::string, std::string>> failure;
        for (int i = 0; i < 1000 && !failure; ++i) {
            failure = disk.take_failure();
            if (!failure) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return failure;
    }

    zmq::context_t context_;
    fs::path dir_;
};

} // namespace

TEST_F(DiskSyncerTest, TicketsCountUpAndAreFlushedInTurn) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "a") << "record";
    std::uint64_t file = disk.sync(dir_ / "a", "room");
    std::uint64_t dir = disk.sync(dir_, "room");
    EXPECT_EQ(dir, file + 1);
    EXPECT_FALSE(disk.flushed(file, dir + 1)) << "a ticket not given out yet is not flushed";
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, file, dir));
    EXPECT_EQ(disk.flushes(), 2u);
    // A file asked for again while it waits is flushed once, for both tickets.
    std::uint64_t again = disk.sync(dir_ / "a", "room");
    std::uint64_t twice = disk.sync(dir_ / "a", "room");
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, again, twice));
    EXPECT_EQ(disk.flushes(), 3u);
    EXPECT_FALSE(disk.take_failure());
}

TEST_F(DiskSyncerTest, NothingIsFlushedUntilTheLoopStartsTheHelper) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "a") << "record";
    std::uint64_t ticket = disk.sync(dir_ / "a", "room");
    std::this_thread::sleep_for(kFlushGroupWindow * 5);
    EXPECT_FALSE(disk.flushed(ticket, ticket));
    EXPECT_EQ(disk.queued(), 1u);
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, ticket, ticket));
}

// Group commit: what is written while the helper gathers its batch joins it, and a file
// written many times in it is flushed once. A 3 s window, so the writes below fall in it on
// any machine.
TEST_F(DiskSyncerTest, WritesDuringTheWindowShareOneFlushPerFile) {
    DiskSyncer disk(context_, std::chrono::seconds(3));
    std::ofstream(dir_ / "a") << "record";
    std::ofstream(dir_ / "b") << "record";
    std::uint64_t first = disk.sync(dir_ / "a", "room");
    disk.start();
    for (int i = 0; i < 50; ++i) {
        disk.sync(dir_ / "a", "room");
        disk.start();
    }
    std::uint64_t last = disk.sync(dir_ / "b", "room");
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, first, last));
    EXPECT_EQ(disk.flushes(), 2u) << "52 requests for two files: one flush each";
}

// A clean stop flushes what is queued at once, without waiting out the window.
TEST_F(DiskSyncerTest, AStopFlushesWithoutWaitingForTheWindow) {
    std::ofstream(dir_ / "a") << "record";
    auto disk = std::make_unique<DiskSyncer>(context_, std::chrono::minutes(10));
    disk->sync(dir_ / "a", "room");
    disk->start();
    auto t0 = std::chrono::steady_clock::now();
    disk.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::minutes(5));
}

TEST_F(DiskSyncerTest, AFailedFlushIsNeverReportedFlushed) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "file") << "x";
    // Opening a path under a plain file fails (ENOTDIR): the flush fails, even for root.
    std::uint64_t bad = disk.sync(dir_ / "file" / "below", "lunch");
    std::uint64_t good = disk.sync(dir_ / "file", "lunch");
    disk.start();
    // The later good flush finishes the batch: done, but the range holding the failure is not
    // flushed, and the failure comes back with its label.
    EXPECT_TRUE(becomes_flushed(disk, good, good));
    EXPECT_FALSE(disk.flushed(bad, good));
    auto failure = first_failure(disk);
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->first, "lunch");
    EXPECT_EQ(failure->second, "Not a directory");
}

// Whole files (a finished game's record) are written and removed by the helper: the loop only
// queues them. The latest request for a path is what the path ends up with.
// A directory many rooms write in (STATE_DIR/rooms) is flushed once for all of them; if that
// flush fails, each room that asked is told, not only the first (which may have closed).
TEST_F(DiskSyncerTest, AFailedFlushIsToldToEveryoneWhoAskedForIt) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "plain") << "x";
    auto bad = dir_ / "plain" / "under"; // ENOTDIR, even for root
    disk.sync(bad, "lunch");
    disk.sync(bad, "dinner");
    disk.sync(bad, "lunch");
    disk.wait(disk.sync(bad, "supper"));
    std::multiset<std::string> told;
    while (auto failure = first_failure(disk)) {
        told.insert(failure->first);
        if (told.size() == 3) break;
    }
    EXPECT_EQ(told, (std::multiset<std::string> { "dinner", "lunch", "supper" }));
    EXPECT_FALSE(disk.take_failure()) << "a label told twice";
}

// A disk failing under more rooms than the pipe to the loop holds messages (2000): every room is
// told, once, however many of its flushes failed.
TEST_F(DiskSyncerTest, AFailureOfThousandsOfRoomsLosesNone) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "plain") << "x";
    constexpr int kRooms = 5000;
    std::uint64_t last = 0;
    for (int round = 0; round < 2; ++round)
        for (int i = 0; i < kRooms; ++i)
            last = disk.sync(dir_ / "plain" / std::to_string(i), "room" + std::to_string(i));
    disk.wait(last);
    std::set<std::string> told;
    while (auto failure = disk.take_failure()) {
        EXPECT_TRUE(told.insert(failure->first).second) << failure->first << " told twice";
        EXPECT_NE(failure->second.find("directory"), std::string::npos) << failure->second;
    }
    EXPECT_EQ(told.size(), static_cast<std::size_t>(kRooms));
}

TEST_F(DiskSyncerTest, WritesAndRemovalsAreCarriedOutInTheLatestRequestsOrder) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "old") << "an old record";
    std::uint64_t first = disk.write(dir_ / "a", "first text", "room");
    disk.write(dir_ / "a", "second text", "room");
    disk.write(dir_ / "b", "b's text", "room");
    disk.remove(dir_ / "b", "room"); // written then removed in one batch: not there
    disk.remove(dir_ / "old", "room");
    std::uint64_t last = disk.remove(dir_ / "never-was", "room"); // gone already: no failure
    EXPECT_FALSE(fs::exists(dir_ / "a")) << "nothing is written before the loop starts the helper";
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, first, last));
    std::ifstream in(dir_ / "a");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "second text");
    EXPECT_EQ(fs::status(dir_ / "a").permissions() & fs::perms::all,
        fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_FALSE(fs::exists(dir_ / "b"));
    EXPECT_FALSE(fs::exists(dir_ / "old"));
    EXPECT_FALSE(fs::exists(dir_ / "a.tmp"));
    EXPECT_FALSE(disk.take_failure());
}

// A write the disk refuses comes back like a failed flush: tried, never flushed, and the label
// named, so the host can make the room read-only and ask again later.
TEST_F(DiskSyncerTest, AFailedWriteIsTriedButNeverFlushed) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "file") << "x";
    std::uint64_t bad = disk.write(dir_ / "file" / "record.hrec", "text", "lunch");
    disk.start();
    for (int i = 0; i < 1000 && !disk.tried(bad); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(disk.tried(bad));
    EXPECT_FALSE(disk.flushed(bad, bad));
    auto failure = first_failure(disk);
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->first, "lunch");
    EXPECT_NE(failure->second.find("record.hrec.tmp"), std::string::npos) << failure->second;
}

// wait() is for the rare moment the loop cannot go on without a file on the disk (a room
// closing right after its game ended): it starts the helper itself and cuts the group window
// short. With a ten-minute window, a wait that sat it out would not return within the minute.
TEST_F(DiskSyncerTest, AWaitStartsTheHelperAndSkipsTheWindow) {
    DiskSyncer disk(context_, std::chrono::minutes(10));
    std::uint64_t ticket = disk.write(dir_ / "record.hrec", "text", "room");
    auto waited = std::async(std::launch::async, [&] { disk.wait(ticket); });
    ASSERT_EQ(waited.wait_for(std::chrono::minutes(1)), std::future_status::ready);
    EXPECT_TRUE(disk.flushed(ticket, ticket));
    EXPECT_TRUE(fs::exists(dir_ / "record.hrec"));
    disk.wait(ticket); // done already: returns at once
}

// Many files in one batch (hundreds of busy rooms) are flushed with one syncfs: one journal
// commit and one disk flush instead of one each. A few are flushed file by file.
TEST_F(DiskSyncerTest, ManyFilesInABatchAreFlushedByOneFileSystemSync) {
    DiskSyncer disk(context_);
    auto [first, last] = queue_room_logs(disk, kSyncfsFrom + 6);
    disk.sync(dir_ / "gone", "closed room"); // removed since: nothing to flush, no failure
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, first, last));
    EXPECT_EQ(disk.file_system_syncs(), 1u);
    EXPECT_EQ(disk.flushes(), kSyncfsFrom + 7);
    std::ofstream(dir_ / "a") << "x";
    std::uint64_t one = disk.sync(dir_ / "a", "room");
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, one, one));
    EXPECT_EQ(disk.file_system_syncs(), 1u) << "one file: fdatasync, not syncfs";
    EXPECT_FALSE(disk.take_failure());
}

// The loop takes back a record's write the helper has not begun, to write it itself (a next game
// is about to start: the record must be in the kernel first); nothing else can be taken back.
TEST_F(DiskSyncerTest, OnlyAWriteNotBegunCanBeWithdrawn) {
    DiskSyncer disk(context_);
    std::ofstream(dir_ / "log") << "events";
    std::ofstream(dir_ / "old") << "an old record";
    disk.write(dir_ / "record", "text", "room");
    disk.sync(dir_ / "log", "room");
    std::uint64_t last = disk.remove(dir_ / "old", "room");
    EXPECT_TRUE(disk.withdraw(dir_ / "record"));
    EXPECT_FALSE(disk.withdraw(dir_ / "record")) << "taken back already";
    EXPECT_FALSE(disk.withdraw(dir_ / "log")) << "a flush is not a write";
    EXPECT_FALSE(disk.withdraw(dir_ / "old")) << "nor is a removal";
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, last, last));
    EXPECT_FALSE(fs::exists(dir_ / "record")) << "a withdrawn write is not carried out";
    EXPECT_FALSE(fs::exists(dir_ / "old"));
    std::uint64_t again = disk.write(dir_ / "record", "text", "room");
    disk.wait(again);
    EXPECT_FALSE(disk.withdraw(dir_ / "record")) << "done: nothing waits";
    EXPECT_TRUE(fs::exists(dir_ / "record"));
}

// Rooms closed while their flushes wait take their files along: they are skipped, the rest of
// the batch is still flushed by one syncfs, and no room is told its disk failed. (A file that
// goes between the helper's stat and its open is skipped the same way: that window cannot be
// hit on purpose from here.)
TEST_F(DiskSyncerTest, AFileSystemSyncGoesOnWhenSomeFilesAreGone) {
    DiskSyncer disk(context_);
    auto [first, last] = queue_room_logs(disk, kSyncfsFrom + 2);
    fs::remove(dir_ / "events0"); // the first the helper would open
    fs::remove(dir_ / "events1");
    disk.start();
    EXPECT_TRUE(becomes_flushed(disk, first, last));
    EXPECT_EQ(disk.file_system_syncs(), 1u);
    EXPECT_FALSE(disk.take_failure());
}

// Work the loop waits for (a front end's new room) is done without the group window, and its
// outcome, done or why not, comes back by ticket and rings the loop's socket. A 10-minute window,
// so an outcome that waited for it would never come within the test's bound.
TEST_F(DiskSyncerTest, ARunIsDoneAtOnceAndItsOutcomeComesBack) {
    DiskSyncer disk(context_, std::chrono::minutes(10));
    std::uint64_t done = disk.run(dir_ / "a", [&]() -> std::optional<std::string> {
        std::ofstream(dir_ / "a") << "made";
        return std::nullopt;
    });
    std::uint64_t failed
        = disk.run(dir_ / "b", []() -> std::optional<std::string> { return "no room left"; });
    disk.start();
    zmq::pollitem_t item { disk.socket().handle(), 0, ZMQ_POLLIN, 0 };
    ASSERT_EQ(zmq::poll(&item, 1, std::chrono::seconds(60)), 1) << "the socket never rang";
    std::vector<DiskSyncer::Finished> finished;
    for (int i = 0; i < 1000 && finished.size() < 2; ++i) {
        EXPECT_FALSE(disk.take_failure()) << "a run's failure is its outcome, not a flush's";
        while (auto f = disk.take_finished()) finished.push_back(*f);
        if (finished.size() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(finished.size(), 2u);
    EXPECT_EQ(finished[0].ticket, done);
    EXPECT_FALSE(finished[0].failure);
    EXPECT_TRUE(fs::exists(dir_ / "a"));
    EXPECT_EQ(finished[1].ticket, failed);
    EXPECT_EQ(finished[1].failure, "no room left");
}
