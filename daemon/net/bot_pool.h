// Computer players' thinking, off the event loop: helper threads run the bots' search and hand
// the moves back to the loop over inproc PUSH/PULL pipes, so the loop never waits for a bot and
// one room's thinking never holds up another's.
//
// Two sets of threads: --bot-threads of the first (by default all cores but the loop's), one more
// of the second:
// - bot-only rooms' threads, at SCHED_IDLE (nice 10 where that is refused): they run on what
//   nobody else wants, so the loop, ZeroMQ's I/O thread and a person's bot preempt them at once,
//   and under overload it is the bot-only rooms that slow down, not people's games;
// - people's threads, at normal priority, which think only for rooms where a person waits. A
//   search cannot be stopped halfway, so a person's move never waits for a bot-only room's.
// Each set takes its jobs in the order they were asked for: no room is passed over. There is one
// more people's thread than bot-only rooms' ones, as people had with the one people's thread
// and the pool before: two people's bots on a 2-core host think at the same time.
#pragma once

#include "daemon/net/config.h"
#include "daemon/room/room_types.h"
#include "engine/game.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
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
    // The loop's ends of the pipes, to poll (people's moves, bot-only rooms' moves); null when
    // not available.
    zmq::socket_t* people_socket() { return people_socket_.get(); }
    zmq::socket_t* socket() { return socket_.get(); }

    // Asks for a move for the set to move in `game` (copied: the threads never see the room).
    // Never waits for a lock: a job whose set's lock is held is handed over by a later pass.
    void request(const BotJob& job, const engine::Game& game);
    // Hands over the jobs request() could not (called once a loop pass); true if some are
    // still waiting, so the loop polls again within kHandOverRetry.
    bool hand_over();
    static constexpr auto kHandOverRetry = std::chrono::milliseconds(1);
    // After a socket polled readable: a finished job and its move, from people's rooms (or
    // bot-only rooms).
    std::optional<std::pair<BotJob, engine::Move>> take_person_result();
    std::optional<std::pair<BotJob, engine::Move>> take_result();

private:
    friend struct BotPoolTestPeer; // tests/net/bot_pool_test.cpp holds a line's lock
    struct Work;
    // The jobs of one set of threads, oldest first. Each set has its own lock, so a people's
    // thread never waits for a lock a SCHED_IDLE thread holds (and may be kept off a core with,
    // by anything else that runs); the loop never waits for either (not_handed_over).
    struct Line {
        std::mutex mutex;
        // Wakes one thread of the set per job (a wake-up is a futex call on the loop and a
        // context switch: with notify_all every bot-only move woke the people's thread too,
        // 15% of the loop's time beside 200 rooms of easy bots, perf record).
        std::condition_variable wake;
        std::deque<std::unique_ptr<Work>> jobs;
        bool stopping = false;
        // Jobs the loop asked for while a thread held the lock (the loop's alone, no lock). A
        // thread holds it only to take a job, but a SCHED_IDLE thread can be kept off a core
        // while it does, by anything else that runs: the loop waited up to 0.6 ms for one beside
        // 200 rooms of easy bots (20 waits over 50 us in 25,000 requests), and every room with
        // it. So the loop only tries the lock, and tries again on its next pass.
        std::deque<std::unique_ptr<Work>> not_handed_over;
    };
    // Moves the line's jobs not yet handed over into its queue, if its lock is free.
    static void try_hand_over(Line& line);
    void start_worker(zmq::context_t& context, bool for_people);
    // The set's next job; null when stopping.
    static std::unique_ptr<Work> next_work(Line& line);
    void run_worker(zmq::socket_t pipe, bool for_people);
    // Ends the searches under way and joins every thread started.
    void stop_workers();
    static std::optional<std::pair<BotJob, engine::Move>> take_from(zmq::socket_t* socket);

    const Config& config_;
    std::unique_ptr<zmq::socket_t> people_socket_, socket_;
    Line people_, bots_only_;
    std::atomic<bool> stop_thinking_ { false };
    std::vector<std::thread> workers_;
};

// The pool's size for --bot-threads 0: every core but one (for the loop), at least one.
int default_bot_threads();

} // namespace halma::daemon
