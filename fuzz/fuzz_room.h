// The room the message fuzzers act on: two seated players, ann and bob, a game under way, and
// seat tokens fixed (not random), so that a corpus entry naming a token means the same member on
// every run. Built once; each input gets a copy.
#pragma once

#include "daemon/room/room_authority.h"

#include <string_view>

namespace halma::fuzz {

using namespace halma::daemon;

inline constexpr std::string_view kRoomId = "00112233445566778899aabbccddeeff";
inline constexpr std::string_view kAnnToken = "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0";
inline constexpr std::string_view kBobToken = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";

// A fixed instant plus `ms`: a fuzz run never reads the clock, so an input does the same each time.
Now fuzz_now(std::int64_t ms = 0);

const RoomAuthority& fuzz_room();

} // namespace halma::fuzz
