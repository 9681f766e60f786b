#include "position.h"

#include "geometry.h"
#include "notation.h"

#include <cassert>
#include <cstring>

namespace halma::engine {

SetMask unused_triangles(SetMask sets) {
    SetMask used = 0;
    for (SetId s = 0; s < kSetNB; ++s)
        if (has_set(sets, s)) used |= static_cast<SetMask>(mask_of(s) | mask_of(home_of(s)));
    return static_cast<SetMask>(~used & 0x3f);
}

Position::Position() = default; // an empty board: no hole has a marble next to it

namespace {

// The landing a marble on c gives or takes away from each neighbour: from the neighbour in
// direction d, a hop over c lands on c's neighbour in the opposite direction. As the word of
// hops_over_words_ that holds it and the bit within that word, so a flip is one XOR.
struct LandingFlip {
    std::uint16_t word = 0;
    std::uint64_t bit = 0;
};
using LandingFlips = std::array<std::array<LandingFlip, kDirectionNB>, kCellNB>;

constexpr LandingFlips build_landing_flips() {
    LandingFlips flips {};
    for (std::size_t c = 0; c < kCellNB; ++c)
        for (std::size_t d = 0; d < kDirectionNB; ++d) {
            Cell from = kGeometry.step[c][d]; // kOffBoard: the sink's words take the flip
            Cell land
                = kGeometry.step[c][static_cast<std::size_t>(opposite(static_cast<Direction>(d)))];
            bool high = land != kOffBoard && land >= 64;
            flips[c][d].word = static_cast<std::uint16_t>(2 * from + (high ? 1 : 0));
            flips[c][d].bit = land == kOffBoard ? 0 : std::uint64_t { 1 } << (land % 64);
        }
    return flips;
}

constexpr LandingFlips kLandingFlips = build_landing_flips();

} // namespace

// A marble arriving on c or leaving it flips the same landings: flipping (rather than adding or
// removing) lets one routine serve both.
void Position::flip_hops_over(Cell c) {
    for (const LandingFlip& flip : kLandingFlips[c]) hops_over_words_[flip.word] ^= flip.bit;
}

void Position::put(Cell c, Piece p) {
    assert(at(c) == kEmpty);
    board_[c] = p;
    occupied_ ^= kGeometry.bit[c];
    if (p != kFixed) by_set_[set_of(p)] ^= kGeometry.bit[c];
    flip_hops_over(c);
}

void Position::lift(Cell c) {
    Piece p = at(c);
    assert(p != kEmpty);
    board_[c] = kEmpty;
    occupied_ ^= kGeometry.bit[c];
    if (p != kFixed) by_set_[set_of(p)] ^= kGeometry.bit[c];
    flip_hops_over(c);
}

// The common case of make and unmake: one marble of a set from an occupied hole to an empty one.
void Position::move_marble(Cell from, Cell to) {
    Piece p = at(from);
    assert(p != kEmpty && p != kFixed && at(to) == kEmpty);
    board_[from] = kEmpty;
    board_[to] = p;
    Bitboard both = kGeometry.bit[from] | kGeometry.bit[to];
    occupied_ ^= both;
    by_set_[set_of(p)] ^= both;
    flip_hops_over(from);
    flip_hops_over(to);
}

Position Position::start(SetMask sets, SetId first, bool fill_unused) {
    Position pos;
    SetMask fixed = fill_unused ? unused_triangles(sets) : 0;
    for (Cell c = 0; c < kCellNB; ++c) {
        auto region = kGeometry.region[c];
        if (region == kCentre) continue;
        if (has_set(sets, region))
            pos.put(c, piece_of(region));
        else if (has_set(fixed, region))
            pos.put(c, kFixed);
    }
    pos.present_ = pos.in_turn_ = sets;
    pos.update_turn_order();
    pos.side_to_move_ = first;
    return pos;
}

Result<Position> Position::parse(std::string_view text) {
    auto space = text.find(' ');
    if (space == std::string_view::npos)
        return fail("position has no set to move: expected the 17 rows, a space, then the set to "
                    "move (1-6)");
    auto rows = text.substr(0, space);
    auto side = text.substr(space + 1);
    while (!side.empty() && side.front() == ' ') side.remove_prefix(1);
    while (!side.empty() && side.back() == ' ') side.remove_suffix(1);

    Position pos;
    std::size_t at = 0;
    Cell cell = 0;
    for (int r = 0; r < kRowNB; ++r) {
        auto slash = rows.find('/', at);
        if (r < kRowNB - 1 && slash == std::string_view::npos)
            return fail(
                "position has " + std::to_string(r + 1) + " rows; it needs 17 joined by '/'");
        auto row = rows.substr(at, r < kRowNB - 1 ? slash - at : std::string_view::npos);
        if (r == kRowNB - 1 && row.find('/') != std::string_view::npos)
            return fail("position has more than 17 rows");
        at = slash + 1;
        char name = static_cast<char>('a' + r);
        // What is in the row first, its length then: a fullwidth digit (three bytes) was "row a
        // has 3 holes".
        for (std::size_t i = 0; i < row.size(); ++i)
            if (!std::strchr(".123456x", row[i]) || row[i] == 0)
                return fail(std::string("row ") + name + " has '" + printable_char(row, i)
                    + "'; a hole is '.' (empty), 1-6 (a marble of that set) or x (a fixed marble)");
        if (static_cast<int>(row.size()) != kRowLength[static_cast<std::size_t>(r)])
            return fail(std::string("row ") + name + " has " + std::to_string(row.size())
                + " holes; it needs " + std::to_string(kRowLength[static_cast<std::size_t>(r)]));
        for (char ch : row) {
            if (ch >= '1' && ch <= '6')
                pos.put(cell, piece_of(static_cast<SetId>(ch - '1')));
            else if (ch == 'x')
                pos.put(cell, kFixed);
            ++cell;
        }
    }
    for (SetId s = 0; s < kSetNB; ++s) {
        int n = pos.by_set_[s].count();
        if (n == 0) continue;
        if (n != kMarblesPerSet)
            return fail("set " + std::to_string(s + 1) + " has " + std::to_string(n)
                + (n == 1 ? " marble" : " marbles") + "; a set has "
                + std::to_string(kMarblesPerSet));
        pos.present_ |= mask_of(s);
    }
    if (pos.present_ == 0) return fail("position has no marbles of any set");
    if (side.size() != 1 || side[0] < '1' || side[0] > '6')
        return fail("set to move '" + printable(side) + "' is not one of 1-6");
    pos.side_to_move_ = static_cast<SetId>(side[0] - '1');
    if (!has_set(pos.present_, pos.side_to_move_))
        return fail("set " + std::string(side) + " is to move but has no marbles on the board");
    pos.in_turn_ = pos.present_;
    pos.update_turn_order();
    return pos;
}

std::string Position::to_string() const {
    std::string s;
    Cell c = 0;
    for (int r = 0; r < kRowNB; ++r) {
        if (r) s += '/';
        for (int h = 0; h < kRowLength[static_cast<std::size_t>(r)]; ++h, ++c) {
            Piece p = at(c);
            s += p == kEmpty ? '.' : p == kFixed ? 'x' : static_cast<char>('0' + p);
        }
    }
    s += ' ';
    s += static_cast<char>('1' + side_to_move_);
    return s;
}

Bitboard Position::fixed_marbles() const {
    Bitboard moving;
    for (const auto& b : by_set_) moving |= b;
    return occupied_ & ~moving;
}

void Position::retire(SetId s) {
    in_turn_ = static_cast<SetMask>(in_turn_ & ~mask_of(s));
    update_turn_order();
    if (side_to_move_ == s && in_turn_) side_to_move_ = next_in_turn(s);
}

void Position::update_turn_order() {
    for (SetId s = 0; s < kSetNB; ++s) {
        next_[s] = s;
        for (int i = 1; i <= kSetNB; ++i) {
            auto n = static_cast<SetId>((s + i) % kSetNB);
            if (has_set(in_turn_, n)) {
                next_[s] = n;
                break;
            }
        }
    }
}

void Position::make(Move m) {
    if (m.kind == Move::kNormal) {
        move_marble(m.from, m.to);
    } else if (m.kind == Move::kSwap) {
        Piece mover = at(m.from);
        Piece other = at(m.to);
        assert(mover != kEmpty && mover != kFixed);
        lift(m.to);
        lift(m.from);
        put(m.from, other);
        put(m.to, mover);
    }
    side_to_move_ = next_in_turn(side_to_move_);
}

void Position::unmake(Move m, SetId mover) {
    if (m.kind == Move::kNormal) {
        move_marble(m.to, m.from);
    } else if (m.kind == Move::kSwap) {
        Piece piece = at(m.to);
        Piece other = at(m.from);
        lift(m.to);
        lift(m.from);
        put(m.to, other);
        put(m.from, piece);
    }
    side_to_move_ = mover;
}

void Position::replace(Move played, Move next, SetId mover) {
    if (played.kind == Move::kNormal && next.kind == Move::kNormal && played.from == next.from
        && played.to != next.to) {
        move_marble(played.to, next.to); // the side to move is the same after both
        return;
    }
    unmake(played, mover);
    make(next);
}

} // namespace halma::engine
