#!/usr/bin/env python3
"""Peak memory of halmad under each flood a LAN peer (or a fake host) can send, beside an idle
daemon measured in the same run: the figures behind docs/protocol.md, "Limits". Each flood is
the one tests/daemon/hostile_tests.py and hostile_host_tests.py push past its bound, on a fresh
daemon of its own (real processes on 127.0.0.1 only); the figure is the daemon's peak resident
memory (VmHWM) after the flood, beside its own VmHWM just before it and beside a daemon that only
hosts a room. Not a test: figures only (exit 0 when every flood ran).
Run: build/bench/daemon/bench_floods"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "daemon"))

import zmq  # noqa: E402

import halmatest  # noqa: E402
import hostile_host_tests as hh  # noqa: E402
import hostile_tests as ht  # noqa: E402
from halmatest import Cluster, Daemon, api_pb2, common_pb2, peer_pb2, play_one, wait_until  # noqa: E402


def hwm_kb(pid):
    return status_kb(pid, "VmHWM")


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise SystemExit(f"no {field} for process {pid}")


def host_room(d, name):
    d.api().ok(host=api_pb2.HostRequest(name=name, mode=common_pb2.RoomMode(players=2)))


def idle_host():
    with Cluster("benchidle") as c:
        ann = ht.add_limited(c, "ann")
        host_room(ann, "idle")
        time.sleep(2)
        return hwm_kb(ann.proc.pid), "hosts one room, nothing sent to it"


def connection_flood():
    with Cluster("benchconn") as c:
        ann = ht.add_limited(c, "ann", peer_timeout_ms=60000)
        host_room(ann, "f")
        before = hwm_kb(ann.proc.pid)
        flood = ht.connect_flood(ann.port, ht.FLOOD_CONNECTIONS)
        time.sleep(1)
        ann.api().view()  # the local API answers during the flood
        peak = hwm_kb(ann.proc.pid)
        for s in flood:
            s.close()
        return before, peak, f"{ht.FLOOD_CONNECTIONS} silent TCP connections (limit {ht.NOFILE} files)"


def chat_flood():
    with Cluster("benchchat") as c:
        ann = ht.add_limited(c, "ann")
        host_room(ann, "r")
        raw = ht.RawPeer(c, ann)
        me = raw.join("r")
        room_id = me.snapshot.config.room_id
        before = hwm_kb(ann.proc.pid)
        for _ in range(ht.CHAT_FLOOD):
            raw.command(room_id, me.token, chat=ht.CHAT_LINE)
        # Past the rate limit, and past the chat window: 20 members' lines, then join/leave churn.
        for i in range(20):
            other = raw.join("r", name=f"chatter {i}")
            for _ in range(10):
                raw.command(room_id, other.token, chat=ht.CHAT_LINE)
            raw.command(room_id, other.token, leave=peer_pb2.Leave())
        # From many machines: one machine's new members are held to its budget (Limits).
        churners = [ht.RawPeer(c, ann, source=f"127.0.0.{2 + k}") for k in range(ht.CHURN // ht.CHURN_EACH)]
        for i in range(ht.CHURN):
            churner = churners[i // ht.CHURN_EACH]
            member = churner.join("r", name=f"churn {i}")
            churner.command(room_id, member.token, leave=peer_pb2.Leave())
        for churner in churners:
            churner.close()
        peak = hwm_kb(ann.proc.pid)
        # A new reader: raw, idle meanwhile, has more updates queued than the host keeps for it.
        reader = ht.RawPeer(c, ann, source="127.0.0.200")
        size = len(reader.join("r", name="reader").snapshot.SerializeToString())
        reader.close()
        raw.close()
        return before, peak, (f"{ht.CHAT_FLOOD} chat lines of {len(ht.CHAT_LINE)} bytes, 200 more from 20 members, "
                              f"{ht.CHURN} join/leave cycles (snapshot after: {size} bytes)")


def unread_rejoins():
    with Cluster("benchrejoin") as c:
        ann = ht.add_limited(c, "ann")
        host_room(ann, "j")
        raw = ht.RawPeer(c, ann)
        # The largest room chat can make: every spectator the room takes (64, the sleeper one of
        # them) says its burst of 10 lines of 500 bytes; the log then stands near its fold.
        room_id = None
        # Each from a machine of its own: one machine's chat is held to its budget (Limits).
        fillers = [ht.RawPeer(c, ann, source=f"127.0.1.{1 + i}") for i in range(63)]
        for i, one in enumerate(fillers):
            filler = one.join("j", name=f"filler {i}")
            room_id = filler.snapshot.config.room_id
            for _ in range(10):
                one.command(room_id, filler.token, chat=ht.CHAT_LINE)
        me = raw.join("j", name="sleeper")
        snapshot_bytes = len(raw.join("j", token=me.token).snapshot.SerializeToString())
        raw.close()
        before = hwm_kb(ann.proc.pid)
        sleeper = c.ctx.socket(zmq.DEALER)
        sleeper.setsockopt(zmq.LINGER, 0)
        sleeper.setsockopt(zmq.RCVHWM, 1)
        sleeper.setsockopt(zmq.RCVBUF, 4096)
        halmatest.secure(sleeper, ann)  # the key the seat was joined with (raw's)
        sleeper.connect(f"tcp://{ann.address}")
        for i in range(ht.REJOINS):
            sleeper.send(peer_pb2.PeerMessage(version=1, request_id=i + 1, join=peer_pb2.JoinRoom(
                room=room_id, token=me.token)).SerializeToString())
        sleeper.send(peer_pb2.PeerMessage(version=1, request_id=ht.REJOINS + 1, command=peer_pb2.RoomCommand(
            room_id=room_id, token=me.token, chat="all sent")).SerializeToString())
        wait_until(lambda: any(line.text == "all sent" for line in ann.api().view().chat), 60,
                   "the host to read every rejoin")
        peak = hwm_kb(ann.proc.pid)
        sleeper.close()
        for one in fillers:
            one.close()
        return before, peak, (f"{ht.REJOINS} rejoins never read ({snapshot_bytes}-byte snapshots; the host answers "
                              "4 a peer timeout, the rest are refused as too fast)")


def fake_host_chat(count, huge, fixed_mmap_threshold=False):
    """A guest daemon joined to a fake host that then sends `count` chat events of `huge` bytes
    (0: one short line): the guest's peak and kept memory. With `fixed_mmap_threshold`, glibc
    gives every freed large buffer back (as hostile_host_tests.py runs it), so that what is kept
    is what the daemon holds, not what the allocator caches."""
    with Cluster("benchfake") as c:
        victim = Daemon(c, "victim")
        if fixed_mmap_threshold:
            plain = victim.command
            victim.command = lambda: ["env", "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576"] + plain()
        c.daemons.append(victim)
        victim.start()
        host = hh.FakeHost(c.ctx)
        host.start()
        try:
            out = victim.cli("join", f"127.0.0.1:{host.port}/room")
            if out.returncode != 0:
                raise SystemExit(f"halma join at the fake host: {out.stderr}")
            before = hwm_kb(victim.proc.pid)
            for _ in range(count):
                host.outbox.put("x" * huge if huge else "hello")
            wait_until(lambda: host.sent == count, 60, "the fake host to send its chat")
            wait_until(lambda: victim.api().view().seq == host.seq, 60, "the victim to take the chat")
            return before, hwm_kb(victim.proc.pid), status_kb(victim.proc.pid, "VmRSS")
        finally:
            host.stop.set()
            host.join(timeout=5)


def main():
    mb = lambda kb: f"{kb / 1024:6.1f} MB"  # noqa: E731
    idle, what = idle_host()
    print(f"baseline: idle host peak RSS {mb(idle)} ({what})")
    for name, flood in (("connection flood", connection_flood), ("chat flood", chat_flood),
                        ("unread rejoins", unread_rejoins)):
        before, peak, what = flood()
        print(f"{name:17s} host peak RSS {mb(peak)} (idle host {mb(idle)}; {mb(before)} just before): {what}",
              flush=True)
    quiet = fake_host_chat(1, 0)
    for fixed in (False, True):
        loud = fake_host_chat(hh.HUGE_CHATS, hh.HUGE_BYTES, fixed)
        how = "glibc mmap threshold fixed" if fixed else "glibc as it comes"
        print(f"{'fake host':17s} guest peak RSS {mb(loud[1])}, {mb(loud[2])} kept after "
              f"{hh.HUGE_CHATS} chat events of {hh.HUGE_BYTES >> 20} MiB, {how} (a guest sent one short "
              f"line: peak {mb(quiet[1])}, kept {mb(quiet[2])}; {mb(loud[0])} just before)", flush=True)


if __name__ == "__main__":
    main()
