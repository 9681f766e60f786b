#include "cli/client/missed_moves.h"

#include "engine/notation.h"
#include "engine/position.h"

#include <algorithm>
#include <array>

namespace halma::cli {

namespace {

// Who played a set's move made while the player was away, by the seats' sets: the player's own
// seat was played by the computer keeping it (the seat is theirs again now, so its name would
// say they played it); empty when no seat has the set.
std::string player_of(const pb::RoomView& view, engine::SetId set) {
    for (const auto& seat : view.seats())
        if (std::find(seat.sets().begin(), seat.sets().end(), set) != seat.sets().end())
            return seat.seat() == view.your_seat() ? "the computer keeping your seat" : seat.name();
    return "";
}

} // namespace

std::string last_move_words(const pb::RoomView& view) {
    if (view.moves_size() == 0 || view.game_number() == 0) return "";
    const std::string& text = view.moves(view.moves_size() - 1);
    if (text == "pass") return "last move: a pass";
    auto path = engine::parse_path(text);
    auto now = engine::Position::parse(view.position());
    if (!path || path->empty() || !now) return "";
    // The marble that moved is where the move ended.
    std::uint8_t piece = now->at(path->back());
    if (piece == engine::kEmpty || piece == engine::kFixed) return "last move: " + text;
    auto set = engine::set_of(piece);
    for (const auto& seat : view.seats())
        if (std::find(seat.sets().begin(), seat.sets().end(), set) != seat.sets().end())
            return "last move: "
                + (seat.seat() == view.your_seat() ? std::string("you") : seat.name()) + " played "
                + text;
    return "last move: " + text;
}

std::vector<std::string> missed_moves(
    const pb::RoomView& before, const pb::RoomView& after, int up_to) {
    if (before.summary().room_id() != after.summary().room_id()
        || before.game_number() != after.game_number())
        return {};
    int first = before.moves_size();
    int last = std::min(up_to, after.moves_size());
    if (last <= first) return {};
    auto start = engine::Position::parse(before.position());
    if (!start) return {};
    // Replayed on the holes alone: a swap (anti-spoiling) exchanges the two marbles, and a plain
    // move takes one to an empty hole, which an exchange does as well.
    std::array<std::uint8_t, engine::kCellNB> holes = start->pieces();
    std::vector<std::string> lines;
    int shown_from = std::max(first, last - kMissedMovesShown);
    if (shown_from > first)
        lines.push_back("meanwhile " + std::to_string(last - first)
            + " moves were played; the last " + std::to_string(last - shown_from) + ":");
    for (int i = first; i < last; ++i) {
        const std::string& text = after.moves(i);
        std::string line;
        if (text == "pass") {
            line = "meanwhile a player passed";
        } else {
            auto path = engine::parse_path(text);
            if (!path || path->size() < 2) return lines; // not ours to make sense of
            std::uint8_t piece = holes[path->front()];
            std::string who = piece != engine::kEmpty && piece != engine::kFixed
                ? player_of(after, engine::set_of(piece))
                : "";
            std::swap(holes[path->front()], holes[path->back()]);
            line = "meanwhile " + (who.empty() ? std::string("someone") : who) + " played " + text;
        }
        if (i >= shown_from) lines.push_back(line);
    }
    return lines;
}

} // namespace halma::cli
