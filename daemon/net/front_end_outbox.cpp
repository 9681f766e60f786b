#include "daemon/net/front_end_outbox.h"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace halma::daemon {

FrontEndOutbox::Try FrontEndOutbox::send(
    const std::string& client, std::string_view payload, bool req_envelope) {
    constexpr auto more = zmq::send_flags::sndmore | zmq::send_flags::dontwait;
    try {
        // The routing id frame decides: refused (that front end's queue is full), nothing of the
        // message has gone out, so nothing half-sent follows.
        if (!router_.send(zmq::buffer(client), more)) return Try::kFull;
        if (req_envelope) router_.send(zmq::message_t(), more);
        router_.send(zmq::buffer(payload), zmq::send_flags::dontwait);
        return Try::kSent;
    } catch (const zmq::error_t&) {
        return Try::kGone; // ROUTER_MANDATORY: that front end has disconnected
    }
}

FrontEndOutbox::Waiting& FrontEndOutbox::wait(const std::string& client, Clock::time_point now) {
    auto [it, made] = waiting_.try_emplace(client);
    if (made) {
        it->second.next_try = now + kFirstRetry;
        spdlog::debug(
            "a front end is not reading: what it is sent waits ({} waiting)", waiting_.size());
    }
    return it->second;
}

void FrontEndOutbox::drop_oldest(Waiting& w) {
    w.bytes -= w.replies.front().payload.size();
    total_bytes_ -= w.replies.front().payload.size();
    w.replies.pop_front();
    ++dropped_;
}

void FrontEndOutbox::hold(
    Waiting& w, std::string payload, bool req_envelope, Clock::time_point now) {
    auto too_much = [&] {
        return w.replies.size() >= kMaxHeldReplies || w.bytes + payload.size() > kMaxHeldBytes
            || total_bytes_ + payload.size() > kMaxHeldTotal;
    };
    std::uint64_t dropped_before = dropped_;
    // One that could not wait even with this front end's queue empty (bigger than its whole
    // allowance, or the others use the rest) goes alone: it emptied the queue first, and then
    // went too.
    bool fits_alone = payload.size() <= kMaxHeldBytes
        && total_bytes_ - w.bytes + payload.size() <= kMaxHeldTotal;
    while (fits_alone && !w.replies.empty() && too_much()) drop_oldest(w);
    if (!fits_alone || too_much()) {
        ++dropped_;
    } else {
        w.bytes += payload.size();
        total_bytes_ += payload.size();
        w.replies.push_back(Reply { std::move(payload), req_envelope });
    }
    std::string note;
    if (dropped_ != dropped_before && dropped_log_.allow(now, note))
        spdlog::warn("a front end does not read its replies: {} dropped since halmad started, "
                     "past the {} (or {} KiB) that may wait for one{}",
            dropped_, kMaxHeldReplies, kMaxHeldBytes / 1024, note);
}

FrontEndOutbox::Outcome FrontEndOutbox::reply(
    const std::string& client, std::string_view payload, bool req_envelope, Clock::time_point now) {
    if (auto it = waiting_.find(client); it != waiting_.end()) {
        hold(it->second, std::string(payload), req_envelope, now);
        return Outcome::kWaits;
    }
    switch (send(client, payload, req_envelope)) {
    case Try::kSent:
        return Outcome::kSent;
    case Try::kGone:
        return Outcome::kGone;
    case Try::kFull:
        break;
    }
    hold(wait(client, now), std::string(payload), req_envelope, now);
    return Outcome::kWaits;
}

FrontEndOutbox::Outcome FrontEndOutbox::event(const std::string& client, std::string_view payload,
    const std::string& room_id, Clock::time_point now) {
    Waiting* w = nullptr;
    if (auto it = waiting_.find(client); it != waiting_.end()) {
        w = &it->second;
    } else {
        switch (send(client, payload, false)) {
        case Try::kSent:
            return Outcome::kSent;
        case Try::kGone:
            return Outcome::kGone;
        case Try::kFull:
            break;
        }
        w = &wait(client, now);
    }
    if (w->missed.count(room_id) || w->missed.size() < kMaxMissedRooms)
        ++w->missed[room_id];
    else
        ++w->missed[""];
    return Outcome::kWaits;
}

FrontEndOutbox::Outcome FrontEndOutbox::lan_list(
    const std::string& client, std::string_view payload, Clock::time_point now) {
    if (auto it = waiting_.find(client); it != waiting_.end()) {
        it->second.lan = std::string(payload);
        return Outcome::kWaits;
    }
    switch (send(client, payload, false)) {
    case Try::kSent:
        return Outcome::kSent;
    case Try::kGone:
        return Outcome::kGone;
    case Try::kFull:
        break;
    }
    wait(client, now).lan = std::string(payload);
    return Outcome::kWaits;
}

bool FrontEndOutbox::drain(
    const std::string& client, Waiting& w, const MarkerFn& marker, bool& gone) {
    auto attempt = [&](std::string_view payload, bool req_envelope) {
        Try t = send(client, payload, req_envelope);
        gone = t == Try::kGone;
        return t == Try::kSent;
    };
    while (!w.replies.empty()) {
        if (!attempt(w.replies.front().payload, w.replies.front().req_envelope)) return false;
        w.bytes -= w.replies.front().payload.size();
        total_bytes_ -= w.replies.front().payload.size();
        w.replies.pop_front();
    }
    // The rooms counted one by one first; "" (the rest) last.
    auto send_marker = [&](const std::string& room) {
        if (!attempt(marker(room, w.missed[room]), false)) return false;
        w.missed.erase(room);
        return true;
    };
    while (!w.missed.empty() && !w.missed.rbegin()->first.empty())
        if (!send_marker(w.missed.rbegin()->first)) return false;
    if (!w.missed.empty() && !send_marker("")) return false;
    if (w.lan) {
        if (!attempt(*w.lan, false)) return false;
        w.lan.reset();
    }
    return true;
}

std::vector<std::string> FrontEndOutbox::retry(Clock::time_point now, const MarkerFn& marker) {
    std::vector<std::string> gone_clients;
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        Waiting& w = it->second;
        if (now < w.next_try) {
            ++it;
            continue;
        }
        bool gone = false;
        if (drain(it->first, w, marker, gone) || gone) {
            if (gone) gone_clients.push_back(it->first);
            total_bytes_ -= w.bytes;
            it = waiting_.erase(it);
            continue;
        }
        // Still not reading: tried less and less often, up to kMaxRetryEvery.
        w.every = std::min<Clock::duration>(w.every * 2, kMaxRetryEvery);
        w.next_try = now + w.every;
        ++it;
    }
    return gone_clients;
}

std::optional<FrontEndOutbox::Clock::time_point> FrontEndOutbox::retry_due() const {
    std::optional<Clock::time_point> due;
    for (const auto& [client, w] : waiting_)
        if (!due || w.next_try < *due) due = w.next_try;
    return due;
}

void FrontEndOutbox::forget(const std::string& client) {
    if (auto it = waiting_.find(client); it != waiting_.end()) {
        total_bytes_ -= it->second.bytes;
        waiting_.erase(it);
    }
}

} // namespace halma::daemon
