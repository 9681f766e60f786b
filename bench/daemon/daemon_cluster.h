// Six real halmad processes on 127.0.0.1 playing one 6-player room, driven through their local
// APIs: the measured path of the daemon bench. Every move is checked to reach every daemon's
// front end as the same event.
#pragma once

#include "front_end.h"
#include "processes.h"

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include <zmq.hpp>

namespace halma::bench {

struct MoveTiming {
    double all_front_ends_us = 0; // submit -> the last of the six front ends has the move
    double mover_reply_us = 0; // submit -> the mover's front end has its Done reply
    bool by_host = false; // the hosting daemon's own player moved (one hop fewer)
};

class DaemonCluster {
public:
    struct Daemon {
        std::string name;
        std::string address; // 127.0.0.1:port
        std::filesystem::path dir;
        std::filesystem::path log; // its stderr
        pid_t pid = 0;
        std::unique_ptr<FrontEnd> front_end;
    };

    // Starts `count` daemons with their default heartbeats (and `extra` arguments); the first
    // hosts a room for all of them and the others join it by address. Returns once the first
    // game is running.
    DaemonCluster(zmq::context_t& context, Children& children, const std::string& halmad,
        const std::filesystem::path& dir, int count, const std::vector<std::string>& extra = {});

    // Plays `count` moves, a new game voted in whenever one ends; throws if a move is refused
    // or does not reach every front end within a few seconds.
    std::vector<MoveTiming> play(int count);

    const std::vector<Daemon>& daemons() const { return daemons_; }
    // Size of the MovePlayed event frame a front end receives (the last one seen).
    std::size_t event_bytes() const { return event_bytes_; }
    std::size_t games_started() const { return games_; }
    std::size_t moves_delivered() const { return delivered_; } // MovePlayed events, all daemons
    std::size_t other_events() const { return other_events_; } // during moves, not moves

private:
    void wait_for_game(std::uint32_t game_number);
    void drain_events(std::chrono::milliseconds quiet);
    void new_game();
    std::string choose_move(const pb::RoomView& view);
    MoveTiming play_one();

    Children& children_;
    std::vector<Daemon> daemons_;
    std::size_t mover_ = 0;
    std::set<std::string>
        seen_boards_; // this game's boards, so the players never go round in circles
    std::size_t event_bytes_ = 0;
    std::size_t games_ = 0;
    std::size_t delivered_ = 0;
    std::size_t other_events_ = 0;
};

} // namespace halma::bench
