// How the parts that own rooms (hosted rooms, replicas) tell the local API what changed,
// without knowing anything about front ends.
#pragma once

#include "daemon/room/room_state.h"
#include "daemon/wire/codec.h"

namespace halma::daemon {

class RoomListener {
public:
    virtual ~RoomListener() = default;
    // `event` is the event just applied, or null when the room was rebuilt from a snapshot or
    // only the connection to its host changed. `me` is the local player's member in it.
    virtual void room_changed(const RoomState& state, const RoomEvent* event, MemberId me,
        wire::pb::ConnectionState connection)
        = 0;
    // Whether this daemon hosts the room of that id: a host's answer naming it is an
    // impostor's (a replica of it would stand beside the room itself, under the same id).
    virtual bool hosted_here(std::string_view) const { return false; }
};

} // namespace halma::daemon
