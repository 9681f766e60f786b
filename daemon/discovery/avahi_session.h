// The avahi thread's own state: the avahi-client connection and its life cycle, the entry groups
// of what this daemon publishes, and the browser and resolvers of what others publish. Only the
// avahi thread ever touches it (AvahiWorker owns the thread); avahi_session.cpp has the client's
// life cycle, avahi_publish.cpp the publishing and avahi_browse.cpp the browsing.
#pragma once

#include "daemon/discovery/lan_room.h"

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/simple-watch.h>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

// What the loop and the avahi thread share; every field under `mutex`.
struct AvahiShared {
    std::mutex mutex;
    std::vector<Publication> wanted;
    bool wanted_changed = false;
    bool quit = false;
    DiscoveryNews news;
    bool news_changed = false;
    int wake_fd = -1; // eventfd: the loop writes it after changing `wanted` or `quit`
};

class AvahiSession {
public:
    AvahiSession(AvahiShared& shared, std::vector<std::string> interfaces, zmq::socket_t pipe);
    ~AvahiSession();
    AvahiSession(const AvahiSession&) = delete;
    AvahiSession& operator=(const AvahiSession&) = delete;

    // Runs avahi's poll until the loop asks the thread to quit.
    void run();

private:
    // A hosted room's service and its entry group.
    struct Group {
        Publication pub;
        AvahiEntryGroup* group = nullptr;
        std::string name; // the instance name in use: pub.service_name, or avahi's alternative
        std::vector<int> interfaces; // what it was added on (AVAHI_IF_UNSPEC: all)
        int renames = 0;
        bool txt_pending = false; // pub.txt changed while avahi was still probing the name
    };
    // A service found by the browser on one interface and protocol.
    using FoundKey = std::tuple<int, int, std::string, std::string>; // if, proto, name, domain
    struct Found {
        AvahiServiceResolver* resolver = nullptr; // while a resolution is under way
        AvahiRecordBrowser* txt_browser = nullptr; // says when the TXT record changes
        // Says when the host's machine has a new address (its A or AAAA record): a laptop
        // moved from its dock to Wi-Fi, a new DHCP lease. Its adverts' TXT stays the same, so
        // the TXT browser alone kept the old address listed for good.
        AvahiRecordBrowser* address_browser = nullptr;
        std::string address_host; // the host name address_browser follows
        bool resolve_again = false; // the TXT or address changed while a resolution was under way
        bool resolved = false;
        int failures = 0;
        std::uint64_t order = 0; // when it was last resolved: the newest TXT wins
        std::uint64_t first_seen = 0; // when it was first resolved (lan_table.h)
        std::string host_name;
        LanAddress address;
        std::uint16_t port = 0;
        std::vector<std::string> txt;
    };

    // The client (avahi_session.cpp).
    void start_client();
    void drop_client();
    void client_changed(AvahiClient* client, AvahiClientState state);
    void set_state(DiscoveryState state, std::string detail);
    void after(std::chrono::milliseconds delay, std::function<void()> work);
    void wake();
    std::vector<int> interface_indexes() const;
    std::string running_detail() const;
    bool allowed(int interface) const;

    // Publishing (avahi_publish.cpp).
    void take_wanted();
    void register_group(Group& g);
    bool add_services(Group& g);
    void update_txt(Group& g, const Publication& next);
    void push_txt(Group& g);
    void group_changed(AvahiEntryGroup* group, AvahiEntryGroupState state);
    void reset_groups();

    // Browsing (avahi_browse.cpp).
    void start_browser();
    void browsed(AvahiIfIndex interface, AvahiProtocol protocol, AvahiBrowserEvent event,
        const char* name, const char* type, const char* domain);
    void resolved(AvahiServiceResolver* resolver, AvahiIfIndex interface, AvahiProtocol protocol,
        AvahiResolverEvent event, const char* name, const char* domain, const char* host_name,
        const AvahiAddress* address, std::uint16_t port, AvahiStringList* txt);
    void resolve(const FoundKey& key, Found& found);
    void follow_txt(const FoundKey& key, Found& found);
    void resolve_afresh(const FoundKey& key);
    void follow_address(const FoundKey& key, Found& found);
    void address_seen(AvahiRecordBrowser* browser, const void* rdata, std::size_t size);
    void forget(Found& found);
    void publish_news();

    AvahiShared& shared_;
    std::vector<std::string> interface_names_;
    zmq::socket_t pipe_;
    AvahiSimplePoll* poll_ = nullptr;
    AvahiClient* client_ = nullptr;
    AvahiWatch* wake_watch_ = nullptr;
    std::vector<AvahiTimeout*> timeouts_;
    std::map<std::string, Group> groups_; // by Publication::key
    AvahiServiceBrowser* browser_ = nullptr;
    std::map<FoundKey, Found> found_;
    std::uint64_t resolutions_ = 0;
    std::size_t rooms_left_out_ = 0; // past the list's bound when last merged (lan_table.h)
    bool warned_full_ = false;
    DiscoveryState state_ = DiscoveryState::kConnecting;
    std::string detail_;
    std::string machine_;
};

} // namespace halma::daemon
