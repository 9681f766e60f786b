// What a peer sends a host's peer port: read as HostService reads it (wire::read_envelope), then
// a join or a command carried out on a room with a game under way, as HostService does, through
// the room's own checks (names, tokens, moves, chat, votes). Whatever the room accepts must come
// back out as events and a snapshot that a guest accepts.
#include "daemon/wire/frames.h"
#include "fuzz_check.h"
#include "fuzz_room.h"

using namespace halma::fuzz;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;

namespace {

constexpr std::size_t kMaxMessage = 64 * 1024; // halmad's default --max-message
constexpr std::size_t kMaxCommandId = 64; // HostService's bound

std::optional<Action> action_of(const pb::RoomCommand& command) {
    switch (command.action_case()) {
    case pb::RoomCommand::kMove:
        return action::Move { command.move() };
    case pb::RoomCommand::kChat:
        return action::Chat { command.chat() };
    case pb::RoomCommand::kVote:
        return action::Vote { wire::vote_kind_from_proto(command.vote()) };
    case pb::RoomCommand::kLeave:
        return action::Leave {};
    case pb::RoomCommand::kStart: {
        const std::string& level = command.start().bot_level();
        if (!level.empty() && !parse_bot_level(level)) return std::nullopt;
        return action::Start { parse_bot_level(level) };
    }
    default:
        return std::nullopt;
    }
}

// Every event the host makes goes to each guest, which must take it.
void send_out(RoomAuthority& room) {
    for (const RoomEvent& e : room.take_events()) {
        pb::RoomEvent sent;
        wire::to_proto(e, &sent);
        auto back = wire::event_from_proto(sent);
        if (!back) broken("a guest refuses an event the host made", back.error().message);
        wire::describe(room.state(), e);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pb::PeerMessage msg;
    if (wire::read_envelope(data, size, kMaxMessage, msg)) return 0;
    RoomAuthority room = fuzz_room();
    const Now now = fuzz_now(1000);
    if (msg.has_join()) {
        const auto& join = msg.join();
        auto ticket = room.join(join.name(), join.token(), join.spectate(), now);
        if (ticket) {
            pb::Snapshot snapshot;
            if (!ticket->rejoined
                || !wire::to_proto_after(room.state(), join.since_seq(), &snapshot))
                wire::to_proto(room.state(), &snapshot);
            if (snapshot.after_seq() == 0)
                if (auto state = wire::state_from_proto(snapshot); !state)
                    broken("a guest refuses the host's snapshot", state.error().message);
        }
    } else if (msg.has_command()) {
        const auto& command = msg.command();
        auto action = action_of(command);
        if (action && command.command_id().size() <= kMaxCommandId)
            room.act(command.token(), *action, now, command.command_id());
    }
    send_out(room);
    // Later: held seats run out, votes and stand-ins time out.
    room.tick(fuzz_now(10 * 60 * 1000));
    send_out(room);
    return 0;
}
