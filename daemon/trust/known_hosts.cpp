#include "daemon/trust/known_hosts.h"

#include "daemon/net/durable_file.h"
#include "daemon/trust/host_key.h"

#include <fstream>
#include <sstream>

namespace halma::daemon {

// At most this many pinned hosts are read: more is no LAN (and bounds a damaged file).
constexpr std::size_t kMaxKnownHosts = 4096;

std::vector<std::pair<std::string, std::string>> KnownHosts::read() const {
    std::vector<std::pair<std::string, std::string>> lines;
    std::ifstream in(file_);
    std::string line;
    while (lines.size() < kMaxKnownHosts && std::getline(in, line)) {
        std::istringstream fields(line);
        std::string address, key;
        if (fields >> address >> key && is_curve_key(key)) lines.emplace_back(address, key);
    }
    return lines;
}

engine::Result<bool> KnownHosts::write(
    const std::vector<std::pair<std::string, std::string>>& lines) const {
    std::string text;
    for (const auto& [address, key] : lines) text += address + " " + key + "\n";
    return write_file_atomically(file_, text);
}

std::optional<std::string> KnownHosts::pinned(const std::string& address) const {
    for (auto& [a, key] : read())
        if (a == address) return key;
    return std::nullopt;
}

engine::Result<bool> KnownHosts::pin(const std::string& address, const std::string& key) const {
    auto lines = read();
    for (const auto& [a, k] : lines)
        if (a == address) return true;
    if (lines.size() >= kMaxKnownHosts) lines.erase(lines.begin()); // the oldest pin goes
    lines.emplace_back(address, key);
    return write(lines);
}

engine::Result<bool> KnownHosts::forget(const std::string& address) const {
    auto lines = read();
    auto size = lines.size();
    std::erase_if(lines, [&](const auto& line) { return line.first == address; });
    if (lines.size() == size) return false;
    if (auto written = write(lines); !written) return written;
    return true;
}

std::string changed_key_message(const std::string& address, const std::string& pinned_key,
    const std::string& offered_key, const std::filesystem::path& known_hosts) {
    return "the host at " + address + " has a new key (was " + key_fingerprint(pinned_key)
        + ", now " + key_fingerprint(offered_key)
        + "): someone may be impersonating it, so nothing was sent; if its owner reset its key, "
          "run halma forget-host "
        + address + " (or delete its line in " + known_hosts.string() + ")";
}

} // namespace halma::daemon
