#include "bench/ai/v1/race_planner.h"

#include "engine/ai/zobrist.h"
#include "engine/movegen.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace halma::v1 {

using ai::board_key;
using ai::move_key;

using namespace halma::engine;

namespace {

struct BeamNode {
    Position pos;
    Move first; // the move this line starts with: what the plan plays now
    int score;
    std::uint64_t key;
};

struct Child {
    std::uint32_t parent;
    Move move;
    int score;
    std::uint64_t key;
};

} // namespace

bool race_is_decoupled(const Position& pos, SetId s) {
    const auto& dist = eval_tables().distance[s];
    int rearmost = 0;
    for (Bitboard b = pos.marbles(s); b;) rearmost = std::max<int>(rearmost, dist[b.pop_first()]);
    for (SetId o = 0; o < kSetNB; ++o) {
        if (o == s || !has_set(pos.sets_present(), o)) continue;
        // Another set heading for the same home, or crossing the path: only sets moving the
        // opposite way (home_of(o) == s) and already behind every marble of s are out of it.
        bool opposite = home_of(o) == s;
        for (Bitboard b = pos.marbles(o); b;) {
            Cell c = b.pop_first();
            if (!opposite || dist[c] <= rearmost) return false;
        }
    }
    return true;
}

RacePlan plan_race(const Position& start, const Rules& rules, SetId s, std::uint64_t node_limit,
    const EvalWeights& weights) {
    RacePlan plan;
    Position root = start;
    root.set_side_to_move(s);
    // Step 1: the beam's shape. Wider beams find better ladders, deeper ones see further; a
    // crossing needs ~30 moves, so look ~12 ahead and spend the rest of the budget on width.
    constexpr int kDepth = 12;
    constexpr std::uint64_t kPerNode = 60; // about how many children a position has
    auto width = static_cast<std::size_t>(
        std::clamp<std::uint64_t>(node_limit / (kDepth * kPerNode), 4, 4096));

    std::vector<BeamNode> beam { BeamNode {
        root, Move::pass(), set_score(root, s, weights), board_key(root) } };
    std::vector<BeamNode> next_beam;
    std::vector<Child> children;
    std::unordered_set<std::uint64_t> seen;
    MoveList list;
    for (int depth = 1; depth <= kDepth && plan.nodes < node_limit; ++depth) {
        children.clear();
        for (std::uint32_t i = 0; i < beam.size(); ++i) {
            Position& pos = beam[i].pos;
            list.size = 0;
            generate_moves(pos, rules, list);
            for (Move m : list) {
                std::uint64_t key = beam[i].key ^ move_key(pos, m);
                pos.make(m);
                ++plan.nodes;
                bool done = home_complete(pos, rules, s);
                int score = done ? 0 : set_score(pos, s, weights);
                pos.unmake(m, s);
                if (done) {
                    plan.move = depth == 1 ? m : beam[i].first;
                    plan.moves_to_finish = depth;
                    plan.score = 0;
                    return plan;
                }
                children.push_back(Child { i, m, score, key });
            }
        }
        if (children.empty()) break;
        // Step 2: keep the best `width` distinct positions. Ties go to the earlier child, and
        // children come in a fixed order, so the plan is deterministic.
        std::stable_sort(children.begin(), children.end(),
            [](const Child& a, const Child& b) { return a.score > b.score; });
        next_beam.clear();
        seen.clear();
        for (const Child& c : children) {
            if (next_beam.size() >= width) break;
            if (!seen.insert(c.key).second) continue;
            const BeamNode& parent = beam[c.parent];
            BeamNode node { parent.pos, depth == 1 ? c.move : parent.first, c.score, c.key };
            node.pos.make(c.move);
            node.pos.set_side_to_move(s);
            next_beam.push_back(node);
        }
        beam.swap(next_beam);
        plan.move = beam.front().first;
        plan.score = beam.front().score;
    }
    return plan;
}

} // namespace halma::v1
