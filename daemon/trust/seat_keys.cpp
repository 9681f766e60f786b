#include "daemon/trust/seat_keys.h"

#include "daemon/net/paired_file.h"
#include "daemon/trust/host_key.h"

#include <sstream>

namespace halma::daemon {

SeatKeys load_seat_keys(const std::filesystem::path& room_dir) {
    SeatKeys keys;
    // Unreadable, or both copies torn: as if there were none (see the header).
    auto text = read_paired_file(room_dir / "keys");
    if (!text || !*text) return keys;
    std::istringstream in(**text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        MemberId member = kNoMember;
        std::string key;
        if (fields >> member) {
            fields >> key; // no key: bound to a plain link's (kPlainLinkKey)
            if (key.empty() || is_curve_key(key)) keys[member] = key;
        }
    }
    return keys;
}

std::string encode_seat_keys(const SeatKeys& keys) {
    std::string text;
    for (const auto& [member, key] : keys) text += std::to_string(member) + " " + key + "\n";
    return text;
}

engine::Result<bool> save_seat_keys(const std::filesystem::path& room_dir, const SeatKeys& keys) {
    auto written = write_paired_file(room_dir / "keys", encode_seat_keys(keys), Flush::kNow);
    if (!written) return std::unexpected(written.error());
    return true;
}

} // namespace halma::daemon
