// The loop's wait (poll_loop_items) and its epoll set of quiet descriptors: what the loop relies
// on is that no input is ever left unreported while it sleeps. The case that matters is a ZeroMQ
// socket whose descriptor already spent its signal (a send on the socket took in the command of
// a message arriving): the wait must still see the message, and not sleep on it.
#include "daemon/net/loop_poll.h"
#include "daemon/net/quiet_descriptors.h"

#include <chrono>
#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <thread>
#include <unistd.h>
#include <zmq_addon.hpp>

using namespace halma::daemon;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

class LoopPollTest : public ::testing::Test {
protected:
    void SetUp() override {
        router_.set(zmq::sockopt::linger, 0);
        dealer_.set(zmq::sockopt::linger, 0);
        other_.set(zmq::sockopt::linger, 0);
        router_.bind("inproc://loop-poll");
        dealer_.set(zmq::sockopt::routing_id, "d");
        dealer_.connect("inproc://loop-poll");
        other_.set(zmq::sockopt::routing_id, "o");
        other_.connect("inproc://loop-poll");
    }

    // Waits on the router alone; returns its revents and how long the wait took.
    std::pair<short, Clock::duration> wait_on_router(std::chrono::milliseconds timeout) {
        zmq::pollitem_t items[] = { { router_.handle(), 0, ZMQ_POLLIN, 0 } };
        auto t0 = Clock::now();
        poll_loop_items(items, timeout);
        return { items[0].revents, Clock::now() - t0 };
    }

    zmq::context_t context_;
    zmq::socket_t router_ { context_, zmq::socket_type::router };
    zmq::socket_t dealer_ { context_, zmq::socket_type::dealer };
    zmq::socket_t other_ { context_, zmq::socket_type::dealer };
};

TEST_F(LoopPollTest, NothingQueuedWaitsOutTheTimeout) {
    auto [revents, took] = wait_on_router(50ms);
    EXPECT_EQ(revents, 0);
    EXPECT_GE(took, 45ms);
}

TEST_F(LoopPollTest, AQueuedMessageIsReportedAtOnce) {
    dealer_.send(zmq::str_buffer("hello"));
    auto [revents, took] = wait_on_router(5000ms);
    EXPECT_EQ(revents, ZMQ_POLLIN);
    EXPECT_LT(took, 2000ms);
}

TEST_F(LoopPollTest, AMessageArrivingDuringTheWaitEndsIt) {
    wait_on_router(0ms); // the router's commands taken in: its descriptor is quiet now
    std::thread sender([&] {
        std::this_thread::sleep_for(100ms);
        dealer_.send(zmq::str_buffer("late"));
    });
    auto [revents, took] = wait_on_router(5000ms);
    sender.join();
    EXPECT_EQ(revents, ZMQ_POLLIN);
    EXPECT_LT(took, 2000ms);
}

// The edge-triggered trap: the message's signal is taken in by a send on the same socket before
// the wait, so the descriptor will not signal it. Asked for its events first, the socket tells.
TEST_F(LoopPollTest, AMessageWhoseSignalASendTookInIsStillReported) {
    // Both dealers' connections are up once each has been heard from.
    other_.send(zmq::str_buffer("hi"));
    dealer_.send(zmq::str_buffer("hi"));
    for (int i = 0; i < 2; ++i) {
        std::vector<zmq::message_t> frames;
        ASSERT_TRUE(zmq::recv_multipart(router_, std::back_inserter(frames)));
    }
    wait_on_router(0ms);
    dealer_.send(zmq::str_buffer("waiting"));
    std::this_thread::sleep_for(50ms); // the arrival's command is in the router's mailbox
    // A send processes the router's pending commands, the arrival's among them.
    router_.send(zmq::str_buffer("o"), zmq::send_flags::sndmore);
    router_.send(zmq::str_buffer("reply"));
    auto [revents, took] = wait_on_router(3000ms);
    EXPECT_EQ(revents, ZMQ_POLLIN);
    EXPECT_LT(took, 1000ms) << "the wait slept on a message it had";
}

TEST_F(LoopPollTest, AReadyDescriptorIsReported) {
    int fd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK);
    ASSERT_GE(fd, 0);
    zmq::pollitem_t items[]
        = { { router_.handle(), 0, ZMQ_POLLIN, 0 }, { nullptr, fd, ZMQ_POLLIN, 0 } };
    poll_loop_items(items, 5000ms);
    EXPECT_EQ(items[0].revents, 0);
    EXPECT_EQ(items[1].revents, ZMQ_POLLIN);
    close(fd);
}

TEST(QuietDescriptorsTest, ReportsExactlyTheDescriptorsWithInput) {
    int quiet_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    int loud_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    ASSERT_GE(quiet_fd, 0);
    ASSERT_GE(loud_fd, 0);
    QuietDescriptors set;
    set.add(quiet_fd);
    set.add(loud_fd);

    zmq::pollitem_t items[] = { set.item() };
    poll_loop_items(items, 0ms);
    set.collect(items[0].revents);
    EXPECT_EQ(set.revents(quiet_fd), 0);
    EXPECT_EQ(set.revents(loud_fd), 0);

    std::uint64_t one = 1;
    ASSERT_EQ(write(loud_fd, &one, sizeof one), static_cast<ssize_t>(sizeof one));
    poll_loop_items(items, 5000ms);
    set.collect(items[0].revents);
    EXPECT_EQ(set.revents(quiet_fd), 0);
    EXPECT_EQ(set.revents(loud_fd), ZMQ_POLLIN);

    // Level-triggered: still reported while unread, as poll(2) would.
    poll_loop_items(items, 0ms);
    set.collect(items[0].revents);
    EXPECT_EQ(set.revents(loud_fd), ZMQ_POLLIN);
    close(quiet_fd);
    close(loud_fd);
}

TEST(QuietDescriptorsTest, RefusesMoreThanItsCapacity) {
    QuietDescriptors set;
    std::vector<int> fds;
    for (int i = 0; i < QuietDescriptors::kCapacity; ++i) {
        fds.push_back(eventfd(0, EFD_CLOEXEC));
        set.add(fds.back());
    }
    int extra = eventfd(0, EFD_CLOEXEC);
    EXPECT_THROW(set.add(extra), std::system_error);
    close(extra);
    for (int fd : fds) close(fd);
}

} // namespace
