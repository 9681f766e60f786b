// The shape of the 121-hole star: rows, neighbours, jump lines, triangles and distances,
// precomputed once at compile time so move generation only ever looks things up.
#pragma once

#include "bitboard.h"
#include "types.h"

#include <array>
#include <cstdint>

namespace halma::engine {

inline constexpr int kRowNB = 17;
inline constexpr std::array<int, kRowNB> kRowLength { 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13,
    4, 3, 2, 1 };

// The six directions on the hexagonal grid, anticlockwise from east; opposite(d) = d + 3.
enum Direction : std::uint8_t {
    kEast,
    kNorthEast,
    kNorthWest,
    kWest,
    kSouthWest,
    kSouthEast,
    kDirectionNB
};
constexpr Direction opposite(Direction d) {
    return static_cast<Direction>((d + 3) % kDirectionNB);
}

// Triangles 1..6 are 0..5 here (see types.h); the centre hexagon is its own region.
inline constexpr std::uint8_t kCentre = 6;

// The sentinel hole that stands for "off the board" in Geometry::hops.
inline constexpr Cell kOffBoard = kCellNB;

struct Geometry {
    // Position of each hole: row 0..16 (a..q) and a doubled column x, so that a row's holes are
    // two apart and neighbouring rows are offset by one. The middle of every row is x = 0.
    std::array<std::int8_t, kCellNB> row {};
    std::array<std::int8_t, kCellNB> x {};
    std::array<Cell, kRowNB> row_start {};

    std::array<std::array<Cell, kDirectionNB>, kCellNB> neighbour {}; // kNoCell off the board
    std::array<std::array<Cell, kDirectionNB>, kCellNB> step {}; // kOffBoard off the board
    std::array<Bitboard, kCellNB> neighbours {};
    std::array<Bitboard, kCellNB + 1> bit {}; // Bitboard::of(c); the sentinel's is empty

    // Short hops from a hole in each direction: the marble jumped over and the landing hole.
    // Off the board both are kOffBoard, a sentinel hole past the last real one, so the hop
    // search can try all six directions without a bounds check.
    struct Hop {
        Cell over, land;
    };
    std::array<std::array<Hop, kDirectionNB>, kCellNB> hops {};

    // For long jumps: the holes along each direction, nearest first.
    std::array<std::array<std::array<Cell, 16>, kDirectionNB>, kCellNB> ray {};
    std::array<std::array<std::uint8_t, kDirectionNB>, kCellNB> ray_length {};

    std::array<std::uint8_t, kCellNB> region {}; // triangle 0..5 or kCentre
    std::array<Bitboard, kSetNB + 1> region_cells {};
    std::array<Cell, kSetNB> apex {}; // the outer tip of each triangle

    // Steps needed to reach the tip of each triangle: the "distance to home" of a marble.
    std::array<std::array<std::uint8_t, kCellNB>, kSetNB> distance_to_apex {};
    // Neighbours of a hole that are nearer the tip of each triangle: a step there is forward.
    std::array<std::array<Bitboard, kCellNB>, kSetNB> nearer_neighbours {};
};

namespace detail {

constexpr int hex_distance(int r1, int x1, int r2, int x2) {
    int dr = r1 > r2 ? r1 - r2 : r2 - r1;
    int dx = x1 > x2 ? x1 - x2 : x2 - x1;
    return dr + (dx > dr ? (dx - dr) / 2 : 0);
}

constexpr Cell cell_at(const Geometry& g, int r, int x) {
    if (r < 0 || r >= kRowNB) return kNoCell;
    int n = kRowLength[static_cast<std::size_t>(r)];
    int k = x + (n - 1); // 0, 2, ... 2(n-1) on the board
    if (k < 0 || k > 2 * (n - 1) || k % 2 != 0) return kNoCell;
    return static_cast<Cell>(g.row_start[static_cast<std::size_t>(r)] + k / 2);
}

constexpr std::uint8_t region_of(int r, int hole /* 1-based */) {
    int n = kRowLength[static_cast<std::size_t>(r)];
    if (r <= 3) return 3; // triangle 4, top
    if (r >= 13) return 0; // triangle 1, bottom
    if (r <= 7) { // rows e..h: arms 3 (left) and 5 (right) are 4-(r-4) holes wide
        int arm = 4 - (r - 4);
        if (hole <= arm) return 2;
        if (hole > n - arm) return 4;
        return kCentre;
    }
    if (r >= 9) { // rows j..m: arms 2 (left) and 6 (right)
        int arm = r - 8;
        if (hole <= arm) return 1;
        if (hole > n - arm) return 5;
        return kCentre;
    }
    return kCentre;
}

constexpr Geometry build_geometry() {
    Geometry g {};
    constexpr int dr[kDirectionNB] = { 0, -1, -1, 0, 1, 1 };
    constexpr int dx[kDirectionNB] = { 2, 1, -1, -2, -1, 1 };

    int index = 0;
    for (int r = 0; r < kRowNB; ++r) {
        int n = kRowLength[static_cast<std::size_t>(r)];
        g.row_start[static_cast<std::size_t>(r)] = static_cast<Cell>(index);
        for (int h = 0; h < n; ++h, ++index) {
            g.row[static_cast<std::size_t>(index)] = static_cast<std::int8_t>(r);
            g.x[static_cast<std::size_t>(index)] = static_cast<std::int8_t>(-(n - 1) + 2 * h);
            auto reg = region_of(r, h + 1);
            g.region[static_cast<std::size_t>(index)] = reg;
            g.region_cells[reg].set(static_cast<Cell>(index));
            g.bit[static_cast<std::size_t>(index)] = Bitboard::of(static_cast<Cell>(index));
        }
    }
    for (int c = 0; c < kCellNB; ++c) {
        auto uc = static_cast<std::size_t>(c);
        int r = g.row[uc], x = g.x[uc];
        for (int d = 0; d < kDirectionNB; ++d) {
            auto ud = static_cast<std::size_t>(d);
            Cell n = cell_at(g, r + dr[d], x + dx[d]);
            g.neighbour[uc][ud] = n;
            g.step[uc][ud] = n == kNoCell ? kOffBoard : n;
            if (n != kNoCell) g.neighbours[uc].set(n);
            Cell land = cell_at(g, r + 2 * dr[d], x + 2 * dx[d]);
            g.hops[uc][ud] = n != kNoCell && land != kNoCell
                ? Geometry::Hop { n, land }
                : Geometry::Hop { kOffBoard, kOffBoard };
            std::uint8_t len = 0;
            for (int k = 1;; ++k) {
                Cell along = cell_at(g, r + k * dr[d], x + k * dx[d]);
                if (along == kNoCell) break;
                g.ray[uc][ud][len++] = along;
            }
            g.ray_length[uc][ud] = len;
        }
    }
    constexpr int apex_row[kSetNB] = { 16, 12, 4, 0, 4, 12 };
    constexpr int apex_x[kSetNB] = { 0, -12, -12, 0, 12, 12 };
    for (int t = 0; t < kSetNB; ++t) {
        auto ut = static_cast<std::size_t>(t);
        g.apex[ut] = cell_at(g, apex_row[t], apex_x[t]);
        for (int c = 0; c < kCellNB; ++c) {
            auto uc = static_cast<std::size_t>(c);
            g.distance_to_apex[ut][uc] = static_cast<std::uint8_t>(
                hex_distance(g.row[uc], g.x[uc], apex_row[t], apex_x[t]));
        }
        for (int c = 0; c < kCellNB; ++c)
            for (Cell n : g.neighbour[static_cast<std::size_t>(c)])
                if (n != kNoCell
                    && g.distance_to_apex[ut][n]
                        < g.distance_to_apex[ut][static_cast<std::size_t>(c)])
                    g.nearer_neighbours[ut][static_cast<std::size_t>(c)].set(n);
    }
    return g;
}

} // namespace detail

inline constexpr Geometry kGeometry = detail::build_geometry();

constexpr Bitboard triangle_cells(SetId triangle) {
    return kGeometry.region_cells[triangle];
}
constexpr Bitboard centre_cells() {
    return kGeometry.region_cells[kCentre];
}
constexpr bool in_triangle(Cell c, SetId triangle) {
    return kGeometry.region[c] == triangle;
}

// The hole reached by walking `steps` holes in direction d, or kNoCell.
constexpr Cell cell_at(int row, int x) {
    return detail::cell_at(kGeometry, row, x);
}

// Distance of a marble of set s on c from its home: steps to the tip of the home triangle.
constexpr int distance_to_home(SetId s, Cell c) {
    return kGeometry.distance_to_apex[home_of(s)][c];
}

// Sum of distance_to_home over a full home triangle: 0 + 1+1 + 2+2+2 + 3+3+3+3.
inline constexpr int kHomeDistanceFloor = 20;

// The star turned by `sixths` sixths of a full turn clockwise around the centre hole i5, as a
// front end needs to put a player's own triangle at the bottom.
Cell rotate_clockwise(Cell c, int sixths);

} // namespace halma::engine
