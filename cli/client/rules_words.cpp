#include "cli/client/rules_words.h"

#include "engine/rules.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace halma::cli {

namespace pb = ::halma::v1;

namespace {

struct Said {
    const char* setting; // as engine::Rules::to_string() writes it
    RuleWords words;
};

// The web page's words (rules_words.js, kWords), so both front ends say a room alike.
const std::array<Said, 9> kSaid { {
    { "jumps=long", { "long jumps (over one marble from any distance)", "long jumps" } },
    { "rest=any", { "marbles may stop in any triangle", "stop in any triangle" } },
    { "rest=unused",
        { "marbles may also stop in the unused triangles", "stop in unused triangles too" } },
    { "home-lock=off", { "a marble home may leave it again", "marbles may leave home" } },
    { "spoil=swap", { "a marble left in your home may be swapped out", "spoilers swapped out" } },
    { "spoil=occupied", { "a full home counts, whoever's marbles fill it", "a full home counts" } },
    { "release=off", { "no need to release a blocked home", "no release rule" } },
    { "unused=filled",
        { "unused triangles filled with fixed marbles", "unused triangles filled" } },
    { "first=coin", { "a coin decides who starts", "a coin picks who starts" } },
} };

constexpr unsigned kDefaultMoveLimit = 1000; // ends no real game: not news

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) {
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        if (!part.empty()) parts.push_back(part);
    }
    return parts;
}

// One setting as the daemon sent it: its words, none when it is the plain rule's, or the
// setting as it is when this halma does not know it.
std::vector<RuleWords> setting_words(const std::string& setting) {
    auto parsed = engine::Rules::parse(setting);
    if (!parsed) return { { setting, setting } };
    auto plain = split(engine::Rules {}.to_string());
    std::vector<RuleWords> out;
    for (const auto& s : split(parsed->to_string())) {
        if (std::find(plain.begin(), plain.end(), s) != plain.end()) continue;
        auto said = std::find_if(
            kSaid.begin(), kSaid.end(), [&](const Said& w) { return s == w.setting; });
        out.push_back(said == kSaid.end() ? RuleWords { s, s } : said->words);
    }
    return out;
}

} // namespace

std::vector<RuleWords> rules_in_words(const pb::RoomMode& mode) {
    std::vector<RuleWords> out;
    for (const auto& setting : split(mode.rules()))
        for (auto& words : setting_words(setting)) out.push_back(std::move(words));
    if (unsigned limit = mode.move_limit(); limit != 0 && limit != kDefaultMoveLimit) {
        std::string n = std::to_string(limit);
        // "1 move each" (it read "1 moves each").
        std::string moves = n + (mode.move_limit() == 1 ? " move each" : " moves each");
        out.push_back({ "ends after " + moves + ", the rest placed by distance",
            moves + ", then by distance" });
    }
    if (unsigned s = mode.turn_limit_s(); s != 0)
        out.push_back({ std::to_string(s) + " s a turn, then the computer moves",
            std::to_string(s) + " s a turn" });
    if (mode.hide_leader())
        out.push_back({ "the leader is hidden until the end", "leader hidden" });
    return out;
}

std::string rules_sentence(const pb::RoomMode& mode) {
    auto words = rules_in_words(mode);
    if (words.empty()) return "Rules: the standard ones.";
    std::string out = "Rules: ";
    for (std::size_t i = 0; i < words.size(); ++i) out += (i ? "; " : "") + words[i].full;
    return out + ".";
}

} // namespace halma::cli
