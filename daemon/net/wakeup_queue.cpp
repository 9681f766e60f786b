#include "daemon/net/wakeup_queue.h"

namespace halma::daemon {

bool WakeupQueue::stale(const Entry& e) const {
    auto it = current_.find(e.key);
    return it == current_.end() || it->second != e.when;
}

void WakeupQueue::drop_stale_top() {
    while (!heap_.empty() && stale(heap_.top())) heap_.pop();
}

void WakeupQueue::set(const std::string& key, std::optional<Clock::time_point> when) {
    auto it = current_.find(key);
    if (!when) {
        if (it == current_.end()) return;
        current_.erase(it);
    } else if (it != current_.end() && it->second == *when) {
        return; // already waiting for exactly this time
    } else {
        current_.insert_or_assign(key, *when);
        heap_.push(Entry { *when, key });
    }
    if (heap_.size() > 2 * current_.size() + kSlack) {
        // Mostly stale: rebuild from the live times (O(keys), and rare: it takes as many
        // reschedulings as there are keys to come back here).
        std::vector<Entry> live;
        live.reserve(current_.size());
        for (const auto& [k, t] : current_) live.push_back(Entry { t, k });
        heap_ = decltype(heap_)(std::greater<> {}, std::move(live));
    }
    drop_stale_top();
}

std::optional<WakeupQueue::Clock::time_point> WakeupQueue::next() const {
    if (heap_.empty()) return std::nullopt;
    return heap_.top().when;
}

std::vector<std::string> WakeupQueue::take_due(Clock::time_point now) {
    std::vector<std::string> due;
    while (!heap_.empty() && heap_.top().when <= now) {
        Entry top = heap_.top();
        heap_.pop();
        if (stale(top)) continue;
        current_.erase(top.key);
        due.push_back(std::move(top.key));
    }
    drop_stale_top();
    return due;
}

} // namespace halma::daemon
