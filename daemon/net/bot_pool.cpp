#include "daemon/net/bot_pool.h"

#include "engine/ai/bot.h"

#include <functional>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace {

constexpr const char* kEndpoint = "inproc://halmad-bots";

// What travels over the pipe: the pointer to one of these, owned by whoever holds the pointer.
struct Work {
    BotJob job;
    engine::Game game;
    engine::Move move = engine::Move::pass();
};

void run_worker(zmq::socket_t pipe, int budget_ms) {
    for (;;) {
        zmq::message_t msg;
        if (!pipe.recv(msg)) continue;
        Work* work = nullptr;
        std::memcpy(&work, msg.data(), sizeof work);
        if (!work) return; // the loop's signal to stop
        ai::BotSettings settings;
        settings.level = work->job.level == BotLevel::kEasy ? ai::Level::kEasy : ai::Level::kHard;
        settings.budget_ms = budget_ms;
        // Reproducible from the room and the move number.
        settings.seed = std::hash<std::string> {}(work->job.room_id)
            ^ (work->job.seq * 0x9e3779b97f4a7c15ull);
        work->move = ai::choose_move(work->game, settings);
        pipe.send(zmq::buffer(&work, sizeof work), zmq::send_flags::none);
    }
}

} // namespace

BotPool::BotPool(zmq::context_t& context, const Config& config)
    : config_(config) {
    socket_ = std::make_unique<zmq::socket_t>(context, zmq::socket_type::pair);
    socket_->set(zmq::sockopt::linger, 0);
    socket_->bind(kEndpoint);
    // The worker's end is connected here, before its thread starts (which hands the socket over
    // with the full memory barrier ZeroMQ asks for): a PAIR refuses to send until its peer is
    // connected, and a room resumed at start-up asks for its bot at once.
    zmq::socket_t pipe(context, zmq::socket_type::pair);
    pipe.connect(kEndpoint);
    worker_ = std::thread(run_worker, std::move(pipe), config.bot_budget_ms);
}

BotPool::~BotPool() {
    if (!socket_) return;
    Work* stop = nullptr;
    socket_->send(zmq::buffer(&stop, sizeof stop), zmq::send_flags::none);
    worker_.join();
    // Jobs still in the pipe are dropped with the process; nothing else owns them.
}

void BotPool::request(const BotJob& job, const engine::Game& game) {
    if (!socket_) return;
    auto* work = new Work { job, game };
    if (!socket_->send(zmq::buffer(&work, sizeof work), zmq::send_flags::dontwait)) {
        spdlog::warn("bot queue full; room {} waits for its bot", job.room_id);
        delete work;
    }
}

std::optional<std::pair<BotJob, engine::Move>> BotPool::take_result() {
    if (!socket_) return std::nullopt;
    zmq::message_t msg;
    if (!socket_->recv(msg, zmq::recv_flags::dontwait) || msg.size() != sizeof(Work*))
        return std::nullopt;
    Work* work = nullptr;
    std::memcpy(&work, msg.data(), sizeof work);
    std::unique_ptr<Work> owned(work);
    return std::pair { owned->job, owned->move };
}

} // namespace halma::daemon
