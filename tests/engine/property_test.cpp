// Seeded random playouts in every setup and rule family: the invariants that must hold after
// any sequence of legal moves, and the fast generator against the plain reference generator.
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "support/reference_movegen.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <tuple>

using namespace halma::engine;

namespace {

struct Family {
    const char* name;
    SetMask sets;
    const char* rules;
    bool fill = false;
};

const Family kFamilies[] = {
    { "two_default", mask_of(0) | mask_of(3), "" },
    { "two_any", mask_of(0) | mask_of(3), "rest=any" },
    { "two_unused_filled", mask_of(0) | mask_of(3), "rest=unused,unused=filled", true },
    { "two_unused", mask_of(0) | mask_of(3), "rest=unused,home-lock=off" },
    { "two_long", mask_of(0) | mask_of(3), "jumps=long,rest=any" },
    { "two_long_own_swap", mask_of(0) | mask_of(3), "jumps=long,spoil=swap" },
    { "two_swap_any", mask_of(0) | mask_of(3), "rest=any,spoil=swap,home-lock=off" },
    { "two_no_release", mask_of(0) | mask_of(3), "release=off" },
    { "three", mask_of(0) | mask_of(2) | mask_of(4), "" },
    {
        "four",
        mask_of(0) | mask_of(1) | mask_of(3) | mask_of(4),
        "rest=unused,spoil=swap",
    },
    { "four_filled", mask_of(0) | mask_of(1) | mask_of(3) | mask_of(4), "unused=filled", true },
    { "six", 0x3f, "" },
    { "six_long_any", 0x3f, "jumps=long,rest=any" },
};

std::vector<Move> sorted(const MoveList& list) {
    std::vector<Move> v(list.begin(), list.end());
    std::sort(v.begin(), v.end(), [](Move a, Move b) {
        return std::tie(a.from, a.to, a.kind) < std::tie(b.from, b.to, b.kind);
    });
    return v;
}

std::string names(const std::vector<Move>& moves) {
    std::string s;
    for (Move m : moves) s += move_name(m) + (m.kind == Move::kSwap ? "!" : "") + " ";
    return s;
}

// Every derived table of a position equals the one built from scratch from its text.
void expect_consistent(const Position& pos) {
    auto fresh = Position::parse(pos.to_string());
    ASSERT_TRUE(fresh) << fresh.error().message;
    for (Cell c = 0; c < kCellNB; ++c)
        ASSERT_EQ(pos.hops_over_marbles(c), fresh->hops_over_marbles(c)) << cell_name(c);
    ASSERT_EQ(pos.occupied(), fresh->occupied());
    for (SetId s = 0; s < kSetNB; ++s) ASSERT_EQ(pos.marbles(s), fresh->marbles(s));
}

// Two positions are the same, derived tables included.
void expect_same(const Position& pos, const Position& other) {
    ASSERT_EQ(pos, other);
    for (Cell c = 0; c < kCellNB; ++c)
        ASSERT_EQ(pos.hops_over_marbles(c), other.hops_over_marbles(c)) << cell_name(c);
    ASSERT_EQ(pos.occupied(), other.occupied());
    for (SetId s = 0; s < kSetNB; ++s) ASSERT_EQ(pos.marbles(s), other.marbles(s));
}

class Playouts : public ::testing::TestWithParam<Family> { };

} // namespace

TEST_P(Playouts, InvariantsHoldAndGeneratorsAgree) {
    const Family& f = GetParam();
    Rules rules = *Rules::parse(f.rules);
    std::mt19937_64 rng(20261122);
    int compared = 0;
    for (int game = 0; game < 6; ++game) {
        Position pos = Position::start(f.sets, 0, f.fill);
        for (int ply = 0; ply < 120; ++ply) {
            MoveList list;
            generate_moves(pos, rules, list);
            auto fast = sorted(list);
            auto reference = halma::reference::legal_moves(pos, rules);
            ASSERT_EQ(names(fast), names(reference)) << f.name << " at " << pos.to_string();
            ASSERT_EQ(count_moves(pos, rules), list.size) << f.name << " at " << pos.to_string();
            ++compared;

            // Make/unmake of every move restores the position exactly, and replace() from the
            // move before gives the same position as making the move afresh.
            Position before = pos;
            SetId mover = pos.side_to_move();
            for (int i = 0; i < list.size; ++i) {
                Move m = list.moves[static_cast<std::size_t>(i)];
                pos.make(m);
                if (i > 0) {
                    Position replaced = before;
                    replaced.make(list.moves[static_cast<std::size_t>(i - 1)]);
                    replaced.replace(list.moves[static_cast<std::size_t>(i - 1)], m, mover);
                    ASSERT_NO_FATAL_FAILURE(expect_same(replaced, pos)) << move_name(m);
                }
                pos.unmake(m, mover);
                ASSERT_EQ(pos, before) << move_name(m);
            }
            // Every move's path starts and ends where the move does, in legal single hops.
            for (Move m : list) {
                if (m.is_pass()) continue;
                auto path = move_path(pos, rules, m);
                ASSERT_GE(path.size(), 2u);
                ASSERT_EQ(path.front(), m.from);
                ASSERT_EQ(path.back(), m.to);
                if (path.size() > 2)
                    ASSERT_TRUE(legal_move_along(pos, rules, path)) << path_name(path);
            }
            // explain_illegal agrees with the generator on every move of the side's marbles to
            // any hole, both kinds: it looks among one marble's moves first (movegen.cpp). Every
            // eighth ply, to keep the test quick.
            for (Bitboard marbles = ply % 8 ? Bitboard {} : pos.marbles(mover); marbles;) {
                Cell from = marbles.pop_first();
                for (Cell to = 0; to < kCellNB; ++to)
                    for (auto kind : { Move::kNormal, Move::kSwap }) {
                        Move m { from, to, kind };
                        bool listed = list.contains(m);
                        ASSERT_EQ(!explain_illegal(pos, rules, m), listed)
                            << f.name << " " << move_name(m) << (kind == Move::kSwap ? "!" : "")
                            << " at " << pos.to_string();
                    }
            }
            Move chosen = list.moves[std::uniform_int_distribution<int>(0, list.size - 1)(rng)];
            pos.make(chosen);
            for (SetId s = 0; s < kSetNB; ++s)
                ASSERT_EQ(pos.marbles(s).count(), has_set(f.sets, s) ? kMarblesPerSet : 0);
            int on_board = 0;
            for (Cell c = 0; c < kCellNB; ++c) on_board += pos.at(c) != kEmpty;
            ASSERT_EQ(pos.occupied().count(), on_board);
            expect_consistent(pos);
        }
    }
    EXPECT_EQ(compared, 6 * 120);
}

INSTANTIATE_TEST_SUITE_P(Families, Playouts, ::testing::ValuesIn(kFamilies),
    [](const auto& info) { return std::string(info.param.name); });
