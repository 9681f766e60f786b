#include "daemon/room/secrets.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <random>
#include <vector>

namespace halma::daemon {

namespace {

std::uint64_t random_u64() {
    // std::random_device reads getrandom(2) on Linux: a CSPRNG, not a seeded generator.
    static std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) | device();
}

constexpr std::string_view kCrockford = "0123456789abcdefghjkmnpqrstvwxyz";

} // namespace

std::string random_hex_id() {
    constexpr std::string_view kHex = "0123456789abcdef";
    std::string s;
    for (int word = 0; word < 2; ++word) {
        std::uint64_t r = random_u64();
        for (int i = 0; i < 16; ++i, r >>= 4) s += kHex[r & 0xf];
    }
    return s;
}

std::string random_room_code() {
    std::string s;
    std::uint64_t r = random_u64();
    int bits = 64;
    for (int i = 0; i < 20; ++i) {
        if (bits < 5) {
            r = random_u64();
            bits = 64;
        }
        if (i > 0 && i % 5 == 0) s += '-';
        s += kCrockford[r & 0x1f];
        r >>= 5;
        bits -= 5;
    }
    return s;
}

std::string random_room_code(std::string_view key_digits) {
    return friends_code(normalize_code(random_room_code()), key_digits);
}

std::string friends_code(std::string_view room_digits, std::string_view key_digits) {
    std::string s;
    for (std::size_t i = 0; i < room_digits.size(); ++i)
        s += (i > 0 && i % 5 == 0 ? "-" : "") + std::string(1, room_digits[i]);
    for (std::size_t i = 0; i < kFriendsKeyDigits && i < key_digits.size(); ++i)
        s += (i % 4 == 0 ? "-" : "") + std::string(1, key_digits[i]);
    return s;
}

std::string normalize_code(std::string_view code) {
    std::string s;
    for (char c : code) {
        if (c == '-' || c == ' ') continue;
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c == 'o') c = '0';
        if (c == 'i' || c == 'l') c = '1';
        s += c;
    }
    return s;
}

bool looks_like_friends_code(std::string_view text) {
    // Typed as printed (groups of five, then of four) or run together: a long room name with
    // dashes ("wednesday-afternoon-chess") is not one.
    std::vector<std::size_t> groups { 0 };
    for (char c : text) {
        if (c == '-' || c == ' ')
            groups.push_back(0);
        else if (std::isalnum(static_cast<unsigned char>(c)))
            ++groups.back();
        else
            return false;
    }
    if (groups.size() == 1)
        return groups[0] == kFriendsCodeDigits || groups[0] == kFriendsCodeWithKey;
    if (groups.size() < 4) return false;
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g] != (g < 4 ? 5u : 4u)) return false;
    return true;
}

bool secrets_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace halma::daemon
