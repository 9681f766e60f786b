#include "daemon/wire/frames.h"

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

} // namespace

template <class Envelope>
std::optional<Rejection> read_envelope(
    const void* data, std::size_t size, std::size_t limit, Envelope& out) {
    if (size > limit)
        return Rejection { pb::ERROR_CODE_TOO_LARGE,
            "message of " + std::to_string(size) + " bytes is over the limit of "
                + std::to_string(limit) };
    if (auto rejection = parse_checked(data, size, out)) return rejection;
    if (out.body_case() == Envelope::BODY_NOT_SET)
        return Rejection { pb::ERROR_CODE_MALFORMED, "a message with no body" };
    return std::nullopt;
}

template std::optional<Rejection> read_envelope(
    const void*, std::size_t, std::size_t, pb::PeerMessage&);
template std::optional<Rejection> read_envelope(
    const void*, std::size_t, std::size_t, pb::Request&);

std::optional<Rejection> read_host_message(
    const void* data, std::size_t size, pb::HostMessage& out) {
    return parse_checked(data, size, out);
}

} // namespace halma::daemon::wire
