#include "cli/client/play_log.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace halma::cli {

std::vector<std::string> recent_chat(const ::halma::v1::RoomView& view, std::size_t count) {
    const auto& chat = view.chat();
    std::size_t n = std::min(count, static_cast<std::size_t>(chat.size()));
    std::vector<std::string> out;
    for (auto it = chat.end() - static_cast<int>(n); it != chat.end(); ++it)
        out.push_back(it->name() + ": " + it->text());
    return out;
}

std::string log_line(const ::halma::v1::Event& event, const ::halma::v1::RoomView& view) {
    const std::string& text = event.text();
    int seat = view.your_seat();
    if (seat < 0 || seat >= view.seats_size() || view.seats(seat).name().empty()) return text;
    const auto& mine = view.seats(seat);
    const auto& body = event.event();
    // What the daemon says as "NAME verb ..." and the viewer says as "you verb ...".
    auto as_yours = [&](const char* theirs, const char* yours) -> std::optional<std::string> {
        std::string said = mine.name() + theirs;
        if (text.rfind(said, 0) != 0) return std::nullopt;
        return yours + text.substr(said.size());
    };
    if (body.has_move() && body.move().seat() == seat)
        return as_yours(" played ", "you played ").value_or(text);
    if (body.has_vote() && mine.member() != 0 && body.vote().member() == mine.member()) {
        // "ann asks to take back their last move (o1-m7)" read to ann as "you ask to take back
        // your last move (o1-m7)"; "ann votes for a new game", "you vote for a new game".
        if (auto said = as_yours(" asks to take back their ", "you ask to take back your "))
            return *said;
        for (auto [theirs, yours] :
            { std::pair { " votes ", "you vote " }, std::pair { " agrees ", "you agree " } })
            if (auto said = as_yours(theirs, yours)) return *said;
    }
    return text;
}

} // namespace halma::cli
