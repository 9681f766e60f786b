// Reading one message off a socket safely: exactly one frame, within the size limit, parsable,
// of the version this daemon speaks. Anything else becomes the error to send back.
#pragma once

#include "daemon/wire/codec.h"

#include <cstddef>
#include <optional>
#include <string>

namespace halma::daemon::wire {

struct Rejection {
    pb::ErrorCode code;
    std::string message;
};

// Parses `data` into `out` (a PeerMessage or Request); nullopt when it is fit to handle.
template <class Envelope>
std::optional<Rejection> read_envelope(
    const void* data, std::size_t size, std::size_t limit, Envelope& out);

// The same checks for what a host sends a peer: parse and version only.
std::optional<Rejection> read_host_message(
    const void* data, std::size_t size, pb::HostMessage& out);

} // namespace halma::daemon::wire
