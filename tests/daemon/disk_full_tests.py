"""A host whose disk fills up, for the moments hostile.full_disk_refuses_and_keeps does not
cover: a peer's join refused (the room must try its disk again by itself), a close whose
game record the disk refuses (the game must not be lost with the room's files), and a close
whose own event the disk refuses (everyone must still hear of it, unless the files cannot go
either). The spy
library plays the full disk (tests/support/loop_disk_spy.cpp), but for a close's game record,
where a small tmpfs in a private mount namespace is filled (run as root).
Run as: disk_full_tests.py TEST_NAME"""
import os
import re
import signal
import subprocess
import time

import halmatest
from halmatest import (HALMAD, Cluster, Daemon, check, host_room, loop_flushes, play_one, run, spy_on_loop_flushes,
                       wait_until)
from halma.v1 import api_pb2, common_pb2
from hostile_tests import fill, in_private_mount_namespace, small_tmpfs


def join_refused_by_a_full_disk_is_retried():
    """Ann hosts a room alone on a full state directory; bob's join is refused ("read-only").
    Once space is back, the room takes writes again without anyone acting on it (a join used to
    leave it read-only for good: nothing asked its disk again), and its loop waits for the disk
    no more then than at other times: the retry's flushes are the helper's. The spy plays the
    full disk: a join writes its tokens in place over a copy that has its blocks already
    (paired_file.h), which a real full disk takes."""
    with Cluster("joinfull") as c:
        ann = spy_on_loop_flushes(Daemon(c, "ann"))
        full = os.path.join(c.tmp, "disk-full")
        ann.env.update(HALMA_DISK_FULL_FLAG=full, HALMA_DISK_FULL_DIR=ann.state_dir)
        c.daemons.append(ann)
        ann.start()
        at_start = len(loop_flushes(ann))
        bob = c.add("bob")
        host_room(ann, "full")
        open(full, "w").close()
        reply = bob.api().call(join=api_pb2.JoinRequest(address=ann.address, room="full"))
        check(reply.HasField("error") and "read-only" in reply.error.message,
              f"a join on a full disk: {reply}")
        os.remove(full)
        wait_until(lambda: ann.api().view("full").read_only == "", 5,
                   "the room to take writes again once space is back")
        reply = bob.api().call(join=api_pb2.JoinRequest(address=ann.address, room="full"))
        check(not reply.HasField("error"), f"the join after space came back: {reply.error.message}")
        made = loop_flushes(ann)[at_start:]
        check(not made, f"ann's event loop flushed to the disk itself: {made}")


def close_on_a_full_disk_is_told():
    """Ann closes a room no game is being played in while her disk takes no write: its RoomClosed
    cannot be written, but nothing in its files is lost when they go, so the close stands; bob's
    daemon and front end hear of it as of any close (before, the room vanished from ann's daemon
    while bob's replica, his front end and the LAN's advert kept it), and the files go. The full
    disk is played by the spy (a tmpfs filled up still takes a small append into its last page)."""
    with Cluster("closetold") as c:
        ann = spy_on_loop_flushes(Daemon(c, "ann"))
        full = os.path.join(c.tmp, "disk-full")
        ann.env.update(HALMA_DISK_FULL_FLAG=full, HALMA_DISK_FULL_DIR=ann.state_dir)
        c.daemons.append(ann)
        ann.start()
        bob = c.add("bob")
        room_id = host_room(ann, "waiting", players=3).summary.room_id  # two of three: no game
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="waiting"))
        bob.api().ok(subscribe=api_pb2.SubscribeRequest(room=room_id))
        open(full, "w").close()
        out = ann.cli("close", "-r", "waiting")
        check(out.returncode == 0 and "closed room waiting" in out.stdout,
              f"close on a full disk: rc {out.returncode} {out.stdout}{out.stderr}")
        check("cannot write to disk" in open(ann.log_path).read(),
              f"the disk took the close (nothing was tested): {ann.log_tail()}")

        def heard():
            bob.api().call(status=api_pb2.StatusRequest())  # collects the events that came meanwhile
            return [e for e in bob.api().events if e.event.HasField("closed")]
        wait_until(heard, 5, "bob's front end to hear the room closed")
        wait_until(lambda: bob.api().call(view=api_pb2.ViewRequest(room=room_id)).error.code
                   == common_pb2.ERROR_CODE_UNKNOWN_ROOM, 5, "bob's daemon to drop the room")
        room_dir = os.path.join(ann.state_dir, "rooms", room_id)
        wait_until(lambda: not os.path.exists(room_dir), 5, "the room's files to go")
        os.remove(full)
        ann.kill(signal.SIGTERM)
        ann.start()
        check(ann.api().call(view=api_pb2.ViewRequest(room=room_id)).error.code
              == common_pb2.ERROR_CODE_UNKNOWN_ROOM, "the closed room came back after a restart")


def close_on_a_read_only_disk_is_refused():
    """As close_on_a_full_disk_is_told, but the disk takes no removal either (a file system
    remounted read-only): the room's files would bring it back at the next start, so the close
    is refused, and nobody is told the room closed. Once the disk takes writes, it closes."""
    with Cluster("closerofs") as c:
        ann = spy_on_loop_flushes(Daemon(c, "ann"))
        full, read_only = os.path.join(c.tmp, "disk-full"), os.path.join(c.tmp, "disk-read-only")
        ann.env.update(HALMA_DISK_FULL_FLAG=full, HALMA_DISK_READ_ONLY_FLAG=read_only,
                       HALMA_DISK_FULL_DIR=ann.state_dir)
        c.daemons.append(ann)
        ann.start()
        bob = c.add("bob")
        room_id = host_room(ann, "waiting", players=3).summary.room_id
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="waiting"))
        bob.api().ok(subscribe=api_pb2.SubscribeRequest(room=room_id))
        open(full, "w").close()
        open(read_only, "w").close()
        out = ann.cli("close", "-r", "waiting")
        check(out.returncode != 0 and "not closed" in out.stderr and "cannot be removed" in out.stderr,
              f"close on a read-only disk: rc {out.returncode} {out.stdout}{out.stderr}")
        time.sleep(0.5)  # what bob would have heard by now
        bob.api().call(status=api_pb2.StatusRequest())
        check(not [e for e in bob.api().events if e.event.HasField("closed")], "bob was told the room closed")
        check(not bob.api().call(view=api_pb2.ViewRequest(room=room_id)).HasField("error"), "bob lost the room")
        check(os.path.exists(os.path.join(ann.state_dir, "rooms", room_id, "config")), "the room's files went")
        os.remove(full)
        os.remove(read_only)
        wait_until(lambda: ann.api().view("waiting").read_only == "", 5, "the room to take writes again")
        out = ann.cli("close", "-r", "waiting")
        check(out.returncode == 0, f"close once the disk takes writes: rc {out.returncode} {out.stderr}")
        wait_until(lambda: bob.api().call(view=api_pb2.ViewRequest(room=room_id)).error.code
                   == common_pb2.ERROR_CODE_UNKNOWN_ROOM, 5, "bob's daemon to drop the room")


def close_keeps_the_files_when_the_record_is_refused():
    """Ann closes a room mid-game while the records directory (its own small tmpfs) is full: the
    game's record cannot be written, so the room's files stay (their log ends with the close).
    Once space is back, the next start writes the record from them and removes them."""
    in_private_mount_namespace("close_keeps_the_files_when_the_record_is_refused", __file__)
    with Cluster("closefull") as c:
        ann = Daemon(c, "ann")
        c.daemons.append(ann)
        records = os.path.join(ann.state_dir, "records")
        small_tmpfs(records, size="64k")
        try:
            ann.start()
            bob = c.add("bob")
            ann.api().ok(host=api_pb2.HostRequest(name="full", mode=common_pb2.RoomMode(players=2)))
            bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="full"))
            for _ in range(4):
                play_one([ann, bob])
            room_id = ann.api().view("full").summary.room_id
            room_dir = os.path.join(ann.state_dir, "rooms", room_id)
            filler = fill(records)
            ann.api().call(close=api_pb2.CloseRequest(room="full"))
            wait_until(lambda: "its files are kept" in open(ann.log_path).read(), 5,
                       "the host to say it keeps the room's files")
            check(os.path.isdir(room_dir), "the room's files went although its game has no record")
            written = [f for f in os.listdir(records) if not f.endswith(".tmp")]  # a retry under way
            check(written == ["filler"], f"records: {os.listdir(records)}")
            os.remove(filler)
            ann.kill(signal.SIGTERM)
            ann.start()
            wait_until(lambda: not os.path.exists(room_dir), 5, "the restart to finish the close")
            kept = [f for f in os.listdir(records) if f.startswith(room_id)]
            check(len(kept) == 1, f"the closed game's record after the restart: {os.listdir(records)}")
            text = open(os.path.join(records, kept[0])).read()
            check("room closed" in text, f"the record does not say the close cut the game short:\n{text}")
        finally:
            ann.kill()
            subprocess.run(["umount", records], check=False)


def a_state_directory_it_cannot_use_is_said():
    """A state directory halmad cannot use: --check-config refuses it (it passed, and the service
    then ran with no room), and the daemon will not start without one. One that holds the key
    but cannot be written (an SD card remounted read-only) is used as it is: the same key (a new
    one on each start made every player's daemon refuse it as an impostor), rooms read-only."""
    in_private_mount_namespace("a_state_directory_it_cannot_use_is_said", __file__)
    with Cluster("rostate") as c:
        ann = Daemon(c, "ann")
        c.daemons.append(ann)
        base = [HALMAD, "--runtime-dir", os.path.join(c.tmp, "other-run"), "--listen", "127.0.0.1:0"]
        a_file = os.path.join(c.tmp, "a-file")
        open(a_file, "w").close()
        for state in (a_file, os.path.join(a_file, "state")):
            out = subprocess.run(base + ["--state-dir", state, "--check-config"], capture_output=True, text=True,
                                 timeout=20)
            check(out.returncode == 2 and "state-dir" in out.stderr and "not a directory" in out.stderr,
                  f"--check-config with state-dir {state}: rc {out.returncode} {out.stderr}")
            out = subprocess.run(base + ["--no-mdns", "--state-dir", state], capture_output=True, text=True,
                                 timeout=20)
            check(out.returncode == 1 and "cannot use the state directory" in out.stderr,
                  f"started with state-dir {state}: rc {out.returncode} {out.stderr}")
        ann.start()
        host_room(ann, "porch")
        ann.kill(signal.SIGTERM)
        subprocess.run(["mount", "--bind", ann.state_dir, ann.state_dir], check=True)
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", ann.state_dir], check=True)
            out = subprocess.run(base + ["--state-dir", ann.state_dir, "--check-config"], capture_output=True,
                                 text=True, timeout=20)
            check(out.returncode == 2 and "cannot be written" in out.stderr,
                  f"--check-config on a read-only state directory: rc {out.returncode} {out.stderr}")
            ann.start()
            keys = re.findall(r"host key (SHA256:[0-9a-z-]+)", open(ann.log_path).read())
            check(len(keys) == 2 and keys[0] == keys[1], f"the key on a read-only disk: {keys}")
            check(ann.api().view("porch").summary.name == "porch", "the room did not resume")
            check("take no change until the state directory can be written" in ann.log_tail(30), ann.log_tail(10))
        finally:
            ann.kill()
            subprocess.run(["umount", ann.state_dir], check=False)


TESTS = [close_on_a_full_disk_is_told, close_on_a_read_only_disk_is_refused, join_refused_by_a_full_disk_is_retried, close_keeps_the_files_when_the_record_is_refused,
         a_state_directory_it_cannot_use_is_said]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
