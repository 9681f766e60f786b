// Reading one message off a socket safely: exactly one frame, within the size limit, parsable,
// of the version this daemon speaks. Anything else becomes the error to send back.
#pragma once

#include "daemon/wire/codec.h"

#include <cstddef>
#include <cstdint>
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

// The request id (field 2 of every envelope) the bytes carry, read without parsing them: for
// the refusal of a message that cannot be taken (too large, sent with other frames), so that it
// reaches the request it answers. 0 when they carry none.
std::uint64_t request_id_of(const void* data, std::size_t size);

// The same checks for what a host sends a peer: the body's size for its kind, parse and version.
// A message is parsed whole, and parsed it can take 40 to 80 times its size (a heartbeat of 8 MiB
// of empty room entries took 340 MB): each kind but a snapshot is held to what a host makes of
// it before it is parsed (kMaxHostBody).
std::optional<Rejection> read_host_message(
    const void* data, std::size_t size, pb::HostMessage& out);
// The largest body of a kind a host sends (HostMessage field numbers), beside the link's limit
// for a whole message (a snapshot, 64 MiB): a room list of 256 rooms, an update of one event, a
// heartbeat of a peer's rooms, an error, an ack.
inline constexpr std::size_t kMaxHostRoomList = 1u << 20;
inline constexpr std::size_t kMaxHostUpdate = 64u << 10;
inline constexpr std::size_t kMaxHostHeartbeat = 256u << 10;
inline constexpr std::size_t kMaxHostSmallBody = 16u << 10;
// A snapshot's events: a folded room's 2,000 at most, and the current game's moves, at most six
// players' move limit (100,000 each). Past it a snapshot is not parsed: its events, however few
// bytes each, took some 80 bytes apiece.
inline constexpr std::size_t kMaxHostSnapshotEvents = 2'000 + 6 * 100'000;

} // namespace halma::daemon::wire
