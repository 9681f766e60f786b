// Computer players' thinking, off the event loop: a pool of helper threads (all cores but the
// loop's by default, --bot-threads) runs the bots' search and hands the moves back to the loop
// over an inproc PUSH/PULL pipe, so the loop never waits for a bot and one room's thinking never
// holds up another's. The order is BotQueue's: people first, no room starving.
//
// A search cannot be stopped halfway, so a person whose bot asks while every pool thread is deep
// in a bot-only room's move would wait for one of them to finish. One more thread thinks only for
// people, and the pool threads run at a lower priority (nice 10): when both want the CPU, the
// person's move gets it, and under overload it is the bot-only rooms that slow down. While the
// people's thread is free, the pool threads leave people's jobs to it: a person's move thought
// out at nice 10 on a busy machine would wait behind everything else that runs there.
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
    // The next job for a worker, by the rule above; null when stopping.
    std::unique_ptr<Work> next_work(bool people_only);
    void run_worker(zmq::socket_t people_pipe, zmq::socket_t pipe, bool people_only);
    static std::optional<std::pair<BotJob, engine::Move>> take_from(zmq::socket_t* socket);

    const Config& config_;
    std::unique_ptr<zmq::socket_t> people_socket_, socket_;
    std::mutex mutex_;
    // Each wakes only the threads that may take the job: a wake-up is a futex call on the loop
    // and a context switch, and with notify_all every bot-only move woke the people's thread too
    // (15% of the loop's time beside 200 rooms of easy bots, perf record).
    std::condition_variable people_wake_, pool_wake_;
    BotQueue<std::unique_ptr<Work>> queue_;
    // The people's thread waits for work: the pool's threads leave people's jobs to it then.
    bool people_thread_free_ = false;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

// The pool's size for --bot-threads 0: every core but one (for the loop), at least one.
int default_bot_threads();

} // namespace halma::daemon
