#include "movegen.h"

#include "geometry.h"
#include "notation.h"

#include <algorithm>
#include <bit>

namespace halma::engine {
namespace {

// The landings of the single short hops from c: a marble next to c in direction d and the hole
// beyond it empty. One lookup gives the holes beyond c's neighbouring marbles; the empty ones
// among them are the landings.
[[gnu::always_inline]] inline Bitboard hops_from(const Position& pos, Cell c, Bitboard empty) {
    return pos.hops_over_marbles(c) & empty;
}

// Every landing of a chain of short hops from `from`. The moving marble's origin counts as empty
// during its chain, but that never matters here: a chain only reaches holes an even number of rows
// and columns from its origin, so it can neither hop over the origin (next to it) nor find it a
// new landing. As the marble stays on its origin, the origin is never offered as a landing
// either.
[[gnu::always_inline]] inline Bitboard short_hop_landings(
    const Position& pos, Cell from, Bitboard empty) {
    Bitboard reached = hops_from(pos, from, empty);
    // Breadth-first by layers: the lookups of one layer do not depend on each other, so the CPU
    // overlaps them; a worklist, whose next hole depends on the last lookup, waits for each load
    // in turn. Chains are short (about two landings in the opening), so the holes of a layer are
    // popped from both words in one loop rather than a loop per word.
    Bitboard frontier = reached;
    while (frontier) {
        Bitboard next;
        do {
            Cell c = frontier.pop_first();
            next |= pos.hops_over_marbles(c);
        } while (frontier);
        frontier = next & empty & ~reached;
        reached |= frontier;
    }
    return reached;
}

// The landing of a single jump from c in direction d, or kNoCell. A short jump passes over the
// adjacent marble; a long one over exactly one marble at any distance k, landing k holes beyond
// it, every hole between empty. The landing must be empty unless it is in `land_on`.
Cell jump_landing(Jumps jumps, Cell c, int d, Bitboard occupied, Bitboard land_on = {}) {
    auto ud = static_cast<std::size_t>(d);
    Cell land = kNoCell;
    if (jumps == Jumps::kShort) {
        Cell over = kGeometry.neighbour[c][ud];
        if (over == kNoCell || !occupied.test(over)) return kNoCell;
        land = kGeometry.neighbour[over][ud];
    } else {
        const auto& ray = kGeometry.ray[c][ud];
        int length = kGeometry.ray_length[c][ud];
        int k = 0; // the marble jumped over is ray[k], at distance k + 1
        while (k < length && !occupied.test(ray[static_cast<std::size_t>(k)])) ++k;
        int landing = 2 * k + 1;
        if (k == length || landing >= length) return kNoCell;
        for (int i = k + 1; i < landing; ++i)
            if (occupied.test(ray[static_cast<std::size_t>(i)])) return kNoCell;
        land = ray[static_cast<std::size_t>(landing)];
    }
    if (land == kNoCell || (occupied.test(land) && !land_on.test(land))) return kNoCell;
    return land;
}

Bitboard long_hop_targets(Cell from, Bitboard occupied) {
    Bitboard reached = Bitboard::of(from);
    Cell stack[kCellNB];
    int top = 0;
    stack[top++] = from;
    while (top) {
        Cell c = stack[--top];
        for (int d = 0; d < kDirectionNB; ++d) {
            Cell land = jump_landing(Jumps::kLong, c, d, occupied);
            if (land != kNoCell && !reached.test(land)) {
                reached.set(land);
                stack[top++] = land;
            }
        }
    }
    return reached;
}

// Single-jump landings from c onto holes in `targets`, which are occupied (swap targets).
Bitboard hops_onto(Jumps jumps, Cell c, Bitboard occupied, Bitboard targets) {
    Bitboard found;
    for (int d = 0; d < kDirectionNB; ++d) {
        Cell land = jump_landing(jumps, c, d, occupied, targets);
        if (land != kNoCell && targets.test(land)) found.set(land);
    }
    return found;
}

// Writes a move to each hole of `targets` at `out` and returns the end. Through a cursor the
// caller keeps for all its marbles: Move is made of chars, so a store of one could change the
// list's size as far as the compiler knows, and a size kept in the list would be stored and
// loaded again for every marble.
[[gnu::always_inline]] inline Move* emit(Move* out, Cell from, Bitboard targets, Move::Kind kind) {
    Move m { from, 0, kind };
    for (auto w = targets.lo; w; w &= w - 1) {
        m.to = static_cast<Cell>(std::countr_zero(w));
        *out++ = m;
    }
    for (auto w = targets.hi; w; w &= w - 1) {
        m.to = static_cast<Cell>(64 + std::countr_zero(w));
        *out++ = m;
    }
    return out;
}

// spoil=swap: a step or the last hop of a chain may end on an opponent's marble in the mover's
// home, which goes to the mover's origin.
template <class Sink>
void add_swaps(const Position& pos, const Rules& rules, SetId s, Bitboard movers, Bitboard locked,
    Bitboard resting, Sink&& sink) {
    Bitboard home = triangle_cells(home_of(s));
    Bitboard opponents = home & pos.occupied() & ~pos.marbles(s) & ~pos.fixed_marbles();
    for (Bitboard marbles = movers; marbles;) {
        Cell from = marbles.pop_first();
        Bitboard targets = opponents & (locked.test(from) ? home : resting);
        if (!targets) continue;
        Bitboard occupied = pos.occupied() ^ kGeometry.bit[from];
        Bitboard chain = rules.jumps == Jumps::kShort
            ? short_hop_landings(pos, from, ~pos.occupied() & kAllCells)
            : long_hop_targets(from, occupied);
        chain |= kGeometry.bit[from];
        Bitboard swaps = kGeometry.neighbours[from] & targets;
        while (chain) swaps |= hops_onto(rules.jumps, chain.pop_first(), occupied, targets);
        sink(from, swaps, Move::kSwap);
    }
}

bool has_forward_move(const Position& pos, const Rules& rules, SetId s) {
    Bitboard empty = ~pos.occupied() & kAllCells;
    SetId home = home_of(s);
    const auto& nearer = kGeometry.nearer_neighbours[home];
    // Step 1: a forward step is cheap to find and nearly always there. A step forward from
    // outside the home lands in the centre or the home (where every set may rest) unless
    // the marble is in an arm; check the rest rule only then.
    Bitboard resting = resting_cells(rules, pos.sets_present(), s);
    Bitboard home_cells = triangle_cells(home);
    // Look at the marbles nearest home first: holes are numbered from the top row down.
    bool homeward_down = kGeometry.apex[home] > kGeometry.apex[s];
    for (Bitboard marbles = pos.marbles(s); marbles;) {
        Cell c = homeward_down ? marbles.pop_last() : marbles.pop_first();
        Bitboard allowed = rules.home_lock && home_cells.test(c) ? home_cells : resting;
        if (nearer[c] & empty & allowed) return true;
    }
    // Step 2: otherwise look at every move.
    MoveList list;
    generate_set_moves(pos, rules, s, list);
    return std::any_of(list.begin(), list.end(),
        [&](Move m) { return distance_to_home(s, m.to) < distance_to_home(s, m.from); });
}

bool releases(SetId owner, Move m) {
    Bitboard start = triangle_cells(owner);
    return start.test(m.from) && !start.test(m.to);
}

} // namespace

bool MoveList::contains(Move m) const {
    return std::find(begin(), end(), m) != end();
}

Bitboard resting_cells(const Rules& rules, SetMask sets_present, SetId s) {
    if (rules.rest == Rest::kAny) return kAllCells;
    Bitboard cells = centre_cells() | triangle_cells(s) | triangle_cells(home_of(s));
    if (rules.rest == Rest::kUnused) {
        SetMask unused = unused_triangles(sets_present);
        for (SetId t = 0; t < kSetNB; ++t)
            if (has_set(unused, t)) cells |= triangle_cells(t);
    }
    return cells;
}

namespace {

// Calls sink(from, destinations, kind) for every marble of set s in `movers` (its marbles, or
// some of them) that can move: the one place the rules of a turn are applied, whether the moves
// are listed or only counted.
template <class Sink>
[[gnu::always_inline]] inline void for_each_destination_set(
    const Position& pos, const Rules& rules, SetId s, Bitboard movers, Sink&& sink) {
    Bitboard empty = ~pos.occupied() & kAllCells;
    Bitboard home = triangle_cells(home_of(s));
    Bitboard resting = resting_cells(rules, pos.sets_present(), s);
    // With home-lock, marbles already home may only move within it: two passes, two masks.
    Bitboard locked = rules.home_lock ? movers & home : Bitboard {};
    for (int pass = 0; pass < 2; ++pass) {
        Bitboard allowed = pass == 0 ? resting : home;
        Bitboard marbles = pass == 0 ? movers & ~locked : locked;
        while (marbles) {
            Cell from = marbles.pop_first();
            Bitboard landings;
            if (rules.jumps == Jumps::kLong)
                landings = long_hop_targets(from, pos.occupied() ^ kGeometry.bit[from])
                    & ~kGeometry.bit[from];
            else if (hops_from(pos, from, empty)) // most marbles in a crowd cannot hop at all
                landings = short_hop_landings(pos, from, empty);
            // Steps and hops never reach the same hole: a hop chain moves an even number of rows
            // and columns, a step an odd number.
            sink(from, ((kGeometry.neighbours[from] & empty) | landings) & allowed, Move::kNormal);
        }
    }
    if (rules.spoil == Spoil::kSwap) add_swaps(pos, rules, s, movers, locked, resting, sink);
}

} // namespace

void generate_set_moves(const Position& pos, const Rules& rules, SetId s, MoveList& list) {
    Move* out = list.moves.data() + list.size;
    for_each_destination_set(
        pos, rules, s, pos.marbles(s), [&](Cell from, Bitboard targets, Move::Kind kind) {
            out = emit(out, from, targets, kind);
        });
    list.size = static_cast<int>(out - list.moves.data());
}

namespace {

// The moves of the one marble on `from` (of the side to move), release rule aside.
void generate_marble_moves(const Position& pos, const Rules& rules, Cell from, MoveList& list) {
    SetId s = pos.side_to_move();
    Move* out = list.moves.data() + list.size;
    for_each_destination_set(pos, rules, s, pos.marbles(s) & Bitboard::of(from),
        [&](Cell c, Bitboard targets, Move::Kind kind) { out = emit(out, c, targets, kind); });
    list.size = static_cast<int>(out - list.moves.data());
}

} // namespace

// Counting is popcounts, which baseline x86-64 lacks as an instruction; a clone built for CPUs
// that have it (all since about 2008) is chosen when the program loads.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
[[gnu::target_clones("popcnt", "default")]]
#endif
int count_moves(const Position& pos, const Rules& rules) {
    int all = 0;
    SetId s = pos.side_to_move();
    for_each_destination_set(pos, rules, s, pos.marbles(s),
        [&](Cell, Bitboard targets, Move::Kind) { all += targets.count(); });
    if (all == 0) return 1; // the forfeit
    // The release rule seldom binds, so the releasing moves are counted only when it does.
    if (release_owed(pos, rules)) {
        Bitboard start = triangle_cells(pos.side_to_move());
        int releasing = 0;
        for_each_destination_set(
            pos, rules, s, pos.marbles(s), [&](Cell from, Bitboard targets, Move::Kind) {
                if (start.test(from)) releasing += (targets & ~start).count();
            });
        if (releasing) return releasing;
    }
    return all;
}

std::optional<SetId> release_owed(const Position& pos, const Rules& rules) {
    if (!rules.release) return std::nullopt;
    SetId owner = pos.side_to_move();
    SetId blocked = home_of(owner); // the set whose home is the owner's start
    if (!has_set(pos.sets_in_turn(), blocked)) return std::nullopt;
    if (!(pos.marbles(owner) & triangle_cells(owner))) return std::nullopt;
    if (has_forward_move(pos, rules, blocked)) return std::nullopt;
    return blocked;
}

void generate_moves(const Position& pos, const Rules& rules, MoveList& list) {
    SetId s = pos.side_to_move();
    generate_set_moves(pos, rules, s, list);
    if (list.size && release_owed(pos, rules)) {
        // Keep only the moves that take a marble out of the owner's start triangle, if any.
        int kept = 0;
        for (int i = 0; i < list.size; ++i)
            if (releases(s, list.moves[static_cast<std::size_t>(i)]))
                list.moves[static_cast<std::size_t>(kept++)]
                    = list.moves[static_cast<std::size_t>(i)];
        if (kept) list.size = kept;
    }
    if (list.size == 0) list.push(Move::pass());
}

std::optional<Error> explain_illegal(const Position& pos, const Rules& rules, Move m) {
    SetId s = pos.side_to_move();
    // A legal move, the common case (every move made is checked here, on the host and on every
    // daemon replaying it), is found among its own marble's moves: a tenth of the set's. Only
    // the release rule, when it binds, needs every move of the set.
    if (!m.is_pass() && m.from < kCellNB && m.to < kCellNB && pos.marbles(s).test(m.from)
        && !release_owed(pos, rules)) {
        MoveList own;
        generate_marble_moves(pos, rules, m.from, own);
        if (own.contains(m)) return std::nullopt;
    }
    MoveList legal;
    generate_moves(pos, rules, legal);
    // A legal move, the common case (every move a bot makes is checked here), builds no text.
    if (legal.contains(m)) return std::nullopt;
    std::string set = set_words(s);
    if (m.is_pass()) {
        if (legal.size == 1 && legal.moves[0].is_pass()) return std::nullopt;
        return Error { set + " has legal moves and may not pass" };
    }
    if (m.from >= kCellNB || m.to >= kCellNB)
        return Error { "that move names a hole that is not on the board" };
    std::string from = cell_name(m.from), to = cell_name(m.to);
    Piece piece = pos.at(m.from);
    if (piece == kEmpty) return Error { from + " is empty" };
    if (piece == kFixed) return Error { "the marble on " + from + " is fixed and never moves" };
    if (set_of(piece) != s)
        return Error { from + " holds a marble of " + set_words(set_of(piece))
            + "; it is the turn of " + set };
    if (m.from == m.to) return Error { "a move must leave " + from };

    MoveList any;
    generate_set_moves(pos, rules, s, any);
    bool reachable_ignoring_release = any.contains(m);
    if (reachable_ignoring_release) {
        auto blocked = release_owed(pos, rules);
        return Error { "you must release the marbles of " + set_words(*blocked)
            + ": move a marble of " + set + " out of triangle " + std::to_string(s + 1)
            + " (release=on)" };
    }
    if (m.kind == Move::kNormal && pos.at(m.to) != kEmpty) {
        if (any.contains(Move { m.from, m.to, Move::kSwap }))
            return Error { to + " is occupied; play it as a swap" };
        return Error { to + " is occupied" };
    }
    // Would the marble get there if it were allowed to stop anywhere?
    Rules anywhere = rules;
    anywhere.rest = Rest::kAny;
    anywhere.home_lock = false;
    MoveList free;
    generate_set_moves(pos, anywhere, s, free);
    if (free.contains(Move { m.from, m.to, Move::kNormal })) {
        if (rules.home_lock && triangle_cells(home_of(s)).test(m.from)
            && !triangle_cells(home_of(s)).test(m.to))
            return Error { "the marble on " + from
                + " is home and may move only within its home triangle (home-lock=on)" };
        return Error { "a marble of " + set + " may not come to rest on " + to
            + " (rest=" + std::string(rules.rest == Rest::kOwn ? "own" : "unused")
            + ": only the centre, its start, its home"
            + (rules.rest == Rest::kUnused ? ", unused triangles" : "") + ")" };
    }
    // Where that marble can go instead, so a player who misjudged the board need not guess again.
    std::vector<std::string> reachable;
    for (Move l : legal)
        if (!l.is_pass() && l.from == m.from) reachable.push_back(cell_name(l.to));
    std::string reason = to + " is not reachable from " + from;
    if (reachable.empty())
        return Error { reason + ", and the marble on " + from + " cannot move now" };
    // At most five named, so the line fits an 80-column terminal.
    constexpr std::size_t kNamed = 5;
    reason += "; it can go to ";
    for (std::size_t i = 0; i < std::min(reachable.size(), kNamed); ++i)
        reason += (i ? ", " : "") + reachable[i];
    if (reachable.size() > kNamed)
        reason += " and " + std::to_string(reachable.size() - kNamed) + " more";
    return Error { reason };
}

Result<Move> legal_move(const Position& pos, const Rules& rules, Cell from, Cell to) {
    Move normal { from, to, Move::kNormal };
    Move swap { from, to, Move::kSwap };
    if (from < kCellNB && to < kCellNB && pos.at(to) != kEmpty && rules.spoil == Spoil::kSwap) {
        MoveList legal;
        generate_moves(pos, rules, legal);
        if (legal.contains(swap)) return swap;
    }
    if (auto error = explain_illegal(pos, rules, normal)) return std::unexpected(*error);
    return normal;
}

Result<Move> legal_move_along(
    const Position& pos, const Rules& rules, const std::vector<Cell>& path) {
    if (path.size() < 2) return fail("a move needs at least two holes, from and to");
    auto move = legal_move(pos, rules, path.front(), path.back());
    if (path.size() == 2) return move;
    for (Cell c : path)
        if (c >= kCellNB) return move; // legal_move named the hole that is not on the board
    // A chain of the player's own marble is checked hop by hop first, so a wrong hop is named
    // ("o2-m6-k6": the hop m6-k6), not the whole move's end as unreachable from its start. The
    // board has the marble lifted from its origin; the last hop may land on a marble to swap.
    if (!pos.marbles(pos.side_to_move()).test(path.front())) return move;
    Bitboard occupied = pos.occupied() ^ Bitboard::of(path.front());
    bool swap = move ? move->kind == Move::kSwap : rules.spoil == Spoil::kSwap;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        Cell a = path[i], b = path[i + 1];
        bool last = i + 2 == path.size();
        Bitboard landing_ok = last && swap ? Bitboard::of(b) : Bitboard {};
        bool ok = false;
        for (int d = 0; d < kDirectionNB && !ok; ++d)
            ok = jump_landing(rules.jumps, a, d, occupied, landing_ok) == b;
        // "n3-m7-n3": the first is a step, and a move is a step or hops, never both.
        if (!ok && kGeometry.neighbours[a].test(b))
            return fail(cell_name(a) + "-" + cell_name(b)
                + " is a step, and a step is a whole move: a move is one step, or hops only");
        if (!ok) return fail("the hop " + cell_name(a) + "-" + cell_name(b) + " is not possible");
    }
    return move;
}

std::vector<Cell> move_path(const Position& pos, const Rules& rules, Move m) {
    if (m.is_pass()) return {};
    if (kGeometry.neighbours[m.from].test(m.to)) return { m.from, m.to };
    // Breadth-first over single hops, so the path is the shortest chain; a swap's last hop lands
    // on the marble it swaps with.
    Bitboard occupied = pos.occupied() ^ Bitboard::of(m.from);
    Bitboard target = Bitboard::of(m.to);
    std::array<Cell, kCellNB> parent;
    parent.fill(kNoCell);
    std::vector<Cell> queue { m.from };
    parent[m.from] = m.from;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        Cell c = queue[head];
        for (int d = 0; d < kDirectionNB; ++d) {
            Cell land = jump_landing(
                rules.jumps, c, d, occupied, m.kind == Move::kSwap ? target : Bitboard {});
            if (land == kNoCell || parent[land] != kNoCell) continue;
            parent[land] = c;
            if (land == m.to) {
                std::vector<Cell> path { land };
                for (Cell p = c; p != m.from; p = parent[p]) path.push_back(p);
                path.push_back(m.from);
                std::reverse(path.begin(), path.end());
                return path;
            }
            if (!occupied.test(land)) queue.push_back(land);
        }
    }
    return { m.from, m.to }; // not reachable: the caller passed an illegal move
}

} // namespace halma::engine
