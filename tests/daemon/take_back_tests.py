"""Taking back a move (VOTE_KIND_TAKE_BACK): real halmad processes on 127.0.0.1, played through
the API and the halma CLI as a user types it; and a fake host whose take-back does not fit the
game, which the replica refuses. Run one with: take_back_tests.py NAME."""
import signal

from halmatest import Cluster, api_move, api_pb2, check, common_pb2, greedy_move, host_room, join_room, peer_pb2, run, \
    wait_until
from hostile_host_tests import ROOM_ID, FakeHost
from terminal import Terminal


def view(d, room):
    return d.cli_json("board", "--room", room)


def texts(d):
    """The events' texts a subscribed front end on `d` has heard so far."""
    d.api().call(status=api_pb2.StatusRequest())  # collects the events that came meanwhile
    return [e.text for e in d.api().events]


def vote_take_back(d, room):
    out = d.cli("vote", "takeback", "--room", room)
    check(out.returncode == 0, f"{d.name}: halma vote takeback: rc {out.returncode}: {out.stdout}{out.stderr}")
    return out


def a_move_is_taken_back_on_the_host_and_the_replica_and_after_a_restart():
    """Ann (host) and bob (joined) each move; ann asks to take hers back, which waits for bob;
    once he agrees both daemons show the board from before ann's move, no moves, ann to move,
    and say it in words. The host restarted shows the same. A refusal first: bob, before moving,
    has nothing to take back."""
    with Cluster("takeback") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "oops")
        join_room(bob, ann, "oops")
        wait_until(lambda: view(ann, "oops")["summary"]["phase"] == "PHASE_PLAYING", 5, "the game to start")
        for d in (ann, bob):
            d.api().ok(subscribe=api_pb2.SubscribeRequest())
        start = view(ann, "oops")
        check(start["your_turn"], f"ann does not move first: {start.get('turn_seat')}")
        api_move(ann, greedy_move(start))
        wait_until(lambda: view(bob, "oops")["your_turn"], 5, "bob's turn")
        refused = bob.cli("vote", "takeback", "--room", "oops")
        check(refused.returncode == 1 and "no move of your own" in refused.stderr,
              f"bob had nothing to take back: rc {refused.returncode}: {refused.stdout}{refused.stderr}")
        api_move(bob, greedy_move(view(bob, "oops")))
        wait_until(lambda: len(view(bob, "oops").get("moves", [])) == 2, 5, "both moves on bob's replica")
        ann_move = view(ann, "oops")["moves"][0]

        vote_take_back(ann, "oops")
        wait_until(lambda: view(bob, "oops").get("take_back_seat", -1) == 0, 5, "bob to see ann asking")
        status = bob.cli("status", "--room", "oops").stdout
        check(f"take back ann's {ann_move} and the move after it" in status and "halma vote takeback" in status,
              f"bob's status does not say the open vote:\n{status}")
        check(len(view(ann, "oops").get("moves", [])) == 2, "asking alone took something back")
        vote_take_back(bob, "oops")
        for d in (ann, bob):
            wait_until(lambda: not view(d, "oops").get("moves"), 5, f"{d.name}'s view to lose both moves")
            v = view(d, "oops")
            check(v["position"] == start["position"], f"{d.name}: not the board before ann's move: {v['position']}")
            check(v.get("turn_seat", 0) == 0, f"{d.name}: not ann's turn: {v.get('turn_seat')}")
            check(not any(s.get("voted_take_back") for s in v["seats"]), f"{d.name}: the votes stayed: {v['seats']}")
        check(view(ann, "oops")["your_turn"] and not view(bob, "oops")["your_turn"], "ann is not the one to move")
        # The event in words, as halma play and the page say it, on both daemons.
        for d in (ann, bob):
            wait_until(lambda: any(t.startswith(f"ann took back {ann_move} (and bob's reply)") for t in texts(d)), 5,
                       f"{d.name}'s front end to be told: {texts(d)[-3:]}")

        # The host restarted (SIGKILL: only its log on disk) comes back with the taken-back game.
        ann.kill(signal.SIGKILL)
        ann.start()
        wait_until(lambda: view(ann, "oops")["summary"]["phase"] == "PHASE_PLAYING", 10, "the room after the restart")
        v = view(ann, "oops")
        check(v["position"] == start["position"] and not v.get("moves") and v["your_turn"],
              f"the restarted host lost the take-back: {v.get('moves')} {v['position']}")
        # And the game goes on from there on both daemons.
        api_move(ann, greedy_move(v))
        wait_until(lambda: len(view(bob, "oops").get("moves", [])) == 1, 15, "bob to see ann's new move")


def against_a_computer_it_is_at_once_and_takes_its_reply_back():
    """Ann alone against a computer: her take-back needs nobody's agreement and takes back the
    computer's reply too; the event is said in words."""
    with Cluster("takebackbot") as c:
        ann = c.add("ann")
        ann.api().ok(subscribe=api_pb2.SubscribeRequest())
        host_room(ann, "solo", bots=1, bot_level="easy")
        wait_until(lambda: view(ann, "solo")["your_turn"], 10, "ann's turn")
        before = view(ann, "solo")
        api_move(ann, greedy_move(before))
        wait_until(lambda: view(ann, "solo")["your_turn"], 10, "the computer's reply")
        check(len(view(ann, "solo")["moves"]) == len(before.get("moves", [])) + 2, "not one move each")
        ann_move = view(ann, "solo")["moves"][-2]
        vote_take_back(ann, "solo")
        v = view(ann, "solo")
        check(v["position"] == before["position"] and v.get("moves", []) == before.get("moves", []) and v["your_turn"],
              f"not the board before ann's move: {v.get('moves')} vs {before.get('moves')}")
        wait_until(lambda: any(t.startswith(f"ann took back {ann_move} (and the computer's reply)") for t in texts(ann)),
                   5, f"ann's front end to be told: {texts(ann)[-3:]}")


def in_halma_play_takeback_takes_it_back_and_says_so():
    """Ann in `halma play` against a computer types a move, then /takeback: her move and the
    computer's reply are gone, and her screen says so in words."""
    with Cluster("takebackplay") as c:
        ann = c.add("ann")
        host_room(ann, "typo", bots=1, bot_level="easy")
        wait_until(lambda: view(ann, "typo")["your_turn"], 10, "ann's turn")
        before = view(ann, "typo")
        with Terminal(c.tmp, "ann", 100, 30, ann.runtime_dir) as t:
            t.wait_text("your move>")
            t.type_line(greedy_move(before))
            wait_until(lambda: len(view(ann, "typo")["moves"]) == len(before["moves"]) + 2, 10, "the computer's reply")
            mine = view(ann, "typo")["moves"][len(before["moves"])]
            t.type_line("/takeback")
            t.wait_text(f"ann took back {mine} (and the computer's reply)")
            v = view(ann, "typo")
            check(v["moves"] == before["moves"] and v["position"] == before["position"] and v["your_turn"],
                  f"/takeback did not take ann's move back: {v['moves']}")


def a_take_back_larger_than_the_game_is_refused_by_the_replica():
    """A fake host's game of two moves, then MovesTakenBack of 99: the replica refuses it (its
    view keeps both moves, its log says why) and asks for the room again; a take-back of 1
    that then comes is applied (so the refusal is of the count, not of the kind)."""

    class GameHost(FakeHost):
        def snapshot(self, out):
            out.config.CopyFrom(common_pb2.RoomConfig(room_id=ROOM_ID, name="fake", mode=common_pb2.RoomMode(players=2)))
            seq = 0

            def add():
                nonlocal seq
                seq += 1
                return out.events.add(seq=seq, time_ms=1)

            for member in (1, 2):
                e = add()
                e.joined.member, e.joined.name, e.joined.seat = member, ["host", "guest"][member - 1], member - 1
            e = add()
            e.started.game_number, e.started.first_set, e.started.end_when_stuck = 1, 0, True
            e.started.seat_player.extend([0, 1])
            for seat, frm, to in ((0, 111, 102), (1, 6, 14)):  # n1-m5, d1-e5
                e = add()
                e.move.seat, e.move.kind, e.move.to = seat, common_pb2.MOVE_KIND_NORMAL, to
                setattr(e.move, "from", frm)  # a Python keyword
                e.move.path.extend([frm, to])
            self.seq = seq

    with Cluster("takebackhostile") as c:
        victim = c.add("victim")
        host = GameHost(c.ctx)
        host.start()
        try:
            out = victim.cli("join", f"127.0.0.1:{host.port}/fake")
            check(out.returncode == 0, f"join the fake host: {out.stdout}{out.stderr}")
            wait_until(lambda: len(view(victim, "fake").get("moves", [])) == 2, 5, "the fake's two moves")
            check(view(victim, "fake")["moves"] == ["n1-m5", "d1-e5"], f"moves: {view(victim, 'fake')['moves']}")

            def taken_back(count):
                msg = peer_pb2.HostMessage(version=1)
                msg.update.room_id = ROOM_ID
                host.seq += 1
                msg.update.event.seq, msg.update.event.time_ms = host.seq, 2
                msg.update.event.taken_back.count = count
                host.outbox_raw.put(msg)

            taken_back(99)
            wait_until(lambda: "a take-back of 99 moves in a game of 2" in victim.log_tail(200), 5,
                       "the victim to refuse the take-back")
            check(len(view(victim, "fake").get("moves", [])) == 2, "the replica took back moves the game has not")
            # It asks for the room again (a join: the fake sends its snapshot, seq back to 5).
            wait_until(lambda: host.seq == 5, 5, "the victim to ask for the room again")
            taken_back(1)
            wait_until(lambda: view(victim, "fake").get("moves", []) == ["n1-m5"], 5, "a take-back of 1 to apply")
        finally:
            host.stop.set()
            host.join(timeout=5)


if __name__ == "__main__":
    run({f.__name__: f for f in (a_move_is_taken_back_on_the_host_and_the_replica_and_after_a_restart,
                                 against_a_computer_it_is_at_once_and_takes_its_reply_back,
                                 in_halma_play_takeback_takes_it_back_and_says_so,
                                 a_take_back_larger_than_the_game_is_refused_by_the_replica)})
