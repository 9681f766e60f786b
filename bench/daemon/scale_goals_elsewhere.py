"""bench_scale's sections for the goals of issue 11 that other programs measure, so that one run
prints every goal: rooms under the descriptor limit (halmad under `prlimit --nofile=1024`), the
move generator against the plain one (bench_perft) and the daemons' round trip against plain
ZeroMQ relays wired the same way (bench_daemon). Each program's own figures are printed as it
printed them, with its baselines from its own run; the goal line is read off them."""
import os
import re
import signal
import subprocess

import halmatest
from halma.v1 import api_pb2, common_pb2

DESCRIPTOR_LIMIT = 1024


def open_descriptors(daemon):
    return len(os.listdir(f"/proc/{daemon.proc.pid}/fd"))


def section_descriptors(cluster, args, start, verdict):
    """N idle hosted rooms made under the default limit of 1024 open files, then the daemon
    started again under it: every room on disk, listed, and the last one takes a chat line."""
    rooms = args.descriptor_rooms
    print(f"\n== descriptors: {rooms} idle hosted rooms under prlimit --nofile={DESCRIPTOR_LIMIT} ==")
    d = start(cluster, "fds", ["--no-mdns"])
    d.kill(signal.SIGTERM)
    plain = d.command
    d.command = lambda: ["prlimit", f"--nofile={DESCRIPTOR_LIMIT}"] + plain()
    d.start()
    api = d.api()
    for i in range(rooms):
        api.ok(host=api_pb2.HostRequest(name=f"idle{i}", mode=common_pb2.RoomMode(players=2)))
    made = open_descriptors(d)
    on_disk = len(os.listdir(os.path.join(d.state_dir, "rooms")))
    d.kill(signal.SIGTERM)
    d.start()
    listed = {r.name for r in d.api().ok(list=api_pb2.ListRequest()).rooms.rooms}
    last = f"idle{rooms - 1}"
    reply = d.api().call(action=api_pb2.ActionRequest(room=last, chat="still here"))
    wrote = not reply.HasField("error")
    after = open_descriptors(d)
    out_of = "Too many open files" in d.log_tail(2000)
    print(f"rooms on disk {on_disk}, listed after a restart {len(listed)}, {last} takes a chat line: "
          f"{'yes' if wrote else 'no: ' + reply.error.message}")
    print(f"open descriptors: {made} after making them, {after} after the restart and the chat "
          f"(limit {DESCRIPTOR_LIMIT}); out of descriptors in the log: {'yes' if out_of else 'no'}")
    ok = on_disk == rooms and len(listed) == rooms and wrote and not out_of and after < DESCRIPTOR_LIMIT
    return [(f"{rooms} idle rooms under {DESCRIPTOR_LIMIT} descriptors, each saved and back after a restart", ok)]


def run_and_show(command):
    out = subprocess.run(command, capture_output=True, text=True, timeout=900)
    for line in (out.stdout + out.stderr).splitlines():
        print("  " + line)
    return out


def ratio_after(text, label):
    found = re.search(re.escape(label) + r"\s*([0-9.]+)x", text)
    return float(found.group(1)) if found else None


def section_perft(cluster, args, start, verdict):
    print("\n== move generation: bench_perft (the engine listing moves beside the plain generator) ==")
    depth, runs = ("5", "1") if args.quick else ("6", "5")
    out = run_and_show([os.environ["BENCH_PERFT"], depth, runs])
    ratio = ratio_after(out.stdout, "listing / baseline:")
    shown = f"{ratio:.2f}x" if ratio is not None else "not printed"
    return [(f"perft listing at least 2x the plain generator ({shown})",
             out.returncode == 0 and ratio is not None and ratio >= 2.0)]


def section_relays(cluster, args, start, verdict):
    print("\n== round trip: bench_daemon (six halmad beside plain ZeroMQ relays wired the same way) ==")
    # 6000 moves: a p99 from 2000 rests on its 20 slowest, which one burst elsewhere moves by 0.1x.
    moves = "50" if args.quick else "6000"
    out = run_and_show([os.environ["BENCH_DAEMON"], "--moves", moves, "--idle-s", "0.5"])
    ratio = ratio_after(out.stdout, "p99 halmad / p99 plain relays, same path =")
    shown = f"{ratio:.2f}x" if ratio is not None else "not printed"
    return [(f"round trip p99 within 1.3x of the same-path relays ({shown})",
             out.returncode == 0 and ratio is not None and ratio <= 1.3)]
