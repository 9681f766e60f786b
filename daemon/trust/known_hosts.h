// Trust on first use, as SSH does it: the first time this daemon joins a host it pins the host's
// CURVE public key in STATE_DIR/known_hosts, and from then on a host at that address with another
// key is refused before anything is sent to it. The file is read at each use, so removing a line
// (what the refusal tells a person to do) takes effect at once, with no restart.
#pragma once

#include "engine/result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace halma::daemon {

class KnownHosts {
public:
    explicit KnownHosts(std::filesystem::path file)
        : file_(std::move(file)) { }

    // The key pinned for "host:port", if any.
    std::optional<std::string> pinned(const std::string& address) const;
    // Pins `key` for the address (replacing nothing: a changed key is refused, never re-pinned).
    engine::Result<bool> pin(const std::string& address, const std::string& key) const;
    // Forgets the address's key; false when none was pinned.
    engine::Result<bool> forget(const std::string& address) const;
    const std::filesystem::path& file() const { return file_; }

private:
    // The file's lines "ADDRESS KEY", in order; damaged lines are skipped.
    std::vector<std::pair<std::string, std::string>> read() const;
    engine::Result<bool> write(const std::vector<std::pair<std::string, std::string>>& lines) const;

    std::filesystem::path file_;
};

// What a person reads when a host's key has changed: both fingerprints, and how to forget the old.
std::string changed_key_message(const std::string& address, const std::string& pinned_key,
    const std::string& offered_key, const std::filesystem::path& known_hosts);

} // namespace halma::daemon
