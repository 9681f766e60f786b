// The order computer players' moves are worked out in, apart from the threads that do it so it
// can be tested as it is: a room where a person waits for the computer goes first, bot-only rooms
// in the order they asked, and a waiting bot-only room gets every (kPeopleFirst+1)th turn even
// while people keep the pool busy, so none starves. pop_person() serves the thread that only
// ever thinks for people.
#pragma once

#include <deque>
#include <optional>
#include <utility>

namespace halma::daemon {

template <class Job> class BotQueue {
public:
    static constexpr int kPeopleFirst = 3;

    void push(Job job, bool person_waiting) {
        (person_waiting ? people_ : bots_only_).push_back(std::move(job));
    }
    bool empty() const { return people_.empty() && bots_only_.empty(); }
    std::size_t size() const { return people_.size() + bots_only_.size(); }

    // A person's job only (for the thread kept free for people), or nothing.
    std::optional<Job> pop_person() {
        if (people_.empty()) return std::nullopt;
        Job job = std::move(people_.front());
        people_.pop_front();
        return job;
    }
    bool has_person() const { return !people_.empty(); }
    bool has_bots_only() const { return !bots_only_.empty(); }

    // A bot-only room's job only (for a low-priority thread while the people's thread is free:
    // a person's move must not be thought out at nice 10), or nothing.
    std::optional<Job> pop_bots_only() {
        if (bots_only_.empty()) return std::nullopt;
        Job job = std::move(bots_only_.front());
        bots_only_.pop_front();
        people_in_a_row_ = 0;
        return job;
    }

    std::optional<Job> pop() {
        if (empty()) return std::nullopt;
        bool person = !people_.empty() && (bots_only_.empty() || people_in_a_row_ < kPeopleFirst);
        auto& queue = person ? people_ : bots_only_;
        people_in_a_row_ = person ? people_in_a_row_ + 1 : 0;
        Job job = std::move(queue.front());
        queue.pop_front();
        return job;
    }

private:
    std::deque<Job> people_;
    std::deque<Job> bots_only_;
    int people_in_a_row_ = 0;
};

} // namespace halma::daemon
