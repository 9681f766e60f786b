// Text people typed (names, room names, chat) made safe to show in others' terminals and to put
// in a protobuf string, which must be valid UTF-8 or the message fails to parse at every peer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace halma::daemon {

// Control characters (C0, DEL, C1, and the bidi overrides and isolates that could make one
// name pass for another) become spaces, byte sequences that are not UTF-8 become U+FFFD, and
// the result is cut to at most `max_bytes` on a character boundary.
std::string sanitize_text(std::string_view text, std::size_t max_bytes = std::string::npos);

} // namespace halma::daemon
