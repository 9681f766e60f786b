// The order the bot pool serves rooms in (daemon/net/bot_queue.h).
#include "daemon/net/bot_queue.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace halma::daemon {
namespace {

std::vector<std::string> drain(BotQueue<std::string>& q) {
    std::vector<std::string> order;
    while (auto job = q.pop()) order.push_back(*job);
    return order;
}

TEST(BotQueue, AWaitingPersonGoesFirst) {
    BotQueue<std::string> q;
    q.push("bots-1", false);
    q.push("bots-2", false);
    q.push("person", true);
    EXPECT_EQ(drain(q), (std::vector<std::string> { "person", "bots-1", "bots-2" }));
}

TEST(BotQueue, BotOnlyRoomsInTheOrderTheyAsked) {
    BotQueue<std::string> q;
    for (auto name : { "a", "b", "c", "d" }) q.push(name, false);
    EXPECT_EQ(drain(q), (std::vector<std::string> { "a", "b", "c", "d" }));
}

TEST(BotQueue, NoBotOnlyRoomStarvesWhilePeopleKeepItBusy) {
    BotQueue<std::string> q;
    q.push("bots", false);
    for (int i = 0; i < 10; ++i) q.push("p" + std::to_string(i), true);
    auto order = drain(q);
    auto at = std::find(order.begin(), order.end(), "bots") - order.begin();
    EXPECT_EQ(at, BotQueue<std::string>::kPeopleFirst); // after three people, not after ten
    EXPECT_EQ(order.size(), 11u);
}

TEST(BotQueue, ALowPriorityThreadCanTakeBotOnlyJobsAndLeavePeoplesJobs) {
    BotQueue<std::string> q;
    q.push("person", true);
    q.push("bots", false);
    EXPECT_EQ(q.pop_bots_only(), "bots");
    EXPECT_FALSE(q.pop_bots_only()); // the person's job stays for the people's thread
    EXPECT_TRUE(q.has_person());
    EXPECT_FALSE(q.has_bots_only());
    EXPECT_EQ(q.pop_person(), "person");
    EXPECT_TRUE(q.empty());
}

TEST(BotQueue, EmptyGivesNothing) {
    BotQueue<std::string> q;
    EXPECT_FALSE(q.pop());
    q.push("x", true);
    EXPECT_EQ(q.size(), 1u);
    EXPECT_TRUE(q.pop());
    EXPECT_TRUE(q.empty());
}

} // namespace
} // namespace halma::daemon
