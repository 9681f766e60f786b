"""Integration tests of a room's turn limit: real halmad processes, a host and a player's daemon
on loopback, the CLI as a player types it. Run one with: turn_limit_tests.py NAME."""
import time

from halmatest import Cluster, api_pb2, common_pb2, check, greedy_move, join_room, run, views_in_step, wait_until


def a_player_who_lets_the_turn_run_out_is_moved_for_and_away():
    """ann hosts a 2-player room with a 2 s turn limit and bob joins; whoever is to move first
    does nothing. Both see the time left going down, then the computer's move for the idle one,
    who is then away; the idle one's own move brings them back (the vote to cancel that an away
    player allows is a_vote_to_cancel_needs_no_one_who_is_away's)."""
    with Cluster("turnlimit") as c:
        ann, bob = c.add("ann"), c.add("bob")
        out = ann.cli("host", "porch", "--turn-limit-s", "2")
        check(out.returncode == 0, f"halma host --turn-limit-s: {out.stderr}")
        join_room(bob, ann, "porch")
        players = [ann, bob]
        views = views_in_step(players, lambda d: d.api().view())
        idle = next(d for d, v in zip(players, views) if v.your_turn)
        other = bob if idle is ann else ann
        for d, v in zip(players, views):
            check(v.summary.mode.turn_limit_s == 2, f"{d.name}'s view: limit {v.summary.mode.turn_limit_s}")
            check(v.HasField("turn_ms_left") and 0 < v.turn_ms_left <= 2000,
                  f"{d.name}'s view: turn_ms_left {v.turn_ms_left if v.HasField('turn_ms_left') else 'unset'}")
        board = other.cli("board").stdout
        check(f"{idle.name}'s turn (" in board and " s left)" in board, f"the other's board:\n{board}")

        # The limit runs out: the computer moves for the idle player, on both daemons.
        started = time.monotonic()
        moved = wait_until(lambda: (v := other.api().view()) and len(v.moves) == 1 and v, 10,
                           "the computer's move for the idle player")
        took = time.monotonic() - started
        check(1.0 < took < 6.0, f"the computer moved {took:.1f} s after the limit's start")
        seat = next(s for s in moved.seats if s.name == idle.name)
        check(seat.away, f"{idle.name} not shown away: {seat}")
        views = views_in_step(players, lambda d: d.api().view())
        check(all(next(s for s in v.seats if s.name == idle.name).away for v in views), "a replica disagrees")
        status = other.cli("status").stdout
        check(f"{idle.name} [away: ran out of time" in status, f"the status:\n{status}")
        # The idle one is told what was played for them; nobody else is.
        played = moved.moves[0]
        mine = idle.api().view()
        check(list(mine.moves_made_for_you) == [played] and mine.moves_made_for_you_count == 1,
              f"{idle.name}'s view: made for them {list(mine.moves_made_for_you)}, the move {played}")
        check(not other.api().view().moves_made_for_you, f"{other.name} told of moves made for them")
        told = idle.cli("status").stdout
        check(f"while you were away the computer played {played} for you; make a move to come back" in told,
              f"{idle.name}'s status:\n{told}")
        check("while you were away" not in status, f"{other.name}'s status:\n{status}")

        # The idle one comes back with a move.
        wait_until(lambda: idle.api().view().your_turn or other.api().view().your_turn, 5, "a turn")
        if other.api().view().your_turn:
            check(other.api().move(greedy_move(other.api().view())).HasField("done"), "the other's move")
        wait_until(lambda: idle.api().view().your_turn, 5, f"{idle.name}'s turn again")
        check(idle.api().move(greedy_move(idle.api().view())).HasField("done"), f"{idle.name}'s own move")
        back = views_in_step(players, lambda d: d.api().view())
        check(not any(s.away for v in back for s in v.seats), f"{idle.name} still away after moving")
        check(not idle.api().view().moves_made_for_you, f"{idle.name} still told of the computer's move")
        print(f"the computer moved for {idle.name} {took:.1f} s into a 2 s turn; away, then back by a move")


def a_vote_to_cancel_needs_no_one_who_is_away():
    """3 players, one lets the turn run out: the two others' cancel votes end the game."""
    with Cluster("turnlimit-cancel") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        ann.api().ok(host=api_pb2.HostRequest(name="den", mode=common_pb2.RoomMode(players=3, turn_limit_s=1)))
        join_room(bob, ann, "den")
        join_room(cat, ann, "den")
        players = [ann, bob, cat]
        views = views_in_step(players, lambda d: d.api().view())
        idle = next(d for d, v in zip(players, views) if v.your_turn)
        others = [d for d in players if d is not idle]
        refused = others[0].api().call(action=api_pb2.ActionRequest(vote=common_pb2.VOTE_KIND_CANCEL))
        check(refused.HasField("error") and "let a turn run out" in refused.error.message,
              f"a cancel vote while everyone is here: {refused}")
        wait_until(lambda: any(s.away for s in ann.api().view().seats), 10, f"{idle.name} away")
        for d in others:
            d.api().ok(action=api_pb2.ActionRequest(vote=common_pb2.VOTE_KIND_CANCEL))
        wait_until(lambda: all(d.api().view().summary.phase == common_pb2.PHASE_CANCELLED for d in players), 5,
                   "the game cancelled on every daemon")
        print(f"{idle.name} away after 1 s; the two others' votes cancelled the game")


def the_clock_is_shown_only_while_the_host_is_heard():
    """A room's limit is in its listing ("30 s a turn"); a joined player sees the time left while
    the host is there, and none once it is gone (it showed "0 s left" for as long as the host
    stayed down)."""
    with Cluster("turnlimit-hostgone") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "porch", "--turn-limit-s", "30").returncode == 0, "host")
        join_room(bob, ann, "porch")
        listed = bob.cli("rooms").stdout
        check("30 s a turn" in listed, f"the listing:\n{listed}")
        check(bob.api().view().HasField("turn_ms_left"), "no time left shown with the host there")
        ann.kill()
        wait_until(lambda: bob.api().view().connection != api_pb2.CONNECTION_STATE_CONNECTED, 10,
                   "bob's daemon to lose the host")
        check(not bob.api().view().HasField("turn_ms_left"), "time left shown with the host gone")
        print("the limit listed; the time left shown only while the host was there")


def a_replicas_clock_runs_on_as_the_hosts():
    """ann's turn in a room with a 60 s limit: bob watches from his daemon. A spectator joining
    3 s into the turn does not start bob's clock again (it showed the full 60 s, while the host's
    ran on), and a daemon joining mid-turn shows the time the host says is left, not a full turn.
    From a review of the turn limit."""
    with Cluster("turnclock") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        check(ann.cli("host", "porch", "--turn-limit-s", "60", "--bots", "1", "--bot-level", "easy").returncode == 0,
              "halma host")
        wait_until(lambda: ann.api().view().your_turn, 10, "ann's turn")
        join_room(bob, ann, "porch", spectate=True)
        time.sleep(3)
        join_room(cat, ann, "porch", spectate=True)
        host_left = ann.api().view().turn_ms_left
        for d in (bob, cat):
            v = wait_until(lambda: (v := d.api().view()).HasField("turn_ms_left") and v, 5, f"{d.name}'s clock")
            check(v.turn_ms_left <= host_left + 1000 and v.turn_ms_left < 58_000,
                  f"{d.name}'s clock shows {v.turn_ms_left} ms left; the host's {host_left}")


if __name__ == "__main__":
    run({f.__name__: f for f in [a_replicas_clock_runs_on_as_the_hosts, a_player_who_lets_the_turn_run_out_is_moved_for_and_away,
                                 a_vote_to_cancel_needs_no_one_who_is_away,
                                 the_clock_is_shown_only_while_the_host_is_heard]})
