#!/usr/bin/env python3
"""`halma replay` as a person runs it: a record's first and last lines wrapped to the terminal
(into a pipe, 80 columns), the board drawn from the player's own side, and stepping back a move.
Run one with: replay_cli_tests.py NAME."""

import os
import subprocess
import tempfile

import halmatest
from halmatest import Cluster, check, run
from terminal import Terminal


# Six players whose names fill a line: near the longest a member's name may be (32 bytes), some
# with a space in them, one with a letter of two bytes.
LONG_NAMES = ["Wilhelmina-Grünewald", "Maximilian Oberhuber-Hartmann", "Konstantinos Papadopoulos",
              "Bartholomew-Fitzgerald-Smythe", "Anastasia Vasilievna Orlova", "Christopher-Montgomery"]


def six_player_record(names):
    """A record of a 6-player game that ended before its first move (docs/records.md)."""
    tags = [("Format", "halma-record 1"), ("Room", "family"), ("Game", "3"),
            ("Started", "2026-11-23T06:12:00Z"), ("Ended", "2026-11-23T06:31:47Z"), ("Players", "6"),
            ("SetsPerPlayer", "1"),
            ("Rules", "jumps=short,rest=own,home-lock=on,spoil=none,release=on,unused=empty,first=black"),
            ("MoveLimit", "1000"), ("StallLimit", "100"), ("PlayAllPlaces", "on"), ("EndWhenStuck", "on"),
            ("FirstSet", "1")]
    for n, name in enumerate(names, 1):
        tags += [(f"Player{n}", name), (f"Player{n}Seat", str(n)), (f"Player{n}Kind", "human"),
                 (f"Player{n}Sets", str(n))]
    tags += [("Places", "1 2 3 4 5 6"), ("Ending", "places decided"), ("Moves", "0")]
    return "".join(f'[{tag} "{value}"]\n' for tag, value in tags) + "\n"


def replay_fits_the_terminal():
    """`halma replay`'s first line (room, players, ending) and its last (the places) are wrapped at
    spaces to the terminal's width: with six long names the terminal broke them mid-name. Into a
    pipe the width is 80 columns, as elsewhere in halma; in a 60-column terminal, 60."""
    with tempfile.TemporaryDirectory(prefix="halma-replay-") as tmp:
        record = os.path.join(tmp, "family-3.hrec")
        with open(record, "w") as f:
            f.write(six_player_record(LONG_NAMES))
        header = (f"family, game 3, 2026-11-23T06:12:00Z: {' vs '.join(LONG_NAMES)}; "
                  "0 moves, places decided")
        # Places first to last, as ordinals (here the seat order: the first seat came first).
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
        ended = "ended: places decided; places: " + ", ".join(f"{n} {ordinal.get(i, f'{i}th')}"
                                                              for i, n in enumerate(LONG_NAMES, 1))

        def lines_of(text, first_line):
            """The lines of `text` from the one starting with `first_line`'s first word up to
            where `first_line`'s words end."""
            lines = text.split("\n")
            start = next(i for i, line in enumerate(lines) if line.startswith(first_line.split()[0]))
            taken, words = [], 0
            while words < len(first_line.split()) and start + len(taken) < len(lines):
                taken.append(lines[start + len(taken)])
                words += len(taken[-1].split())
            return taken

        out = subprocess.run([halmatest.HALMA, "replay", record, "--pace", "0", "--no-colour"], capture_output=True,
                             text=True, timeout=30, stdin=subprocess.DEVNULL)
        check(out.returncode == 0, f"replay of a 6-player record: rc {out.returncode}: {out.stderr}")
        for whole in (header, ended):
            lines = lines_of(out.stdout, whole)
            # Broken only where a space was, each piece within the width.
            check(" ".join(lines) == whole, f"not wrapped at spaces: {lines}")
            check(all(len(line) <= 80 for line in lines), f"a line past 80 columns: {lines}")
            check(len(lines) > 1, f"not wrapped: {lines}")
        with Terminal(tmp, "replay", 60, 40, tmp,
                      argv=[halmatest.HALMA, "replay", record, "--pace", "0", "--no-colour"]) as t:
            screen = t.wait_text("halma-exited-0")
            # The terminal's lines: a line it had to break shows as two, the break mid-word.
            for whole in (header, ended):
                lines = [line.rstrip() for line in lines_of(screen, whole)]
                check(" ".join(lines) == whole and all(len(line) <= 60 for line in lines),
                      f"in 60 columns, not wrapped at spaces: {lines}\n{screen}")


def two_player_record(second):
    """A record of two moves: alice (seat 1, black, set 1) against `second` (red, set 4)."""
    tags = [("Format", "halma-record 1"), ("Room", "lunch"), ("Game", "1"),
            ("Started", "2026-11-23T06:12:00Z"), ("Ended", "2026-11-23T06:31:47Z"), ("Players", "2"),
            ("SetsPerPlayer", "1"),
            ("Rules", "jumps=short,rest=own,home-lock=on,spoil=none,release=on,unused=empty,first=black"),
            ("MoveLimit", "1000"), ("StallLimit", "100"), ("PlayAllPlaces", "on"), ("EndWhenStuck", "on"),
            ("FirstSet", "1"), ("Player1", "alice"), ("Player1Seat", "1"), ("Player1Kind", "human"),
            ("Player1Sets", "1"), ("Player2", second), ("Player2Seat", "2"), ("Player2Kind", "human"),
            ("Player2Sets", "4"), ("Places", "0 0"), ("Ending", "room closed"), ("Moves", "2")]
    return "".join(f'[{tag} "{value}"]\n' for tag, value in tags) + "\n1. n1-m6\n2. d1-e5\n"


def replay_is_drawn_from_your_side_and_steps_back():
    """`halma replay` of a game ann played as red drew black at the bottom (the record was always
    drawn as notation has it; --fixed did nothing): now her own triangle is at the bottom, as in
    `halma play`, and --fixed puts triangle 1 there. `b` steps back a move (only a number could)."""
    with Cluster("cli-replay-side") as c:
        ann = c.add("ann")
        record = os.path.join(c.tmp, "lunch-1.hrec")
        with open(record, "w") as f:
            f.write(two_player_record("ann"))

        def bottom_marbles(out):
            """The marbles' letters on the last board's bottom row (its 17th line)."""
            board = out.split("move 2/2")[-1].split("\n")[1:18]
            return {ch for ch in board[16] if ch.isupper()}

        mine = ann.cli("replay", record, "--pace", "0", "--no-colour")
        check(mine.returncode == 0, f"replay: rc {mine.returncode}: {mine.stderr}")
        check(bottom_marbles(mine.stdout) == {"R"}, f"ann's red is not at the bottom:\n{mine.stdout}")
        fixed = ann.cli("replay", record, "--pace", "0", "--no-colour", "--fixed")
        check(bottom_marbles(fixed.stdout) == {"B"}, f"--fixed does not put black at the bottom:\n{fixed.stdout}")
        stepped = subprocess.run([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "replay", record, "--no-colour"],
                                 input="\nb\nq\n", capture_output=True, text=True, timeout=30)
        shown = [line.split(":")[0] for line in stepped.stdout.split("\n") if line.startswith("move ")]
        check(shown == ["move 0/2", "move 1/2", "move 0/2"], f"Enter, b, q showed {shown}: {stepped.stdout}")


run({f.__name__: f for f in [replay_fits_the_terminal, replay_is_drawn_from_your_side_and_steps_back]})
