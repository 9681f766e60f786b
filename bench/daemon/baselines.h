// What the daemons' figures are printed beside, measured in the same run: a plain ZeroMQ
// DEALER/ROUTER round trip over tcp, and plain ZeroMQ relays wired like the daemons (front end
// -ipc-> daemon -tcp-> host -tcp-> each peer -ipc-> its front end) that pass bytes on without
// any room logic. The bench runs itself in a child "role" for the far ends.
#pragma once

#include "processes.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>
#include <zmq.hpp>

namespace halma::bench {

// The child side: `bench_daemon --role NAME ARGS...`; returns the exit code.
int run_role(int argc, char** argv);

// A ROUTER in a child process that sends every message back; the bench is the DEALER.
class EchoBaseline {
public:
    EchoBaseline(zmq::context_t& context, Children& children, const std::string& self,
        const std::filesystem::path& dir);
    // `count` back-to-back round trips of a `bytes`-long message; microseconds each.
    std::vector<double> measure(int count, std::size_t bytes);

private:
    zmq::socket_t socket_;
};

// Six relay processes (one hosts, five join it) and six front ends on their ipc sockets. Their
// tcp links are plain, or encrypted with CURVE as the daemons' links are (to tell how much of the
// daemons' round trip is the encryption).
class RelayBaseline {
public:
    enum class Links { kPlain, kCurve };
    RelayBaseline(zmq::context_t& context, Children& children, const std::string& self,
        const std::filesystem::path& dir, int nodes, Links links = Links::kPlain);
    ~RelayBaseline();
    // `count` moves, the submitter turning round the nodes like the seats of a game: from the
    // submit until every node's front end has the message; microseconds each.
    std::vector<double> measure(int count, std::size_t bytes);
    const std::vector<pid_t>& pids() const; // the hosting relay first

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A process that only waits in a blocking zmq poll (a bound ipc ROUTER): the idle floor.
pid_t start_idle_baseline(
    Children& children, const std::string& self, const std::filesystem::path& dir);

} // namespace halma::bench
