"""Issue 9 point 8, encrypted links: real halmad processes on 127.0.0.1 whose links are CURVE.
A relay in the middle reads nothing, a seat token is good only from the key that joined with it,
a host whose key changed is refused, a friends code names its host's key.
Run one with: curve_tests.py NAME (ctest does, label `integration`)."""
import os
import selectors
import signal
import socket
import stat
import threading

import zmq

from halmatest import (Cluster, Daemon, api_pb2, check, common_pb2, free_port, host_key, peer_pb2, raw_peer, recv_host, run,
                       wait_until)

SECRET_CHAT = "attack at dawn, via the east gate"


class Relay(threading.Thread):
    """A TCP forwarder on 127.0.0.1, as a machine in the middle of the LAN would be: it listens on
    a port and the port above it (a host's peer port and its key-probe port), passes every byte on
    to the host's, and keeps a copy of everything it carried, both ways."""

    def __init__(self, target_port):
        super().__init__(daemon=True)
        self.port = free_port()
        self.target_port = target_port
        self.seen = bytearray()
        self.carried = [0, 0]  # bytes through the peer port, through the key-probe port
        self.stop = threading.Event()
        self.listeners = []
        for offset in (0, 1):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", self.port + offset))
            s.listen(16)
            s.setblocking(False)
            self.listeners.append((s, offset))

    def run(self):
        sel = selectors.DefaultSelector()
        for s, offset in self.listeners:
            sel.register(s, selectors.EVENT_READ, ("listen", None, offset))
        while not self.stop.is_set():
            for key, _ in sel.select(timeout=0.05):
                kind, data, offset = key.data
                if kind == "listen":
                    client, _ = key.fileobj.accept()
                    upstream = socket.create_connection(("127.0.0.1", self.target_port + offset), timeout=5)
                    for a, b in ((client, upstream), (upstream, client)):
                        a.setblocking(False)
                        sel.register(a, selectors.EVENT_READ, ("pipe", b, offset))
                    continue
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    for s in (key.fileobj, data):
                        try:
                            sel.unregister(s)
                        except (KeyError, ValueError):
                            pass
                        s.close()
                    continue
                self.seen += chunk
                self.carried[offset] += len(chunk)
                data.setblocking(True)
                data.sendall(chunk)
                data.setblocking(False)
        for key in list(sel.get_map().values()):
            key.fileobj.close()


def token_of(daemon):
    """The seat token the daemon holds (its seats file: "address room_id token seat")."""
    with open(os.path.join(daemon.state_dir, "seats")) as f:
        fields = f.readline().split()
    check(len(fields) >= 3, f"{daemon.name} holds no seat")
    return fields[1], fields[2]


def fingerprint(daemon):
    return daemon.api().ok(status=api_pb2.StatusRequest()).status.key_fingerprint


def host_and_join(ann, bob, room, address=None):
    ann.api().ok(host=api_pb2.HostRequest(name=room, mode=common_pb2.RoomMode(players=2)))
    return bob.api().ok(join=api_pb2.JoinRequest(address=address or ann.address, room=room)).view


def carried_through_relay(plain):
    """Bob joins ann's room through a relay, chats and moves; what the relay saw, the token, the
    room id."""
    extra = ["--insecure-plain-links"] if plain else []
    with Cluster("relay-plain" if plain else "relay") as c:
        ann, bob = c.add("ann", extra), c.add("bob", extra)
        relay = Relay(ann.port)
        relay.start()
        try:
            host_and_join(ann, bob, "r", f"127.0.0.1:{relay.port}")
            room_id, token = token_of(bob)
            bob.api().ok(action=api_pb2.ActionRequest(chat=SECRET_CHAT))
            ann_view = ann.api().view()
            ann.api().ok(action=api_pb2.ActionRequest(move=ann_view.legal_moves[0]))
            wait_until(lambda: bob.api().view().your_turn, 10, "ann's move to reach bob")
            bob.api().ok(action=api_pb2.ActionRequest(move=bob.api().view().legal_moves[0]))
            wait_until(lambda: any(line.text == SECRET_CHAT for line in ann.api().view().chat), 10,
                       "the chat to reach ann")
        finally:
            relay.stop.set()
            relay.join(timeout=5)
        return bytes(relay.seen), token, room_id


def relay_sees_no_secrets():
    """A machine in the middle that carries every byte between two daemons reads no seat token,
    no chat line and no room id; the same relay between plain daemons (--insecure-plain-links,
    the benchmark's baseline) reads all three, so the check can tell."""
    seen, token, room_id = carried_through_relay(plain=False)
    check(len(seen) > 2000, f"the relay carried only {len(seen)} bytes: it was not in the middle")
    for secret, what in ((token, "the seat token"), (SECRET_CHAT, "the chat line"), (room_id, "the room id")):
        check(secret.encode() not in seen, f"{what} crossed the relay in clear")
    print(f"encrypted: the relay carried {len(seen)} bytes, none of them a secret")
    seen, token, room_id = carried_through_relay(plain=True)
    check(token.encode() in seen and SECRET_CHAT.encode() in seen,
          "a plain link did not show the token and chat: the relay's check proves nothing")


def copied_token_is_refused():
    """A seat token is good only from the key that joined with it: used from another key (a raw
    peer with a key of its own, or another daemon given a copy of the seats file) it is refused
    with ERROR_CODE_NOT_ALLOWED and changes nothing; its owner goes on playing."""
    with Cluster("stolen") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_and_join(ann, bob, "s")
        room_id, token = token_of(bob)
        before = len(ann.api().view().chat)
        thief = raw_peer(c.ctx, ann, keys=zmq.curve_keypair())
        thief.send(peer_pb2.PeerMessage(version=1, request_id=1, command=peer_pb2.RoomCommand(
            room_id=room_id, token=token, chat="not bob")).SerializeToString())
        reply = recv_host(thief)
        check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED, f"a copied token's chat: {reply}")
        thief.send(peer_pb2.PeerMessage(version=1, request_id=2, join=peer_pb2.JoinRoom(
            room=room_id, token=token, name="thief")).SerializeToString())
        reply = recv_host(thief)
        check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED, f"a copied token's rejoin: {reply}")
        thief.close()
        # Another daemon with a copy of bob's seats file: its rejoin is refused too.
        carol = c.add("carol")
        carol.kill(signal.SIGTERM)
        with open(os.path.join(bob.state_dir, "seats")) as f, open(os.path.join(carol.state_dir, "seats"), "w") as g:
            g.write(f.read())
        carol.start()
        wait_until(lambda: "refused a rejoin" in open(ann.log_path).read(), 10, "ann to refuse carol's rejoin")
        wait_until(lambda: "cannot rejoin" in open(carol.log_path).read(), 10, "carol to give up on the seat")
        view = ann.api().view()
        check(len(view.chat) == before and [s.name for s in view.seats] == ["ann", "bob"],
              f"a copied token changed the room: {view.seats}, {list(view.chat)}")
        bob.api().ok(action=api_pb2.ActionRequest(chat="still me"))
        wait_until(lambda: any(line.text == "still me" for line in ann.api().view().chat), 10, "bob's own chat")


def restarted_peer_keeps_seat():
    """A daemon's key is made once (0600) and kept: killed and restarted, bob's daemon has the same
    fingerprint, rejoins its seat with its token (bound to that key) and plays on."""
    with Cluster("restart") as c:
        ann, bob = c.add("ann"), c.add("bob")
        first = fingerprint(bob)
        check(first.startswith("SHA256:") and len(first.replace("-", "")) == 7 + 26, f"fingerprint {first!r}")
        status = bob.cli("daemon", "status")
        check(status.returncode == 0 and first in status.stdout, f"halma daemon status shows no key: {status.stdout}")
        mode = stat.S_IMODE(os.stat(os.path.join(bob.state_dir, "curve")).st_mode)
        check(mode == 0o600, f"the key file has mode {oct(mode)}")
        host_and_join(ann, bob, "k")
        bob.kill(signal.SIGKILL)
        wait_until(lambda: not ann.api().view().seats[1].connected, 10, "ann to notice bob vanished")
        bob.start()
        check(fingerprint(bob) == first, "bob's key changed across a restart")
        wait_until(lambda: ann.api().view().seats[1].connected
                   and bob.api().view().connection == api_pb2.CONNECTION_STATE_CONNECTED, 15, "bob to rejoin")
        check(bob.api().view().your_seat == 1, "bob lost his seat")
        ann.api().ok(action=api_pb2.ActionRequest(move=ann.api().view().legal_moves[0]))
        wait_until(lambda: bob.api().view().your_turn, 10, "ann's move to reach bob")
        bob.api().ok(action=api_pb2.ActionRequest(move=bob.api().view().legal_moves[0]))


def changed_host_key_is_refused():
    """Bob pins ann's key at his first join. Ann's daemon comes back with another key: bob refuses
    it before sending anything, and says so naming both fingerprints and halma forget-host; after
    halma forget-host, bob rejoins his seat (the host still knows bob's key)."""
    with Cluster("newkey") as c:
        ann, bob = c.add("ann"), c.add("bob")
        old = fingerprint(ann)
        host_and_join(ann, bob, "k")
        with open(os.path.join(bob.state_dir, "known_hosts")) as f:
            check(f.read().split() == [ann.address, host_key(ann).decode()], "bob did not pin ann's key")
        ann.kill(signal.SIGTERM)
        os.remove(os.path.join(ann.state_dir, "curve"))
        ann.start()
        new = fingerprint(ann)
        check(new != old, "ann kept her key")
        wait_until(lambda: "has a new key" in open(bob.log_path).read(), 10, "bob to refuse the new key")
        out = bob.cli("join", f"{ann.address}/k")
        check(out.returncode == 1 and old in out.stderr and new in out.stderr and "forget-host" in out.stderr,
              f"halma join at a host with a new key: rc {out.returncode}: {out.stderr}")
        check("rejoined" not in open(ann.log_path).read().split("listening on")[-1],
              "bob rejoined a host whose key had changed")
        # Bob's front ends are told too, not only his daemon's log: what a move gets, and the view.
        out = bob.cli("move", "-r", "k", "a1-b1")
        check(out.returncode == 1 and "forget-host" in out.stderr, f"a move at the changed host: {out.stderr}")
        seen = bob.api().view("k")
        check("forget-host" in seen.read_only and seen.connection != api_pb2.CONNECTION_STATE_CONNECTED,
              f"bob's view does not say why: {seen.read_only!r} {seen.connection}")
        check("forget-host" in bob.cli("status", "-r", "k").stdout, "halma status does not say why")
        out = bob.cli("forget-host", "127.0.0.1:1")
        check(out.returncode == 1 and "no key is pinned" in out.stderr, f"forget-host of a stranger: {out.stderr}")
        out = bob.cli("forget-host", ann.address)
        check(out.returncode == 0, f"forget-host: {out.stderr}")
        # Asked again (the answer scrolled away): done already, not "no key is pinned".
        again = bob.cli("forget-host", ann.address)
        check(again.returncode == 0 and "forgotten already" in again.stdout and ann.address in again.stdout,
              f"forget-host twice: rc {again.returncode}: {again.stdout!r} {again.stderr!r}")
        wait_until(lambda: bob.api().view().connection == api_pb2.CONNECTION_STATE_CONNECTED
                   and ann.api().view().seats[1].connected, 15, "bob to rejoin after forget-host")
        with open(os.path.join(bob.state_dir, "known_hosts")) as f:
            check(f.read().split() == [ann.address, host_key(ann).decode()], "bob did not pin ann's new key")


def friends_code_names_the_host():
    """A friends code ends in the first 80 bits of its host key's fingerprint: the code taken to
    another host (an impersonator, here behind a relay that counts what reaches it) is refused
    before anything but the key probe is sent there; at the real host it lets bob in."""
    with Cluster("friendkey") as c:
        ann, bob, mallory = c.add("ann"), c.add("bob"), c.add("mallory")
        hosted = ann.api().ok(host=api_pb2.HostRequest(
            name="den", visibility=common_pb2.VISIBILITY_FRIENDS, mode=common_pb2.RoomMode(players=2))).view
        code = hosted.summary.code
        digits = fingerprint(ann)[len("SHA256:"):].replace("-", "")
        check(code.replace("-", "").endswith(digits[:16]) and len(code.replace("-", "")) == 36,
              f"code {code} does not carry the key's fingerprint {digits[:16]}")
        relay = Relay(mallory.port)
        relay.start()
        try:
            reply = bob.api().call(join=api_pb2.JoinRequest(address=f"127.0.0.1:{relay.port}", room=code))
        finally:
            relay.stop.set()
            relay.join(timeout=5)
        check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED and "friends code" in reply.error.message,
              f"the code at another host: {reply}")
        check(relay.carried[1] > 0 and relay.carried[0] == 0,
              f"bytes to the impersonator: {relay.carried[0]} to its peer port, {relay.carried[1]} to its probe port")
        check(code.encode() not in relay.seen, "the code went to the impersonator")
        # A typo is said as one: in the room's part of the code ("no room 'jk29s-...' here",
        # as if it were a name) and in the key's part (said only as an impersonator before).
        other = lambda c: "z" if c.lower() != "z" else "y"
        typo = other(code[0]) + code[1:]
        reply = bob.api().call(join=api_pb2.JoinRequest(address=ann.address, room=typo))
        check(reply.HasField("error") and f"no room at this host has the friends code '{typo}': check it for a typo"
              in reply.error.message, f"a typo in the room's part: {reply}")
        typo = code[:-1] + other(code[-1])
        reply = bob.api().call(join=api_pb2.JoinRequest(address=ann.address, room=typo))
        check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED and "check the code for a typo" in reply.error.message,
              f"a typo in the key's part: {reply}")
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room=code))


def a_friends_room_outlives_a_new_host_key():
    """Ann's state directory comes back without its key (a backup that left `curve` out): her
    daemon says so, and gives her friends room a code that names the new key (the old one led
    every joiner to refuse her as an impostor, the code in her own log included). Once her old
    key is back, bob, refused meanwhile, rejoins by himself, and dan, who tried the old code at
    the new key and was refused, gets in with it: their daemons kept the refusal until they
    were restarted. Eve, who does as the log says (forget-host, the new code) at once, has her
    own seat back."""
    with Cluster("newcode") as c:
        ann, bob, cat, dan, eve = c.add("ann"), c.add("bob"), c.add("cat"), c.add("dan"), c.add("eve")
        room = ann.api().ok(host=api_pb2.HostRequest(
            name="den", visibility=common_pb2.VISIBILITY_FRIENDS, mode=common_pb2.RoomMode(players=6))).view
        old_code = room.summary.code
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room=old_code))
        eve.api().ok(join=api_pb2.JoinRequest(address=ann.address, room=old_code))
        curve = os.path.join(ann.state_dir, "curve")
        with open(curve) as f:
            old_key = f.read()
        ann.kill(signal.SIGTERM)
        os.remove(curve)
        ann.start()
        wait_until(lambda: "has a new host key" in open(ann.log_path).read(), 10,
                   "ann's log to say her key is new and players must forget the old one")
        check("halma forget-host" in open(ann.log_path).read(), f"ann's log:\n{ann.log_tail(20)}")
        new_code = ann.api().view("den").summary.code
        # Eve does as the log says, at once: forgets the key, and joins with the new code. Her
        # daemon still knew the old key (the code was refused by it, "not the one the friends
        # code names"); it asks again. It is her seat again, not a second one beside it (her
        # daemon held a seat the game then waited on), and her daemon shows the new code.
        out = eve.cli("forget-host", ann.address)
        check(out.returncode == 0, f"eve's forget-host: {out.stderr}")
        out = eve.cli("join", f"{ann.address}/{new_code}")
        check(out.returncode == 0, f"eve's join with the new code: {out.stderr}")
        wait_until(lambda: eve.api().view("den").connection == api_pb2.CONNECTION_STATE_CONNECTED, 10,
                   "eve back in den")
        seats = [s.name for s in ann.api().view("den").seats]
        check(seats.count("eve") == 1 and not any(n.startswith("eve ") for n in seats), f"eve's seats: {seats}")
        wait_until(lambda: eve.api().view("den").summary.code == new_code, 10,
                   f"eve's daemon to show the new code (it showed {eve.api().view('den').summary.code})")
        digits = fingerprint(ann)[len("SHA256:"):].replace("-", "")
        flat = lambda code: code.replace("-", "")
        check(new_code != old_code and flat(new_code)[:20] == flat(old_code)[:20]
              and flat(new_code).endswith(digits[:16]),
              f"the code after a new key: {old_code} -> {new_code} (key digits {digits[:16]})")
        check(f"it is now {new_code}" in open(ann.log_path).read(), f"ann's log does not give the new code:\n{ann.log_tail(20)}")
        wait_until(lambda: "has a new key" in open(bob.log_path).read(), 10, "bob to refuse the new key")
        cat.api().ok(join=api_pb2.JoinRequest(address=ann.address, room=new_code))
        reply = dan.api().call(join=api_pb2.JoinRequest(address=ann.address, room=old_code))
        check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED and "friends code" in reply.error.message,
              f"the old code at the new key: {reply}")
        # The old key back: the code is the old one again, and those refused meanwhile come in.
        ann.kill(signal.SIGTERM)
        with open(curve, "w") as f:
            f.write(old_key)
        os.chmod(curve, 0o600)
        ann.start()
        check(ann.api().view("den").summary.code == old_code, f"the code with the old key back: {ann.api().view('den').summary.code}")
        wait_until(lambda: bob.api().view("den").connection == api_pb2.CONNECTION_STATE_CONNECTED, 20,
                   "bob to rejoin by himself once the old key is back")
        reply = dan.api().call(join=api_pb2.JoinRequest(address=ann.address, room=old_code))
        check(reply.HasField("view"), f"dan's join with the old code at the old key: {reply}")
        wait_until(lambda: {"bob", "dan"} <= {s.name for s in ann.api().view("den").seats if s.connected}, 10,
                   "bob and dan seated at ann's")


def probe_port_flood_is_shed():
    """The key-probe port holds at most 64 connections (plus the burst libzmq accepts before the
    loop counts them): 300 silent ones, held open, leave the host with under 128 more
    descriptors than before and a warning in its log; once they go, joins work again."""
    with Cluster("probeflood") as c:
        # A long handshake timeout: only the cap can shed the silent connections.
        ann = Daemon(c, "ann")
        plain = ann.command
        ann.command = lambda: [a if a != "700" else "20000" for a in plain()]
        c.daemons.append(ann)
        ann.start()
        check("20000" in ann.command(), "ann's peer timeout was not set")
        bob = c.add("bob")
        fds = lambda: len(os.listdir(f"/proc/{ann.proc.pid}/fd"))
        before = fds()
        flood = []
        try:
            for _ in range(300):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", ann.port + 1))
                flood.append(s)
            wait_until(lambda: "shedding" in open(ann.log_path).read(), 10, "the host to shed the flood")
            wait_until(lambda: fds() < before + 128, 10, f"the host's descriptors to settle (now {fds()})")
            print(f"descriptors: {before} before, {fds()} under a flood of 300 connections")
        finally:
            for s in flood:
                s.close()
        # Those the host kept time out of their handshake; then a probe is answered again.
        wait_until(lambda: not bob.api().call(list=api_pb2.ListRequest(address=ann.address)).HasField("error"),
                   40, "a listing at the host after the flood")


TESTS = [relay_sees_no_secrets, copied_token_is_refused, restarted_peer_keeps_seat, changed_host_key_is_refused,
         friends_code_names_the_host, a_friends_room_outlives_a_new_host_key, probe_port_flood_is_shed]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
