#include "plain_perft.h"

#include <array>

namespace halma::bench {
namespace {

constexpr int kRows[17] = { 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 };

struct Tables {
    std::array<std::array<int, 6>, 121> neighbour {}; // -1 off the board
    Tables() {
        int row_of[121], x_of[121], start[17], c = 0;
        for (int r = 0; r < 17; ++r) {
            start[r] = c;
            for (int h = 0; h < kRows[r]; ++h, ++c)
                row_of[c] = r, x_of[c] = -(kRows[r] - 1) + 2 * h;
        }
        auto at = [&](int r, int x) {
            if (r < 0 || r > 16) return -1;
            int k = x + kRows[r] - 1;
            if (k < 0 || k > 2 * (kRows[r] - 1) || k % 2) return -1;
            return start[r] + k / 2;
        };
        const int dr[6] = { 0, 0, -1, -1, 1, 1 }, dx[6] = { 2, -2, 1, -1, 1, -1 };
        for (int i = 0; i < 121; ++i)
            for (int d = 0; d < 6; ++d) neighbour[i][d] = at(row_of[i] + dr[d], x_of[i] + dx[d]);
    }
};

const Tables kTables;

struct Move {
    std::uint8_t from, to;
};

struct State {
    std::array<std::uint8_t, 121> board {}; // 0 empty, else set number
    int side = 1;
};

int generate(State& s, Move* out) {
    int n = 0;
    // Holes reached by the current marble's chain carry its stamp; no clearing between marbles.
    static std::uint32_t seen[121];
    static std::uint32_t stamp = 0;
    int stack[121];
    for (int c = 0; c < 121; ++c) {
        if (s.board[c] != s.side) continue;
        for (int d = 0; d < 6; ++d) {
            int t = kTables.neighbour[c][d];
            if (t >= 0 && !s.board[t]) out[n++] = { std::uint8_t(c), std::uint8_t(t) };
        }
        // Hop chains: the origin is empty while its marble hops.
        s.board[c] = 0;
        ++stamp;
        seen[c] = stamp;
        int top = 0;
        stack[top++] = c;
        while (top) {
            int x = stack[--top];
            for (int d = 0; d < 6; ++d) {
                int over = kTables.neighbour[x][d];
                if (over < 0 || !s.board[over]) continue;
                int land = kTables.neighbour[over][d];
                if (land < 0 || s.board[land] || seen[land] == stamp) continue;
                seen[land] = stamp;
                stack[top++] = land;
                out[n++] = { std::uint8_t(c), std::uint8_t(land) };
            }
        }
        s.board[c] = static_cast<std::uint8_t>(s.side);
    }
    return n;
}

void walk(State& s, int depth, PlainPerft& result) {
    Move moves[1210];
    int n = generate(s, moves);
    ++result.generated;
    if (depth == 1) {
        result.leaves += static_cast<std::uint64_t>(n);
        return;
    }
    int side = s.side;
    for (int i = 0; i < n; ++i) {
        s.board[moves[i].to] = s.board[moves[i].from];
        s.board[moves[i].from] = 0;
        s.side = side == 1 ? 4 : 1;
        walk(s, depth - 1, result);
        s.board[moves[i].from] = s.board[moves[i].to];
        s.board[moves[i].to] = 0;
        s.side = side;
    }
}

} // namespace

PlainPerft plain_perft(int depth) {
    State s;
    for (int c = 0; c < 10; ++c) s.board[c] = 4; // rows a-d
    for (int c = 111; c < 121; ++c) s.board[c] = 1; // rows n-q
    PlainPerft result;
    walk(s, depth, result);
    return result;
}

} // namespace halma::bench
