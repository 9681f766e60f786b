#include "daemon/net/hosted_summaries.h"

#include <unordered_set>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

// A length-delimited field's key (wire type 2) or a length, as protobuf's varint.
void put_varint(std::string& out, std::uint64_t value) {
    while (value >= 0x80) {
        out += static_cast<char>((value & 0x7f) | 0x80);
        value >>= 7;
    }
    out += static_cast<char>(value);
}

void put_field(std::string& out, int number, std::string_view bytes) {
    put_varint(out, static_cast<std::uint64_t>(number) << 3 | 2);
    put_varint(out, bytes.size());
    out += bytes;
}

} // namespace

const std::string& HostedSummaries::bytes_of(const HostedRoom& room) {
    const RoomState& state = room.authority.state();
    auto [it, made] = cache_.try_emplace(state.id());
    if (made || it->second.seq != state.seq()) {
        pb::RoomSummary summary;
        summarize_(room, &summary);
        it->second.seq = state.seq();
        it->second.bytes = summary.SerializeAsString();
    }
    return it->second.bytes;
}

std::string HostedSummaries::serialize(const pb::Reply& reply, Into into,
    const std::vector<HostedRoom*>& rooms, const std::string& context) {
    if (context != context_) {
        cache_.clear();
        context_ = context;
    }
    // Rooms closed without a last change told leave entries behind: dropped once they
    // outnumber the rooms, so the cache stays within twice the rooms hosted.
    if (cache_.size() > 2 * rooms.size() + 16) {
        std::unordered_set<std::string> open;
        for (const auto* room : rooms) open.insert(room->authority.state().id());
        std::erase_if(cache_, [&](const auto& entry) { return !open.contains(entry.first); });
    }
    bool status = into == Into::kStatus;
    int room_field = status ? static_cast<int>(pb::DaemonStatus::kHostedFieldNumber)
                            : static_cast<int>(pb::RoomList::kRoomsFieldNumber);
    std::string body;
    for (const auto* room : rooms) put_field(body, room_field, bytes_of(*room));
    body += status ? reply.status().SerializeAsString() : reply.rooms().SerializeAsString();
    pb::Reply rest = reply;
    rest.clear_body();
    std::string out = rest.SerializeAsString();
    put_field(out, status ? pb::Reply::kStatusFieldNumber : pb::Reply::kRoomsFieldNumber, body);
    return out;
}

} // namespace halma::daemon
