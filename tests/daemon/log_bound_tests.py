"""What others can make a host write to its log is bounded: a script on a player's machine
refusing itself 300 times wrote 300 lines (about 15 kB a second) into the Pi's journal."""
import time

import halmatest
from halmatest import Cluster, api_pb2, check, host_room, join_room, run, wait_until


def refusals_fill_no_journal():
    """bob's daemon asks ann's room for 300 moves that are not his to make: each is refused to
    him, and ann's log says so in a bounded number of lines, with the rest counted."""
    with Cluster("logbound") as c:
        ann, bob = c.add("ann"), c.add("bob")
        room = host_room(ann, "porch").summary.room_id
        join_room(bob, ann, "porch")
        wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
        not_his = "pass"  # never a legal move at the start, whoever is to move
        before = open(ann.log_path).read().count("refused peer")
        started = time.monotonic()
        for _ in range(300):
            reply = bob.api().call(action=api_pb2.ActionRequest(room=room, move=not_his))
            check(reply.HasField("error"), f"a move bob may not make was taken: {reply}")
        took = time.monotonic() - started
        log = open(ann.log_path).read()
        lines = log.count("refused peer") - before
        check(lines <= 25, f"{lines} lines for 300 refusals in {took:.1f} s")
        print(f"300 refusals in {took:.1f} s: {lines} lines in the host's log")
        time.sleep(3.1)
        bob.api().call(action=api_pb2.ActionRequest(room=room, move=not_his))
        check("more like it not logged" in open(ann.log_path).read(), "the lines left out are not counted")


if __name__ == "__main__":
    run({f.__name__: f for f in [refusals_fill_no_journal]})
