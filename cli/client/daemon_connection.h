// The CLI's line to the local halmad: a DEALER on the daemon's ipc socket, requests matched to
// replies by id, and the events the daemon pushes after a subscribe.
#pragma once

#include "halma/v1/api.pb.h"

#include <chrono>
#include <deque>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <zmq.hpp>

namespace halma::cli {

namespace pb = ::halma::v1;

// The Debian service's runtime directory (RuntimeDirectory=halma in systemd/halmad.service).
inline constexpr const char* kServiceRuntimeDir = "/run/halma";

// Where the local daemon's socket is: --runtime-dir, $HALMA_RUNTIME_DIR, $XDG_RUNTIME_DIR/halma
// or /tmp/halma-UID (halmad's order, less systemd's $RUNTIME_DIRECTORY, which only the service
// itself sees), and when that holds no socket but the service's /run/halma does, the service.
std::string default_runtime_dir();

// A request that did not get a reply: no daemon, or no answer in time. Exit code 1.
struct NoReply {
    std::string message;
};

class DaemonConnection {
public:
    DaemonConnection(const std::string& runtime_dir, std::chrono::milliseconds timeout);

    // Sends the request (its version and id filled in) and waits for the matching reply.
    // Events arriving meanwhile are kept for next_event().
    std::expected<pb::Reply, NoReply> call(pb::Request request);
    // When no halmad is there to answer (no socket, or one left by a halmad that ended): the
    // words a request would fail with, which say how to start one; nullopt when one may be.
    std::optional<std::string> no_daemon() const;
    // The next pushed event, waiting at most `wait`; nullopt on timeout.
    std::optional<pb::Event> next_event(std::chrono::milliseconds wait);
    zmq::socket_t& socket() { return socket_; }
    zmq::context_t& context() { return context_; }
    // The next pushed LAN room list (after a subscribe with `lan`), waiting at most `wait`.
    std::optional<pb::RoomList> next_room_list(std::chrono::milliseconds wait);
    // Takes one message already waiting on the socket (after polling it) into the event queue.
    void drain();
    bool has_event() const { return !events_.empty(); }

private:
    bool receive(std::chrono::milliseconds wait, pb::Reply& out);
    // Keeps a pushed message (an event or a room list) for later; false if it is not one.
    bool keep_push(const pb::Reply& reply);
    // Reads pushes until `arrived` says what the caller waits for is there, at most `wait`.
    bool wait_for_push(const std::function<bool()>& arrived, std::chrono::milliseconds wait);

    zmq::context_t context_;
    zmq::socket_t socket_;
    std::string socket_path_;
    std::optional<std::string> problem_; // why the runtime directory is not safe to use
    std::chrono::milliseconds timeout_;
    std::uint64_t next_id_ = 1;
    std::deque<pb::Event> events_;
    std::deque<pb::RoomList> room_lists_;
};

} // namespace halma::cli
