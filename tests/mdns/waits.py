"""Bounded waits for the mDNS tests: on a condition, and on a process's output, line by line.
Apart from lanhosts so that each stays small; lanhosts re-exports all of it."""
import os
import select
import time


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(predicate, timeout, what, interval=0.02):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise Failure(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


class Lines:
    """A process's stdout read line by line against deadlines (select on the pipe, no thread:
    PR_SET_PDEATHSIG fires when the thread that started a child exits)."""

    def __init__(self, proc):
        self.proc = proc
        self.seen = []
        self._buf = b""
        self.eof = False
        os.set_blocking(proc.stdout.fileno(), False)

    def next(self, timeout):
        """The next line (without its newline), or None at EOF or when timeout passes."""
        deadline = time.monotonic() + timeout
        while True:
            if b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                text = line.decode(errors="replace")
                self.seen.append(text)
                return text
            left = deadline - time.monotonic()
            if self.eof or left <= 0:
                return None
            if select.select([self.proc.stdout], [], [], left)[0]:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                self._buf += chunk
                self.eof = not chunk

    def wait_for(self, predicate, timeout, what):
        """The first line for which predicate(line) is true; Failure after timeout or at EOF."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.0, deadline - time.monotonic()))
            if line is not None and predicate(line):
                return line
            if line is None:
                why = "the process ended" if self.eof else f"{timeout} s passed"
                tail = "\n  ".join(self.seen[-10:])
                raise Failure(f"{what}: {why}; last lines:\n  {tail}")


def tail(path, lines=25):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except (OSError, TypeError):
        return ""
