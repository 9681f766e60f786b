#!/usr/bin/python3
"""Makes clysto/chinese-checkers' command-line engine speak halma's engine protocol.

The other engine (https://github.com/clysto/chinese-checkers, built as README.md here says) is
an alpha-beta searcher with a transposition table, killer moves, null-move pruning, iterative
deepening and an opening book. It plays the two-player game on the 81 holes of a rhombus: the
centre hexagon plus the two triangles the sets start in, with short hops only. Its protocol:
`TIMELIMIT S` (whole seconds per move), `SEARCH STATE` answered by `SRC DST`, `QUIT`; STATE is
81 digits (0 empty, 1 red, 2 green) for index 9*r+c, '/' between rows, then `r` or `g` (who
moves) and the round number. Red starts in the corner (8,8) and moves first; green in (0,0).

halma's board (docs/notation.md) names holes by row a..q and number within the row. Put each
hole at height y (row a = 0) and horizontal position x in half-holes from the centre line; the
engine's two axes are then r = (y - x) / 2 (down and left) and c = (y + x) / 2 (down and
right), so a1 is (0,0) and q1 is (8,8). Halma's set 1 (bottom, moves first) is red, set 4 green.

Play it with `--rules unused=filled,home-lock=off,release=off` (README.md says why): the side
triangles are then full of fixed marbles, so no move can reach them and the game is the
engine's own.

This adapter is ours and holds no code of the other engine; it starts the engine's binary as a
separate process.
"""

import argparse
import os
import subprocess
import sys

ROW_LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
ROW_LETTERS = "abcdefghijklmnopq"
SIDE = 9  # the rhombus is 9 by 9
RED, GREEN = 1, 2  # the engine's digits: halma's set 1 and set 4


def hole_to_index(name):
    """'n4' -> 9*r+c, or None if the hole is not on the engine's rhombus."""
    y = ROW_LETTERS.find(name[0].lower())
    if y < 0 or not name[1:].isdigit():
        raise ValueError(f"'{name}' is not a hole")
    n = ROW_LENGTHS[y]
    k = int(name[1:])
    if not 1 <= k <= n:
        raise ValueError(f"'{name}' is not a hole (row {name[0]} has {n})")
    x = 2 * k - (n + 1)
    r, c = (y - x) // 2, (y + x) // 2
    if not (0 <= r < SIDE and 0 <= c < SIDE):
        return None
    return SIDE * r + c


def index_to_hole(index):
    r, c = divmod(index, SIDE)
    y, x = r + c, c - r
    n = ROW_LENGTHS[y]
    return f"{ROW_LETTERS[y]}{(x + n + 1) // 2}"


DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def on_rhombus(r, c):
    return 0 <= r < SIDE and 0 <= c < SIDE


def start_board():
    board = [0] * (SIDE * SIDE)
    for y in range(4):
        for k in range(1, ROW_LENGTHS[y] + 1):
            board[hole_to_index(f"{ROW_LETTERS[y]}{k}")] = GREEN  # set 4, top
            board[hole_to_index(f"{ROW_LETTERS[16 - y]}{k}")] = RED  # set 1, bottom
    return board


class Game:
    """The board as the engine sees it, replayed from halma's move list."""

    def __init__(self):
        self.board = start_board()
        self.to_move = RED
        self.plies = 0

    def play(self, move):
        if move == "pass":
            self.to_move = GREEN if self.to_move == RED else RED
            self.plies += 1
            return
        holes = move.split("-")
        if len(holes) < 2:
            raise ValueError(f"move '{move}': from-to expected")
        src, dst = hole_to_index(holes[0]), hole_to_index(holes[-1])
        if src is None or dst is None:
            raise ValueError(f"move '{move}' leaves the two-triangle board this engine plays")
        mover = self.board[src]
        if mover == 0:
            raise ValueError(f"move '{move}': {holes[0]} is empty")
        if self.board[dst] != 0:
            raise ValueError(f"move '{move}': {holes[-1]} is taken")
        self.board[src], self.board[dst] = 0, mover
        # Who moves next follows from whose marble moved, not from counting moves.
        self.to_move = GREEN if mover == RED else RED
        self.plies += 1

    def finished(self, colour):
        home = [80 - i for i in range(SIDE * SIDE) if start_board()[i] == colour]
        return all(self.board[i] == colour for i in home)

    def moves(self):
        """Every move of the side to move as (src, dst): steps, then hop chains (the moving
        marble's origin counts as empty during its chain, as in halma's rules)."""
        found = []
        for src in range(SIDE * SIDE):
            if self.board[src] != self.to_move:
                continue
            r, c = divmod(src, SIDE)
            for dr, dc in DIRECTIONS:
                if on_rhombus(r + dr, c + dc) and self.board[SIDE * (r + dr) + c + dc] == 0:
                    found.append((src, SIDE * (r + dr) + c + dc))
            seen, frontier = {src}, [src]
            while frontier:
                here = frontier.pop()
                hr, hc = divmod(here, SIDE)
                for dr, dc in DIRECTIONS:
                    over, land = (hr + dr, hc + dc), (hr + 2 * dr, hc + 2 * dc)
                    if not on_rhombus(*land):
                        continue
                    over_index, land_index = SIDE * over[0] + over[1], SIDE * land[0] + land[1]
                    if over_index == src or self.board[over_index] == 0:
                        continue
                    if self.board[land_index] != 0 and land_index != src:
                        continue
                    if land_index not in seen:
                        seen.add(land_index)
                        frontier.append(land_index)
                        found.append((src, land_index))
        return [m for m in found if m[0] != m[1]]

    def state(self):
        rows = ["".join(str(v) for v in self.board[r * SIDE : (r + 1) * SIDE]) for r in range(SIDE)]
        side = "r" if self.to_move == RED else "g"
        return f"{'/'.join(rows)} {side} {self.plies // 2 + 1}"


def finishes(game, move):
    after = Game()
    after.board, after.to_move = list(game.board), game.to_move
    after.board[move[0]], after.board[move[1]] = 0, game.to_move
    return after.finished(game.to_move)


def cpu_ms(pid):
    """CPU time the engine process has used (its clock is wall time: on a loaded machine it
    gets less of it, which the match tables report)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def self_check():
    """The mapping round-trips, the sets start where the engine starts them, and neighbours on
    halma's board are neighbours on the engine's rhombus (its six axial directions)."""
    on_rhombus = 0
    for y, n in enumerate(ROW_LENGTHS):
        for k in range(1, n + 1):
            name = f"{ROW_LETTERS[y]}{k}"
            index = hole_to_index(name)
            if index is not None:
                on_rhombus += 1
                assert index_to_hole(index) == name, name
    assert on_rhombus == SIDE * SIDE, on_rhombus
    board = start_board()
    green = sorted(i for i, v in enumerate(board) if v == GREEN)
    red = sorted(i for i, v in enumerate(board) if v == RED)
    assert green == [0, 1, 2, 3, 9, 10, 11, 18, 19, 27], green  # the engine's INITIAL_GREEN
    assert red == sorted(80 - i for i in green), red
    assert index_to_hole(0) == "a1" and index_to_hole(80) == "q1" and index_to_hole(40) == "i5"
    # e5 is the hexagon's top-left corner: its neighbours on halma's board in the rhombus.
    assert hole_to_index("e4") is None and hole_to_index("j1") is None
    for a, b in [("e5", "e6"), ("e5", "d1"), ("e5", "f5"), ("i5", "h5"), ("i5", "j6")]:
        ra, ca = divmod(hole_to_index(a), SIDE)
        rb, cb = divmod(hole_to_index(b), SIDE)
        assert (rb - ra, cb - ca) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)], (a, b)
    # The start: 8 steps and 6 hops, as on halma's board.
    assert sorted(Game().moves()) == sorted(set(Game().moves())) and len(Game().moves()) == 14
    print("self-check ok: 81 holes round-trip, start sets and neighbours agree")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", help="path of the built chinesecheckers_cli")
    parser.add_argument("--seconds", type=int, default=1, help="the engine's time per move (whole s)")
    parser.add_argument("--log", help="append every line received and sent to this file")
    parser.add_argument("--self-check", action="store_true", help="check the board mapping, exit")
    args = parser.parse_args()
    if args.self_check:
        self_check()
        return 0
    if not args.engine:
        parser.error("--engine PATH is needed")
    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        return engine.stdout.readline().strip()

    ask(f"TIMELIMIT {args.seconds}")
    game = Game()

    log = open(args.log, "a") if args.log else None

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        if log:
            log.write("> " + line + "\n")
            log.flush()

    for line in sys.stdin:
        if log:
            log.write("< " + line)
            log.flush()
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "halma":
            say("id name clysto/chinese-checkers via halma's sparring adapter")
            say("halmaok")
        elif command == "isready":
            say("readyok")
        elif command == "newgame":
            options = dict(zip(words[1::2], words[2::2]))
            if options.get("players", "2") != "2" or options.get("sets", "1") != "1":
                say("error newgame: this engine plays two players with one set each")
            game = Game()
        elif command == "position":
            if len(words) < 2 or words[1] != "startpos":
                say("error position: only 'position startpos [moves ...]' is understood")
                continue
            fresh = Game()
            try:
                for move in words[3:] if len(words) > 2 and words[2] == "moves" else []:
                    fresh.play(move)
            except ValueError as problem:
                say(f"error position: {problem} (position unchanged)")
                continue
            game = fresh
        elif command == "go":
            opponent = GREEN if game.to_move == RED else RED
            if game.finished(opponent):
                # halma completes the round: a finishing move now draws. The engine sees a
                # finished game and answers no move, so the adapter looks for that move.
                moves = game.moves()
                finishing = [m for m in moves if finishes(game, m)]
                if moves:
                    src, dst = (finishing or moves)[0]
                    say(f"info string round completion: {'finishes' if finishing else 'lost'}")
                    say(f"bestmove {index_to_hole(src)}-{index_to_hole(dst)}")
                else:
                    say("bestmove pass")
                continue
            cpu_before = cpu_ms(engine.pid)
            answer = ask("SEARCH " + game.state()).split()
            cpu = cpu_ms(engine.pid) - cpu_before
            if len(answer) != 2 or int(answer[0]) < 0:
                say(f"info string the engine answered '{' '.join(answer)}'")
                say("bestmove pass")
                continue
            src, dst = int(answer[0]), int(answer[1])
            if (src, dst) not in game.moves():
                # Its chains treat the hopping marble's origin as occupied; halma's do not.
                print(f"clysto_adapter: the engine's move {src} {dst} is illegal in "
                      f"{game.state()}", file=sys.stderr)
            say(f"info string engine move {src} {dst} cpu {cpu:.0f} ms")
            say(f"bestmove {index_to_hole(src)}-{index_to_hole(dst)}")
        elif command == "quit":
            break
        elif command in ("stop", "setoption"):
            continue  # answers come at once; its only knob is --seconds
        else:
            say(f"error unknown command '{command}'")
    try:
        ask("QUIT")
    except (BrokenPipeError, OSError):
        pass
    engine.wait(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
