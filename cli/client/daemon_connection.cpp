#include "cli/client/daemon_connection.h"

#include "cli/client/daemon_link.h"
#include "cli/client/reply_escape.h"
#include "cli/client/runtime_check.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <google/protobuf/message.h>
#include <optional>
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

std::string nobody_listens_message(const std::string& socket_path) {
    return "no halmad is running here (" + socket_path
        + " refuses connections: left by one that ended); start one with `halmad &`";
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

namespace {

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1
            : (c >> 5) == 6      ? 2
            : (c >> 4) == 14     ? 3
            : (c >> 3) == 30     ? 4
                                 : 0;
        if (n == 0 || i + n > s.size() || (n == 2 && c < 0xc2)) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
        auto c1 = static_cast<unsigned char>(n > 1 ? s[i + 1] : 0);
        if ((n == 3 && c == 0xe0 && c1 < 0xa0) || (n == 3 && c == 0xed && c1 >= 0xa0)
            || (n == 4 && c == 0xf0 && c1 < 0x90)
            || (n == 4 && (c > 0xf4 || (c == 0xf4 && c1 >= 0x90))))
            return false; // overlong, a surrogate, past U+10FFFF
        i += n;
    }
    return true;
}

// The first text field of `m` that is not UTF-8 ("name"), if any. protobuf refuses to send one
// (it logged a line of its own, and the daemon then said "not a halma.v1 message").
std::optional<std::string> not_utf8(const google::protobuf::Message& m) {
    const auto* reflection = m.GetReflection();
    std::vector<const google::protobuf::FieldDescriptor*> fields;
    reflection->ListFields(m, &fields);
    for (const auto* f : fields) {
        using FD = google::protobuf::FieldDescriptor;
        if (f->type() == FD::TYPE_STRING) {
            int n = f->is_repeated() ? reflection->FieldSize(m, f) : 1;
            for (int i = 0; i < n; ++i) {
                std::string scratch;
                const std::string& v = f->is_repeated()
                    ? reflection->GetRepeatedStringReference(m, f, i, &scratch)
                    : reflection->GetStringReference(m, f, &scratch);
                if (!valid_utf8(v)) return f->name();
            }
        } else if (f->type() == FD::TYPE_MESSAGE && !f->is_repeated()) {
            if (auto inner = not_utf8(reflection->GetMessage(m, f))) return inner;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> DaemonConnection::no_daemon() const {
    if (!std::filesystem::exists(socket_path_)) return no_daemon_message(socket_path_);
    if (nothing_listens(socket_path_)) return nobody_listens_message(socket_path_);
    return std::nullopt;
}

std::expected<pb::Reply, NoReply> DaemonConnection::call(pb::Request request) {
    if (problem_) return std::unexpected(NoReply { *problem_ });
    if (auto field = not_utf8(request))
        return std::unexpected(NoReply { "the " + *field
            + " given is not UTF-8 text, which halma sends (is the terminal's locale UTF-8? "
              "LANG=C.UTF-8 is one)" });
    if (!std::filesystem::exists(socket_path_))
        return std::unexpected(NoReply { no_daemon_message(socket_path_) });
    if (next_id_ == 1 && nothing_listens(socket_path_))
        return std::unexpected(NoReply { nobody_listens_message(socket_path_) });
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
