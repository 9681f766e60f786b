// What one machine on the LAN may add to this host's rooms, whatever keys and connections it
// makes: members (joins that are not a rejoin with a seat token) and chat lines, each a token
// bucket kept by the connection's source address. A member's own chat limit (10 lines at once,
// then one a second) was undone by leaving and joining again as a new member: one connection
// posted 4,400 lines a second that way, and the host wrote 250 MB a minute to its disk (a
// red-team QA pass). The budgets are far above what a person does (they would join a few rooms
// and chat a line now and then) and hold a script to a few events a second.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace halma::daemon {

class PeerAddressBudget {
public:
    using Clock = std::chrono::steady_clock;
    enum class Kind { kJoin, kChat };

    struct Rate {
        int burst; // at once
        Clock::duration refill; // then one per
    };
    // Members added: enough for a machine running sixty daemons that join at once (the scale
    // bench's spectators), then one a second.
    static constexpr Rate kJoins { 100, std::chrono::seconds(1) };
    // Chat lines: five members' bursts at once, then three a second.
    static constexpr Rate kChat { 50, std::chrono::milliseconds(333) };
    // Addresses remembered; past it, those whose budgets are whole again are forgotten first
    // (a flood from thousands of addresses gets their bursts, each, and no more).
    static constexpr std::size_t kMaxAddresses = 4096;

    // Whether `address` may do one more of `kind` now; if so it is counted.
    bool take(std::string_view address, Kind kind, Clock::time_point now);
    std::size_t addresses() const { return by_address_.size(); }
    // What take() refused says, for the peer: "too many new members from your machine
    // (127.0.0.2): at most 100 at once, then one a second".
    static std::string refusal(std::string_view address, Kind kind);

private:
    struct Budgets {
        Clock::time_point joins_full_at {}, chat_full_at {}; // when each is whole again
    };
    void make_room(Clock::time_point now);

    std::unordered_map<std::string, Budgets> by_address_;
};

} // namespace halma::daemon
