// The rule settings a game is played with; each variant players use is one setting here.
// docs/rules.md explains each, its default and where it comes from.
#pragma once

#include "result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace halma::engine {

enum class Jumps : std::uint8_t { kShort, kLong }; // long = "Super Chinese checkers"
enum class Rest : std::uint8_t { kOwn, kUnused, kAny }; // where a marble may come to rest
enum class Spoil : std::uint8_t { kNone, kSwap, kOccupied }; // anti-spoiling
enum class Unused : std::uint8_t { kEmpty, kFilled }; // triangles no set starts in
enum class FirstMover : std::uint8_t { kBlack, kCoin };

struct Rules {
    Jumps jumps = Jumps::kShort;
    Rest rest = Rest::kOwn;
    bool home_lock = true;
    Spoil spoil = Spoil::kNone;
    bool release = true;
    Unused unused = Unused::kEmpty;
    FirstMover first = FirstMover::kBlack;

    // "jumps=long,rest=any,release=off": settings not named keep their defaults.
    static Result<Rules> parse(std::string_view text);
    // Every setting, in the same form parse() reads.
    std::string to_string() const;
    friend bool operator==(const Rules&, const Rules&) = default;
};

} // namespace halma::engine
