"""Issue 11: the event loop never waits for the disk. Every flush (fsync, fdatasync, syncfs) runs on
the disk helper thread; on a Raspberry Pi's SD card one takes tens of milliseconds, which every
room would wait for. A spy preloaded into each halmad (tests/support/loop_disk_spy.cpp) notes the
flushes its main thread makes; a room's whole life, from a new daemon's first join (its seat bound
to its key, its seats file) to the room's close, must add none, but for the pin of a new host's
key (once per host, kept synchronous on purpose); and what the loop wrote is flushed by the helper.
Run as: loop_disk_tests.py TEST_NAME"""
import os
import signal

from halma.v1 import api_pb2
from halmatest import (Cluster, Daemon, check, helper_flushes, host_room, join_room, loop_flushes,
                       play_one, run, spy_on_loop_flushes, wait_until)


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
        helper_at_start = {d.name: len(helper_flushes(d)) for d in (ann, bob)}

        room_id = host_room(ann, "disk").summary.room_id
        join_room(bob, ann, "disk")  # bob pins ann's key; ann binds bob's seat to bob's key
        for _ in range(4):
            play_one([ann, bob])
        bob.api().ok(action=api_pb2.ActionRequest(room=room_id, chat="hello"))
        keys = os.path.join(ann.state_dir, "rooms", room_id, "keys")
        wait_until(lambda: os.path.exists(keys), 5, "ann to write the room's keys file")
        check(os.path.exists(os.path.join(bob.state_dir, "known_hosts")), "bob pinned no key")
        seats = os.path.join(bob.state_dir, "seats")
        check(room_id in open(seats).read(), "bob remembers no seat")
        # What the loop wrote reached the disk on the helper: bob's seats file by its own
        # fdatasync; ann's keys by its own or by a syncfs of the batch it was in.
        wait_until(lambda: any(line.endswith("/seats") for line in helper_flushes(bob)[helper_at_start["bob"]:]),
                   5, "bob's helper to flush the seats file")
        wait_until(lambda: any(line.endswith("/keys") or line.startswith("syncfs ")
                               for line in helper_flushes(ann)[helper_at_start["ann"]:]),
                   5, "ann's helper to flush the keys file")
        out = ann.cli("close", "-r", "disk", "--force")
        check(out.returncode == 0, f"close: rc {out.returncode} {out.stderr}")
        room_dir = os.path.join(ann.state_dir, "rooms", room_id)
        wait_until(lambda: not os.path.exists(room_dir), 5, "the closed room's files to go")
        wait_until(lambda: room_id not in open(seats).read(), 5, "bob to forget the seat")

        made = loop_flushes(ann)[at_start["ann"]:]
        check(not made, f"ann's event loop flushed to the disk itself: {made}")
        # The one flush a loop makes: pinning a new host's key (once per host), at once, so that
        # a power cut can never leave known_hosts empty (daemon/net/peer_links.h).
        made = loop_flushes(bob)[at_start["bob"]:]
        pin = [line for line in made if "known_hosts" in line or line.endswith(" " + bob.state_dir)]
        check(made == pin and any("known_hosts" in line for line in pin),
              f"bob's event loop flushed to the disk itself, besides pinning ann's key: {made}")

        # A run killed before its helper flushed leaves its writes in the kernel: the next start
        # puts them on the disk (one syncfs of the state's file system) before it relies on them.
        host_room(ann, "again")
        ann.kill(signal.SIGKILL)
        before = len(loop_flushes(ann))
        ann.start()
        rooms = os.path.join(ann.state_dir, "rooms")
        check(f"syncfs {rooms}" in loop_flushes(ann)[before:],
              f"the restart did not flush what the killed run left: {loop_flushes(ann)[before:]}")


TESTS = [a_rooms_life_makes_the_loop_flush_nothing]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
