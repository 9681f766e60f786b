#include "daemon/net/peer_address_budget.h"

#include <algorithm>

namespace halma::daemon {

namespace {

using Clock = PeerAddressBudget::Clock;

// A token bucket kept as the moment it is whole again: taking one moves it a refill later;
// refused when that is more than `burst` refills ahead of now.
bool take_from(
    Clock::time_point& full_at, const PeerAddressBudget::Rate& rate, Clock::time_point now) {
    Clock::time_point floor = now;
    if (full_at < floor) full_at = floor;
    if (full_at + rate.refill > now + rate.burst * rate.refill) return false;
    full_at += rate.refill;
    return true;
}

} // namespace

bool PeerAddressBudget::take(std::string_view address, Kind kind, Clock::time_point now) {
    auto it = by_address_.find(std::string(address));
    if (it == by_address_.end()) {
        make_room(now);
        it = by_address_.emplace(std::string(address), Budgets {}).first;
    }
    return kind == Kind::kJoin ? take_from(it->second.joins_full_at, kJoins, now)
                               : take_from(it->second.chat_full_at, kChat, now);
}

void PeerAddressBudget::make_room(Clock::time_point now) {
    if (by_address_.size() < kMaxAddresses) return;
    // Those whose budgets are whole again are as good as new: forgetting them changes nothing.
    std::erase_if(by_address_, [&](const auto& entry) {
        return entry.second.joins_full_at <= now && entry.second.chat_full_at <= now;
    });
    // Thousands of addresses all busy at once (a flood from a whole subnet): the one whole
    // again soonest goes, and starts afresh if it comes back.
    while (by_address_.size() >= kMaxAddresses) {
        auto soonest = std::min_element(
            by_address_.begin(), by_address_.end(), [](const auto& a, const auto& b) {
                return std::max(a.second.joins_full_at, a.second.chat_full_at)
                    < std::max(b.second.joins_full_at, b.second.chat_full_at);
            });
        by_address_.erase(soonest);
    }
}

std::string PeerAddressBudget::refusal(std::string_view address, Kind kind) {
    std::string from
        = address.empty() ? "your machine" : "your machine (" + std::string(address) + ")";
    if (kind == Kind::kJoin)
        return "too many new members from " + from + ": at most " + std::to_string(kJoins.burst)
            + " joins at once, then one a second; try again shortly";
    return "too much chat from " + from + ": at most " + std::to_string(kChat.burst)
        + " lines at once, then three a second, from all its members together";
}

} // namespace halma::daemon
