// Unguessable strings: room ids, friends room codes and seat tokens, from the kernel's CSPRNG.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace halma::daemon {

// 128 random bits as 32 hex digits.
std::string random_hex_id();
// 100 random bits as 20 Crockford base32 letters in groups of five, "k7f3q-9xq2m-...":
// easy to read aloud and paste into a message, no 0/O or 1/I/L confusion.
std::string random_room_code();
// A friends code that also names its host: the room's 100 random bits, then the first 80 bits
// of the host key's fingerprint (16 of its digits, `key_digits`) in groups of four, so whoever
// has the code can tell the real host from an impersonator: "k7f3q-...-d2e3f-ab12-...".
std::string random_room_code(std::string_view key_digits);
// The friends code whose room part is `room_digits` (20, normalized) and whose key part is
// `key_digits`' first 16, grouped as random_room_code() groups them.
std::string friends_code(std::string_view room_digits, std::string_view key_digits);
inline constexpr std::size_t kFriendsCodeDigits = 20;
inline constexpr std::size_t kFriendsKeyDigits = 16;
inline constexpr std::size_t kFriendsCodeWithKey = kFriendsCodeDigits + kFriendsKeyDigits;
// The code in a canonical form: lower case, no dashes or spaces, look-alikes folded.
std::string normalize_code(std::string_view code);
// Whether `text` has the shape of a friends code (at least its 20 digits, dashes and spaces
// between): a room looked for by it and not found is a typo in a code, not an unknown name.
bool looks_like_friends_code(std::string_view text);
// Compares without leaking through timing how much of a secret matched.
bool secrets_equal(std::string_view a, std::string_view b);

} // namespace halma::daemon
