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

// A person's name as others see it, so that two names that look alike are alike here too: as
// sanitize_text, then characters shown as nothing (zero-width space and joiners, soft hyphen,
// byte-order mark) left out, every kind of space a plain one, runs of them one, none at either
// end. "ann" followed by a zero-width space passed the duplicate check and read as the host's
// player (a red-team QA pass). Letters from other scripts that look like Latin ones (Cyrillic
// "а") are not told apart: that needs Unicode's confusables table.
std::string clean_name(std::string_view name, std::size_t max_bytes = std::string::npos);

} // namespace halma::daemon
