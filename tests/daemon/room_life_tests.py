"""Integration tests of a room's life on the host's disk: real halmad processes killed mid-game
(SIGKILL) or stopped (SIGTERM) and started again, and rooms closed. Run one with:
room_life_tests.py NAME (ctest does, label `integration`; the tests keep their `daemon.` names)."""
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import time

import zmq

import halmatest
from terminal import Terminal

from halmatest import (Cluster, Daemon, HALMAD, Failure, api_move, api_pb2, check, common_pb2, free_port, greedy_move,
                       host_holding_seats_for, host_room, join_room, peer_pb2, play_one, play_to_end, raw_peer, recv_host, replica_digest, run,
                       views_in_step, wait_until)


def log_of(ctx, host, room):
    """The host's whole log of a room, as a snapshot gives it to a spectator joining (whose own
    join is the last event)."""
    raw = raw_peer(ctx, host)
    raw.send(peer_pb2.PeerMessage(version=1, request_id=1, join=peer_pb2.JoinRoom(
        room=room, name="log reader", spectate=True)).SerializeToString())
    reply = recv_host(raw)
    raw.close()
    check(reply.HasField("joined"), f"a spectator could not join {room}: {reply}")
    return list(reply.joined.snapshot.events)


def back_in_seat(peer, host, room=""):
    """The peer's daemon rejoined by itself: connected, and its replica is the host's room, which
    shows every seated player connected again."""
    def caught_up():
        reply = peer.api().call(view=api_pb2.ViewRequest(room=room))
        if reply.HasField("error") or reply.view.connection != api_pb2.CONNECTION_STATE_CONNECTED:
            return None
        there = host.api().view(room)
        if not all(s.connected for s in there.seats if s.name and not s.bot):
            return None
        return reply.view if replica_digest(reply.view) == replica_digest(there) else None
    return wait_until(caught_up, 15, f"{peer.name}'s daemon to rejoin {room or 'the room'} by itself")


def room_dir(d, room_id):
    return os.path.join(d.state_dir, "rooms", room_id)


def host_restart_resumes_rooms():
    """The host is killed (SIGKILL) mid-game, and again right after acknowledging a move of each
    side: each time it comes back with every accepted event, bob's daemon gets its seat back by
    itself, and the game goes on to its end."""
    with Cluster("restart") as c:
        ann, bob = c.add("ann"), c.add("bob")
        room_id = host_room(ann, "r").summary.room_id
        join_room(bob, ann, "r")
        check(bob.cli("chat", "before", "the", "crash").returncode == 0, "chat refused")
        for _ in range(6):
            play_one([ann, bob])
        before = views_in_step([ann, bob], lambda d: d.api().view())[0]
        bob_seat = bob.api().view().your_seat
        check(stat.S_IMODE(os.stat(room_dir(ann, room_id)).st_mode) == 0o700, "room directory not 0700")

        ann.kill(signal.SIGKILL)
        ann.start()  # the same state directory and port
        back = back_in_seat(bob, ann)
        after = ann.api().view()
        check(back.your_seat == bob_seat, f"bob came back in seat {back.your_seat}, not {bob_seat}")
        check(after.summary.room_id == room_id, "a different room after the restart")
        check(after.seq == before.seq + 2, f"seq {before.seq} before, {after.seq} after: expected 2 more")
        for field in ["position", "moves", "turn_seat", "game_number", "your_seat"]:
            check(getattr(after, field) == getattr(before, field), f"{field} changed over the restart")
        check([(l.seq, l.name, l.text) for l in after.chat] == [(l.seq, l.name, l.text) for l in before.chat],
              "chat changed over the restart")
        check(any(l.text == "before the crash" for l in after.chat), "the chat line was lost")
        log = log_of(c.ctx, ann, room_id)
        bob_member = next(e.joined.member for e in log if e.HasField("joined") and e.joined.name == "bob")
        added = log[before.seq:before.seq + 2]
        check([(e.WhichOneof("body"), e.connection.member, e.connection.connected) for e in added]
              == [("connection", bob_member, False), ("connection", bob_member, True)],
              f"the restart's events: {added}")

        # Killed the moment a move is acknowledged, by a peer's daemon and by the host's own player.
        for mover in [bob, ann]:
            if not mover.api().view().your_turn:
                play_one([ann, bob])
            # The other's move reaches the mover's replica a moment after it is acknowledged.
            v = wait_until(lambda: (lambda view: view if view.your_turn else None)(mover.api().view()), 10,
                           f"{mover.name}'s turn")
            move = greedy_move(v)
            api_move(mover, move)
            ann.kill(signal.SIGKILL)
            ann.start()
            back_in_seat(bob, ann)
            moves = list(ann.api().view().moves)
            check(len(moves) == len(v.moves) + 1, f"{mover.name}'s acknowledged move was lost: {moves[-3:]}")
            check(moves[-1].split("-")[0] == move.split("-")[0] and moves[-1].split("-")[-1] == move.split("-")[-1],
                  f"{mover.name} played {move}, the log has {moves[-1]}")

        played_after = len(ann.api().view().moves)
        moves = play_to_end([ann, bob], 1500, api_move, lambda d: d.api().view())
        final = ann.api().view()
        check(final.summary.phase == common_pb2.PHASE_OVER, "the game did not end")
        check(moves >= 2, f"only {moves} moves after the restarts")
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 5, "replicas equal")
        print(f"3 restarts; {played_after} moves before the last, {moves} after; game over, places "
              f"{[(s.name, s.place) for s in final.standings]}")


def standing_room_survives_sigterm():
    """A standing room of the config file with a computer player: stopped cleanly (SIGTERM) and
    started again, it is the same room (not a second one), bob is back in his seat and the bot
    plays on, asked again if it was its turn. In a room of the host's own player against a bot,
    nobody rejoins to wake the bot: the restart itself must."""
    with Cluster("standing") as c:
        cfg = os.path.join(c.tmp, "pi.toml")
        with open(cfg, "w") as f:
            f.write("[[room]]\nname = 'lunch'\nplayers = 2\nbots = 1\nbot-level = 'hard'\n")
        pi, bob = c.add("pi", extra=["--config", cfg]), c.add("bob")
        room_id = pi.cli_json("rooms")["rooms"][0]["room_id"]
        join_room(bob, pi, "lunch")
        solo_id = host_room(pi, "solo", bots=1, bot_level="hard").summary.room_id

        def turn_of(d, room=""):
            return wait_until(lambda: (v := d.api().view(room)).your_turn and v, 20,
                              f"{d.name}'s turn in {room or 'the room'} (the bot to move)")

        def bobs_turn():
            return turn_of(bob)

        for _ in range(3):
            api_move(bob, greedy_move(bobs_turn()))
            api_move(pi, greedy_move(turn_of(pi, "solo")))
        api_move(bob, greedy_move(bobs_turn()))
        api_move(pi, greedy_move(turn_of(pi, "solo")))
        moves_before = list(bob.api().view().moves)  # the bot is thinking, or has just moved
        solo_before = list(pi.api().view("solo").moves)
        pi.kill(signal.SIGTERM)
        check(pi.proc.returncode == 0, f"halmad exited {pi.proc.returncode} on SIGTERM")
        pi.start()
        rooms = pi.cli_json("rooms")["rooms"]
        check(sorted((r["name"], r["room_id"]) for r in rooms) == [("lunch", room_id), ("solo", solo_id)],
              f"rooms after the restart: {rooms}")
        solo = pi.api().view("solo")
        check(list(solo.moves)[:len(solo_before)] == solo_before, "solo: moves lost over the restart")
        solo_bot_was_to_move = len(solo.moves) == len(solo_before)
        turn_of(pi, "solo")
        resumed = pi.api().view("lunch")
        check(list(resumed.moves)[:len(moves_before)] == moves_before, "moves lost over the restart")
        bot_was_to_move = len(resumed.moves) == len(moves_before)
        back_in_seat(bob, pi, "lunch")
        for _ in range(3):  # the bot moves after the restart: bob's turn keeps coming back
            api_move(bob, greedy_move(bobs_turn()))
        bobs_turn()
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(pi.api().view("lunch")), 5,
                   "replicas equal")
        print(f"resumed at {len(moves_before)} moves; the bot was {'to move' if bot_was_to_move else 'done'}"
              f" when pi stopped ({'to move' if solo_bot_was_to_move else 'done'} in solo); "
              f"{len(bob.api().view().moves)} moves now")


def close_room():
    """The host closes a room: its files are deleted, bob's daemon and front end hear of it and
    drop the room (and its seat), and the host's restart does not bring it back."""
    with Cluster("close") as c:
        ann, bob = c.add("ann"), c.add("bob")
        room_id = host_room(ann, "c").summary.room_id
        kept_id = host_room(ann, "keep", spectate=True).summary.room_id  # ann not in it
        join_room(bob, ann, "c")
        for _ in range(2):
            play_one([ann, bob])
        check(os.path.isdir(room_dir(ann, room_id)), "the room is not on disk")
        seats = os.path.join(bob.state_dir, "seats")
        check(room_id in open(seats).read(), "bob's daemon does not remember its seat")
        bob.api().ok(subscribe=api_pb2.SubscribeRequest(room=room_id))

        out = bob.cli("close", "-r", "c")
        check(out.returncode == 1 and "only its host" in out.stderr, f"bob closed ann's room: {out.stderr}")
        out = ann.cli("close", "-r", "c", "--force")  # a game is in progress
        check(out.returncode == 0 and "closed room c" in out.stdout, f"close: rc {out.returncode} {out.stderr}")
        # They go once the game's record is on the disk (the helper flushes it within moments).
        wait_until(lambda: not os.path.exists(room_dir(ann, room_id)), 5, "the room's files to go")
        check(os.path.isdir(room_dir(ann, kept_id)), "the other room's files went too")

        def heard():
            bob.api().call(status=api_pb2.StatusRequest())  # collects the events that came meanwhile
            return [e for e in bob.api().events if e.event.HasField("closed")]
        closed = wait_until(heard, 5, "bob's front end to hear the room closed")[0]
        check(closed.phase == common_pb2.PHASE_CLOSED and "closed" in closed.text, f"the event: {closed}")
        wait_until(lambda: bob.api().call(view=api_pb2.ViewRequest(room=room_id)).error.code
                   == common_pb2.ERROR_CODE_UNKNOWN_ROOM, 5, "bob's daemon to drop the room")
        check(room_id not in open(seats).read(), "bob's daemon still remembers the seat")
        # Asked afterwards, bob is told what became of it (it was only "in no room").
        out = bob.cli("status")
        check(out.returncode == 1 and "in no room" in out.stderr and "(room c: its host closed it (" in out.stderr,
              f"bob's status after the close: {out.stderr!r}")
        out = bob.cli("status", "-r", "c")
        check(out.returncode == 1 and "no room 'c' on this daemon: its host closed it (" in out.stderr,
              f"bob's status of the closed room: {out.stderr!r}")
        out = ann.cli("board", "-r", "c")
        check(out.returncode == 1, "the host still shows the closed room")

        ann.kill(signal.SIGKILL)
        ann.start()
        rooms = ann.cli_json("rooms")["rooms"]
        check([r["room_id"] for r in rooms] == [kept_id], f"rooms after the restart: {rooms}")
        out = bob.cli("join", f"{ann.address}/c")
        check(out.returncode == 1, "a closed room could be joined after the restart")

        # Damage on disk never stops the daemon: a torn last record is dropped, a room whose
        # config is broken is left out (and left alone), the others load.
        ann.kill(signal.SIGKILL)
        with open(os.path.join(room_dir(ann, kept_id), "events"), "ab") as f:
            f.write(b"\x40\x00\x00\x00\x01\x02")  # a record cut short by the crash
        broken = room_dir(ann, "0123456789abcdef0123456789abcdef")
        shutil.copytree(room_dir(ann, kept_id), broken)
        with open(os.path.join(broken, "config"), "wb") as f:
            f.write(b"\xff\xff not a config")
        ann.start()
        rooms = ann.cli_json("rooms")["rooms"]
        check([r["room_id"] for r in rooms] == [kept_id], f"rooms after damage: {rooms}")
        log = open(ann.log_path).read()
        check("dropped a torn last event" in log and "not resumed: its config does not parse" in log,
              f"the damage is not in the log: {ann.log_tail()}")
        check(os.path.exists(os.path.join(broken, "events")), "the damaged room's files were touched")
        host_room(ann, "after")  # and it goes on hosting


def a_move_just_after_a_host_restart_comes_back():
    """The host restarts (SIGTERM) while it is bob's turn, and bob moves at once, before his
    daemon has noticed (slow heartbeats: a Wi-Fi office's settings). The host takes the move and
    its update reaches bob's daemon on the connection the move came on: his board shows it and
    it is ann's turn. Before, the update went nowhere: bob saw the old board and "your turn"
    until his daemon's peer timeout, and every move he tried from it was refused as illegal."""
    def slow(d):
        def command(base=d.command):
            args = base()
            args[args.index("--heartbeat-ms") + 1] = "2000"
            args[args.index("--peer-timeout-ms") + 1] = "20000"
            return args
        d.command = command
        return d

    with Cluster("restart-move") as c:
        ann, bob = slow(Daemon(c, "ann")), slow(Daemon(c, "bob"))
        c.daemons += [ann, bob]
        ann.start(), bob.start()
        host_room(ann, "r")
        join_room(bob, ann, "r")
        wait_until(lambda: ann.api().view().your_turn, 10, "ann's turn")
        api_move(ann, greedy_move(ann.api().view()))
        view = wait_until(lambda: (v := bob.api().view()).your_turn and v, 10, "bob's turn")
        ann.kill(signal.SIGTERM)
        ann.start()
        move = greedy_move(view)
        api_move(bob, move)
        after = wait_until(lambda: (v := bob.api().view()).seq > view.seq and v, 3,
                           "bob's board to show his move (the host took it)")
        check(not after.your_turn and list(after.moves)[-1].startswith(move.split("-")[0]),
              f"after {move}: your_turn {after.your_turn}, moves {list(after.moves)[-2:]}")
        check(list(ann.api().view().moves) == list(after.moves), "bob's board is not the host's")


def a_joined_room_whose_host_is_gone_says_so():
    """halma rooms, where a player looks first, says when the host of a joined room is out of
    reach: it listed it as "playing, joined" while only halma status said "connecting"."""
    with Cluster("gone") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "porch")
        join_room(bob, ann, "porch")
        out = bob.cli("rooms")
        check(out.returncode == 0 and "joined" in out.stdout and "out of reach" not in out.stdout, out.stdout)
        ann.kill(signal.SIGKILL)
        wait_until(lambda: "host out of reach" in bob.cli("rooms").stdout, 10, "bob's list to say ann is gone")
        check([r["host_out_of_reach"] for r in bob.cli_json("rooms")["rooms"]] == [True], "the API's field")
        # The view's summary and the status say it alike (they said false while the list said true).
        check(bob.api().view("porch").summary.host_out_of_reach, "the view's summary says the host is in reach")
        check([r.host_out_of_reach for r in bob.api().ok(status=api_pb2.StatusRequest()).status.joined] == [True],
              "the status says the host is in reach")
        out = bob.cli("daemon", "status")
        check("joined:" in out.stdout and "not connected to its host now: halma status -r porch says why" in out.stdout,
              f"halma daemon status lists the room as if all were well: {out.stdout}")
        ann.start()
        wait_until(lambda: "out of reach" not in bob.cli("rooms").stdout, 15, "bob's list to see ann back")
        # bob's daemon starts while ann's is down: the seat it holds is listed by the name it
        # had (it was not listed at all, and `halma leave -r porch` found no room), and leaves.
        ann.kill(signal.SIGKILL)
        bob.kill(signal.SIGTERM)
        bob.start()
        out = bob.cli("rooms")
        check("porch" in out.stdout and "host out of reach" in out.stdout, f"bob's list: {out.stdout}")
        # Every other look at the room says which room and why there is nothing to show yet
        # (halma play said "You are in no room yet"; the status, "still connecting to the host
        # of that room"), and play waits for the host, then plays.
        out = bob.cli("daemon", "status")
        check("porch  not heard of yet, host out of reach" in out.stdout, f"bob's daemon status: {out.stdout}")
        out = bob.cli("status")
        check(out.returncode == 1 and f"room porch at {ann.address}" in out.stderr
              and "has not heard from its host" in out.stderr, f"bob's status: {out.stderr}")
        with Terminal(c.tmp, "bob-waits", 80, 24, bob.runtime_dir) as t:
            t.wait_text("Waiting for it (Ctrl-C to stop)")
            ann.start()
            t.wait_text("room porch, game 1")
            t.keys("C-d")
        ann.kill(signal.SIGKILL)
        bob.kill(signal.SIGTERM)
        bob.start()
        out = bob.cli("leave", "-r", "porch")
        check(out.returncode == 0 and "out of reach" in out.stdout + out.stderr, f"leave: {out.stdout}{out.stderr}")
        check("porch" not in bob.cli("rooms").stdout, "the room is still listed after leaving it")


def a_damaged_standing_room_is_named_and_not_doubled():
    """A standing room whose files were damaged: the log names it (not only by its id), and no
    second room of its name is made beside it, which stood there once the files were repaired."""
    with Cluster("damaged") as c:
        cfg = os.path.join(c.tmp, "pi.toml")
        with open(cfg, "w") as f:
            f.write("[[room]]\nname = 'lunch'\nplayers = 3\nbots = 2\n")
        pi = c.add("pi", extra=["--config", cfg])
        room_id = pi.cli_json("rooms")["rooms"][0]["room_id"]
        pi.kill(signal.SIGTERM)
        events = os.path.join(room_dir(pi, room_id), "events")
        good = open(events, "rb").read()
        damaged = bytearray(good)
        for i in range(len(damaged) // 2, len(damaged) // 2 + 4):
            damaged[i] ^= 0xff
        with open(events, "wb") as f:
            f.write(damaged)
        pi.start()
        # The API's socket may be up a moment before the rooms are read (and the log written).
        wait_until(lambda: "not resumed" in pi.log_tail(40), 10, "the damaged room to be refused")
        log = pi.log_tail(40)
        check(f"room lunch {room_id}" in log and "not resumed" in log, f"the damaged room is not named: {log}")
        check("not made anew" in log, f"no word of the standing room: {log}")
        check(pi.cli_json("rooms")["rooms"] == [], f"a room was made beside the damaged one: {pi.cli('rooms').stdout}")
        pi.kill(signal.SIGTERM)
        with open(events, "wb") as f:
            f.write(good)
        pi.start()
        rooms = pi.cli_json("rooms")["rooms"]
        check([r["room_id"] for r in rooms] == [room_id], f"after the repair: {rooms}")


def a_stalled_host_cuts_nobody_off():
    """The host's machine stalls past the peer timeout (SIGSTOP here; a Pi swapping, a suspended
    VM): its players' heartbeats wait unread, and it must not count them gone when it wakes.
    It did, and the first player back carried her pending new-game vote alone."""
    with Cluster("stall") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        room = host_room(ann, "porch", spectate=True).summary.room_id  # a standing room's way
        join_room(bob, ann, "porch")
        join_room(cat, ann, "porch")
        wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
        bob.api().ok(action=api_pb2.ActionRequest(room=room, vote=common_pb2.VOTE_KIND_NEW_GAME))
        for _ in range(2):
            ann.proc.send_signal(signal.SIGSTOP)
            try:
                time.sleep(2.0)  # the peer timeout is 0.7 s
            finally:
                ann.proc.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:  # the players' daemons reconnect meanwhile
                view = ann.api().view(room)
                check(view.game_number == 1, f"bob's vote alone started game {view.game_number}: {ann.log_tail(20)}")
                time.sleep(0.05)
        check("came" in ann.log_tail(60) and "late" in ann.log_tail(60), "the stall is not in the log")


def a_room_closed_while_away_is_dropped():
    """The host closes a room while a member's daemon is stopped: started again, that daemon
    hears from the host that the room is gone, and drops it and its seat. It kept the room as a
    ghost: hidden from its list yet "still connecting", and its host probed every 10 s for good."""
    with Cluster("away") as c:
        ann, bob = c.add("ann"), c.add("bob")
        room_id = host_room(ann, "porch").summary.room_id
        join_room(bob, ann, "porch")
        seats = os.path.join(bob.state_dir, "seats")
        check(room_id in open(seats).read(), "bob's daemon does not remember its seat")
        bob.kill(signal.SIGTERM)
        out = ann.cli("close", "-r", "porch", "--force")
        check(out.returncode == 0, f"close: rc {out.returncode} {out.stderr}")
        bob.start()
        wait_until(lambda: "no longer has it" in bob.log_tail(20), 10, "bob's daemon to hear the room is gone")
        out = bob.cli("status", "-r", room_id)
        check(out.returncode == 1 and "connecting" not in out.stderr and "no room" in out.stderr,
              f"bob's status of the closed room: rc {out.returncode} {out.stdout}{out.stderr}")
        check(room_id not in open(seats).read(), "bob's daemon still remembers the seat")
        check(room_id not in json.dumps(bob.cli_json("rooms")), "the closed room is still in bob's list")
        # Nothing is left to probe: the link to ann closes (its reconnects logged "has key").
        time.sleep(1.5)
        log = open(bob.log_path).read()
        tail = log[log.index("no longer has it"):]
        check(tail.count("has key") == 0, f"bob's daemon goes on probing ann: {tail}")

        # Closed while bob's daemon was out of reach (stopped past the peer timeout, as a laptop
        # off the Wi-Fi): the front end that follows the room hears of it as of a close.
        deck = host_room(ann, "deck").summary.room_id
        join_room(bob, ann, "deck")
        bob.api().ok(subscribe=api_pb2.SubscribeRequest(room=deck))
        bob.proc.send_signal(signal.SIGSTOP)
        try:
            time.sleep(1.5)  # ann's peer timeout is 0.7 s: she drops the link
            out = ann.cli("close", "-r", "deck", "--force")
            check(out.returncode == 0, f"close: rc {out.returncode} {out.stderr}")
        finally:
            bob.proc.send_signal(signal.SIGCONT)

        def heard():
            bob.api().call(status=api_pb2.StatusRequest())  # collects the events that came meanwhile
            return [e for e in bob.api().events if e.event.HasField("closed")]
        closed = wait_until(heard, 10, "bob's front end to hear the room is gone")[0]
        check(closed.phase == common_pb2.PHASE_CLOSED and "closed" in closed.text, f"the event: {closed}")
        check("room deck: its host no longer has it" in bob.log_tail(40), f"not heard on the rejoin: {bob.log_tail(10)}")
        check(bob.api().call(view=api_pb2.ViewRequest(room=deck)).error.code == common_pb2.ERROR_CODE_UNKNOWN_ROOM,
              "bob's daemon still has the closed room")



def what_became_of_closed_rooms_is_kept_bounded():
    """What a daemon says of rooms their hosts closed is kept for the last 8 (PeerLinks::
    kEndedKept): ten closed, the newest is named, the oldest is forgotten (a host that opens and
    closes rooms for ever must not grow a peer's memory)."""
    with Cluster("ended") as c:
        ann, bob = c.add("ann"), c.add("bob")
        names = [f"r{i}" for i in range(10)]
        for name in names:
            host_room(ann, name, spectate=True)
            join_room(bob, ann, name)
        for name in names:
            out = ann.cli("close", "-r", name, "--force")
            check(out.returncode == 0, f"close {name}: {out.stderr}")
        wait_until(lambda: "in no room" in bob.cli("status").stderr, 10, "bob's daemon to drop every room")
        out = bob.cli("status")
        check("(room r9: its host closed it (" in out.stderr, f"the newest closed room: {out.stderr!r}")
        for name, kept in (("r2", True), ("r1", False), ("r0", False)):
            out = bob.cli("status", "-r", name)
            said = f"no room '{name}' on this daemon: its host closed it (" in out.stderr
            check(out.returncode == 1 and said == kept and f"no room '{name}' on this daemon" in out.stderr,
                  f"{name}, {'kept' if kept else 'past the bound'}: {out.stderr!r}")

run({f.__name__: f for f in [host_restart_resumes_rooms, standing_room_survives_sigterm, close_room,
                             a_room_closed_while_away_is_dropped, a_joined_room_whose_host_is_gone_says_so,
                             a_stalled_host_cuts_nobody_off, a_damaged_standing_room_is_named_and_not_doubled,
                             a_move_just_after_a_host_restart_comes_back,
                             what_became_of_closed_rooms_is_kept_bounded]})
