// A room's rules in words a family reads at a glance, as halma web says them
// (cli/web/static/js/rules_words.js): only what differs from the plain rules (docs/rules.md), so
// a variant is never played by surprise. halma rooms and status keep the terse settings
// (describe_mode in room_table.h).
#pragma once

#include "halma/v1/common.pb.h"

#include <string>
#include <vector>

namespace halma::cli {

struct RuleWords {
    std::string full; // as the web page says it: "long jumps (over one marble from any distance)"
    std::string brief; // for a narrow column: "long jumps"
};

// What differs from the plain rules, one entry a setting, in the order the web page lists them:
// the rule settings, the move limit, the turn limit, a hidden leader. A setting a newer daemon
// sends that this halma does not know is given as it is ("spin=on").
std::vector<RuleWords> rules_in_words(const ::halma::v1::RoomMode& mode);

// The web page's sentence: "Rules: long jumps (...); a marble home may leave it again." or
// "Rules: the standard ones."
std::string rules_sentence(const ::halma::v1::RoomMode& mode);

} // namespace halma::cli
