// Daemon speed: a move's round trip through six real halmad processes on loopback, from one
// front end's submit until every daemon's front end has the move, printed beside a plain
// ZeroMQ DEALER/ROUTER round trip and plain relays wired like the daemons, all measured in this
// run and interleaved in rounds so a noisy machine disturbs them alike (and the same relays with
// CURVE on their links, as the daemons' links have, for scale); then each daemon's CPU
// and memory over an idle window, beside a process that only waits in zmq poll.
// Figures only: no target decides the exit code (0: ran and every move reached every daemon).
#include "baselines.h"
#include "daemon_cluster.h"
#include "processes.h"
#include "stats.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <thread>

using namespace halma::bench;

namespace {

constexpr int kDaemons = 6;
constexpr double kRelayRatioGoal = 1.3; // issue 11: p99 against the same-path relays
constexpr double kIdleCpuTarget = 1.0; // percent of one core
constexpr double kIdleRssTarget = 20.0; // MB

void print_row(const char* name, const Summary& s) {
    std::printf("  %-44s %6zu %8.0f %8.0f %8.0f %8.0f\n", name, s.n, s.p50, s.p99, s.max, s.mean);
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

double mb(std::uint64_t kb) {
    return static_cast<double>(kb) * 1024.0 / 1e6;
}

struct Options {
    int moves = 1000;
    int block = 10;
    double idle_s = 15;
    std::string halmad = HALMA_HALMAD_PATH;
    std::vector<std::string> halmad_args; // given to every halmad, to take its costs apart
};

std::vector<ProcSample> sample_all(const std::vector<pid_t>& pids) {
    std::vector<ProcSample> out;
    for (pid_t pid : pids) out.push_back(sample_process(pid));
    return out;
}

// CPU time and context switches (wake-ups) per move between two samples: the hosting
// process's, and the mean of the others'.
struct Work {
    double host_us = 0, peer_us = 0, host_switches = 0, peer_switches = 0;

    Work(const std::vector<ProcSample>& start, const std::vector<ProcSample>& end, double moves) {
        double peers = static_cast<double>(start.size() - 1);
        for (std::size_t i = 0; i < start.size(); ++i) {
            double us = static_cast<double>(end[i].cpu_ns - start[i].cpu_ns) / 1e3 / moves;
            double sw = static_cast<double>(end[i].switches - start[i].switches) / moves;
            if (i == 0) {
                host_us = us;
                host_switches = sw;
            } else {
                peer_us += us / peers;
                peer_switches += sw / peers;
            }
        }
    }
};

struct MoveFigures {
    std::vector<double> moves, host_moves, joined_moves, replies, raw, relayed, curve_relayed;
    std::vector<ProcSample> daemons_start, daemons_end, relays_start, relays_end;
};

// Rounds of: a block of daemon moves, as many raw round trips, as many relayed moves. Short
// blocks let a burst of load from elsewhere on the machine fall on all three alike.
MoveFigures measure_moves(const Options& o, DaemonCluster& cluster, EchoBaseline& echo,
    RelayBaseline& relay, RelayBaseline& curve_relay, const std::vector<pid_t>& daemon_pids) {
    MoveFigures f;
    f.daemons_start = sample_all(daemon_pids);
    f.relays_start = sample_all(relay.pids());
    for (int done = 0; done < o.moves;) {
        int n = std::min(o.block, o.moves - done);
        done += n;
        for (const auto& t : cluster.play(n)) {
            f.moves.push_back(t.all_front_ends_us);
            f.replies.push_back(t.mover_reply_us);
            (t.by_host ? f.host_moves : f.joined_moves).push_back(t.all_front_ends_us);
        }
        auto bytes = cluster.event_bytes();
        for (double us : echo.measure(n, bytes)) f.raw.push_back(us);
        for (double us : relay.measure(n, bytes)) f.relayed.push_back(us);
        for (double us : curve_relay.measure(n, bytes)) f.curve_relayed.push_back(us);
    }
    f.daemons_end = sample_all(daemon_pids);
    f.relays_end = sample_all(relay.pids());
    return f;
}

void print_moves(const Options& o, const MoveFigures& f, const DaemonCluster& cluster) {
    Summary m = summarize(f.moves), rt = summarize(f.raw);
    std::printf("\nmove round trip, microseconds (in rounds of %d daemon moves, then %d of each "
                "baseline; %zu-byte event frame)\n",
        o.block, o.block, cluster.event_bytes());
    std::printf("  %-44s %6s %8s %8s %8s %8s\n", "", "n", "p50", "p99", "max", "mean");
    print_row("halmad x6: submit -> all 6 front ends", m);
    print_row("  of which moves by the host's own player", summarize(f.host_moves));
    print_row("  of which moves by a joined daemon's player", summarize(f.joined_moves));
    print_row("halmad x6: submit -> mover's reply (Done)", summarize(f.replies));
    print_row("baseline: raw DEALER/ROUTER rtt, tcp", rt);
    print_row("baseline: plain zmq relays, same path x6", summarize(f.relayed));
    print_row("  the same relays, tcp links with CURVE", summarize(f.curve_relayed));
    // The headline compares like with like: plain relays take the same hops to the same six
    // front ends, so what is left is the daemons' own work (the room, protobuf, the disk write).
    Summary rl = summarize(f.relayed);
    double ratio = rl.p99 > 0 ? m.p99 / rl.p99 : 0;
    std::printf("  p99 halmad / p99 plain relays, same path = %.2fx (goal <= %.1fx): %s\n", ratio,
        kRelayRatioGoal, ratio <= kRelayRatioGoal ? "goal met" : "goal MISSED");
    // The daemons' links are encrypted and the plain relays' are not: this says how much of the
    // difference is the encryption. For scale only: the headline stays the plain relays.
    Summary cr = summarize(f.curve_relayed);
    std::printf("  p99 halmad / p99 relays with CURVE links = %.2fx (p50 %.2fx; plain relays p50 "
                "%.2fx)\n",
        cr.p99 > 0 ? m.p99 / cr.p99 : 0, cr.p50 > 0 ? m.p50 / cr.p50 : 0,
        rl.p50 > 0 ? m.p50 / rl.p50 : 0);
    // One hop against six: for scale only; it moves with the machine's load, so no goal.
    std::printf("  p99 halmad / p99 raw echo (one hop, no fan-out) = %.1fx\n",
        rt.p99 > 0 ? m.p99 / rt.p99 : 0);
    // The daemons' work includes answering the view request the bench makes before each move.
    double n = static_cast<double>(f.moves.size());
    Work d(f.daemons_start, f.daemons_end, n), r(f.relays_start, f.relays_end, n);
    std::printf("  per move, CPU us / context switches: halmad host %.0f / %.1f, each other %.0f / "
                "%.1f; plain relays: host %.0f / %.1f, each other %.0f / %.1f\n",
        d.host_us, d.host_switches, d.peer_us, d.peer_switches, r.host_us, r.host_switches,
        r.peer_us, r.peer_switches);
    std::printf("  delivery: %zu of %zu MovePlayed events, each checked (seq, from, to) on every "
                "daemon; %zu games; %zu other events during moves\n",
        cluster.moves_delivered(), f.moves.size() * kDaemons, cluster.games_started(),
        cluster.other_events());
}

// Nothing sent for a while: CPU and wake-ups over the window, memory at its end.
void measure_idle(const std::vector<std::pair<std::string, pid_t>>& procs, double seconds) {
    std::vector<ProcSample> before;
    for (const auto& [name, pid] : procs) before.push_back(sample_process(pid));
    auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\nidle: the room open, a game paused, %.1f s window\n", wall);
    std::printf("  %-44s %8s %10s %10s %10s\n", "", "CPU %", "wake-ups/s", "VmRSS MB", "VmHWM MB");
    double worst_cpu = 0, worst_rss = 0;
    for (std::size_t i = 0; i < procs.size(); ++i) {
        ProcSample after = sample_process(procs[i].second);
        double cpu = static_cast<double>(after.cpu_ns - before[i].cpu_ns) / 1e9 / wall * 100;
        double wakes = static_cast<double>(after.switches - before[i].switches) / wall;
        std::printf("  %-44s %8.3f %10.1f %10.1f %10.1f\n", procs[i].first.c_str(), cpu, wakes,
            mb(after.rss_kb), mb(after.hwm_kb));
        if (procs[i].first.starts_with("halmad")) {
            worst_cpu = std::max(worst_cpu, cpu);
            worst_rss = std::max(worst_rss, mb(after.rss_kb));
        }
    }
    std::printf("  worst daemon: CPU %.3f %% (target < %.0f %%): %s; VmRSS %.1f MB (target < %.0f "
                "MB): %s\n",
        worst_cpu, kIdleCpuTarget, worst_cpu < kIdleCpuTarget ? "met" : "MISSED", worst_rss,
        kIdleRssTarget, worst_rss < kIdleRssTarget ? "met" : "MISSED");
}

int run(const Options& o) {
    TempDir tmp("halma-bench-");
    zmq::context_t context(1);
    Children children; // after the context: its processes are stopped before the context goes
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::printf("halma daemon bench: %d halmad (%s) on 127.0.0.1, default heartbeats, %u cores, "
                "load %s\n",
        kDaemons, o.halmad.c_str(), std::thread::hardware_concurrency(), load_average().c_str());
    std::fflush(stdout);

    if (!o.halmad_args.empty()) {
        std::printf("every halmad also runs with:");
        for (const auto& a : o.halmad_args) std::printf(" %s", a.c_str());
        std::printf("\n");
    }
    DaemonCluster cluster(context, children, o.halmad, tmp.path(), kDaemons, o.halmad_args);
    EchoBaseline echo(context, children, self, tmp.path());
    RelayBaseline relay(context, children, self, tmp.path(), kDaemons);
    RelayBaseline curve_relay(
        context, children, self, tmp.path(), kDaemons, RelayBaseline::Links::kCurve);
    pid_t idle_pid = start_idle_baseline(children, self, tmp.path());
    std::vector<std::pair<std::string, pid_t>> procs;
    std::vector<pid_t> daemon_pids;
    for (const auto& d : cluster.daemons()) {
        procs.emplace_back("halmad " + d.name + (procs.empty() ? " (host)" : ""), d.pid);
        daemon_pids.push_back(d.pid);
    }
    procs.emplace_back("baseline: idle process in zmq poll", idle_pid);

    MoveFigures figures = measure_moves(o, cluster, echo, relay, curve_relay, daemon_pids);
    print_moves(o, figures, cluster);
    std::this_thread::sleep_for(std::chrono::seconds(1)); // let the last move's traffic settle
    measure_idle(procs, o.idle_s);
    std::printf("load at the end %s\n", load_average().c_str());
    return cluster.moves_delivered() == figures.moves.size() * kDaemons ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--role") return run_role(argc - 2, argv + 2);
    Options o;
    CLI::App app { "bench_daemon: a move's round trip through six halmad on loopback, and their "
                   "idle CPU and memory, beside baselines measured in the same run" };
    app.add_option("--moves", o.moves, "Moves to time (and as many of each baseline)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--block", o.block, "Moves (and baseline round trips) per interleaved round")
        ->capture_default_str()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--idle-s", o.idle_s, "Length of the idle window, seconds")
        ->capture_default_str()
        ->check(CLI::Range(0.5, 600.0));
    app.add_option("--halmad", o.halmad, "The halmad binary to run")
        ->capture_default_str()
        ->check(CLI::ExistingFile);
    app.add_option("--halmad-arg", o.halmad_args,
        "An argument for every halmad (repeat for more), to see what a part costs: "
        "--halmad-arg=--insecure-plain-links leaves out the links' encryption");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "bench_daemon: %s\n", e.what());
        return 1;
    }
}
