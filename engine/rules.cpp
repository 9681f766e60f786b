#include "rules.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace halma::engine {
namespace {

template <class E> struct Choice {
    std::string_view name;
    E value;
};

// One table per setting, so parse() and to_string() can never disagree about a spelling.
constexpr std::array<Choice<Jumps>, 2> kJumps { { { "short", Jumps::kShort },
    { "long", Jumps::kLong } } };
constexpr std::array<Choice<Rest>, 3> kRest { { { "own", Rest::kOwn }, { "unused", Rest::kUnused },
    { "any", Rest::kAny } } };
constexpr std::array<Choice<bool>, 2> kOnOff { { { "on", true }, { "off", false } } };
constexpr std::array<Choice<Spoil>, 3> kSpoil { { { "none", Spoil::kNone },
    { "swap", Spoil::kSwap }, { "occupied", Spoil::kOccupied } } };
constexpr std::array<Choice<Unused>, 2> kUnused { { { "empty", Unused::kEmpty },
    { "filled", Unused::kFilled } } };
constexpr std::array<Choice<FirstMover>, 2> kFirst { { { "black", FirstMover::kBlack },
    { "coin", FirstMover::kCoin } } };

template <class E, std::size_t N>
std::string_view name_of(const std::array<Choice<E>, N>& choices, E value) {
    for (const auto& c : choices)
        if (c.value == value) return c.name;
    return "?";
}

template <class E, std::size_t N>
Result<E> choose(
    const std::array<Choice<E>, N>& choices, std::string_view key, std::string_view value) {
    for (const auto& c : choices)
        if (c.name == value) return c.value;
    std::string allowed;
    for (const auto& c : choices) allowed += (allowed.empty() ? "" : "|") + std::string(c.name);
    return fail("rule setting " + std::string(key) + "=" + std::string(value) + " is not one of "
        + std::string(key) + "=" + allowed);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

} // namespace

Result<Rules> Rules::parse(std::string_view text) {
    Rules rules;
    std::vector<std::string_view> given; // a setting given twice is a contradiction, not an edit
    text = trim(text);
    while (!text.empty()) {
        auto comma = text.find(',');
        auto item = trim(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view {} : text.substr(comma + 1);
        if (item.empty())
            return fail("empty rule setting in the rules list (two commas in a row?)");
        auto eq = item.find('=');
        if (eq == std::string_view::npos)
            return fail(
                "rule setting '" + std::string(item) + "' has no value; write it as name=value");
        auto key = trim(item.substr(0, eq));
        auto value = trim(item.substr(eq + 1));
        // "jumps=long rest=any": two settings read as one whose value is "long rest=any".
        if (value.find('=') != std::string_view::npos) {
            std::string commas(item);
            std::replace(commas.begin(), commas.end(), ' ', ',');
            return fail("rule settings are separated by commas: '" + std::string(item)
                + "' reads as one; write " + commas);
        }
        if (std::find(given.begin(), given.end(), key) != given.end())
            return fail("rule setting " + std::string(key) + " is given twice; give it once");
        given.push_back(key);

        auto apply = [&](auto& field, const auto& choices) -> std::optional<Error> {
            auto chosen = choose(choices, key, value);
            if (!chosen) return chosen.error();
            field = *chosen;
            return std::nullopt;
        };
        std::optional<Error> error;
        if (key == "jumps")
            error = apply(rules.jumps, kJumps);
        else if (key == "rest")
            error = apply(rules.rest, kRest);
        else if (key == "home-lock")
            error = apply(rules.home_lock, kOnOff);
        else if (key == "spoil")
            error = apply(rules.spoil, kSpoil);
        else if (key == "release")
            error = apply(rules.release, kOnOff);
        else if (key == "unused")
            error = apply(rules.unused, kUnused);
        else if (key == "first")
            error = apply(rules.first, kFirst);
        else
            return fail("unknown rule setting '" + std::string(key)
                + "'; the settings are jumps, rest, home-lock, spoil, release, unused, first");
        if (error) return std::unexpected(*error);
    }
    return rules;
}

std::string Rules::to_string() const {
    std::string s;
    auto add = [&](std::string_view key, std::string_view value) {
        if (!s.empty()) s += ',';
        s += key;
        s += '=';
        s += value;
    };
    add("jumps", name_of(kJumps, jumps));
    add("rest", name_of(kRest, rest));
    add("home-lock", name_of(kOnOff, home_lock));
    add("spoil", name_of(kSpoil, spoil));
    add("release", name_of(kOnOff, release));
    add("unused", name_of(kUnused, unused));
    add("first", name_of(kFirst, first));
    return s;
}

} // namespace halma::engine
