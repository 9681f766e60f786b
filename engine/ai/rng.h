// A tiny seeded random generator (splitmix64): the bots' only source of chance, so the same
// seed and position always give the same move, on every platform and standard library.
#pragma once

#include <cstdint>

namespace halma::ai {

class Rng {
public:
    explicit Rng(std::uint64_t seed)
        : state_(seed) { }

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n); n > 0. The tiny modulo bias does not matter for choosing moves.
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }

private:
    std::uint64_t state_;
};

} // namespace halma::ai
