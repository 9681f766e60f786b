#!/usr/bin/python3
"""Replays the games of a clysto_adapter.py --log file: how far each side still has to go.

    python3 bench/ai/sparring/replay_log.py LOG            # every game, distance left every 10 plies
    python3 bench/ai/sparring/replay_log.py LOG GAME PLY   # one game's moves from PLY on, with gains

The log holds each `position startpos moves ...` the match runner sent the engine; a game's
last one is the whole game but its final move (if halma's bot made it). Games alternate who
moves first, as `bench_ai match` plays them: in odd games (1, 3, ...) halma's bot has set 1.
"Left" is the steps a set still needs (the sum over its marbles of the rows to its home's tip,
less the 20 of a full home): a crude race count, enough to see who led when. The summary also
says when each side's last marble left its start triangle.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clysto_adapter as board  # noqa: E402


def games_in(path):
    games, last = [], None
    with open(path) as log:
        for line in log:
            if not line.startswith("< position"):
                continue
            moves = line.split()[4:]
            if last is not None and len(moves) < len(last):
                games.append(last)
            last = moves
    if last is not None:
        games.append(last)
    return games


def left(game, colour):
    total = 0
    for index, value in enumerate(game.board):
        if value == colour:
            r, c = divmod(index, board.SIDE)
            total += r + c if colour == board.RED else 16 - (r + c)
    return total - 20


def in_start(game, colour):
    start = board.start_board()
    return any(game.board[i] == colour for i in range(len(start)) if start[i] == colour)


def summary(number, moves):
    ours = board.RED if number % 2 == 1 else board.GREEN
    theirs = board.GREEN if ours == board.RED else board.RED
    game, marks = board.Game(), []
    out_of_start = {}
    for ply, move in enumerate(moves, 1):
        game.play(move)
        if ply % 10 == 0:
            marks.append(f"{ply}:{left(game, ours)}/{left(game, theirs)}")
        for colour in (ours, theirs):
            if colour not in out_of_start and not in_start(game, colour):
                out_of_start[colour] = ply
    first = "halma first" if ours == board.RED else "engine first"
    print(f"game {number} ({first}), {len(moves)} plies seen; left at the end: "
          f"halma {left(game, ours)}, engine {left(game, theirs)}; last marble out of its start "
          f"at ply {out_of_start.get(ours, '-')} (halma), {out_of_start.get(theirs, '-')} (engine)")
    print("  ply:halma/engine " + " ".join(marks))


def detail(number, moves, start):
    ours = board.RED if number % 2 == 1 else board.GREEN
    game, words = board.Game(), []
    for ply, move in enumerate(moves, 1):
        mover = game.to_move
        before = left(game, mover)
        game.play(move)
        if ply >= start:
            who = "H" if mover == ours else "E"
            words.append(f"{ply}{who}:{move}({before - left(game, mover):+d})")
    print(" ".join(words))


def main():
    if len(sys.argv) not in (2, 4):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    games = games_in(sys.argv[1])
    if len(sys.argv) == 4:
        detail(int(sys.argv[2]), games[int(sys.argv[2]) - 1], int(sys.argv[3]))
    else:
        for number, moves in enumerate(games, 1):
            summary(number, moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
