#include "daemon/discovery/friends_tag.h"

#include "daemon/room/secrets.h"

#include <array>
#include <sodium.h>

namespace halma::daemon {

namespace {

std::string tag_of(std::string_view code, std::string_view salt) {
    std::string message = "halma friends v1|" + std::string(salt) + "|" + normalize_code(code);
    std::array<unsigned char, 16> digest {};
    crypto_generichash(digest.data(), digest.size(),
        reinterpret_cast<const unsigned char*>(message.data()), message.size(), nullptr, 0);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (auto b : digest) {
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
    }
    return hex;
}

} // namespace

FriendsTag make_friends_tag(std::string_view code) {
    FriendsTag t;
    t.salt = random_hex_id().substr(0, 16);
    t.tag = tag_of(code, t.salt);
    return t;
}

bool friends_tag_matches(std::string_view code, std::string_view salt, std::string_view tag) {
    return secrets_equal(tag_of(code, salt), tag);
}

} // namespace halma::daemon
