// What the local player asks of a host through this daemon: its rooms listed, a room joined (a
// rejoin when this daemon is in it already), a command in a joined room. Each answer is checked
// before the player hears it: a host answers for the room asked, with the kind of answer asked.
#include "daemon/net/peer_links.h"
#include "daemon/room/secrets.h"
#include "daemon/trust/key_probe.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

// No link to the host (an address that is not one, too many hosts): said as the host would.
pb::HostMessage bad_request(const std::string& why) {
    pb::HostMessage reply;
    wire::set_error(reply.mutable_error(), pb::ERROR_CODE_BAD_REQUEST, why);
    return reply;
}

} // namespace

void PeerLinks::list_rooms(
    const std::string& address, Reply done, const Now& now, Deadline deadline) {
    std::string error;
    Link* link = link_for(address, error);
    if (!link) return done(bad_request(error));
    retry_refused(*link); // the user asks again: the host's key is asked for again too
    pb::PeerMessage msg;
    msg.mutable_list_rooms();
    request(
        *link, std::move(msg),
        [address, done = std::move(done)](const pb::HostMessage& reply) {
            // Anything but a list or an error is no answer ("no public rooms at ..." and exit 0
            // were printed), and an error with neither code nor word printed a bare "halma:".
            if (reply.has_rooms() || (reply.has_error() && !reply.error().message().empty())) {
                done(reply);
                return;
            }
            pb::HostMessage said;
            wire::set_error(said.mutable_error(), pb::ERROR_CODE_UNAVAILABLE,
                reply.has_error()
                    ? "the host at " + address + " refused, and said nothing of why"
                    : "the host at " + address + " answered the listing with something else");
            done(said);
        },
        now, deadline);
}

void PeerLinks::join(const std::string& address, const std::string& room, bool spectate, Reply done,
    const Now& now, Deadline deadline) {
    std::string error;
    Link* link = link_for(address, error);
    if (!link) return done(bad_request(error));
    retry_refused(*link); // the user asks again: the host's key is asked for again too
    // A friends code names the host's key (its last 16 digits are the key's fingerprint): only
    // that host may have the room, not whoever answers at the address. A join by name asks
    // nothing of the key but its pin (a code joined with before, or mistyped, refused the
    // host's public rooms too).
    link->expected_digits.clear();
    if (std::string code = normalize_code(room); code.size() == kFriendsCodeWithKey && identity_) {
        std::string digits = code.substr(kFriendsCodeWithKey - kFriendsKeyDigits);
        link->expected_digits = digits;
        // The key last heard is not the code's: the host may have a new one since (a code
        // re-issued for it was refused for ~15 s after the host's restart, by its old key).
        // It is asked again, and the answer checked against the code.
        if (!link->host_key.empty() && fingerprint_digits(link->host_key).rfind(digits, 0) != 0)
            reprobe(*link);
    }
    pb::PeerMessage msg;
    auto* join = msg.mutable_join();
    join->set_room(room);
    join->set_name(config_.name);
    join->set_spectate(spectate);
    // Joining a room we are already in is a rejoin: same member, same seat.
    if (Replica* known = find(room); known && known->address == address) {
        if (auto why = known->state ? role_change_refusal(*known->state, known->me, spectate)
                                    : std::nullopt) {
            pb::HostMessage reply;
            wire::set_error(reply.mutable_error(), pb::ERROR_CODE_NOT_ALLOWED, *why);
            done(reply);
            return;
        }
        join->set_token(known->token);
    }
    request(
        *link, std::move(msg),
        [this, address, done = std::move(done)](const pb::HostMessage& reply) {
            if (reply.has_error()) {
                done(reply);
                return;
            }
            // Anything else is no answer to a join: "joined" was printed, and nothing was.
            if (!reply.has_joined()) {
                done(unavailable("the host at " + address
                    + " answered the join with something else; nothing was joined"));
                return;
            }
            std::string room_id = reply.joined().snapshot().config().room_id();
            // A room of another host, or one hosted here, is never this host's to answer
            // with: it took over (or, with a snapshot that did not replay, deleted) the
            // replica of a room at another host, found by its id or even its name.
            Replica* r = nullptr;
            for (auto& known : replicas_)
                if (known->room_id == room_id) r = known.get();
            if ((r && r->address != address) || listener_.hosted_here(room_id)) {
                log_host(spdlog::level::warn,
                    "host {} answered a join with the id of a room {}; not joined", address,
                    r ? "at " + r->address : std::string("hosted here"));
                done(unavailable("the host at " + address
                    + " answered with the id of a room it does not host; nothing was joined"));
                return;
            }
            if (!r && replicas_.size() >= kMaxReplicas) {
                done(unavailable("this daemon is in " + std::to_string(kMaxReplicas)
                    + " joined rooms already: leave one first"));
                return;
            }
            if (r) {
                if (!adopt(*r, reply.joined())) {
                    forget(room_id);
                    done(unavailable("the host's snapshot of the room does not replay here"));
                    return;
                }
            } else {
                // Kept only once it replays: a replica with no room id stayed behind, and
                // rejoined the host for "its only room" at every heartbeat.
                auto fresh = std::make_unique<Replica>();
                fresh->address = address;
                if (!adopt(*fresh, reply.joined())) {
                    done(unavailable("the host's snapshot of the room does not replay here"));
                    return;
                }
                replicas_.push_back(std::move(fresh));
                save();
            }
            done(reply);
        },
        now, deadline);
}

void PeerLinks::act(const std::string& room_id, pb::RoomCommand command, Reply done, const Now& now,
    Deadline deadline) {
    Replica* r = find(room_id);
    if (r && command.has_leave() && r->connection != pb::CONNECTION_STATE_CONNECTED) {
        // A host that is gone (switched off, gone home, its key reset) cannot be told now, and
        // the room would stay here for good, each front end command asking which room it means:
        // the replica goes at once, and the host is told when it answers again. Forgotten
        // without a word, it held the seat for good: a computer kept it for a player who had
        // left, and no newcomer could have it (or, the link kept up by another room there, the
        // game waited on the player's turn for ever).
        owe_leave(*r, now);
        forget(r->room_id);
        pb::HostMessage left;
        left.set_version(wire::kProtocolVersion);
        left.mutable_ack();
        done(left);
        return;
    }
    std::string error;
    Link* link = r ? link_for(r->address, error) : nullptr;
    if (!r || !link || r->me == kNoMember || r->connection != pb::CONNECTION_STATE_CONNECTED) {
        done(unavailable(!r || r->connection == pb::CONNECTION_STATE_CONNECTED
                ? "not a member of that room"
                : link && !link->rejection.empty()
                // Not a passing drop: say what the user must do (its host's key changed).
                ? "not connected to the host of this room: " + link->rejection
                : "not connected to the host of this room (reconnecting)"));
        return;
    }
    bool leaving = command.has_leave();
    command.set_room_id(r->room_id);
    command.set_token(r->token);
    pb::PeerMessage msg;
    *msg.mutable_command() = std::move(command);
    request(
        *link, std::move(msg),
        [this, room_id = r->room_id, leaving, done = std::move(done)](
            const pb::HostMessage& reply) {
            if (leaving && reply.has_ack()) forget(room_id);
            // No answer, made up here (a host's own answer carries the request's id): the host
            // went away in the moments before this daemon noticed (its peer timeout). A leave
            // is still done at once, as it is once the host is known to be gone, and the host
            // is told when it answers again; it was refused, "try again", for those seconds.
            Replica* replica = find(room_id);
            if (leaving && replica && reply.has_error() && reply.request_id() == 0
                && reply.error().code() == pb::ERROR_CODE_UNAVAILABLE) {
                owe_leave(*replica, Now::current());
                forget(room_id);
                pb::HostMessage left;
                left.set_version(wire::kProtocolVersion);
                left.mutable_ack();
                done(left);
                return;
            }
            done(reply);
        },
        now, deadline);
}

} // namespace halma::daemon
