// The bound on log lines about what peers send (daemon/net/log_budget.h): a burst, then one per
// refill, and the lines left out counted in the next one written.
#include "daemon/net/log_budget.h"

#include <gtest/gtest.h>

using halma::daemon::LogBudget;
using namespace std::chrono_literals;

TEST(LogBudget, ABurstThenOnePerRefillAndTheRestCounted) {
    LogBudget budget(3, 1s);
    auto t = LogBudget::Clock::time_point(1000s);
    std::string note;
    int written = 0;
    for (int i = 0; i < 1000; ++i) written += budget.allow(t, note);
    EXPECT_EQ(written, 3);
    EXPECT_FALSE(budget.allow(t + 999ms, note));
    ASSERT_TRUE(budget.allow(t + 1s, note));
    EXPECT_EQ(note, " (and 998 more like it not logged)");
    ASSERT_TRUE(budget.allow(t + 10s, note)) << "a quiet while fills it again";
    EXPECT_EQ(note, "");
    EXPECT_TRUE(budget.allow(t + 10s, note));
    EXPECT_TRUE(budget.allow(t + 10s, note));
    EXPECT_FALSE(budget.allow(t + 10s, note));
}
