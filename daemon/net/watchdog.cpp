#include "daemon/net/watchdog.h"

#include <cstdint>
#include <systemd/sd-daemon.h>

namespace halma::daemon {

Watchdog::Watchdog() {
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
        interval_ = std::chrono::microseconds(usec / 2);
        next_ = Clock::now();
    }
}

std::optional<Watchdog::Clock::time_point> Watchdog::next_deadline() const {
    if (!interval_) return std::nullopt;
    return next_;
}

void Watchdog::tick(Clock::time_point now) {
    if (!interval_ || now < next_) return;
    sd_notify(0, "WATCHDOG=1");
    next_ = now + *interval_;
}

} // namespace halma::daemon
