// The heap of rooms' wake-up times (daemon/net/wakeup_queue.h): due keys in time order, a
// rescheduled or erased key never woken at its old time, and stale entries bounded.
#include "daemon/net/wakeup_queue.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace halma::daemon {
namespace {

using Clock = WakeupQueue::Clock;
using std::chrono::milliseconds;

TEST(WakeupQueue, DueKeysComeEarliestFirstAndOnce) {
    WakeupQueue q;
    auto t0 = Clock::now();
    q.set("late", t0 + milliseconds(30));
    q.set("early", t0 + milliseconds(10));
    q.set("never", std::nullopt);
    EXPECT_EQ(q.next(), t0 + milliseconds(10));
    EXPECT_TRUE(q.take_due(t0).empty());
    EXPECT_EQ(q.take_due(t0 + milliseconds(40)), (std::vector<std::string> { "early", "late" }));
    EXPECT_TRUE(q.take_due(t0 + milliseconds(50)).empty());
    EXPECT_FALSE(q.next());
    EXPECT_EQ(q.keys(), 0u);
}

TEST(WakeupQueue, ARescheduledKeyWakesOnlyAtItsNewTime) {
    WakeupQueue q;
    auto t0 = Clock::now();
    q.set("room", t0 + milliseconds(10));
    q.set("room", t0 + milliseconds(50));
    q.set("other", t0 + milliseconds(20));
    EXPECT_EQ(q.next(), t0 + milliseconds(20)); // the old time is not reported
    EXPECT_EQ(q.take_due(t0 + milliseconds(30)), (std::vector<std::string> { "other" }));
    EXPECT_EQ(q.take_due(t0 + milliseconds(60)), (std::vector<std::string> { "room" }));
}

TEST(WakeupQueue, AnErasedKeyIsNeverWoken) {
    WakeupQueue q;
    auto t0 = Clock::now();
    q.set("closed", t0 + milliseconds(10));
    q.erase("closed");
    EXPECT_FALSE(q.next());
    EXPECT_TRUE(q.take_due(t0 + milliseconds(100)).empty());
    // Set again at the time it had: woken once, not twice.
    q.set("closed", t0 + milliseconds(10));
    q.erase("closed");
    q.set("closed", t0 + milliseconds(10));
    EXPECT_EQ(q.take_due(t0 + milliseconds(100)), (std::vector<std::string> { "closed" }));
}

TEST(WakeupQueue, StaleEntriesStayBounded) {
    WakeupQueue q;
    auto t0 = Clock::now();
    for (int k = 0; k < 10; ++k) q.set("k" + std::to_string(k), t0 + milliseconds(1));
    // A key pushed later and later, past what the heap may hold of stale times.
    for (int i = 0; i < 10'000; ++i) q.set("moving", t0 + milliseconds(1000 + i));
    EXPECT_LE(q.entries(), 2 * q.keys() + WakeupQueue::kSlack);
    auto due = q.take_due(t0 + milliseconds(5));
    EXPECT_EQ(due.size(), 10u);
    EXPECT_EQ(q.next(), t0 + milliseconds(1000 + 9'999));
}

} // namespace
} // namespace halma::daemon
