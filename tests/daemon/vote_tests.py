"""Whose votes a room waits for: real halmad processes on 127.0.0.1, the CLI as a player types
it. Run one with: vote_tests.py NAME."""
import signal
import time

from halmatest import Cluster, api_pb2, check, common_pb2, host_room, join_room, run, wait_until


def a_blip_does_not_let_a_new_game_throw_the_game_away():
    """ann, bob and cat play; ann and bob vote for a new game, cat has not. cat's daemon dies
    (the cluster holds a seat 30 s): the game goes on, and halma status says who the vote waits
    for. To go on without cat, ann and bob cancel the game, and then their new-game votes
    start the next one at once. The game was thrown away seconds after cat's daemon vanished,
    and game 2 began with cat to move. From an office QA pass."""
    with Cluster("blip") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        room = host_room(ann, "trio", players=3).summary.room_id
        join_room(bob, ann, "trio")
        join_room(cat, ann, "trio")
        wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
        for d in (ann, bob):
            check(d.cli("vote", "new").returncode == 0, f"{d.name}'s vote")
        cat.kill(signal.SIGKILL)
        wait_until(lambda: not next(s for s in ann.api().view(room).seats if s.name == "cat").connected, 10,
                   "ann's daemon to see cat gone")
        time.sleep(1.0)  # the vote had carried by now
        view = ann.api().view(room)
        check(view.game_number == 1 and view.summary.phase == common_pb2.PHASE_PLAYING,
              f"game {view.game_number}, phase {view.summary.phase}: cat's game thrown away while cat was gone")
        status = bob.cli("status").stdout
        check("* vote for a new game: voted you, ann; not yet cat (gone; a computer agrees for them past the hold)"
              in status, f"bob's status:\n{status}")

        for d in (ann, bob):
            check(d.cli("vote", "cancel").returncode == 0, f"{d.name}'s cancel")
        wait_until(lambda: ann.api().view(room).summary.phase == common_pb2.PHASE_CANCELLED, 10, "the cancel")
        for d in (ann, bob):
            check(d.cli("vote", "new").returncode == 0, f"{d.name}'s vote after the cancel")
        wait_until(lambda: ann.api().view(room).game_number == 2, 10, "game 2 without cat's vote")


run({f.__name__: f for f in [a_blip_does_not_let_a_new_game_throw_the_game_away]})
