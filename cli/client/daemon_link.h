// Whether the local halmad is still there. ZeroMQ reconnects a front end to a restarted daemon by
// itself, but the new daemon knows nothing of the old one's subscribers: without this a
// long-running front end (halma play, halma watch) would wait for events that never come.
// A socket monitor on the DEALER reports the line dropping and coming back.
#pragma once

#include "cli/client/daemon_connection.h"

#include <zmq.hpp>

namespace halma::cli {

// True when nothing listens at the socket (a daemon that died left its file behind): the
// kernel refuses at once, where ZeroMQ would quietly retry until the request's deadline.
bool nothing_listens(const std::string& socket_path);

class DaemonLink {
public:
    enum class Change { kNone, kLost, kBack };

    explicit DaemonLink(DaemonConnection& daemon);
    ~DaemonLink();
    DaemonLink(const DaemonLink&) = delete;
    DaemonLink& operator=(const DaemonLink&) = delete;

    // For zmq::poll beside the daemon's socket: readable when the line changed.
    zmq::socket_t& socket() { return monitor_; }
    // Reads what the monitor reported, without waiting: kLost once when the line drops, kBack
    // once when a daemon (a new one, as far as we know) answers the socket again: subscribe
    // again and re-read the view then.
    Change take();
    bool up() const { return up_; }

private:
    DaemonConnection& daemon_;
    zmq::socket_t monitor_;
    bool up_ = true; // the first request fails by itself if no daemon is there
    bool reported_lost_ = false;
};

} // namespace halma::cli
