#!/usr/bin/env python3
"""What one machine on the LAN may take of a host, whatever keys and connections it uses (a
red-team QA pass): its share of the peer port's connections, and its budget of new members and
chat lines (docs/protocol.md, Limits). Real halmad processes on 127.0.0.1; the other machines
are other loopback addresses (127.0.0.2...), which the host tells apart as it would machines on
a LAN. Run one with: machine_budget_tests.py NAME."""
import signal
import time

import zmq

from halmatest import Cluster, api_pb2, check, common_pb2, peer_pb2, run, wait_until
from hostile_tests import RawPeer, add_limited, connect_flood, open_fds


def one_machine_cannot_hold_every_connection():
    """One machine opening 600 connections to the peer port of a host limited to 1024 open
    files (512 connections) held every one: then nobody could join, list the rooms or come
    back after a restart (a red-team QA pass). Now one address holds at most a quarter (128);
    the rest is shed, said in the log by address, and meanwhile a player on another machine
    joins, and a seated one whose daemon restarts takes the seat back."""
    with Cluster("machineflood") as c:
        ann = add_limited(c, "ann", peer_timeout_ms=60000)
        bob, carol = c.add("bob"), c.add("carol")
        ann.api().ok(host=api_pb2.HostRequest(name="f", mode=common_pb2.RoomMode(players=3)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="f"))
        idle_fds = open_fds(ann)
        flood = connect_flood(ann.port, 600, source="127.0.0.2")
        wait_until(lambda: "connections from 127.0.0.2 (at most 128 from one machine)" in open(ann.log_path).read(),
                   10, "the host to shed the machine's connections past its share")
        # Shed connections close as libzmq next reads them: the count settles within moments.
        wait_until(lambda: open_fds(ann) - idle_fds <= 128 + 16, 10,
                   f"the host to hold at most 128 descriptors for one machine's flood (now {open_fds(ann) - idle_fds})")
        held = open_fds(ann) - idle_fds
        carol.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="f"))
        bob.kill(signal.SIGKILL)
        bob.start()

        def back():
            r = bob.api().call(view=api_pb2.ViewRequest())
            return not r.HasField("error") and r.view.connection == api_pb2.CONNECTION_STATE_CONNECTED
        wait_until(back, 20, "bob to rejoin his seat while the flood holds on")
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        for s in flood:
            s.close()
        print(f"600 connections from 127.0.0.2: the host holds {held} descriptors more; carol joined, bob came back")


def one_machine_churning_members_is_held_to_its_budget():
    """A script on one machine that joins as a new member, says ten lines (a new member's
    whole chat allowance) and leaves, again and again, with a fresh key each time: it posted
    4,400 lines a second and made the host write 250 MB a minute (a red-team QA pass). Now what
    one machine adds is held to its address's budget (100 new members at once, then one a
    second; 50 chat lines, then three a second), refused with words that say so, while a
    player on another machine joins and chats as usual."""
    with Cluster("churn") as c:
        ann = c.add("ann")
        bob = c.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="r", mode=common_pb2.RoomMode(players=6)))
        joins = lines = 0
        join_refusals, chat_refusals = set(), set()
        started = time.monotonic()
        for cycle in range(300):  # bounded: 300 cycles of join, ten lines, leave
            # A new connection and key each time, as a script would.
            raw = RawPeer(c, ann, source="127.0.0.2", keys=zmq.curve_keypair())
            reply = raw.ask(join=peer_pb2.JoinRoom(room="r", name=f"churn {cycle}", spectate=True))
            if reply.HasField("joined"):
                joins += 1
                room_id, token = reply.joined.snapshot.config.room_id, reply.joined.token
                for n in range(10):
                    r = raw.command(room_id, token, chat=f"line {n} of {cycle}")
                    if r.HasField("error"):
                        chat_refusals.add(r.error.message)
                    else:
                        lines += 1
                raw.command(room_id, token, leave=peer_pb2.Leave())
            else:
                join_refusals.add(reply.error.message)
            raw.close()
        seconds = time.monotonic() - started
        # Bounds with a second's slack for the refill during the run.
        check(joins <= 100 + seconds + 1, f"{joins} members added in {seconds:.1f} s")
        check(lines <= 50 + 3 * seconds + 3, f"{lines} chat lines in {seconds:.1f} s")
        check(join_refusals and all("too many new members from your machine (127.0.0.2)" in m
                                    for m in join_refusals), f"join refusals: {join_refusals}")
        check(chat_refusals and all("too much chat" in m for m in chat_refusals),
              f"chat refusals: {chat_refusals}")
        # Another machine (bob's daemon, on 127.0.0.1) is not held to that one's budget.
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="r"))
        bob.api().ok(action=api_pb2.ActionRequest(chat="still heard"))
        check(any(l.text == "still heard" for l in ann.api().view().chat), "bob's line did not reach the host")
        check(ann.proc.poll() is None, f"the host died: {ann.log_tail()}")
        print(f"300 cycles from one machine in {seconds:.1f} s: {joins} members added, {lines} chat lines; "
              f"refused: {sorted(join_refusals | chat_refusals)}")


if __name__ == "__main__":
    run({f.__name__: f for f in [one_machine_cannot_hold_every_connection,
                                 one_machine_churning_members_is_held_to_its_budget]})
