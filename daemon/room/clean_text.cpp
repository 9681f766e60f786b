#include "daemon/room/clean_text.h"

#include <algorithm>
#include <cstdint>

namespace halma::daemon {

namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd"; // U+FFFD

// The length of the well-formed UTF-8 character at the start of s (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF), or 0 if it is not one.
std::size_t utf8_length(std::string_view s) {
    auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
    auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xc0) == 0x80; };
    std::uint8_t b = byte(0);
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) return continuation(1) ? 2 : 0;
    if (b >= 0xe0 && b <= 0xef) {
        if (!continuation(1) || !continuation(2)) return 0;
        if (b == 0xe0 && byte(1) < 0xa0) return 0; // overlong
        if (b == 0xed && byte(1) >= 0xa0) return 0; // surrogate
        return 3;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
        if (b == 0xf0 && byte(1) < 0x90) return 0; // overlong
        if (b == 0xf4 && byte(1) >= 0x90) return 0; // past U+10FFFF
        return 4;
    }
    return 0;
}

} // namespace

std::string sanitize_text(std::string_view text, std::size_t max_bytes) {
    std::string out;
    while (!text.empty()) {
        std::size_t n = utf8_length(text);
        std::string_view piece = n ? text.substr(0, n) : kReplacement;
        auto first = static_cast<std::uint8_t>(text[0]);
        auto second = n > 1 ? static_cast<std::uint8_t>(text[1]) : 0;
        auto third = n > 2 ? static_cast<std::uint8_t>(text[2]) : 0;
        bool control = (n == 1 && (first < 0x20 || first == 0x7f))
            || (n == 2 && first == 0xc2 && second <= 0x9f)
            // Bidi embeddings, overrides (U+202A..U+202E) and isolates (U+2066..U+2069).
            || (n == 3 && first == 0xe2 && second == 0x80 && third >= 0xaa && third <= 0xae)
            || (n == 3 && first == 0xe2 && second == 0x81 && third >= 0xa6 && third <= 0xa9)
            // Line and paragraph separators (U+2028, U+2029: a new line in some terminals,
            // for a chat line that reads as another's) and the bidi marks (U+200E, U+200F).
            || (n == 3 && first == 0xe2 && second == 0x80
                && (third == 0xa8 || third == 0xa9 || third == 0x8e || third == 0x8f));
        if (control) piece = " ";
        if (out.size() + piece.size() > max_bytes) break;
        out += piece;
        text.remove_prefix(n ? n : 1);
    }
    return out;
}

namespace {

// The code point of a well-formed UTF-8 character of `n` bytes.
char32_t code_point(std::string_view c, std::size_t n) {
    auto b = [&](std::size_t i) { return static_cast<char32_t>(static_cast<std::uint8_t>(c[i])); };
    if (n == 1) return b(0);
    if (n == 2) return (b(0) & 0x1f) << 6 | (b(1) & 0x3f);
    if (n == 3) return (b(0) & 0x0f) << 12 | (b(1) & 0x3f) << 6 | (b(2) & 0x3f);
    return (b(0) & 0x07) << 18 | (b(1) & 0x3f) << 12 | (b(2) & 0x3f) << 6 | (b(3) & 0x3f);
}

// Shown as nothing at all (Unicode's default-ignorable characters that turn up in names).
bool invisible(char32_t c) {
    return c == 0x00ad || c == 0x034f || c == 0x180e || (c >= 0x200b && c <= 0x200d)
        || (c >= 0x2060 && c <= 0x2064) || c == 0xfeff;
}

// Shown as a space.
bool a_space(char32_t c) {
    return c == 0x00a0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x202f || c == 0x205f
        || c == 0x3000;
}

} // namespace

std::string clean_name(std::string_view name, std::size_t max_bytes) {
    std::string text = sanitize_text(name);
    std::string out;
    for (std::string_view rest = text; !rest.empty();) {
        std::size_t n = std::max<std::size_t>(utf8_length(rest), 1); // well-formed by now
        char32_t c = code_point(rest, n);
        std::string_view piece = rest.substr(0, n);
        rest.remove_prefix(n);
        if (invisible(c)) continue;
        if (a_space(c) || c == ' ') {
            if (!out.empty() && out.back() != ' ') out += ' ';
            continue;
        }
        if (out.size() + piece.size() > max_bytes) break;
        out += piece;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

} // namespace halma::daemon
