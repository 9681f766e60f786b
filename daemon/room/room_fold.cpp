#include "daemon/room/room_fold.h"

#include <algorithm>
#include <map>
#include <optional>

namespace halma::daemon {

namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };

// One stay of a member in the room: from its MemberJoined to its MemberLeft (if it left). A
// member id can have several (a player taking a seat back from the computer that stood in).
struct Stay {
    std::size_t joined = 0;
    std::optional<std::size_t> left;
};

} // namespace

std::vector<RoomEvent> fold_log(const std::vector<RoomEvent>& log, std::size_t recent) {
    const std::size_t n = log.size();
    const std::size_t tail = n > recent ? n - recent : 0; // kept whole from here
    std::vector<bool> keep(n, false);
    std::vector<Stay> stays;
    std::vector<std::size_t> stay_of(n, SIZE_MAX); // the stay an event belongs to
    std::map<MemberId, std::size_t> current; // member -> its stay, while it is in the room
    std::vector<std::size_t> chats;
    std::optional<std::size_t> last_started; // before the tail: the game the tail goes on with
    std::map<MemberId, std::size_t> last_connection; // per present member, before the tail
    std::vector<std::size_t> votes; // since the last GameStarted/GameCancelled before the tail
    // The take-back votes still open before the tail, the asker's first: those since the last
    // move (a move, a take-back, a new or cancelled game, the asker leaving clears them). Kept
    // apart from `votes`, so that a replay never makes one who only agreed the asker.
    std::vector<std::size_t> take_back_votes;
    MemberId take_back_asker = kNoMember;
    // The last LeaderDisplay of that game (SIZE_MAX: none; an optional here drew a false
    // -Wmaybe-uninitialized from GCC 12 into every build's output, the quick start's too).
    std::size_t last_display = SIZE_MAX;
    MemberId highest = kNoMember;
    std::size_t highest_stay = SIZE_MAX;

    auto belongs = [&](std::size_t i, MemberId m) {
        if (auto it = current.find(m); it != current.end()) stay_of[i] = it->second;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const bool before_tail = i < tail;
        std::visit(Overloaded {
                       [&](const event::MemberJoined& e) {
                           stays.push_back(Stay { i, std::nullopt });
                           current[e.member] = stays.size() - 1;
                           stay_of[i] = stays.size() - 1;
                           if (highest == kNoMember || e.member > highest)
                               highest = e.member, highest_stay = stays.size() - 1;
                       },
                       [&](const event::MemberLeft& e) {
                           belongs(i, e.member);
                           if (auto it = current.find(e.member); it != current.end()) {
                               stays[it->second].left = i;
                               current.erase(it);
                           }
                           if (before_tail) last_connection.erase(e.member);
                           if (before_tail && e.member == take_back_asker)
                               take_back_votes.clear(), take_back_asker = kNoMember;
                       },
                       [&](const event::Connection& e) {
                           belongs(i, e.member);
                           if (before_tail) last_connection[e.member] = i;
                       },
                       [&](const event::Chat& e) {
                           belongs(i, e.member);
                           chats.push_back(i);
                       },
                       [&](const event::GameStarted&) {
                           if (!before_tail) return;
                           last_started = i;
                           votes.clear();
                           take_back_votes.clear();
                           take_back_asker = kNoMember;
                           last_display = SIZE_MAX;
                       },
                       [&](const event::MovePlayed&) {
                           if (before_tail) take_back_votes.clear(), take_back_asker = kNoMember;
                       },
                       [&](const event::MovesTakenBack&) {
                           if (before_tail) take_back_votes.clear(), take_back_asker = kNoMember;
                       },
                       [&](const event::VoteCast& e) {
                           belongs(i, e.member);
                           if (!before_tail) return;
                           if (e.kind != VoteKind::kTakeBack) return votes.push_back(i);
                           if (take_back_votes.empty()) take_back_asker = e.member;
                           take_back_votes.push_back(i);
                       },
                       [&](const event::GameCancelled&) {
                           if (before_tail) votes.clear();
                           if (before_tail) take_back_votes.clear(), take_back_asker = kNoMember;
                       },
                       [&](const event::RoomClosed&) {},
                       [&](const event::LeaderDisplay&) {
                           if (before_tail) last_display = i;
                       },
                   },
            log[i].body);
        if (i + 1 == tail) {
            // What the room is as the tail begins: its members (and how they are connected),
            // their votes that still count, and the game being played.
            for (const auto& [m, stay] : current) keep[stays[stay].joined] = true;
            for (const auto& [m, at] : last_connection) keep[at] = true;
            if (last_display != SIZE_MAX) keep[last_display] = true;
            for (const auto* list : { &votes, &take_back_votes })
                for (std::size_t at : *list) // a member's leaving took its vote with it
                    if (!stays[stay_of[at]].left) keep[at] = true;
            if (last_started)
                for (std::size_t j = *last_started; j < tail; ++j)
                    if (std::holds_alternative<event::GameStarted>(log[j].body)
                        || std::holds_alternative<event::MovePlayed>(log[j].body)
                        || std::holds_alternative<event::MovesTakenBack>(log[j].body)
                        || std::holds_alternative<event::GameCancelled>(log[j].body))
                        keep[j] = j == *last_started
                            || !std::holds_alternative<event::GameStarted>(log[j].body);
        }
    }
    for (std::size_t i = tail; i < n; ++i) keep[i] = true;
    std::size_t window = 0;
    for (auto it = chats.rbegin(); it != chats.rend() && window < kChatWindow; ++it, ++window)
        keep[*it] = true;
    // Member ids are never reused: the highest one stays in the log, for a restarted host.
    if (highest_stay != SIZE_MAX) keep[stays[highest_stay].joined] = true;
    // A kept event of a stay needs the stay's MemberJoined before it and, if the member left,
    // its MemberLeft after it: whole stays keep seats and ids as they were at every point.
    for (std::size_t i = 0; i < n; ++i)
        if (keep[i] && stay_of[i] != SIZE_MAX) keep[stays[stay_of[i]].joined] = true;
    for (const Stay& s : stays)
        if (keep[s.joined] && s.left) keep[*s.left] = true;
    std::vector<RoomEvent> out;
    for (std::size_t i = 0; i < n; ++i)
        if (keep[i]) out.push_back(log[i]);
    return out;
}

} // namespace halma::daemon
