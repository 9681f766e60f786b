// LAN discovery's avahi side, on a helper thread of its own. avahi-client calls are synchronous
// D-Bus round trips (a busy or restarting avahi-daemon can hold one for seconds), so none of them
// may run on halmad's event loop. The thread runs avahi's simple poll; the loop hands it the
// services to publish (under a lock, then a write to an eventfd the poll watches, which cannot
// lose a wake-up the way avahi_simple_poll_wakeup can) and the thread hands back what it found
// (under the same lock, then one byte on an inproc PAIR the loop polls, as the bots do).
#pragma once

#include "daemon/discovery/lan_room.h"

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

struct AvahiShared;

class AvahiWorker {
public:
    // `interfaces`: the names of the interfaces to publish and browse on; empty: all.
    AvahiWorker(zmq::context_t& context, std::vector<std::string> interfaces);
    ~AvahiWorker();
    AvahiWorker(const AvahiWorker&) = delete;
    AvahiWorker& operator=(const AvahiWorker&) = delete;

    // The loop's end of the pipe, to poll: readable when there is news.
    zmq::socket_t& socket() { return socket_; }
    // The services to publish from now on (all of them: what is not here is withdrawn).
    void publish(std::vector<Publication> wanted);
    // After the socket polled readable: the latest news, or nullopt if nothing changed.
    std::optional<DiscoveryNews> take_news();

private:
    std::shared_ptr<AvahiShared> shared_;
    zmq::socket_t socket_;
    std::thread thread_;
};

} // namespace halma::daemon
