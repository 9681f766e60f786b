// AppendFile, the room log's writer: an append the disk takes only part of is cut off again, so
// the log still ends with whole records and the next append follows them. A full disk is made
// with RLIMIT_FSIZE: past it, write() takes what fits and then fails with EFBIG (SIGXFSZ is
// ignored for the test), as a disk that fills up halfway through a batch does.
#include "daemon/net/durable_file.h"

#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sys/resource.h>

namespace fs = std::filesystem;
using halma::daemon::AppendFile;

namespace {

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

class AppendFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "halma-append-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved_limit_), 0);
        saved_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    }
    void TearDown() override {
        setrlimit(RLIMIT_FSIZE, &saved_limit_);
        std::signal(SIGXFSZ, saved_handler_);
        fs::remove_all(dir_);
    }
    // Files may grow to `bytes` from now on.
    void limit_file_size(rlim_t bytes) {
        rlimit limit = saved_limit_;
        limit.rlim_cur = bytes;
        ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
    }

    fs::path dir_;
    rlimit saved_limit_ {};
    void (*saved_handler_)(int) = SIG_DFL;
};

TEST_F(AppendFileTest, AnAppendTheDiskTakesInPartIsCutOffAndTheNextFollowsTheWholeOnes) {
    auto path = dir_ / "events";
    auto log = AppendFile::open(path, true);
    ASSERT_TRUE(log) << log.error().message;
    ASSERT_TRUE(log->append("first record;"));
    ASSERT_TRUE(log->append("second record;"));
    const std::string whole = "first record;second record;";

    limit_file_size(whole.size() + 5); // room for 5 bytes of the next 13
    auto torn = log->append("third record;");
    ASSERT_FALSE(torn) << "an append the disk took only part of reports a failure";
    EXPECT_NE(torn.error().message.find("cannot append to " + path.string()), std::string::npos)
        << torn.error().message;
    EXPECT_EQ(read_all(path), whole) << "the part the disk took is cut off again";

    limit_file_size(saved_limit_.rlim_cur); // the disk has room again
    ASSERT_TRUE(log->append("third record;"));
    EXPECT_EQ(read_all(path), whole + "third record;");
}

TEST_F(AppendFileTest, AnAppendTheDiskTakesNothingOfLeavesTheFileAsItWas) {
    auto path = dir_ / "events";
    auto log = AppendFile::open(path, true);
    ASSERT_TRUE(log) << log.error().message;
    ASSERT_TRUE(log->append("kept;"));
    limit_file_size(5);
    EXPECT_FALSE(log->append("refused;"));
    EXPECT_EQ(read_all(path), "kept;");
}

} // namespace
