#!/usr/bin/env python3
"""How long a new room takes to show up on another host of the LAN: halma's discovery beside
avahi's own floor, both measured in the same run between two test hosts (network namespaces
on one bridge, each with its own avahi-daemon: tests/mdns/lanhosts.py).

  (a) avahi floor: avahi-publish started on host a -> its resolved '=' line in a long-running
      `avahi-browse -p -r -k _halma._tcp` on host b. mDNS probing (three probes 250 ms apart
      after a random wait of up to 250 ms) is most of it, and halma can't skip it either.
  (b) halma: `halma host NAME` returned on a (halmad there) -> NAME in the output of a
      long-running `halma rooms --watch --json` on b (one RoomList JSON object per line).

Between rounds the service goes (publisher killed / `halma close`) and the bench waits until b
has seen it go; each round uses a new name, so no cache helps. Needs root and namespaces: when
it can't run it says why and exits 0 (--skip-exit sets that code, 77 for ctest). Every wait is
bounded; traffic stays on the test hosts' own link.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "mdns"))

from lanhosts import Failure, Lan, SERVICE, Skip, parse_avahi_browse, preflight, wait_until  # noqa: E402

GOAL_RATIO = 1.5  # halma's median within 1.5x of the avahi floor...
GOAL_SECONDS = 1.0  # ...and under a second


def browse_event(event, name):
    return lambda line: (r := parse_avahi_browse(line)) is not None and r["event"] == event and r["name"] == name


def measure_avahi(lan, rounds, timeout):
    a, b = lan["a"], lan["b"]
    browse = b.popen_lines(["avahi-browse", "-p", "-r", "-k", SERVICE])
    times = []
    for i in range(rounds):
        name = f"bench avahi {os.getpid()} {i}"
        started = time.monotonic()
        pub = a.popen(["avahi-publish", "-s", name, SERVICE, "7460", "v=1", f"round={i}"], log="avahi-publish")
        # '=', not '+': a room is listed once its address and port are known. (A '+' can come
        # earlier when b queries while a still probes: the shared PTR record needs no probing.)
        browse.wait_for(browse_event("=", name), timeout, f"round {i}: b to resolve {name!r}")
        times.append(time.monotonic() - started)
        a.kill(pub)
        browse.wait_for(browse_event("-", name), timeout, f"round {i}: b to see {name!r} go")
    return times


def watch_missing(halma):
    """Why part (b) cannot run with this halma, or None."""
    out = subprocess.run([halma, "rooms", "--help"], capture_output=True, text=True, timeout=10)
    if "--watch" not in out.stdout:
        return "this halma has no `rooms --watch` yet (halmad's mDNS discovery)"
    return None


def room_names(line):
    try:
        return {room.get("name") for room in json.loads(line).get("rooms", [])}
    except (ValueError, AttributeError):
        return None  # not a RoomList line


def start_halmad(host, halmad):
    run_dir, state_dir = os.path.join(host.dir, "run"), os.path.join(host.dir, "state")
    proc = host.popen([halmad, "--listen", "*:7460", "--runtime-dir", run_dir, "--state-dir", state_dir,
                       "--name", host.name, "--log-level", "debug"], log="halmad")
    sock = os.path.join(run_dir, "api.sock")
    wait_until(lambda: os.path.exists(sock) or proc.poll() is not None, 10, f"halmad on {host.name}")
    if proc.poll() is not None:
        raise Failure(f"halmad on {host.name} exited at start (log: {proc.log_path})")
    return run_dir


def measure_halma(lan, rounds, timeout, halmad, halma):
    a, b = lan["a"], lan["b"]
    run_a, run_b = start_halmad(a, halmad), start_halmad(b, halmad)
    watch = b.popen_lines([halma, "--runtime-dir", run_b, "rooms", "--watch", "--json"])

    def cli(*args):
        out = a.run([halma, "--runtime-dir", run_a, *args], capture_output=True, text=True, timeout=timeout)
        if out.returncode != 0:
            raise Failure(f"halma {' '.join(args)} on a: rc {out.returncode}: {out.stderr.strip()}")
    times = []
    for i in range(rounds):
        name = f"bench-{os.getpid()}-{i}"
        cli("host", name)
        started = time.monotonic()
        watch.wait_for(lambda line: name in (room_names(line) or ()), timeout, f"round {i}: {name} listed on b")
        times.append(time.monotonic() - started)
        cli("close", "--room", name)
        watch.wait_for(lambda line: (names := room_names(line)) is not None and name not in names, timeout,
                       f"round {i}: {name} gone from b's list")
    return times


def row(label, times, how):
    if isinstance(times, str):
        return f"{label:<14}{times}"
    return f"{label:<14}{statistics.median(times):7.3f} s {max(times):7.3f} s   {how}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a round may wait for b")
    parser.add_argument("--halmad", default=os.environ.get("HALMAD", os.path.join(REPO, "build-release/daemon/halmad")))
    parser.add_argument("--halma", default=os.environ.get("HALMA", os.path.join(REPO, "build-release/cli/halma")))
    parser.add_argument("--only", choices=("avahi", "halma"), help="run one part")
    parser.add_argument("--skip-exit", type=int, default=0, help="exit code when it cannot run (default 0)")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 1000:
        parser.error("--rounds: 1 to 1000")
    try:
        preflight()
    except Skip as why:
        print(f"bench_discovery: not run: {why}. It needs root, network namespaces (ip netns, unshare), "
              "dbus-daemon and avahi-daemon.")
        sys.exit(args.skip_exit)

    floor = halma = None
    failed = False
    print(f"bench_discovery: a room published on test host a until listed on test host b "
          f"(2 network namespaces on one bridge), {args.rounds} rounds")
    with Lan("bench", hosts=["a", "b"]) as lan:
        if args.only != "halma":
            floor = measure_avahi(lan, args.rounds, args.timeout)
        if args.only != "avahi":
            missing = None if os.access(args.halma, os.X_OK) else f"no halma at {args.halma}"
            missing = missing or watch_missing(args.halma)
            if missing:
                halma = f"skipped: {missing}"
            else:
                try:
                    halma = measure_halma(lan, args.rounds, args.timeout, args.halmad, args.halma)
                except Failure as why:
                    halma, failed = f"FAILED: {why}", True
                    lan.print_logs()

    print(f"{'':<14}{'median':>9} {'max':>9}")
    if floor is not None:
        print(row("avahi floor", floor, "avahi-publish started -> '=' line of avahi-browse -p -r -k"))
    if halma is not None:
        print(row("halma", halma, "halma host returned -> room in halma rooms --watch --json"))
    goal = f"goal: halma's median within {GOAL_RATIO}x of the avahi floor and under {GOAL_SECONDS:.0f} s"
    if isinstance(floor, list) and isinstance(halma, list):
        ratio = statistics.median(halma) / statistics.median(floor)
        met = ratio <= GOAL_RATIO and statistics.median(halma) < GOAL_SECONDS
        print(f"ratio of medians (halma / avahi floor): {ratio:.2f}   {goal}: {'met' if met else 'NOT met'}")
    else:
        print(goal)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
