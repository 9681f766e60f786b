"""Issue 9: a daemon holds up against a hostile LAN. Real halmad processes on 127.0.0.1 only,
every flood bounded in count, every wait bounded; pass or fail never depends on timing.
Run one with: hostile_tests.py NAME (ctest does, label `integration`)."""
import errno
import os
import resource
import select
import socket
import time

import halmatest
from halmatest import Cluster, Daemon, api_pb2, check, common_pb2, run, wait_until

FLOOD_CONNECTIONS = 1100
NOFILE = 1024


def add_limited(c, name, nofile=NOFILE, peer_timeout_ms=None, extra=()):
    """A daemon started as `prlimit --nofile=N halmad ...`: soft and hard limit N. A long
    peer timeout keeps a silent connection open as long (it is also the ZMTP handshake's
    limit), so that only the cap on connections can shed a flood."""
    d = Daemon(c, name, extra)
    plain = d.command

    def command():
        args = plain()
        if peer_timeout_ms is not None:
            args[args.index("--peer-timeout-ms") + 1] = str(peer_timeout_ms)
        return ["prlimit", f"--nofile={nofile}", "--"] + args
    d.command = command
    c.daemons.append(d)
    return d.start()


def rss_kb(d, field="VmRSS"):
    with open(f"/proc/{d.proc.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise halmatest.Failure(f"no {field} for {d.name}")


def open_fds(d):
    return len(os.listdir(f"/proc/{d.proc.pid}/fd"))


def connect_flood(port, count, batch=50):
    """`count` TCP connections to 127.0.0.1:port that never say a word (no ZMTP greeting), made
    in batches the listen backlog can take: each batch is established (or refused, or shed: as
    good for a flood) before the next, each wait bounded."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))
    socks = []
    for first in range(0, count, batch):
        poller = select.poll()
        pending = set()
        for _ in range(min(batch, count - first)):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            err = s.connect_ex(("127.0.0.1", port))
            check(err in (0, errno.EINPROGRESS), f"connect: {os.strerror(err)}")
            socks.append(s)
            poller.register(s.fileno(), select.POLLOUT)
            pending.add(s.fileno())
        deadline = time.monotonic() + 10
        while pending and time.monotonic() < deadline:
            for fd, _ in poller.poll(500):
                poller.unregister(fd)
                pending.discard(fd)
    return socks


def fd_flood_keeps_the_api():
    """Point 1: 1,100 silent TCP connections to the peer port of a daemon limited to 1024 open
    files; then a front end connects to the local API and everything works, the daemon never
    aborts, and a real peer can still join once the flood is over."""
    with Cluster("fdflood") as c:
        ann = add_limited(c, "ann", peer_timeout_ms=60000)
        bob = c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="f", mode=common_pb2.RoomMode(players=2)))
        idle_fds, idle_rss = open_fds(ann), rss_kb(ann)
        flood = connect_flood(ann.port, FLOOD_CONNECTIONS)
        peak = open_fds(ann)
        # A front end connects while the flood still holds its connections.
        out = ann.cli("daemon", "status")
        check(out.returncode == 0, f"halma daemon status during the flood: rc {out.returncode}: {out.stderr}")
        view = halmatest.Api(c.ctx, ann.runtime_dir).view()
        check(view.summary.name == "f", f"the API's view during the flood: {view}")
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        check("shedding" in open(ann.log_path).read(), "the host never said it shed connections")
        for s in flood:
            s.close()
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="f"))
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        print(f"open files: idle {idle_fds}, during a flood of {FLOOD_CONNECTIONS}: {peak} (limit {NOFILE}); "
              f"RSS idle {idle_rss} kB, peak {rss_kb(ann, 'VmHWM')} kB")


TESTS = [fd_flood_keeps_the_api]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
