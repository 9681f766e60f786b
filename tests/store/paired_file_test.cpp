// A small file kept as two copies written in turn, in place (paired_file.h): the newest whole
// copy is the file, a torn copy leaves the version before, and a file from before copies reads.
#include "daemon/net/paired_file.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>

using namespace halma::daemon;
namespace fs = std::filesystem;

namespace {

class PairedFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        char name[] = "/tmp/halma-paired-XXXXXX";
        ASSERT_NE(mkdtemp(name), nullptr);
        dir_ = name;
        path_ = dir_ / "members";
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string read_raw(const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    void write_raw(const fs::path& p, const std::string& bytes) {
        std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
    }
    std::string read_text() {
        auto text = read_paired_file(path_);
        EXPECT_TRUE(text) << text.error().message;
        EXPECT_TRUE(text && *text);
        return text && *text ? **text : "";
    }
    ino_t inode_of(const fs::path& p) {
        struct stat st { };
        EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
        return st.st_ino;
    }
    fs::path dir_, path_;
};

} // namespace

TEST_F(PairedFileTest, WritesGoToEachCopyInTurnAndTheNewestIsRead) {
    auto none = read_paired_file(path_);
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none) << "no copy: no file";
    std::vector<fs::path> copies;
    for (std::string text : { "one\n", "two, longer than one\n", "3\n", "four\n" }) {
        auto written = write_paired_file(path_, text, Flush::kNow);
        ASSERT_TRUE(written) << written.error().message;
        copies.push_back(written->copy);
        EXPECT_EQ(read_text(), text);
    }
    EXPECT_EQ(
        copies, (std::vector<fs::path> { path_, second_copy(path_), path_, second_copy(path_) }));
    EXPECT_EQ(read_raw(path_).find("3\n") + 2, read_raw(path_).size())
        << "a shorter text leaves nothing of the longer one after it";
}

TEST_F(PairedFileTest, AWriteOverAnExistingCopyMakesNoNewFile) {
    ASSERT_TRUE(make_empty_copy(path_));
    ASSERT_TRUE(make_empty_copy(second_copy(path_)));
    EXPECT_FALSE(read_paired_file(path_).value()) << "empty copies read as no file";
    ino_t first = inode_of(path_), second = inode_of(second_copy(path_));
    for (int i = 0; i < 5; ++i) {
        auto written
            = write_paired_file(path_, "member " + std::to_string(i) + "\n", Flush::kLater);
        ASSERT_TRUE(written);
        EXPECT_FALSE(written->created);
    }
    EXPECT_EQ(inode_of(path_), first) << "written in place, not renamed over";
    EXPECT_EQ(inode_of(second_copy(path_)), second);
    EXPECT_EQ(read_text(), "member 4\n");
}

TEST_F(PairedFileTest, ATornCopyLeavesTheVersionBefore) {
    ASSERT_TRUE(write_paired_file(path_, "old\n", Flush::kNow));
    auto newest = write_paired_file(path_, "new tokens\n", Flush::kNow);
    ASSERT_TRUE(newest);
    std::string whole = read_raw(newest->copy);
    // Cut anywhere, or a byte changed: the older copy is the file.
    for (std::size_t cut : { std::size_t { 3 }, whole.size() / 2, whole.size() - 1 }) {
        write_raw(newest->copy, whole.substr(0, cut));
        EXPECT_EQ(read_text(), "old\n") << "cut at " << cut;
    }
    std::string changed = whole;
    changed[changed.size() - 3] ^= 1;
    write_raw(newest->copy, changed);
    EXPECT_EQ(read_text(), "old\n");
    // The next write goes over the torn copy, not over the whole one.
    auto next = write_paired_file(path_, "newer\n", Flush::kNow);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->copy, newest->copy);
    EXPECT_EQ(read_text(), "newer\n");
    // Both torn: an error naming the file.
    write_raw(path_, read_raw(path_).substr(0, 10));
    write_raw(second_copy(path_), read_raw(second_copy(path_)).substr(0, 10));
    auto torn = read_paired_file(path_);
    ASSERT_FALSE(torn);
    EXPECT_NE(torn.error().message.find("damaged (both of its copies)"), std::string::npos);
}

TEST_F(PairedFileTest, AFileFromBeforeCopiesIsReadAndKeptUntilANewerIsWhole) {
    write_raw(path_, "member 1 00112233445566778899aabbccddeeff\n");
    EXPECT_EQ(read_text(), "member 1 00112233445566778899aabbccddeeff\n");
    auto written = write_paired_file(path_, "member 2\n", Flush::kNow);
    ASSERT_TRUE(written);
    EXPECT_EQ(written->copy, second_copy(path_)) << "the old file is not written over";
    EXPECT_TRUE(written->created);
    EXPECT_EQ(read_text(), "member 2\n");
}

// A halmad from before copies, run after this one (a downgrade), writes the file whole and
// knows nothing of the second copy; run this one again and the newer of the two is read.
TEST_F(PairedFileTest, AFileAnOlderHalmadWroteAfterTheCopiesIsTheNewer) {
    ASSERT_TRUE(write_paired_file(path_, "one\n", Flush::kNow));
    ASSERT_TRUE(write_paired_file(path_, "two\n", Flush::kNow)); // the second copy, generation 2
    auto then = fs::last_write_time(second_copy(path_));
    write_raw(path_, "by the older halmad\n");
    fs::last_write_time(path_, then + std::chrono::seconds(5));
    EXPECT_EQ(read_text(), "by the older halmad\n");
    // Written before the copy of generation 2 instead: that copy is the newer.
    fs::last_write_time(path_, then - std::chrono::seconds(5));
    EXPECT_EQ(read_text(), "two\n");
}

TEST_F(PairedFileTest, AWriteAgainGoesOverTheSameCopy) {
    auto first = write_paired_file(path_, "one\n", Flush::kLater);
    ASSERT_TRUE(first);
    // Its flush not done: the next write goes over it again, the other copy left alone.
    auto again = write_paired_file(path_, "two\n", Flush::kLater, first->copy);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->copy, first->copy);
    EXPECT_EQ(read_text(), "two\n");
    auto next = write_paired_file(path_, "three\n", Flush::kLater);
    ASSERT_TRUE(next);
    EXPECT_NE(next->copy, first->copy);
    EXPECT_EQ(read_text(), "three\n");
}
