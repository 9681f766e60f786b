"""Issue 11: the event loop never waits for the disk. Every flush (fsync, fdatasync, syncfs) runs on
the disk helper thread; on a Raspberry Pi's SD card one takes tens of milliseconds, which every
room would wait for. A spy preloaded into each halmad (tests/support/loop_disk_spy.cpp) notes the
flushes its main thread makes; a room's whole life, from a new daemon's first join (its key pinned,
its seat bound to its key, its seats file) to the room's close, must add none.
Run as: loop_disk_tests.py TEST_NAME"""
import os
import signal

from halma.v1 import api_pb2
from halmatest import (Cluster, Daemon, check, host_room, join_room, loop_flushes, play_one, run,
                       spy_on_loop_flushes, wait_until)


def spied(cluster, name):
    d = spy_on_loop_flushes(Daemon(cluster, name))
    cluster.daemons.append(d)
    return d.start()


def a_rooms_life_makes_the_loop_flush_nothing():
    with Cluster("loopdisk") as c:
        ann, bob = spied(c, "ann"), spied(c, "bob")
        # The spy works: a flush the loop is known to make counts (the host key, made at the
        # first start before the loop runs, is written and flushed on the main thread).
        check(any("curve" in line for line in loop_flushes(ann)),
              f"the spy saw no flush of the new host key: {loop_flushes(ann)}")
        at_start = {d.name: len(loop_flushes(d)) for d in (ann, bob)}

        room_id = host_room(ann, "disk").summary.room_id
        join_room(bob, ann, "disk")  # bob pins ann's key; ann binds bob's seat to bob's key
        for _ in range(4):
            play_one([ann, bob])
        bob.api().ok(action=api_pb2.ActionRequest(room=room_id, chat="hello"))
        keys = os.path.join(ann.state_dir, "rooms", room_id, "keys")
        wait_until(lambda: os.path.exists(keys), 5, "ann to write the room's keys file")
        check(os.path.exists(os.path.join(bob.state_dir, "known_hosts")), "bob pinned no key")
        check(room_id in open(os.path.join(bob.state_dir, "seats")).read(), "bob remembers no seat")
        out = ann.cli("close", "-r", "disk", "--force")
        check(out.returncode == 0, f"close: rc {out.returncode} {out.stderr}")
        wait_until(lambda: room_id not in open(os.path.join(bob.state_dir, "seats")).read(), 5,
                   "bob to forget the seat")

        for d in (ann, bob):
            made = loop_flushes(d)[at_start[d.name]:]
            check(not made, f"{d.name}'s event loop flushed to the disk itself: {made}")
        # And the helper did flush: a restart finds what the files hold.
        bob.kill(signal.SIGTERM)
        bob.start()
        check(ann.address in open(os.path.join(bob.state_dir, "known_hosts")).read(),
              "bob's pin of ann's key did not survive a restart")


TESTS = [a_rooms_life_makes_the_loop_flush_nothing]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
