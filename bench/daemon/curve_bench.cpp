// What encrypting the links between daemons costs (issue 9 point 8): two rooms of two real halmad
// each on loopback, one with CURVE (as halmad always runs) and one with --insecure-plain-links
// (a testing option, the baseline), measured in this run and interleaved in rounds so that a
// noisy machine disturbs both alike. Three figures each: a move's round trip (a joined daemon's
// player submits, every front end has the move), a rejoin's full snapshot (send to last byte), and
// a new link (connect, handshake, one answer).
// Figures only: no target decides the exit code (0: ran and every move reached every daemon).
#include "daemon_cluster.h"
#include "processes.h"
#include "stats.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <optional>
#include <thread>

using namespace halma::bench;

namespace {

using std::chrono::milliseconds;

struct Options {
    int moves = 400;
    int block = 10;
    int snapshots = 200;
    int links = 100;
    int chatters = 10;
    std::string halmad = HALMA_HALMAD_PATH;
};

// The daemon's CURVE public key from its state directory; empty when it has none (plain).
std::string host_key(const DaemonCluster::Daemon& d) {
    std::ifstream in(d.dir / "state" / "curve");
    std::string word, key;
    while (in >> word >> key)
        if (word == "public") return key;
    return "";
}

// A peer daemon as the host sees one: a DEALER on its peer port, CURVE when the host has a key;
// from the loopback address `source` if given (another machine, to the host's budgets).
class RawPeer {
public:
    RawPeer(
        zmq::context_t& context, const DaemonCluster::Daemon& host, const std::string& source = "")
        : socket_(context, zmq::socket_type::dealer) {
        socket_.set(zmq::sockopt::linger, 0);
        if (std::string key = host_key(host); !key.empty()) {
            static const auto pair = [] {
                char pub[41] = {}, sec[41] = {};
                zmq_curve_keypair(pub, sec);
                return std::pair<std::string, std::string>(pub, sec);
            }();
            socket_.set(zmq::sockopt::curve_serverkey, key);
            socket_.set(zmq::sockopt::curve_publickey, pair.first);
            socket_.set(zmq::sockopt::curve_secretkey, pair.second);
        }
        socket_.connect("tcp://" + (source.empty() ? "" : source + ":0;") + host.address);
    }

    // Sends, waits for the answer (at most 10 s) and returns it with its size in bytes.
    pb::HostMessage ask(pb::PeerMessage msg, std::size_t* bytes = nullptr) {
        msg.set_version(1);
        msg.set_request_id(++next_id_);
        std::string payload = msg.SerializeAsString();
        socket_.send(zmq::buffer(payload));
        zmq::pollitem_t item { socket_.handle(), 0, ZMQ_POLLIN, 0 };
        for (;;) {
            if (zmq::poll(&item, 1, milliseconds(10'000)) == 0)
                throw std::runtime_error("the host did not answer in 10 s");
            zmq::message_t frame;
            if (!socket_.recv(frame)) continue;
            pb::HostMessage reply;
            if (!reply.ParseFromArray(frame.data(), static_cast<int>(frame.size())))
                throw std::runtime_error("the host sent something unreadable");
            if (reply.request_id() != next_id_) continue; // updates, heartbeats
            if (bytes) *bytes = frame.size();
            return reply;
        }
    }

private:
    zmq::socket_t socket_;
    std::uint64_t next_id_ = 0;
};

// A room's snapshot grows with its chat: `chatters` spectators join and each says as much as the
// rate limit lets it at once (10 lines of 500 bytes; the room keeps the last 100 lines), each
// from a machine of its own (one machine's chat is held to 50 lines at once: protocol.md).
void fill_chat(zmq::context_t& context, const DaemonCluster::Daemon& host,
    const std::string& room_id, int chatters) {
    for (int c = 0; c < chatters; ++c) {
        RawPeer peer(context, host, "127.0.2." + std::to_string(1 + c % 250));
        pb::PeerMessage join;
        join.mutable_join()->set_room("bench");
        join.mutable_join()->set_name("chatter" + std::to_string(c));
        join.mutable_join()->set_spectate(true);
        auto joined = peer.ask(join);
        if (!joined.has_joined()) throw std::runtime_error("a chatter could not join");
        for (int line = 0; line < 10; ++line) {
            pb::PeerMessage chat;
            chat.mutable_command()->set_room_id(room_id);
            chat.mutable_command()->set_token(joined.joined().token());
            chat.mutable_command()->set_chat(std::string(500, static_cast<char>('a' + line)));
            if (!peer.ask(chat).has_ack()) throw std::runtime_error("a chat line was refused");
        }
    }
}

double micros(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

struct Side {
    const char* name;
    std::unique_ptr<DaemonCluster> cluster;
    std::vector<double> moves, replies, snapshots, links;
    std::size_t snapshot_bytes = 0;
};

void print_row(const char* name, const Summary& s) {
    std::printf("  %-40s %6zu %8.0f %8.0f %8.0f %8.0f\n", name, s.n, s.p50, s.p99, s.max, s.mean);
}

void print_figure(
    const char* what, const Side& curve, const Side& plain, std::vector<double> Side::*figure) {
    Summary c = summarize(curve.*figure), p = summarize(plain.*figure);
    std::printf("\n%s, microseconds\n", what);
    std::printf("  %-40s %6s %8s %8s %8s %8s\n", "", "n", "p50", "p99", "max", "mean");
    print_row("CURVE (as halmad runs)", c);
    print_row("baseline: plain (--insecure-plain-links)", p);
    std::printf("  CURVE costs %+.0f us at p50 (%.2fx), %+.0f us at p99\n", c.p50 - p.p50,
        p.p50 > 0 ? c.p50 / p.p50 : 0.0, c.p99 - p.p99);
}

int run(const Options& o) {
    TempDir tmp("halma-bench-curve-");
    zmq::context_t context(1);
    Children children;
    std::printf("halma CURVE bench: 2 rooms of 2 halmad (%s) on 127.0.0.1, one encrypted, one "
                "plain, %u cores\n",
        o.halmad.c_str(), std::thread::hardware_concurrency());
    std::fflush(stdout);
    // The snapshots are timed by rejoining back to back, which a host answers only a few times a
    // peer timeout unless told otherwise.
    Side curve { "curve",
        std::make_unique<DaemonCluster>(context, children, o.halmad, tmp.path() / "curve", 2,
            std::vector<std::string> { "--rejoin-limit", "0" }),
        {}, {}, {}, {} };
    Side plain { "plain",
        std::make_unique<DaemonCluster>(context, children, o.halmad, tmp.path() / "plain", 2,
            std::vector<std::string> { "--insecure-plain-links", "--rejoin-limit", "0" }),
        {}, {}, {}, {} };
    if (host_key(curve.cluster->daemons()[0]).empty()
        || !host_key(plain.cluster->daemons()[0]).empty())
        throw std::runtime_error("the CURVE room's host has no key, or the plain one has one");

    // Moves, in rounds of `block` each.
    for (int done = 0; done < o.moves; done += o.block)
        for (Side* side : { &curve, &plain })
            for (const auto& t : side->cluster->play(std::min(o.block, o.moves - done)))
                if (!t.by_host) { // the joined daemon's player: over the link and back
                    side->moves.push_back(t.all_front_ends_us);
                    side->replies.push_back(t.mover_reply_us);
                }

    // Rejoins with a spectator's token: each answer carries the whole room.
    std::vector<std::pair<Side*, std::unique_ptr<RawPeer>>> readers;
    std::vector<std::string> tokens;
    for (Side* side : { &curve, &plain }) {
        auto peer = std::make_unique<RawPeer>(context, side->cluster->daemons()[0]);
        pb::PeerMessage join;
        join.mutable_join()->set_room("bench");
        join.mutable_join()->set_name("reader");
        join.mutable_join()->set_spectate(true);
        auto joined = peer->ask(join);
        if (!joined.has_joined()) throw std::runtime_error("a spectator could not join");
        tokens.push_back(joined.joined().token());
        fill_chat(context, side->cluster->daemons()[0],
            joined.joined().snapshot().config().room_id(), o.chatters);
        readers.emplace_back(side, std::move(peer));
    }
    for (int i = 0; i < o.snapshots; ++i)
        for (std::size_t k = 0; k < readers.size(); ++k) {
            pb::PeerMessage rejoin;
            rejoin.mutable_join()->set_room("bench");
            rejoin.mutable_join()->set_token(tokens[k]);
            rejoin.mutable_join()->set_spectate(true);
            auto t0 = Clock::now();
            std::size_t bytes = 0;
            auto answer = readers[k].second->ask(rejoin, &bytes);
            readers[k].first->snapshots.push_back(micros(t0));
            if (!answer.has_joined()) throw std::runtime_error("a rejoin was refused");
            readers[k].first->snapshot_bytes = bytes;
        }

    // New links: connect, handshake, one ListRooms answered.
    for (int i = 0; i < o.links; ++i)
        for (Side* side : { &curve, &plain }) {
            auto t0 = Clock::now();
            RawPeer peer(context, side->cluster->daemons()[0]);
            pb::PeerMessage list;
            list.mutable_list_rooms();
            peer.ask(list);
            side->links.push_back(micros(t0));
        }

    print_figure("move round trip (joined daemon's player: submit -> both front ends)", curve,
        plain, &Side::moves);
    print_figure(
        "move reply (joined daemon's player: submit -> its Done)", curve, plain, &Side::replies);
    std::printf("\n(snapshot: %zu bytes with CURVE, %zu plain)", curve.snapshot_bytes,
        plain.snapshot_bytes);
    print_figure("snapshot transfer (a rejoin, send -> whole room received)", curve, plain,
        &Side::snapshots);
    print_figure("new link (connect, handshake, one answer)", curve, plain, &Side::links);
    bool delivered = true;
    for (Side* side : { &curve, &plain })
        delivered &= side->cluster->moves_delivered() == static_cast<std::size_t>(o.moves) * 2;
    return delivered ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app { "bench_curve: the cost of CURVE on the links between halmad (move round trip, "
                   "snapshot transfer, new link) beside plain links in the same run" };
    app.add_option("--moves", o.moves, "Moves to play in each room")
        ->capture_default_str()
        ->check(CLI::Range(2, 1'000'000));
    app.add_option("--block", o.block, "Moves per interleaved round")
        ->capture_default_str()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--snapshots", o.snapshots, "Rejoins to time in each room")
        ->capture_default_str()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--chatters", o.chatters, "Spectators filling the rooms' chat (10 lines each)")
        ->capture_default_str()
        ->check(CLI::Range(0, 60));
    app.add_option("--links", o.links, "New links to time to each host")
        ->capture_default_str()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--halmad", o.halmad, "The halmad binary to run")
        ->capture_default_str()
        ->check(CLI::ExistingFile);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "bench_curve: %s\n", e.what());
        return 1;
    }
}
