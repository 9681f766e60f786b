"""Real halmad processes on 127.0.0.1 for the integration tests: start, drive through the CLI
and the local API, play legal moves, compare replicas, and always kill every process at the end.

Every wait is bounded; daemons die with the test runner (PR_SET_PDEATHSIG) even if it is killed.
"""
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import zmq

from halma.v1 import api_pb2, common_pb2, peer_pb2

HALMAD = os.environ["HALMAD"]
HALMA = os.environ["HALMA"]
LOOPBACK = "127.0.0.1"

_libc = ctypes.CDLL("libc.so.6", use_errno=True)


def _die_with_parent():
    _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port():
    """A free port whose neighbour is free too: a daemon answers key probes on its port + 1."""
    for _ in range(100):
        with socket.socket() as s, socket.socket() as t:
            s.bind((LOOPBACK, 0))
            port = s.getsockname()[1]
            try:
                t.bind((LOOPBACK, port + 1))
            except OSError:
                continue
            return port
    raise Failure("no free pair of ports on 127.0.0.1")


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


class Api:
    """A front end on a daemon's ipc socket: requests with ids, events kept aside."""

    def __init__(self, ctx, runtime_dir):
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(f"ipc://{runtime_dir}/api.sock")
        self.next_id = 1
        self.events = []

    def call(self, timeout=10.0, **body):
        request_id = self.next_id
        self.next_id += 1
        self.sock.send(api_pb2.Request(version=1, request_id=request_id, **body).SerializeToString())
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.sock.poll(int(left * 1000)):
                raise Failure(f"no reply to {list(body)} within {timeout} s")
            reply = api_pb2.Reply()
            reply.ParseFromString(self.sock.recv())
            if reply.HasField("event"):
                self.events.append(reply.event)
            elif reply.request_id == request_id:
                return reply

    def ok(self, **body):
        reply = self.call(**body)
        check(not reply.HasField("error"), f"{list(body)} refused: {reply.error.message}")
        return reply

    def view(self, room=""):
        return self.ok(view=api_pb2.ViewRequest(room=room)).view

    def move(self, text, room=""):
        return self.call(action=api_pb2.ActionRequest(room=room, move=text))


class Daemon:
    def __init__(self, cluster, name, extra=()):
        self.cluster = cluster
        self.name = name
        self.port = free_port()
        self.address = f"{LOOPBACK}:{self.port}"
        self.runtime_dir = os.path.join(cluster.tmp, name, "run")
        self.state_dir = os.path.join(cluster.tmp, name, "state")
        self.log_path = os.path.join(cluster.tmp, f"{name}.log")
        self.extra = list(extra)
        self.proc = None
        self._api = None
        self.env = {}  # added to halmad's environment (a test's LD_PRELOAD)

    def command(self):
        return [HALMAD, "--listen", self.address, "--runtime-dir", self.runtime_dir, "--state-dir", self.state_dir,
                "--name", self.name, "--heartbeat-ms", "100", "--peer-timeout-ms", "700", "--hold-ms", "30000",
                "--request-timeout-ms", "3000", "--log-level", "debug"] + self.extra

    def start(self):
        sock = os.path.join(self.runtime_dir, "api.sock")
        # A daemon killed with SIGKILL leaves its socket file: waiting for it would not wait for
        # the new daemon (which removes it, then binds a new one).
        if os.path.exists(sock):
            os.remove(sock)
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent,
                                     env={**os.environ, **self.env} if self.env else None)
        wait_until(lambda: os.path.exists(sock) or self.proc.poll() is not None, 10, f"{self.name} to start")
        check(self.proc.poll() is None, f"{self.name} exited at start: {self.log_tail()}")
        self._api = None
        return self

    def kill(self, sig=signal.SIGKILL):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._api = None

    def api(self):
        if self._api is None:
            self._api = Api(self.cluster.ctx, self.runtime_dir)
        return self._api

    def cli(self, *args, timeout=30):
        return subprocess.run([HALMA, "--runtime-dir", self.runtime_dir, *args], capture_output=True, text=True,
                              timeout=timeout)

    def cli_json(self, *args):
        out = self.cli(*args, "--json")
        check(out.returncode == 0, f"halma {' '.join(args)} on {self.name}: rc {out.returncode}: {out.stderr}")
        return json.loads(out.stdout)

    def log_tail(self, lines=30):
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""


LOOP_DISK_SPY = os.environ.get("HALMA_LOOP_DISK_SPY_LIB", "")


def spy_on_loop_flushes(d):
    """Before d starts: preloads tests/support/loop_disk_spy.cpp, which notes each fsync,
    fdatasync and syncfs halmad makes; loop_flushes(d) reads those of its main thread (the event
    loop), helper_flushes(d) those of its other threads (the disk helper)."""
    check(os.path.exists(LOOP_DISK_SPY), f"the spy library is not built: {LOOP_DISK_SPY!r}")
    d.spy_file = os.path.join(d.cluster.tmp, f"{d.name}.flushes")
    d.env = {"LD_PRELOAD": LOOP_DISK_SPY, "HALMA_LOOP_DISK_SPY": d.spy_file}
    return d


def _calls(d, thread, calls):
    try:
        with open(d.spy_file) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    return [line.split(" ", 1)[1] for line in lines
            if line.startswith(thread + " ") and line.split(" ", 2)[1] in calls]


_FLUSHES = ("fsync", "fdatasync", "syncfs")


def loop_flushes(d):
    return _calls(d, "loop", _FLUSHES)


def helper_flushes(d):
    return _calls(d, "helper", _FLUSHES)


def loop_calls(d, *calls):
    """The paths of d's event loop's calls of these names (mkdir, create, rename, fsync...)."""
    return [line.split(" ", 1)[1] for line in _calls(d, "loop", calls)]


def helper_calls(d, *calls):
    """The same for d's other threads (the disk helper)."""
    return [line.split(" ", 1)[1] for line in _calls(d, "helper", calls)]


def loop_made_dirs(d):
    """The directories d's event loop made (mkdir), as the spy saw them."""
    return [line.split(" ", 1)[1] for line in _calls(d, "loop", ("mkdir",))]


class Cluster:
    """Daemons for one test; all are killed on exit, logs printed if the test failed."""

    def __init__(self, label):
        self.tmp = tempfile.mkdtemp(prefix=f"halma-{label}-")
        self.ctx = zmq.Context()
        self.daemons = []

    def add(self, name, extra=()):
        d = Daemon(self, name, extra)
        self.daemons.append(d)
        return d.start()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        for d in self.daemons:
            d.kill(signal.SIGTERM)
        if kind is not None:
            for d in self.daemons:
                print(f"--- {d.name} log ---\n{d.log_tail(60)}", file=sys.stderr)
        self.ctx.destroy(linger=0)
        shutil.rmtree(self.tmp, ignore_errors=True)
        return False


def host_holding_seats_for(c, name, hold_ms):
    """A started daemon in cluster `c` whose hold of a vanished player's seat is `hold_ms` (the
    cluster's is 30 s), kept across its restarts."""
    d = Daemon(c, name)
    d.command = lambda base=d.command: [str(hold_ms) if a == "30000" else a for a in base()]
    c.daemons.append(d)
    return d.start()


# The star's geometry, enough to play forward: rows a..q and doubled x columns (docs/notation.md).
ROW_LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
APEX = {0: (16, 0), 1: (12, -12), 2: (4, -12), 3: (0, 0), 4: (4, 12), 5: (12, 12)}


def coords(cell):
    row = ord(cell[0]) - ord("a")
    hole = int(cell[1:]) - 1
    return row, -(ROW_LENGTHS[row] - 1) + 2 * hole


def distance_home(cell, marble_set):
    r, x = coords(cell)
    ar, ax = APEX[(marble_set + 3) % 6]
    dr, dx = abs(r - ar), abs(x - ax)
    return dr + max(0, (dx - dr) // 2)


def piece_at(position, cell):
    rows = position.split()[0].split("/")
    r, _ = coords(cell)
    return rows[r][int(cell[1:]) - 1]


def after_move(position, move):
    """The board part of the position after a plain move (enough to spot a repeat)."""
    rows = [list(r) for r in position.split()[0].split("/")]
    frm, to = move.split("-")[0], move.split("-")[-1]
    (fr, _), (tr, _) = coords(frm), coords(to)
    fh, th = int(frm[1:]) - 1, int(to[1:]) - 1
    rows[fr][fh], rows[tr][th] = rows[tr][th], rows[fr][fh]
    return "/".join("".join(r) for r in rows)


def greedy_move(view, seen=None):
    """The legal move that brings a marble nearest home; ties go to the marble furthest back.
    With `seen` (boards already played), moves that would repeat a board come last, so the
    scripted players cannot shuffle forever."""
    best, best_key = None, None
    position = view["position"] if isinstance(view, dict) else view.position
    for m in view["legal_moves"] if isinstance(view, dict) else view.legal_moves:
        if m == "pass":
            return m
        frm, to = m.split("-")[0], m.split("-")[-1]
        s = int(piece_at(position, frm)) - 1
        fresh = seen is None or after_move(position, m) not in seen
        key = (fresh, distance_home(frm, s) - distance_home(to, s), distance_home(frm, s), m)
        if best_key is None or key > best_key:
            best, best_key = m, key
    if seen is not None:
        seen.add(after_move(position, best))
    return best


def seq_of(view):
    return view["seq"] if isinstance(view, dict) else view.seq


def views_in_step(players, view_fn, timeout=5):
    """Every player's view once all replicas have caught up with the same event (the host's
    answer to a move reaches the mover before the other replicas hear of it)."""
    def same():
        views = [view_fn(p) for p in players]
        return views if len({seq_of(v) for v in views}) == 1 else None
    return wait_until(same, timeout, "every replica to reach the same event")


def play_one(players):
    """The daemon whose turn it is plays a greedy move through the API."""
    views = views_in_step(players, lambda d: d.api().view())
    movers = [(d, v) for d, v in zip(players, views) if v.your_turn]
    check(len(movers) == 1, f"{len(movers)} daemons think it is their turn")
    d, v = movers[0]
    reply = d.api().move(greedy_move(v))
    check(not reply.HasField("error"), f"{d.name}: move refused: {reply.error.message}")


def play_to_end(players, max_moves, move_fn, view_fn):
    """Plays greedy moves for whichever player is to move until the game is over.
    players: list of handles; view_fn(handle) -> view dict/obj; move_fn(handle, text) -> None."""
    moves = 0
    seen = set()
    while moves < max_moves:
        views = views_in_step(players, view_fn)
        phase = views[0]["summary"]["phase"] if isinstance(views[0], dict) else views[0].summary.phase
        if phase in ("PHASE_OVER", common_pb2.PHASE_OVER):
            return moves
        mover = None
        for p, v in zip(players, views):
            if (v["your_turn"] if isinstance(v, dict) else v.your_turn):
                mover = (p, v)
        check(mover is not None, "a game in play with nobody to move")
        move_fn(mover[0], greedy_move(mover[1], seen))
        moves += 1
    raise Failure(f"game not over after {max_moves} moves")


def replica_digest(view):
    """What must be identical on the host and every replica."""
    if isinstance(view, dict):
        return (view["seq"], view["position"], tuple(view["moves"]), view["game_number"],
                tuple((s["name"], s["player"]) for s in view["seats"]))
    return (view.seq, view.position, tuple(view.moves), view.game_number,
            tuple((s.name, s.player) for s in view.seats))


# This test process's CURVE key pair when it plays a peer daemon: one key for every raw peer it
# opens, so a seat taken through one of them can be used through another (the host binds a seat
# token to the key that joined with it).
CLIENT_KEYS = zmq.curve_keypair()


def host_key(daemon):
    """The daemon's CURVE public key (Z85, bytes) from its state directory; None if it has none."""
    try:
        with open(os.path.join(daemon.state_dir, "curve")) as f:
            for line in f:
                if line.startswith("public "):
                    return line.split()[1].encode()
    except FileNotFoundError:
        return None
    return None


def secure(sock, daemon, keys=None):
    """Makes `sock` a CURVE client of the daemon's host port (as every peer daemon is), as
    `keys` (default: CLIENT_KEYS); a daemon without a key (--insecure-plain-links) is left plain."""
    key = host_key(daemon)
    if key:
        public, secret = keys or CLIENT_KEYS
        sock.curve_serverkey = key
        sock.curve_publickey = public
        sock.curve_secretkey = secret
    return sock


def raw_peer(ctx, daemon, keys=None, source=None):
    """A DEALER straight at a daemon's host port, as a misbehaving peer would be; from the
    loopback address `source` (127.0.0.2, say: another machine, as the host tells them apart)."""
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    secure(s, daemon, keys)
    s.connect(f"tcp://{source}:0;{daemon.address}" if source else f"tcp://{daemon.address}")
    return s


def recv_host(sock, timeout=5.0):
    check(sock.poll(int(timeout * 1000)), "the host did not answer")
    msg = peer_pb2.HostMessage()
    msg.ParseFromString(sock.recv())
    return msg


def api_move(d, text):
    reply = d.api().move(text)
    check(not reply.HasField("error"), f"{d.name}: move {text} refused: {reply.error.message}")


def host_room(d, name, players=2, **extra):
    return d.api().ok(host=api_pb2.HostRequest(name=name, mode=common_pb2.RoomMode(players=players), **extra)).view


def join_room(d, host, room, spectate=False):
    return d.api().ok(join=api_pb2.JoinRequest(address=host.address, room=room, spectate=spectate)).view


def run(tests):
    """Runs the test named on the command line."""
    name = sys.argv[1]
    started = time.monotonic()
    tests[name]()
    print(f"{name}: ok in {time.monotonic() - started:.1f} s")
