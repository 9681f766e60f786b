// The jobs waiting for the bot pool's threads, apart from the threads so it can be tested as it
// is: the people's threads take the jobs of rooms where a person waits for the computer, the
// bot-only rooms' threads the others, each in the order they were asked for, so no room is
// passed over by rooms that asked after it.
#pragma once

#include <deque>
#include <optional>
#include <utility>

namespace halma::daemon {

template <class Job> class BotQueue {
public:
    void push(Job job, bool person_waiting) {
        (person_waiting ? people_ : bots_only_).push_back(std::move(job));
    }
    bool empty() const { return people_.empty() && bots_only_.empty(); }
    std::size_t size() const { return people_.size() + bots_only_.size(); }
    bool has_person() const { return !people_.empty(); }
    bool has_bots_only() const { return !bots_only_.empty(); }

    // The oldest job of a room where a person waits, or nothing.
    std::optional<Job> pop_person() { return pop_front(people_); }
    // The oldest job of a bot-only room, or nothing.
    std::optional<Job> pop_bots_only() { return pop_front(bots_only_); }

private:
    static std::optional<Job> pop_front(std::deque<Job>& queue) {
        if (queue.empty()) return std::nullopt;
        Job job = std::move(queue.front());
        queue.pop_front();
        return job;
    }

    std::deque<Job> people_;
    std::deque<Job> bots_only_;
};

} // namespace halma::daemon
