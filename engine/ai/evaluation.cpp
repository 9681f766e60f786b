#include "evaluation.h"

#include "engine/geometry.h"

#include <cstdlib>

namespace halma::ai {

using namespace halma::engine;

namespace {

// A marble may trail the set's mean by this many steps before it counts as a straggler.
constexpr int kStragglerSlack = 3;

EvalTables build_tables() {
    EvalTables t;
    Cell centre = cell_at(8, 0);
    for (SetId s = 0; s < kSetNB; ++s) {
        t.home[s] = triangle_cells(home_of(s));
        // The turn that brings this set's start triangle to the bottom, where the line from
        // start to home is the column x = 0.
        int turn = 0;
        while (turn < kSetNB && rotate_clockwise(kGeometry.apex[s], turn) != kGeometry.apex[0])
            ++turn;
        for (Cell c = 0; c < kCellNB; ++c) {
            t.distance[s][c] = static_cast<std::uint8_t>(distance_to_home(s, c));
            Cell turned = rotate_clockwise(c, turn);
            t.lateral[s][c] = static_cast<std::uint8_t>(std::abs(kGeometry.x[turned]) / 2);
        }
        int found = 0;
        for (int d = 0; d < kDirectionNB && found < 2; ++d) {
            Cell n = kGeometry.neighbour[centre][static_cast<std::size_t>(d)];
            if (distance_to_home(s, n) < distance_to_home(s, centre))
                t.forward[s][static_cast<std::size_t>(found++)] = static_cast<std::uint8_t>(d);
        }
    }
    return t;
}

} // namespace

const EvalTables& eval_tables() {
    static const EvalTables tables = build_tables();
    return tables;
}

int distance_left(const Position& pos, SetId s) {
    const auto& dist = eval_tables().distance[s];
    int sum = 0;
    for (Bitboard b = pos.marbles(s); b;) sum += dist[b.pop_first()];
    return sum - kHomeDistanceFloor;
}

int set_score(const Position& pos, SetId s, const EvalWeights& w) {
    const auto& t = eval_tables();
    const auto& dist = t.distance[s];
    const auto& lateral = t.lateral[s];
    Bitboard marbles = pos.marbles(s);
    Bitboard occupied = pos.occupied();

    // Step 1: distance, and the mean the stragglers are measured against.
    std::array<std::uint8_t, kMarblesPerSet> d {};
    int n = 0, sum = 0, off_line = 0, hops = 0;
    for (Bitboard b = marbles; b && n < kMarblesPerSet;) {
        Cell c = b.pop_first();
        d[static_cast<std::size_t>(n++)] = dist[c];
        sum += dist[c];
        if (!t.home[s].test(c)) off_line += lateral[c];
        // Step 2: hops homewards ready to be made: the ladder the set climbs.
        for (auto dir : t.forward[s]) {
            Cell over = kGeometry.neighbour[c][dir];
            if (over == kNoCell || !occupied.test(over)) continue;
            Cell land = kGeometry.neighbour[over][dir];
            if (land != kNoCell && !occupied.test(land)) ++hops;
        }
    }
    // Step 3: stragglers, measured in tenths so that no division is needed.
    int straggle = 0;
    for (int i = 0; i < n; ++i) {
        int excess = d[static_cast<std::size_t>(i)] * n - sum - kStragglerSlack * n;
        if (excess > 0) straggle += excess;
    }
    int cost = kStep * (sum - kHomeDistanceFloor) + w.straggler * straggle / (n ? n : 1)
        + w.lateral * off_line - w.hop * hops;
    if (sum == kHomeDistanceFloor) return 0; // home: nothing to improve, whatever the hops say
    return -(cost > 1 ? cost : 1);
}

bool home_complete(const Position& pos, const Rules& rules, SetId s) {
    Bitboard home = eval_tables().home[s];
    Bitboard own = pos.marbles(s) & home;
    if (own == pos.marbles(s)) return true;
    return rules.spoil == Spoil::kOccupied && own && (pos.occupied() & home) == home;
}

namespace {

// Whether a marble at c has a step or a hop with these holes taken.
bool can_move(Cell c, Bitboard occupied) {
    if (kGeometry.neighbours[c] & ~occupied & kAllCells) return true;
    for (int d = 0; d < kDirectionNB; ++d) {
        Cell over = kGeometry.neighbour[c][static_cast<std::size_t>(d)];
        if (over == kNoCell || !occupied.test(over)) continue;
        Cell land = kGeometry.neighbour[over][static_cast<std::size_t>(d)];
        if (land != kNoCell && !occupied.test(land)) return true;
    }
    return false;
}

} // namespace

// Opponents' marbles in the bot's homes with no move at all because of the bot's marbles: the
// bot has walled them in, and since it cannot finish around them (home-lock keeps its own
// marbles in), the game stalls. A marble that its own set blocks (at the start, the back rows
// of every start triangle) is not walled in: counting those put a bias of three penalties
// (-576) on every position until the opponent had moved out, and rewarded the bot in its
// search for every opponent marble that left home.
int walled_in(const Position& pos, SetMask bot_sets) {
    int count = 0;
    Bitboard occupied = pos.occupied();
    Bitboard own {};
    for (SetId s = 0; s < kSetNB; ++s)
        if (has_set(bot_sets, s)) own |= pos.marbles(s);
    for (SetId s = 0; s < kSetNB; ++s) {
        if (!has_set(bot_sets, s)) continue;
        Bitboard intruders
            = eval_tables().home[s] & occupied & ~pos.marbles(s) & ~pos.fixed_marbles();
        while (intruders) {
            Cell c = intruders.pop_first();
            count += !can_move(c, occupied) && can_move(c, occupied & ~own);
        }
    }
    return count;
}

} // namespace halma::ai
