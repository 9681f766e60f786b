// Browsing: every `_halma._tcp` service on the allowed interfaces, each resolved on every
// interface and protocol it is seen on.
//
// Resolutions are one-shot, as avahi-browse does them, and record browsers on the service's TXT
// record and on its host's address record say when to resolve again. A resolver kept open to follow
// changes was seen to go wrong with avahi 0.8: during a name collision between two other hosts it
// reported the second service with the first one's host and TXT, and after a change of SRV target
// it kept the old host's address. A fresh resolution was right every time.
#include "daemon/discovery/avahi_session.h"

#include <avahi-common/domain.h>
#include <avahi-common/error.h>
#include <cstring>
#include <net/if.h>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace {

// Services followed at once (one per interface and protocol each): a LAN cannot make this
// daemon hold more resolvers, whatever it advertises.
constexpr std::size_t kMaxFound = 1024;
// A resolver that times out is tried again this many times while its service is still listed.
constexpr int kMaxResolveFailures = 5;
constexpr std::size_t kMaxTxtItems = 32;

} // namespace

void AvahiSession::start_browser() {
    if (browser_ || !client_) return;
    browser_ = avahi_service_browser_new(
        client_, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC, kServiceType, nullptr, AvahiLookupFlags(0),
        [](AvahiServiceBrowser*, AvahiIfIndex interface, AvahiProtocol protocol,
            AvahiBrowserEvent event, const char* name, const char* type, const char* domain,
            AvahiLookupResultFlags, void* self) {
            static_cast<AvahiSession*>(self)->browsed(
                interface, protocol, event, name, type, domain);
        },
        this);
    if (!browser_)
        spdlog::warn("mDNS: cannot browse {}: {}", kServiceType,
            avahi_strerror(avahi_client_errno(client_)));
}

void AvahiSession::browsed(AvahiIfIndex interface, AvahiProtocol protocol, AvahiBrowserEvent event,
    const char* name, const char* type, const char* domain) {
    (void)type;
    switch (event) {
    case AVAHI_BROWSER_NEW: {
        if (!allowed(interface)) return;
        FoundKey key { interface, protocol, name, domain };
        if (found_.count(key)) return;
        if (found_.size() >= kMaxFound) {
            if (!warned_full_)
                spdlog::warn("mDNS: the LAN advertises over {} halma services; the rest are "
                             "ignored",
                    kMaxFound);
            warned_full_ = true;
            return;
        }
        resolve(key, found_[key]);
        follow_txt(key, found_[key]);
        return;
    }
    case AVAHI_BROWSER_REMOVE: {
        auto it = found_.find(FoundKey { interface, protocol, name, domain });
        if (it == found_.end()) return;
        forget(it->second);
        bool was_resolved = it->second.resolved;
        found_.erase(it);
        if (found_.size() < kMaxFound) warned_full_ = false;
        if (was_resolved) publish_news();
        return;
    }
    case AVAHI_BROWSER_FAILURE:
        spdlog::warn("mDNS: browsing failed: {}", avahi_strerror(avahi_client_errno(client_)));
        avahi_service_browser_free(browser_);
        browser_ = nullptr;
        // A client failure restarts everything; a browser failure alone is tried again soon.
        after(std::chrono::milliseconds(5000), [this] {
            if (client_ && avahi_client_get_state(client_) == AVAHI_CLIENT_S_RUNNING)
                start_browser();
        });
        return;
    case AVAHI_BROWSER_ALL_FOR_NOW:
    case AVAHI_BROWSER_CACHE_EXHAUSTED:
        return;
    }
}

void AvahiSession::forget(Found& found) {
    if (found.resolver) avahi_service_resolver_free(found.resolver);
    if (found.txt_browser) avahi_record_browser_free(found.txt_browser);
    if (found.address_browser) avahi_record_browser_free(found.address_browser);
    found.resolver = nullptr;
    found.txt_browser = nullptr;
    found.address_browser = nullptr;
    found.address_host.clear();
}

void AvahiSession::follow_txt(const FoundKey& key, Found& found) {
    const auto& [interface, protocol, name, domain] = key;
    char full[AVAHI_DOMAIN_NAME_MAX];
    if (avahi_service_name_join(full, sizeof full, name.c_str(), kServiceType, domain.c_str()) < 0)
        return;
    found.txt_browser = avahi_record_browser_new(
        client_, interface, protocol, full, AVAHI_DNS_CLASS_IN, AVAHI_DNS_TYPE_TXT,
        AvahiLookupFlags(0),
        [](AvahiRecordBrowser* b, AvahiIfIndex, AvahiProtocol, AvahiBrowserEvent event, const char*,
            std::uint16_t, std::uint16_t, const void*, std::size_t, AvahiLookupResultFlags,
            void* self) {
            if (event != AVAHI_BROWSER_NEW) return;
            auto* session = static_cast<AvahiSession*>(self);
            for (auto& [k, f] : session->found_)
                if (f.txt_browser == b) {
                    session->resolve_afresh(k);
                    return;
                }
        },
        this);
}

// A new TXT record for the service, or a new address of its host: resolve it afresh (one
// resolution at a time; a change that comes during one is picked up by another right after).
void AvahiSession::resolve_afresh(const FoundKey& key) {
    auto it = found_.find(key);
    if (it == found_.end()) return;
    if (it->second.resolver) {
        it->second.resolve_again = true;
        return;
    }
    resolve(key, it->second);
}

// The host's address record, on the interface and protocol the service was seen on: a new
// address there (one this resolution did not give) has the service resolved again.
void AvahiSession::follow_address(const FoundKey& key, Found& found) {
    if (found.address_browser && found.address_host == found.host_name) return;
    if (found.address_browser) avahi_record_browser_free(found.address_browser);
    found.address_browser = nullptr;
    found.address_host = found.host_name;
    if (found.host_name.empty()) return;
    const auto& [interface, protocol, name, domain] = key;
    (void)name;
    (void)domain;
    found.address_browser = avahi_record_browser_new(
        client_, interface, protocol, found.host_name.c_str(), AVAHI_DNS_CLASS_IN,
        protocol == AVAHI_PROTO_INET6 ? AVAHI_DNS_TYPE_AAAA : AVAHI_DNS_TYPE_A, AvahiLookupFlags(0),
        [](AvahiRecordBrowser* b, AvahiIfIndex, AvahiProtocol, AvahiBrowserEvent event, const char*,
            std::uint16_t, std::uint16_t, const void* rdata, std::size_t size,
            AvahiLookupResultFlags, void* self) {
            if (event == AVAHI_BROWSER_NEW)
                static_cast<AvahiSession*>(self)->address_seen(b, rdata, size);
        },
        this);
}

void AvahiSession::address_seen(AvahiRecordBrowser* browser, const void* rdata, std::size_t size) {
    AvahiAddress seen {};
    if (size == 4) {
        seen.proto = AVAHI_PROTO_INET;
        std::memcpy(&seen.data.ipv4.address, rdata, 4);
    } else if (size == 16) {
        seen.proto = AVAHI_PROTO_INET6;
        std::memcpy(seen.data.ipv6.address, rdata, 16);
    } else {
        return;
    }
    char ip[AVAHI_ADDRESS_STR_MAX] = {};
    avahi_address_snprint(ip, sizeof ip, &seen);
    for (auto& [key, found] : found_) {
        if (found.address_browser != browser) continue;
        // The one it was resolved at (the browser's first answer, mostly): nothing new.
        std::string_view current = found.address.ip;
        if (current.substr(0, current.find('%')) == ip) return;
        spdlog::debug("mDNS: {} has a new address {}; resolving '{}' again", found.host_name, ip,
            std::get<2>(key));
        resolve_afresh(key);
        return;
    }
}

void AvahiSession::resolve(const FoundKey& key, Found& found) {
    const auto& [interface, protocol, name, domain] = key;
    // The address protocol is the one the service was seen on: an IPv6 sighting gives the
    // IPv6 address, so a link with IPv6 only still yields an address to connect to.
    found.resolver = avahi_service_resolver_new(
        client_, interface, protocol, name.c_str(), kServiceType, domain.c_str(), protocol,
        AvahiLookupFlags(0),
        [](AvahiServiceResolver* r, AvahiIfIndex i, AvahiProtocol p, AvahiResolverEvent e,
            const char* n, const char*, const char* d, const char* host, const AvahiAddress* a,
            std::uint16_t port, AvahiStringList* txt, AvahiLookupResultFlags, void* self) {
            static_cast<AvahiSession*>(self)->resolved(r, i, p, e, n, d, host, a, port, txt);
        },
        this);
    if (!found.resolver)
        spdlog::debug(
            "mDNS: cannot resolve '{}': {}", name, avahi_strerror(avahi_client_errno(client_)));
}

void AvahiSession::resolved(AvahiServiceResolver* resolver, AvahiIfIndex interface,
    AvahiProtocol protocol, AvahiResolverEvent event, const char* name, const char* domain,
    const char* host_name, const AvahiAddress* address, std::uint16_t port, AvahiStringList* txt) {
    FoundKey key { interface, protocol, name, domain };
    auto it = found_.find(key);
    if (it == found_.end() || it->second.resolver != resolver) return;
    Found& found = it->second;
    if (event == AVAHI_RESOLVER_FAILURE) {
        spdlog::debug(
            "mDNS: resolving '{}' failed: {}", name, avahi_strerror(avahi_client_errno(client_)));
        avahi_service_resolver_free(resolver);
        found.resolver = nullptr;
        found.resolve_again = false;
        // What was resolved before stays listed: the service is still announced.
        if (++found.failures <= kMaxResolveFailures) resolve(key, found);
        return;
    }
    avahi_service_resolver_free(resolver);
    found.resolver = nullptr;
    found.failures = 0;
    char ip[AVAHI_ADDRESS_STR_MAX] = {};
    avahi_address_snprint(ip, sizeof ip, address);
    found.address.ip = ip;
    found.address.interface = interface;
    found.address.ipv6 = address->proto == AVAHI_PROTO_INET6;
    // A link-local IPv6 address means nothing without its interface (avahi #110).
    if (found.address.ipv6 && found.address.link_local())
        found.address.ip += "%" + std::to_string(interface);
    found.host_name = host_name ? host_name : "";
    found.port = port;
    found.txt.clear();
    for (AvahiStringList* item = txt; item && found.txt.size() < kMaxTxtItems;
         item = avahi_string_list_get_next(item))
        found.txt.emplace_back(reinterpret_cast<const char*>(avahi_string_list_get_text(item)),
            avahi_string_list_get_size(item));
    found.resolved = true;
    found.order = ++resolutions_;
    if (found.first_seen == 0) found.first_seen = found.order;
    if (found.resolve_again) {
        found.resolve_again = false;
        resolve(key, found);
    }
    follow_address(key, found);
    spdlog::debug("mDNS: '{}' on interface {} is {} ({}) port {}, {} TXT items", name, interface,
        found.host_name, found.address.ip, port, found.txt.size());
    publish_news();
}

} // namespace halma::daemon
