#!/usr/bin/env python3
"""What a Raspberry Pi owner pays for halma: package and program sizes, the resident memory of an
idle halmad and of one hosting rooms of bots playing, and the CPU time per bot move.

Each figure is printed for the Debian package (scripts/package.sh: stripped, Debian's hardening
flags, prefix /usr) beside the same figure for what `cmake --install` of a build tree gives, both
measured in this run. Real halmad processes on 127.0.0.1, driven through the local API with the
integration tests' harness. Not a test: figures only.

    build-release/bench/package/bench_footprint [--debs packages] [--rooms 20] [--seconds 20]
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "daemon"))

PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def kib(n):
    return f"{n / 1024:,.0f} KiB"


def installed_from_debs(deb_dir, root):
    """The .debs of this machine's architecture unpacked into root: {package: .deb size}."""
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    debs = {}
    for deb in sorted(glob.glob(os.path.join(deb_dir, f"halma*_{arch}.deb"))):
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        name = subprocess.run(["dpkg-deb", "-f", deb, "Package"], capture_output=True, text=True,
                              check=True).stdout.strip()
        installed = subprocess.run(["dpkg-deb", "-f", deb, "Installed-Size"], capture_output=True, text=True,
                                   check=True).stdout.strip()
        debs[name] = (os.path.getsize(deb), int(installed) * 1024)
    return debs


def tree_size(root):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(root) for f in files
               if not os.path.islink(os.path.join(d, f)))


def memory(pid):
    """(VmRSS, VmHWM) in bytes, from /proc."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) * 1024
    return fields["VmRSS"], fields["VmHWM"]


def cpu_seconds(pid):
    """User plus system time of every thread of pid so far."""
    with open(f"/proc/{pid}/stat") as f:
        after_name = f.read().rsplit(")", 1)[1].split()
    return (int(after_name[11]) + int(after_name[12])) / TICKS


def measure(halmatest, halmad, label, rooms, seconds, level):
    """Idle memory, then memory and CPU per bot move with `rooms` bot-only rooms playing."""
    from halma.v1 import api_pb2, common_pb2
    halmatest.HALMAD = halmad
    figures = {}
    with halmatest.Cluster(f"footprint-{label}") as c:
        d = c.add("host", extra=["--bot-level", level])
        time.sleep(2)  # settled: the loop sleeps in poll
        figures["idle_rss"], _ = memory(d.proc.pid)
        api = d.api()
        for i in range(rooms):
            api.ok(host=api_pb2.HostRequest(name=f"bots{i}", spectate=True, bots=2, bot_level=level,
                                            mode=common_pb2.RoomMode(players=2)))

        def bot_moves():
            return sum(len(api.view(f"bots{i}").moves) for i in range(rooms))
        moves_before, cpu_before = bot_moves(), cpu_seconds(d.proc.pid)
        time.sleep(seconds)
        moves = bot_moves() - moves_before
        cpu = cpu_seconds(d.proc.pid) - cpu_before
        figures["busy_rss"], figures["busy_hwm"] = memory(d.proc.pid)
        figures["moves"] = moves
        figures["cpu_per_move_ms"] = 1000 * cpu / moves if moves else float("nan")
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--debs", default=os.path.join(ROOT, "packages"), help="where scripts/package.sh put them")
    parser.add_argument("--build", default=os.path.join(ROOT, "build-release"), help="the build tree to install")
    parser.add_argument("--rooms", type=int, default=20, help="bot-only rooms for the busy figures")
    parser.add_argument("--seconds", type=float, default=20, help="how long the bots play while measured")
    parser.add_argument("--level", default="hard", help="the bots' level (easy or hard)")
    args = parser.parse_args()
    import halmatest

    with tempfile.TemporaryDirectory(prefix="halma-footprint-") as tmp:
        deb_root, cmake_root = os.path.join(tmp, "deb"), os.path.join(tmp, "cmake")
        debs = installed_from_debs(args.debs, deb_root)
        if not debs:
            sys.exit(f"bench_footprint: no halma .debs in {args.debs}: run scripts/package.sh first")
        subprocess.run(["cmake", "--install", args.build, "--prefix", cmake_root], check=True,
                       stdout=subprocess.DEVNULL)
        deb_bin, cmake_bin = os.path.join(deb_root, "usr", "bin"), os.path.join(cmake_root, "bin")

        print(f"bench_footprint: the Debian packages beside `cmake --install {args.build}`, {os.cpu_count()} cores")
        print("\npackages (.deb file, installed size by dpkg):")
        for name, (size, installed) in debs.items():
            print(f"  {name:8} {kib(size):>12}  installed {kib(installed):>12}")
        print(f"  {'total':8} {kib(sum(s for s, _ in debs.values())):>12}  installed "
              f"{kib(tree_size(deb_root)):>12}   cmake --install tree: {kib(tree_size(cmake_root))}")
        print(f"\n{'program':10} {'package':>12} {'cmake --install':>16} {'ratio':>7}")
        for program in ("halmad", "halma"):
            a, b = os.path.getsize(os.path.join(deb_bin, program)), os.path.getsize(os.path.join(cmake_bin, program))
            print(f"{program:10} {kib(a):>12} {kib(b):>16} {a / b:>7.2f}")

        runs = {}
        for label, halmad in (("package", os.path.join(deb_bin, "halmad")),
                              ("cmake --install", os.path.join(cmake_bin, "halmad"))):
            runs[label] = measure(halmatest, halmad, label.split()[0], args.rooms, args.seconds, args.level)
        print(f"\nhalmad at run time ({args.rooms} rooms of two {args.level} bots playing for {args.seconds:g} s):")
        print(f"{'':32} {'package':>12} {'cmake --install':>16}")
        p, c = runs["package"], runs["cmake --install"]
        print(f"{'RSS idle':32} {kib(p['idle_rss']):>12} {kib(c['idle_rss']):>16}")
        print(f"{'RSS with the bots playing':32} {kib(p['busy_rss']):>12} {kib(c['busy_rss']):>16}")
        print(f"{'peak RSS (VmHWM)':32} {kib(p['busy_hwm']):>12} {kib(c['busy_hwm']):>16}")
        print(f"{'bot moves made':32} {p['moves']:>12} {c['moves']:>16}")
        print(f"{'CPU per bot move':32} {p['cpu_per_move_ms']:>9.1f} ms {c['cpu_per_move_ms']:>13.1f} ms")


if __name__ == "__main__":
    main()
