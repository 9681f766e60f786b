// What the local API sends a front end that does not read (daemon/net/front_end_outbox.h): its
// replies wait in order and go out once it reads, its events are counted per room and said
// after them, and what waits has a bound that drops the oldest reply, never one that fits.
// A real ROUTER and DEALER over inproc, the DEALER's queue kept tiny so that it fills at once.
#include "daemon/net/front_end_outbox.h"

#include <gtest/gtest.h>
#include <thread>

using namespace halma::daemon;
using Clock = std::chrono::steady_clock;

namespace {

class FrontEndOutboxTest : public ::testing::Test {
protected:
    void SetUp() override {
        router_.set(zmq::sockopt::linger, 0);
        router_.set(zmq::sockopt::router_mandatory, 1);
        router_.set(zmq::sockopt::sndhwm, 2);
        front_.set(zmq::sockopt::linger, 0);
        front_.set(zmq::sockopt::rcvhwm, 2);
        front_.set(zmq::sockopt::routing_id, "fe");
        router_.bind("inproc://outbox");
        front_.connect("inproc://outbox");
        front_.send(zmq::str_buffer("hello"), zmq::send_flags::none); // the router learns "fe"
        zmq::message_t m;
        ASSERT_TRUE(router_.recv(m)); // routing id
        ASSERT_TRUE(router_.recv(m));
    }

    // Events of room "r" until the front end's queue is full (it does not read).
    void fill(FrontEndOutbox& box) {
        for (int i = 0; i < 100; ++i)
            if (box.event("fe", "event", "r", now_) != FrontEndOutbox::Outcome::kSent) return;
        FAIL() << "the queue never filled";
    }

    // Everything the front end has, once it reads again and the outbox is retried.
    std::vector<std::string> read_all(FrontEndOutbox& box) {
        std::vector<std::string> got;
        auto marker = [](const std::string& room, std::uint64_t missed) {
            return "missed " + std::to_string(missed) + " of " + room;
        };
        for (int round = 0; round < 50 && (box.behind("fe") || round < 2); ++round) {
            zmq::message_t m;
            while (front_.recv(m, zmq::recv_flags::dontwait)) got.push_back(m.to_string());
            now_ += FrontEndOutbox::kMaxRetryEvery;
            // ZeroMQ hears that the front end read only when a socket call of the router's
            // looks at its commands, which it does at most about once a millisecond.
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            box.retry(now_, marker);
        }
        zmq::message_t m;
        while (front_.recv(m, zmq::recv_flags::dontwait)) got.push_back(m.to_string());
        return got;
    }

    zmq::context_t context_ { 1 };
    zmq::socket_t router_ { context_, zmq::socket_type::router };
    zmq::socket_t front_ { context_, zmq::socket_type::dealer };
    Clock::time_point now_ = Clock::now();
};

} // namespace

TEST_F(FrontEndOutboxTest, RepliesWaitInOrderAndMissedEventsAreSaidAfterThem) {
    FrontEndOutbox box(router_);
    fill(box);
    EXPECT_TRUE(box.behind("fe"));
    EXPECT_EQ(box.reply("fe", "reply 1", false, now_), FrontEndOutbox::Outcome::kWaits);
    EXPECT_EQ(box.event("fe", "event", "r", now_), FrontEndOutbox::Outcome::kWaits);
    EXPECT_EQ(box.reply("fe", "reply 2", false, now_), FrontEndOutbox::Outcome::kWaits);
    auto got = read_all(box);
    std::vector<std::string> after;
    for (const auto& m : got)
        if (m != "event") after.push_back(m);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_EQ(after[0], "reply 1");
    EXPECT_EQ(after[1], "reply 2");
    EXPECT_EQ(after[2].rfind("missed ", 0), 0u) << after[2];
    EXPECT_NE(after[2].find(" of r"), std::string::npos) << after[2];
    EXPECT_FALSE(box.behind("fe"));
    EXPECT_EQ(box.held_bytes(), 0u);
}

TEST_F(FrontEndOutboxTest, PastTheBoundTheOldestReplyGoes) {
    FrontEndOutbox box(router_);
    fill(box);
    for (std::size_t i = 0; i < FrontEndOutbox::kMaxHeldReplies + 5; ++i)
        box.reply("fe", "reply " + std::to_string(i), false, now_);
    auto got = read_all(box);
    std::vector<std::string> replies;
    for (const auto& m : got)
        if (m.rfind("reply ", 0) == 0) replies.push_back(m);
    ASSERT_EQ(replies.size(), FrontEndOutbox::kMaxHeldReplies);
    EXPECT_EQ(replies.front(), "reply 5");
    EXPECT_EQ(replies.back(), "reply " + std::to_string(FrontEndOutbox::kMaxHeldReplies + 4));
}

// A reply bigger than a front end's whole allowance goes alone: it emptied the queue of the
// replies that waited, and then went too.
TEST_F(FrontEndOutboxTest, AReplyTooBigToWaitDropsNoOther) {
    FrontEndOutbox box(router_);
    fill(box);
    box.reply("fe", "small 1", false, now_);
    box.reply("fe", "small 2", false, now_);
    box.reply("fe", std::string(FrontEndOutbox::kMaxHeldBytes + 1, 'x'), false, now_);
    auto got = read_all(box);
    std::vector<std::string> replies;
    for (const auto& m : got)
        if (m.rfind("small", 0) == 0 || m.size() > 1000) replies.push_back(m);
    EXPECT_EQ(replies, (std::vector<std::string> { "small 1", "small 2" }));
}
