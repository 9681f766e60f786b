// A bound on how many lines one kind of log message writes, whatever others send: every refused
// request a peer makes was a line of its own, so a script on any player's machine made a Pi write
// 15 kB a second to its journal on the SD card. Up to `burst` lines at once, then one per
// `refill`; the lines left out are counted and said with the next one written.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace halma::daemon {

class LogBudget {
public:
    using Clock = std::chrono::steady_clock;

    LogBudget(int burst, Clock::duration refill)
        : burst_(burst)
        , refill_(refill) { }

    // Whether a line may be written now; if so, `note` is set to what to add to it ("" or
    // " (and 212 more like it not logged)").
    bool allow(Clock::time_point now, std::string& note) {
        Clock::time_point floor = now - burst_ * refill_;
        if (full_at_ < floor) full_at_ = floor;
        if (full_at_ + refill_ > now) {
            ++left_out_;
            return false;
        }
        full_at_ += refill_;
        note = left_out_ == 0 ? std::string()
                              : " (and " + std::to_string(left_out_) + " more like it not logged)";
        left_out_ = 0;
        return true;
    }

private:
    int burst_;
    Clock::duration refill_;
    Clock::time_point full_at_ {}; // when the budget is whole again
    std::uint64_t left_out_ = 0;
};

} // namespace halma::daemon
