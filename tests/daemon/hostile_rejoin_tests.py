"""A hostile peer asking a host for whole rooms faster than it reads them (a QA pass): one seat
token rejoining from many connections that never read. The host answers a few rejoins a member
per peer timeout and refuses the rest, so its memory stays bounded. Run one with:
hostile_rejoin_tests.py NAME."""
import time

import zmq

from halmatest import Cluster, check, peer_pb2, raw_peer, recv_host, run, secure
from hostile_host_tests import rss_kb

CONNECTIONS = 200
REJOINS = 40


def rejoins_from_many_connections_stay_bounded():
    """A spectator's token rejoins 40 times from each of 200 connections (one key) that never
    read: 8,000 whole-room answers asked for in a moment. The host grows by less than 64 MB
    (a host that answered each one grew by 500 MB from 400 connections), answers its own status
    meanwhile (how long it took is printed, not judged), and takes the member's rejoin again once
    the window is over."""
    with Cluster("evil-rejoins") as c:
        ann = c.add("ann")
        ann.cli("host", "big", "-p", "6")
        room = ann.api().view("big").summary.room_id
        # A room worth asking for: chat from a few spectators makes its snapshot tens of kB.
        for i in range(6):
            s = raw_peer(c.ctx, ann, keys=zmq.curve_keypair())
            s.send(peer_pb2.PeerMessage(version=1, request_id=1, join=peer_pb2.JoinRoom(
                room="big", name=f"talker {i}", spectate=True)).SerializeToString())
            token = recv_host(s).joined.token
            for k in range(10):
                s.send(peer_pb2.PeerMessage(version=1, request_id=2 + k, command=peer_pb2.RoomCommand(
                    room_id=room, token=token, chat="z" * 500)).SerializeToString())
            time.sleep(0.05)
            s.close()
        keys = zmq.curve_keypair()
        s = raw_peer(c.ctx, ann, keys=keys)
        s.send(peer_pb2.PeerMessage(version=1, request_id=1, join=peer_pb2.JoinRoom(
            room="big", name="flood", spectate=True)).SerializeToString())
        joined = recv_host(s)
        token, snapshot = joined.joined.token, len(joined.SerializeToString())
        idle = rss_kb(ann.proc.pid)
        rejoin = peer_pb2.PeerMessage(version=1, request_id=9, join=peer_pb2.JoinRoom(room=room, token=token))
        socks = []
        try:
            for _ in range(CONNECTIONS):
                x = c.ctx.socket(zmq.DEALER)
                x.setsockopt(zmq.LINGER, 0)
                x.setsockopt(zmq.RCVHWM, 1)
                x.setsockopt(zmq.RCVBUF, 4096)
                secure(x, ann, keys)
                x.connect(f"tcp://{ann.address}")
                for _ in range(REJOINS):
                    x.send(rejoin.SerializeToString(), zmq.NOBLOCK)
                socks.append(x)
            peak = idle
            for _ in range(4):
                time.sleep(1)
                peak = max(peak, rss_kb(ann.proc.pid))
            check(peak - idle < 64 << 10, f"the host grew by {peak - idle} kB ({snapshot}-byte snapshots)")
            while s.poll(0):  # heartbeats and the like, meanwhile
                s.recv()
            s.send(rejoin.SerializeToString())
            answer = recv_host(s)
            while answer.request_id != 9:
                answer = recv_host(s)
            # The window is over by now (a peer timeout): the member may rejoin again.
            check(answer.HasField("joined"), f"a rejoin once the flood is over: {answer.error.message}")
            started = time.monotonic()
            check(ann.cli("status").returncode == 0, "the host's own status")
            print(f"{CONNECTIONS} x {REJOINS} rejoins of a {snapshot}-byte room: host +{peak - idle} kB; "
                  f"status in {time.monotonic() - started:.2f} s")
        finally:
            for x in socks:
                x.close()
            s.close()


if __name__ == "__main__":
    run({f.__name__: f for f in [rejoins_from_many_connections_stay_bounded]})
