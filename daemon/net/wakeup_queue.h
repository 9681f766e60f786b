// When each room next needs the event loop (a held seat running out, a read-only room trying its
// disk again, a bot's paced move, a bots-only room's next game), kept in a min-heap so a pass of
// the loop costs what is due, not what exists: a thousand quiet rooms are a thousand entries nobody
// looks at until their time comes. Rescheduling a key leaves its old entry in the heap, marked
// stale by the map of current times and dropped when it reaches the top (lazy deletion); the heap
// is rebuilt when stale entries outnumber live ones, so it holds at most 2 * keys + kSlack entries.
#pragma once

#include <chrono>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace halma::daemon {

class WakeupQueue {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kSlack = 64;

    // The key next needs waking at `when`; none: it needs nothing (any earlier time is dropped).
    void set(const std::string& key, std::optional<Clock::time_point> when);
    void erase(const std::string& key) { set(key, std::nullopt); }
    // The earliest time any key is due, exactly (stale entries never reach the top).
    std::optional<Clock::time_point> next() const;
    // The keys due at `now`, earliest first; each is forgotten until set again.
    std::vector<std::string> take_due(Clock::time_point now);
    std::size_t keys() const { return current_.size(); }
    std::size_t entries() const { return heap_.size(); }

private:
    struct Entry {
        Clock::time_point when;
        std::string key;
        bool operator>(const Entry& other) const { return when > other.when; }
    };
    bool stale(const Entry& e) const;
    void drop_stale_top();

    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
    std::unordered_map<std::string, Clock::time_point> current_;
};

} // namespace halma::daemon
