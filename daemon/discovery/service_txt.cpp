#include "daemon/discovery/service_txt.h"

#include "daemon/room/clean_text.h"
#include "engine/game.h"

#include <charconv>
#include <map>

namespace halma::daemon {

namespace {

// Spaces at either end dropped: a host name padded with thirty spaces ("ann (ann-laptop.local)"
// and then the padding) pushed the real machine's column out of sight in every room list. (Runs
// inside are kept: a room is joined by its name as its host has it.)
std::string trimmed(const std::string& text) {
    auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// The TXT record's own version (DNS-SD's txtvers convention), apart from the wire protocol's.
constexpr const char* kTxtVersion = "1";
constexpr int kProtocol = 1; // halma.v1, as wire::kProtocolVersion
constexpr std::size_t kMaxPlayerName = kMaxMemberName;
constexpr std::size_t kMaxRules = 128;
constexpr std::size_t kMaxItems = 32;

std::optional<int> small_number(std::string_view text, int low, int high) {
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc {} || end != text.data() + text.size() || value < low || value > high)
        return std::nullopt;
    return value;
}

bool is_hex(std::string_view text, std::size_t size) {
    return text.size() == size && text.find_first_not_of("0123456789abcdef") == text.npos;
}

std::optional<Phase> phase_from(std::string_view word) {
    for (Phase p :
        { Phase::kWaiting, Phase::kPlaying, Phase::kOver, Phase::kCancelled, Phase::kClosed })
        if (phase_word(p) == word) return p;
    return std::nullopt;
}

} // namespace

std::string_view phase_word(Phase phase) {
    switch (phase) {
    case Phase::kWaiting:
        return "waiting";
    case Phase::kPlaying:
        return "playing";
    case Phase::kOver:
        return "over";
    case Phase::kCancelled:
        return "cancelled";
    case Phase::kClosed:
        return "closed";
    }
    return "waiting";
}

std::vector<std::string> public_room_txt(const RoomConfig& config, int seats, int seats_taken,
    Phase phase, std::string_view host_player, std::string_view daemon_id) {
    auto rules = config.mode.rules.to_string();
    std::vector<std::string> items {
        std::string("txtvers=") + kTxtVersion,
        "proto=" + std::to_string(kProtocol),
        "daemon=" + std::string(daemon_id),
        "rid=" + config.room_id,
        "room=" + config.name,
        "host=" + std::string(host_player),
        "players=" + std::to_string(config.mode.players),
        "sets=" + std::to_string(config.mode.sets_per_player),
        "rules=" + rules,
        "limit=" + std::to_string(config.mode.move_limit),
        "seats=" + std::to_string(seats_taken) + "/" + std::to_string(seats),
        "phase=" + std::string(phase_word(phase)),
    };
    // Only when set, so that the adverts of ordinary rooms stay as they were.
    if (config.mode.hide_leader) items.push_back("leader=hidden");
    return items;
}

std::vector<std::string> friends_room_txt(
    std::string_view daemon_id, std::string_view salt, std::string_view tag) {
    return {
        std::string("txtvers=") + kTxtVersion,
        "proto=" + std::to_string(kProtocol),
        "daemon=" + std::string(daemon_id),
        "friends=" + std::string(salt) + "." + std::string(tag),
    };
}

std::optional<RoomAdvert> read_room_txt(const std::vector<std::string>& items) {
    if (items.size() > kMaxItems) return std::nullopt;
    // DNS-SD: a key's first occurrence counts; keys are case-insensitive (RFC 6763 6.4).
    std::map<std::string, std::string_view> kv;
    for (const auto& item : items) {
        auto eq = item.find('=');
        if (eq == 0 || eq == std::string::npos) continue;
        std::string key = item.substr(0, eq);
        for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        kv.emplace(std::move(key), std::string_view(item).substr(eq + 1));
    }
    auto get = [&](const char* key) -> std::string_view {
        auto it = kv.find(key);
        return it == kv.end() ? std::string_view {} : it->second;
    };
    RoomAdvert a;
    auto protocol = small_number(get("proto"), 1, 1'000'000);
    if (!protocol || *protocol != kProtocol) return std::nullopt;
    a.protocol = static_cast<std::uint32_t>(*protocol);
    if (!is_hex(get("daemon"), 16)) return std::nullopt;
    a.daemon_id = std::string(get("daemon"));

    if (auto friends = get("friends"); !friends.empty()) {
        auto dot = friends.find('.');
        if (dot == friends.npos) return std::nullopt;
        auto salt = friends.substr(0, dot), tag = friends.substr(dot + 1);
        if (!is_hex(salt, 16) || !is_hex(tag, 32)) return std::nullopt;
        a.friends_salt = std::string(salt);
        a.friends_tag = std::string(tag);
        return a;
    }

    if (!is_hex(get("rid"), 32)) return std::nullopt;
    a.room_id = std::string(get("rid"));
    a.name = trimmed(sanitize_text(get("room"), kMaxRoomName));
    if (a.name.find_first_not_of(' ') == std::string::npos) return std::nullopt;
    a.host_player = trimmed(sanitize_text(get("host"), kMaxPlayerName));
    auto players = small_number(get("players"), 2, 6);
    auto sets = small_number(get("sets"), 1, 3);
    auto limit = small_number(get("limit"), 1, kMaxMoveLimit);
    auto seats_text = get("seats");
    auto slash = seats_text.find('/');
    auto taken = small_number(seats_text.substr(0, slash), 0, 6);
    std::optional<int> seats;
    if (slash != seats_text.npos) seats = small_number(seats_text.substr(slash + 1), 1, 6);
    auto phase = phase_from(get("phase"));
    if (!players || !sets || !limit || !taken || !seats || *taken > *seats || !phase)
        return std::nullopt;
    // The mode must be one a room can have (6 players with 3 sets each, or 6 players in 2
    // seats, was listed), its rules ones this daemon plays: they were printed as they came, so
    // an advert's free text reached every player's room list.
    auto rules = engine::Rules::parse(get("rules"));
    if (!rules || get("rules").size() > kMaxRules || *seats != *players) return std::nullopt;
    auto setup = engine::GameSetup::make(*players, *sets, *rules);
    if (!setup) return std::nullopt;
    a.players = *players;
    a.sets_per_player = *sets;
    a.move_limit = *limit;
    a.seats = *seats;
    a.seats_taken = *taken;
    a.phase = *phase;
    a.rules = sanitize_text(get("rules"), kMaxRules);
    a.hide_leader = get("leader") == "hidden";
    return a;
}

} // namespace halma::daemon
