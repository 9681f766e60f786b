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

} // namespace halma::cli
