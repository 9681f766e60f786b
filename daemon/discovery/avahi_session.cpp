#include "daemon/discovery/avahi_session.h"

#include "daemon/discovery/lan_table.h"

#include <avahi-common/error.h>
#include <avahi-common/timeval.h>
#include <cerrno>
#include <memory>
#include <net/if.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace halma::daemon {

namespace {

using std::chrono::milliseconds;

// With no D-Bus system bus avahi-client cannot even wait for avahi-daemon: try again now and then.
constexpr milliseconds kRetryUnavailable { 10'000 };

// The work an `after` timer runs, with the timer itself so it can free it.
struct Timer {
    std::function<void()> work;
    AvahiTimeout* timeout = nullptr;
    std::vector<AvahiTimeout*>* list = nullptr;
    const AvahiPoll* api = nullptr;
};

} // namespace

AvahiSession::AvahiSession(
    AvahiShared& shared, std::vector<std::string> interfaces, zmq::socket_t pipe)
    : shared_(shared)
    , interface_names_(std::move(interfaces))
    , pipe_(std::move(pipe)) {
    poll_ = avahi_simple_poll_new();
    const AvahiPoll* api = avahi_simple_poll_get(poll_);
    wake_watch_ = api->watch_new(
        api, shared_.wake_fd, AVAHI_WATCH_IN,
        [](AvahiWatch*, int fd, AvahiWatchEvent, void* self) {
            std::uint64_t count = 0;
            (void)!read(fd, &count, sizeof count);
            static_cast<AvahiSession*>(self)->wake();
        },
        this);
}

AvahiSession::~AvahiSession() {
    drop_client();
    const AvahiPoll* api = avahi_simple_poll_get(poll_);
    for (auto* t : timeouts_) api->timeout_free(t);
    if (wake_watch_) api->watch_free(wake_watch_);
    avahi_simple_poll_free(poll_);
}

void AvahiSession::run() {
    start_client();
    for (;;) {
        int r = avahi_simple_poll_iterate(poll_, -1);
        if (r > 0) break; // quit, from wake()
        if (r < 0 && errno != EINTR) {
            spdlog::error("mDNS: avahi's poll failed ({}); LAN discovery stops", strerror(errno));
            set_state(DiscoveryState::kUnavailable, "avahi's poll failed");
            break;
        }
    }
}

void AvahiSession::wake() {
    bool quit;
    {
        std::lock_guard lock(shared_.mutex);
        quit = shared_.quit;
    }
    if (quit) {
        avahi_simple_poll_quit(poll_);
        return;
    }
    take_wanted();
}

void AvahiSession::after(milliseconds delay, std::function<void()> work) {
    const AvahiPoll* api = avahi_simple_poll_get(poll_);
    struct timeval when;
    avahi_elapse_time(&when, static_cast<unsigned>(delay.count()), 0);
    auto* timer = new Timer { std::move(work), nullptr, &timeouts_, api };
    timer->timeout = api->timeout_new(
        api, &when,
        [](AvahiTimeout* t, void* data) {
            std::unique_ptr<Timer> owned(static_cast<Timer*>(data));
            std::erase(*owned->list, t);
            owned->api->timeout_free(t);
            owned->work();
        },
        timer);
    timeouts_.push_back(timer->timeout);
}

void AvahiSession::start_client() {
    int error = 0;
    // NO_FAIL: with no avahi-daemon (yet, or while it restarts) the client waits in CONNECTING
    // and comes up by itself when the daemon appears. The callback can run before
    // avahi_client_new returns, so it works on the client it is given, not on client_.
    client_ = avahi_client_new(
        avahi_simple_poll_get(poll_), AVAHI_CLIENT_NO_FAIL,
        [](AvahiClient* c, AvahiClientState state, void* self) {
            static_cast<AvahiSession*>(self)->client_changed(c, state);
        },
        this, &error);
    if (!client_) {
        // Only when there is no D-Bus system bus to wait on at all.
        set_state(DiscoveryState::kUnavailable,
            std::string("cannot reach avahi over D-Bus (is the system bus running?): ")
                + avahi_strerror(error));
        after(kRetryUnavailable, [this] { start_client(); });
    }
}

// Frees everything that belongs to the client (avahi's rule after AVAHI_ERR_DISCONNECTED); what
// the loop wants published is kept, to register again with the next client.
void AvahiSession::drop_client() {
    for (auto& [key, found] : found_) forget(found);
    found_.clear();
    if (browser_) avahi_service_browser_free(browser_);
    browser_ = nullptr;
    for (auto& [key, g] : groups_) {
        if (g.group) avahi_entry_group_free(g.group);
        g.group = nullptr;
    }
    if (client_) avahi_client_free(client_);
    client_ = nullptr;
    machine_.clear();
}

void AvahiSession::client_changed(AvahiClient* c, AvahiClientState state) {
    switch (state) {
    case AVAHI_CLIENT_S_RUNNING:
        client_ = c;
        if (const char* fqdn = avahi_client_get_host_name_fqdn(c)) machine_ = fqdn;
        set_state(DiscoveryState::kRunning, running_detail());
        for (auto& [key, g] : groups_) register_group(g);
        start_browser();
        return;
    case AVAHI_CLIENT_S_REGISTERING:
    case AVAHI_CLIENT_S_COLLISION:
        // The machine's own name is being (re)claimed: services wait until it is RUNNING again.
        reset_groups();
        return;
    case AVAHI_CLIENT_CONNECTING:
        set_state(DiscoveryState::kConnecting, "avahi-daemon is not running");
        return;
    case AVAHI_CLIENT_FAILURE:
        break;
    }
    int error = avahi_client_errno(c);
    if (error == AVAHI_ERR_DISCONNECTED) {
        // avahi-daemon went away (restart, upgrade): a new client waits for it in CONNECTING.
        // Not from inside the client's own callback: on the next turn of the poll.
        set_state(DiscoveryState::kConnecting, "avahi-daemon went away");
        after(milliseconds(0), [this] {
            drop_client();
            start_client();
        });
        return;
    }
    set_state(DiscoveryState::kUnavailable, std::string("avahi: ") + avahi_strerror(error));
    after(kRetryUnavailable, [this] {
        drop_client();
        start_client();
    });
}

void AvahiSession::set_state(DiscoveryState state, std::string detail) {
    if (state == state_ && detail == detail_) return;
    state_ = state;
    detail_ = std::move(detail);
    if (state != DiscoveryState::kRunning) {
        // What was found can no longer be followed: the LAN list empties until avahi is back.
        for (auto& [key, found] : found_) forget(found);
        found_.clear();
        if (browser_) avahi_service_browser_free(browser_);
        browser_ = nullptr;
    }
    publish_news();
}

// What `halma daemon status` says of a running discovery: where it runs, and which of the
// interfaces it was told to keep to do not exist (a typo, "wlan0" on a laptop whose Wi-Fi is
// "wlp2s0", left every room unseen while the status said all was well).
std::string AvahiSession::running_detail() const {
    std::string detail = "publishing and browsing " + std::string(kServiceType);
    if (interface_names_.empty()) return detail;
    std::string missing;
    for (const auto& name : interface_names_)
        if (if_nametoindex(name.c_str()) == 0) missing += (missing.empty() ? "" : ", ") + name;
    std::string names;
    for (const auto& name : interface_names_) names += (names.empty() ? "" : ",") + name;
    detail += " on " + names;
    if (missing.empty()) return detail;
    std::string present;
    if (struct if_nameindex* all = ::if_nameindex()) {
        for (auto* i = all; i->if_index != 0 && i->if_name; ++i)
            present += (present.empty() ? "" : ", ") + std::string(i->if_name);
        if_freenameindex(all);
    }
    return detail + "; no interface here is called " + missing + " (there are: " + present + ")";
}

std::vector<int> AvahiSession::interface_indexes() const {
    std::vector<int> indexes;
    for (const auto& name : interface_names_)
        if (unsigned index = if_nametoindex(name.c_str()))
            indexes.push_back(static_cast<int>(index));
    return indexes;
}

bool AvahiSession::allowed(int interface) const {
    if (interface_names_.empty()) return true;
    char name[IF_NAMESIZE] = {};
    if (!if_indextoname(static_cast<unsigned>(interface), name)) return false;
    return std::find(interface_names_.begin(), interface_names_.end(), std::string(name))
        != interface_names_.end();
}

void AvahiSession::publish_news() {
    std::vector<ResolvedService> resolved;
    for (const auto& [key, found] : found_)
        if (found.resolved)
            resolved.push_back({ std::get<2>(key), std::get<3>(key), found.host_name, found.address,
                found.port, found.txt, found.order, found.first_seen });
    std::size_t left_out = 0;
    auto rooms = merge_services(resolved, &left_out);
    // Said once as the bound is reached, and once as it is no longer: not at every advert.
    if (left_out > 0 && rooms_left_out_ == 0)
        spdlog::warn("mDNS: the LAN advertises more rooms than the {} listed (at most {} from one "
                     "machine): the ones seen first are listed",
            kMaxLanRooms, kMaxLanRoomsPerMachine);
    else if (left_out == 0 && rooms_left_out_ > 0)
        spdlog::info("mDNS: every room the LAN advertises is listed again");
    rooms_left_out_ = left_out;
    {
        std::lock_guard lock(shared_.mutex);
        shared_.news.state = state_;
        shared_.news.detail = detail_;
        shared_.news.machine = machine_;
        shared_.news.rooms = std::move(rooms);
        shared_.news_changed = true;
    }
    // One byte says "look": if the loop has not read the last one yet, this one may be dropped.
    (void)pipe_.send(zmq::str_buffer("n"), zmq::send_flags::dontwait);
}

} // namespace halma::daemon
