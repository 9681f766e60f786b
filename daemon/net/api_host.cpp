// The local API's HostRequest: a new room on this daemon, with the local player in a seat (or
// watching) and any computer players asked for. The reply waits for the disk helper to make the
// room's files (HostService::make_room); the loop goes on meanwhile.
#include "daemon/net/api_service.h"

namespace halma::daemon {

namespace pb = wire::pb;

void ApiService::handle_host(
    const std::string& client, const pb::Request& request, const Now& now) {
    const auto& h = request.host();
    auto mode = wire::mode_from_proto(h.mode());
    if (!mode) {
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST, mode.error().message);
        return;
    }
    int seats_left = mode->players - (h.spectate() ? 0 : 1);
    if (h.bots() > 0 && !bots_) {
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            "this halmad was built without computer players");
        return;
    }
    auto level = parse_bot_level(h.bot_level());
    if (!h.bot_level().empty() && !level) {
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            "bot level '" + h.bot_level() + "' is not easy, hard or max");
        return;
    }
    if (static_cast<int>(h.bots()) > seats_left) {
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            // Why, and how to have every seat a computer's (a room to watch).
            std::to_string(h.bots()) + " computers do not fit: a room of "
                + std::to_string(mode->players) + " players has "
                + (h.spectate() ? "only " + std::to_string(seats_left) + " seats"
                                : std::to_string(seats_left)
                            + " beside yours (hosted to watch, "
                              "with no seat of your own, every "
                              "seat may be a computer's)"));
        return;
    }
    // Unknown is refused, not taken as public: a front end asking for a kind of privacy this
    // daemon does not know would get a room listed on the LAN.
    if (!pb::Visibility_IsValid(h.visibility())) {
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            "unknown visibility " + std::to_string(h.visibility()) + ": public or friends");
        return;
    }
    auto visibility
        = h.visibility() == pb::VISIBILITY_FRIENDS ? Visibility::kFriends : Visibility::kPublic;
    auto deadline = deadline_of(request);
    host_.make_room(
        h.name(), visibility, *mode, static_cast<int>(h.bots()), deadline,
        [this, client, id = request.request_id(), spectate = h.spectate(),
            bots = static_cast<int>(h.bots()), level,
            deadline](Outcome<std::string> room_id, const Now& at) {
            if (!room_id) {
                // Past the deadline the room was not made, whatever stopped it.
                bool expired = deadline && PeerLinks::Clock::now() >= *deadline;
                reply_error(client, id,
                    expired ? pb::ERROR_CODE_EXPIRED : wire::to_proto(room_id.error().code),
                    room_id.error().message);
                return;
            }
            HostedRoom* room = host_.find(*room_id);
            if (!spectate) host_.local_join(*room, false, at);
            if (bots > 0) host_.add_bots(*room, bots, level, at);
            pb::Reply r;
            fill_view(Target { room, nullptr }, r.mutable_view());
            reply(client, id, r);
        },
        now);
}

} // namespace halma::daemon
