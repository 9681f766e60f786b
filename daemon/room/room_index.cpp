#include "daemon/room/room_index.h"

#include "daemon/room/secrets.h"

#include <algorithm>
#include <sodium.h>

namespace halma::daemon {

RoomIndex::RoomIndex() {
    static_assert(sizeof key_ == crypto_shorthash_KEYBYTES);
    randombytes_buf(key_.data(), key_.size());
}

std::uint64_t RoomIndex::code_key(std::string_view normalized_code) const {
    std::array<unsigned char, crypto_shorthash_BYTES> hash {};
    crypto_shorthash(hash.data(), reinterpret_cast<const unsigned char*>(normalized_code.data()),
        normalized_code.size(), key_.data());
    std::uint64_t key = 0;
    for (auto byte : hash) key = key << 8 | byte;
    return key;
}

void RoomIndex::add(const RoomConfig& room) {
    remove(room.room_id);
    Entry entry { room.name, room.visibility,
        room.visibility == Visibility::kFriends ? normalize_code(room.code) : "" };
    by_name_.emplace(entry.name, room.room_id);
    if (!entry.code.empty()) by_code_.emplace(code_key(entry.code), room.room_id);
    by_id_.emplace(room.room_id, std::move(entry));
}

void RoomIndex::remove(const std::string& room_id) {
    auto found = by_id_.find(room_id);
    if (found == by_id_.end()) return;
    const Entry& entry = found->second;
    auto erase_from = [&](auto& multimap, const auto& key) {
        for (auto [it, end] = multimap.equal_range(key); it != end;)
            it = it->second == room_id ? multimap.erase(it) : std::next(it);
    };
    erase_from(by_name_, entry.name);
    if (!entry.code.empty()) erase_from(by_code_, code_key(entry.code));
    by_id_.erase(found);
}

std::optional<std::string> RoomIndex::with_code(const std::string& normalized_code) const {
    if (normalized_code.empty()) return std::nullopt;
    // Two codes can share a hash; the code itself decides, compared without timing leaks.
    for (auto [it, end] = by_code_.equal_range(code_key(normalized_code)); it != end; ++it)
        if (auto entry = by_id_.find(it->second);
            entry != by_id_.end() && secrets_equal(entry->second.code, normalized_code))
            return it->second;
    return std::nullopt;
}

std::vector<std::string> RoomIndex::matching(std::string_view text) const {
    std::vector<std::string> found;
    if (text.empty()) return found;
    auto add = [&](const std::string& id) {
        if (std::find(found.begin(), found.end(), id) == found.end()) found.push_back(id);
    };
    std::string typed(text);
    if (by_id_.contains(typed)) add(typed);
    for (auto [it, end] = by_name_.equal_range(typed); it != end; ++it) add(it->second);
    if (auto id = with_code(normalize_code(text))) add(*id);
    return found;
}

std::optional<std::string> RoomIndex::named(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> RoomIndex::joinable(std::string_view text) const {
    if (text.empty()) return std::nullopt;
    for (auto [it, end] = by_name_.equal_range(std::string(text)); it != end; ++it)
        if (by_id_.at(it->second).visibility == Visibility::kPublic) return it->second;
    return with_code(normalize_code(text));
}

} // namespace halma::daemon
