// A member's commands seen again. A retry (the answer to the first send was lost or late) is
// answered as the first one was, and not carried out twice. A command id used again for another
// action is a front end's mistake (ids counted from 1 again after its restart, say): answering it
// as the first would say "left" for a leave never carried out, and the player's daemon would
// forget a room whose host still holds its seat. It is refused instead, naming the first action.
// Each member's last kKept ids, in memory only (docs/api.md, "Not twice").
#pragma once

#include "daemon/room/room_action.h"
#include "daemon/room/room_types.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace halma::daemon {

class RetriedCommands {
public:
    static constexpr std::size_t kKept = 64;

    // The answer for a command whose id the member used before: the first answer (nullopt
    // inside: it was done) for the same action, a refusal for another. Nullopt: a new id.
    std::optional<std::optional<Refusal>> answer_again(
        MemberId member, std::string_view id, const Action& action) const;
    void remember(MemberId member, std::string_view id, const Action& action,
        const std::optional<Refusal>& answer);
    void forget(MemberId member) { by_member_.erase(member); }
    std::size_t members() const { return by_member_.size(); }

private:
    struct Answered {
        std::string id;
        std::uint64_t digest = 0; // of the action, to tell a retry from another action
        std::string words; // the action, for the refusal of another under its id
        std::optional<Refusal> refusal;
    };
    std::map<MemberId, std::deque<Answered>> by_member_;
};

} // namespace halma::daemon
