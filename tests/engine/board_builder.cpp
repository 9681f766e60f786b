#include "board_builder.h"

#include "engine/geometry.h"
#include "engine/notation.h"

#include <algorithm>
#include <stdexcept>

namespace halma::testing {

using namespace halma::engine;

Position board(const std::vector<std::pair<std::string, char>>& marbles, char side) {
    std::string cells(kCellNB, '.');
    for (const auto& [name, piece] : marbles) {
        auto c = parse_cell(name);
        if (!c) throw std::invalid_argument(c.error().message);
        cells[*c] = piece;
    }
    for (char set = '1'; set <= '6'; ++set) {
        auto count = std::count(cells.begin(), cells.end(), set);
        if (count == 0) continue;
        SetId s = static_cast<SetId>(set - '1');
        // Fill the start triangle from its tip outwards.
        std::vector<Cell> start;
        for (Bitboard b = triangle_cells(s); b;) start.push_back(b.pop_first());
        std::stable_sort(start.begin(), start.end(), [&](Cell a, Cell b) {
            return kGeometry.distance_to_apex[s][a] < kGeometry.distance_to_apex[s][b];
        });
        for (Cell c : start) {
            if (count >= kMarblesPerSet) break;
            if (cells[c] == '.') cells[c] = set, ++count;
        }
    }
    std::string text;
    Cell c = 0;
    for (int r = 0; r < kRowNB; ++r) {
        if (r) text += '/';
        for (int h = 0; h < kRowLength[static_cast<std::size_t>(r)]; ++h) text += cells[c++];
    }
    text += ' ';
    text += side;
    auto pos = Position::parse(text);
    if (!pos) throw std::invalid_argument(pos.error().message + " in " + text);
    return *pos;
}

} // namespace halma::testing
