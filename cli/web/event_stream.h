// What one open page is told without asking, as Server-Sent Events: every event of the local
// daemon's rooms, the LAN's room list, and whether the daemon is there at all. It follows
// docs/api.md's advice for a front end that stays open: ask `status` now and then, and when the
// daemon comes back (or its uptime went down: it restarted) subscribe again, so the page re-reads.
#pragma once

#include "cli/client/daemon_connection.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace halma::web {

class EventStream {
public:
    explicit EventStream(std::string runtime_dir);

    // Waits at most `wait` for news and returns it as SSE text: zero or more of
    //   event: daemon  data: {"up": bool, "status": DaemonStatus}   (when that changes)
    //   event: room    data: Event                                  (one per room event)
    //   event: rooms   data: RoomList                               (the newest LAN list)
    // Empty when nothing happened.
    std::string next(std::chrono::milliseconds wait);

private:
    std::string check_daemon();
    bool subscribe();

    std::string runtime_dir_;
    std::unique_ptr<halma::cli::DaemonConnection> events_; // subscribed to every room
    std::unique_ptr<halma::cli::DaemonConnection> lan_; // subscribed to the LAN list
    bool up_ = false;
    std::uint64_t uptime_s_ = 0;
    std::chrono::steady_clock::time_point next_status_ {};
};

} // namespace halma::web
