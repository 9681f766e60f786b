"""ctest's check that examples/python/join_and_play.py works against real daemons.

Two halmad processes on 127.0.0.1 (free ports, temporary runtime and state directories): ann
hosts room "demo" with the halma CLI and takes seat 1; the example, attached to bob's daemon,
joins it and takes seat 2, which starts the game. Seat 1 moves first (rule first=black), so ann
plays her first move with the CLI and the example has to wait for its turn and play a real
move. The test passes when that move shows on the host. Every wait is bounded and every
process is killed at the end, even if this script is killed (PR_SET_PDEATHSIG).

Needs HALMAD and HALMA (the binaries) and PYTHONPATH with the generated halma.v1 modules.
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

HALMAD = os.environ["HALMAD"]
HALMA = os.environ["HALMA"]
EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "join_and_play.py")

_libc = ctypes.CDLL("libc.so.6", use_errno=True)


def die_with_parent():
    _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Failure(Exception):
    pass


def wait_until(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise Failure(f"timed out after {seconds} s waiting for {what}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    def __init__(self, tmp, name):
        self.name = name
        self.runtime_dir = os.path.join(tmp, name, "run")
        self.state_dir = os.path.join(tmp, name, "state")
        self.log_path = os.path.join(tmp, f"{name}.log")
        self.proc = None

    def start(self):
        # A free port can be taken by another test before halmad binds it: try a few.
        for _ in range(3):
            self.address = f"127.0.0.1:{free_port()}"
            with open(self.log_path, "a") as log:
                self.proc = subprocess.Popen(
                    [HALMAD, "--listen", self.address, "--runtime-dir", self.runtime_dir,
                     "--state-dir", self.state_dir, "--name", self.name, "--heartbeat-ms", "200",
                     "--peer-timeout-ms", "2000", "--log-level", "debug"],
                    stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
            sock = os.path.join(self.runtime_dir, "api.sock")
            wait_until(lambda: os.path.exists(sock) or self.proc.poll() is not None, 10,
                       f"{self.name}'s halmad to start")
            if self.proc.poll() is None:
                return self
        raise Failure(f"{self.name}'s halmad does not start:\n{self.log()}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)

    def cli(self, *args):
        out = subprocess.run([HALMA, "--runtime-dir", self.runtime_dir, *args], capture_output=True,
                             text=True, timeout=30)
        if out.returncode != 0:
            raise Failure(f"halma {' '.join(args)} on {self.name}: rc {out.returncode}: {out.stderr}")
        return out.stdout

    def board(self):
        return json.loads(self.cli("board", "--json"))

    def log(self):
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-40:])
        except OSError:
            return ""


def run(tmp, ann, bob, processes):
    ann.start()
    bob.start()
    ann.cli("host", "demo")

    example_out = open(os.path.join(tmp, "example.out"), "w+")
    example = subprocess.Popen(
        [sys.executable, EXAMPLE, f"{ann.address}/demo", "--runtime-dir", bob.runtime_dir,
         "--wait", "60", "--timeout", "10"],
        stdout=example_out, stderr=subprocess.STDOUT, text=True, preexec_fn=die_with_parent)
    processes.append(example)

    def example_output():
        example_out.seek(0)
        return example_out.read()

    def game_started():
        if example.poll() not in (None, 0):
            raise Failure(f"the example ended early (rc {example.returncode}):\n{example_output()}")
        view = ann.board()
        return view if view["summary"]["phase"] == "PHASE_PLAYING" else None

    view = wait_until(game_started, 20, "the example to join and the game to start")
    if view["seats"][1]["name"] != "bob":
        raise Failure(f"seat 2 is not bob's: {view['seats']}")
    if view["your_turn"]:  # ann moves first: the example must wait for its turn
        ann.cli("move", view["legal_moves"][0])

    try:
        rc = example.wait(timeout=90)
    except subprocess.TimeoutExpired:
        raise Failure(f"the example did not finish in 90 s:\n{example_output()}")
    output = example_output()
    print(output, end="")
    if rc != 0:
        raise Failure(f"the example exited {rc}")
    played = [line.split()[1] for line in output.splitlines() if line.startswith("played ")]
    if len(played) != 1:
        raise Failure("the example did not say which move it played")

    # The move landed on the host: it is the last of the game's moves there, and ann is to move.
    def host_has_it():
        v = ann.board()
        moves = v["moves"]
        if not moves or not v["your_turn"]:
            return None
        first, last = played[0].split("-")[0], played[0].split("-")[-1]
        last_move = moves[-1].split("-")
        return v if last_move[0] == first and last_move[-1] == last else None

    v = wait_until(host_has_it, 10, f"the example's move {played[0]} to show on the host")
    print(f"ok: the host's game has {len(v['moves'])} moves, the last {v['moves'][-1]} by bob")


def main():
    tmp = tempfile.mkdtemp(prefix="halma-example-")
    ann, bob = Daemon(tmp, "ann"), Daemon(tmp, "bob")
    processes = []
    try:
        run(tmp, ann, bob, processes)
        return 0
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        for d in (ann, bob):
            print(f"--- {d.name}'s halmad log ---\n{d.log()}", file=sys.stderr)
        return 1
    finally:
        for p in processes:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=5)
        for d in (ann, bob):
            d.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
