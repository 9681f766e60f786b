// The baseline of the move-generation benchmark: the "plain generator" of
// shared/reference/perft.md (a byte per hole, precomputed neighbour tables, a stack-based flood
// fill per marble for hop chains), for short jumps and rest=any, written independently of the
// engine's tables. It gives the benchmark a figure measured on the same machine in the same run.
#pragma once

#include <cstdint>

namespace halma::bench {

struct PlainPerft {
    std::uint64_t leaves = 0;
    std::uint64_t generated = 0;
};

// perft from the 2-player start (sets 1 and 4), short jumps, rest=any, no other rules.
PlainPerft plain_perft(int depth);

} // namespace halma::bench
