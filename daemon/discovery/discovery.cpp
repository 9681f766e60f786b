#include "daemon/discovery/discovery.h"

#include "daemon/discovery/lan_table.h"
#include "daemon/discovery/service_txt.h"
#include "daemon/room/secrets.h"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::string machine_key(std::string_view machine) {
    std::string m = lower(machine);
    while (!m.empty() && m.back() == '.') m.pop_back();
    if (m.find('.') == std::string::npos) m += ".local";
    return m;
}

Discovery::Discovery(zmq::context_t& context, Options options)
    : options_(std::move(options))
    , daemon_id_(random_hex_id().substr(0, 16)) {
    if (!options_.enabled) {
        news_.detail = "halmad --no-mdns, or mdns = false in its config";
        return;
    }
    news_.state = DiscoveryState::kConnecting;
    news_.detail = "starting";
    worker_ = std::make_unique<AvahiWorker>(context, options_.interfaces);
}

bool Discovery::on_readable() {
    if (!worker_) return false;
    auto news = worker_->take_news();
    if (!news) return false;
    if (news->state != news_.state) {
        // One clear line per change; the first "not running" is the start-up warning.
        switch (news->state) {
        case DiscoveryState::kRunning:
            // Public rooms of other daemons, as `halma rooms` lists them (a friends room's advert
            // says nothing of it, and this daemon's own are not the LAN's).
            spdlog::info("mDNS: running as {}; {} public room(s) on the LAN so far", news->machine,
                std::count_if(news->rooms.begin(), news->rooms.end(),
                    [](const LanRoom& r) { return !r.ours && !r.advert.friends(); }));
            if (news->detail.find("no interface here") != std::string::npos)
                spdlog::warn("mDNS: {}", news->detail);
            break;
        case DiscoveryState::kConnecting:
        case DiscoveryState::kUnavailable:
            spdlog::warn("mDNS: {}: rooms are not published or found on the LAN until it is "
                         "back; joining by address (halma join HOST[:PORT]/ROOM) still works",
                news->detail);
            break;
        case DiscoveryState::kOff:
            break;
        }
    }
    bool rooms_changed = news->rooms != news_.rooms;
    news_ = std::move(*news);
    return rooms_changed;
}

void Discovery::room_changed(const RoomState& state) {
    if (!publishing()) return;
    const auto& config = state.config();
    if (state.phase() == Phase::kClosed) {
        room_gone(config.room_id);
        return;
    }
    std::pair<int, Phase> shown { state.seats_taken(), state.phase() };
    if (auto it = advertised_.find(config.room_id); it != advertised_.end() && it->second == shown)
        return;
    advertised_[config.room_id] = shown;
    Publication p;
    p.key = config.room_id;
    p.port = options_.port;
    if (config.visibility == Visibility::kFriends) {
        auto [it, fresh] = tags_.try_emplace(config.room_id);
        if (fresh) it->second = make_friends_tag(config.code);
        // The instance name says nothing of the room either: it is only unique.
        p.service_name = "halma friends " + it->second.salt.substr(0, 8);
        p.txt = friends_room_txt(daemon_id_, it->second.salt, it->second.tag);
    } else {
        p.service_name = config.name;
        p.txt = public_room_txt(config, state.seats(), state.seats_taken(), state.phase(),
            options_.player_name, daemon_id_);
    }
    auto it = published_.find(p.key);
    if (it != published_.end() && it->second == p) return;
    published_[p.key] = std::move(p);
    dirty_ = true;
}

void Discovery::room_gone(const std::string& room_id) {
    tags_.erase(room_id);
    advertised_.erase(room_id);
    if (published_.erase(room_id)) dirty_ = true;
}

void Discovery::flush() {
    if (!dirty_ || !worker_) return;
    dirty_ = false;
    std::vector<Publication> all;
    all.reserve(published_.size());
    for (const auto& [id, p] : published_) all.push_back(p);
    worker_->publish(std::move(all));
}

std::vector<const LanRoom*> Discovery::others() const {
    std::vector<const LanRoom*> list;
    for (const auto& r : news_.rooms)
        if (!r.advert.friends() && r.advert.daemon_id != daemon_id_) list.push_back(&r);
    return list;
}

std::vector<const LanRoom*> Discovery::named(std::string_view name) const {
    std::vector<const LanRoom*> exact, folded;
    for (const auto* r : others()) {
        if (r->advert.name == name) exact.push_back(r);
        if (lower(r->advert.name) == lower(name)) folded.push_back(r);
    }
    return exact.empty() ? folded : exact;
}

const LanRoom* Discovery::friends_room(std::string_view code) const {
    // Not code-shaped (the room's digits, and then its host key's): no need to hash.
    if (auto size = normalize_code(code).size();
        size != kFriendsCodeDigits && size != kFriendsCodeWithKey)
        return nullptr;
    for (const auto& r : news_.rooms)
        if (r.advert.friends() && r.advert.daemon_id != daemon_id_
            && friends_tag_matches(code, r.advert.friends_salt, r.advert.friends_tag))
            return &r;
    return nullptr;
}

std::vector<std::string> Discovery::machine_endpoints(
    std::string_view machine, std::uint16_t port) const {
    std::vector<LanAddress> addresses;
    std::string wanted = machine_key(machine);
    for (const auto& r : news_.rooms)
        if (machine_key(r.machine) == wanted)
            for (const auto& a : r.addresses)
                if (std::find(addresses.begin(), addresses.end(), a) == addresses.end())
                    addresses.push_back(a);
    std::sort(addresses.begin(), addresses.end(), address_before);
    std::vector<std::string> endpoints;
    for (const auto& a : addresses) endpoints.push_back(a.endpoint(port));
    return endpoints;
}

} // namespace halma::daemon
