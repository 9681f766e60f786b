// A front end's ActionRequest (the local API) as the room action it asks for: one reading, used by
// the daemon and by the fuzz target that checks what any request can make of a room.
#pragma once

#include "daemon/room/room_authority.h"
#include "halma/v1/api.pb.h"

namespace halma::daemon {

Action action_from(const ::halma::v1::ActionRequest& request);

} // namespace halma::daemon
