// systemd's watchdog (WatchdogSec= in halmad.service): a "still alive" every half period, sent
// from the event loop itself, so a loop that hangs gets the daemon restarted.
#pragma once

#include <chrono>
#include <optional>

namespace halma::daemon {

class Watchdog {
public:
    using Clock = std::chrono::steady_clock;

    // Reads WATCHDOG_USEC; without it (not under systemd, or no WatchdogSec) it does nothing.
    Watchdog();
    std::optional<Clock::time_point> next_deadline() const;
    void tick(Clock::time_point now);

private:
    std::optional<Clock::duration> interval_;
    Clock::time_point next_ {};
};

} // namespace halma::daemon
