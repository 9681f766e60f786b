"""Issue 12, standing rooms for months: a room where only computer players sit plays game after
game by itself (after a pause spectators see), each game a record; a room with a person seated
waits for the vote; a game cut short by closing its room is kept as a record. Real halmad
processes over 127.0.0.1. Run one with: bot_room_tests.py NAME."""
import json
import os
import signal
import subprocess
import time

from halmatest import HALMAD, Cluster, api_pb2, check, common_pb2, peer_pb2, greedy_move, replica_digest, run, wait_until


def records(d):
    out = d.cli("records", "--json")
    check(out.returncode == 0, f"halma records: rc {out.returncode}: {out.stderr}")
    return json.loads(out.stdout).get("records", [])


def hosted(d):
    return list(d.api().ok(status=api_pb2.StatusRequest()).status.hosted)


def standing_room(c, text):
    path = os.path.join(c.tmp, "pi.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def games_recorded(d, n, timeout):
    return wait_until(lambda: (kept := records(d)) and len(kept) >= n and kept, timeout,
                      f"{n} records on {d.name}")


def bots_only_room_plays_game_after_game():
    """A standing room of two easy bots (3 moves each a game, a 3 s pause): it plays games 1, 2
    and 3 by itself, each a record, each next game starting only after the pause (the records'
    times say so); a spectator's replica follows; its events file stays one game's size; and a
    kill -9 of the host does not stop it."""
    with Cluster("botroom") as c:
        for bad in ["0", "3600001", "'soon'"]:
            cfg = standing_room(c, f"[[room]]\nname = 'x'\nbots = 2\nnext-game-ms = {bad}\n")
            out = subprocess.run([HALMAD, "--config", cfg, "--check-config"], capture_output=True, text=True,
                                 timeout=20)
            check(out.returncode == 2 and "room x" in out.stderr and ("next game" in out.stderr or "next-game-ms"
                                                                       in out.stderr), f"next-game-ms {bad}: {out}")
        cfg = standing_room(c, "[[room]]\nname = 'watch'\nplayers = 2\nbots = 2\nbot-level = 'easy'\n"
                               "move-limit = 3\nnext-game-ms = 3000\n")
        pi, bob = c.add("pi", extra=["--config", cfg]), c.add("bob")
        room_id = hosted(pi)[0].room_id
        bob.api().ok(join=api_pb2.JoinRequest(address=pi.address, room="watch", spectate=True))
        events = os.path.join(pi.state_dir, "rooms", room_id, "events")
        games_recorded(pi, 1, 60)
        first_size = os.path.getsize(events)
        kept = games_recorded(pi, 3, 90)[:3]
        check([r["game"] for r in kept] == [1, 2, 3], f"records of games {[r['game'] for r in kept]}")
        for r in kept:
            check(r["room"] == "watch" and r["ending"] == "move limit" and int(r["moves"]) == 6,
                  f"record {r}")
            check(sorted(r["players"]) == ["bot", "bot (2)"], f"players of {r}")
        for before, after in zip(kept, kept[1:]):
            # Whole seconds in the records: a 3 s pause is at least 2 s between them.
            gap = int(after["started_ms"]) - int(before["ended_ms"])
            check(gap >= 2000, f"game {after['game']} started {gap} ms after game {before['game']} ended")
        size = os.path.getsize(events)
        check(size <= first_size * 1.5, f"the events file grew from {first_size} to {size} bytes")

        # The spectator's replica is the host's room, at game 3 or later.
        def in_step():
            there, here = pi.api().view("watch"), bob.api().view()
            return here.game_number >= 3 and replica_digest(here) == replica_digest(there)
        wait_until(in_step, 20, "bob's replica to follow the bots' games")

        pi.kill(signal.SIGKILL)
        pi.start()
        after = games_recorded(pi, len(records(pi)) + 1, 60)
        games = [r["game"] for r in after]
        check(games == list(range(1, len(games) + 1)), f"records after the restart: games {games}")
        check("not resumed" not in pi.log_tail(400), "the room was not resumed")
        print(f"games recorded: {games}; events file {first_size} -> {size} bytes")


def a_seated_person_keeps_the_vote():
    """A standing room of bob and an easy bot (a 200 ms pause set): after a game the next one
    waits for bob's vote, however long; once bob has left mid-game, a computer stands in, the game
    ends among computers and the next one starts by itself."""
    with Cluster("botvote") as c:
        cfg = standing_room(c, "[[room]]\nname = 'lunch'\nplayers = 2\nbots = 1\nbot-level = 'easy'\n"
                               "move-limit = 2\nnext-game-ms = 200\n")
        pi, bob = c.add("pi", extra=["--config", cfg]), c.add("bob")
        bob.api().ok(join=api_pb2.JoinRequest(address=pi.address, room="lunch"))

        def play_bob(moves):
            """Bob moves whenever it is his turn, until the game is over or he made `moves`."""
            made = 0
            for _ in range(200):
                v = bob.api().view()
                if v.summary.phase == common_pb2.PHASE_OVER or made == moves:
                    return v
                if v.your_turn:
                    reply = bob.api().move(greedy_move(v))
                    check(not reply.HasField("error"), f"bob's move refused: {reply.error.message}")
                    made += 1
                else:
                    time.sleep(0.02)
            raise AssertionError("the game did not move on")

        wait_until(lambda: bob.api().view().summary.phase == common_pb2.PHASE_PLAYING, 10, "game 1")
        play_bob(100)
        games_recorded(pi, 1, 10)
        time.sleep(2)  # ten times the pause: a bots-only room would have started its next game
        v = pi.api().view("lunch")
        check(v.game_number == 1 and v.summary.phase == common_pb2.PHASE_OVER,
              f"with bob seated, game {v.game_number} phase {v.summary.phase} without his vote")
        bob.api().ok(action=api_pb2.ActionRequest(vote=common_pb2.VOTE_KIND_NEW_GAME))
        wait_until(lambda: pi.api().view("lunch").game_number == 2, 10, "game 2 after bob's vote")

        wait_until(lambda: bob.api().view().your_turn, 20, "bob's turn in game 2")
        play_bob(1)
        bob.api().ok(action=api_pb2.ActionRequest(leave=peer_pb2.Leave()))
        kept = games_recorded(pi, 3, 60)
        check([r["game"] for r in kept[:3]] == [1, 2, 3], f"records {kept}")
        # Both who moved for the seat are credited: bob's move, then the stand-in's.
        check("bob / bot for bob" in kept[1]["players"] and kept[1]["ending"] == "move limit",
              f"game 2 finished by a stand-in: {kept[1]}")
        check(pi.api().view("lunch").game_number >= 3, "the room of computers did not go on")


def closing_mid_game_keeps_the_record():
    """Ann closes her room two moves into a game: the game is a record ("room closed", places
    undecided, both moves), it reads and replays, and it outlives the room across a restart."""
    with Cluster("closerec") as c:
        ann, bob = c.add("ann"), c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="c", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="c"))
        for _ in range(2):
            mover = wait_until(lambda: next((d for d in (ann, bob) if d.api().view().your_turn), None), 10,
                               "someone's turn")
            reply = mover.api().move(greedy_move(mover.api().view()))
            check(not reply.HasField("error"), f"move refused: {reply.error.message}")
        wait_until(lambda: len(bob.api().view().moves) == 2, 5, "bob's replica to have both moves")
        check(records(ann) == [], "a record before any game ended")
        out = ann.cli("close", "-r", "c", "--force")
        check(out.returncode == 0, f"close: rc {out.returncode} {out.stderr}")
        kept = records(ann)
        check(len(kept) == 1, f"records after the close: {kept}")
        r = kept[0]
        check(r["ending"] == "room closed" and int(r["moves"]) == 2 and r["room"] == "c",
              f"the record of the closed game: {r}")
        check(all(int(p) == 0 for p in r.get("places", [0, 0])), f"places of an unfinished game: {r}")
        text = ann.cli("records", r["id"])
        check(text.returncode == 0 and '[Ending "room closed"]' in text.stdout and '[Places "0 0"]' in text.stdout,
              f"{text.stdout}{text.stderr}")
        replay = ann.cli("replay", r["id"], "--pace", "0", "--no-colour")
        check(replay.returncode == 0 and "ended: room closed" in replay.stdout, f"replay: {replay}")
        ann.kill(signal.SIGTERM)
        ann.start()
        check([x["id"] for x in records(ann)] == [r["id"]], "the record did not outlive the room")
        check(not hosted(ann), "the closed room came back")


def bots_only_room_keeps_the_pace():
    """bot-pace-ms spaces the moves of a room where only computers sit, so spectators can follow
    (and a Pi's disk is not written as fast as easy bots play): with 1000 ms, a game of 6 easy
    moves lasts at least 4 s by its record's whole-second times; the same room on a daemon
    without a pace plays its game in well under that, so the check can fail. A bad value is
    refused by name."""
    with Cluster("botpace") as c:
        for bad in ["-1", "60001", "'slow'"]:
            cfg = standing_room(c, f"bot-pace-ms = {bad}\n")
            out = subprocess.run([HALMAD, "--config", cfg, "--check-config"], capture_output=True, text=True,
                                 timeout=20)
            check(out.returncode == 2 and "bot-pace-ms" in out.stderr, f"bot-pace-ms {bad}: {out}")
        room = ("[[room]]\nname = 'watch'\nplayers = 2\nbots = 2\nbot-level = 'easy'\n"
                "move-limit = 3\nnext-game-ms = 1000\n")
        paced = c.add("paced", extra=["--config", standing_room(c, "bot-pace-ms = 1000\n" + room)])
        quick = c.add("quick", extra=["--config", standing_room(c, room)])
        fast = games_recorded(quick, 2, 60)
        slow = games_recorded(paced, 2, 90)
        for r in slow[:2]:
            took = int(r["ended_ms"]) - int(r["started_ms"])
            check(int(r["moves"]) == 6 and took >= 4000, f"a paced game took {took} ms: {r}")
        took = [int(r["ended_ms"]) - int(r["started_ms"]) for r in fast[:2]]
        check(min(took) < 4000, f"games without a pace took {took} ms: the check above could not fail")


TESTS = {f.__name__: f for f in [bots_only_room_plays_game_after_game, a_seated_person_keeps_the_vote,
                                  closing_mid_game_keeps_the_record, bots_only_room_keeps_the_pace]}

if __name__ == "__main__":
    run(TESTS)
