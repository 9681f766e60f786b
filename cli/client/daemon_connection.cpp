#include "cli/client/daemon_connection.h"

#include "cli/client/daemon_link.h"
#include "cli/client/reply_escape.h"
#include "cli/client/runtime_check.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>

namespace halma::cli {

namespace {

// Time for the daemon's "it failed" to reach us after the deadline it honours.
constexpr std::chrono::milliseconds kReplyGrace { 500 };

std::string random_key() {
    std::random_device rd;
    char text[17];
    std::snprintf(text, sizeof text, "%08x%08x", rd(), rd());
    return text;
}

// The service's directory is 0750 for the group halma: a user outside it cannot even see
// whether its socket is there, so the fallback of default_runtime_dir() passed them by.
std::string no_daemon_message(const std::string& socket_path) {
    std::error_code ignored;
    std::string service_socket = std::string(kServiceRuntimeDir) + "/api.sock";
    if (socket_path != service_socket && std::filesystem::is_directory(kServiceRuntimeDir, ignored)
        && access(kServiceRuntimeDir, X_OK) != 0)
        return "no halmad of your own is running (no " + socket_path
            + "), and the halma service's socket in " + kServiceRuntimeDir
            + " is only for root and the group halma: ask the owner to run `sudo adduser "
              "YOUR-NAME halma` (then log in again), or start your own with `halmad &`";
    return "no halmad is running here (no " + socket_path
        + "); start one with `halmad &`, or point --runtime-dir at its directory";
}

} // namespace

std::string default_runtime_dir() {
    if (const char* d = std::getenv("HALMA_RUNTIME_DIR"); d && *d) return d;
    std::string own = "/tmp/halma-" + std::to_string(getuid());
    if (const char* d = std::getenv("XDG_RUNTIME_DIR"); d && *d) own = std::string(d) + "/halma";
    // On a host where halmad runs as the Debian service and nobody runs one of their own (a Pi),
    // `halma rooms` should just work: the service's directory is the fallback. Whoever may not
    // use it (not root, not in the group halma) is told so by the socket's permissions.
    std::error_code ignored;
    if (!std::filesystem::exists(own + "/api.sock", ignored)
        && std::filesystem::exists(std::string(kServiceRuntimeDir) + "/api.sock", ignored))
        return kServiceRuntimeDir;
    return own;
}

DaemonConnection::DaemonConnection(
    const std::string& runtime_dir, std::chrono::milliseconds timeout)
    : context_(1)
    , socket_(context_, zmq::socket_type::dealer)
    , socket_path_(runtime_dir + "/api.sock")
    , timeout_(timeout) {
    socket_.set(zmq::sockopt::linger, 0);
    // Checked before connecting: a squatter's socket hears nothing, not even a connection.
    problem_ = runtime_dir_problem(runtime_dir);
    if (!problem_) socket_.connect("ipc://" + socket_path_);
}

bool DaemonConnection::receive(std::chrono::milliseconds wait, pb::Reply& out) {
    zmq::pollitem_t item { socket_.handle(), 0, ZMQ_POLLIN, 0 };
    if (zmq::poll(&item, 1, wait) == 0) return false;
    zmq::message_t msg;
    if (!socket_.recv(msg, zmq::recv_flags::dontwait)) return false;
    if (!out.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) return false;
    make_printable(out); // whatever prints it later, nothing in it drives the terminal
    return true;
}

std::expected<pb::Reply, NoReply> DaemonConnection::call(pb::Request request) {
    if (problem_) return std::unexpected(NoReply { *problem_ });
    if (!std::filesystem::exists(socket_path_))
        return std::unexpected(NoReply { no_daemon_message(socket_path_) });
    if (next_id_ == 1 && nothing_listens(socket_path_))
        return std::unexpected(NoReply { "no halmad is running here (" + socket_path_
            + " refuses connections: left by one that ended); start one with `halmad &`" });
    std::uint64_t id = next_id_++;
    request.set_version(1);
    request.set_request_id(id);
    // The daemon (and a room's host) carries the request out before this or never, so when we
    // stop waiting and say it failed, that stays true. steady_clock is CLOCK_MONOTONIC, the
    // daemon's clock too.
    auto deadline = std::chrono::steady_clock::now() + timeout_;
    request.set_deadline_ms(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline.time_since_epoch())
            .count()));
    if (request.request_key().empty()) request.set_request_key(random_key());
    socket_.send(zmq::buffer(request.SerializeAsString()), zmq::send_flags::none);
    deadline += kReplyGrace;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pb::Reply reply;
        if (left.count() <= 0 || !receive(left, reply)) break;
        if (keep_push(reply)) continue;
        if (reply.request_id() == id) return reply;
    }
    return std::unexpected(NoReply { "halmad did not answer within "
        + std::to_string(timeout_.count()) + " ms; it will not carry the request out now" });
}

void DaemonConnection::drain() {
    zmq::message_t msg;
    while (socket_.recv(msg, zmq::recv_flags::dontwait)) {
        pb::Reply reply;
        if (!reply.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) continue;
        make_printable(reply);
        keep_push(reply);
    }
}

bool DaemonConnection::keep_push(const pb::Reply& reply) {
    if (reply.has_event()) {
        events_.push_back(reply.event());
        return true;
    }
    if (reply.request_id() == 0 && reply.has_rooms()) {
        // Only the newest list matters to anyone reading them.
        room_lists_.clear();
        room_lists_.push_back(reply.rooms());
        return true;
    }
    return false;
}

bool DaemonConnection::wait_for_push(
    const std::function<bool()>& arrived, std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (!arrived()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() < 0) return false;
        pb::Reply reply;
        if (receive(left, reply))
            keep_push(reply);
        else if (std::chrono::steady_clock::now() >= deadline)
            return false;
    }
    return true;
}

std::optional<pb::RoomList> DaemonConnection::next_room_list(std::chrono::milliseconds wait) {
    if (!wait_for_push([this] { return !room_lists_.empty(); }, wait)) return std::nullopt;
    auto list = room_lists_.front();
    room_lists_.pop_front();
    return list;
}

std::optional<pb::Event> DaemonConnection::next_event(std::chrono::milliseconds wait) {
    if (!wait_for_push([this] { return !events_.empty(); }, wait)) return std::nullopt;
    auto e = events_.front();
    events_.pop_front();
    return e;
}

} // namespace halma::cli
