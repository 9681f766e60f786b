"""Which room a player means, as they type it: the join command `halma host` prints, pasted as
printed; a host's address alone; two rooms of one name told apart; and leaving a room whose host
is gone for good. Real halmad processes on 127.0.0.1 driven through the CLI.
Run one with: room_choice_tests.py NAME."""
import signal
import subprocess
import time

import halmatest
from halmatest import Cluster, api_pb2, check, common_pb2, host_room, join_room, run, wait_until


def leave_a_room_whose_host_is_gone():
    """A guest can leave a room whose host is out of reach (switched off, gone home): the room
    goes from its daemon at once, with why, instead of `leave` saying to reconnect and `close`
    saying only the host may close it, and every command without -r asking which room. When the
    host comes back, the guest does not rejoin, and tells the host it left: the seat is free for
    the next to join (it was held for bob, then kept for him for good)."""
    with Cluster("leavegone") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "gone")
        join_room(bob, ann, "gone")
        host_room(bob, "home")
        ann.kill(signal.SIGKILL)
        wait_until(lambda: bob.api().view("gone").connection != api_pb2.CONNECTION_STATE_CONNECTED, 15,
                   "bob to notice the host is gone")
        out = bob.cli("status")
        check(out.returncode != 0 and "several rooms" in out.stderr, f"status in two rooms: {out}")
        out = bob.cli("leave", "-r", "gone")
        check(out.returncode == 0 and "out of reach" in out.stdout, f"leave: rc {out.returncode} {out.stdout!r} {out.stderr!r}")
        names = [r.name for r in bob.api().ok(list=api_pb2.ListRequest()).rooms.rooms]
        check(names == ["home"], f"bob's rooms after leaving: {names}")
        check(bob.cli("status").returncode == 0, "a command without -r still asks which room")
        ann.start()
        wait_until(lambda: not any(s.name == "bob" for s in ann.api().view("gone").seats), 15,
                   f"the host to hear that bob left: {ann.api().view('gone').seats}")
        check(ann.api().view("gone").summary.seats_taken == 1, f"bob's seat is not free: {ann.api().view('gone')}")
        names = [r.name for r in bob.api().ok(list=api_pb2.ListRequest()).rooms.rooms]
        check(names == ["home"], f"bob rejoined a room it left: {names}")


def joining_while_the_host_is_down_says_what_to_do():
    """A join, to play or to watch, at a host that is down says the host is not answering, asks
    whether halmad runs there, and says what comes next, the same way for both: `halma join
    "Office 4" --spectate` from a watcher whose host had gone said only "could not be reached:
    not sent". A member's daemon rejoins by itself; a newcomer is to try again."""
    with Cluster("joindown") as c:
        ann, bob, carl, dave = c.add("ann"), c.add("bob"), c.add("carl"), c.add("dave")
        host_room(ann, "Office 4")
        join_room(bob, ann, "Office 4")
        join_room(carl, ann, "Office 4", spectate=True)
        ann.kill(signal.SIGKILL)
        for d in (bob, carl):
            wait_until(lambda: d.api().view("Office 4").connection != api_pb2.CONNECTION_STATE_CONNECTED, 15,
                       f"{d.name} to notice the host is gone")
        said = {}
        for d, args in [(bob, ["join", "Office 4"]), (carl, ["join", "Office 4", "--spectate"]),
                        (carl, ["join", f"{ann.address}/Office 4", "--spectate"]),
                        (dave, ["join", f"{ann.address}/Office 4"]),
                        (dave, ["join", f"{ann.address}/Office 4", "--spectate"])]:
            out = d.cli(*args)
            typed = f"{d.name}: halma {' '.join(args)}"
            check(out.returncode == 1 and out.stderr.startswith("halma: "), f"{typed}: rc {out.returncode}: {out.stderr!r}")
            check("not sent" not in out.stderr and "is halmad running there" in out.stderr,
                  f"{typed}: not what happened and what to do: {out.stderr!r}")
            member = d is not dave
            check(("rejoins the room by itself" in out.stderr) == member, f"{typed}: what comes next: {out.stderr!r}")
            said[(d.name, "--spectate" in args)] = out.stderr
        # Watching or playing, the same situation is said the same way.
        check(said[("carl", True)] == said[("bob", False)], f"a watcher and a player told apart: {said}")
        check(said[("dave", True)] == said[("dave", False)], f"a newcomer's join to watch and to play: {said}")


def the_printed_join_command_works_pasted():
    """`halma host` prints the command others join with; pasted into a shell as printed, it
    joins, whatever the room is called (spaces, quotes, a dollar sign)."""
    with Cluster("pasted") as c:
        ann, bob = c.add("ann"), c.add("bob")
        for name in ["office six", "ann's $HOME", "plain", "a/b"]:
            out = ann.cli("host", name)
            check(out.returncode == 0, f"host {name!r}: {out.stderr}")
            line = next((l for l in out.stdout.splitlines() if "join with: halma join " in l), None)
            check(line, f"no join command printed: {out.stdout}")
            command = line.split("join with: ", 1)[1]
            joined = subprocess.run(["sh", "-c", command.replace("halma ", f"'{halmatest.HALMA}' --runtime-dir '{bob.runtime_dir}' ", 1)],
                                    capture_output=True, text=True, timeout=30)
            check(joined.returncode == 0 and "joined room" in joined.stdout,
                  f"{command!r} pasted: rc {joined.returncode} {joined.stdout!r} {joined.stderr!r}")
            # The same ADDRESS/NAME names the room to any command (a name with a slash was read
            # at the last one, as ADDRESS/a and b).
            named = bob.cli("status", "-r", f"{ann.address}/{name}")
            check(named.returncode == 0, f"status -r {ann.address}/{name}: {named.stderr!r}")
            check(ann.cli("close", "-r", name, "--force").returncode == 0, f"close {name!r}")
        # An address alone means its only public room; with two, the refusal names them.
        for name in ("north", "south"):
            check(ann.cli("host", name).returncode == 0, f"host {name}")
        out = bob.cli("join", ann.address)
        check(out.returncode == 1 and "2 public rooms: say which" in out.stderr and "north, south" in out.stderr,
              f"join by address alone: {out.returncode} {out.stderr!r}")
        check(out.stderr.count("north") == 1, f"the rooms listed twice: {out.stderr!r}")
        # A name the host has no room of: which host said so ("no room 'x' here" read as the
        # user's own machine).
        out = bob.cli("join", f"{ann.address}/nowhere")
        check(out.returncode == 1 and f"{ann.address}: no room 'nowhere' at this host" in out.stderr,
              f"join at an address with no such room: {out.returncode} {out.stderr!r}")


def two_rooms_of_one_name_are_told_apart():
    """Bob is in ann's room duel and hosts a duel of his own: -r duel names both, with the start
    of each id and where it is, and either is picked by that id start or by ADDRESS/NAME; close
    -r duel closes his own."""
    with Cluster("samename") as c:
        ann, bob = c.add("ann"), c.add("bob")
        theirs = host_room(ann, "duel").summary.room_id
        join_room(bob, ann, "duel")
        ours = host_room(bob, "duel").summary.room_id
        out = bob.cli("status", "-r", "duel")
        check(out.returncode != 0 and theirs[:8] in out.stderr and ours[:8] in out.stderr
              and ann.address in out.stderr and "hosted here" in out.stderr, f"-r duel: {out.stderr!r}")
        for pick, want in [(theirs[:8], theirs), (ours[:8], ours), (f"{ann.address}/duel", theirs),
                           (f"{bob.address}/duel", ours)]:
            view = bob.api().view(pick)
            check(view.summary.room_id == want, f"-r {pick}: room {view.summary.room_id}, not {want}")
        check(bob.cli("board", "-r", f"{ann.address}/duel").returncode == 0, "halma board -r ADDRESS/NAME")
        # The daemon's message tells them apart: no "did you mean `duel`?" to one who typed duel.
        check("did you mean" not in out.stderr and "rooms here" not in out.stderr, f"a typo hint: {out.stderr!r}")
        # Only a room hosted here can be closed: close -r duel closes bob's own (it picked ann's,
        # and said only her daemon could close it).
        out = bob.cli("close", "-r", "duel", "-f")
        check(out.returncode == 0, f"close -r duel: rc {out.returncode} {out.stdout!r} {out.stderr!r}")
        check(all(r.room_id != ours for r in bob.api().ok(status=api_pb2.StatusRequest()).status.hosted),
              "bob's duel still hosted")
        check(bob.api().view(theirs).summary.room_id == theirs, "ann's duel went too")


def watching_several_rooms_says_which():
    """halma watch without -r, in a daemon in two rooms, heads each line with its room's name
    (the events of both were printed mixed, with nothing to say whose)."""
    with Cluster("watchtwo") as c:
        ann = c.add("ann")
        host_room(ann, "alpha")
        host_room(ann, "beta")
        watch = subprocess.Popen([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "watch", "--count", "2",
                                  "--for-ms", "10000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(0.5)  # subscribed
            ann.api().ok(action=api_pb2.ActionRequest(room="alpha", chat="hi"))
            ann.api().ok(action=api_pb2.ActionRequest(room="beta", chat="ho"))
            out, err = watch.communicate(timeout=15)
        finally:
            watch.kill()
        check(out.splitlines() == ["[alpha] ann: hi", "[beta] ann: ho"], f"watch printed {out!r} {err!r}")


def joining_again_as_something_else_is_told():
    """A spectator who runs `halma join` to play, or a player who runs `halma join --spectate`, in
    a room their daemon is in already, is told it is still what it was and how to change (before,
    the join said "joined" and quietly kept the old role). The same join again rejoins."""
    with Cluster("role") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        host_room(ann, "den", players=3)
        where = f"{ann.address}/den"
        check(bob.cli("join", where).returncode == 0, "bob's join")
        check(cat.cli("join", where, "--spectate").returncode == 0, "cat's join to watch")
        out = cat.cli("join", where)
        check(out.returncode != 0 and "you are watching room den: to take a seat, leave it" in out.stderr,
              f"cat asking to play: rc {out.returncode} {out.stdout}{out.stderr}")
        out = bob.cli("join", where, "--spectate")
        check(out.returncode != 0 and "you hold seat 2 in room den" in out.stderr,
              f"bob asking to watch: rc {out.returncode} {out.stdout}{out.stderr}")
        out = ann.cli("join", "den", "--spectate")
        check(out.returncode != 0 and "you hold seat 1 in room den" in out.stderr,
              f"ann, the host, asking to watch: rc {out.returncode} {out.stdout}{out.stderr}")
        out = bob.cli("join", where)
        check(out.returncode == 0 and "seat 2" in out.stdout, f"bob's join again: {out.stdout}{out.stderr}")
        check(cat.cli("leave", "-r", "den").returncode == 0, "cat's leave")
        out = cat.cli("join", where)
        check(out.returncode == 0 and "seat 3" in out.stdout, f"cat's join to play: {out.stdout}{out.stderr}")


def a_full_room_says_how_to_watch_it_as_it_was_reached():
    """cat joins ann's full two-player room by its address: she is told how to watch it with the
    same address, and the command works pasted. The host said "halma join --spectate den", which
    looks for den on the LAN and found no room there. From an office QA pass."""
    with Cluster("full") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        host_room(ann, "den")
        where = f"{ann.address}/den"
        check(bob.cli("join", where).returncode == 0, "bob's join")
        out = cat.cli("join", where)
        told = f"to watch it: halma join --spectate {where}"
        check(out.returncode == 1 and "room den is full (2 seats taken)" in out.stderr and told in out.stderr,
              f"cat's join of the full room: rc {out.returncode} {out.stdout}{out.stderr}")
        out = cat.cli(*told.split(": ", 1)[1].split()[1:])
        check(out.returncode == 0 and "joined room den, watching" in out.stdout,
              f"the command cat was told: rc {out.returncode} {out.stdout}{out.stderr}")
        out = cat.cli("join", where, "--spectate")
        check("to watch it" not in out.stderr, f"a watcher told how to watch: {out.stderr}")


def the_room_list_of_play_takes_what_join_takes():
    """bob, in no room yet, runs halma play: its list of rooms takes HOST:PORT (that host's only
    public room) as `halma join` does, and a /command gets a word on what to type. Both were
    looked up as rooms' names: "no room '127.0.0.1:17460' here or on the LAN", "no room 'help'".
    From an office QA pass."""
    with Cluster("picker") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "den")
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", bob.runtime_dir, "play"], capture_output=True,
                             text=True, timeout=30, input=f"/help\n{ann.address}\n/quit\n")
        check("Type a room's number or name, or HOST[:PORT]/ROOM" in out.stdout and "no room 'help'" not in out.stderr,
              f"/help in the room list: {out.stdout}{out.stderr}")
        check("no room" not in out.stderr, f"the address taken for a name: {out.stderr}")
        check(bob.api().view("den").your_seat == 1, f"bob not seated in den: {out.stdout[-400:]}{out.stderr}")


def a_first_play_offers_a_game_against_the_computer():
    """ann, in no room and with no room to join, runs halma play: it offers a game against the
    computer (c), and c starts one, an easy computer in the other seat, on the board at once. Her
    first halma play ended with "quit, halma host NAME, halma play again", and said rooms of the
    LAN would appear with discovery off. From a family QA pass."""
    with Cluster("firstplay") as c:
        ann = c.add("ann")
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "play"], capture_output=True,
                             text=True, timeout=30, input="c\n/quit\n")
        check("Type c to play against the computer now" in out.stdout, f"no game against the computer offered: {out.stdout}")
        lan_off = ann.api().call(status=api_pb2.StatusRequest()).status.discovery.state != api_pb2.DISCOVERY_STATE_RUNNING
        check(not lan_off or "No rooms on the LAN yet" not in out.stdout,
              f"LAN rooms promised with discovery off: {out.stdout}")
        if lan_off:  # halma rooms said "no rooms here or on the LAN", and that discovery was off
            listed = c.add("cat").cli("rooms")
            check(listed.stdout == "no rooms here\n" and "LAN discovery" in listed.stderr, f"halma rooms: {listed}")
        view = ann.api().view("ann vs computer")
        check(view.your_seat == 0 and view.seats[1].bot and view.seats[1].bot_level == "easy"
              and view.summary.phase == common_pb2.PHASE_PLAYING, f"the game against the computer: {view}")
        check("room ann vs computer" in out.stdout, f"the game not shown: {out.stdout[-600:]}{out.stderr}")
        # Past a room list, a hard one: "c hard".
        bob = c.add("bob")
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", bob.runtime_dir, "play"], capture_output=True,
                             text=True, timeout=30, input="c hard\n/quit\n")
        check(bob.api().view("bob vs computer").seats[1].bot_level == "hard", f"c hard: {out.stdout[-600:]}{out.stderr}")


def a_name_typed_with_spaces_at_its_ends_finds_the_room():
    """`halma host "  spaced  "` makes the room "spaced"; -r "  spaced  " finds it, as it was
    typed to host it ("no room '  spaced  ' on this daemon"). Spaces alone name no room."""
    with Cluster("spaced") as c:
        ann = c.add("ann")
        check(ann.cli("host", "  spaced  ").returncode == 0, "host refused")
        check(ann.cli("host", "other").returncode == 0, "host refused")
        out = ann.cli("status", "-r", "  spaced  ")
        check(out.returncode == 0 and "room spaced" in out.stdout, f"status -r '  spaced  ': {out.stdout}{out.stderr}")
        out = ann.cli("status", "-r", "   ")
        check(out.returncode != 0 and "no room" in out.stderr, f"status -r '   ': {out.stdout}{out.stderr}")


def a_joined_room_is_joined_again_by_its_name():
    """bob is in ann's room family (and her friends room den): `halma join family`, without the
    address, joins it again in his seat, as picking it from halma play's list does (both were
    looked for on the LAN only: "no room 'family' here or on the LAN" while listed as joined).
    From a family QA pass."""
    with Cluster("again") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "family", players=3)
        check(bob.cli("join", f"{ann.address}/family").returncode == 0, "bob's join by address")
        out = bob.cli("join", "family")
        check(out.returncode == 0 and "seat 2" in out.stdout, f"join family again: rc {out.returncode} {out.stdout}{out.stderr}")
        out = ann.cli("host", "den", "--friends")
        code = next((l.split("friends code: ", 1)[1].strip() for l in out.stdout.splitlines() if "friends code: " in l), None)
        check(code, f"no friends code printed: {out.stdout}")
        check(bob.cli("join", f"{ann.address}/{code}").returncode == 0, "bob's join of den by its code")
        out = bob.cli("join", "den")
        check(out.returncode == 0 and "you are in room den already, seat 2" in out.stdout,
              f"join den again: rc {out.returncode} {out.stdout}{out.stderr}")
        out = bob.cli("join", f"{ann.address}/family")  # by address, as README's two players do
        check(out.returncode == 0 and "you are in room family already, seat 2" in out.stdout,
              f"join family again by address: rc {out.returncode} {out.stdout}{out.stderr}")
        # The daemon's own join by the name (as halma play's list sends it) seats him where he sits.
        for name in ("family", "den"):
            again = bob.api().ok(join=api_pb2.JoinRequest(room=name)).view
            check(again.your_seat == 1, f"join {name} again by the API: seat {again.your_seat}")
        seats = [s.name for s in ann.api().view("den").seats]
        check(seats.count("bob") == 1 and not any(n.startswith("bob (") for n in seats), f"den's seats: {seats}")
        out = bob.cli("join", "attic")
        check(out.returncode != 0 and "no room 'attic'" in out.stderr, f"a room nobody has: {out.stdout}{out.stderr}")
        # In two rooms of the name: told apart by address, not "no room 'family'".
        cat = c.add("cat")
        host_room(cat, "family", players=2)
        check(bob.cli("join", f"{cat.address}/family").returncode == 0, "bob's join of cat's family")
        out = bob.cli("join", "family")
        check(out.returncode != 0 and "in 2 rooms called family: say which" in out.stderr
              and f"halma join {ann.address}/family" in out.stderr and f"halma join {cat.address}/family" in out.stderr,
              f"two joined rooms of the name: rc {out.returncode} {out.stdout}{out.stderr}")


run({f.__name__: f for f in [leave_a_room_whose_host_is_gone, a_name_typed_with_spaces_at_its_ends_finds_the_room, a_first_play_offers_a_game_against_the_computer, the_printed_join_command_works_pasted,
                             a_joined_room_is_joined_again_by_its_name,
                             watching_several_rooms_says_which,
                             joining_again_as_something_else_is_told,
                             two_rooms_of_one_name_are_told_apart,
                             joining_while_the_host_is_down_says_what_to_do,
                             a_full_room_says_how_to_watch_it_as_it_was_reached,
                             the_room_list_of_play_takes_what_join_takes]})
