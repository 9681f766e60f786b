"""Issue 9: a daemon holds up against a hostile LAN. Real halmad processes on 127.0.0.1 only,
every flood bounded in count, every wait bounded; pass or fail never depends on timing.
Run one with: hostile_tests.py NAME (ctest does, label `integration`)."""
import errno
import os
import resource
import select
import socket
import time

import signal
import subprocess
import sys

import zmq

import halmatest
from halmatest import (Cluster, Daemon, api_pb2, check, common_pb2, peer_pb2, play_one, raw_peer, replica_digest, run, secure,
                       wait_until)

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


def connect_flood(port, count, batch=50, source=None):
    """`count` TCP connections to 127.0.0.1:port that never say a word (no ZMTP greeting), made
    in batches the listen backlog can take: each batch is established (or refused, or shed: as
    good for a flood) before the next, each wait bounded. From the loopback address `source`
    if given (another machine, as the host tells them apart)."""
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
            if source:
                s.bind((source, 0))
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


class RawPeer:
    """A hand-made peer on a host's port: requests with ids, answers matched, updates skipped."""

    def __init__(self, c, host, source=None, keys=None):
        self.sock = raw_peer(c.ctx, host, keys=keys, source=source)
        self.next_id = 1

    def ask(self, timeout=10.0, **body):
        rid = self.next_id
        self.next_id += 1
        self.sock.send(peer_pb2.PeerMessage(version=1, request_id=rid, **body).SerializeToString())
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            check(left > 0 and self.sock.poll(int(left * 1000)), f"no answer to {list(body)}")
            msg = peer_pb2.HostMessage()
            msg.ParseFromString(self.sock.recv())
            if msg.request_id == rid:
                return msg

    def join(self, room, name="flood", spectate=True, token=""):
        reply = self.ask(join=peer_pb2.JoinRoom(room=room, name=name, spectate=spectate, token=token))
        check(reply.HasField("joined"), f"join {room}: {reply}")
        return reply.joined

    def command(self, room_id, token, **action):
        return self.ask(command=peer_pb2.RoomCommand(room_id=room_id, token=token, **action))

    def close(self):
        self.sock.close()


SNAPSHOT_BOUND = 1 << 20  # docs/protocol.md, Limits: a snapshot without the current game's moves
CHAT_FLOOD = 2500
CHAT_LINE = "x" * 500
CHURN = 3000
CHURN_EACH = 100  # PeerAddressBudget::kJoins: new members one machine adds at once


def room_logs_stay_bounded():
    """Point 2: 2,500 chat lines of 500 bytes from one spectator and ten lines each from 20
    more, then 3,000 join/leave cycles: the lines past the rate are refused with a reason, the
    room keeps 100 lines, a snapshot stays under 1 MiB, the host's file on disk is as small, the
    replica equals the host, and after both restart the remote player is back in its seat."""
    with Cluster("roomlog") as c:
        ann = add_limited(c, "ann")
        bob = c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="r", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="r"))
        for _ in range(4):
            play_one([ann, bob])
        idle_rss = rss_kb(ann)
        raw = RawPeer(c, ann)
        me = raw.join("r")
        room_id = me.snapshot.config.room_id
        refused = [raw.command(room_id, me.token, chat=CHAT_LINE) for _ in range(CHAT_FLOOD)]
        refused = [r.error.message for r in refused if r.HasField("error")]
        check(refused and all("too much chat" in m for m in refused), f"chat refusals: {set(refused)}")
        for i in range(20):
            other = raw.join("r", name=f"chatter {i}")
            for _ in range(10):
                raw.command(room_id, other.token, chat=f"line from {i}")
            raw.command(room_id, other.token, leave=peer_pb2.Leave())
        # From many machines: one is held to its budget of new members (below).
        churners = [RawPeer(c, ann, source=f"127.0.0.{2 + k}") for k in range(CHURN // CHURN_EACH)]
        for i in range(CHURN):
            churner = churners[i // CHURN_EACH]
            member = churner.join("r", name=f"churn {i}")
            r = churner.command(room_id, member.token, leave=peer_pb2.Leave())
            check(r.HasField("ack"), f"leave {i}: {r}")
        for churner in churners:
            churner.close()
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        peak_rss = rss_kb(ann, "VmHWM")
        # A new reader: raw, idle meanwhile, has more updates queued than the host keeps for it
        # (64), and the answer to a join it sent now could be dropped with them.
        reader = RawPeer(c, ann, source="127.0.0.200")
        snapshot = reader.join("r", name="reader").snapshot
        reader.close()
        size = len(snapshot.SerializeToString())
        check(size < SNAPSHOT_BOUND, f"a snapshot of {size} bytes, {len(snapshot.events)} events")
        view = ann.api().view()
        check(len(view.chat) <= 100, f"{len(view.chat)} chat lines kept")
        events_file = os.path.join(ann.state_dir, "rooms", room_id, "events")
        on_disk = os.path.getsize(events_file)
        check(on_disk < SNAPSHOT_BOUND, f"the events file holds {on_disk} bytes")
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 10,
                   "bob's replica to equal the host's room")
        raw.close()
        # The durable log is the folded one: a restarted host resumes the same room, and the
        # remote player's daemon, restarted too, takes its seat back and plays on.
        bob_seat = bob.api().view().your_seat
        before = replica_digest(ann.api().view())
        ann.kill(signal.SIGKILL)
        bob.kill(signal.SIGKILL)
        ann.start()
        check(replica_digest(ann.api().view())[1:] == before[1:], "the restarted host's room differs")
        bob.start()

        def back():
            r = bob.api().call(view=api_pb2.ViewRequest())
            return (not r.HasField("error") and r.view.connection == api_pb2.CONNECTION_STATE_CONNECTED
                    and r.view.your_seat == bob_seat and replica_digest(r.view) == replica_digest(ann.api().view()))
        wait_until(back, 20, "bob to rejoin his seat after both restarts")
        play_one([ann, bob])
        print(f"chat flood: {len(refused)} of {CHAT_FLOOD} lines refused; {CHURN} join/leave cycles; "
              f"snapshot {size} bytes ({len(snapshot.events)} events), events file {on_disk} bytes; "
              f"host RSS idle {idle_rss} kB, peak {peak_rss} kB")


REJOINS = 300
REJOIN_GROWTH_KB = 32 * 1024  # docs/protocol.md, Limits: 64 messages queued per peer


def unread_rejoins_stay_bounded():
    """Point 3: a room whose chat someone tried to fill (2,000 lines of 500 bytes), then 300
    rejoins from a peer that never reads its answers: the host grows by less than 32 MiB. A
    replica that has the room up to seq N gets only the events after N."""
    with Cluster("rejoins") as c:
        ann = add_limited(c, "ann")
        ann.api().ok(host=api_pb2.HostRequest(name="j", mode=common_pb2.RoomMode(players=2)))
        # The flood from another machine: this one's own chat budget stays whole.
        flooder = RawPeer(c, ann, source="127.0.0.2")
        filler = flooder.join("j", name="filler")
        room_id = filler.snapshot.config.room_id
        for _ in range(2000):
            flooder.command(room_id, filler.token, chat=CHAT_LINE)
        raw = RawPeer(c, ann)
        me = raw.join("j", name="sleeper")
        full = raw.join("j", token=me.token).snapshot
        check(full.after_seq == 0 and len(full.events) > 3, f"a rejoin without since_seq: {len(full.events)} events")
        seq = full.events[-1].seq
        raw.command(room_id, me.token, chat="one more line")
        cheap = raw.ask(join=peer_pb2.JoinRoom(room=room_id, token=me.token, since_seq=seq)).joined.snapshot
        check(cheap.after_seq == seq and [e.seq for e in cheap.events] == list(range(seq + 1, seq + 1 + len(cheap.events)))
              and 1 <= len(cheap.events) <= 3, f"a rejoin since {seq}: after {cheap.after_seq}, "
              f"seqs {[e.seq for e in cheap.events]}")
        snapshot_bytes = len(full.SerializeToString())
        raw.close()
        flooder.close()
        before = rss_kb(ann, "VmHWM")
        # The sleeper: its socket takes one message in and then stops reading.
        sleeper = c.ctx.socket(zmq.DEALER)
        sleeper.setsockopt(zmq.LINGER, 0)
        sleeper.setsockopt(zmq.RCVHWM, 1)
        sleeper.setsockopt(zmq.RCVBUF, 4096)
        secure(sleeper, ann)  # the raw peer's key: the token is bound to it
        sleeper.connect(f"tcp://{ann.address}")
        for i in range(REJOINS):
            sleeper.send(peer_pb2.PeerMessage(version=1, request_id=i + 1, join=peer_pb2.JoinRoom(
                room=room_id, token=me.token)).SerializeToString())
        # Messages on one connection are read in order: once this line is in the room, the host
        # has answered every rejoin before it.
        sleeper.send(peer_pb2.PeerMessage(version=1, request_id=REJOINS + 1, command=peer_pb2.RoomCommand(
            room_id=room_id, token=me.token, chat="all sent")).SerializeToString())
        wait_until(lambda: any(line.text == "all sent" for line in ann.api().view().chat), 60,
                   "the host to read every rejoin")
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        grown = rss_kb(ann, "VmHWM") - before
        sleeper.close()
        check(grown < REJOIN_GROWTH_KB, f"the host grew by {grown} kB for {REJOINS} unread rejoins")
        print(f"{REJOINS} unread rejoins of a {snapshot_bytes}-byte snapshot: host peak RSS {before} kB before, "
              f"+{grown} kB; a rejoin since seq {seq}: {len(cheap.SerializeToString())} bytes")


def read_files(directory):
    out = {}
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as f:
            out[name] = f.read()
    return out


def damaged_length_refuses_the_room():
    """Point 5: a record in the middle of a room's events file whose length points past the end
    of the file is damage, not a torn last write: the room is not loaded, its files are left
    byte for byte as they were, and the other rooms load."""
    with Cluster("damaged") as c:
        ann, bob = c.add("ann"), c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="d", mode=common_pb2.RoomMode(players=2)))
        ann.api().ok(host=api_pb2.HostRequest(name="ok", mode=common_pb2.RoomMode(players=2), spectate=True))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="d"))
        for _ in range(20):
            play_one([ann, bob])
        room_id = ann.api().view("d").summary.room_id
        directory = os.path.join(ann.state_dir, "rooms", room_id)
        ann.kill(signal.SIGTERM)
        path = os.path.join(directory, "events")
        data = bytearray(open(path, "rb").read())
        # Walk to the 10th record and make its length point past the end of the file.
        at = 0
        for _ in range(9):
            at += 8 + int.from_bytes(data[at:at + 4], "little")
        check(at < len(data) // 2, "the 10th record is not in the middle")
        data[at:at + 4] = (len(data) - at).to_bytes(4, "little")
        with open(path, "wb") as f:
            f.write(data)
        before = read_files(directory)
        ann.start()
        names = [r["name"] for r in ann.cli_json("rooms", "127.0.0.1:%d" % ann.port)["rooms"]]
        check(names == ["ok"], f"rooms loaded: {names}")
        check(read_files(directory) == before, "the refused room's files changed")
        check("not resumed" in open(ann.log_path).read(), "the log does not say the room was refused")


def in_private_mount_namespace(name, script=__file__):
    """Runs the rest of test `name` (of `script`) in a private mount namespace (`unshare -m`, as
    root), so a tmpfs it mounts is seen by it and the daemons it starts, and by nothing else;
    gone with it."""
    if os.environ.get("HALMA_PRIVATE_MOUNTS") == "1":
        return
    check(os.geteuid() == 0, "this test mounts a tmpfs in a private mount namespace: run it as root")
    env = dict(os.environ, HALMA_PRIVATE_MOUNTS="1")
    os.execvpe("unshare", ["unshare", "--mount", "--propagation", "private", sys.executable,
                           os.path.abspath(script), name], env)


def small_tmpfs(path, size="1m"):
    os.makedirs(path, mode=0o700, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", path], check=True)


def fill(directory):
    """Writes a filler file until the file system is full (bounded: the tmpfs is 1 MiB)."""
    path = os.path.join(directory, "filler")
    with open(path, "wb", buffering=0) as f:
        for _ in range(4096):
            try:
                f.write(b"x" * 1024)
            except OSError as e:
                check(e.errno == errno.ENOSPC, f"filling {directory}: {e}")
                return path
    raise halmatest.Failure(f"{directory} did not fill up")


def mover_and_move(players):
    views = halmatest.views_in_step(players, lambda d: d.api().view("full"))
    movers = [(d, v) for d, v in zip(players, views) if v.your_turn]
    check(len(movers) == 1, f"{len(movers)} daemons think it is their turn")
    return movers[0][0], halmatest.greedy_move(movers[0][1]), views[0].seq


def full_disk_refuses_and_keeps():
    """Point 6: the host's state directory (a 1 MiB tmpfs) fills up mid-game. The next move and
    chat line are refused with a reason, no replica moves on, the room's files stay byte for byte
    (also through a kill -9 and a restart on the still-full disk); when space returns, the room
    takes moves again. A peer whose own disk is full keeps its last seats file, and logs it."""
    in_private_mount_namespace("full_disk_refuses_and_keeps")
    with Cluster("enospc") as c:
        ann, bob, carl = Daemon(c, "ann"), Daemon(c, "bob"), c.add("carl")
        for d in (ann, bob):
            small_tmpfs(d.state_dir)
            c.daemons.append(d)
        try:
            for d in (ann, bob):
                d.start()
            full_disk_steps(ann, bob, carl)
        finally:
            for d in (ann, bob):
                d.kill()
                subprocess.run(["umount", d.state_dir], check=False)


def chat_until_refused(ann, bob, directory):
    """A full tmpfs still takes what fits in the pages its files have: chat lines of 400 bytes
    (ten each, within the rate) fill the events file's last page, and one is refused on the way.
    The refusal, the room's files just before it, and its seq."""
    for i in range(20):
        before = read_files(directory)
        seq = ann.api().view("full").seq
        reply = [ann, bob][i % 2].api().call(action=api_pb2.ActionRequest(room="full", chat="x" * 400))
        if reply.HasField("error"):
            return reply.error, before, seq
    raise halmatest.Failure("20 chat lines of 400 bytes were all accepted on a full disk")


def full_disk_steps(ann, bob, carl):
    """The steps of full_disk_refuses_and_keeps, with both tmpfs mounted."""
    ann.api().ok(host=api_pb2.HostRequest(name="full", mode=common_pb2.RoomMode(players=2)))
    carl.api().ok(host=api_pb2.HostRequest(name="side", mode=common_pb2.RoomMode(players=2), spectate=True))
    bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="full"))
    for _ in range(6):
        play_one([ann, bob])
    room_id = ann.api().view("full").summary.room_id
    directory = os.path.join(ann.state_dir, "rooms", room_id)
    wait_until(lambda: os.path.exists(os.path.join(bob.state_dir, "seats")), 10, "bob's seats file")
    seats_before = open(os.path.join(bob.state_dir, "seats"), "rb").read()
    check(room_id.encode() in seats_before, "bob's seats file does not hold the room")
    # Front ends that follow the room, on the host and on the guest: they are told when it turns
    # read-only and when it takes changes again.
    watchers = {d.name: d.api() for d in (ann, bob)}
    for w in watchers.values():
        w.ok(subscribe=api_pb2.SubscribeRequest(room="full"))

    def told(who, words):
        w = watchers[who]
        w.view("full")  # collects the events pushed meanwhile
        return any(words in e.text for e in w.events)

    filler = fill(ann.state_dir)
    refused, before, seq = chat_until_refused(ann, bob, directory)
    check(refused.code == common_pb2.ERROR_CODE_UNAVAILABLE and "read-only" in refused.message,
          f"refused without the reason: {refused}")
    check(read_files(directory) == before, "a failed write changed the room's files")
    # Everyone is told, not only the one whose change was refused: the views say why, and the
    # front ends following the room got an event saying so (the guest's from the host's heartbeat).
    check("cannot write to its disk" in ann.api().view("full").read_only,
          f"the host's view does not say the room is read-only: {ann.api().view('full').read_only!r}")
    wait_until(lambda: "cannot write to its disk" in bob.api().view("full").read_only, 10,
               "the guest's view to say the room is read-only")
    for who in watchers:
        wait_until(lambda: told(who, "is read-only"), 10, f"{who}'s front end to be told the room is read-only")
    d, move, _ = mover_and_move([ann, bob])
    reply = d.api().move(move, "full")
    check(reply.HasField("error") and "read-only" in reply.error.message, f"a move on a read-only room: {reply}")
    check(ann.api().view("full").seq == seq and bob.api().view("full").seq == seq, "a refused change moved a replica")
    check(read_files(directory) == before, "a refused move changed the room's files")
    check("cannot write to disk" in open(ann.log_path).read(), "the host's log does not say why")

    # The peer's disk is full: joining another room cannot replace its seats file.
    fill(bob.state_dir)
    bob.api().ok(join=api_pb2.JoinRequest(address=carl.address, room="side"))
    seats = os.path.join(bob.state_dir, "seats")
    check(open(seats, "rb").read() == seats_before, "bob's seats file was replaced on a full disk")
    check("cannot remember seats" in open(bob.log_path).read(), "bob's log does not say it")

    # Space returns: the room takes moves again (retried: the host tries its disk each second).
    os.remove(filler)

    def moved():
        d, move, seq = mover_and_move([ann, bob])
        return d.api().move(move, "full").HasField("error") is False
    wait_until(moved, 15, "the room to take a move once space returned")
    check("disk takes writes again" in open(ann.log_path).read(), "the host's log does not say it is writable")
    check(ann.api().view("full").read_only == "", "the host's view still says read-only")
    wait_until(lambda: bob.api().view("full").read_only == "", 10, "the guest's view to drop read-only")
    for who in watchers:
        wait_until(lambda: told(who, "takes changes again"), 10, f"{who}'s front end to be told the room is writable")
    after = read_files(directory)
    check(after["events"].startswith(before["events"]) and len(after["events"]) > len(before["events"]),
          "the events file does not hold the old events and the new move")

    # Full again, then a crash, and a restart on the full disk: nothing that was on disk is gone.
    fill(ann.state_dir)
    refused, before, seq = chat_until_refused(ann, bob, directory)
    ann.kill()
    check(read_files(directory) == before, "the room's files changed after a refusal and a kill -9")
    ann.start()
    # A restart may fit a connection event or two in the last page: never fewer events.
    check(ann.api().view("full").seq >= seq, "the restarted host lost events")
    check(read_files(directory)["events"].startswith(before["events"]), "the restart lost events on disk")

def squatted_runtime_dir_is_refused():
    """Point 7: `halma` checks the runtime directory and its socket before it connects: one owned
    by another user (nobody), writable by its group or everyone, a symlink, or a socket anyone
    may write is refused with a `halma:` message naming the problem, exit 1. The service's
    layout (directory 0750, socket 0660) is accepted."""
    with Cluster("squat") as c:
        ann = c.add("ann")
        run_dir, sock = ann.runtime_dir, os.path.join(ann.runtime_dir, "api.sock")
        check(ann.cli("daemon", "status").returncode == 0, "status on a sane runtime directory failed")

        def refused(what):
            out = ann.cli("daemon", "status")
            check(out.returncode == 1 and out.stderr.startswith("halma: ") and what in out.stderr,
                  f"expected a refusal naming '{what}', got rc {out.returncode}: {out.stdout!r} {out.stderr!r}")

        os.chown(run_dir, 65534, 65534)
        refused("belongs to nobody")
        os.chown(run_dir, os.geteuid(), os.getegid())
        os.chmod(run_dir, 0o777)
        refused("writable by everyone")
        os.chmod(run_dir, 0o770)
        refused("writable by its group")
        os.chmod(run_dir, 0o750)
        os.chmod(sock, 0o666)
        refused("writable by everyone")
        os.chown(sock, 65534, 65534)
        os.chmod(sock, 0o600)
        refused("belongs to nobody")
        os.chown(sock, os.geteuid(), os.getegid())
        os.chmod(sock, 0o660)  # the service's layout: 0750 and 0660 for the group halma
        check(ann.cli("daemon", "status").returncode == 0, "the service's layout (0750, 0660) was refused")
        link = run_dir + "-link"
        os.symlink(run_dir, link)
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", link, "daemon", "status"], capture_output=True, text=True,
                             timeout=30)
        check(out.returncode == 1 and "not a directory" in out.stderr, f"a symlinked runtime directory: {out.stderr!r}")


TESTS = [fd_flood_keeps_the_api, room_logs_stay_bounded, unread_rejoins_stay_bounded, damaged_length_refuses_the_room,
         full_disk_refuses_and_keeps, squatted_runtime_dir_is_refused]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
