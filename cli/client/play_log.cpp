#include "cli/client/play_log.h"

#include <algorithm>

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
    if (!event.event().has_move() || seat < 0 || seat >= view.seats_size()
        || event.event().move().seat() != seat)
        return text;
    std::string mine = view.seats(seat).name() + " played ";
    if (view.seats(seat).name().empty() || text.rfind(mine, 0) != 0) return text;
    return "you played " + text.substr(mine.size());
}

} // namespace halma::cli
