#include "daemon/net/bot_pool.h"

#include "engine/ai/bot.h"

#include <cstring>
#include <functional>
#include <pthread.h>
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
    try {
        for (int i = 0; i < threads; ++i) start_worker(context, false);
        for (int i = 0; i <= threads; ++i) start_worker(context, true);
    } catch (...) {
        stop_workers(); // a thread left running would end the process at once
        throw;
    }
}

void BotPool::start_worker(zmq::context_t& context, bool for_people) {
    // A thread only ever sends on its own set's pipe. Its end is connected here, before the
    // thread starts (which hands the socket over with the full memory barrier ZeroMQ asks for).
    workers_.emplace_back(
        [this, for_people,
            pipe = push(context, for_people ? kPeopleEndpoint : kEndpoint)]() mutable {
            run_worker(std::move(pipe), for_people);
        });
}

void BotPool::stop_workers() {
    stop_thinking_ = true;
    for (Line* line : { &people_, &bots_only_ }) {
        {
            std::lock_guard lock(line->mutex);
            line->stopping = true;
        }
        line->wake.notify_all();
    }
    for (auto& w : workers_)
        if (w.joinable()) w.join();
}

BotPool::~BotPool() {
    stop_workers();
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
    Line& line = job.person_waiting ? people_ : bots_only_;
    line.not_handed_over.push_back(std::move(work));
    try_hand_over(line);
}

void BotPool::try_hand_over(Line& line) {
    if (line.not_handed_over.empty()) return;
    std::size_t handed = 0;
    {
        std::unique_lock lock(line.mutex, std::try_to_lock);
        if (!lock.owns_lock()) return;
        // One at a time: if memory runs out half-way, the rest stay queued here, whole.
        for (; !line.not_handed_over.empty(); ++handed) {
            line.jobs.push_back(std::move(line.not_handed_over.front()));
            line.not_handed_over.pop_front();
        }
    }
    // A thread per job (a wake-up with no thread waiting costs no system call).
    for (std::size_t i = 0; i < handed; ++i) line.wake.notify_one();
}

bool BotPool::hand_over() {
    try_hand_over(people_);
    try_hand_over(bots_only_);
    return !people_.not_handed_over.empty() || !bots_only_.not_handed_over.empty();
}

std::unique_ptr<BotPool::Work> BotPool::next_work(Line& line) {
    std::unique_lock lock(line.mutex);
    line.wake.wait(lock, [&] { return line.stopping || !line.jobs.empty(); });
    if (line.stopping) return nullptr;
    auto work = std::move(line.jobs.front());
    line.jobs.pop_front();
    // A request wakes one thread: if more is left, pass it on (three people's bots asked for at
    // once: three people's threads take them, not one and then nobody until it is done).
    if (!line.jobs.empty()) line.wake.notify_one();
    return work;
}

void BotPool::run_worker(zmq::socket_t pipe, bool for_people) {
    // Named for top and ps (at most 15 characters).
    pthread_setname_np(pthread_self(), for_people ? "bots for people" : "bots");
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
    while (auto work = next_work(for_people ? people_ : bots_only_)) {
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
        settings.stop = &stop_thinking_; // a shutdown does not wait for a search to finish
        // ai::choose_move(game) on the parts it reads: the same move.
        if (!work->over)
            work->move
                = ai::think(work->position, work->rules, work->seating, settings, work->earlier)
                      .move;
        Work* raw = work.release();
        pipe.send(zmq::buffer(&raw, sizeof raw), zmq::send_flags::none);
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
