"""What a front end is told of this daemon's rooms: a status request and the room list made from
summaries kept between requests (issue 11), and a followed room list sent again when one of this
daemon's own rooms changes. Real halmad processes on 127.0.0.1.
Run one with: room_list_tests.py NAME."""
import time

import halmatest
from halmatest import Cluster, api_pb2, check, common_pb2, host_room, join_room, run, wait_until


def status_follows_room_changes():
    """A status request and the room list give the hosted rooms from summaries kept between
    requests (issue 11): each change of a room, a new room and a closed one show in the next
    reply, and a friends room's code in its summary."""
    with Cluster("status") as c:
        ann, bob = c.add("ann"), c.add("bob")

        def hosted():
            return {r.name: r for r in ann.api().ok(status=api_pb2.StatusRequest()).status.hosted}

        host_room(ann, "a")
        host_room(ann, "b", spectate=True)
        before = hosted()
        check(set(before) == {"a", "b"}, f"hosted: {sorted(before)}")
        check(before["a"].seats_taken == 1 and before["a"].phase == common_pb2.PHASE_WAITING,
              f"room a before the join: {before['a']}")
        join_room(bob, ann, "a")
        after = hosted()  # the same request again: the room changed in between
        check(after["a"].seats_taken == 2 and after["a"].phase == common_pb2.PHASE_PLAYING,
              f"room a after bob joined: {after['a']}")
        check(after["b"] == before["b"], f"room b changed by itself: {after['b']}")
        hideout = ann.cli_json("host", "hideout", "--friends", "--spectate")["summary"]
        out = ann.cli("close", "-r", "b")
        check(out.returncode == 0, f"close b: {out.stderr}")
        now = hosted()
        check(set(now) == {"a", "hideout"}, f"hosted after closing b and hosting hideout: {sorted(now)}")
        check(now["hideout"].code == hideout["code"] and now["hideout"].code, f"hideout: {now['hideout']}")
        # The CLI's own reading of the same reply.
        out = ann.cli("daemon", "status")
        check(out.returncode == 0 and "hideout" in out.stdout and " b " not in out.stdout,
              f"daemon status: {out.stdout}")
        # The room list is made from the same summaries: hosted rooms first, then the joined.
        cat = c.add("cat")
        host_room(cat, "porch")
        join_room(ann, cat, "porch")
        listed = ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms
        names = [r.name for r in listed]
        check(sorted(names[:2]) == sorted(now) and names[2:] == ["porch"], f"ann's rooms: {names}")
        by_name = {r.name: r for r in listed}
        check(by_name["a"] == now["a"] and by_name["hideout"].code == hideout["code"],
              f"ann's hosted rooms listed: {listed}")
        check(by_name["porch"].origin == common_pb2.ROOM_ORIGIN_JOINED and by_name["porch"].seats_taken == 2,
              f"porch: {by_name['porch']}")
        # A view says the same of where its room is (the web page marks a hosted room "here").
        check(ann.api().view("porch").summary.origin == common_pb2.ROOM_ORIGIN_JOINED, "porch's view: hosted here")
        check(ann.api().view("a").summary.origin == common_pb2.ROOM_ORIGIN_HOSTED, "a's view: not hosted here")


def lan_list_follows_this_daemons_rooms():
    """A front end following the room list (`halma rooms --watch`, the room picker) is sent it
    again when one of this daemon's own rooms comes, fills, starts or goes, not only when mDNS
    brings news (there is none here: no avahi). At most one list per 250 ms, however busy."""
    with Cluster("lanlist") as c:
        ann, bob = c.add("ann"), c.add("bob")
        watcher = ann.api()
        watcher.ok(subscribe=api_pb2.SubscribeRequest(lan=True))

        def pushed_lists(seconds, until=lambda rooms: False):
            lists, end = [], time.monotonic() + seconds
            while time.monotonic() < end:
                if watcher.sock.poll(50):
                    r = api_pb2.Reply()
                    r.ParseFromString(watcher.sock.recv())
                    if r.request_id == 0 and r.HasField("rooms"):
                        lists.append({room.name: room for room in r.rooms.rooms})
                        if until(lists[-1]):
                            break
            return lists

        def next_list_where(what, predicate):
            lists = pushed_lists(3, predicate)
            check(lists and predicate(lists[-1]), f"no list pushed with {what}")

        next_list_where("the first list", lambda rooms: True)
        other = halmatest.Api(c.ctx, ann.runtime_dir)  # the maker is another front end
        other.ok(host=api_pb2.HostRequest(name="new", mode=common_pb2.RoomMode(players=2)))
        next_list_where("the new room", lambda rooms: "new" in rooms and rooms["new"].seats_taken == 1)
        join_room(bob, ann, "new")
        next_list_where("bob in the room and its game started",
                        lambda rooms: rooms.get("new") and rooms["new"].seats_taken == 2
                        and rooms["new"].phase == common_pb2.PHASE_PLAYING)
        burst_began = time.monotonic()
        for i in range(20):
            other.ok(host=api_pb2.HostRequest(name=f"burst{i}", mode=common_pb2.RoomMode(players=2)))
        lists = pushed_lists(1.5)
        paced = 2 + (time.monotonic() - burst_began) / 0.25
        check(lists and all(f"burst{i}" in lists[-1] for i in range(20)),
              f"the last list after a burst of rooms: {sorted(lists[-1]) if lists else None}")
        check(len(lists) <= paced, f"{len(lists)} lists pushed for 20 rooms made in a burst (at most {paced:.0f})")
        out = ann.cli("close", "-r", "new", "--force")
        check(out.returncode == 0, f"close: {out.stderr}")
        next_list_where("the closed room gone", lambda rooms: "new" not in rooms)


def a_seat_a_newcomer_would_take_is_listed_free():
    """When a player leaves mid-game, a computer plays the seat until a newcomer takes it over:
    the room lists show the seat as free (1/2, not 2/2 as if full), the room list line `halma
    rooms` prints too, and a newcomer does get the seat."""
    with Cluster("standin") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        host_room(ann, "den")
        join_room(bob, ann, "den")
        out = bob.cli("leave", "-r", "den")
        check(out.returncode == 0, f"bob's leave: {out.stderr}")

        def listed():
            rooms = ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms
            return {r.name: r for r in rooms}["den"]

        den = wait_until(lambda: (lambda r: r if r.seats_taken == 1 else None)(listed()), 10,
                         "den listed with bob's seat free")
        check(den.seats == 2 and den.phase == common_pb2.PHASE_PLAYING, f"den: {den}")
        seats = ann.api().view("den").seats
        check(seats[1].bot and seats[1].name == "bot for bob", f"a computer plays bob's seat: {seats}")
        out = ann.cli("rooms")
        check(out.returncode == 0 and "1/2" in out.stdout, f"halma rooms: {out.stdout}")
        view = join_room(cat, ann, "den")
        check(view.your_seat == 1 and view.summary.seats_taken == 2,
              f"cat takes the seat over: seat {view.your_seat}, {view.summary}")


run({f.__name__: f for f in [status_follows_room_changes, lan_list_follows_this_daemons_rooms,
                             a_seat_a_newcomer_would_take_is_listed_free]})
