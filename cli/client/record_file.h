// A game record read from a file someone handed over ("look at this game"): only a regular
// file (or standard input, "-"), and only so much of it. `halma analyze record /dev/zero` read
// on until it had 2.7 GB (a red-team QA pass); the longest game a room allows makes a record of
// a few megabytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace halma::cli {

inline constexpr std::size_t kMaxRecordBytes = 16u << 20;

// The file's text; nullopt with `error` set ("cannot read X: No such file or directory", "X is
// not a file (a device)", "X is over 16 MiB: not a game record").
std::optional<std::string> read_record_file(const std::string& path, std::string& error);

} // namespace halma::cli
