// How a friends room is found on the LAN without being told to anyone who lacks its code: its
// service carries only a random salt and tag = BLAKE2b-128("halma friends v1" | salt | code).
// A daemon given the code computes the tag for each advert's salt and compares; without the code
// the tag says nothing (the code has 100 random bits: no dictionary, no brute force), and a fresh
// salt per publication keeps one room's adverts from being linked across restarts.
#pragma once

#include <string>
#include <string_view>

namespace halma::daemon {

struct FriendsTag {
    std::string salt; // 16 hex digits
    std::string tag; // 32 hex digits
};

// A new salt and the code's tag under it.
FriendsTag make_friends_tag(std::string_view code);
// Whether `code` (as a person typed it: any case, dashes or not) is the one behind `tag`.
bool friends_tag_matches(std::string_view code, std::string_view salt, std::string_view tag);

} // namespace halma::daemon
