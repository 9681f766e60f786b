// HostService's binding of seat tokens to the CURVE keys that joined with them (seat_keys.h):
// a token copied to another daemon is refused there, a member's own daemon keeps its seat.
#include "daemon/net/host_service.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

std::optional<std::string> HostService::seat_key_refusal(
    const HostedRoom& room, MemberId member, const std::string& key) const {
    if (member == room.local_member)
        return "that seat token is the host's own player's: it is not good from another daemon";
    auto bound = room.member_keys.find(member);
    if (bound == room.member_keys.end())
        return "that seat token was not taken from another daemon: it is not good from one";
    if (bound->second != key)
        return "that seat token belongs to another daemon (it joined with another key): a seat "
               "token is good only from the daemon that joined with it";
    return std::nullopt;
}

void HostService::bind_seat_key(HostedRoom& room, MemberId member, const std::string& key) {
    auto bound = room.member_keys.find(member);
    if (bound != room.member_keys.end() && bound->second == key) return;
    room.member_keys[member] = key;
    // Members who left keep no binding: the file holds at most the room's members.
    const auto& tokens = room.authority.tokens();
    std::erase_if(
        room.member_keys, [&](const auto& entry) { return !tokens.contains(entry.first); });
    const std::string& id = room.authority.state().id();
    // Into the kernel here, onto the disk on the helper (as every room file is): on an SD card
    // an fsync at every join from a new daemon held up every room for tens of milliseconds.
    if (auto saved = store_.save_keys(id, encode_seat_keys(room.member_keys)); !saved) {
        // The binding holds while this host runs; after a restart that member is refused until
        // it joins anew (never let in from another key).
        spdlog::error("room {}: cannot keep which key holds member {}'s seat: {}",
            room.authority.state().config().name, member, saved.error().message);
        return;
    }
    hand_to_disk(id);
}

} // namespace halma::daemon
