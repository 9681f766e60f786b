// What every fuzz target shares: its entry point, and the way a target says that the code under
// test broke a promise (not merely refused bad input): a message, then abort(), which libFuzzer
// and the corpus driver both count as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace halma::fuzz {

[[noreturn]] inline void broken(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
    std::abort();
}

} // namespace halma::fuzz
