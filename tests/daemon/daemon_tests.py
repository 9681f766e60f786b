"""Integration tests: real halmad processes talking over 127.0.0.1, driven through the halma
CLI and the local API. Run one with: daemon_tests.py NAME (ctest does, label `integration`)."""
import os
import signal
import socket
import subprocess
import time

import zmq

import halmatest

from halmatest import (Cluster, Daemon, HALMAD, Failure, api_move, api_pb2, check, common_pb2, free_port, greedy_move,
                       host_room, join_room, peer_pb2, play_one, play_to_end, raw_peer, recv_host, replica_digest, run,
                       views_in_step, wait_until)


def cli_view(d):
    return d.cli_json("board")


def cli_move(d, text):
    out = d.cli("move", text)
    check(out.returncode == 0, f"{d.name}: halma move {text}: rc {out.returncode}: {out.stderr}")


def two_daemon_cli_game():
    with Cluster("two") as c:
        ann, bob = c.add("ann"), c.add("bob")
        out = ann.cli("host", "sunday")
        check(out.returncode == 0 and f"halma join {ann.address}/sunday" in out.stdout, f"host: {out.stdout}{out.stderr}")
        out = bob.cli("join", f"{ann.address}/sunday")
        check(out.returncode == 0 and "seat 2" in out.stdout, f"join: {out.stdout}{out.stderr}")
        check(bob.cli("chat", "good", "luck").returncode == 0, "chat refused")
        moves = play_to_end([ann, bob], 1500, cli_move, cli_view)
        views = [cli_view(ann), cli_view(bob)]
        check(replica_digest(views[0]) == replica_digest(views[1]), "bob's replica differs from the host")
        check(len(views[0]["moves"]) >= moves, "moves missing from the log")
        check(all(s["place"] > 0 for s in views[0]["standings"]), f"places undecided: {views[0]['standings']}")
        check(views[0]["game_end"] == "GAME_END_PLACES_DECIDED", f"the game ended as {views[0]['game_end']}")
        out = bob.cli("status")  # why it ended, as for a move limit
        check("game over: every place is decided" in out.stdout, f"bob's status: {out.stdout}")
        print(f"game over after {moves} moves; standings {[(s['name'], s['place']) for s in views[0]['standings']]}")
        # A late spectator gets the whole history, chat included.
        carol = c.add("carol")
        out = carol.cli("join", f"{ann.address}/sunday", "--spectate")
        check(out.returncode == 0, f"spectator join: {out.stderr}")
        seen = cli_view(carol)
        check(replica_digest(seen) == replica_digest(cli_view(ann)), "the spectator's replica differs from the host")
        check(seen["moves"] == views[0]["moves"], "the spectator did not get the game's moves")
        check(any(line["text"] == "good luck" for line in seen["chat"]), "chat history not given to a late joiner")
        # A new game needs both votes, and turns the colours.
        sets_before = [s["sets"] for s in views[0]["seats"]]
        check(ann.cli("vote", "new").returncode == 0, "ann's vote refused")
        check(cli_view(ann)["game_number"] == 1, "a new game began before everyone agreed")
        check(bob.cli("vote", "new").returncode == 0, "bob's vote refused")
        after = wait_until(lambda: (v := cli_view(ann))["game_number"] == 2 and v, 5, "game 2")
        sets_after = [s["sets"] for s in after["seats"]]
        check(all(a != b for a, b in zip(sets_before, sets_after)), f"colours not changed: {sets_before} {sets_after}")
        wait_until(lambda: replica_digest(cli_view(bob)) == replica_digest(cli_view(ann)), 5, "replicas equal in game 2")


def six_daemon_api_game():
    with Cluster("six") as c:
        names = ["ann", "bob", "cat", "dan", "eve", "fay"]
        daemons = [c.add(n) for n in names]
        host = daemons[0]
        host_room(host, "six", players=6)
        for d in daemons[1:]:
            v = join_room(d, host, "six")
            check(v.your_seat >= 1, f"{d.name} got no seat")
        wait_until(lambda: host.api().view().summary.phase == common_pb2.PHASE_PLAYING, 5, "the game to start")
        moves = play_to_end(daemons, 6000, api_move, lambda d: d.api().view())
        host_digest = replica_digest(host.api().view())
        for d in daemons[1:]:
            wait_until(lambda: replica_digest(d.api().view()) == host_digest, 5, f"{d.name}'s replica to equal the host")
        standings = host.api().view().standings
        check(all(s.place > 0 for s in standings), "places undecided at the end")
        print(f"6-player game over after {moves} moves; places {[(s.name, s.place) for s in standings]}")


def rejoin_after_kill():
    with Cluster("rejoin") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "r")
        join_room(bob, ann, "r")
        for _ in range(7):
            play_one([ann, bob])
        if not ann.api().view().your_turn:
            play_one([ann, bob])
        bob_seat = bob.api().view().your_seat
        bob.kill(signal.SIGKILL)
        wait_until(lambda: not ann.api().view().seats[bob_seat].connected, 5, "the host to notice bob vanished")
        check(ann.api().view().seats[bob_seat].name == "bob", "bob's seat was not held")
        api_move(ann, greedy_move(ann.api().view()))  # the game goes on while bob is away
        bob.start()  # same runtime and state directories: it remembers its seat

        def caught_up():
            reply = bob.api().call(view=api_pb2.ViewRequest())
            if reply.HasField("error") or reply.view.connection != api_pb2.CONNECTION_STATE_CONNECTED:
                return None
            return reply.view if replica_digest(reply.view) == replica_digest(ann.api().view()) else None

        v = wait_until(caught_up, 10, "bob to rejoin and catch up")
        check(v.your_seat == bob_seat and v.your_turn, f"bob back in seat {v.your_seat}, your_turn {v.your_turn}")
        check(ann.api().view().seats[bob_seat].connected, "host does not show bob connected again")
        api_move(bob, greedy_move(v))
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 5, "replicas equal")


def friends_room_needs_code():
    with Cluster("friends") as c:
        ann, bob = c.add("ann"), c.add("bob")
        hosted = ann.cli_json("host", "hideout", "--friends")
        code, room_id = hosted["summary"]["code"], hosted["summary"]["room_id"]
        check(len(code.replace("-", "")) * 5 >= 80, f"code {code} has under 80 bits")
        listed = bob.cli_json("rooms", ann.address)
        check(all(r["name"] != "hideout" for r in listed.get("rooms", [])), "a friends room was listed")
        for guess in ["hideout", room_id, code[:-1] + ("x" if code[-1] != "x" else "y"), ""]:
            out = bob.cli("join", f"{ann.address}/{guess}")
            check(out.returncode == 1, f"joined the friends room with '{guess}': {out.stdout}")
        out = bob.cli("join", f"{ann.address}/{code.upper().replace('-', '')}")
        check(out.returncode == 0 and "seat 2" in out.stdout, f"the code did not let bob in: {out.stderr}")
        check(bob.cli_json("board")["summary"]["phase"] == "PHASE_PLAYING", "game did not start")


def nobody_moves_for_another():
    with Cluster("seats") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        host_room(ann, "s")
        join_room(bob, ann, "s")
        join_room(cat, ann, "s", spectate=True)
        before = replica_digest(ann.api().view())
        ann_view = ann.api().view()
        check(ann_view.your_turn, "ann should move first")
        some_move = ann_view.legal_moves[0]
        out = bob.cli("move", some_move)
        check(out.returncode == 1 and "not your turn" in out.stderr, f"bob moved for ann: {out.stderr}")
        out = cat.cli("move", some_move)
        check(out.returncode == 1 and "spectators cannot move" in out.stderr, f"a spectator moved: {out.stderr}")
        # A peer that forges a seat token.
        raw = raw_peer(c.ctx, ann)
        room_id = ann_view.summary.room_id
        for token in ["0" * 32, "", "not-a-token"]:
            raw.send(peer_pb2.PeerMessage(version=1, request_id=5, command=peer_pb2.RoomCommand(
                room_id=room_id, token=token, move=some_move)).SerializeToString())
            reply = recv_host(raw)
            check(reply.error.code == common_pb2.ERROR_CODE_NOT_ALLOWED, f"forged token '{token}': {reply}")
        check(replica_digest(ann.api().view()) == before, "a refused move changed the room")
        api_move(ann, some_move)
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 5, "bob sees ann's move")


def bad_input_is_refused():
    with Cluster("bad") as c:
        ann = c.add("ann", extra=["--max-message", "4096"])
        bob = c.add("bob")
        # A setup the rules do not allow is a usage error, as README promises (exit 2).
        out = ann.cli("host", "nosuch", "-p", "3", "-s", "3")
        check(out.returncode == 2 and "not a setup" in out.stderr, f"host -p 3 -s 3: {out.returncode} {out.stderr!r}")
        # The daemon's own bounds, as usage errors (they were the daemon's refusals, exit 1).
        out = ann.cli("host", "--", "   ")
        check(out.returncode == 2 and "a room name cannot be blank" in out.stderr, f"host ' ': {out.returncode} {out.stderr!r}")
        out = ann.cli("host", "nosuch", "--move-limit", "500000")
        check(out.returncode == 2 and "100000" in out.stderr, f"--move-limit 500000: {out.returncode} {out.stderr!r}")
        # Spaces at either end are dropped: the room is found by what is seen.
        out = ann.cli("host", "--spectate", "--", "  porch  ")
        check(out.returncode == 0, f"host '  porch  ': {out.returncode} {out.stderr!r}")
        check("porch" in [r.name for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms],
              f"rooms: {ann.cli('rooms').stdout}")
        check(ann.cli("close", "-r", "porch").returncode == 0, "close porch")
        out = ann.cli("host", "nosuch", "-p", "2", "--bots", "3")
        check(out.returncode == 2 and "1 seat for computer players (you take one; with --spectate, none)" in out.stderr,
              f"--bots 3 of 2: {out.returncode} {out.stderr!r}")
        # A room only computers play, six of them, and one whose free seats its watching host
        # fills with a start (it was told to join first, then that spectators cannot start).
        out = ann.cli("host", "sixbots", "-p", "6", "--spectate", "--bots", "6", "--bot-level", "easy")
        check(out.returncode == 0, f"six bots: {out.returncode} {out.stderr!r}")
        check(ann.cli("close", "-f", "-r", "sixbots").returncode == 0, "close sixbots")
        check(ann.cli("host", "lobby", "-p", "3", "--spectate").returncode == 0, "host lobby")
        out = ann.cli("start", "-r", "lobby", "--bot-level", "easy")
        check(out.returncode == 0, f"start by the watching host: {out.returncode} {out.stdout}{out.stderr!r}")
        wait_until(lambda: ann.api().view("lobby").game_number == 1, 10, "lobby's first game")
        check(ann.cli("close", "-f", "-r", "lobby").returncode == 0, "close lobby")
        for chat, said in (("", "needs something to say"), ("   ", "needs something to say"),
                           ("x" * 501, "a chat line is 1 to 500 bytes")):
            out = ann.cli("chat", "--", chat)
            check(out.returncode == 2 and said in out.stderr,
                  f"chat of {len(chat)} bytes: {out.returncode} {out.stderr!r}")
        out = ann.cli("join", "127.0.0.1:99999/x")
        check(out.returncode == 2 and "the port is 1 to 65535" in out.stderr,
              f"join at port 99999: {out.returncode} {out.stderr!r}")
        out = ann.cli("--timeout-ms", "-5", "rooms")
        check(out.returncode == 2 and "timeout-ms" in out.stderr, f"--timeout-ms -5: {out.returncode} {out.stderr!r}")
        host_room(ann, "b")
        join_room(bob, ann, "b")
        for _ in range(4):
            play_one([ann, bob])
        moves_before = list(ann.api().view().moves)
        # Kinds this daemon does not know are refused: vote 99 counted as a vote for a new game,
        # and visibility 7 made a public room (listed on the LAN).
        reply = bob.api().call(action=api_pb2.ActionRequest(room="b", vote=99))
        check(reply.HasField("error") and "unknown vote kind 99" in reply.error.message, f"vote 99: {reply}")
        check(not any(s.voted_new_game for s in ann.api().view().seats), "vote 99 counted")
        reply = ann.api().call(host=api_pb2.HostRequest(name="vis7", visibility=7))
        check(reply.HasField("error") and "unknown visibility 7" in reply.error.message, f"visibility 7: {reply}")
        check("vis7" not in [r.name for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms], "vis7 made")
        raw = raw_peer(c.ctx, ann)

        def expect(payload, code, what, multipart=False):
            raw.send_multipart(payload) if multipart else raw.send(payload)
            reply = recv_host(raw)
            check(reply.HasField("error") and reply.error.code == code, f"{what}: got {reply}")
            return reply

        expect(b"\xff\x00 garbage \x13\x37", common_pb2.ERROR_CODE_MALFORMED, "garbage frame")
        expect([b"one", b"two"], common_pb2.ERROR_CODE_MALFORMED, "two frames", multipart=True)
        # Answered as the request the first frame names (it was id 0, and a peer matching
        # answers by id waited out its timeout); bytes that parse as nothing of ours are
        # malformed, not "protocol version 0" (a red-team QA pass).
        two = expect([peer_pb2.PeerMessage(version=1, request_id=6, list_rooms=peer_pb2.ListRooms()).SerializeToString(),
                      b"more"], common_pb2.ERROR_CODE_MALFORMED, "two frames, the first a request", multipart=True)
        check(two.request_id == 6, f"two frames answered as request {two.request_id}, not 6")
        expect(b"\x0a\x01A", common_pb2.ERROR_CODE_MALFORMED, "field 1 of the wrong wire type")
        reply = expect(peer_pb2.PeerMessage(version=2, request_id=7, heartbeat=peer_pb2.Heartbeat()).SerializeToString(),
                       common_pb2.ERROR_CODE_VERSION, "version 2")
        check(reply.request_id == 7 and reply.error.supported_version == 1, f"version refusal: {reply}")
        expect(peer_pb2.PeerMessage(request_id=8, list_rooms=peer_pb2.ListRooms()).SerializeToString(),
               common_pb2.ERROR_CODE_VERSION, "no version")
        reply = expect(peer_pb2.PeerMessage(version=1, request_id=9, join=peer_pb2.JoinRoom(room="x" * 5000))
                       .SerializeToString(), common_pb2.ERROR_CODE_TOO_LARGE, "oversized message")
        check(reply.request_id == 9, f"the refusal of a message too large carries id {reply.request_id}, not 9")
        expect(peer_pb2.PeerMessage(version=1, request_id=10).SerializeToString(), common_pb2.ERROR_CODE_MALFORMED,
               "empty body")
        # Far past the limit, ZeroMQ itself drops the connection (ZMQ_MAXMSGSIZE): no reply, no harm.
        raw.send(b"\x00" * (4096 * 16 + 1))
        # A connection that does not speak ZeroMQ at all.
        with socket.create_connection(("127.0.0.1", ann.port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.0\r\n\r\n" + os.urandom(512))
        # The local API is as careful.
        api = ann.api()
        api.sock.send(b"\x01\x02\x03 not a request")
        r = api_pb2.Reply()
        check(api.sock.poll(5000), "the API did not answer garbage")
        r.ParseFromString(api.sock.recv())
        check(r.error.code == common_pb2.ERROR_CODE_MALFORMED, f"API garbage: {r}")
        api.sock.send_multipart([api_pb2.Request(version=1, request_id=76, status=api_pb2.StatusRequest())
                                 .SerializeToString(), b"more"])
        check(api.sock.poll(5000), "the API did not answer two frames")
        r.ParseFromString(api.sock.recv())
        check(r.error.code == common_pb2.ERROR_CODE_MALFORMED and r.request_id == 76, f"API two frames: {r}")
        # An empty frame is no message (it was answered as "protocol version 0").
        api.sock.send(b"")
        check(api.sock.poll(5000), "the API did not answer an empty frame")
        r.ParseFromString(api.sock.recv())
        check(r.error.code == common_pb2.ERROR_CODE_MALFORMED and "empty" in r.error.message, f"API empty frame: {r}")
        # An address with a space in it is no host, for a listing as for a join (a listing tried
        # it and said "Invalid argument").
        for body in (dict(list=api_pb2.ListRequest(address="not an address")),
                     dict(join=api_pb2.JoinRequest(address="not an address", room="x"))):
            r = api.call(**body)
            check(r.error.code == common_pb2.ERROR_CODE_BAD_REQUEST and "is not host, host:port" in r.error.message,
                  f"{list(body)} at 'not an address': {r}")
        api.sock.send(api_pb2.Request(version=3, request_id=77, status=api_pb2.StatusRequest()).SerializeToString())
        check(api.sock.poll(5000), "the API did not answer version 3")
        r.ParseFromString(api.sock.recv())
        check(r.error.code == common_pb2.ERROR_CODE_VERSION and r.request_id == 77, f"API version 3: {r}")
        # Text that is not UTF-8 is refused in words, and libprotobuf's own complaint stays out
        # of the log (it came unstamped, on a line of its own).
        bad_text = api_pb2.Request(version=1, request_id=78, host=api_pb2.HostRequest(name="XXXX")).SerializeToString()
        api.sock.send(bad_text.replace(b"XXXX", b"\xff\xfeXX"))
        check(api.sock.poll(5000), "the API did not answer text that is not UTF-8")
        r.ParseFromString(api.sock.recv())
        check(r.error.code == common_pb2.ERROR_CODE_MALFORMED, f"API text not UTF-8: {r}")
        time.sleep(0.2)
        check("[libprotobuf" not in ann.log_tail(50), f"libprotobuf's own line in the log: {ann.log_tail(5)}")
        # A REQ front end gets its replies, but cannot subscribe (it could never read the events).
        req = c.ctx.socket(zmq.REQ)
        req.setsockopt(zmq.LINGER, 0)
        req.connect(f"ipc://{ann.runtime_dir}/api.sock")
        for body, expect_error in [({"status": api_pb2.StatusRequest()}, False),
                                   ({"subscribe": api_pb2.SubscribeRequest()}, True)]:
            req.send(api_pb2.Request(version=1, request_id=5, **body).SerializeToString())
            check(req.poll(5000), f"no reply to a REQ {list(body)}")
            r.ParseFromString(req.recv())
            check(r.request_id == 5 and r.HasField("error") == expect_error, f"REQ {list(body)}: {r}")
        req.close()
        # Out of turn, through the CLI.
        waiting = bob if ann.api().view().your_turn else ann
        out = waiting.cli("move", "a1-b1")
        check(out.returncode == 1 and "not your turn" in out.stderr, f"out of turn: {out.stderr}")
        # A target alone out of turn says whose turn it is too, as a whole move's refusal does.
        out = waiting.cli("move", "e5")
        check(out.returncode == 1 and "not your turn: it is " in out.stderr and "'s turn (seat " in out.stderr,
              f"a target alone out of turn: {out.stderr}")
        out = waiting.cli("move", "zz-9")
        check(out.returncode == 2, f"unreadable move: rc {out.returncode}")
        # Nothing accepted was lost, and the game goes on.
        check(list(ann.api().view().moves) == moves_before, "the move log changed")
        for _ in range(4):
            play_one([ann, bob])
        check(list(ann.api().view().moves)[:len(moves_before)] == moves_before, "earlier moves lost")
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 5, "replicas equal")
        check(ann.proc.poll() is None, "the host died")


def bots_take_free_seats():
    """A 4-player room with two people: one of them starts it with easy bots in the free seats,
    the bots play their turns by themselves, and the game runs to its end on every replica."""
    with Cluster("bots") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "quad", players=4)
        join_room(bob, ann, "quad")
        check(ann.api().view().summary.phase == common_pb2.PHASE_WAITING, "started with seats free")
        out = bob.cli("start", "--bot-level", "medium")
        check(out.returncode == 2 and "medium" in out.stderr, f"bad level accepted: {out.returncode} {out.stderr}")
        out = bob.cli("start", "--bot-level", "easy")
        check(out.returncode == 0, f"start refused: {out.stderr}")
        view = wait_until(lambda: (v := ann.api().view()).summary.phase == common_pb2.PHASE_PLAYING and v, 5,
                          "the game to start")
        bots = [s for s in view.seats if s.bot]
        check(len(bots) == 2 and all(s.bot_level == "easy" for s in bots), f"bot seats: {view.seats}")
        humans = [ann, bob]
        seen, moves = set(), 0
        while moves < 4000:
            views = views_in_step(humans, lambda d: d.api().view())
            if views[0].summary.phase == common_pb2.PHASE_OVER:
                break
            movers = [(d, v) for d, v in zip(humans, views) if v.your_turn]
            if not movers:  # a bot is thinking: its move arrives by itself
                before = views[0].seq
                wait_until(lambda: ann.api().view().seq != before, 10, "a bot to move")
                continue
            d, v = movers[0]
            api_move(d, greedy_move(v, seen))
            moves += 1
        final = ann.api().view()
        check(final.summary.phase == common_pb2.PHASE_OVER, f"game not over after {moves} human moves")
        check(all(s.place > 0 for s in final.standings), f"places undecided: {final.standings}")
        bot_moves = sum(1 for m in final.moves) - moves
        check(bot_moves > 0, "the bots never moved")
        wait_until(lambda: replica_digest(bob.api().view()) == replica_digest(ann.api().view()), 5,
                   "bob's replica to equal the host")
        print(f"4-player game with 2 easy bots over: {moves} human moves, {bot_moves} others; "
              f"places {[(s.name, s.place) for s in final.standings]}")


def play_in_a_terminal():
    """`halma play` as a person uses it: in a real (pseudo) terminal, against an easy bot. Pick a
    marble to see where it can go, send it there, see the bot answer, chat, quit."""
    import pty
    import select
    with Cluster("play") as c:
        ann = c.add("ann")
        out = ann.cli("host", "solo", "--bots", "1", "--bot-level", "easy")
        check(out.returncode == 0, f"host: {out.stderr}")
        master, slave = pty.openpty()
        proc = subprocess.Popen([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "play"], stdin=slave,
                                stdout=slave, stderr=slave, preexec_fn=halmatest._die_with_parent,
                                env=dict(os.environ, TERM="xterm", NO_COLOR=""))
        os.close(slave)
        screen = b""

        def read_until(needle, timeout=10):
            nonlocal screen
            deadline = time.monotonic() + timeout
            while needle not in screen:
                left = deadline - time.monotonic()
                check(left > 0, f"no {needle!r} on the screen; it shows: {screen[-1500:]!r}")
                ready, _, _ = select.select([master], [], [], left)
                if ready:
                    try:
                        screen += os.read(master, 65536)
                    except OSError:
                        break
            return screen

        def type_line(text):
            os.write(master, text.encode() + b"\r")

        read_until(b"your move>")
        check(b"\x1b[" in screen, "no colours or screen control in a terminal")
        type_line("n3")
        read_until(b"n3 can go to m7 m8")
        type_line("m7")
        read_until(b"bot played")
        type_line("/c good game")
        read_until(b"ann: good game")
        type_line("/quit")
        check(proc.wait(timeout=10) == 0, "halma play did not exit 0 on /quit")
        os.close(master)
        view = ann.api().view()
        check(view.moves[0].startswith("n3-") and view.moves[0].endswith("m7"), f"moves: {list(view.moves)}")
        check(len(view.moves) >= 2, "the bot did not answer")
        check(view.chat[-1].text == "good game", "the chat line did not arrive")


def systemd_notify():
    """Type=notify as systemd sees it: READY=1 once the port and the local socket are bound,
    WATCHDOG=1 every half WatchdogSec from the event loop, STOPPING=1 on SIGTERM."""
    with Cluster("notify") as c:
        path = os.path.join(c.tmp, "notify.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.settimeout(5)
        d = Daemon(c, "svc")
        env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="200000")
        d.proc = subprocess.Popen(d.command(), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  preexec_fn=halmatest._die_with_parent)
        c.daemons.append(d)

        def next_message():
            return sock.recv(4096).decode()

        first = next_message()
        check("READY=1" in first, f"first notification: {first!r}")
        check(os.path.exists(os.path.join(d.runtime_dir, "api.sock")), "READY before the API socket existed")
        check(d.cli("daemon", "status").returncode == 0, "not answering after READY")
        started = time.monotonic()
        beats = 0
        while beats < 3:
            check("WATCHDOG=1" in next_message(), "expected watchdog pings")
            beats += 1
        elapsed = time.monotonic() - started
        check(elapsed < 2, f"3 watchdog pings took {elapsed:.1f} s (every 0.1 s expected)")
        d.proc.send_signal(signal.SIGTERM)
        message = next_message()
        while "WATCHDOG=1" in message:
            message = next_message()
        check("STOPPING=1" in message, f"on SIGTERM: {message!r}")
        check(d.proc.wait(timeout=10) == 0, "halmad did not exit 0 on SIGTERM")
        sock.close()


run({f.__name__: f for f in [two_daemon_cli_game, six_daemon_api_game, rejoin_after_kill, friends_room_needs_code,
                             nobody_moves_for_another, bad_input_is_refused, bots_take_free_seats,
                             play_in_a_terminal, systemd_notify]})
