// The local API's requests that change a room: actions (move, chat, vote, leave, start), for a
// room this daemon hosts or one it has joined elsewhere, and closing a hosted room.
#include "daemon/net/action_request.h"
#include "daemon/net/api_service.h"
#include "daemon/room/secrets.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

// Done.detail for an accepted action.
std::string done_text(const pb::ActionRequest& a) {
    switch (a.action_case()) {
    case pb::ActionRequest::kMove:
        return "moved " + a.move();
    case pb::ActionRequest::kChat:
        return "said it";
    case pb::ActionRequest::kVote:
        return a.vote() == pb::VOTE_KIND_CANCEL   ? "voted to cancel"
            : a.vote() == pb::VOTE_KIND_LEADER    ? "voted to turn the leader display"
            : a.vote() == pb::VOTE_KIND_TAKE_BACK ? "voted to take back a move"
                                                  : "voted for a new game";
    case pb::ActionRequest::kLeave:
        return "left";
    default:
        return "started with computer players in the free seats";
    }
}

} // namespace

void ApiService::handle_action(
    const std::string& client, const pb::Request& request, const Now& now) {
    const auto& a = request.action();
    std::uint64_t id = request.request_id();
    if (a.action_case() == pb::ActionRequest::ACTION_NOT_SET) {
        reply_error(client, id, pb::ERROR_CODE_MALFORMED, "an action request with no action");
        return;
    }
    // An unknown kind (a front end built on a newer .proto) is refused: it counted as a vote
    // for a new game.
    if (a.action_case() == pb::ActionRequest::kVote && !pb::VoteKind_IsValid(a.vote())) {
        reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
            "unknown vote kind " + std::to_string(a.vote())
                + ": new game, cancel, leader or take back");
        return;
    }
    if (a.has_start() && !a.start().bot_level().empty()
        && !parse_bot_level(a.start().bot_level())) {
        reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
            "bot level '" + a.start().bot_level() + "' is not easy, hard or max");
        return;
    }
    auto target = resolve(a.room());
    if (auto* error = std::get_if<std::string>(&target)) {
        reply_error(client, id, pb::ERROR_CODE_UNKNOWN_ROOM, *error);
        return;
    }
    auto& t = std::get<Target>(target);
    std::string detail = done_text(a);
    if (t.hosted) {
        std::string room_id = t.hosted->authority.state().id();
        if (auto refusal = host_.local_act(*t.hosted, action_from(a), now, request.request_key())) {
            reply_error(client, id, wire::to_proto(refusal->code), refusal->message);
            return;
        }
        pb::Reply r;
        r.mutable_done()->set_room_id(room_id);
        r.mutable_done()->set_detail(detail);
        reply(client, id, r);
        return;
    }
    pb::RoomCommand command;
    switch (a.action_case()) {
    case pb::ActionRequest::kMove:
        command.set_move(a.move());
        break;
    case pb::ActionRequest::kChat:
        command.set_chat(a.chat());
        break;
    case pb::ActionRequest::kVote:
        command.set_vote(a.vote());
        break;
    case pb::ActionRequest::kLeave:
        command.mutable_leave();
        break;
    default:
        *command.mutable_start() = a.start();
        break;
    }
    // The host knows a retry by this id. Without a key from the front end each request is its
    // own command: then only our own resends could repeat it, and those the id also catches.
    command.set_command_id(request.request_key().empty() ? random_hex_id() : request.request_key());
    std::string room_id = t.replica->room_id;
    if (a.has_leave() && t.replica->connection != pb::CONNECTION_STATE_CONNECTED)
        detail = "left; its host (" + t.replica->address
            + ") is out of reach, so this daemon forgets the room now and tells the host when "
              "it answers again: your seat then goes to the next to join, a computer playing it "
              "until then";
    peers_.act(
        room_id, std::move(command),
        [this, client, id, room_id, detail](const pb::HostMessage& answer) {
            if (answer.has_error()) {
                reply_error(client, id, answer.error().code(), answer.error().message());
                return;
            }
            pb::Reply r;
            r.mutable_done()->set_room_id(room_id);
            r.mutable_done()->set_detail(detail);
            reply(client, id, r);
        },
        now, deadline_of(request));
}

void ApiService::handle_close(
    const std::string& client, const pb::Request& request, const Now& now) {
    std::uint64_t id = request.request_id();
    // Only a room hosted here can be closed: a name it shares with a room joined elsewhere is
    // this one (the joined room was picked, and its host alone could close it). With no such
    // room here, all are looked at, for the error that says where the room is. No name is the
    // one room the user is in, as for every command (not the one hosted here: a standing room
    // would go for a `halma close` typed in a room joined elsewhere).
    const std::string& room = request.close().room();
    auto target = room.empty() ? resolve(room) : resolve(room, Among::kHosted);
    if (std::holds_alternative<std::string>(target) && !room.empty()) target = resolve(room);
    if (auto* error = std::get_if<std::string>(&target)) {
        reply_error(client, id, pb::ERROR_CODE_UNKNOWN_ROOM, *error);
        return;
    }
    auto& t = std::get<Target>(target);
    if (!t.hosted) {
        std::string name = t.replica->state ? t.replica->state->config().name : t.replica->room_id;
        reply_error(client, id, pb::ERROR_CODE_NOT_ALLOWED,
            "room " + name + " is hosted at " + t.replica->address
                + ": only its host can close it (leave gives up your seat)");
        return;
    }
    std::string room_id = t.hosted->authority.state().id();
    std::string name = t.hosted->authority.state().config().name;
    if (auto refused = host_.close_room(*t.hosted, now)) {
        reply_error(client, id, pb::ERROR_CODE_UNAVAILABLE, *refused);
        return;
    }
    pb::Reply r;
    r.mutable_done()->set_room_id(room_id);
    r.mutable_done()->set_detail("closed room " + name);
    reply(client, id, r);
}

} // namespace halma::daemon
