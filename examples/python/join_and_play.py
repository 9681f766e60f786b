#!/usr/bin/python3
"""A halma front end in about 200 lines of Python: proof that any language can attach.

It talks to the local halmad over its API socket (docs/api.md), joins a room hosted by another
daemon, waits for its turn, plays a legal move and prints what happened. Nothing else is
needed than Debian's python3-zmq and python3-protobuf and the halma.v1 modules generated from
proto/halma/v1/*.proto (the build puts them in build-release/python):

    PYTHONPATH=build-release/python examples/python/join_and_play.py 192.168.1.20:7460/sunday

Exit codes follow the halma CLI: 0 the move was played, 1 it was not (no daemon, refused, no
turn within --wait seconds, game over), 2 usage error.
"""
import argparse
import os
import socket
import sys
import time

import zmq

try:
    from halma.v1 import api_pb2, common_pb2
except ImportError:
    print("join_and_play: the halma.v1 Python modules are missing: put build-release/python on "
          "PYTHONPATH, or generate them with\n"
          "  protoc -I proto --python_out=OUT proto/halma/v1/*.proto", file=sys.stderr)
    sys.exit(2)

PROTOCOL_VERSION = 1  # field 1 of every Request; the daemon refuses any other with ERROR_CODE_VERSION

# Holes are numbered 0 (a1) to 120 (q1) row by row in events and views; people read "o1".
ROW_LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]


def hole_name(index):
    """Hole 0..120 as docs/notation.md writes it: 0 -> "a1", 111 -> "n1", 120 -> "q1"."""
    for row, length in enumerate(ROW_LENGTHS):
        if index < length:
            return f"{chr(ord('a') + row)}{index + 1}"
        index -= length
    raise ValueError("hole out of range")


class NotDone(Exception):
    """The thing asked for did not happen: exit code 1."""


def default_runtime_dir():
    """Where the local halmad keeps api.sock, looked up the way the halma CLI does it."""
    if os.environ.get("HALMA_RUNTIME_DIR"):
        return os.environ["HALMA_RUNTIME_DIR"]
    own = (os.path.join(os.environ["XDG_RUNTIME_DIR"], "halma") if os.environ.get("XDG_RUNTIME_DIR")
           else f"/tmp/halma-{os.getuid()}")
    # No daemon of the user's own, but the Debian service's: that one (docs/api.md).
    if not os.path.exists(os.path.join(own, "api.sock")) and os.path.exists("/run/halma/api.sock"):
        return "/run/halma"
    return own


class Daemon:
    """The line to the local halmad: a DEALER on its ipc socket.

    Every request carries an id that the reply echoes. Events the daemon pushes (after a
    subscribe) carry request id 0 and may arrive while we wait for a reply: they are kept in
    order for next_event().
    """

    def __init__(self, runtime_dir, timeout):
        path = os.path.join(runtime_dir, "api.sock")
        if not os.path.exists(path):
            raise NotDone(f"no halmad is running here (no {path}); start one or give --runtime-dir")
        # A socket left by a halmad that crashed: ZeroMQ would wait in silence, a plain connect
        # is refused at once.
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(path)
        except ConnectionRefusedError:
            raise NotDone(f"no halmad is running here ({path} is left from one that stopped); start one")
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)  # never hang on exit over unsent messages
        self.socket.connect(f"ipc://{path}")
        self.timeout = timeout
        self.next_id = 1
        self.events = []

    def close(self):
        self.context.destroy(linger=0)

    def _receive(self, seconds):
        """One Reply off the socket, or None after `seconds`."""
        if seconds <= 0 or not self.socket.poll(int(seconds * 1000)):
            return None
        reply = api_pb2.Reply()
        reply.ParseFromString(self.socket.recv())  # one frame, one message
        return reply

    def call(self, **body):
        """Sends Request(body) and returns the matching Reply; raises NotDone on an error."""
        request_id = self.next_id
        self.next_id += 1
        request = api_pb2.Request(version=PROTOCOL_VERSION, request_id=request_id, **body)
        self.socket.send(request.SerializeToString())
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._receive(deadline - time.monotonic())
            if reply is None:
                raise NotDone(f"halmad did not answer within {self.timeout} s")
            if reply.HasField("event"):
                self.events.append(reply.event)
            elif reply.request_id == request_id:
                break
        if reply.HasField("error"):
            name = common_pb2.ErrorCode.Name(reply.error.code)
            raise NotDone(f"{reply.error.message} ({name})")
        return reply

    def next_event(self, seconds):
        """The next pushed Event, or None if none came within `seconds`."""
        deadline = time.monotonic() + seconds
        while not self.events:
            reply = self._receive(deadline - time.monotonic())
            if reply is None:
                return None
            if reply.HasField("event"):
                self.events.append(reply.event)
        return self.events.pop(0)

    def view(self, room):
        return self.call(view=api_pb2.ViewRequest(room=room)).view


def choose_move(view):
    """A real front end lets its player choose; this one takes the first legal move.
    legal_moves holds "from-to" moves, or only "pass" when there is nothing else to do."""
    return view.legal_moves[0]


def play(daemon, address, room, wait):
    status = daemon.call(status=api_pb2.StatusRequest()).status
    print(f"local halmad {status.version}, player {status.name}, protocol {status.protocol}")

    # Join: our daemon connects to the host's, joins, and keeps a replica of the room.
    reply = daemon.call(join=api_pb2.JoinRequest(address=address, room=room))
    room_id = reply.view.summary.room_id  # a join is answered with the room's view

    # Subscribe, then read the view: the view holds everything up to view.seq, the events
    # that follow tell us the rest.
    daemon.call(subscribe=api_pb2.SubscribeRequest(room=room_id))
    view = daemon.view(room_id)
    if view.your_seat < 0:
        raise NotDone(f"in room {view.summary.name} as a spectator: there is nothing to play")
    print(f"joined room {view.summary.name} at {view.summary.address}, seat {view.your_seat + 1}")

    # Wait for our turn, telling what others do meanwhile.
    if not view.your_turn:
        print(f"waiting up to {wait:g} s for our turn")
    deadline = time.monotonic() + wait
    while not view.your_turn:
        if view.summary.phase in (common_pb2.PHASE_OVER, common_pb2.PHASE_CANCELLED):
            raise NotDone(f"the game ended ({common_pb2.Phase.Name(view.summary.phase)})")
        event = daemon.next_event(deadline - time.monotonic())
        if event is None:
            raise NotDone(f"it was not our turn within {wait} s")
        if event.room_id != room_id:
            continue
        print(f"  {event.text}")
        if event.event.HasField("closed"):
            raise NotDone("the host closed the room")
        if event.connection != api_pb2.CONNECTION_STATE_CONNECTED:
            print("  (the light is not green: our daemon is reconnecting to the host)")
        view = daemon.view(room_id)  # cheap: a local request

    move = choose_move(view)
    print(f"our turn: {len(view.legal_moves)} legal moves, playing {move}")
    daemon.call(action=api_pb2.ActionRequest(room=room_id, move=move))

    # The host accepted it. Its MovePlayed event is the same every daemon in the room gets;
    # its path (every hole the marble passed through) is what a front end animates.
    deadline = time.monotonic() + daemon.timeout
    while True:
        event = daemon.next_event(deadline - time.monotonic())
        if event is None:
            raise NotDone("the move was accepted but its event never came")
        if event.room_id == room_id and event.event.HasField("move") and \
                event.event.move.seat == view.your_seat:
            break
    path = "-".join(hole_name(h) for h in event.event.move.path) or "pass"
    print(f"the host says: {event.text} (event {event.event.seq}, path {path})")
    print(f"played {move}")


def main():
    parser = argparse.ArgumentParser(description="Join a halma room through the local halmad and "
                                     "play one legal move when it is our turn.")
    parser.add_argument("target", help="HOST:PORT/ROOM: the hosting daemon and the room's name or "
                        "friends code")
    parser.add_argument("--runtime-dir", default=default_runtime_dir(),
                        help="directory of the local halmad's api.sock (default: $HALMA_RUNTIME_DIR, "
                        "$XDG_RUNTIME_DIR/halma or /tmp/halma-UID)")
    parser.add_argument("--wait", type=float, default=60,
                        help="seconds to wait for our turn (default 60)")
    parser.add_argument("--timeout", type=float, default=10,
                        help="seconds to wait for each answer of halmad (default 10)")
    args = parser.parse_args()  # exits 2 on a usage error
    address, slash, room = args.target.partition("/")
    if not slash or ":" not in address:
        parser.error(f"'{args.target}' is not HOST:PORT/ROOM")

    daemon = None
    try:
        daemon = Daemon(args.runtime_dir, args.timeout)
        play(daemon, address, room, args.wait)
        return 0
    except NotDone as e:
        print(f"join_and_play: {e}", file=sys.stderr)
        return 1
    finally:
        if daemon:
            daemon.close()


if __name__ == "__main__":
    sys.exit(main())
