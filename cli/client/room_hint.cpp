#include "cli/client/room_hint.h"

#include "cli/client/edit_distance.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace halma::cli {

namespace {

// The room a request named, and the host it named it at ("" for this daemon).
std::pair<std::string, std::string> named_room(const pb::Request& r) {
    if (r.has_join()) return { r.join().room(), r.join().address() };
    if (r.has_view()) return { r.view().room(), "" };
    if (r.has_action()) return { r.action().room(), "" };
    if (r.has_subscribe()) return { r.subscribe().room(), "" };
    if (r.has_close()) return { r.close().room(), "" };
    return { "", "" };
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

std::string closest_name(const std::string& typed, const std::vector<std::string>& names) {
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, typed.size() / 3) + 1;
    for (const auto& n : names)
        if (auto d = edit_distance(typed, n); d < best_distance) {
            best = n;
            best_distance = d;
        }
    return best;
}

RoomHint unknown_room_hint(DaemonConnection& daemon, const pb::Request& refused) {
    auto [room, address] = named_room(refused);
    std::vector<std::string> names;
    pb::Request r;
    if (refused.has_join()) {
        // At a host: its public rooms. Without one: this daemon's and the LAN's.
        if (address.empty())
            r.mutable_list()->set_lan(true);
        else
            r.mutable_list()->set_address(address);
        auto reply = daemon.call(r);
        if (!reply || reply->has_error()) return {};
        for (const auto& s : reply->rooms().rooms()) names.push_back(s.name());
    } else {
        r.mutable_status();
        auto reply = daemon.call(r);
        if (!reply || reply->has_error()) return {};
        for (const auto& s : reply->status().hosted()) names.push_back(s.name());
        for (const auto& s : reply->status().joined()) names.push_back(s.name());
    }
    std::sort(names.begin(), names.end());
    // The name is there: it was not mistyped but shared by several rooms, which the daemon's
    // message lists with what tells them apart ("did you mean `cl3`?" to one who typed cl3).
    if (!room.empty() && std::binary_search(names.begin(), names.end(), room)) return {};
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::string where
        = address.empty() ? (refused.has_join() ? "here and on the LAN" : "here") : "at " + address;
    if (room.empty() && !refused.has_join()) {
        if (names.size() < 2) return {};
        return { "halma: this daemon is in several rooms (" + listed(names)
                + "): say which with -r ROOM\n",
            true };
    }
    // Without an address the daemon's own message lists the LAN's rooms already, and so it does
    // when a host asked for its only room has several (they were listed twice).
    bool listed_already = refused.has_join() && (address.empty() || room.empty());
    if (names.empty())
        return { listed_already ? "" : "halma: there are no rooms " + where + "\n", false };
    std::string text = listed_already ? "" : "halma: rooms " + where + ": " + listed(names) + "\n";
    if (auto near = closest_name(room, names); !near.empty())
        text += "halma: did you mean `" + near + "`?\n";
    return { text, false };
}

} // namespace halma::cli
