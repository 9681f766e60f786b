// The order the bot pool's threads take jobs in (daemon/net/bot_queue.h).
#include "daemon/net/bot_queue.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace halma::daemon {
namespace {

std::vector<std::string> drain_bots_only(BotQueue<std::string>& q) {
    std::vector<std::string> order;
    while (auto job = q.pop_bots_only()) order.push_back(*job);
    return order;
}

TEST(BotQueue, BotOnlyRoomsInTheOrderTheyAsked) {
    BotQueue<std::string> q;
    for (auto name : { "a", "b", "c", "d" }) q.push(name, false);
    EXPECT_EQ(drain_bots_only(q), (std::vector<std::string> { "a", "b", "c", "d" }));
}

TEST(BotQueue, PeoplesRoomsInTheOrderTheyAsked) {
    BotQueue<std::string> q;
    for (auto name : { "ann", "bob", "cat" }) q.push(name, true);
    EXPECT_EQ(q.pop_person(), "ann");
    EXPECT_EQ(q.pop_person(), "bob");
    EXPECT_EQ(q.pop_person(), "cat");
    EXPECT_FALSE(q.pop_person());
}

TEST(BotQueue, EachKindOfThreadTakesOnlyItsOwnJobs) {
    BotQueue<std::string> q;
    q.push("person", true);
    q.push("bots", false);
    EXPECT_EQ(q.pop_bots_only(), "bots");
    EXPECT_FALSE(q.pop_bots_only()); // the person's job stays for a people's thread
    EXPECT_TRUE(q.has_person());
    EXPECT_FALSE(q.has_bots_only());
    EXPECT_EQ(q.pop_person(), "person");
    EXPECT_FALSE(q.pop_person()); // nor does a people's thread take a bot-only room's
    EXPECT_TRUE(q.empty());
}

TEST(BotQueue, EmptyGivesNothing) {
    BotQueue<std::string> q;
    EXPECT_FALSE(q.pop_person());
    EXPECT_FALSE(q.pop_bots_only());
    q.push("x", true);
    EXPECT_EQ(q.size(), 1u);
    EXPECT_FALSE(q.empty());
}

} // namespace
} // namespace halma::daemon
