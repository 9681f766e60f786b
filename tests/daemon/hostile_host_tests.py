"""Issue 9, point 4: a hostile host. A fake host (a ROUTER on 127.0.0.1 speaking the peer
protocol) sends terminal escape sequences in every text it can and huge chat events; the victim
daemon cleans and bounds them as a host does what peers send, and `halma` prints no raw control
character whatever it is given. Run one with: hostile_host_tests.py NAME."""
import os
import queue
import shutil
import subprocess
import threading
import time

import zmq

from halmatest import HALMA, Cluster, Daemon, api_pb2, check, common_pb2, free_port, peer_pb2, run, wait_until

# A window title, a colour, a screen clear and a right-to-left override.
EVIL = "\x1b]0;pwned\x07\x1b[31m\u202eevil\x1b[2J\x9b1m"
ROOM_ID = "ab" * 16
HUGE_CHATS = 10
FIRST_CHATS = 5
HUGE_BYTES = 60 << 10  # 120 times a chat line's 500 bytes, under the 64 KiB a host's update may be
TOO_LARGE = 20 << 20  # an update that is not read at all


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class FakeHost(threading.Thread):
    """Answers ListRooms, JoinRoom and heartbeats with hostile text; sends what is put in
    `outbox` as updates of its one room. Stops when `stop` is set (each wait bounded)."""

    def __init__(self, ctx):
        super().__init__(daemon=True)
        # A host as a daemon sees it: a CURVE server (its own key; no ZAP handler, so it takes
        # any client), and the key-probe port above it that tells its key.
        public, secret = zmq.curve_keypair()
        self.sock = ctx.socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.curve_server = True
        self.sock.curve_secretkey = secret
        self.probe = ctx.socket(zmq.ROUTER)
        self.probe.setsockopt(zmq.LINGER, 0)
        self.port = free_port()
        self.sock.bind(f"tcp://127.0.0.1:{self.port}")
        self.probe.bind(f"tcp://127.0.0.1:{self.port + 1}")
        self.key = public.decode()
        self.outbox = queue.Queue()
        self.outbox_raw = queue.Queue()  # whole HostMessages, sent as they are
        self.stop = threading.Event()
        self.peer = None
        self.seq = 0
        self.sent = 0

    def snapshot(self, out):
        out.config.CopyFrom(common_pb2.RoomConfig(room_id=ROOM_ID, name="room" + EVIL,
                                                  mode=common_pb2.RoomMode(players=2)))
        names = ["host" + EVIL, "guest" + EVIL]
        for member, name in enumerate(names, start=1):
            e = out.events.add(seq=member, time_ms=1)
            e.joined.member, e.joined.name, e.joined.seat = member, name, member - 1
        e = out.events.add(seq=3, time_ms=1)
        e.chat.member, e.chat.text = 1, "hello" + EVIL
        self.seq = 3

    def answer(self, ident, msg):
        reply = peer_pb2.HostMessage(version=1, request_id=msg.request_id)
        if msg.HasField("list_rooms"):
            room = reply.rooms.rooms.add(room_id=ROOM_ID, name="room" + EVIL, seats=2, seats_taken=1,
                                         host_player="host" + EVIL)
            room.mode.players = 2
        elif msg.HasField("join"):
            reply.joined.member, reply.joined.seat, reply.joined.token = 2, 1, "cd" * 16
            self.snapshot(reply.joined.snapshot)
            self.peer = ident
        elif msg.HasField("heartbeat"):
            reply.heartbeat.rooms.add(room_id=ROOM_ID, seq=self.seq)
        else:
            reply.error.code, reply.error.message = common_pb2.ERROR_CODE_BAD_REQUEST, "no" + EVIL
        self.sock.send_multipart([ident, reply.SerializeToString()])

    def run(self):
        while not self.stop.is_set():
            if self.probe.poll(0):
                ident, _ = self.probe.recv_multipart()
                answer = peer_pb2.HostMessage(version=1)
                answer.host_key.curve_key = self.key
                self.probe.send_multipart([ident, answer.SerializeToString()])
            if self.sock.poll(50):
                ident, data = self.sock.recv_multipart()
                msg = peer_pb2.PeerMessage()
                msg.ParseFromString(data)
                self.answer(ident, msg)
            while self.peer is not None and not self.outbox_raw.empty():
                self.sock.send_multipart([self.peer, self.outbox_raw.get().SerializeToString()])
            while self.peer is not None and not self.outbox.empty():
                text = self.outbox.get()
                self.seq += 1
                update = peer_pb2.HostMessage(version=1)
                update.update.room_id = ROOM_ID
                update.update.event.seq, update.update.event.time_ms = self.seq, 2
                update.update.event.chat.member, update.update.event.chat.text = 1, text
                self.sock.send_multipart([self.peer, update.SerializeToString()])
                self.sent += 1
        self.sock.close()
        self.probe.close()


def hostile_host_is_contained():
    """Fifteen chat events of 20 MiB and escape sequences in the room's name, the members' names,
    chat and error messages: the victim grows by less than 16 MiB over the first five and over
    the next ten, its replica keeps every line at 500 bytes, and neither `halma` (rooms, join,
    board, board --json, status, watch, move) nor the victim's log shows a raw control
    character."""
    with Cluster("evilhost") as c:
        # glibc raises its mmap threshold after a large buffer is freed, and then keeps several
        # freed 20 MiB buffers in the heap, more or fewer from run to run; a fixed threshold
        # gives every large buffer back when it is freed, so RSS shows what the daemon keeps.
        victim = Daemon(c, "victim")
        plain = victim.command
        victim.command = lambda: ["env", "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576"] + plain()
        c.daemons.append(victim)
        victim.start()
        host = FakeHost(c.ctx)
        host.start()
        try:
            address = f"127.0.0.1:{host.port}"
            outputs = []

            def cli(*args):
                out = victim.cli(*args)
                outputs.append((args, out.stdout + out.stderr))
                return out

            listed = cli("rooms", address)
            check(listed.returncode == 0, f"halma rooms {address}: {listed.stderr}")
            joined = cli("join", address + "/room")
            check(joined.returncode == 0, f"halma join at the fake host failed: {joined.stderr}")

            def send_huge(count):
                target = host.sent + count
                for _ in range(count):
                    host.outbox.put(EVIL + "x" * HUGE_BYTES)
                wait_until(lambda: host.sent == target, 30, "the fake host to send its chat")
                # The replica has them all once its view's seq is the host's.
                wait_until(lambda: victim.api().view().seq == host.seq, 30, "the victim to take the chat")
            idle = rss_kb(victim.proc.pid)
            send_huge(FIRST_CHATS)
            before = rss_kb(victim.proc.pid)
            send_huge(HUGE_CHATS)
            grown = rss_kb(victim.proc.pid) - before
            print(f"victim RSS: {idle} kB idle, {before} kB after {FIRST_CHATS} chat events of {HUGE_BYTES >> 10} KiB, "
                  f"then +{grown} kB over {HUGE_CHATS} more")
            check(before - idle < 16 << 10, f"the victim grew by {before - idle} kB over the first {FIRST_CHATS}")
            check(grown < 16 << 10, f"the victim grew by {grown} kB over {HUGE_CHATS} more chat events")
            # Past what a host makes of an update: not read at all (parsed, it could take 40 to 80
            # times its size).
            host.outbox.put(EVIL + "x" * TOO_LARGE)
            wait_until(lambda: "not read" in open(victim.log_path, errors="replace").read(), 30,
                       "the victim to refuse an update of 20 MiB")
            check(rss_kb(victim.proc.pid) - before < 32 << 10, "the victim grew reading an update of 20 MiB")
            view = victim.api().view()
            check(all(len(line.text.encode()) <= 500 for line in view.chat), "a chat line over 500 bytes was kept")
            for args in (("status",), ("board",), ("board", "--json"), ("rooms",)):
                cli(*args)
            # watch prints events as they come: one is enough; chat is sent until it has one
            # (at most 50 lines, and watch gives up after 10 s).
            watch = subprocess.Popen([HALMA, "--runtime-dir", victim.runtime_dir, "watch", "--count", "1",
                                      "--for-ms", "10000"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for _ in range(50):
                if watch.poll() is not None:
                    break
                host.outbox.put("watch" + EVIL)
                time.sleep(0.2)
            watched = watch.communicate(timeout=20)[0]
            outputs.append((("watch",), watched))
            check("watch" in watched and "pwned" in watched, f"halma watch printed no chat: {watched!r}")
            move = cli("move", "a1-b1")
            check(move.returncode != 0, "a move at the fake host was taken")
            for args, text in outputs:
                check("\x1b" not in text and "\u202e" not in text and "\x07" not in text and "\x9b" not in text,
                      f"halma {' '.join(args)} printed a raw control character: {text[:300]!r}")
            log = open(victim.log_path, encoding="utf-8", errors="replace").read()
            check("\x1b" not in log and "\u202e" not in log, "the victim's log holds a raw control character")
            check(len(log) < 8 << 20, f"the victim's log grew to {len(log)} bytes")
        finally:
            host.stop.set()
            host.join(timeout=5)


def fake_daemon_cannot_drive_the_terminal():
    """halma escapes control characters whatever its daemon lets through: a fake daemon (a
    ROUTER on the api socket of a private runtime directory) answers views, room lists and
    errors with raw escape sequences; status, board, rooms, join and move print none of them
    raw, and show them escaped."""
    import tempfile
    run_dir = tempfile.mkdtemp(prefix="halma-fakeapi-")
    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.bind(f"ipc://{run_dir}/api.sock")
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            if not sock.poll(50):
                continue
            ident, data = sock.recv_multipart()
            req = api_pb2.Request()
            req.ParseFromString(data)
            reply = api_pb2.Reply(version=1, request_id=req.request_id)
            if req.HasField("view"):
                v = reply.view
                v.summary.name, v.summary.room_id, v.summary.host_player = "room" + EVIL, ROOM_ID, "host" + EVIL
                v.summary.mode.players = 2
                v.your_seat = -1
                v.seats.add(seat=0, name="seat" + EVIL)
                v.chat.add(seq=1, name="chat" + EVIL, text="line" + EVIL)
            elif req.HasField("list"):
                reply.rooms.rooms.add(room_id=ROOM_ID, name="room" + EVIL, host_player="host" + EVIL, seats=2)
            else:
                reply.error.code, reply.error.message = common_pb2.ERROR_CODE_BAD_REQUEST, "no" + EVIL
            sock.send_multipart([ident, reply.SerializeToString()])

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        for args in (("status",), ("board",), ("board", "--json"), ("rooms",), ("join", "x"), ("move", "a1-b1"),
                     ("chat", "hi")):
            out = subprocess.run([HALMA, "--runtime-dir", run_dir, *args], capture_output=True, text=True, timeout=30)
            text = out.stdout + out.stderr
            check(not any(c in text for c in ("\x1b", "\x07", "\x9b", "\u202e")),
                  f"halma {' '.join(args)} printed a raw control character: {text[:300]!r}")
            check("\\x1b" in text, f"halma {' '.join(args)} did not show the escape escaped: {text[:300]!r}")
    finally:
        stop.set()
        server.join(timeout=5)
        ctx.destroy(linger=0)
        shutil.rmtree(run_dir, ignore_errors=True)


TESTS = [hostile_host_is_contained, fake_daemon_cannot_drive_the_terminal]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
