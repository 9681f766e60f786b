// Publishing: one avahi entry group per hosted room, following the room as the loop asks.
#include "daemon/discovery/avahi_session.h"

#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace {

// Renames after collisions before a service gives up ("Family #2", "#3"...): a LAN where this
// many rooms share one name is one where somebody is squatting the name.
constexpr int kMaxRenames = 32;

AvahiStringList* to_strlst(const std::vector<std::string>& items) {
    AvahiStringList* list = nullptr;
    // avahi_string_list_add puts each item first: add from the back to keep the order.
    for (auto it = items.rbegin(); it != items.rend(); ++it)
        list = avahi_string_list_add(list, it->c_str());
    return list;
}

} // namespace

void AvahiSession::take_wanted() {
    std::vector<Publication> wanted;
    {
        std::lock_guard lock(shared_.mutex);
        if (!shared_.wanted_changed) return;
        wanted = shared_.wanted;
        shared_.wanted_changed = false;
    }
    std::map<std::string, Publication> next;
    for (auto& p : wanted) next.emplace(p.key, std::move(p));
    for (auto it = groups_.begin(); it != groups_.end();) {
        if (next.count(it->first)) {
            ++it;
            continue;
        }
        // Freeing the group withdraws its service (avahi sends the goodbye packets).
        if (it->second.group) avahi_entry_group_free(it->second.group);
        spdlog::debug("mDNS: withdrew '{}'", it->second.name);
        it = groups_.erase(it);
    }
    for (auto& [key, pub] : next) {
        auto [it, fresh] = groups_.try_emplace(key);
        Group& g = it->second;
        if (fresh) {
            g.pub = pub;
            g.name = pub.service_name;
            register_group(g);
        } else if (!(g.pub == pub)) {
            update_txt(g, pub);
        }
    }
}

void AvahiSession::register_group(Group& g) {
    if (!client_ || avahi_client_get_state(client_) != AVAHI_CLIENT_S_RUNNING) return;
    if (!g.group) {
        g.group = avahi_entry_group_new(
            client_,
            [](AvahiEntryGroup* group, AvahiEntryGroupState state, void* self) {
                static_cast<AvahiSession*>(self)->group_changed(group, state);
            },
            this);
        if (!g.group) {
            spdlog::warn("mDNS: cannot publish '{}': {}", g.name,
                avahi_strerror(avahi_client_errno(client_)));
            return;
        }
    }
    if (!avahi_entry_group_is_empty(g.group)) return; // registered already
    if (!add_services(g)) return;
    if (int error = avahi_entry_group_commit(g.group); error < 0)
        spdlog::warn("mDNS: cannot publish '{}': {}", g.name, avahi_strerror(error));
}

// Adds the service to the (empty) group under g.name, taking avahi's alternative names while
// the name is taken on this machine already.
bool AvahiSession::add_services(Group& g) {
    g.interfaces
        = interface_names_.empty() ? std::vector<int> { AVAHI_IF_UNSPEC } : interface_indexes();
    if (g.interfaces.empty()) {
        spdlog::warn("mDNS: none of the interfaces to publish on exists; '{}' waits", g.name);
        return false;
    }
    AvahiStringList* txt = to_strlst(g.pub.txt);
    int error = 0;
    for (;;) {
        for (int interface : g.interfaces) {
            error = avahi_entry_group_add_service_strlst(g.group, interface, AVAHI_PROTO_UNSPEC,
                AvahiPublishFlags(0), g.name.c_str(), kServiceType, nullptr, nullptr, g.pub.port,
                txt);
            if (error < 0) break;
        }
        if (error != AVAHI_ERR_COLLISION || ++g.renames > kMaxRenames) break;
        char* alternative = avahi_alternative_service_name(g.name.c_str());
        spdlog::info("mDNS: the name '{}' is taken here; publishing as '{}'", g.name, alternative);
        g.name = alternative;
        avahi_free(alternative);
        avahi_entry_group_reset(g.group);
    }
    avahi_string_list_free(txt);
    if (error < 0) {
        spdlog::warn("mDNS: cannot publish '{}': {}", g.name, avahi_strerror(error));
        avahi_entry_group_reset(g.group);
        return false;
    }
    return true;
}

// The room filled, started or ended: its TXT record follows, in place, under the same name.
void AvahiSession::update_txt(Group& g, const Publication& next) {
    bool same_service = next.port == g.pub.port && next.service_name == g.pub.service_name;
    g.pub = next;
    if (!g.group || avahi_entry_group_is_empty(g.group)) {
        register_group(g); // not added yet: added with the new TXT
        return;
    }
    if (!same_service) {
        avahi_entry_group_reset(g.group);
        g.name = g.pub.service_name;
        g.renames = 0;
        register_group(g);
        return;
    }
    // While avahi still probes the name, an update would go out unprobed under a name that may
    // yet turn out to be someone else's (other machines then mix the two services' records):
    // it waits until the group is established.
    if (avahi_entry_group_get_state(g.group) != AVAHI_ENTRY_GROUP_ESTABLISHED) {
        g.txt_pending = true;
        return;
    }
    push_txt(g);
}

void AvahiSession::push_txt(Group& g) {
    g.txt_pending = false;
    AvahiStringList* txt = to_strlst(g.pub.txt);
    int error = 0;
    for (int interface : g.interfaces) {
        error = avahi_entry_group_update_service_txt_strlst(g.group, interface, AVAHI_PROTO_UNSPEC,
            AvahiPublishFlags(0), g.name.c_str(), kServiceType, nullptr, txt);
        if (error < 0) break;
    }
    avahi_string_list_free(txt);
    if (error < 0) {
        spdlog::debug("mDNS: cannot update '{}' in place ({}); registering it again", g.name,
            avahi_strerror(error));
        avahi_entry_group_reset(g.group);
        register_group(g);
    }
}

void AvahiSession::group_changed(AvahiEntryGroup* group, AvahiEntryGroupState state) {
    auto it = std::find_if(
        groups_.begin(), groups_.end(), [&](const auto& e) { return e.second.group == group; });
    if (it == groups_.end()) return;
    Group& g = it->second;
    switch (state) {
    case AVAHI_ENTRY_GROUP_ESTABLISHED:
        spdlog::info("mDNS: published '{}' ({})", g.name, kServiceType);
        if (g.txt_pending) push_txt(g);
        return;
    case AVAHI_ENTRY_GROUP_COLLISION: {
        // Another machine has a service of that name: take avahi's alternative, same group.
        if (++g.renames > kMaxRenames) {
            spdlog::warn("mDNS: '{}' collides again and again; not published", g.name);
            avahi_entry_group_reset(group);
            return;
        }
        char* alternative = avahi_alternative_service_name(g.name.c_str());
        spdlog::info("mDNS: '{}' is taken on the LAN; publishing as '{}'", g.name, alternative);
        g.name = alternative;
        avahi_free(alternative);
        avahi_entry_group_reset(group);
        g.txt_pending = false; // added anew with the latest TXT
        if (add_services(g)) avahi_entry_group_commit(group);
        return;
    }
    case AVAHI_ENTRY_GROUP_FAILURE:
        spdlog::warn("mDNS: publishing '{}' failed: {}", g.name,
            avahi_strerror(avahi_client_errno(avahi_entry_group_get_client(group))));
        return;
    case AVAHI_ENTRY_GROUP_UNCOMMITED:
    case AVAHI_ENTRY_GROUP_REGISTERING:
        return;
    }
}

void AvahiSession::reset_groups() {
    for (auto& [key, g] : groups_)
        if (g.group) avahi_entry_group_reset(g.group);
}

} // namespace halma::daemon
