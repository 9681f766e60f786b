"""Integration tests of a seat whose player is gone: a friends room's seat taken back past the
hold, a seat kept for a vanished player through a host restart, and a leave made while the host
is out of reach, owed to it until it answers. Real halmad processes on 127.0.0.1. Run one with:
seat_hold_tests.py NAME (ctest does, label `integration`; the tests keep their `daemon.` names)."""
import os
import signal

from halmatest import (Cluster, api_pb2, check, common_pb2, free_port, greedy_move, host_holding_seats_for,
                       host_room, join_room, play_one, run, wait_until)


def den_in_play(c):
    """ann (holding a vanished player's seat 500 ms) hosts den, bob joins, and game 1 starts:
    ann, bob and den's room id."""
    ann = host_holding_seats_for(c, "ann", 500)
    bob = c.add("bob")
    room = host_room(ann, "den").summary.room_id
    join_room(bob, ann, "den")
    wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
    return ann, bob, room


def a_friends_room_seat_is_taken_back_past_the_hold():
    """bob's laptop sleeps past the hold in ann's friends room: a computer keeps his seat, and
    when his daemon comes back it takes the seat back. Its rejoin (by room id and token) was
    refused as "no room here", and his daemon then dropped the room as if it had been closed."""
    with Cluster("friendsback") as c:
        ann = host_holding_seats_for(c, "ann", 500)
        bob = c.add("bob")
        view = ann.api().ok(host=api_pb2.HostRequest(name="den", visibility=common_pb2.VISIBILITY_FRIENDS,
                                                     mode=common_pb2.RoomMode(players=2))).view
        room, code = view.summary.room_id, view.summary.code
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room=code))
        wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
        bob.kill(signal.SIGKILL)
        wait_until(lambda: ann.api().view(room).seats[1].name == "bot for bob", 10, "a computer to keep bob's seat")
        check("(bob in den) went silent" in ann.log_tail(40), f"the log does not say whose daemon: {ann.log_tail(8)}")
        wait_until(lambda: "room den: bot for bob plays seat 2" in ann.log_tail(40), 5, "the log to say a computer took over")
        bob.start()
        wait_until(lambda: ann.api().view(room).seats[1].name == "bob", 10, f"bob to take his seat back: {bob.log_tail(8)}")
        check(bob.api().view(room).summary.room_id == room, "bob's daemon lost the room")


def a_seat_kept_for_a_vanished_player_survives_a_host_restart():
    """bob's daemon vanishes past the hold: "bot for bob ... plays seat 2 until they are back".
    Then ann's host restarts. The restarted host had forgotten whose seat the computer kept: bob's
    daemon, back with his token, was refused (the room was full) and he could only watch."""
    with Cluster("keptseat") as c:
        ann, bob, room = den_in_play(c)
        bob.kill(signal.SIGKILL)
        wait_until(lambda: ann.api().view(room).seats[1].name == "bot for bob", 10, "a computer to keep bob's seat")
        ann.kill(signal.SIGTERM)
        ann.start()
        wait_until(lambda: ann.api().view(room).seats[1].name == "bot for bob", 10, "the room back after the restart")
        cat = c.add("cat")
        refused = cat.api().call(join=api_pb2.JoinRequest(address=ann.address, room="den"))
        check(refused.error.code == common_pb2.ERROR_CODE_ROOM_FULL,
              f"a newcomer was given the seat kept for bob: {refused}")
        bob.start()
        wait_until(lambda: ann.api().view(room).seats[1].name == "bob", 10,
                   f"bob to take his seat back after the host's restart: {bob.log_tail(8)}")
        view = bob.api().view(room)
        check(view.summary.room_id == room and view.your_seat == 1, f"bob's daemon does not have his seat: {view}")


def stopped(daemon):
    """The daemon's process stopped (SIGSTOP) for the block: a host that is out of reach (its
    machine asleep, a cut cable) without closing a connection; resumed whatever happens."""
    class Stop:
        def __enter__(self):
            os.kill(daemon.proc.pid, signal.SIGSTOP)

        def __exit__(self, *exc):
            os.kill(daemon.proc.pid, signal.SIGCONT)
    return Stop()


def a_leave_while_the_host_is_out_of_reach_reaches_it_later():
    """bob leaves den while ann's host is out of reach, and is in another room of ann's too. His
    daemon forgot den and never told ann: once she was back, bob's other room kept the link up,
    so ann took him for present; the game waited on his turn for ever, no vote could cancel it,
    and nobody could take his seat. Now ann hears of the leave when she answers again."""
    with Cluster("owedleave") as c:
        ann, bob = c.add("ann"), c.add("bob")
        den = host_room(ann, "den").summary.room_id
        join_room(bob, ann, "den")
        host_room(ann, "porch")
        join_room(bob, ann, "porch")
        wait_until(lambda: ann.api().view(den).game_number == 1, 10, "the game to start")
        with stopped(ann):
            wait_until(lambda: bob.api().view(den).connection != api_pb2.CONNECTION_STATE_CONNECTED, 10,
                       "bob's daemon to lose ann")
            out = bob.cli("leave", "-r", "den")
            check(out.returncode == 0 and "tells the host when it answers again" in out.stdout + out.stderr,
                  f"leave: rc {out.returncode}: {out.stdout}{out.stderr}")
        wait_until(lambda: ann.api().view(den).summary.seats_taken == 1, 15,
                   f"ann to hear bob left (a computer in his seat, open to newcomers): {ann.api().view(den).seats}")
        # bob logs it when ann's answer reaches him, which can come a moment after ann has it.
        wait_until(lambda: "has the leave now" in bob.log_tail(40), 5,
                   "bob's daemon to log that ann has the leave")
        cat = c.add("cat")
        view = join_room(cat, ann, "den")
        check(view.your_seat == 1, f"cat did not get bob's seat: {view}")


def an_owed_leave_outlasts_the_hold_and_a_restart():
    """bob leaves den while ann's host is down, then his daemon stops too. ann comes back, her
    hold for bob runs out, and a computer keeps his seat for him ("until they are back"). When
    bob's daemon starts again it still owes ann the leave, and tells her: the seat is the next
    newcomer's. Before, it stayed kept for bob for good, and a newcomer found the room full."""
    with Cluster("owedleave2") as c:
        ann, bob, den = den_in_play(c)
        ann.kill(signal.SIGKILL)
        wait_until(lambda: bob.api().view(den).connection != api_pb2.CONNECTION_STATE_CONNECTED, 10,
                   "bob's daemon to lose ann")
        check(bob.cli("leave", "-r", "den").returncode == 0, "leave refused")
        bob.kill(signal.SIGKILL)
        with open(os.path.join(bob.state_dir, "seats")) as f:
            seats = f.read()
        check(f" {den} " in seats and " leave den" in seats, f"the leave owed is not kept: {seats!r}")
        ann.start()
        wait_until(lambda: ann.api().view(den).seats[1].name == "bot for bob", 15, "a computer to keep bob's seat")
        cat = c.add("cat")
        full = cat.api().call(join=api_pb2.JoinRequest(address=ann.address, room="den"))
        check(full.error.code == common_pb2.ERROR_CODE_ROOM_FULL, f"the seat kept for bob was given away: {full}")
        bob.start()
        wait_until(lambda: ann.api().view(den).summary.seats_taken == 1, 15,
                   f"ann to hear bob left: {bob.log_tail(8)}")
        view = join_room(cat, ann, "den")
        check(view.your_seat == 1, f"cat did not get bob's seat: {view}")
        check("den" not in bob.cli("rooms").stdout, "bob's daemon has den again")
        with open(os.path.join(bob.state_dir, "seats")) as f:
            check(den not in f.read(), "bob's daemon still owes the leave")


run({f.__name__: f for f in [a_friends_room_seat_is_taken_back_past_the_hold,
                             a_seat_kept_for_a_vanished_player_survives_a_host_restart,
                             a_leave_while_the_host_is_out_of_reach_reaches_it_later,
                             an_owed_leave_outlasts_the_hold_and_a_restart]})
