// The boundary between protobuf and the room logic: halma.v1 messages to plain C++ and back,
// and the views a front end reads. Everything past this file works on daemon/room types only.
#pragma once

#include "daemon/room/room_authority.h"
#include "daemon/room/room_state.h"
#include "engine/result.h"
#include "halma/v1/api.pb.h"
#include "halma/v1/common.pb.h"
#include "halma/v1/peer.pb.h"

#include <optional>
#include <string>

namespace halma::daemon::wire {

namespace pb = ::halma::v1;

// The version this build speaks; field 1 of every envelope.
inline constexpr std::uint32_t kProtocolVersion = 1;

void to_proto(const RoomMode& mode, pb::RoomMode* out);
// A mode from a front end or a config file; refuses what the engine cannot play.
engine::Result<RoomMode> mode_from_proto(const pb::RoomMode& mode);

void to_proto(const RoomConfig& config, pb::RoomConfig* out);
engine::Result<RoomConfig> config_from_proto(const pb::RoomConfig& config);
// An id as a host makes them (room ids, seat tokens): 1 to 64 letters, digits, '_' or '-'.
// What a host sends is checked against it before it names a file's line or a room here.
bool plain_id(std::string_view text);

void to_proto(const RoomEvent& event, pb::RoomEvent* out);
engine::Result<RoomEvent> event_from_proto(const pb::RoomEvent& event);

// A room's snapshot (its config and log) and the room a replica rebuilds from one.
// Only the events after `after` (and sets after_seq), when the room still has every one of
// them unfolded; false (and nothing written) when it does not: send the whole room then.
bool to_proto_after(const RoomState& state, std::uint64_t after, pb::Snapshot* out);
void to_proto(const RoomState& state, pb::Snapshot* out);
engine::Result<RoomState> state_from_proto(const pb::Snapshot& snapshot);

pb::ErrorCode to_proto(Refusal::Code code);
pb::GameEnd to_proto(engine::GameEnd end);
pb::Phase to_proto(Phase phase);
pb::VoteKind to_proto(VoteKind kind);
// A kind this daemon does not know is taken as a new-game vote, as before VOTE_KIND_LEADER.
VoteKind vote_kind_from_proto(pb::VoteKind kind);
void set_error(pb::Error* out, pb::ErrorCode code, std::string message);

void summarize(
    const RoomState& state, const std::string& address, bool with_code, pb::RoomSummary* out);
// Everything a front end shows, as seen by `me` (kNoMember: an onlooker).
void view(const RoomState& state, MemberId me, pb::ConnectionState connection,
    const std::string& address, pb::RoomView* out);

// The member an event is about (joined, left, connection, chat, vote); none for the others.
std::optional<MemberId> member_of(const RoomEvent& event);

// The event told for a person: "ann played o1-m3-m7". `state` is the room after the event.
std::string describe(const RoomState& state, const RoomEvent& event);

} // namespace halma::daemon::wire
