#!/usr/bin/env python3
"""A person's wait for the computer's reply while many bot-only rooms keep the bots busy, and the
bots' total throughput, for several sizes of the bot pool (halmad --bot-threads).

One real halmad on 127.0.0.1 hosts N rooms where two hard bots play each other, plus one room
where a person (this script, through the local API) plays a hard bot. The person plays greedy
moves and times each from sending it to being told it is their turn again; the baseline is the
same wait with no other rooms, measured in the same run (the bot's own thinking). Throughput
is the bot-only rooms' moves per second while the person plays. Not a test: figures only.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "daemon"))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(halmatest, threads, rooms, moves, level):
    from halma.v1 import api_pb2, common_pb2
    with halmatest.Cluster("botbench") as c:
        d = c.add("host", extra=["--bot-threads", str(threads), "--bot-level", level])
        api = d.api()
        for i in range(rooms):
            api.ok(host=api_pb2.HostRequest(name=f"bots{i}", spectate=True, bots=2, bot_level=level,
                                            mode=common_pb2.RoomMode(players=2)))
        api.ok(host=api_pb2.HostRequest(name="me", bots=1, bot_level=level, mode=common_pb2.RoomMode(players=2)))
        api.ok(subscribe=api_pb2.SubscribeRequest(room="me"))

        def bot_moves():
            return sum(len(api.view(f"bots{i}").moves) for i in range(rooms))
        before, started = bot_moves(), time.monotonic()
        waits = []
        view = api.view("me")
        deadline = time.monotonic() + 600
        while len(waits) < moves and time.monotonic() < deadline:
            if view.summary.phase != common_pb2.PHASE_PLAYING:
                break
            if not view.your_turn:
                view = api.view("me")
                time.sleep(0.01)
                continue
            sent = time.monotonic()
            reply = api.move(halmatest.greedy_move(view), room="me")
            if reply.HasField("error"):
                raise SystemExit(f"move refused: {reply.error.message}")
            while time.monotonic() < deadline:  # until the bot has answered
                view = api.view("me")
                if view.your_turn or view.summary.phase != common_pb2.PHASE_PLAYING:
                    break
                api.sock.poll(5)
                api.events.clear()
            waits.append(time.monotonic() - sent)
        elapsed = time.monotonic() - started
        rate = (bot_moves() - before) / elapsed if rooms else 0.0
        return waits, rate


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2", help="bot pool sizes to try (comma list)")
    parser.add_argument("--rooms", default="0,10,50", help="numbers of bot-only rooms (comma list)")
    parser.add_argument("--moves", type=int, default=15, help="the person's moves per measurement")
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    import halmatest
    cores = os.cpu_count()
    print(f"bench_bot_rooms: a person's wait for a {args.level} bot's reply beside N bot-only rooms "
          f"({args.moves} moves each), {cores} cores")
    print(f"{'threads':>7} {'rooms':>5} {'wait p50':>9} {'wait p99':>9} {'vs N=0 p99':>10} {'bot moves/s':>11}")
    for threads in [int(t) for t in args.threads.split(",")]:
        baseline = None
        for rooms in [int(r) for r in args.rooms.split(",")]:
            waits, rate = run(halmatest, threads, rooms, args.moves, args.level)
            p50, p99 = percentile(waits, 50), percentile(waits, 99)
            if rooms == 0:
                baseline = p99
            ratio = f"{p99 / baseline:.2f}x" if baseline else "-"
            print(f"{threads:>7} {rooms:>5} {p50 * 1000:>7.0f}ms {p99 * 1000:>7.0f}ms {ratio:>10} {rate:>11.1f}",
                  flush=True)
    print("goal (issue 11): with 200 busy bot-only rooms a person's p99 wait within 1.5x of the bot's own "
          "(the N=0 row), and throughput growing with threads")


if __name__ == "__main__":
    main()
