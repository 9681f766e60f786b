// The rooms a host finds by what people type: a room's id, its name, or a friends room's code.
// Looked up, never scanned, so a join or a request costs the same beside ten rooms or ten
// thousand. Pure: no sockets, no protobuf; the host keeps it in step with its rooms.
#pragma once

#include "daemon/room/room_types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace halma::daemon {

class RoomIndex {
public:
    // Draws the random key that friends codes are hashed with (see by_code_).
    RoomIndex();

    // A room made or resumed; a room already indexed under this id is replaced.
    void add(const RoomConfig& room);
    // A room closed; an id not indexed is ignored.
    void remove(const std::string& room_id);

    // Every room the text may mean, for this daemon's own user (who may see every room):
    // its id, its name, or its code however typed (normalize_code()), in any visibility.
    std::vector<std::string> matching(std::string_view text) const;
    // The room named exactly this, if any.
    std::optional<std::string> named(std::string_view name) const;
    // For another daemon joining by what its user typed: the public room of this name, else the
    // friends room whose code this is, compared in constant time. A friends room's name or id
    // alone finds nothing here: only its code (or a seat token, which the host checks) lets
    // anyone in.
    std::optional<std::string> joinable(std::string_view text) const;

    std::size_t size() const { return by_id_.size(); }

private:
    struct Entry {
        std::string name;
        Visibility visibility = Visibility::kPublic;
        std::string code; // normalize_code() of the room's code; empty for public rooms
    };
    // The code as a keyed hash (SipHash, key drawn at start): the index compares hashes, so how
    // long a lookup takes says nothing about how much of a guessed code is right.
    std::uint64_t code_key(std::string_view normalized_code) const;
    // The friends room of this code (as normalize_code() spells it), if any.
    std::optional<std::string> with_code(const std::string& normalized_code) const;

    std::unordered_map<std::string, Entry> by_id_;
    std::unordered_multimap<std::string, std::string> by_name_; // name -> room id
    std::unordered_multimap<std::uint64_t, std::string> by_code_; // code_key -> room id
    std::array<unsigned char, 16> key_ {};
};

} // namespace halma::daemon
