"""What a player's daemon finds when it comes back to a room it held a seat in, and the seat is
no longer there: real halmad processes on 127.0.0.1, the CLI as a player types it.
Run one with: rejoin_tests.py NAME."""
import os
import re
import signal
import time

from halmatest import Cluster, api_pb2, check, common_pb2, host_holding_seats_for, play_one, run, wait_until

GIVEN_AWAY = "was given to another while it was away"


def over_and_bob_gone(c):
    """ann (holding a vanished player's seat 500 ms) hosts fr, a two-player room of one move
    each; bob joins and they play it out. Returns ann, bob, cat and the room's id."""
    ann = host_holding_seats_for(c, "ann", 500)
    bob, cat = c.add("bob"), c.add("cat")
    room = ann.api().ok(host=api_pb2.HostRequest(
        name="fr", mode=common_pb2.RoomMode(players=2, move_limit=1))).view.summary.room_id
    check(bob.cli("join", f"{ann.address}/fr").returncode == 0, "bob's join")
    wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
    play_one([ann, bob])
    play_one([ann, bob])
    wait_until(lambda: ann.api().view(room).summary.phase == common_pb2.PHASE_OVER, 10, "the game to end")
    return ann, bob, cat, room


def a_seat_given_away_while_away_is_dropped():
    """bob's daemon dies after a game in ann's two-player room; past the hold his seat is free,
    and cat takes it. Started again, bob's daemon is refused (the room is full): it drops the
    room and says how to watch it. It kept the room as a ghost: listed as joined, "not heard of
    yet, host out of reach" while ann answered, and asked again every 10 s for good. From an
    office QA pass."""
    with Cluster("givenaway") as c:
        ann, bob, cat, room = over_and_bob_gone(c)
        bob.kill(signal.SIGKILL)
        wait_until(lambda: not ann.api().view(room).seats[1].name, 10, "bob's seat to be free past the hold")
        out = cat.cli("join", f"{ann.address}/fr")
        check(out.returncode == 0, f"cat's join: {out.stdout}{out.stderr}")
        check(ann.api().view(room).seats[1].name == "cat", "cat did not take the seat over")

        bob.start()
        wait_until(lambda: GIVEN_AWAY in bob.log_tail(20), 10, "bob's daemon to hear its seat is gone")
        told = f"To watch it: halma join --spectate {ann.address}/fr"
        check(told in bob.log_tail(20), f"bob's log does not say how to watch: {bob.log_tail(5)}")
        out = bob.cli("status", "-r", room)
        check(out.returncode == 1 and "no room" in out.stderr and "out of reach" not in out.stderr,
              f"bob's status of the room: rc {out.returncode} {out.stdout}{out.stderr}")
        rooms = bob.cli("rooms").stdout
        check("out of reach" not in rooms and "joined" not in rooms, f"bob's room list:\n{rooms}")
        check(room not in open(os.path.join(bob.state_dir, "seats")).read(), "bob's daemon still keeps the seat")
        # Nothing is left to ask ann again and again.
        time.sleep(1.5)
        log = open(bob.log_path).read()
        check(log[log.index(GIVEN_AWAY):].count("went silent") == 0, f"bob's daemon goes on probing: {bob.log_tail(8)}")
        out = bob.cli(*told.split(": ", 1)[1].split()[1:])
        check(out.returncode == 0 and "watching" in out.stdout, f"the command bob was told: {out.stdout}{out.stderr}")


def a_front_end_hears_its_seat_was_given_away():
    """The same while bob's daemon is only out of reach (stopped past the peer timeout and the
    hold, as a laptop off the Wi-Fi), and cat takes the seat meanwhile: the front end following the room hears that bob left it,
    and the room is gone from his daemon."""
    with Cluster("givenaway2") as c:
        ann, bob, cat, room = over_and_bob_gone(c)
        bob.api().ok(subscribe=api_pb2.SubscribeRequest(room=room))
        bob.proc.send_signal(signal.SIGSTOP)
        try:
            wait_until(lambda: not ann.api().view(room).seats[1].name, 10, "bob's seat to be free past the hold")
            out = cat.cli("join", f"{ann.address}/fr")
            check(out.returncode == 0, f"cat's join: {out.stdout}{out.stderr}")
        finally:
            bob.proc.send_signal(signal.SIGCONT)

        def heard():
            bob.api().call(status=api_pb2.StatusRequest())  # collects the events that came meanwhile
            return [e for e in bob.api().events if e.event.HasField("left")]
        left = wait_until(heard, 10, "bob's front end to hear he left")[0]
        check(left.event.left.timed_out and "bob" in left.text, f"the event: {left}")
        check(bob.api().call(view=api_pb2.ViewRequest(room=room)).error.code == common_pb2.ERROR_CODE_UNKNOWN_ROOM,
              "bob's daemon still has the room")
        check(GIVEN_AWAY in bob.log_tail(20), f"bob's log: {bob.log_tail(5)}")


def the_hosts_log_says_who_took_which_seat():
    """ann hosts a three-player room with a computer of its own; bob leaves mid-game and cat
    takes his seat over. The log says a computer stands in for bob, who left, and that cat
    joined: it said every computer, the room's own too, stood in for a player who had left,
    and that cat, new, "rejoined". From an office QA pass."""
    with Cluster("seatlog") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        check(ann.cli("host", "trio", "--players", "3", "--bots", "1", "--bot-level", "easy").returncode == 0,
              "halma host")
        check(bob.cli("join", f"{ann.address}/trio").returncode == 0, "bob's join")
        wait_until(lambda: ann.api().view("trio").game_number == 1, 10, "the game to start")
        out = bob.cli("leave", "-r", "trio")
        check(out.returncode == 0, f"bob's leave: {out.stdout}{out.stderr}")
        wait_until(lambda: "bot for bob plays seat" in ann.log_tail(40), 10, "the log to say a computer took over")
        log = ann.log_tail(60)
        seat = next(s.seat for s in ann.api().view("trio").seats if s.name == "bot for bob") + 1
        check(f"room trio: bot for bob plays seat {seat} (its player left; the next to join takes it over)" in log,
              f"the stand-in's line: {log}")
        check(log.count("plays seat") == 1, f"the room's own computer said to stand in:\n{log}")
        check(cat.cli("join", f"{ann.address}/trio").returncode == 0, "cat's join")
        wait_until(lambda: "joined from peer" in ann.log_tail(5) and "cat" in str(ann.api().view("trio").seats), 10,
                   "cat's join in the log")
        tail = ann.log_tail(10)
        joins = [line for line in tail.splitlines() if "joined from peer" in line]
        check(joins and "rejoined" not in joins[-1], f"cat, new, said to rejoin: {joins}")
        # By name and seat, as the admin knows them (it said "member 4 joined").
        check(f"room trio: cat joined from peer " in joins[-1] and f"(seat {seat}, member " in joins[-1],
              f"cat's join in the host's log: {joins}")


def a_restarted_host_counts_the_seats_it_holds():
    """bob plays in ann's room and cat watches; ann's halmad restarts. Its log counts one seat
    held for its player to rejoin: it counted cat's place too ("2 seat(s) held")."""
    with Cluster("heldlog") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        check(ann.cli("host", "den").returncode == 0, "halma host")
        check(bob.cli("join", f"{ann.address}/den").returncode == 0, "bob's join")
        check(cat.cli("join", f"{ann.address}/den", "--spectate").returncode == 0, "cat's join")
        ann.kill(signal.SIGKILL)
        ann.start()
        said = wait_until(lambda: [line for line in ann.log_tail(20).splitlines() if "resumed room den" in line], 10,
                          "the resumed room in the log")
        check("1 seat held until its player rejoins" in said[-1], f"the log: {said}")


def a_held_seat_shows_its_time_left():
    """bob plays in ann's room (seats held 30 s) and cat watches it; bob's daemon dies. The seat's
    time left is in every view: the host's, cat's replica (from the event) and dan's, who starts
    watching after bob went (from the host's answer to his join), and halma status says it. It
    goes once bob is back. Nothing told the others how long they would wait for him."""
    with Cluster("heldtime") as c:
        ann, bob, cat, dan = c.add("ann"), c.add("bob"), c.add("cat"), c.add("dan")
        check(ann.cli("host", "den").returncode == 0, "halma host")
        check(bob.cli("join", f"{ann.address}/den").returncode == 0, "bob's join")
        check(cat.cli("join", f"{ann.address}/den", "--spectate").returncode == 0, "cat's join")
        bob.kill(signal.SIGKILL)
        seat = wait_until(lambda: (lambda s: s if not s.connected else None)(ann.api().view("den").seats[1]), 10,
                          "ann to see bob gone")
        check(seat.HasField("hold_ms_left") and 20_000 < seat.hold_ms_left <= 30_000,
              f"the host's view of bob's seat: {seat}")
        at_cat = wait_until(lambda: (lambda s: s if not s.connected else None)(cat.api().view("den").seats[1]), 10,
                            "cat's replica to see bob gone")
        check(at_cat.HasField("hold_ms_left") and 20_000 < at_cat.hold_ms_left <= 30_000,
              f"cat's replica of bob's seat: {at_cat}")
        time.sleep(1.5)
        check(dan.cli("join", f"{ann.address}/den", "--spectate").returncode == 0, "dan's join")
        host_left = ann.api().view("den").seats[1].hold_ms_left
        at_dan = dan.api().view("den").seats[1]
        check(at_dan.HasField("hold_ms_left") and host_left - 2_000 <= at_dan.hold_ms_left <= host_left + 500
              and at_dan.hold_ms_left < 29_000, f"dan's replica of bob's seat: {at_dan} (the host: {host_left} ms)")
        status = cat.cli("status", "-r", "den").stdout
        check(re.search(r"seat 2: bob \[vanished; seat held (2\d|30) s more, then a computer keeps it for them\]",
                        status), f"halma status:\n{status}")
        bob.start()
        back = wait_until(lambda: (lambda s: s if s.connected else None)(cat.api().view("den").seats[1]), 15,
                          "bob back at cat's")
        check(not back.HasField("hold_ms_left"), f"a hold left on bob's seat once he is back: {back}")


run({f.__name__: f for f in [a_seat_given_away_while_away_is_dropped, a_front_end_hears_its_seat_was_given_away,
                             the_hosts_log_says_who_took_which_seat, a_restarted_host_counts_the_seats_it_holds,
                             a_held_seat_shows_its_time_left]})
