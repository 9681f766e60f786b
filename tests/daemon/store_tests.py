"""Issue 12, standing rooms for months; issue 11, rooms hold no file open. Real halmad processes
over 127.0.0.1: every finished game becomes a record (`halma records`, `halma replay`, `halma
analyze record`), a new game compacts the room's log on the host and its replicas, a kill -9
around the compaction loses no record and never leaves the room unloadable, and a host of more
rooms than it may open files saves and resumes every one. Run one with: store_tests.py NAME."""
import json
import os
import random
import re
import signal
import subprocess
import tempfile
import time

from halmatest import (HALMA, Cluster, api_pb2, check, common_pb2, greedy_move, play_to_end, replica_digest, run,
                       views_in_step, wait_until)


def api_move(d, text):
    reply = d.api().move(text)
    check(not reply.HasField("error"), f"{d.name}: move {text} refused: {reply.error.message}")


def view(d):
    return d.api().view()


def back_in_step(host, peer):
    """The peer's daemon rejoined by itself and its replica is the host's room again."""
    def same():
        reply = peer.api().call(view=api_pb2.ViewRequest())
        if reply.HasField("error") or reply.view.connection != api_pb2.CONNECTION_STATE_CONNECTED:
            return None
        there = host.api().call(view=api_pb2.ViewRequest())
        if there.HasField("error") or not all(s.connected for s in there.view.seats if s.name):
            return None
        return reply.view if replica_digest(reply.view) == replica_digest(there.view) else None
    return wait_until(same, 15, f"{peer.name}'s replica to rejoin and match the host")


def records(d):
    out = d.cli("records", "--json")
    check(out.returncode == 0, f"halma records: rc {out.returncode}: {out.stderr}")
    return json.loads(out.stdout).get("records", [])


def events_bytes(d, room_id):
    return os.path.getsize(os.path.join(d.state_dir, "rooms", room_id, "events"))


def vote_new_game(players):
    for d in players:
        reply = d.api().call(action=api_pb2.ActionRequest(vote=common_pb2.VOTE_KIND_NEW_GAME))
        check(not reply.HasField("error"), f"{d.name}: vote refused: {reply.error.message}")


def finished_games_become_records_and_the_log_restarts():
    """Short games (3 moves each) in a room of two daemons: each finished game is a record the
    CLI lists, prints, replays and analyzes, the oldest pruned past records-kept; each new game
    folds the previous one out of the host's log file and snapshot, and bob's replica stays the
    host's room throughout."""
    bad = subprocess.run([os.environ["HALMAD"], "--records-kept", "-1", "--check-config"], capture_output=True,
                         text=True)
    check(bad.returncode == 2 and "records-kept must be 0..1000000" in bad.stderr, f"bad records-kept: {bad}")
    with Cluster("records") as c:
        ann, bob = c.add("ann", extra=["--records-kept", "3"]), c.add("bob")
        room_id = ann.api().ok(host=api_pb2.HostRequest(
            name="standing", mode=common_pb2.RoomMode(players=2, move_limit=3))).view.summary.room_id
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="standing"))
        check(ann.cli("records").stdout.startswith("no records yet (each game's record is kept by the halmad that hosted"),
              "records before any game")
        sizes = []
        for game in range(1, 5):
            play_to_end([ann, bob], 50, api_move, view)
            final = views_in_step([ann, bob], view)[0]
            listed = wait_until(lambda: [r for r in records(ann) if r["game"] == game] and records(ann), 5,
                                f"record of game {game}")
            check(len(listed) == min(game, 3), f"after game {game}: {len(listed)} records kept (records-kept 3)")
            r = listed[-1]
            check(r["room"] == "standing" and r["game"] == game and r["ending"] == "move limit",
                  f"record listed as {r}")
            check(sorted(r["players"]) == ["ann", "bob"] and int(r["moves"]) == 6, f"record {r}")
            sizes.append(events_bytes(ann, room_id))
            if game < 4:
                vote_new_game([ann, bob])
                wait_until(lambda: view(ann).game_number == game + 1, 5, "the next game")
                back_in_step(ann, bob)

        check([r["game"] for r in records(ann)] == [2, 3, 4], "the oldest record was not the one pruned")
        # The list names the players by place, the first first (it went by seat: "bob 2nd, ann 1st").
        line = next(l for l in ann.cli("records").stdout.splitlines() if l.startswith(r["id"]))
        named = re.findall(r"(ann|bob)(?: (\d+)(?:st|nd|rd|th))?", line.split("move limit", 1)[1])
        places = [int(p) if p else 1 << 30 for _, p in named]
        by_json = dict(zip(r["players"], [int(p) for p in r.get("places", [])]))
        check(len(named) == 2 and places == sorted(places)
              and all(by_json.get(n, 0) == (int(p) if p else 0) for n, p in named),
              f"records list {line!r} against {r}")

        # The record as text: it reads, its last position is the room's when the game ended.
        text = ann.cli("records", r["id"])
        check(text.returncode == 0 and text.stdout.startswith('[Format "halma-record 1"]'), f"{text}")
        check('[Ending "move limit"]' in text.stdout and "[Rules " in text.stdout, text.stdout)
        with tempfile.NamedTemporaryFile("w", suffix=".hrec", delete=False) as f:
            f.write(text.stdout)
        try:
            out = subprocess.run([HALMA, "analyze", "record", f.name], capture_output=True, text=True)
            check(out.returncode == 0 and len(out.stdout.splitlines()) == 7, f"analyze record: {out}\n{text.stdout!r}")
            last = subprocess.run([HALMA, "analyze", "record", f.name, "--move", "6"], capture_output=True,
                                  text=True)
            check(last.stdout.strip() == final.position, f"record ends at {last.stdout}, the room at "
                                                         f"{final.position}")
            with open(f.name + ".empty", "w"):
                pass
            bad = subprocess.run([HALMA, "analyze", "record", f.name + ".empty"], capture_output=True, text=True)
            os.unlink(f.name + ".empty")
            check(bad.returncode == 2 and "not a halma record" in bad.stderr, f"{bad}")
            # A device is read no further than its first look (it read /dev/zero until 2.7 GB).
            for cmd in (["analyze", "record", "/dev/zero"], ["replay", "/dev/zero"]):
                endless = subprocess.run([HALMA] + cmd, capture_output=True, text=True, timeout=10)
                check(endless.returncode == 2 and "/dev/zero is not a file" in endless.stderr,
                      f"halma {' '.join(cmd)}: {endless}")
            with open(f.name + ".huge", "wb") as huge:
                huge.truncate(17 << 20)
            over = subprocess.run([HALMA, "analyze", "record", f.name + ".huge"], capture_output=True, text=True)
            os.unlink(f.name + ".huge")
            check(over.returncode == 2 and "is over 16 MiB: not a game record" in over.stderr, f"{over}")
            missing = subprocess.run([HALMA, "analyze", "record", f.name + ".gone"], capture_output=True, text=True)
            check(missing.returncode == 2 and missing.stderr.strip().endswith(": No such file or directory"),
                  f"a record that is not there does not say why: {missing.stderr!r}")
        finally:
            os.unlink(f.name)
        replay = ann.cli("replay", r["id"], "--pace", "0", "--no-colour")
        check(replay.returncode == 0 and len(re.findall(r"\nmove \d/6", replay.stdout)) == 7, f"replay: {replay}")
        check("ended: move limit; places: " in replay.stdout, replay.stdout[-300:])
        # Who played which colours, and who made each move (the board shows only letters); a
        # --from past the end is refused (it started at the last move, rc 0).
        check(re.search(r"\n  (ann|bob): [A-Z] [a-z]+\n", replay.stdout), f"no colours per player: {replay.stdout[:400]}")
        movers = re.findall(r"\nmove \d/6: \S+ \((ann|bob)\)", replay.stdout)
        check(len(movers) == 6 and len(set(movers)) == 2 and all(movers[i] != movers[i + 1] for i in range(5)),
              f"the movers of the replayed moves: {movers}")
        beyond = ann.cli("replay", r["id"], "--from", "7", "--pace", "0")
        check(beyond.returncode == 2 and "--from 7: this game has 6 moves" in beyond.stderr
              and beyond.stdout == "", f"--from 7 (refused before the game's header is printed): {beyond}")
        stepped = subprocess.run([HALMA, "--runtime-dir", ann.runtime_dir, "replay", r["id"], "--no-colour"],
                                 input="\n3\nq\n", capture_output=True, text=True, timeout=30)
        check(stepped.returncode == 0 and "move 1/6" in stepped.stdout and "move 3/6" in stepped.stdout
              and "move 4/6" not in stepped.stdout, f"stepped replay: {stepped.stdout[-400:]}")
        unknown = ann.cli("replay", "0000ffff-9")
        check(unknown.returncode == 1 and "no record 0000ffff-9" in unknown.stderr, f"{unknown}")

        # Compaction: the log of game 4 is no bigger than game 2's, and a new joiner's snapshot
        # holds no move of the games before the current one.
        check(max(sizes[1:]) <= sizes[1] * 1.2, f"events file grew across games: {sizes}")
        seen = view(ann)
        check(seen.game_number == 4 and len(seen.moves) == 6, f"game {seen.game_number}, {len(seen.moves)} moves")
        print(f"4 games, the last 3 records kept; the events file after each game: {sizes} bytes")


def kill9_around_compaction_loses_nothing():
    """The host is killed (SIGKILL) at random moments around the end of a game and the start of
    the next: every time it comes back with the room, a record of every game before the current
    one, and bob's replica back in step."""
    rng = random.Random(12)
    with Cluster("kill9") as c:
        ann, bob = c.add("ann"), c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="standing", mode=common_pb2.RoomMode(players=2, move_limit=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="standing"))
        for _ in range(6):
            v = view(ann)
            if v.summary.phase == common_pb2.PHASE_PLAYING:
                # The last move of the game, then kill at once or a moment later.
                while True:
                    movers = [d for d, w in zip([ann, bob], views_in_step([ann, bob], view)) if w.your_turn]
                    if not movers:
                        break
                    mover = movers[0]
                    w = view(mover)
                    reply = mover.api().move(greedy_move(w))
                    check(not reply.HasField("error"), f"move refused: {reply.error.message}")
                    if view(ann).summary.phase != common_pb2.PHASE_PLAYING:
                        break
            else:
                for d in [ann, bob]:
                    d.api().call(action=api_pb2.ActionRequest(vote=common_pb2.VOTE_KIND_NEW_GAME))
            time.sleep(rng.choice([0, 0, 0.001, 0.005, 0.02]))
            ann.kill(signal.SIGKILL)
            ann.start()
            after = back_in_step(ann, bob)
            want = after.game_number - (1 if after.summary.phase == common_pb2.PHASE_PLAYING else 0)
            games = sorted(r["game"] for r in records(ann))
            check(games == list(range(1, want + 1)), f"game {after.game_number} (phase {after.summary.phase}): "
                                                     f"records of games {games}")
        log = ann.log_tail(400)
        check("not resumed" not in log, f"a room was not resumed: {log}")
        # The daemon stopped after a game's end was in the log but before its record was on disk
        # (the disk helper writes it within moments of the end, so the kill may come first; if
        # not, the file is taken away): the record is made again from the log at start-up.
        if view(ann).summary.phase == common_pb2.PHASE_PLAYING:
            play_to_end([ann, bob], 50, api_move, view)
        game = view(ann).game_number
        ann.kill(signal.SIGKILL)
        kept = os.path.join(ann.state_dir, "records")
        mine = [f for f in os.listdir(kept) if f.endswith(f"-{game}.hrec")]
        check(len(mine) <= 1, f"record files of game {game}: {mine}")
        for f in mine:
            os.remove(os.path.join(kept, f))
        ann.start()
        check(game in [r["game"] for r in records(ann)], f"the record of game {game} was not made again")


def many_rooms_under_the_descriptor_limit():
    """1,100 idle hosted rooms under `prlimit --nofile=1024` (more rooms than the daemon may open
    files): every one is made and saved, and after a restart under the same limit every one is
    back and takes a move."""
    rooms = 1100
    with Cluster("fdlimit") as c:
        d = c.add("host", extra=["--no-mdns"])
        d.kill(signal.SIGTERM)
        plain = d.command
        d.command = lambda: ["prlimit", "--nofile=1024"] + plain()
        d.start()
        api = d.api()
        for i in range(rooms):
            api.ok(host=api_pb2.HostRequest(name=f"r{i}", mode=common_pb2.RoomMode(players=2)))
        check(len(os.listdir(os.path.join(d.state_dir, "rooms"))) == rooms, "not every room is on disk")
        d.kill(signal.SIGTERM)
        d.start()
        listed = d.api().ok(list=api_pb2.ListRequest()).rooms
        names = {r.name for r in listed.rooms}
        check(len(names) == rooms and "r1099" in names, f"{len(names)} rooms after the restart")
        # A room that resumed takes a change (its log is opened on demand and written to).
        reply = d.api().call(action=api_pb2.ActionRequest(room="r7", chat="still here"))
        check(not reply.HasField("error"), f"chat in r7 refused: {reply.error.message}")
        check([l.text for l in d.api().view("r7").chat] == ["still here"], "the chat line is not in r7")
        check("Too many open files" not in d.log_tail(2000), "the daemon ran out of descriptors")


def kill9_right_after_a_restart_vote_keeps_the_record():
    """A new-game vote in the middle of a game ends it ("restarted") and starts the next one in
    the same breath; the host is killed (SIGKILL) at once, before its disk helper's next batch.
    The game that was cut short is no longer the room's current one, so nothing at the restart
    could make its record again: it must have been written before the next game's events were.
    Five times, each kill within a millisecond of the votes' replies."""
    with Cluster("restart-kill") as c:
        ann, bob = c.add("ann"), c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="duel", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="duel"))
        for round_ in range(5):
            before = back_in_step(ann, bob)
            check(before.summary.phase == common_pb2.PHASE_PLAYING, f"round {round_}: not playing")
            for _ in range(2):  # a move each: a game under way
                mover = [d for d, w in zip([ann, bob], views_in_step([ann, bob], view)) if w.your_turn][0]
                api_move(mover, greedy_move(view(mover)))
            vote_new_game([bob, ann])
            ann.kill(signal.SIGKILL)
            ann.start()
            after = back_in_step(ann, bob)
            check(after.game_number == before.game_number + 1,
                  f"round {round_}: game {after.game_number} after the vote in game {before.game_number}")
            kept = {r["game"]: r["ending"] for r in records(ann)}
            check(kept.get(before.game_number) == "restarted",
                  f"round {round_}: records after the kill {kept}, no record of game {before.game_number}")


TESTS = {f.__name__: f for f in [finished_games_become_records_and_the_log_restarts,
                                  kill9_around_compaction_loses_nothing,
                                  kill9_right_after_a_restart_vote_keeps_the_record,
                                  many_rooms_under_the_descriptor_limit]}

if __name__ == "__main__":
    run(TESTS)
