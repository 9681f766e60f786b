#include "daemon/wire/frames.h"

#include <algorithm>
#include <cstdint>
#include <google/protobuf/io/coded_stream.h>
#include <limits>
#include <set>

namespace halma::daemon::wire {

namespace {

template <class Envelope>
std::optional<Rejection> parse_checked(const void* data, std::size_t size, Envelope& out) {
    if (!out.ParseFromArray(data, static_cast<int>(size))) {
        // Maybe another version that changed the rest of the message: field 1 still says which.
        pb::VersionProbe probe;
        if (probe.ParseFromArray(data, static_cast<int>(size)) && probe.version() != 0
            && probe.version() != kProtocolVersion)
            return Rejection { pb::ERROR_CODE_VERSION,
                "protocol version " + std::to_string(probe.version())
                    + " is not spoken here (this daemon speaks " + std::to_string(kProtocolVersion)
                    + ")" };
        return Rejection { pb::ERROR_CODE_MALFORMED,
            "not a halma.v1 message (" + std::to_string(size) + " bytes)" };
    }
    if (out.version() != kProtocolVersion)
        return Rejection { pb::ERROR_CODE_VERSION,
            "protocol version " + std::to_string(out.version())
                + " is not spoken here (this daemon speaks " + std::to_string(kProtocolVersion)
                + ")" };
    return std::nullopt;
}

// The request id (field 2 of every envelope) of a message too large to parse, read by skipping
// over its other top-level fields: the refusal then reaches the request that was too large (it
// carried id 0, and the sender waited out its own timeout). 0 when the bytes say none.
std::uint64_t request_id_of(const void* data, std::size_t size) {
    google::protobuf::io::CodedInputStream in(static_cast<const std::uint8_t*>(data),
        static_cast<int>(std::min<std::size_t>(size, std::numeric_limits<int>::max())));
    for (std::uint32_t tag; (tag = in.ReadTag()) != 0;) {
        std::uint64_t value = 0;
        std::uint32_t length = 0;
        switch (tag & 7) {
        case 0:
            if (!in.ReadVarint64(&value)) return 0;
            if (tag >> 3 == 2) return value;
            break;
        case 1:
            if (!in.Skip(8)) return 0;
            break;
        case 5:
            if (!in.Skip(4)) return 0;
            break;
        case 2:
            if (!in.ReadVarint32(&length) || !in.Skip(static_cast<int>(length))) return 0;
            break;
        default:
            return 0;
        }
    }
    return 0;
}

} // namespace

template <class Envelope>
std::optional<Rejection> read_envelope(
    const void* data, std::size_t size, std::size_t limit, Envelope& out) {
    if (size > limit) {
        out.set_request_id(request_id_of(data, size));
        return Rejection { pb::ERROR_CODE_TOO_LARGE,
            "message of " + std::to_string(size) + " bytes is over the limit of "
                + std::to_string(limit) };
    }
    // Nothing at all is no message of any version (it was answered as "version 0").
    if (size == 0) return Rejection { pb::ERROR_CODE_MALFORMED, "an empty message" };
    if (auto rejection = parse_checked(data, size, out)) return rejection;
    if (out.body_case() == Envelope::BODY_NOT_SET)
        return Rejection { pb::ERROR_CODE_MALFORMED, "a message with no body" };
    return std::nullopt;
}

template std::optional<Rejection> read_envelope(
    const void*, std::size_t, std::size_t, pb::PeerMessage&);
template std::optional<Rejection> read_envelope(
    const void*, std::size_t, std::size_t, pb::Request&);

namespace {

// Calls `each(field, bytes, length)` for every length-delimited field at the top of `data`
// (without parsing it) until it returns false; false if the bytes stop making fields, which is
// left to the parse to refuse.
template <class Each> bool each_field(const std::uint8_t* data, std::size_t size, Each&& each) {
    google::protobuf::io::CodedInputStream in(
        data, static_cast<int>(std::min<std::size_t>(size, std::numeric_limits<int>::max())));
    for (std::uint32_t tag; (tag = in.ReadTag()) != 0;) {
        std::uint64_t ignored = 0;
        std::uint32_t length = 0;
        const void* at = nullptr;
        int left = 0;
        switch (tag & 7) {
        case 0:
            if (!in.ReadVarint64(&ignored)) return false;
            break;
        case 1:
            if (!in.Skip(8)) return false;
            break;
        case 5:
            if (!in.Skip(4)) return false;
            break;
        case 2:
            if (!in.ReadVarint32(&length)) return false;
            in.GetDirectBufferPointerInline(&at, &left);
            if (left < 0 || length > static_cast<std::uint32_t>(left)) return false;
            if (!each(static_cast<int>(tag >> 3), static_cast<const std::uint8_t*>(at), length))
                return true;
            if (!in.Skip(static_cast<int>(length))) return false;
            break;
        default:
            return false;
        }
    }
    return true;
}

// The events of a Joined answer's snapshot, counted without parsing them: of every snapshot
// field it gives (the parse merges them all into one).
std::size_t snapshot_events(const std::uint8_t* joined, std::size_t size) {
    std::size_t events = 0;
    each_field(joined, size, [&](int field, const std::uint8_t* snapshot, std::size_t length) {
        if (field == pb::Joined::kSnapshotFieldNumber)
            each_field(snapshot, length, [&](int f, const std::uint8_t*, std::size_t) {
                events += f == pb::Snapshot::kEventsFieldNumber;
                return true;
            });
        return true;
    });
    return events;
}

} // namespace

std::optional<Rejection> read_host_message(
    const void* data, std::size_t size, pb::HostMessage& out) {
    // The top level only: each body's length against its kind's bound, and a snapshot's events
    // counted, before anything is parsed. A field given twice is merged by the parse, so it is
    // refused: 250 heartbeats of 256 KiB in one message took 2.4 GB.
    std::optional<Rejection> refused;
    std::set<int> seen;
    each_field(static_cast<const std::uint8_t*>(data), size,
        [&](int field, const std::uint8_t* body, std::size_t length) {
            if (!seen.insert(field).second) {
                refused = Rejection { pb::ERROR_CODE_MALFORMED,
                    "a host's message of " + std::to_string(size) + " bytes gives field "
                        + std::to_string(field) + " more than once (not read)" };
                return false;
            }
            std::size_t bound = field == pb::HostMessage::kRoomsFieldNumber ? kMaxHostRoomList
                : field == pb::HostMessage::kUpdateFieldNumber              ? kMaxHostUpdate
                : field == pb::HostMessage::kHeartbeatFieldNumber           ? kMaxHostHeartbeat
                : field == pb::HostMessage::kJoinedFieldNumber              ? size
                                                                            : kMaxHostSmallBody;
            std::string why;
            if (length > bound)
                why = "field " + std::to_string(field) + " is over the " + std::to_string(bound)
                    + " bytes a host makes of it";
            else if (field == pb::HostMessage::kJoinedFieldNumber
                && snapshot_events(body, length) > kMaxHostSnapshotEvents)
                why = "its snapshot has over " + std::to_string(kMaxHostSnapshotEvents) + " events";
            if (!why.empty())
                refused = Rejection { pb::ERROR_CODE_TOO_LARGE,
                    "a host's message of " + std::to_string(size) + " bytes: " + why
                        + " (not read)" };
            return why.empty();
        });
    if (refused) return refused;
    return parse_checked(data, size, out);
}

} // namespace halma::daemon::wire
