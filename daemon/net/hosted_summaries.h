// The hosted rooms' summaries as a status reply or a room list carries them, each serialized
// when its room changes rather than on every request. Both are answered in the event loop, where
// every room waits for them: beside a thousand idle rooms they copy a thousand byte strings
// instead of building and serializing a thousand messages (docs/scaling.md).
#pragma once

#include "daemon/net/host_service.h"
#include "halma/v1/api.pb.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

namespace halma::daemon {

class HostedSummaries {
public:
    using Summarize = std::function<void(const HostedRoom&, wire::pb::RoomSummary*)>;

    // `summarize` fills a room's summary.
    explicit HostedSummaries(Summarize summarize)
        : summarize_(std::move(summarize)) { }

    // The room changed (or closed): its summary is built again when next asked for.
    void forget(const std::string& room_id) { cache_.erase(room_id); }

    // Where a reply carries the hosted rooms: a status's `hosted`, a room list's `rooms`.
    enum class Into { kStatus, kRoomList };

    // A reply, serialized, with every room of `rooms` put first among the rooms it carries
    // (`into`): `reply` holds all else (a status but for the hosted rooms; the list's other
    // rooms). Protobuf's wire format lets a repeated field's entries be joined as bytes, so each
    // room's cached bytes are copied in. `context` is what else the summaries depend on (the
    // machine's mDNS name): when it changes, every summary is built again.
    std::string serialize(const wire::pb::Reply& reply, Into into,
        const std::vector<HostedRoom*>& rooms, const std::string& context);

    std::size_t cached() const { return cache_.size(); }

private:
    struct Entry {
        std::uint64_t seq = 0; // the room's seq when built: a safety net beside forget()
        std::string bytes; // the serialized RoomSummary
    };
    const std::string& bytes_of(const HostedRoom& room);

    Summarize summarize_;
    std::string context_;
    std::unordered_map<std::string, Entry> cache_; // by room id
};

} // namespace halma::daemon
