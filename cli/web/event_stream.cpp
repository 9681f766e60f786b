#include "cli/web/event_stream.h"

#include "cli/web/api_bridge.h"

#include <array>
#include <thread>
#include <zmq.hpp>

namespace halma::web {

namespace pb = ::halma::v1;
using namespace std::chrono_literals;
using halma::cli::DaemonConnection;

namespace {

// How often the daemon is asked whether it is still the same one, and how long it gets to say
// so: a restart shows on the page within about three seconds.
constexpr auto kStatusEvery = 2s;
constexpr auto kStatusTimeout = 1500ms;

std::string sse(const char* name, const std::string& json) {
    // Protobuf's JSON has no line breaks, so one data: line carries it.
    return std::string("event: ") + name + "\ndata: " + json + "\n\n";
}

} // namespace

EventStream::EventStream(std::string runtime_dir)
    : runtime_dir_(std::move(runtime_dir)) { }

bool EventStream::subscribe() {
    // Two connections, since a connection has one subscription and one with `lan` and no room
    // carries no room events (docs/api.md, subscribe).
    events_ = std::make_unique<DaemonConnection>(runtime_dir_, kStatusTimeout);
    lan_ = std::make_unique<DaemonConnection>(runtime_dir_, kStatusTimeout);
    pb::Request all;
    all.mutable_subscribe();
    pb::Request lan;
    lan.mutable_subscribe()->set_lan(true);
    auto a = events_->call(all);
    auto b = lan_->call(lan);
    return a && !a->has_error() && b && !b->has_error();
}

std::string EventStream::check_daemon() {
    next_status_ = std::chrono::steady_clock::now() + kStatusEvery;
    if (!events_) events_ = std::make_unique<DaemonConnection>(runtime_dir_, kStatusTimeout);
    pb::Request ask;
    ask.mutable_status();
    auto reply = events_->call(ask);
    if (!reply || !reply->has_status()) {
        bool was_up = up_;
        up_ = false;
        // A fresh connection next time: ZeroMQ would reconnect by itself, but the new daemon
        // would not know this one's subscription anyway.
        events_.reset();
        lan_.reset();
        return was_up ? sse("daemon", R"({"up":false})") : "";
    }
    std::uint64_t uptime = reply->status().uptime_s();
    bool restarted = up_ && uptime < uptime_s_;
    uptime_s_ = uptime;
    if (up_ && !restarted) return "";
    if (!subscribe()) {
        up_ = false;
        return "";
    }
    up_ = true;
    return sse("daemon", R"({"up":true,"status":)" + to_json(reply->status()) + "}");
}

std::string EventStream::next(std::chrono::milliseconds wait) {
    std::string out;
    if (std::chrono::steady_clock::now() >= next_status_) out += check_daemon();
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        next_status_ - std::chrono::steady_clock::now());
    if (!up_) {
        // Nothing to poll until the next look at the daemon: wait here, as a poll would (it
        // returned at once, and the stream's loop spun half a core while halmad was down).
        if (out.empty()) std::this_thread::sleep_for(std::max(0ms, std::min(wait, left)));
        return out;
    }
    std::array<zmq::pollitem_t, 2> items { {
        { events_->socket().handle(), 0, ZMQ_POLLIN, 0 },
        { lan_->socket().handle(), 0, ZMQ_POLLIN, 0 },
    } };
    zmq::poll(items.data(), items.size(), std::max(0ms, std::min(wait, left)));
    while (auto event = events_->next_event(0ms)) out += sse("room", to_json(*event));
    std::optional<pb::RoomList> newest;
    while (auto list = lan_->next_room_list(0ms)) newest = std::move(list);
    if (newest) out += sse("rooms", to_json(*newest));
    return out;
}

} // namespace halma::web
