// A moment as the person at the keyboard reads a clock: "17:40", local time. For answers that
// say when something happened today ("its host closed it (17:40)").
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace halma::daemon {

// "17:40" for a wall-clock time in milliseconds since the epoch; "" if it cannot be told.
inline std::string clock_words(std::int64_t wall_ms) {
    std::time_t at = static_cast<std::time_t>(wall_ms / 1000);
    std::tm local {};
    char clock[16] = "";
    if (localtime_r(&at, &local)) std::strftime(clock, sizeof clock, "%H:%M", &local);
    return clock;
}

} // namespace halma::daemon
