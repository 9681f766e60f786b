#include "daemon/net/bot_pool.h"

#include "engine/ai/bot.h"

#include <cstring>
#include <functional>
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

namespace halma::daemon {

namespace {

constexpr const char* kPeopleEndpoint = "inproc://halmad-bots-people";
constexpr const char* kEndpoint = "inproc://halmad-bots";

std::unique_ptr<zmq::socket_t> pull(zmq::context_t& context, const char* endpoint) {
    auto socket = std::make_unique<zmq::socket_t>(context, zmq::socket_type::pull);
    socket->set(zmq::sockopt::linger, 0);
    socket->bind(endpoint);
    return socket;
}

zmq::socket_t push(zmq::context_t& context, const char* endpoint) {
    zmq::socket_t pipe(context, zmq::socket_type::push);
    pipe.set(zmq::sockopt::linger, 0);
    pipe.connect(endpoint);
    return pipe;
}

} // namespace

// What travels back over the pipe: the pointer to one of these, owned by whoever holds it.
// What a bot needs of the game, and no more: a copy of the whole Game (every move played, each
// with its path on the heap) cost the loop two allocations a move played, for every request and
// again when the answer was freed: a third of the loop's time beside 200 rooms of easy bots.
struct BotPool::Work {
    BotJob job;
    engine::Position position;
    engine::Rules rules;
    ai::Seating seating;
    std::vector<std::uint64_t> earlier; // the keys of the positions played (repetitions)
    bool over = false;
    engine::Move move = engine::Move::pass();
};

int default_bot_threads() {
    int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, cores - 1);
}

BotPool::BotPool(zmq::context_t& context, const Config& config)
    : config_(config) {
    people_socket_ = pull(context, kPeopleEndpoint);
    socket_ = pull(context, kEndpoint);
    int threads = config.bot_threads > 0 ? config.bot_threads : default_bot_threads();
    // As many threads for people as for bot-only rooms: as many people as the pool has cores
    // get their bots' moves thought out at once, at the loop's priority. A thread waiting for
    // work costs nothing but its stack.
    for (int i = 0; i < 2 * threads; ++i) {
        // Each worker's ends are connected here, before its thread starts (which hands the
        // sockets over with the full memory barrier ZeroMQ asks for).
        bool for_people = i >= threads;
        workers_.emplace_back([this, for_people, people = push(context, kPeopleEndpoint),
                                  others = push(context, kEndpoint)]() mutable {
            run_worker(std::move(people), std::move(others), for_people);
        });
    }
}

BotPool::~BotPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    people_wake_.notify_all();
    pool_wake_.notify_all();
    for (auto& w : workers_) w.join();
    // Moves sent but not taken are dropped with the process; the queues free themselves.
    while (take_person_result() || take_result()) { }
}

void BotPool::request(const BotJob& job, const engine::Game& game) {
    // The keys of the positions played (a walk back over the whole game, on the loop) are for
    // the search's repetition checks; an easy bot does not search, and never reads them.
    auto work = std::make_unique<Work>(Work { job, game.position(), game.setup().rules,
        ai::Seating::of(game.setup()),
        job.level == BotLevel::kEasy ? std::vector<std::uint64_t> {} : ai::game_history_keys(game),
        game.over() });
    {
        std::lock_guard lock(mutex_);
        queue_.push(std::move(work), job.person_waiting);
    }
    (job.person_waiting ? people_wake_ : pool_wake_).notify_one();
}

std::unique_ptr<BotPool::Work> BotPool::next_work(bool for_people) {
    std::unique_lock lock(mutex_);
    auto& wake = for_people ? people_wake_ : pool_wake_;
    auto has_work = [&] { return for_people ? queue_.has_person() : queue_.has_bots_only(); };
    wake.wait(lock, [&] { return stopping_ || has_work(); });
    if (stopping_) return nullptr;
    auto work = std::move(for_people ? *queue_.pop_person() : *queue_.pop_bots_only());
    // A request wakes one thread: if more is left, pass it on (three people's bots asked for at
    // once: three people's threads take them, not one and then nobody until it is done).
    if (has_work()) wake.notify_one();
    return work;
}

void BotPool::run_worker(zmq::socket_t people_pipe, zmq::socket_t pipe, bool for_people) {
    // Bot-only rooms' threads take only what no other thread wants (SCHED_IDLE): the loop,
    // ZeroMQ's I/O thread and the people's threads preempt them the moment they wake. At nice 10
    // they kept a core to the end of their time slice first, so a person's move could wait for
    // its ack behind hard bots' thinking (docs/scaling.md). Where SCHED_IDLE is refused, nice 10
    // (Linux gives each thread its own nice value).
    if (!for_people) {
        sched_param none {};
        if (sched_setscheduler(0, SCHED_IDLE, &none) != 0)
            setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
    }
    while (auto work = next_work(for_people)) {
        ai::BotSettings settings;
        settings.level = work->job.level == BotLevel::kEasy ? ai::Level::kEasy
            : work->job.level == BotLevel::kMax             ? ai::Level::kMax
                                                            : ai::Level::kHard;
        // A max bot holds this thread for seconds, never the loop: other rooms' bots go to
        // the other threads meanwhile (docs/ai.md).
        settings.budget_ms = ai::level_budget_ms(settings.level, config_.bot_budget_ms);
        // Reproducible from the room and the move number, whichever thread thinks.
        settings.seed = std::hash<std::string> {}(work->job.room_id)
            ^ (work->job.seq * 0x9e3779b97f4a7c15ull);
        // ai::choose_move(game) on the parts it reads: the same move.
        if (!work->over)
            work->move
                = ai::think(work->position, work->rules, work->seating, settings, work->earlier)
                      .move;
        auto& to = work->job.person_waiting ? people_pipe : pipe;
        Work* raw = work.release();
        to.send(zmq::buffer(&raw, sizeof raw), zmq::send_flags::none);
    }
}

std::optional<std::pair<BotJob, engine::Move>> BotPool::take_from(zmq::socket_t* socket) {
    if (!socket) return std::nullopt;
    zmq::message_t msg;
    if (!socket->recv(msg, zmq::recv_flags::dontwait) || msg.size() != sizeof(Work*))
        return std::nullopt;
    Work* work = nullptr;
    std::memcpy(&work, msg.data(), sizeof work);
    std::unique_ptr<Work> owned(work);
    return std::pair { owned->job, owned->move };
}

std::optional<std::pair<BotJob, engine::Move>> BotPool::take_person_result() {
    return take_from(people_socket_.get());
}

std::optional<std::pair<BotJob, engine::Move>> BotPool::take_result() {
    return take_from(socket_.get());
}

} // namespace halma::daemon
