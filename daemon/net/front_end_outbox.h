// What the local API sends to its front ends, and what waits for one that does not read.
// A front end reads replies and events on one connection (docs/api.md), and ZeroMQ holds at most
// a high-water mark of messages for it: one that stopped reading for a few seconds beside a room
// of bots had its queue filled by events, and then the replies to its requests were dropped with
// them (a chat carried out whose Done never came, a room's last event lost, nothing said).
// So replies are never dropped for want of room: one that cannot go now waits here, in order,
// and later replies wait behind it. Events are not queued: while a front end is behind (its queue
// was full, or replies wait), its events are counted per room, and once what waits has gone out
// it is told, per room, how many it missed: an event with no `event`, which tells a front end
// to read the view again. The LAN list it follows waits as the latest list only.
// A front end that never reads again costs a bounded amount: kMaxHeldReplies replies and
// kMaxHeldBytes bytes (the oldest dropped past that, and the log says so), missed counts for at
// most kMaxMissedRooms rooms (past that, one count for all), and kMaxHeldTotal bytes over all
// front ends. What waits is tried again on a timer that backs off to kMaxRetryEvery.
#pragma once

#include "daemon/net/log_budget.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

class FrontEndOutbox {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kMaxHeldReplies = 32;
    static constexpr std::size_t kMaxHeldBytes = 2 << 20;
    static constexpr std::size_t kMaxHeldTotal = 16 << 20;
    static constexpr std::size_t kMaxMissedRooms = 64;
    static constexpr auto kFirstRetry = std::chrono::milliseconds(5);
    static constexpr auto kMaxRetryEvery = std::chrono::milliseconds(200);

    // The event that tells a front end it missed `missed` events of `room_id` ("": of more rooms
    // than are counted one by one), serialized as a whole Reply.
    using MarkerFn = std::function<std::string(const std::string& room_id, std::uint64_t missed)>;

    enum class Outcome { kSent, kWaits, kGone };

    explicit FrontEndOutbox(zmq::socket_t& router)
        : router_(router) { }

    // A reply (a serialized Reply): sent now, or kept in order behind what already waits.
    // `req_envelope`: the front end is a REQ socket (an empty delimiter frame first).
    Outcome reply(const std::string& client, std::string_view payload, bool req_envelope,
        Clock::time_point now);
    // An event of `room_id`: sent now, or, while the front end is behind, counted as missed.
    Outcome event(const std::string& client, std::string_view payload, const std::string& room_id,
        Clock::time_point now);
    // The LAN's room list: sent now, or kept (only the latest) until the front end reads.
    Outcome lan_list(const std::string& client, std::string_view payload, Clock::time_point now);

    // Tries what waits for the front ends whose turn has come; returns those found gone (their
    // subscriptions end).
    std::vector<std::string> retry(Clock::time_point now, const MarkerFn& marker);
    // When retry() has something to try; none: nothing waits.
    std::optional<Clock::time_point> retry_due() const;
    // A front end known gone: what waited for it goes.
    void forget(const std::string& client);
    bool behind(const std::string& client) const { return waiting_.count(client) > 0; }
    std::size_t held_bytes() const { return total_bytes_; }

private:
    enum class Try { kSent, kFull, kGone };
    struct Reply {
        std::string payload;
        bool req_envelope = false;
    };
    struct Waiting {
        std::deque<Reply> replies;
        std::size_t bytes = 0;
        std::map<std::string, std::uint64_t> missed; // room id ("": the rest) -> events missed
        std::optional<std::string> lan;
        Clock::time_point next_try {};
        Clock::duration every = kFirstRetry;
    };

    Try send(const std::string& client, std::string_view payload, bool req_envelope);
    Waiting& wait(const std::string& client, Clock::time_point now);
    void hold(Waiting& w, std::string payload, bool req_envelope, Clock::time_point now);
    void drop_oldest(Waiting& w);
    // Sends what waits, in order, until the queue is full again; true when nothing is left.
    bool drain(const std::string& client, Waiting& w, const MarkerFn& marker, bool& gone);

    zmq::socket_t& router_;
    std::map<std::string, Waiting> waiting_;
    std::size_t total_bytes_ = 0;
    std::uint64_t dropped_ = 0;
    LogBudget dropped_log_ { 5, std::chrono::seconds(10) };
};

} // namespace halma::daemon
