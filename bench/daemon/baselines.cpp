#include "baselines.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <zmq_addon.hpp>

namespace halma::bench {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The relay's few message kinds, told apart by their first byte.
constexpr char kSubscribe = 'S';
constexpr char kHello = 'H';
constexpr char kAck = 'A';
constexpr char kMove = 'M';

double micros_since(Clock::time_point t0, Clock::time_point t1) {
    return std::chrono::duration<double, std::micro>(t1 - t0).count();
}

zmq::socket_t make_socket(zmq::context_t& context, zmq::socket_type type) {
    zmq::socket_t s(context, type);
    s.set(zmq::sockopt::linger, 0);
    return s;
}

struct CurveKeys {
    std::string public_key, secret_key; // Z85, 40 characters each
};

CurveKeys new_curve_keys() {
    char public_key[41], secret_key[41];
    if (zmq_curve_keypair(public_key, secret_key) != 0)
        throw std::runtime_error("this libzmq has no CURVE");
    return { public_key, secret_key };
}

bool starts_with(const zmq::message_t& m, char c) {
    return m.size() > 0 && *static_cast<const char*>(m.data()) == c;
}

void send_routed(zmq::socket_t& router, const std::string& id, const zmq::message_t& body) {
    router.send(zmq::buffer(id), zmq::send_flags::sndmore);
    zmq::message_t copy;
    copy.copy(const_cast<zmq::message_t&>(body));
    router.send(copy, zmq::send_flags::none);
}

void send_routed(zmq::socket_t& router, const std::string& id, char c) {
    router.send(zmq::buffer(id), zmq::send_flags::sndmore);
    router.send(zmq::buffer(&c, 1), zmq::send_flags::none);
}

int run_echo(const std::string& endpoint) {
    zmq::context_t context(1);
    auto router = make_socket(context, zmq::socket_type::router);
    router.bind(endpoint);
    for (;;) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(router, std::back_inserter(frames))) continue;
        zmq::send_multipart(router, frames);
    }
}

// The host relay: what a daemon hosting the room does with a move, minus the room. With a
// secret key, its peers' links are encrypted (CURVE) as the daemons' are.
int run_relay_host(const std::string& peer_endpoint, const std::string& api_endpoint,
    const std::string& server_secret) {
    zmq::context_t context(1);
    auto peers = make_socket(context, zmq::socket_type::router);
    auto api = make_socket(context, zmq::socket_type::router);
    if (!server_secret.empty()) {
        peers.set(zmq::sockopt::curve_server, true);
        peers.set(zmq::sockopt::curve_secretkey, server_secret);
    }
    peers.bind(peer_endpoint);
    api.bind(api_endpoint);
    std::vector<std::string> peer_ids;
    std::string subscriber;
    auto fan_out = [&](const zmq::message_t& move) {
        for (const auto& id : peer_ids) send_routed(peers, id, move);
        if (!subscriber.empty()) send_routed(api, subscriber, move);
    };
    for (;;) {
        zmq::pollitem_t items[]
            = { { peers.handle(), 0, ZMQ_POLLIN, 0 }, { api.handle(), 0, ZMQ_POLLIN, 0 } };
        zmq::poll(items, 2, milliseconds(-1));
        std::vector<zmq::message_t> f;
        while (
            f.clear(), zmq::recv_multipart(api, std::back_inserter(f), zmq::recv_flags::dontwait)) {
            if (f.size() != 2) continue;
            std::string id = f[0].to_string();
            if (starts_with(f[1], kSubscribe)) {
                subscriber = id;
                send_routed(api, id, kSubscribe);
            } else {
                fan_out(f[1]);
                send_routed(api, id, kAck);
            }
        }
        while (f.clear(),
            zmq::recv_multipart(peers, std::back_inserter(f), zmq::recv_flags::dontwait)) {
            if (f.size() != 2) continue;
            std::string id = f[0].to_string();
            if (starts_with(f[1], kHello)) {
                if (std::find(peer_ids.begin(), peer_ids.end(), id) == peer_ids.end())
                    peer_ids.push_back(id);
            } else {
                fan_out(f[1]);
                send_routed(peers, id, kAck);
            }
        }
    }
}

// A joined relay: passes its front end's moves to the host and the host's news to its front end.
// With the host's public key, its link to the host is encrypted (CURVE).
int run_relay_peer(const std::string& host_endpoint, const std::string& api_endpoint,
    const std::string& server_public) {
    zmq::context_t context(1);
    auto host = make_socket(context, zmq::socket_type::dealer);
    auto api = make_socket(context, zmq::socket_type::router);
    if (!server_public.empty()) {
        CurveKeys mine = new_curve_keys();
        host.set(zmq::sockopt::curve_serverkey, server_public);
        host.set(zmq::sockopt::curve_publickey, mine.public_key);
        host.set(zmq::sockopt::curve_secretkey, mine.secret_key);
    }
    host.connect(host_endpoint);
    api.bind(api_endpoint);
    host.send(zmq::buffer(&kHello, 1), zmq::send_flags::none);
    std::string subscriber;
    std::vector<std::string> waiting; // front ends waiting for the host's ack, oldest first
    for (;;) {
        zmq::pollitem_t items[]
            = { { host.handle(), 0, ZMQ_POLLIN, 0 }, { api.handle(), 0, ZMQ_POLLIN, 0 } };
        zmq::poll(items, 2, milliseconds(-1));
        zmq::message_t m;
        while (host.recv(m, zmq::recv_flags::dontwait)) {
            if (starts_with(m, kAck)) {
                if (!waiting.empty()) {
                    send_routed(api, waiting.front(), kAck);
                    waiting.erase(waiting.begin());
                }
            } else if (!subscriber.empty()) {
                send_routed(api, subscriber, m);
            }
        }
        std::vector<zmq::message_t> f;
        while (
            f.clear(), zmq::recv_multipart(api, std::back_inserter(f), zmq::recv_flags::dontwait)) {
            if (f.size() != 2) continue;
            std::string id = f[0].to_string();
            if (starts_with(f[1], kSubscribe)) {
                subscriber = id;
                send_routed(api, id, kSubscribe);
            } else {
                waiting.push_back(id);
                host.send(f[1], zmq::send_flags::none);
            }
        }
    }
}

int run_idle(const std::string& endpoint) {
    zmq::context_t context(1);
    auto router = make_socket(context, zmq::socket_type::router);
    router.bind(endpoint);
    for (;;) {
        zmq::pollitem_t item { router.handle(), 0, ZMQ_POLLIN, 0 };
        zmq::poll(&item, 1, milliseconds(-1));
        zmq::message_t m;
        while (router.recv(m, zmq::recv_flags::dontwait)) { }
    }
}

void wait_for_socket(Children& children, pid_t pid, const std::filesystem::path& path) {
    bool up = wait_for(milliseconds(10'000),
        [&] { return std::filesystem::exists(path) || !children.running(pid); });
    if (!up || !children.running(pid))
        throw std::runtime_error("a baseline process did not start (" + path.string() + ")");
}

} // namespace

int run_role(int argc, char** argv) {
    std::string role = argc > 0 ? argv[0] : "";
    try {
        if (role == "echo" && argc == 2) return run_echo(argv[1]);
        std::string key = argc == 4 ? argv[3] : "";
        if (role == "relay-host" && (argc == 3 || argc == 4))
            return run_relay_host(argv[1], argv[2], key);
        if (role == "relay-peer" && (argc == 3 || argc == 4))
            return run_relay_peer(argv[1], argv[2], key);
        if (role == "idle" && argc == 2) return run_idle(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_daemon --role %s: %s\n", role.c_str(), e.what());
        return 1;
    }
    std::fprintf(stderr, "bench_daemon: unknown role '%s'\n", role.c_str());
    return 2;
}

EchoBaseline::EchoBaseline(zmq::context_t& context, Children& children, const std::string& self,
    const std::filesystem::path& dir)
    : socket_(make_socket(context, zmq::socket_type::dealer)) {
    std::string endpoint = "tcp://127.0.0.1:" + std::to_string(free_port());
    pid_t pid = children.spawn({ self, "--role", "echo", endpoint }, dir / "echo.log");
    socket_.connect(endpoint);
    // The connection comes up on its own time: a first round trip with a generous wait.
    socket_.send(zmq::str_buffer("x"), zmq::send_flags::none);
    zmq::pollitem_t item { socket_.handle(), 0, ZMQ_POLLIN, 0 };
    if (zmq::poll(&item, 1, milliseconds(10'000)) == 0 || !children.running(pid))
        throw std::runtime_error("the echo process did not answer");
    zmq::message_t m;
    (void)socket_.recv(m);
}

std::vector<double> EchoBaseline::measure(int count, std::size_t bytes) {
    std::string payload(bytes, 'e');
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(count));
    zmq::message_t m;
    for (int i = 0; i < count; ++i) {
        auto t0 = Clock::now();
        socket_.send(zmq::buffer(payload), zmq::send_flags::none);
        zmq::pollitem_t item { socket_.handle(), 0, ZMQ_POLLIN, 0 };
        if (zmq::poll(&item, 1, milliseconds(5000)) == 0)
            throw std::runtime_error("the echo process stopped answering");
        (void)socket_.recv(m);
        out.push_back(micros_since(t0, Clock::now()));
        if (m.size() != bytes) throw std::runtime_error("the echo came back changed");
    }
    return out;
}

struct RelayBaseline::Impl {
    std::vector<zmq::socket_t> requests, events;
    std::vector<pid_t> pids;
};

RelayBaseline::RelayBaseline(zmq::context_t& context, Children& children, const std::string& self,
    const std::filesystem::path& dir, int nodes, Links links)
    : impl_(std::make_unique<Impl>()) {
    std::string host_endpoint = "tcp://127.0.0.1:" + std::to_string(free_port());
    std::optional<CurveKeys> server;
    if (links == Links::kCurve) server = new_curve_keys();
    std::string prefix = links == Links::kCurve ? "curve-relay" : "relay";
    for (int i = 0; i < nodes; ++i) {
        auto sock = dir / (prefix + std::to_string(i) + ".sock");
        std::string api = "ipc://" + sock.string();
        std::vector<std::string> args { self, "--role", i == 0 ? "relay-host" : "relay-peer",
            host_endpoint, api };
        if (server) args.push_back(i == 0 ? server->secret_key : server->public_key);
        pid_t pid = children.spawn(args, dir / (prefix + std::to_string(i) + ".log"));
        impl_->pids.push_back(pid);
        wait_for_socket(children, pid, sock);
        auto req = make_socket(context, zmq::socket_type::dealer);
        auto ev = make_socket(context, zmq::socket_type::dealer);
        req.connect(api);
        ev.connect(api);
        ev.send(zmq::buffer(&kSubscribe, 1), zmq::send_flags::none);
        zmq::pollitem_t item { ev.handle(), 0, ZMQ_POLLIN, 0 };
        zmq::message_t m;
        if (zmq::poll(&item, 1, milliseconds(10'000)) == 0 || !ev.recv(m))
            throw std::runtime_error("a relay did not answer its subscriber");
        impl_->requests.push_back(std::move(req));
        impl_->events.push_back(std::move(ev));
    }
    // Ready once a move from the last node reaches everyone (the peers' hellos have landed).
    bool ready = wait_for(milliseconds(10'000), [&] {
        try {
            measure(1, 8);
            return true;
        } catch (const std::runtime_error&) {
            return false;
        }
    });
    if (!ready) throw std::runtime_error("the relays never passed a move to every node");
}

RelayBaseline::~RelayBaseline() = default;

const std::vector<pid_t>& RelayBaseline::pids() const {
    return impl_->pids;
}

std::vector<double> RelayBaseline::measure(int count, std::size_t bytes) {
    auto& req = impl_->requests;
    auto& ev = impl_->events;
    std::size_t n = ev.size();
    std::string payload(bytes, 'r');
    payload[0] = kMove;
    std::vector<double> out;
    zmq::message_t m;
    // Anything left from an attempt that timed out.
    for (auto* list : { &req, &ev })
        for (auto& s : *list)
            while (s.recv(m, zmq::recv_flags::dontwait)) { }
    std::vector<zmq::pollitem_t> items;
    for (auto& s : ev) items.push_back({ s.handle(), 0, ZMQ_POLLIN, 0 });
    items.push_back({ nullptr, 0, ZMQ_POLLIN, 0 });
    for (int i = 0; i < count; ++i) {
        std::size_t mover = static_cast<std::size_t>(i) % n;
        items.back().socket = req[mover].handle();
        std::vector<bool> got(n, false);
        std::size_t have = 0;
        bool acked = false;
        double latency = 0;
        auto t0 = Clock::now();
        req[mover].send(zmq::buffer(payload), zmq::send_flags::none);
        auto until = t0 + milliseconds(200);
        while (have < n || !acked) {
            auto left = std::chrono::ceil<milliseconds>(until - Clock::now());
            if (left.count() <= 0) throw std::runtime_error("a relay lost a move");
            zmq::poll(items.data(), items.size(), left);
            for (std::size_t k = 0; k < n; ++k)
                while (ev[k].recv(m, zmq::recv_flags::dontwait))
                    if (!got[k] && starts_with(m, kMove)) {
                        got[k] = true;
                        if (++have == n) latency = micros_since(t0, Clock::now());
                    }
            while (req[mover].recv(m, zmq::recv_flags::dontwait)) acked |= starts_with(m, kAck);
        }
        out.push_back(latency);
    }
    return out;
}

pid_t start_idle_baseline(
    Children& children, const std::string& self, const std::filesystem::path& dir) {
    auto sock = dir / "idle.sock";
    pid_t pid
        = children.spawn({ self, "--role", "idle", "ipc://" + sock.string() }, dir / "idle.log");
    wait_for_socket(children, pid, sock);
    return pid;
}

} // namespace halma::bench
