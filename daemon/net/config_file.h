// Reading halmad's TOML config file (toml++) into the settings the command line left unset,
// and naming where in the file a setting is: every error from the file starts "FILE:LINE: ",
// but a syntax error, "FILE line L, column C: " (toml_syntax_error.h).
// Internal to config.cpp, which checks the settings whatever gave them.
#pragma once

#include "daemon/net/config.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace halma::daemon {

// What the file said where: a setting's line, so an error in a long file names the line to fix.
// Only settings the file gave (a flag wins over the file, and its error names the flag).
struct FileLines {
    std::string path;
    std::map<std::string, std::uint32_t, std::less<>> settings;
    std::vector<std::uint32_t> rooms; // each [[room]] table's first line
    std::vector<std::map<std::string, std::uint32_t, std::less<>>> room_settings;

    std::string at(std::uint32_t line) const { return path + ":" + std::to_string(line) + ": "; }
};

struct BadConfig {
    std::string message;
    std::string setting = {}; // the setting at fault, to name its line in the file
    int room = -1; // the index of the [[room]] at fault
};

// "FILE:LINE: " for an error from the file; nothing for one from a flag or a default.
std::string where(const BadConfig& bad, const std::optional<FileLines>& file);

// Reads the TOML file into the settings the command line did not give, and notes each one's
// line in `lines`. Its own errors start "FILE:LINE: " (a syntax error, "FILE line L, column C: ").
std::optional<BadConfig> apply_file(
    const std::string& path, Config& c, const CLI::App& app, FileLines& lines);

} // namespace halma::daemon
