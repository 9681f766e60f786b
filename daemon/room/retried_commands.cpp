#include "daemon/room/retried_commands.h"

#include <functional>
#include <type_traits>

namespace halma::daemon {

namespace {

// The action's kind and everything in it: equal for a retry, unequal for another action.
std::uint64_t digest_of(const Action& action) {
    std::string key = std::to_string(action.index()) + ':';
    std::visit(
        [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, action::Move> || std::is_same_v<A, action::Chat>)
                key += a.text;
            else if constexpr (std::is_same_v<A, action::Vote>)
                key += std::to_string(static_cast<int>(a.kind));
            else if constexpr (std::is_same_v<A, action::Start>)
                key += a.level ? std::to_string(static_cast<int>(*a.level)) : "-";
        },
        action);
    return std::hash<std::string> {}(key);
}

// "a move (n3-m7)", for the refusal of another action sent under the same id.
std::string words_of(const Action& action) {
    constexpr std::size_t kMoveShown = 24; // a full path can be long
    if (auto* move = std::get_if<action::Move>(&action))
        return "a move (" + move->text.substr(0, kMoveShown)
            + (move->text.size() > kMoveShown ? "..." : "") + ")";
    if (std::holds_alternative<action::Chat>(action)) return "a chat line";
    if (std::holds_alternative<action::Vote>(action)) return "a vote";
    if (std::holds_alternative<action::Leave>(action)) return "leaving the room";
    return "a start with computer players";
}

} // namespace

std::optional<std::optional<Refusal>> RetriedCommands::answer_again(
    MemberId member, std::string_view id, const Action& action) const {
    auto it = by_member_.find(member);
    if (it == by_member_.end()) return std::nullopt;
    for (const auto& a : it->second) {
        if (a.id != id) continue;
        if (a.digest == digest_of(action)) return a.refusal;
        return std::optional<Refusal>(Refusal { Refusal::Code::kBadRequest,
            "this request's key (request_key) was used before for another request, " + a.words
                + ": give each new request a key of its own" });
    }
    return std::nullopt;
}

void RetriedCommands::remember(MemberId member, std::string_view id, const Action& action,
    const std::optional<Refusal>& answer) {
    auto& answered = by_member_[member];
    if (answered.size() == kKept) answered.pop_front();
    answered.push_back({ std::string(id), digest_of(action), words_of(action), answer });
}

} // namespace halma::daemon
