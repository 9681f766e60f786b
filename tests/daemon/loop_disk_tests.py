"""Issue 11: the event loop never waits for the disk. Every flush (fsync, fdatasync, syncfs) runs on
the disk helper thread; on a Raspberry Pi's SD card one takes tens of milliseconds, which every
room would wait for. A spy preloaded into each halmad (tests/support/loop_disk_spy.cpp) notes the
flushes its main thread makes; a room's whole life, from a new daemon's first join (its seat bound
to its key, its seats file) to the room's close, must add none, but for the pin of a new host's
key (once per host, kept synchronous on purpose); and what the loop wrote is flushed by the helper.
Run as: loop_disk_tests.py TEST_NAME"""
import json
import os
import signal
import time

import zmq
from halma.v1 import api_pb2, common_pb2
from halmatest import (Cluster, Daemon, check, helper_calls, helper_flushes, host_room, join_room, loop_calls,
                       loop_flushes, loop_made_dirs, play_one, run, spy_on_loop_flushes, wait_until)


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
        # Two copies, made empty with the room and written in turn (daemon/net/paired_file.h).
        wait_until(lambda: any(os.path.getsize(k) > 0 for k in (keys, keys + ".b")), 5,
                   "ann to write the room's keys file")
        check(os.path.exists(os.path.join(bob.state_dir, "known_hosts")), "bob pinned no key")
        seats = os.path.join(bob.state_dir, "seats")
        check(room_id in open(seats).read(), "bob remembers no seat")
        # What the loop wrote reached the disk on the helper: bob's seats file by its own
        # fdatasync; ann's keys by its own or by a syncfs of the batch it was in.
        wait_until(lambda: any(line.endswith("/seats") for line in helper_flushes(bob)[helper_at_start["bob"]:]),
                   5, "bob's helper to flush the seats file")
        wait_until(lambda: any(line.endswith(("/keys", "/keys.b")) or line.startswith("syncfs ")
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


# HostService::kMaxRoomsBeingMade: rooms whose files the disk helper is making at once.
MAX_ROOMS_BEING_MADE = 64


def a_room_is_made_off_the_loop():
    """A front end's new room: its directory and files are made by the disk helper, not the loop
    (a new file on a busy ext4 or an SD card can take milliseconds, which every room would wait
    for), and its maker hears of it once they are on the disk. A disk that stalls holds up only the
    rooms being made: everyone else is answered meanwhile. At most 64 wait; past that a new room
    is refused at once, naming why. A request whose deadline passes before the disk takes it is
    never carried out."""
    with Cluster("makeroom") as c:
        ann = spy_on_loop_flushes(Daemon(c, "ann"))
        stall = os.path.join(c.tmp, "stall")
        ann.env["HALMA_DISK_STALL_FLAG"] = stall
        c.daemons.append(ann)
        ann.start()
        rooms_dir = os.path.join(ann.state_dir, "rooms")
        host_room(ann, "first")
        made_on_loop = [p for p in loop_made_dirs(ann) if p.startswith(rooms_dir + "/")]
        check(not made_on_loop, f"the loop made the room's directory itself: {made_on_loop}")
        check(len(os.listdir(rooms_dir)) == 1, f"no room on the disk: {os.listdir(rooms_dir)}")

        open(stall, "w").close()
        maker = c.ctx.socket(zmq.DEALER)
        maker.setsockopt(zmq.LINGER, 0)
        maker.connect(f"ipc://{ann.runtime_dir}/api.sock")
        asked = MAX_ROOMS_BEING_MADE + 6
        for i in range(1, asked + 1):
            maker.send(api_pb2.Request(version=1, request_id=i, host=api_pb2.HostRequest(
                name=f"r{i}", mode=common_pb2.RoomMode(players=2))).SerializeToString())

        def replies(want, timeout):
            got = {}
            deadline = time.monotonic() + timeout
            while len(got) < want and maker.poll(max(1, int((deadline - time.monotonic()) * 1000))):
                reply = api_pb2.Reply()
                reply.ParseFromString(maker.recv())
                got[reply.request_id] = reply
            return got

        refused = replies(asked - MAX_ROOMS_BEING_MADE, 10)
        check(len(refused) == asked - MAX_ROOMS_BEING_MADE,
              f"{len(refused)} of the {asked - MAX_ROOMS_BEING_MADE} rooms past the bound answered")
        for reply in refused.values():
            check(reply.HasField("error") and "busy making 64 rooms" in reply.error.message
                  and reply.error.code == common_pb2.ERROR_CODE_UNAVAILABLE,
                  f"a room past the bound: {reply}")
        check(set(refused) == set(range(MAX_ROOMS_BEING_MADE + 1, asked + 1)),
              f"the refused were not the last asked: {sorted(refused)}")
        # The daemon answers others while the disk stalls: the room list (the rooms being made
        # not in it yet), a name being made refused as taken, a status.
        listed = [r.name for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms]
        check(listed == ["first"], f"rooms listed while the disk stalls: {listed}")
        taken = ann.api().call(host=api_pb2.HostRequest(name="r1", mode=common_pb2.RoomMode(players=2)))
        check(taken.HasField("error") and "exists already" in taken.error.message, f"r1 again: {taken}")
        ann.api().ok(status=api_pb2.StatusRequest())
        check(not replies(1, 0.3), "a room was answered while its files could not be on the disk")
        os.remove(stall)
        made = replies(MAX_ROOMS_BEING_MADE, 30)
        check(len(made) == MAX_ROOMS_BEING_MADE, f"{len(made)} of {MAX_ROOMS_BEING_MADE} rooms answered")
        for i, reply in made.items():
            check(reply.HasField("view") and reply.view.summary.name == f"r{i}", f"room r{i}: {reply}")
        made_on_loop = [p for p in loop_made_dirs(ann) if p.startswith(rooms_dir + "/")]
        check(not made_on_loop, f"the loop made rooms' directories itself: {made_on_loop}")

        # One whose deadline passes while the disk stalls is never made.
        open(stall, "w").close()
        maker.send(api_pb2.Request(
            version=1, request_id=999, deadline_ms=int(time.monotonic() * 1000) + 300,
            host=api_pb2.HostRequest(name="late", mode=common_pb2.RoomMode(players=2))).SerializeToString())
        time.sleep(0.6)
        os.remove(stall)
        late = replies(1, 10).get(999)
        check(late is not None and late.HasField("error") and late.error.code == common_pb2.ERROR_CODE_EXPIRED,
              f"the late room: {late}")

        # On the disk: a restart hosts every room made, and not the late one.
        ann.kill(signal.SIGKILL)
        ann.start()
        listed = sorted(r.name for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms)
        check(listed == sorted(["first"] + [f"r{i}" for i in range(1, MAX_ROOMS_BEING_MADE + 1)]),
              f"rooms after a restart: {listed}")


def a_fold_makes_no_file_on_the_loop():
    """Every new game folds the room's log, and its file follows: the folded log is a new file,
    written by the disk helper, not the loop (on a busy ext4 or an SD card a new file can take
    milliseconds, which every room would wait for); the loop appends the events logged meanwhile
    and renames it into place. Two easy bots play three-move games one after another: no fold
    makes a file on the loop, the log file holds one game, not all of them, and a kill -9 at any
    moment leaves the room whole, with a record of every game."""
    with Cluster("fold") as c:
        ann = spied(c, "ann")
        # 150 ms between games: the record of each is on the disk before the next one starts, so
        # each new game's fold is written (a fold waits for the records of the games it drops).
        out = ann.cli("host", "folds", "--spectate", "--bots", "2", "--bot-level", "easy", "--move-limit",
                      "3", "--next-game-ms", "150", "--json")
        check(out.returncode == 0, f"host: rc {out.returncode} {out.stderr}")
        room_dir = os.path.join(ann.state_dir, "rooms", json.loads(out.stdout)["summary"]["room_id"])
        log = os.path.join(room_dir, "events")

        def games_recorded():
            listed = ann.cli("records", "--json")
            return len(json.loads(listed.stdout).get("records", [])) if listed.returncode == 0 else 0

        sizes = []
        for games in (5, 10, 15, 20):
            wait_until(lambda: games_recorded() >= games, 30, f"{games} games of the bots")
            sizes.append(os.path.getsize(log))
        made = [p for p in loop_calls(ann, "create") if p.startswith(room_dir)]
        check(not made, f"the loop made files in the room's directory: {made}")
        folded = [p for p in helper_calls(ann, "create") if p.startswith(os.path.join(room_dir, "events.folded"))]
        check(len(folded) >= 10, f"the helper wrote {len(folded)} folded logs in 20 games: {folded[:3]}")
        renamed = [p for p in loop_calls(ann, "rename") if p.startswith(room_dir)]
        check(renamed and all(p == os.path.join(room_dir, "events.folded") for p in renamed),
              f"the loop renamed other files of the room: {sorted(set(renamed))}")
        # One game's events (about 20 records), not twenty games' (about 400).
        check(max(sizes) < 8000, f"the log file grows with the games: {sizes} bytes")

        for pause in (0, 0.003, 0.011, 0.027):
            time.sleep(pause)
            before = games_recorded()
            ann.kill(signal.SIGKILL)
            ann.start()
            check(not os.path.exists(os.path.join(room_dir, "events.folded")), "a folded log left after a restart")
            wait_until(lambda: games_recorded() > before, 30, "the bots to play on after a restart")
        listed = json.loads(ann.cli("records", "--json").stdout)["records"]
        games = sorted(r["game"] for r in listed)
        check(games == list(range(1, len(games) + 1)), f"records of games {games}")
        check("not resumed" not in ann.log_tail(400), f"a room was not resumed: {ann.log_tail(40)}")


def a_join_makes_no_file_on_the_loop():
    """A join, a leave and a rejoin replace the room's seat tokens (members) and the keys their
    daemons joined with (keys): each is written in place over the older of its two copies, made
    with the room, so the loop neither creates nor renames a file (on an SD card both wait for
    the file system's journal, and every room with them). After a kill -9 the host has every
    token: the guests' daemons rejoin their seats."""
    with Cluster("joinfiles") as c:
        ann, bob, cat = spied(c, "ann"), c.add("bob"), c.add("cat")
        room_id = host_room(ann, "den", players=4).summary.room_id
        room_dir = os.path.join(ann.state_dir, "rooms", room_id)
        wait_until(lambda: os.path.exists(os.path.join(room_dir, "config")), 5, "the room's files")
        made_before = set(os.listdir(room_dir))
        join_room(bob, ann, "den")
        join_room(cat, ann, "den")
        out = bob.cli("leave", "-r", "den")
        check(out.returncode == 0, f"bob's leave: {out.stderr}")
        join_room(bob, ann, "den")
        made = [p for p in loop_calls(ann, "create", "rename") if p.startswith(room_dir)]
        check(not made, f"the loop made or renamed files of the room for joins: {made}")
        check(set(os.listdir(room_dir)) == made_before, f"files now: {sorted(os.listdir(room_dir))}")
        members = [open(os.path.join(room_dir, f)).read() for f in ("members", "members.b")]
        check(all(m.startswith("# copy ") for m in members), f"the members copies: {members}")

        ann.kill(signal.SIGKILL)
        ann.start()
        for d in (bob, cat):
            wait_until(lambda: d.api().view("den").connection == api_pb2.CONNECTION_STATE_CONNECTED, 20,
                       f"{d.name} back in its seat after the host's restart")
        seats = {s.name for s in ann.api().view("den").seats if s.name}
        check({"ann", "bob", "cat"} <= seats, f"seats after the restart: {seats}")
        check("not resumed" not in ann.log_tail(400), f"the room was not resumed: {ann.log_tail(40)}")


# HostService's kFoldSinceMax: events a room may log while its folded log is being written.
FOLD_SINCE_MAX = 1000


def a_fold_held_up_by_the_disk_keeps_a_bounded_tail():
    """While the disk helper writes a room's folded log, the loop keeps the events the room logs
    meanwhile, to follow it: at most 1000. Two easy bots with three sets each play on while the
    disk stalls on the room's first folded log (and the helper waits behind it): the room goes
    on (the loop writes the games' records itself rather than wait), past the bound the fold is
    dropped, and once the disk is back it is taken afresh and put in place; a kill -9 then loses
    no event and no game."""
    with Cluster("foldstall") as c:
        ann = spy_on_loop_flushes(Daemon(c, "ann"))
        stall = os.path.join(c.tmp, "stall")
        ann.env["HALMA_DISK_STALL_FLAG"] = stall
        ann.env["HALMA_DISK_STALL_ONLY"] = "events.folded"
        c.daemons.append(ann)
        ann.start()
        open(stall, "w").close()
        out = ann.cli("host", "long", "-p", "2", "--sets", "3", "--spectate", "--bots", "2", "--bot-level", "easy",
                      "--move-limit", "1000", "--next-game-ms", "20", "--json")
        check(out.returncode == 0, f"host: rc {out.returncode} {out.stderr}")
        room_dir = os.path.join(ann.state_dir, "rooms", json.loads(out.stdout)["summary"]["room_id"])
        folded = os.path.join(room_dir, "events.folded")

        def renames():
            return len([p for p in loop_calls(ann, "rename") if p == folded])

        # The first new game's fold stalls on the disk; the room logs on (answering meanwhile).
        wait_until(lambda: any(p == folded for p in helper_calls(ann, "create")), 60,
                   "the helper to start writing the first folded log")
        wait_until(lambda: ann.api().view().seq > 3 * FOLD_SINCE_MAX, 90,
                   f"the room to log {3 * FOLD_SINCE_MAX} events while the disk stalls")
        check(renames() == 0, "a folded log was put in place while the disk stalled")
        os.remove(stall)
        wait_until(lambda: "folded afresh once the disk has written it" in ann.log_tail(300), 30,
                   "the daemon to drop the fold past the bound")
        wait_until(lambda: renames() >= 1, 60, "the log to be folded after the stall")
        size = os.path.getsize(os.path.join(room_dir, "events"))
        check(size < 200_000, f"the log file after the stall: {size} bytes")

        seq = ann.api().view().seq
        ann.kill(signal.SIGKILL)
        ann.start()
        after = ann.api().view()
        check(after.seq >= seq, f"the room came back at event {after.seq}, it had reached {seq}")
        listed = json.loads(ann.cli("records", "--json").stdout)["records"]
        games = sorted(r["game"] for r in listed)
        check(games == list(range(1, len(games) + 1)) and len(games) >= after.game_number - 1,
              f"game {after.game_number}: records of games {games[:3]}...{games[-3:]}")


TESTS = [a_rooms_life_makes_the_loop_flush_nothing, a_room_is_made_off_the_loop, a_fold_makes_no_file_on_the_loop,
         a_fold_held_up_by_the_disk_keeps_a_bounded_tail, a_join_makes_no_file_on_the_loop]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
