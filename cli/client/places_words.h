// How a finished game's places read, wherever halma names them (the play screen's seats, `halma
// records`, the end of `halma replay`).
#pragma once

#include <string>
#include <vector>

namespace halma::cli {

// 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.
std::string ordinal(unsigned n);

// "bob 1st, ann 2nd, cat 2nd": the players by place, first first (a list in seat order read
// "bot (2) 2nd, bot 1st"), players of the same place in seat order, those with no place (0:
// not decided) last and without one. `places` is per player, as `names`; a missing one is 0.
std::string places_in_order(
    const std::vector<std::string>& names, const std::vector<unsigned>& places);

} // namespace halma::cli
