// What a front end sends the local API socket: read as ApiService reads it
// (wire::read_envelope), then what the request carries checked as the daemon checks it: a new
// room's mode and bot level, a host's address, and an action done by the local player (ann) in
// a room with a game under way.
#include "daemon/net/config.h"
#include "daemon/wire/frames.h"
#include "fuzz_check.h"
#include "fuzz_room.h"

using namespace halma::fuzz;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;

namespace {

constexpr std::size_t kMaxMessage = 64 * 1024; // halmad's default --max-message

Action action_of(const pb::ActionRequest& a) {
    switch (a.action_case()) {
    case pb::ActionRequest::kMove:
        return action::Move { a.move() };
    case pb::ActionRequest::kChat:
        return action::Chat { a.chat() };
    case pb::ActionRequest::kVote:
        return action::Vote { wire::vote_kind_from_proto(a.vote()) };
    case pb::ActionRequest::kLeave:
        return action::Leave {};
    default:
        return action::Start { parse_bot_level(a.start().bot_level()) };
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pb::Request request;
    if (wire::read_envelope(data, size, kMaxMessage, request)) return 0;
    switch (request.body_case()) {
    case pb::Request::kHost: {
        const auto& host = request.host();
        parse_bot_level(host.bot_level());
        if (auto mode = wire::mode_from_proto(host.mode())) {
            if (auto why = mode->invalid()) broken("mode_from_proto let an invalid mode by", *why);
            RoomConfig config;
            config.room_id = kRoomId;
            config.name = host.name();
            config.mode = *mode;
            RoomAuthority room(config, {}, 1);
            room.join("ann", "", host.spectate(), fuzz_now());
        }
        break;
    }
    case pb::Request::kList:
        tcp_endpoint(request.list().address());
        break;
    case pb::Request::kJoin:
        tcp_endpoint(request.join().address());
        break;
    case pb::Request::kAction: {
        RoomAuthority room = fuzz_room();
        room.act(kAnnToken, action_of(request.action()), fuzz_now(1000), request.request_key());
        for (const RoomEvent& e : room.take_events()) {
            pb::RoomEvent sent;
            wire::to_proto(e, &sent);
            if (auto back = wire::event_from_proto(sent); !back)
                broken("a guest refuses an event the host made", back.error().message);
        }
        break;
    }
    default:
        break;
    }
    return 0;
}
