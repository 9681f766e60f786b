#include "daemon/trust/seat_keys.h"

#include "daemon/net/durable_file.h"
#include "daemon/trust/host_key.h"

#include <fstream>
#include <sstream>

namespace halma::daemon {

SeatKeys load_seat_keys(const std::filesystem::path& room_dir) {
    SeatKeys keys;
    std::ifstream in(room_dir / "keys");
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
    return write_file_atomically(room_dir / "keys", encode_seat_keys(keys));
}

} // namespace halma::daemon
