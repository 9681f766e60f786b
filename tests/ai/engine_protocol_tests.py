"""`halma engine` driven as a tournament manager drives it: through a pipe, line by line, with
a bounded wait for every answer. Run as: engine_protocol_tests.py TEST_NAME (HALMA names the
binary). Each test prints what it checks and exits non-zero on the first failure."""
import os
import re
import select
import subprocess
import sys
import time

HALMA = os.environ.get("HALMA", "halma")
START = ("4/44/444/4444/............./............/.........../........../........./........../"
         ".........../............/............./1111/111/11/1 1")
INFO = re.compile(r"^info depth -?\d+ score -?\d+ nodes \d+ time \d+ pv( [a-q]\d+-[a-q]\d+)+$")
MOVE = re.compile(r"^[a-q]\d+-[a-q]\d+$")


class Engine:
    """One `halma engine` process; every read waits at most `timeout` seconds."""

    def __init__(self):
        self.proc = subprocess.Popen([HALMA, "engine"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout=30):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer within {timeout} s (got {self.buffer!r})"
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                assert chunk, f"the engine exited (code {self.proc.wait()}): " \
                    f"{self.proc.stderr.read().decode(errors='replace')}"
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        assert all(32 <= b < 127 for b in line), f"an unprintable byte in {line!r}"
        return line.decode()

    def ask(self, line, until):
        """Sends `line`, returns the answer lines up to and including the one starting `until`."""
        self.send(line)
        lines = []
        for _ in range(10000):
            lines.append(self.read())
            if lines[-1].startswith(until):
                return lines
        raise AssertionError(f"no '{until}' after {line!r}")

    def expect_error(self, line, *words):
        """`line` gets one `error ...` line naming every word; isready proves nothing else came."""
        self.send(line)
        self.send("isready")
        got = self.read()
        while got.startswith("info "):  # a search under way may still be talking
            got = self.read()
        assert got.startswith("error "), f"{line[:60]!r}: expected an error, got {got!r}"
        for w in words:
            assert w in got, f"{line[:60]!r}: the error {got!r} does not name {w!r}"
        after = self.read()
        while after.startswith("info "):
            after = self.read()
        assert after == "readyok", f"{line[:60]!r}: after the error came {after!r}"
        print(f"ok: {line[:50]!r} -> {got}")

    def quit(self):
        self.send("quit")
        code = self.proc.wait(timeout=30)
        assert code == 0, f"quit: exit code {code}"


def legal_moves(position):
    out = subprocess.run([HALMA, "analyze", "moves", position], capture_output=True, text=True,
                         timeout=30, check=True)
    return out.stdout.split()


def show(engine):
    lines = engine.ask("show", "status")
    return lines[0][len("position "):], lines[-1]


def plays_a_game_as_a_manager_would():
    """Two engines, hard and easy, play a whole game; every bestmove is checked legal by
    `halma analyze moves` and sent back to both with the whole move list."""
    hard, easy = Engine(), Engine()
    for engine, level in ((hard, "hard"), (easy, "easy")):
        hello = engine.ask("halma", "halmaok")
        assert hello[0].startswith("id name halma"), hello
        assert any(l.startswith("option name level") for l in hello), hello
        assert engine.ask("isready", "readyok") == ["readyok"]
        engine.send(f"setoption name level value {level}")
        engine.send("newgame players 2 rules jumps=short")
    moves = []
    for ply in range(600):
        engine = hard if ply % 2 == 0 else easy
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        position, status = show(engine)
        if status.startswith("status over"):
            break
        answer = engine.ask("go nodes 3000", "bestmove")
        for info in answer[:-1]:
            assert INFO.match(info), f"not an info line: {info!r}"
        best = answer[-1].split()[1]
        assert best in legal_moves(position), f"ply {ply}: {best} is not legal in {position}"
        if engine is hard:
            assert answer[:-1], "the hard bot said no info line"
        moves.append(best)
    else:
        raise AssertionError("the game did not end in 600 plies")
    assert status == f"status over moves {len(moves)}", status
    print(f"ok: a whole game of {len(moves)} moves, every one legal; hard moved first")
    over = hard.ask("go", "bestmove")
    assert over[0].startswith("error ") and over[-1] == "bestmove none", over
    hard.quit()
    easy.quit()


def stop_ends_a_long_search():
    engine = Engine()
    engine.send("position startpos moves a1-c1")  # illegal: an error, then the start again
    assert engine.read().startswith("error position: move 1 'a1-c1'")
    engine.send("go movetime 600000")
    first = engine.read()
    assert INFO.match(first), first
    engine.expect_error("position startpos", "while thinking", "stop")
    engine.send("stop")
    lines = []
    for _ in range(1000):
        lines.append(engine.read(timeout=30))
        if lines[-1].startswith("bestmove"):
            break
    assert MOVE.match(lines[-1].split()[1]), lines
    print(f"ok: stop during `go movetime 600000` gives {lines[-1]!r}")
    assert engine.ask("isready", "readyok") == ["readyok"]
    # End of input while thinking is a quit too.
    engine.send("go movetime 600000")
    engine.proc.stdin.close()
    assert engine.proc.wait(timeout=60) == 0
    print("ok: end of input during a search ends the engine cleanly")


def bad_input_gets_an_error_line():
    engine = Engine()
    engine.expect_error("fly me to the moon", "unknown command 'fly'")
    engine.expect_error("setoption name level value medium", "medium", "easy|hard")
    engine.expect_error("setoption name speed value 3", "no option 'speed'")
    engine.expect_error("setoption level hard", "setoption name")
    engine.expect_error("setoption name time value -5", "time '-5'")
    engine.expect_error("newgame players 5", "5")
    engine.expect_error("newgame players", "needs a value")
    engine.expect_error("newgame rules jumps=sideways", "bad rules")
    engine.expect_error("newgame colour red", "unknown setting 'colour'")
    engine.expect_error("position", "position takes")
    engine.expect_error("position 4/44/444 1", "rows")
    engine.expect_error("position startpos moves a1-c1", "move 1 'a1-c1'", "unchanged")
    engine.expect_error("position startpos moves n1-m5 d1-e6 n1-m5", "move 3 'n1-m5'")
    engine.expect_error("position startpos moves zz", "move 1 'zz'")
    engine.expect_error("position startpos played n1-m5", "expected 'moves'")
    engine.expect_error("go movetime abc", "movetime 'abc'")
    engine.expect_error("go nodes 0", "nodes '0'")
    engine.expect_error("go depth 3", "unknown setting 'depth'")
    engine.expect_error("go movetime", "needs a value")
    engine.expect_error(b"\xff\xfe\x00junk", "unknown command")
    engine.expect_error("x" * 300_000, "line too long")
    engine.expect_error("position startpos moves " + "n1-m5 m5-n1 " * 30_000, "line too long")
    # Nothing accepted before was lost: the start position is still set, and play goes on.
    position, status = show(engine)
    assert position == START and status == "status playing moves 0", (position, status)
    engine.send("")  # an empty line is nothing at all
    best = engine.ask("go nodes 500", "bestmove")[-1].split()[1]
    assert best in legal_moves(START), best
    print("ok: after all that the engine plays on from the start position")
    engine.quit()


def history_reaches_the_bot():
    """A move back into a position the game has seen is avoided, in `halma analyze best
    --moves` and in `position ... moves`: the bot sees the game, not only the board."""
    def best(*args):
        out = subprocess.run([HALMA, "analyze", "best", "--time", "20", "--seed", "10", *args],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    first = best(START)
    after = subprocess.run([HALMA, "analyze", "moves", START], capture_output=True, text=True,
                           timeout=30).stdout.split()
    assert first in after
    # Set 1 plays `first`, set 4 a move, both go back: the start again, with `first`'s
    # position already seen.
    engine = Engine()
    engine.send(f"position startpos moves {first}")
    reply = legal_moves(show(engine)[0])[0]
    back = lambda m: "-".join(reversed(m.split("-")))
    history = f"{first} {reply} {back(first)} {back(reply)}"
    again = best("--moves", history)
    assert MOVE.match(again) and again != first, \
        f"with the history the bot still plays {again}, back into a seen position"
    print(f"ok: analyze best plays {first} at the start, {again} after {history}")
    # The same through the protocol: the seed per move is seed + moves played, so 6 + 4 = 10.
    engine.send("setoption name time value 20")
    engine.send("setoption name seed value 10")
    engine.send("position startpos")
    plain = engine.ask("go", "bestmove")[-1].split()[1]
    engine.send("setoption name seed value 6")
    engine.send(f"position startpos moves {history}")
    seen = engine.ask("go", "bestmove")[-1].split()[1]
    assert plain == first and seen != first, (plain, seen)
    print(f"ok: the protocol gives {plain}, and {seen} with the history")
    engine.quit()
    out = subprocess.run([HALMA, "analyze", "best", "--moves", f"{first} {first}"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and f"bad --moves: move 2 '{first}'" in out.stderr, out.stderr
    print(f"ok: a bad --moves is named: {out.stderr.strip()}")


if __name__ == "__main__":
    globals()[sys.argv[1]]()
