// Computer players' thinking, off the event loop: helper threads run the bots' search and hand
// the moves back to the loop over inproc PUSH/PULL pipes, so the loop never waits for a bot and
// one room's thinking never holds up another's.
//
// Two sets of threads, as many in each as --bot-threads (by default all cores but the loop's):
// - bot-only rooms' threads, at SCHED_IDLE (nice 10 where that is refused): they run on what
//   nobody else wants, so the loop, ZeroMQ's I/O thread and a person's bot preempt them at once,
//   and under overload it is the bot-only rooms that slow down, not people's games;
// - people's threads, at normal priority, which think only for rooms where a person waits. A
//   search cannot be stopped halfway, so a person's move never waits for a bot-only room's.
// Each set takes its jobs in the order they were asked for (BotQueue): no room is passed over.
#pragma once

#include "daemon/net/bot_queue.h"
#include "daemon/net/config.h"
#include "daemon/room/room_types.h"
#include "engine/game.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

struct BotJob {
    std::string room_id;
    std::uint64_t seq = 0; // the room's seq when asked: an answer for an older seq is stale
    MemberId bot = kNoMember;
    BotLevel level = BotLevel::kHard;
    bool person_waiting = false; // a person sits in the room, waiting for this move
};

class BotPool {
public:
    BotPool(zmq::context_t& context, const Config& config);
    ~BotPool();
    BotPool(const BotPool&) = delete;
    BotPool& operator=(const BotPool&) = delete;

    bool available() const { return socket_ != nullptr; }
    int threads() const { return static_cast<int>(workers_.size()); }
    // The loop's ends of the pipes, to poll (people's moves, bot-only rooms' moves); null when
    // not available.
    zmq::socket_t* people_socket() { return people_socket_.get(); }
    zmq::socket_t* socket() { return socket_.get(); }

    // Asks for a move for the set to move in `game` (copied: the threads never see the room).
    void request(const BotJob& job, const engine::Game& game);
    // After a socket polled readable: a finished job and its move, from people's rooms (or
    // bot-only rooms).
    std::optional<std::pair<BotJob, engine::Move>> take_person_result();
    std::optional<std::pair<BotJob, engine::Move>> take_result();

private:
    struct Work;
    // The next job for a people's thread or a bot-only rooms' one; null when stopping.
    std::unique_ptr<Work> next_work(bool for_people);
    void run_worker(zmq::socket_t people_pipe, zmq::socket_t pipe, bool for_people);
    static std::optional<std::pair<BotJob, engine::Move>> take_from(zmq::socket_t* socket);

    const Config& config_;
    std::unique_ptr<zmq::socket_t> people_socket_, socket_;
    std::mutex mutex_;
    // Each wakes only the threads that may take the job: a wake-up is a futex call on the loop
    // and a context switch, and with notify_all every bot-only move woke the people's threads
    // too (15% of the loop's time beside 200 rooms of easy bots, perf record).
    std::condition_variable people_wake_, pool_wake_;
    BotQueue<std::unique_ptr<Work>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

// The pool's size for --bot-threads 0: every core but one (for the loop), at least one.
int default_bot_threads();

} // namespace halma::daemon
