#include "daemon/wire/frames.h"

#include <algorithm>
#include <cstdint>
#include <google/protobuf/io/coded_stream.h>
#include <limits>

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
    // Neither a version nor a body: bytes that parse as nothing of ours (0a 01 41 is field 1
    // with the wrong wire type), not a message of version 0 (a red-team QA pass).
    if (out.version() == 0 && out.body_case() == Envelope::BODY_NOT_SET)
        return Rejection { pb::ERROR_CODE_MALFORMED,
            "not a halma.v1 message (" + std::to_string(size) + " bytes)" };
    if (out.version() != kProtocolVersion)
        return Rejection { pb::ERROR_CODE_VERSION,
            "protocol version " + std::to_string(out.version())
                + " is not spoken here (this daemon speaks " + std::to_string(kProtocolVersion)
                + ")" };
    return std::nullopt;
}

} // namespace

// Read by skipping over the other top-level fields: a refusal of a request too large carried id
// 0, and the sender waited out its own timeout.
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

// A walk over a host's message as its schema says it is made, before it is parsed: a parse
// keeps whatever it reads, and what the bytes can make it keep is far more than their size (an
// empty event is 2 bytes and some 80 parsed; an unknown varint field 2 bytes and 16; a group, a
// kind of field no halma message has, is kept whole and was not even looked into, so anything
// after one went unchecked). So: no groups; a field a message has once, given once (the parse
// merges a second: 250 heartbeats of 256 KiB in one message took 2.4 GB); at most
// kMaxUnknownFields fields a message does not know (a newer host's, kept for forward
// compatibility); each body of the top level held to what a host makes of its kind; and the
// messages inside counted, events apart.
class HostMessageWalk {
public:
    explicit HostMessageWalk(std::size_t size)
        : size_(size) { }

    // Nullopt when it may be parsed.
    std::optional<Rejection> walk(const std::uint8_t* data, std::size_t size) {
        if (!message(pb::HostMessage::descriptor(), data, size, 0) && !why_.empty())
            return Rejection { code_,
                "a host's message of " + std::to_string(size_) + " bytes: " + why_
                    + " (not read)" };
        return std::nullopt;
    }

private:
    static constexpr int kMaxDepth = 12;
    static constexpr int kMaxUnknownFields = 8; // in each message
    // Messages in one (events apart): a room list's 256 rooms, a snapshot's config and members
    // and the events' bodies and moves, with room to spare.
    static constexpr std::size_t kMaxMessages = 2 * kMaxHostSnapshotEvents + 100'000;
    static constexpr std::size_t kMaxHeld = 128;

    bool refuse(pb::ErrorCode code, std::string why) {
        code_ = code;
        why_ = std::move(why);
        return false;
    }

    // The largest body of each kind at the top: the rest, kMaxHostSmallBody.
    std::size_t top_bound(int field) const {
        switch (field) {
        case pb::HostMessage::kRoomsFieldNumber:
            return kMaxHostRoomList;
        case pb::HostMessage::kUpdateFieldNumber:
            return kMaxHostUpdate;
        case pb::HostMessage::kHeartbeatFieldNumber:
            return kMaxHostHeartbeat;
        case pb::HostMessage::kJoinedFieldNumber:
            return size_; // a snapshot: the link's own limit, its events counted
        default:
            return kMaxHostSmallBody;
        }
    }

    bool message(const google::protobuf::Descriptor* type, const std::uint8_t* data,
        std::size_t size, int depth) {
        if (depth > kMaxDepth) return refuse(pb::ERROR_CODE_MALFORMED, "nested too deep");
        if (type == pb::RoomEvent::descriptor()) {
            if (++events_ > kMaxHostSnapshotEvents)
                return refuse(pb::ERROR_CODE_TOO_LARGE,
                    "over " + std::to_string(kMaxHostSnapshotEvents) + " events");
        } else if (++messages_ > kMaxMessages) {
            return refuse(pb::ERROR_CODE_TOO_LARGE,
                "over " + std::to_string(kMaxMessages) + " messages in one");
        }
        google::protobuf::io::CodedInputStream in(
            data, static_cast<int>(std::min<std::size_t>(size, std::numeric_limits<int>::max())));
        std::uint64_t seen = 0; // the once-only fields given, by index (every message has < 64)
        int unknown = 0;
        while (true) {
            std::uint32_t tag = in.ReadTag();
            if (tag == 0) break;
            int number = static_cast<int>(tag >> 3);
            const auto* field = type->FindFieldByNumber(number);
            if (!field && ++unknown > kMaxUnknownFields)
                return refuse(pb::ERROR_CODE_MALFORMED,
                    "over " + std::to_string(kMaxUnknownFields) + " fields a " + type->name()
                        + " does not have");
            // A join's held seats: one per member gone at most (six seats and 64 spectators);
            // 1.3 million empty ones, 2.6 MB, were parsed and kept (87 MB: a red-team QA pass).
            if (type == pb::Joined::descriptor() && number == pb::Joined::kHeldFieldNumber
                && ++held_ > kMaxHeld)
                return refuse(pb::ERROR_CODE_TOO_LARGE,
                    "over " + std::to_string(kMaxHeld) + " held seats in a join's answer");
            if (field && !field->is_repeated()) {
                std::uint64_t bit = std::uint64_t { 1 } << (field->index() % 64);
                if (seen & bit)
                    return refuse(pb::ERROR_CODE_MALFORMED,
                        "it gives " + type->name() + "'s field " + std::to_string(number)
                            + " more than once");
                seen |= bit;
            }
            std::uint64_t ignored = 0;
            std::uint32_t length = 0;
            const void* at = nullptr;
            int left = 0;
            switch (tag & 7) {
            case 0:
                if (!in.ReadVarint64(&ignored)) return refuse(pb::ERROR_CODE_MALFORMED, "");
                break;
            case 1:
                if (!in.Skip(8)) return refuse(pb::ERROR_CODE_MALFORMED, "");
                break;
            case 5:
                if (!in.Skip(4)) return refuse(pb::ERROR_CODE_MALFORMED, "");
                break;
            case 2: {
                if (!in.ReadVarint32(&length)) return refuse(pb::ERROR_CODE_MALFORMED, "");
                in.GetDirectBufferPointerInline(&at, &left);
                if (left < 0 || length > static_cast<std::uint32_t>(left))
                    return refuse(pb::ERROR_CODE_MALFORMED, "");
                if (depth == 0 && length > top_bound(number))
                    return refuse(pb::ERROR_CODE_TOO_LARGE,
                        "field " + std::to_string(number) + " is over the "
                            + std::to_string(top_bound(number)) + " bytes a host makes of it");
                if (field && field->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE
                    && !message(field->message_type(), static_cast<const std::uint8_t*>(at), length,
                        depth + 1))
                    return false;
                if (!in.Skip(static_cast<int>(length))) return refuse(pb::ERROR_CODE_MALFORMED, "");
                break;
            }
            default: // a group (3, 4), or no wire type at all
                return refuse(pb::ERROR_CODE_MALFORMED,
                    "it holds a kind of field no halma message has (wire type "
                        + std::to_string(tag & 7) + ")");
            }
        }
        // Bytes that make no field: the parse refuses them, and says so.
        return static_cast<std::size_t>(in.CurrentPosition()) == size
            || refuse(pb::ERROR_CODE_MALFORMED, "");
    }

    std::size_t size_;
    std::size_t events_ = 0, messages_ = 0, held_ = 0;
    pb::ErrorCode code_ = pb::ERROR_CODE_MALFORMED;
    std::string why_;
};

} // namespace

std::optional<Rejection> read_host_message(
    const void* data, std::size_t size, pb::HostMessage& out) {
    if (auto refused = HostMessageWalk(size).walk(static_cast<const std::uint8_t*>(data), size))
        return refused;
    return parse_checked(data, size, out);
}

} // namespace halma::daemon::wire
