// The one input of the room files fuzzer: the three files of a kept room (daemon/net/room_store.h)
// packed into one byte string, so that libFuzzer mutates them together and the seed generator
// writes what the fuzzer reads: a 2-byte little-endian length and the config file, a 2-byte
// length and the members file, then the events file to the end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace halma::fuzz {

struct RoomFiles {
    std::string config, members, events;
};

inline std::string pack(const RoomFiles& files) {
    std::string out;
    for (const std::string* part : { &files.config, &files.members }) {
        out += static_cast<char>(part->size() & 0xff);
        out += static_cast<char>(part->size() >> 8 & 0xff);
        out += *part;
    }
    return out + files.events;
}

inline RoomFiles unpack(std::string_view bytes) {
    RoomFiles files;
    for (std::string* part : { &files.config, &files.members }) {
        std::size_t length = bytes.size() < 2
            ? 0
            : static_cast<std::uint8_t>(bytes[0]) | static_cast<std::uint8_t>(bytes[1]) << 8;
        bytes.remove_prefix(std::min<std::size_t>(2, bytes.size()));
        length = std::min(length, bytes.size());
        *part = bytes.substr(0, length);
        bytes.remove_prefix(length);
    }
    files.events = bytes;
    return files;
}

} // namespace halma::fuzz
