"""A real terminal for `halma play`: tmux runs it in a window of a given size, keys are typed with
send-keys and the screen is read with capture-pane, as a person would see it. Each Terminal has
its own tmux server (its own socket), which is killed at the end whatever happens."""
import itertools
import os
import re
import shlex
import subprocess

import halmatest
from halmatest import check, wait_until

# What the board draws in a hole: a set's letter, an empty hole, the last move's start and hops,
# a picked marble's targets, a fixed marble (colour glyphs, then the NO_COLOR ones).
HOLE_GLYPHS = set("BGYRCP") | set("·○∘◎■") | set("o*@#")
BOARD_ROWS = 17
BOARD_WIDTH = 57  # a 3-column hole name each side of 49 columns of holes
# Each Terminal's own socket, even for a name used again in one test: a server killed at the end
# of the last one may still hold the path when the next starts, which then found "no server".
_terminals = itertools.count()


class Terminal:
    def __init__(self, tmp, name, cols, rows, runtime_dir, *args, env=None, command="play", argv=None):
        """Runs `halma --runtime-dir RUNTIME_DIR COMMAND ARGS...`, or `argv` as it is (a script)."""
        self.name = name
        self.socket = os.path.join(tmp, f"tmux-{name}-{next(_terminals)}.sock")
        extra = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        argv = argv or [halmatest.HALMA, "--runtime-dir", runtime_dir, command, *args]
        halma = " ".join(shlex.quote(a) for a in argv)
        # The exit code stays on the screen after halma ends, for the test to read.
        command = f"env {extra} {halma}; echo halma-exited-$?; sleep 600"
        out = self._tmux("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows),
                         command)
        check(out.returncode == 0, f"tmux new-session for {name}: {out.stderr}")

    def _tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=20)

    def lines(self):
        out = self._tmux("capture-pane", "-p", "-t", self.name)
        check(out.returncode == 0, f"tmux capture-pane: {out.stderr}")
        return out.stdout.split("\n")[:-1]

    def screen(self):
        return "\n".join(self.lines())

    def raw_screen(self):
        """The screen with its colour escapes."""
        return self._tmux("capture-pane", "-p", "-e", "-t", self.name).stdout

    def wait_for(self, predicate, what, timeout=20):
        """Waits (bounded) until predicate(screen text) holds; returns the screen."""
        def holds():
            screen = self.screen()
            return screen if predicate(screen) else None
        try:
            return wait_until(holds, timeout, what)
        except halmatest.Failure as e:
            raise halmatest.Failure(f"{e}; {self.name}'s screen:\n{self.screen()}") from None

    def wait_text(self, text, timeout=20):
        return self.wait_for(lambda s: text in s, f"{text!r} on {self.name}'s screen", timeout)

    def keys(self, *keys):
        out = self._tmux("send-keys", "-t", self.name, *keys)
        check(out.returncode == 0, f"tmux send-keys: {out.stderr}")

    def type_line(self, text):
        self.keys("-l", text)
        self.keys("Enter")

    def resize(self, cols, rows):
        out = self._tmux("resize-window", "-t", self.name, "-x", str(cols), "-y", str(rows))
        check(out.returncode == 0, f"tmux resize-window: {out.stderr}")

    def size(self):
        out = self._tmux("display-message", "-p", "-t", self.name, "#{window_width} #{window_height}")
        cols, rows = out.stdout.split()
        return int(cols), int(rows)

    def bell_rang(self):
        return self._tmux("display-message", "-p", "-t", self.name, "#{window_bell_flag}").stdout.strip() == "1"

    def close(self):
        self._tmux("kill-server")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def board_holes(lines, left=0):
    """The holes drawn in the board's 17 rows (names cut off), counted by glyph."""
    count = 0
    for line in lines[:BOARD_ROWS]:
        holes = re.sub(r" [a-q]\d{1,2}\s*$", "", line[left + 4:left + BOARD_WIDTH])
        count += sum(1 for ch in holes if ch in HOLE_GLYPHS)
    return count


LETTERS = "BGYRCP"  # sets 1..6 (docs/rules.md, Colours)


def shows_position(lines, position):
    """Whether the board drawn unturned (triangle 1 at the bottom) is exactly `position`: each
    hole holds its set's letter, or is empty."""
    rows = position.split()[0].split("/")
    for line, row in zip(lines[:BOARD_ROWS], rows):
        holes = re.sub(r" [a-q]\d{1,2}\s*$", "", line[4:BOARD_WIDTH])
        drawn = [ch for ch in holes if ch in HOLE_GLYPHS]
        wanted = [LETTERS[int(ch) - 1] if ch.isdigit() else "." for ch in row]
        if [ch if ch in LETTERS else "." for ch in drawn] != wanted:
            return False
    return True


def check_layout(term, what):
    """The whole board, the status and the prompt are on the screen and nothing runs past it."""
    cols, rows = term.size()
    lines = term.lines()
    print(f"--- {what} ({cols}x{rows}) ---\n" + "\n".join(lines))  # what was seen, in the test's log
    check(len(lines) == rows, f"{what}: {len(lines)} lines captured on a {rows}-row terminal")
    check(board_holes(lines) == 121, f"{what}: {board_holes(lines)} of 121 holes visible:\n" + "\n".join(lines))
    last = lines[-1]
    check(last.startswith("your move>") or last.startswith(">"), f"{what}: the prompt is not on the last row: {last!r}")
    screen = "\n".join(lines)
    check("room " in screen or ">" in lines[BOARD_ROWS], f"{what}: no status:\n{screen}")
    return lines


def last_line(screen):
    return screen.split("\n")[-1]


def prompt_ready(rows):
    """The screen of a terminal `rows` high, redrawn: the prompt on its last row, all holes."""
    def ready(screen):
        lines = screen.split("\n")
        return len(lines) == rows and last_line(screen).startswith(("your move>", ">")) and board_holes(lines) == 121
    return ready


def without_elsewhere(screen):
    """The screen less its line saying it is the player's move in another room."""
    return "\n".join(line for line in screen.split("\n") if not line.startswith("your move in room"))


def panel_text(screen):
    """The status beside the board (80 columns and wider) as one line of words, however it is
    wrapped."""
    return " ".join(line[BOARD_WIDTH + 2:].strip() for line in screen.split("\n")[:-1])
