// Taking back a move: a player asks (VOTE_KIND_TAKE_BACK) to take back their own last move of the
// game being played, and once every other person present in a seat agrees (computers always do,
// so against computers it is at once) the host takes it back with every move after it: one
// MovesTakenBack event, which every replica and the log's replay apply the same way. For a child
// who typed a legal move they did not mean.
#include "daemon/room/room_authority.h"

namespace halma::daemon {

namespace {

// A member asks at most once in this while: a family never notices, and a take-back asked again
// and again (each a replay of the game, a few ms at most) costs the host well under 1% of a core.
constexpr std::chrono::seconds kTakeBackGap { 2 };

} // namespace

std::optional<Refusal> RoomAuthority::take_back_refusal(const Member& m, const Now& now) {
    auto refuse = [](std::string message) {
        return Refusal { Refusal::Code::kBadRequest, std::move(message) };
    };
    switch (state_.phase()) {
    case Phase::kWaiting:
        return refuse("no game is being played: a move is taken back during a game");
    case Phase::kOver:
        return refuse("the game is over: its moves stand");
    case Phase::kCancelled:
        return refuse("the game was cancelled: there is nothing to take back");
    case Phase::kClosed:
        return refuse("the room has been closed");
    case Phase::kPlaying:
        break;
    }
    // Asking needs a move of one's own; agreeing to another's asking does not.
    MemberId asker = state_.take_back_asker();
    if (asker != kNoMember && asker != m.id) return std::nullopt;
    if (!state_.last_own_move(m.id))
        return refuse("you have made no move of your own in this game to take back (a pass, or a "
                      "move the computer made for you, is not taken back)");
    if (state_.votes(VoteKind::kTakeBack).count(m.id)) return std::nullopt; // asked already
    auto& allowed_at = take_back_allowed_at_[m.id];
    if (now.steady < allowed_at)
        return refuse("you took back a move a moment ago: ask again in a second or two");
    allowed_at = now.steady + kTakeBackGap;
    return std::nullopt;
}

void RoomAuthority::settle_take_back(bool agreed, const Now& now) {
    if (state_.phase() != Phase::kPlaying || !agreed) return;
    MemberId asker = state_.take_back_asker();
    auto at = state_.last_own_move(asker);
    if (asker == kNoMember || !at) return;
    std::size_t count = state_.game()->history().size() - *at;
    emit(event::MovesTakenBack { static_cast<std::uint32_t>(count) }, now);
}

} // namespace halma::daemon
