#include "reference_movegen.h"

#include <algorithm>
#include <array>
#include <deque>
#include <tuple>

namespace halma::reference {
namespace {

using namespace halma::engine;

constexpr int kRows[17] = { 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 };
constexpr int kDr[6] = { 0, 0, -1, -1, 1, 1 };
constexpr int kDx[6] = { 2, -2, 1, -1, 1, -1 };

struct Coord {
    int r, x;
};

Coord coord(int cell) {
    for (int r = 0; r < 17; ++r) {
        if (cell < kRows[r]) return { r, -(kRows[r] - 1) + 2 * cell };
        cell -= kRows[r];
    }
    return { -1, 0 };
}

int cell_at(int r, int x) {
    if (r < 0 || r > 16) return -1;
    int n = kRows[r];
    int k = x + n - 1;
    if (k < 0 || k > 2 * (n - 1) || k % 2) return -1;
    int base = 0;
    for (int i = 0; i < r; ++i) base += kRows[i];
    return base + k / 2;
}

// Triangle 0..5 of a hole, or 6 for the centre, straight from the row/hole description.
int region(int cell) {
    Coord c = coord(cell);
    int n = kRows[c.r], hole = (c.x + n - 1) / 2 + 1;
    if (c.r <= 3) return 3;
    if (c.r >= 13) return 0;
    if (c.r >= 4 && c.r <= 7) {
        int arm = 8 - c.r;
        return hole <= arm ? 2 : hole > n - arm ? 4 : 6;
    }
    if (c.r >= 9) {
        int arm = c.r - 8;
        return hole <= arm ? 1 : hole > n - arm ? 5 : 6;
    }
    return 6;
}

int distance(int a, int b) {
    Coord p = coord(a), q = coord(b);
    int dr = std::abs(p.r - q.r), dx = std::abs(p.x - q.x);
    return dr + std::max(0, (dx - dr) / 2);
}

int apex(int triangle) {
    constexpr int r[6] = { 16, 12, 4, 0, 4, 12 }, x[6] = { 0, -12, -12, 0, 12, 12 };
    return cell_at(r[triangle], x[triangle]);
}

using Board = std::array<int, 121>; // 0 empty, else piece

// Where a single jump from `from` in direction d lands, or -1; `target_ok` lets it land on an
// occupied hole (a swap).
int jump(const Board& b, int from, int d, bool long_jumps, int target_ok) {
    Coord c = coord(from);
    if (!long_jumps) {
        int over = cell_at(c.r + kDr[d], c.x + kDx[d]);
        int land = cell_at(c.r + 2 * kDr[d], c.x + 2 * kDx[d]);
        if (over < 0 || land < 0 || !b[over]) return -1;
        return (!b[land] || land == target_ok) ? land : -1;
    }
    for (int k = 1;; ++k) {
        int over = cell_at(c.r + k * kDr[d], c.x + k * kDx[d]);
        if (over < 0) return -1;
        if (!b[over]) continue;
        for (int j = k + 1; j <= 2 * k; ++j) {
            int h = cell_at(c.r + j * kDr[d], c.x + j * kDx[d]);
            if (h < 0) return -1;
            if (b[h] && !(j == 2 * k && h == target_ok)) return -1;
        }
        return cell_at(c.r + 2 * k * kDr[d], c.x + 2 * k * kDx[d]);
    }
}

std::vector<Move> set_moves(const Board& board, const Rules& rules, int set, int present) {
    std::vector<Move> moves;
    int home = (set + 3) % 6;
    int used = 0;
    for (int s = 0; s < 6; ++s)
        if (present >> s & 1) used |= 1 << s | 1 << ((s + 3) % 6);
    auto may_rest = [&](int from, int to) {
        if (rules.home_lock && region(from) == home) return region(to) == home;
        if (rules.rest == Rest::kAny) return true;
        int t = region(to);
        if (t == 6 || t == set || t == home) return true;
        return rules.rest == Rest::kUnused && !(used >> t & 1);
    };
    auto may_swap = [&](int to) {
        return rules.spoil == Spoil::kSwap && region(to) == home && board[to]
            && board[to] != set + 1 && board[to] != 7;
    };
    for (int from = 0; from < 121; ++from) {
        if (board[from] != set + 1) continue;
        Board b = board;
        b[from] = 0;
        std::vector<bool> step(121), hop(121), swap(121);
        Coord c = coord(from);
        for (int d = 0; d < 6; ++d) {
            int n = cell_at(c.r + kDr[d], c.x + kDx[d]);
            if (n < 0) continue;
            if (!b[n])
                step[n] = true;
            else if (may_swap(n))
                swap[n] = true;
        }
        std::vector<bool> seen(121);
        std::deque<int> queue { from };
        seen[from] = true;
        while (!queue.empty()) {
            int at = queue.front();
            queue.pop_front();
            for (int d = 0; d < 6; ++d) {
                int land = jump(b, at, d, rules.jumps == Jumps::kLong, -1);
                if (land >= 0 && !seen[land]) {
                    seen[land] = hop[land] = true;
                    queue.push_back(land);
                }
                for (int t = 0; t < 121; ++t)
                    if (may_swap(t) && jump(b, at, d, rules.jumps == Jumps::kLong, t) == t)
                        swap[t] = true;
            }
        }
        for (int to = 0; to < 121; ++to) {
            if (to == from || !may_rest(from, to)) continue;
            if (step[to] || hop[to]) moves.push_back(Move { Cell(from), Cell(to), Move::kNormal });
            if (swap[to]) moves.push_back(Move { Cell(from), Cell(to), Move::kSwap });
        }
    }
    return moves;
}

} // namespace

std::vector<Move> legal_moves(const Position& pos, const Rules& rules) {
    Board board {};
    int present = 0;
    for (int c = 0; c < 121; ++c) {
        board[c] = pos.at(Cell(c));
        if (board[c] && board[c] != 7) present |= 1 << (board[c] - 1);
    }
    int set = pos.side_to_move();
    auto moves = set_moves(board, rules, set, present);
    int blocked = (set + 3) % 6;
    bool owner_in_start = false;
    for (int c = 0; c < 121; ++c) owner_in_start |= board[c] == set + 1 && region(c) == set;
    if (rules.release && owner_in_start && (pos.sets_in_turn() >> blocked & 1)) {
        auto theirs = set_moves(board, rules, blocked, present);
        int target = apex((blocked + 3) % 6);
        bool forward = std::any_of(theirs.begin(), theirs.end(),
            [&](Move m) { return distance(m.to, target) < distance(m.from, target); });
        if (!forward) {
            std::vector<Move> releasing;
            for (Move m : moves)
                if (region(m.from) == set && region(m.to) != set) releasing.push_back(m);
            if (!releasing.empty()) moves = releasing;
        }
    }
    if (moves.empty()) moves.push_back(Move::pass());
    std::sort(moves.begin(), moves.end(), [](Move a, Move b) {
        return std::tie(a.from, a.to, a.kind) < std::tie(b.from, b.to, b.kind);
    });
    return moves;
}

} // namespace halma::reference
