#!/usr/bin/env python3
"""A front end that stops reading for a while (a blocked UI, a laptop lid, a debugger) beside a
busy room: its replies wait for it and none is lost, the events it missed are said in one event
per room, and one that never reads again costs the daemon a bounded amount (docs/api.md, "When a
front end falls behind"). Real halmad processes on 127.0.0.1. Run one with:
front_end_tests.py NAME."""
import time

import zmq

from halmatest import Api, Cluster, api_pb2, check, common_pb2, greedy_move, peer_pb2, run, wait_until

BEHIND = "a front end is not reading"
HELD_REPLIES = 32  # FrontEndOutbox::kMaxHeldReplies


def busy_room(d):
    """A room where two easy bots play game after game as fast as they can: hundreds of events
    a second."""
    d.api().ok(host=api_pb2.HostRequest(name="busy", spectate=True, bots=2, bot_level="easy",
                                        mode=common_pb2.RoomMode(players=2, next_game_ms=200)))


def log_lines(d, text):
    with open(d.log_path) as f:
        return sum(text in line for line in f)


def stalled_subscriber(c, d):
    """A DEALER that subscribes to every room and then stops reading, until the daemon finds its
    queue full and starts keeping what it sends."""
    sock = c.ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(f"ipc://{d.runtime_dir}/api.sock")
    sock.send(api_pb2.Request(version=1, request_id=1, subscribe=api_pb2.SubscribeRequest()).SerializeToString())
    wait_until(lambda: log_lines(d, BEHIND) > 0, 60, "the daemon to find the front end's queue full")
    return sock


def read_all(sock, want_ids, timeout):
    """Everything the socket is sent until every id in want_ids is answered (or the timeout):
    (replies by id, in order of arrival; events)."""
    replies, events = [], []
    deadline = time.monotonic() + timeout
    while not want_ids <= {r.request_id for r in replies} and time.monotonic() < deadline:
        if not sock.poll(100):
            continue
        while True:
            try:
                frame = sock.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
            reply = api_pb2.Reply()
            reply.ParseFromString(frame)
            (events if reply.HasField("event") else replies).append(reply)
    # What follows the last reply (the missed events' count comes after the replies).
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        if sock.poll(100):
            reply = api_pb2.Reply()
            reply.ParseFromString(sock.recv())
            (events if reply.HasField("event") else replies).append(reply)
    return replies, events


def replies_wait_for_a_front_end_that_reads_late():
    """A subscriber stops reading beside a bots-only room until its queue is full of events,
    then asks for the status, a view and the records: it reads again later and gets every reply,
    each once, then an event with no `event` saying how many of the room's events it missed (the
    room's events are told again from there). Before, the replies were dropped with the events."""
    with Cluster("fe-late") as c:
        ann = c.add("ann", extra=["--bot-pace-ms", "0"])
        busy_room(ann)
        sock = stalled_subscriber(c, ann)
        asks = {10: dict(status=api_pb2.StatusRequest()), 11: dict(view=api_pb2.ViewRequest(room="busy")),
                12: dict(records=api_pb2.RecordsRequest())}
        for request_id, body in asks.items():
            sock.send(api_pb2.Request(version=1, request_id=request_id, **body).SerializeToString())
        time.sleep(1.0)  # still not reading
        replies, events = read_all(sock, set(asks), 30)
        ids = [r.request_id for r in replies if r.request_id in asks]
        check(sorted(ids) == sorted(asks), f"replies to {ids}, asked {sorted(asks)}")
        check(not any(r.HasField("error") for r in replies if r.request_id in asks),
              f"an error: {[r.error.message for r in replies if r.HasField('error')]}")
        view = next(r for r in replies if r.request_id == 11)
        check(view.view.summary.name == "busy", f"the view is of {view.view.summary.name!r}")
        markers = [e for e in events if not e.event.HasField("event") and "missed" in e.event.text]
        check(markers, "no event says that events were missed: "
              + repr([e.event.text for e in events if not e.event.HasField("event")][:5]))
        check("room busy" in markers[0].event.text and "read the view again" in markers[0].event.text,
              f"the missed events are not said of the room: {markers[0].event.text!r}")
        after = [e for e in events[events.index(markers[0]) + 1:] if e.event.HasField("event")]
        check(after, "no event of the room after the count of those missed")
        # It reads now: the room's events come as they happen, and requests are answered at once.
        sock.send(api_pb2.Request(version=1, request_id=20, status=api_pb2.StatusRequest()).SerializeToString())
        replies, _ = read_all(sock, {20}, 10)
        check([r.request_id for r in replies] == [20], f"then: {[r.request_id for r in replies]}")


def a_front_end_that_never_reads_costs_a_bounded_amount():
    """A subscriber that stopped reading sends 100 requests: the daemon keeps the latest 32
    replies for it (FrontEndOutbox::kMaxHeldReplies), drops the older ones and says so in its
    log, and goes on answering other front ends; when the subscriber reads at last, it gets
    exactly those 32, in order."""
    with Cluster("fe-never") as c:
        ann = c.add("ann", extra=["--bot-pace-ms", "0"])
        busy_room(ann)
        sock = stalled_subscriber(c, ann)
        for request_id in range(100, 200):
            sock.send(api_pb2.Request(version=1, request_id=request_id, status=api_pb2.StatusRequest())
                      .SerializeToString())
        wait_until(lambda: log_lines(ann, "does not read its replies") > 0, 20, "the log to say replies were dropped")
        # Another front end is answered meanwhile.
        check(ann.api().ok(status=api_pb2.StatusRequest()).status.hosted, "ann's status, asked by another")
        replies, _ = read_all(sock, set(range(200 - HELD_REPLIES, 200)), 30)
        ids = [r.request_id for r in replies if r.request_id >= 100]
        check(ids == list(range(200 - HELD_REPLIES, 200)), f"replies kept: {ids[:5]}...{ids[-5:]} ({len(ids)})")
        check(ann.proc.poll() is None, "ann exited")


def events_name_who_they_are_about():
    """Events about a member (chat, vote, leave, connection) name them (Event.member_name), and a
    view's seats give each holder's member number: a front end acting on events knew only a
    number, of someone who may be in no view any more."""
    with Cluster("fe-names") as c:
        ann, bob = c.add("ann"), c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="r", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="r"))
        api = ann.api()
        api.ok(subscribe=api_pb2.SubscribeRequest(room="r"))
        view = wait_until(lambda: (v := api.view("r")).seats[1].name and v, 10, "bob's seat")
        seats = {s.name: s.member for s in view.seats}
        check(seats["ann"] and seats["bob"] and seats["ann"] != seats["bob"], f"seat members {seats}")
        bob.api().ok(action=api_pb2.ActionRequest(chat="hello"))
        bob.api().ok(action=api_pb2.ActionRequest(leave=peer_pb2.Leave()))

        def about(kind):
            api.ok(status=api_pb2.StatusRequest())  # events that came meanwhile are kept aside
            return [e for e in api.events if e.event.WhichOneof("body") == kind]
        chat = wait_until(lambda: about("chat"), 10, "the chat event")[0]
        check(chat.member_name == "bob" and chat.event.chat.member == seats["bob"], f"chat event {chat}")
        left = wait_until(lambda: about("left"), 10, "the leave event")[0]
        check(left.member_name == "bob", f"leave event names {left.member_name!r}")
        check(api.view("r").seats[1].member != seats["bob"], "bob still holds his seat in the view")


def a_seated_subscription_skips_rooms_of_computers():
    """ann's daemon hosts a room where two computers play alone, game after game, and a room
    where she plays a computer. A front end subscribed with `seated` (halma play's line for the
    player's other rooms) gets none of the computers' room's events, where one subscribed to
    every room gets hundreds; it gets her own room's, and the event of her joining a room
    hosted later. halma play subscribed to every room, and a host of rooms of bots built and
    sent all their events while it was open."""
    with Cluster("fe-seated") as c:
        ann = c.add("ann")
        busy_room(ann)
        mine = ann.api().ok(host=api_pb2.HostRequest(name="mine", bots=1, bot_level="easy",
                                                     mode=common_pb2.RoomMode(players=2))).view
        busy_id = next(r.room_id for r in ann.api().ok(status=api_pb2.StatusRequest()).status.hosted
                       if r.name == "busy")
        every, seated = Api(c.ctx, ann.runtime_dir), Api(c.ctx, ann.runtime_dir)  # two front ends
        every.ok(subscribe=api_pb2.SubscribeRequest())
        seated.ok(subscribe=api_pb2.SubscribeRequest(seated=True))
        before = len(ann.api().view("mine").moves)
        check(not ann.api().move(greedy_move(mine), "mine").HasField("error"), "ann's move refused")
        wait_until(lambda: len(ann.api().view("mine").moves) >= before + 2, 20, "the computer's answer in mine")
        time.sleep(1)
        late = ann.api().ok(host=api_pb2.HostRequest(name="later", mode=common_pb2.RoomMode(players=2))).view

        def events(api, room_id):
            api.ok(status=api_pb2.StatusRequest())  # the events that came meanwhile are kept aside
            return [e for e in api.events if e.room_id == room_id]
        wait_until(lambda: len(events(every, busy_id)) > 50, 20, "the computers' events to the subscriber of all")
        wait_until(lambda: events(seated, late.summary.room_id), 10, "the room hosted later, to the seated one")
        busy = events(seated, busy_id)
        check(not busy, f"{len(busy)} events of the computers' room sent to a seated subscriber: {busy[:2]}")
        moves = [e for e in events(seated, mine.summary.room_id) if e.event.WhichOneof("body") == "move"]
        check(len(moves) >= 2, f"{len(moves)} move events of ann's own room to the seated subscriber")
        check(any(e.your_turn for e in moves), "no event said it was ann's turn again")
        print(f"every room: {len(events(every, busy_id))} events of the computers' room; seated: none")


if __name__ == "__main__":
    run({f.__name__: f for f in [replies_wait_for_a_front_end_that_reads_late,
                                 a_front_end_that_never_reads_costs_a_bounded_amount,
                                 events_name_who_they_are_about,
                                 a_seated_subscription_skips_rooms_of_computers]})
