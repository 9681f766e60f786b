#!/usr/bin/env python3
"""A standing room after many games is as small and as fast to restore as after one (issue 12).

One real halmad on 127.0.0.1 hosts one room where a person (this script, through the local API)
plays an easy bot; games are short (--move-limit moves each, then the game ends on distance),
and after each the person votes for a new one (the bot always agrees). After the first game and
after the last, the daemon is stopped and the room's files are measured the way halmad reads
them at start-up (bench_room_figures: events file, snapshot, load+restore time); then halmad is
started again and timed until it answers for the room. The figures after 1 game are the
baseline, measured in the same run; "events made" is what the log would hold without compaction.
Not a test: figures only.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "daemon"))


def figures(state_dir):
    out = subprocess.run([os.environ["FIGURES"], state_dir], capture_output=True, text=True, check=True)
    line = out.stdout.strip().splitlines()[0]
    return {k: v for k, v in (w.split("=", 1) for w in line.split()[1:])}


def restart_ms(halmatest, d, tries):
    """Best of `tries`: halmad started until it answers a view of the room."""
    times = []
    for _ in range(tries):
        d.kill(halmatest.signal.SIGTERM)
        started = time.monotonic()
        d.start()
        halmatest.wait_until(lambda: not d.api().call(view=halmatest.api_pb2.ViewRequest(room="standing"))
                             .HasField("error"), 30, "the room back")
        times.append((time.monotonic() - started) * 1000)
    return min(times)


def measure(halmatest, d, tries):
    d.kill(halmatest.signal.SIGTERM)
    f = figures(d.state_dir)
    d.start()
    f["restart_ms"] = f"{restart_ms(halmatest, d, tries):.1f}"
    records = [n for n in os.listdir(os.path.join(d.state_dir, "records"))]
    f["records"] = str(len(records))
    return f


def play_games(halmatest, d, games, deadline):
    """Plays until `games` more games have ended (a game already over counts as played)."""
    from halma.v1 import api_pb2, common_pb2
    api = d.api()

    def over(v):
        return v.summary.phase in (common_pb2.PHASE_OVER, common_pb2.PHASE_CANCELLED)
    v = api.view("standing")
    last = v.game_number + (1 if over(v) else 0) + games - 1
    while time.monotonic() < deadline:
        v = api.view("standing")
        if over(v):
            if v.game_number >= last:
                return
            api.ok(action=api_pb2.ActionRequest(room="standing", vote=common_pb2.VOTE_KIND_NEW_GAME))
            halmatest.wait_until(lambda: not over(api.view("standing")), 10, "the next game")
        elif v.your_turn:
            api.move(halmatest.greedy_move(v), room="standing")
        else:
            api.sock.poll(5)
            api.events.clear()
    raise SystemExit(f"game {last} not over within the time limit")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--move-limit", type=int, default=10, help="moves per player in a game")
    parser.add_argument("--restarts", type=int, default=3, help="restarts timed (best is printed)")
    args = parser.parse_args()
    import halmatest
    from halma.v1 import api_pb2, common_pb2
    deadline = time.monotonic() + 3600
    with halmatest.Cluster("compaction") as c:
        d = c.add("host", extra=["--bot-level", "easy", "--bot-budget-ms", "5", "--no-mdns",
                                 "--records-kept", str(args.games + 10)])
        d.api().ok(host=api_pb2.HostRequest(name="standing", bots=1, bot_level="easy",
                                            mode=common_pb2.RoomMode(players=2, move_limit=args.move_limit)))
        started = time.monotonic()
        play_games(halmatest, d, 1, deadline)
        one = measure(halmatest, d, args.restarts)
        play_games(halmatest, d, args.games - 1, deadline)
        took = time.monotonic() - started
        many = measure(halmatest, d, args.restarts)
    print(f"One room, a person and an easy bot, {args.move_limit} moves each a game; "
          f"{args.games} games in {took:.1f} s.")
    print(f"{'figure':<34}{'after 1 game':>14}{f'after {args.games}':>14}{'ratio':>8}")
    rows = [("games played (room's game number)", "games"), ("events the room ever made", "events_made"),
            ("events in its log (compacted)", "events_kept"), ("events file, bytes", "events_bytes"),
            ("snapshot a joiner gets, bytes", "snapshot_bytes"), ("load + restore, ms (best of 5)", "restore_ms"),
            ("halmad restart until it answers, ms", "restart_ms"), ("records kept", "records")]
    for label, key in rows:
        a, b = float(one[key]), float(many[key])
        ratio = f"{b / a:.2f}" if a else "-"
        print(f"{label:<34}{one[key]:>14}{many[key]:>14}{ratio:>8}")


if __name__ == "__main__":
    main()
