#!/usr/bin/env python3
"""A request the user was told failed is never carried out later, and one sent again is carried
out once (docs/api.md, "Deadlines and retries"): real halmad processes on 127.0.0.1, the CLI as
typed, daemons stopped with SIGSTOP and restarted."""

import signal
import time

from halma.v1 import api_pb2, common_pb2, peer_pb2
from halmatest import Cluster, check, greedy_move, run, wait_until
from terminal import Terminal


def two_player_room(c):
    """ann hosts, bob joins; returns (ann, bob) once bob's replica is connected."""
    ann, bob = c.add("ann"), c.add("bob")
    ann.api().ok(host=api_pb2.HostRequest(name="r", mode=common_pb2.RoomMode(players=2)))
    bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="r"))
    return ann, bob


def bobs_turn(ann, bob):
    """Plays ann's move if it is hers; returns bob's view on his turn."""
    if ann.api().view().your_turn:
        move = greedy_move(ann.api().view())
        check(ann.cli("move", move).returncode == 0, "ann's move refused")
    return wait_until(lambda: (lambda v: v if v.your_turn else None)(bob.api().view()), 10, "bob's turn")


def move_fails(bob, move, timeout_ms):
    out = bob.cli("--timeout-ms", str(timeout_ms), "move", move, timeout=30)
    check(out.returncode == 1, f"move {move}: rc {out.returncode}: {out.stdout}{out.stderr}")
    return out.stderr


def never_played(ann, bob, moves_before, why):
    """bob's daemon and the host have had the time to play it, and did not; then bob plays the
    very move again, which shows it was playable all along (the check could have failed)."""
    time.sleep(1.5)
    check(list(ann.api().view().moves) == moves_before, f"{why}: the move was played after all")
    wait_until(lambda: bob.api().view().connection == api_pb2.CONNECTION_STATE_CONNECTED, 15, "bob connected")
    move = greedy_move(bob.api().view())
    out = bob.cli("move", move)
    check(out.returncode == 0, f"{why}: the same move now: {out.stderr}")
    check(len(ann.api().view().moves) == len(moves_before) + 1, f"{why}: the move, played now, is missing")


def stopped_player_daemon():
    """bob's own daemon is stopped (SIGSTOP) while he types a move in `halma play`: it tells him
    the move failed; when the daemon goes on (SIGCONT) it reads the request, finds it past its
    deadline and does not play it. (A one-shot `halma move` could not show this: its request
    never leaves it while the daemon cannot complete the ZeroMQ handshake; halma play's
    connection is already up, so its request waits in the daemon's socket.)"""
    with Cluster("stopped-player") as c:
        ann, bob = two_player_room(c)
        view = bobs_turn(ann, bob)
        before = list(ann.api().view().moves)
        with Terminal(c.tmp, "bob", 100, 30, bob.runtime_dir, "--timeout-ms", "1500") as tb:
            tb.wait_for(lambda s: s.split("\n")[-1].startswith("your move>"), "bob's prompt")
            bob.proc.send_signal(signal.SIGSTOP)
            try:
                tb.type_line(greedy_move(view))
                screen = tb.wait_text("did not answer", timeout=15)
            finally:
                bob.proc.send_signal(signal.SIGCONT)
            check("will not carry" in screen, f"the failure does not say the move will not happen:\n{screen}")
            wait_until(lambda: "read after its deadline" in bob.log_tail(200), 10,
                       "bob's daemon to drop the request")
        never_played(ann, bob, before, "player's daemon stopped")


def stopped_host():
    """The host is stopped (SIGSTOP) when bob's move reaches it: bob's daemon answers "no answer"
    at the CLI's deadline; the host, going on, finds the move past its deadline (in its own
    clock) and refuses it."""
    with Cluster("stopped-host") as c:
        ann, bob = two_player_room(c)
        view = bobs_turn(ann, bob)
        before = list(ann.api().view().moves)
        ann.proc.send_signal(signal.SIGSTOP)
        try:
            why = move_fails(bob, greedy_move(view), 1500)
        finally:
            ann.proc.send_signal(signal.SIGCONT)
        check("no answer from the host" in why, f"bob's daemon's message: {why}")
        wait_until(lambda: "came after its deadline" in ann.log_tail(200), 10, "the host to refuse the late move")
        never_played(ann, bob, before, "host stopped")


def a_leave_as_the_host_vanishes_is_done():
    """The host stops answering (SIGSTOP: a machine switched off) just before bob leaves, in the
    seconds before his daemon counts it gone: the leave is done at once all the same, as it is
    once the host is known to be gone, and the host is told when it answers again. It was
    refused "try again once it is running" for those seconds (a front-end author's QA pass)."""
    with Cluster("leave-vanish") as c:
        ann, bob = two_player_room(c)
        ann.proc.send_signal(signal.SIGSTOP)
        try:
            out = bob.cli("--timeout-ms", "1500", "leave", "-r", "r")
        finally:
            ann.proc.send_signal(signal.SIGCONT)
        check(out.returncode == 0 and "left" in out.stdout, f"bob's leave: rc {out.returncode}: {out.stdout} {out.stderr}")
        r = bob.api().call(view=api_pb2.ViewRequest(room="r"))
        check(r.HasField("error"), f"bob's daemon still has the room: {r}")
        wait_until(lambda: "bob" not in [s.name for s in ann.api().view().seats], 20,
                   "the host to hear of bob's leave once it answers again")


def host_restart():
    """The host is killed as bob types a move and comes back after the CLI gave up: the move,
    which could not be sent meanwhile, is not sent when the host is back."""
    with Cluster("restart-move") as c:
        ann, bob = two_player_room(c)
        view = bobs_turn(ann, bob)
        before = list(ann.api().view().moves)
        ann.kill(signal.SIGKILL)
        move_fails(bob, greedy_move(view), 1500)
        ann.start()
        never_played(ann, bob, before, "host restarted")


def retry_carried_out_once():
    """A chat line sent twice with one request key (a front end retrying) is posted once: in a
    room this daemon hosts, and through the peer link in a room hosted elsewhere."""
    with Cluster("retry") as c:
        ann, bob = two_player_room(c)
        for d, key in [(ann, "k-ann-1"), (bob, "k-bob-1")]:
            for _ in range(2):
                reply = d.api().call(action=api_pb2.ActionRequest(chat=f"once from {d.name}"), request_key=key)
                check(not reply.HasField("error"), f"{d.name}: chat refused: {reply.error.message}")
            # A new key is a new line: the check below could fail.
            d.api().ok(action=api_pb2.ActionRequest(chat=f"once from {d.name}"), request_key=key + "b")
            lines = [l.text for l in ann.api().view().chat if l.text == f"once from {d.name}"]
            check(len(lines) == 2, f"{d.name}: {len(lines)} lines for one retried and one new request")


def a_reused_key_is_not_taken_for_another_action():
    """A front end that gives a new action a key it used before (its keys counted from 1 again
    after a restart) is refused, naming the first action: it was answered "left" for a leave
    the host never carried out, bob's daemon forgot the room, and the host kept his seat for
    good (a QA pass). In a room this daemon hosts and through the peer link alike."""
    with Cluster("reused-key") as c:
        ann, bob = two_player_room(c)
        for d in (ann, bob):
            d.api().ok(action=api_pb2.ActionRequest(chat=f"hello from {d.name}"), request_key="1")
            reply = d.api().call(action=api_pb2.ActionRequest(leave=peer_pb2.Leave()), request_key="1")
            check(reply.error.code == common_pb2.ERROR_CODE_BAD_REQUEST
                  and "used before for another request, a chat line" in reply.error.message,
                  f"{d.name}: a leave under the chat's key: {reply}")
        seated = [s.name for s in ann.api().view().seats if s.name]
        check(sorted(seated) == ["ann", "bob"], f"the host's seats after the refused leaves: {seated}")
        check(bob.api().view().summary.name == "r", "bob's daemon forgot the room")
        # Under a key of its own the leave is carried out, on both sides.
        bob.api().ok(action=api_pb2.ActionRequest(leave=peer_pb2.Leave()), request_key="2")
        wait_until(lambda: "bob" not in [s.name for s in ann.api().view().seats], 10,
                   "the host to see bob leave")


def expired_request_refused():
    """A request whose deadline passed before the daemon read it is refused, with its own code."""
    with Cluster("expired") as c:
        ann = c.add("ann")
        past = int(time.monotonic() * 1000) - 1
        reply = ann.api().call(status=api_pb2.StatusRequest(), deadline_ms=past)
        check(reply.error.code == common_pb2.ERROR_CODE_EXPIRED, f"past deadline: {reply}")
        soon = int(time.monotonic() * 1000) + 5000
        reply = ann.api().call(status=api_pb2.StatusRequest(), deadline_ms=soon)
        check(reply.HasField("status"), f"a deadline to come: {reply}")
        reply = ann.api().call(status=api_pb2.StatusRequest(), request_key="x" * 65)
        check(reply.error.code == common_pb2.ERROR_CODE_MALFORMED, f"a 65-byte key: {reply}")


run({f.__name__: f for f in [stopped_player_daemon, stopped_host, a_leave_as_the_host_vanishes_is_done, host_restart,
                             retry_carried_out_once,
                             a_reused_key_is_not_taken_for_another_action, expired_request_refused]})
