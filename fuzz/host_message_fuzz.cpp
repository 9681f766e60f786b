// What a host (maybe a fake one) sends a guest daemon: read as PeerLinks reads it
// (wire::read_host_message), then a joined room's snapshot rebuilt as a replica
// (wire::state_from_proto), an update applied to a replica of a room with a game under way, and
// what a front end is then shown (the view, the summary, the event told in words).
#include "daemon/room/clean_text.h"
#include "daemon/wire/frames.h"
#include "fuzz_check.h"
#include "fuzz_room.h"

using namespace halma::fuzz;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;

namespace {

void show(const RoomState& state, MemberId me) {
    pb::RoomView view;
    wire::view(state, me, pb::CONNECTION_STATE_CONNECTED, "127.0.0.1:7460", &view);
    pb::RoomSummary summary;
    wire::summarize(state, "127.0.0.1:7460", true, &summary);
    // What the replica holds must be what it would hand on (a host that restarts from it).
    pb::Snapshot again;
    wire::to_proto(state, &again);
    if (auto back = wire::state_from_proto(again); !back)
        broken("a replica's own snapshot does not replay", back.error().message);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pb::HostMessage msg;
    if (wire::read_host_message(data, size, msg)) return 0;
    switch (msg.body_case()) {
    case pb::HostMessage::kError:
        sanitize_text(msg.error().message(), 500);
        break;
    case pb::HostMessage::kRooms:
        for (const auto& room : msg.rooms().rooms()) {
            sanitize_text(room.name(), kMaxRoomName);
            sanitize_text(room.host_player(), kMaxMemberName);
        }
        break;
    case pb::HostMessage::kJoined: {
        if (msg.joined().snapshot().after_seq() > 0) {
            RoomState replica = fuzz_room().state();
            for (const auto& sent : msg.joined().snapshot().events()) {
                auto e = wire::event_from_proto(sent);
                if (!e || replica.apply(*e)) break;
            }
            show(replica, msg.joined().member());
        } else if (auto state = wire::state_from_proto(msg.joined().snapshot())) {
            show(*state, msg.joined().member());
        }
        break;
    }
    case pb::HostMessage::kUpdate: {
        RoomState replica = fuzz_room().state();
        auto e = wire::event_from_proto(msg.update().event());
        if (e && e->seq > replica.seq() && !replica.apply(*e)) {
            wire::describe(replica, *e);
            show(replica, 1);
        }
        break;
    }
    default:
        break;
    }
    return 0;
}
