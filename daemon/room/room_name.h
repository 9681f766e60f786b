// A room's name as a player or a config file gives it, checked the same way wherever it comes
// from (halma host, the web page, a standing room in the config, halmad --check-config), so a
// config the check passes makes every room it describes.
#pragma once

#include "engine/result.h"

#include <string>
#include <string_view>

namespace halma::daemon {

// The name to use: made safe to show (sanitize_text: a newline becomes a space) and without
// spaces at either end, which no one sees in a list but everyone would have to type to join
// ("trail " is then found as "trail"). An error says why it cannot be a room's name.
engine::Result<std::string> room_name(std::string_view typed);

} // namespace halma::daemon
