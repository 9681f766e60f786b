// Computer players' thinking, off the event loop: one helper thread runs the bots' search and
// talks to the loop only over an inproc PAIR socket, so the loop never waits for a bot.
#pragma once

#include "daemon/net/config.h"
#include "daemon/room/room_types.h"
#include "engine/game.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <zmq.hpp>

namespace halma::daemon {

struct BotJob {
    std::string room_id;
    std::uint64_t seq = 0; // the room's seq when asked: an answer for an older seq is stale
    MemberId bot = kNoMember;
    BotLevel level = BotLevel::kHard;
};

class BotPool {
public:
    BotPool(zmq::context_t& context, const Config& config);
    ~BotPool();
    BotPool(const BotPool&) = delete;
    BotPool& operator=(const BotPool&) = delete;

    bool available() const { return socket_ != nullptr; }
    // The loop's end of the pipe, to poll; null when not available.
    zmq::socket_t* socket() { return socket_.get(); }

    // Asks for a move for the set to move in `game` (copied: the thread never sees the room).
    void request(const BotJob& job, const engine::Game& game);
    // After the socket polled readable: a finished job and its move.
    std::optional<std::pair<BotJob, engine::Move>> take_result();

private:
    const Config& config_;
    std::unique_ptr<zmq::socket_t> socket_;
    std::thread worker_;
};

} // namespace halma::daemon
