// Percentiles of a run's timings, as every daemon bench prints them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

namespace halma::bench {

struct Summary {
    std::size_t n = 0;
    double p50 = 0, p99 = 0, max = 0, mean = 0;
};

inline Summary summarize(std::vector<double> v) {
    Summary s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    auto rank = [&](double p) {
        auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
        return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
    };
    s.n = v.size();
    s.p50 = rank(0.50);
    s.p99 = rank(0.99);
    s.max = v.back();
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    return s;
}

} // namespace halma::bench
