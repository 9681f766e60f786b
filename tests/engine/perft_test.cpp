// Golden move-generation counts from independent implementations (shared/reference/perft.md).
#include "engine/perft.h"
#include "engine/position.h"

#include <gtest/gtest.h>
#include <vector>

using namespace halma::engine;

namespace {

struct Golden {
    const char* name;
    SetMask sets;
    const char* rules;
    std::vector<std::uint64_t> counts; // perft 1, 2, ...
};

const Golden kGolden[] = {
    { "two_short_any", mask_of(0) | mask_of(3), "jumps=short,rest=any",
        { 14, 196, 4760, 115600, 3188520, 87946884 } },
    { "two_short_own", mask_of(0) | mask_of(3), "jumps=short,rest=own",
        { 14, 196, 4648, 110224, 2947496 } },
    { "two_long_any", mask_of(0) | mask_of(3), "jumps=long,rest=any",
        { 14, 196, 5348, 145924, 4645174 } },
    { "two_long_own", mask_of(0) | mask_of(3), "jumps=long,rest=own",
        { 14, 196, 4872, 121104, 3476564 } },
    { "three_short_any", mask_of(0) | mask_of(2) | mask_of(4), "jumps=short,rest=any",
        { 14, 196, 2744, 66640 } },
    { "six_short_any", 0x3f, "jumps=short,rest=any", { 14, 199, 2828, 40189 } },
    { "six_long_own", 0x3f, "jumps=long,rest=own", { 14, 204, 2992, 43968 } },
};

class GoldenPerft : public ::testing::TestWithParam<Golden> { };

} // namespace

TEST_P(GoldenPerft, MatchesIndependentImplementations) {
    const Golden& g = GetParam();
    Position start = Position::start(g.sets, 0);
    Rules rules = *Rules::parse(g.rules);
    for (std::size_t depth = 1; depth <= g.counts.size(); ++depth)
        EXPECT_EQ(perft(start, rules, static_cast<int>(depth)).leaves, g.counts[depth - 1])
            << g.name << " depth " << depth;
}

INSTANTIATE_TEST_SUITE_P(Reference, GoldenPerft, ::testing::ValuesIn(kGolden),
    [](const auto& info) { return std::string(info.param.name); });

// The sixth ply of long jumps (147,920,342) takes several seconds; it is its own test.
TEST(GoldenPerftDeep, TwoPlayersLongJumpsSixPlies) {
    Position start = Position::start(mask_of(0) | mask_of(3), 0);
    EXPECT_EQ(perft(start, *Rules::parse("jumps=long,rest=any"), 6).leaves, 147920342u);
}

TEST(Perft, DepthZeroIsOneAndPlayingRestoresThePosition) {
    Position start = Position::start(mask_of(0) | mask_of(3), 0);
    EXPECT_EQ(perft(start, Rules {}, 0).leaves, 1u);
    auto r = perft(start, *Rules::parse("rest=any"), 4);
    // Moves are generated at every position above the last ply: 1 + 14 + 196 + 4760.
    EXPECT_EQ(r.generated, 4971u);
}
