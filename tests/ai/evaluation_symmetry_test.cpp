// The evaluation must not favour a set for where it sits: the board is symmetric under
// rotation, so at the start every set is equally far from finishing and must score the same.
// A bias here shows up in the search as a score far from 0 at the start position for the side
// to move (issue 14 saw about -300), and it skews every race the bot judges.
#include "engine/ai/evaluation.h"
#include "engine/position.h"

#include <gtest/gtest.h>

namespace halma::ai {
namespace {

using namespace halma::engine;

TEST(EvaluationSymmetry, EverySetScoresTheSameAtTheStart) {
    SetMask all = 0;
    for (SetId s = 0; s < kSetNB; ++s) all |= static_cast<SetMask>(1u << s);
    Position pos = Position::start(all, 0);
    EvalWeights w;
    int first = set_score(pos, 0, w);
    for (SetId s = 1; s < kSetNB; ++s) {
        EXPECT_EQ(distance_left(pos, s), distance_left(pos, 0)) << "set " << int(s);
        EXPECT_EQ(set_score(pos, s, w), first) << "set " << int(s);
    }
}

TEST(EvaluationSymmetry, TwoOpposedSetsScoreTheSameAtTheStart) {
    for (SetId s = 0; s < kSetNB / 2; ++s) {
        SetId opposite = static_cast<SetId>(s + kSetNB / 2);
        SetMask two = static_cast<SetMask>((1u << s) | (1u << opposite));
        Position pos = Position::start(two, s);
        EvalWeights w;
        EXPECT_EQ(set_score(pos, s, w), set_score(pos, opposite, w)) << "sets " << int(s);
    }
}

// At the start the opponent's back rows cannot move, but their own set blocks them, not the bot.
TEST(EvaluationSymmetry, NothingIsWalledInAtTheStart) {
    for (SetId s = 0; s < kSetNB / 2; ++s) {
        SetId opposite = static_cast<SetId>(s + kSetNB / 2);
        Position pos = Position::start(mask_of(s) | mask_of(opposite), s);
        EXPECT_EQ(walled_in(pos, mask_of(s)), 0) << "set " << int(s);
        EXPECT_EQ(walled_in(pos, mask_of(opposite)), 0) << "set " << int(opposite);
    }
}

} // namespace
} // namespace halma::ai
