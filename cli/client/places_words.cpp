#include "cli/client/places_words.h"

#include <algorithm>
#include <numeric>

namespace halma::cli {

std::string ordinal(unsigned n) {
    const char* suffix = n % 10 == 1 && n % 100 != 11 ? "st"
        : n % 10 == 2 && n % 100 != 12                ? "nd"
        : n % 10 == 3 && n % 100 != 13                ? "rd"
                                                      : "th";
    return std::to_string(n) + suffix;
}

std::string places_in_order(
    const std::vector<std::string>& names, const std::vector<unsigned>& places) {
    auto place = [&](std::size_t p) { return p < places.size() ? places[p] : 0u; };
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    // Undecided (0) after every decided place; ties keep seat order.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        unsigned pa = place(a) ? place(a) : ~0u, pb = place(b) ? place(b) : ~0u;
        return pa < pb;
    });
    std::string out;
    for (std::size_t p : order)
        out += (out.empty() ? "" : ", ") + names[p] + (place(p) ? " " + ordinal(place(p)) : "");
    return out;
}

} // namespace halma::cli
