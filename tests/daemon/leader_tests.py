"""Issue 13: a room that hides who is in the lead. Real halmad processes on 127.0.0.1 driven
through the halma CLI as a user types it. Run one with: leader_tests.py NAME."""
from halmatest import Cluster, check, greedy_move, play_to_end, replica_digest, run, wait_until


def cli_move(d, room, text):
    out = d.cli("move", "--room", room, text)
    check(out.returncode == 0, f"{d.name}: halma move {text}: rc {out.returncode}: {out.stderr}")


def leader_shown(view):
    """Whatever in a view would tell who leads: the leader, or a ranking of players not yet home."""
    return view.get("leader_seat", -1) >= 0 or any(not s.get("finished") for s in view.get("standings", []))


def hidden_leader_stays_hidden_until_the_end():
    with Cluster("leader") as c:
        ann, bob = c.add("ann"), c.add("bob")
        out = ann.cli("host", "quiet", "--hide-leader", "--move-limit", "12")
        check(out.returncode == 0, f"host: {out.stdout}{out.stderr}")
        out = bob.cli("join", f"{ann.address}/quiet")
        check(out.returncode == 0 and "seat 2" in out.stdout, f"join: {out.stdout}{out.stderr}")
        # The setting travels in the room's config: the replica has it too.
        for d in (ann, bob):
            rooms = d.cli("rooms")
            check("leader hidden" in rooms.stdout, f"{d.name}'s room list does not say so: {rooms.stdout}")
        # A control room on the same daemons, leader shown: proves the checks below can fail.
        check(bob.cli("host", "open", "--move-limit", "12").returncode == 0, "host the control room")
        check(ann.cli("join", f"{bob.address}/open").returncode == 0, "join the control room")
        for _ in range(6):
            for d in (bob, ann):
                v = d.cli_json("board", "--room", "open")
                if v["your_turn"]:
                    cli_move(d, "open", greedy_move(v))
        control = bob.cli_json("board", "--room", "open")
        check(leader_shown(control), f"the control room shows no leader: {control.get('standings')}")
        # Play a few moves in the hidden room: nobody is told who leads, on the host or the replica.
        for _ in range(8):
            for d in (ann, bob):
                v = d.cli_json("board", "--room", "quiet")
                if v["your_turn"] and v["summary"]["phase"] == "PHASE_PLAYING":
                    cli_move(d, "quiet", greedy_move(v))
        for d in (ann, bob):
            v = d.cli_json("board", "--room", "quiet")
            check(v["summary"]["phase"] == "PHASE_PLAYING", f"game not running: {v['summary']}")
            check(len(v["moves"]) >= 4, f"too few moves played to have a leader: {v['moves']}")
            check(v["summary"]["mode"].get("hide_leader") is True, f"{d.name}: setting lost: {v['summary']['mode']}")
            check(not leader_shown(v), f"{d.name}'s view tells who leads: {v.get('leader_seat')} {v.get('standings')}")
            for command in ("status", "board"):
                text = d.cli(command, "--room", "quiet").stdout
                check("in the lead: hidden" in text, f"{d.name}: halma {command} does not say it is hidden:\n{text}")
                check("in the lead: ann" not in text and "in the lead: bob" not in text
                      and "to go after" not in text, f"{d.name}: halma {command} tells who leads:\n{text}")
        # The room can agree to turn it around for this game: one vote is not enough, both are.
        check(ann.cli("vote", "leader", "--room", "quiet").returncode == 0, "ann's leader vote refused")
        wait_until(lambda: "votes to show the leader" in bob.cli("status", "--room", "quiet").stdout, 5,
                   "bob to see ann's vote")
        v = bob.cli_json("board", "--room", "quiet")
        check(not leader_shown(v), f"one vote showed the leader: {v.get('standings')}")
        check(bob.cli("vote", "leader", "--room", "quiet").returncode == 0, "bob's leader vote refused")
        for d in (ann, bob):
            wait_until(lambda: leader_shown(d.cli_json("board", "--room", "quiet")), 5, f"{d.name} to see the leader")
            text = d.cli("status", "--room", "quiet").stdout
            check("in the lead: hidden" not in text and "to go after" in text, f"{d.name}: still hidden:\n{text}")
        # ... and back: hidden again once both agree.
        for d in (bob, ann):
            check(d.cli("vote", "leader", "--room", "quiet").returncode == 0, f"{d.name}'s second leader vote refused")
        for d in (ann, bob):
            wait_until(lambda: not leader_shown(d.cli_json("board", "--room", "quiet")), 5, f"{d.name} to hide it again")
        wait_until(lambda: replica_digest(bob.cli_json("board", "--room", "quiet"))
                   == replica_digest(ann.cli_json("board", "--room", "quiet")), 5, "bob's replica to equal the host")
        # A late spectator's replica, built from the log, agrees too.
        carol = c.add("carol")
        check(carol.cli("join", f"{ann.address}/quiet", "--spectate").returncode == 0, "carol cannot watch")
        seen = carol.cli_json("board", "--room", "quiet")
        check(seen.get("leader_hidden") is True and not leader_shown(seen), f"carol's replica shows the leader: {seen}")
        # At the end (the move limit) the final standings and winners are shown to everyone.
        play_to_end([ann, bob], 100, lambda d, m: cli_move(d, "quiet", m), lambda d: d.cli_json("board", "--room", "quiet"))
        wait_until(lambda: replica_digest(bob.cli_json("board", "--room", "quiet"))
                   == replica_digest(ann.cli_json("board", "--room", "quiet")), 5, "bob's replica to catch up")
        for d in (ann, bob):
            v = d.cli_json("board", "--room", "quiet")
            check(v["summary"]["phase"] == "PHASE_OVER", f"game not over: {v['summary']}")
            places = [s.get("place", 0) for s in v["standings"]]
            check(len(places) == 2 and all(p > 0 for p in places), f"{d.name}: final standings missing: {v['standings']}")
            text = d.cli("status", "--room", "quiet").stdout
            check("standings:" in text and "1." in text and "hidden" not in text,
                  f"{d.name}: halma status at the end:\n{text}")


run({f.__name__: f for f in [hidden_leader_stays_hidden_until_the_end]})
