// Leaves owed to hosts: the user left a room while its host was out of reach (switched off, off
// the network, a cut link). The room is gone from this daemon at once; the host hears of the
// leave when it answers again, so that the seat goes to the next newcomer, as a leave promises.
// Before, the host was never told: it held the seat, then a computer kept it for a player who
// was not coming back, and no newcomer could have it; with another room of this daemon at the
// same host keeping the link up, the host even took the player for present, and the game waited
// on their turn for ever.
#include "daemon/net/peer_links.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

void PeerLinks::owe_leave(const Replica& r, const Now& now) {
    // Without a token (a join never answered) there is nothing the host could be told of.
    if (r.token.empty()) return;
    std::erase_if(owed_leaves_, [&](const OwedLeave& l) { return l.room_id == r.room_id; });
    if (owed_leaves_.size() >= kMaxReplicas) {
        spdlog::warn("more than {} leaves owed to hosts out of reach; the oldest ({}) is given up",
            kMaxReplicas, owed_leaves_.front().name);
        owed_leaves_.erase(owed_leaves_.begin());
    }
    std::string name = r.state ? r.state->config().name : r.name;
    owed_leaves_.push_back(OwedLeave { r.address, r.room_id, r.token, name, random_hex_id(),
        now.steady, now.steady + kOwedLeaveFor, false });
    spdlog::info("room {}: left while its host {} is out of reach; the host is told when it "
                 "answers again",
        name, r.address);
}

bool PeerLinks::owes_leave_to(const std::string& address) const {
    return std::any_of(owed_leaves_.begin(), owed_leaves_.end(),
        [&](const OwedLeave& l) { return l.address == address; });
}

void PeerLinks::deliver_owed_leaves(const Now& now) {
    std::size_t before = owed_leaves_.size();
    std::erase_if(owed_leaves_, [&](const OwedLeave& l) {
        if (l.in_flight || now.steady < l.give_up_at) return false;
        spdlog::warn("room {}: its host {} has not answered for a week; its leave is given up "
                     "(the host keeps the seat for this player)",
            l.name, l.address);
        return true;
    });
    for (auto& leave : owed_leaves_) {
        if (leave.in_flight || now.steady < leave.next_try) continue;
        std::string error;
        Link* link = link_for(leave.address, error);
        // A host whose key changed is refused until the user says otherwise (forget-host): the
        // leave waits for that, as the user's own commands do.
        if (!link || !link->rejection.empty()) {
            leave.next_try = now.steady + kOwedLeaveRetry;
            continue;
        }
        pb::PeerMessage msg;
        auto* command = msg.mutable_command();
        command->set_room_id(leave.room_id);
        command->set_token(leave.token);
        command->set_command_id(leave.command_id);
        command->mutable_leave();
        leave.in_flight = true;
        request(
            *link, std::move(msg),
            [this, room_id = leave.room_id](const pb::HostMessage& answer) {
                auto it = std::find_if(owed_leaves_.begin(), owed_leaves_.end(),
                    [&](const OwedLeave& l) { return l.room_id == room_id; });
                if (it == owed_leaves_.end()) return;
                it->in_flight = false;
                auto code = answer.has_error() ? answer.error().code() : pb::ERROR_CODE_UNSPECIFIED;
                // Not answered, or the host cannot take it now (its disk): tried again later.
                if (code == pb::ERROR_CODE_UNAVAILABLE) {
                    it->next_try = Clock::now() + kOwedLeaveRetry;
                    return;
                }
                if (answer.has_error())
                    log_host(spdlog::level::info,
                        "room {}: its host {} did not take the leave ({}); nothing is owed",
                        it->name, it->address, answer.error().message());
                else
                    spdlog::info("room {}: its host {} has the leave now", it->name, it->address);
                owed_leaves_.erase(it);
                save();
            },
            now);
    }
    if (owed_leaves_.size() != before) save();
}

} // namespace halma::daemon
