"""LAN discovery between real test hosts (lanhosts.py): real halmad processes, real avahi-daemons,
real multicast, the halma CLI as a player types it. Each test prints what it measured."""
import json
import os
import re
import signal
import subprocess
import time

from halma_on_lan import PORT, cli, cli_json, cli_ok, lan_rooms, log_of, rooms, start_halmad, status, wait_gone, \
    wait_listed
from halmatest import greedy_move
from lanhosts import Lan, check, main, need, wait_until


def play_cli_game(players, max_moves=400):
    """Plays greedy moves with `halma move` for whoever is to move until the game is over."""
    seen, moves = set(), 0
    while moves < max_moves:
        views = wait_until(lambda: (v := [cli_json(p, "board") for p in players]) and len({x["seq"] for x in v}) == 1
                           and v, 10, "every replica at the same event")
        if views[0]["summary"]["phase"] == "PHASE_OVER":
            return moves
        mover = [(p, v) for p, v in zip(players, views) if v["your_turn"]]
        check(len(mover) == 1, f"{len(mover)} players think it is their turn")
        cli_ok(mover[0][0], "move", greedy_move(mover[0][1], seen))
        moves += 1
    raise AssertionError(f"game not over after {max_moves} moves")


def listed_joined_by_name_and_played():
    """A room opened on host a is listed on host b, joined by its name alone, and a whole game is
    played to the end through the CLI; then the replica equals the host."""
    with Lan("game", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a, "--interfaces", a.ifname)
        start_halmad(b)
        out = cli_ok(a, "host", "sunday")
        check("halma join sunday" in out and f"{a.hostname}.local:{PORT}/sunday" in out, f"host's hint: {out}")
        took = wait_listed(b, "sunday")
        room = lan_rooms(b, "sunday")[0]
        check(room["host_player"] == "player-a" and room["machine"] == f"{a.hostname}.local", f"listed as {room}")
        check(room["seats"] == 2 and room["seats_taken"] == 1 and room["phase"] == "PHASE_WAITING", f"{room}")
        check(room["address"] == f"{a.ipv4}:{PORT}", f"address {room['address']}")
        table = cli_ok(b, "rooms")
        check(re.search(r"player-a \(halma-a\.local\)\s+sunday\s+2 players\s+1/2\s+waiting", table), table)
        out = cli_ok(b, "join", "sunday")
        check("seat 2" in out, out)
        moves = play_cli_game([a, b])
        ha, hb = cli_json(a, "board"), cli_json(b, "board")
        check((ha["seq"], ha["position"], ha["moves"]) == (hb["seq"], hb["position"], hb["moves"]),
              "the replica differs from the host after the game")
        print(f"listed on b {took:.2f} s after halma host returned; a {moves}-move game played by name")


def three_hosts_see_each_other():
    with Lan("three", hosts=["a", "b", "c"]) as lan:
        hosts = [lan[n] for n in "abc"]
        for h in hosts:
            start_halmad(h)
        for h in hosts:
            cli_ok(h, "host", f"room-{h.name}", "-p", "3")
        for h in hosts:
            for other in hosts:
                if other is not h:
                    wait_listed(h, f"room-{other.name}")
            names = sorted(r["name"] for r in rooms(h))
            check(names == ["room-a", "room-b", "room-c"], f"{h.name} lists {names}")
            own = [r for r in rooms(h) if r["origin"] == "ROOM_ORIGIN_HOSTED"]
            check([r["name"] for r in own] == [f"room-{h.name}"], f"{h.name}'s own: {own}")


def friends_room_by_code_only():
    """A friends room is invisible to a host without the code (neither halma nor a plain DNS-SD
    browser learns its name) and is joined with the code alone."""
    need("avahi-browse")
    with Lan("friends", hosts=["a", "b", "c"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        code = cli_json(a, "host", "secret-den", "--friends")["summary"]["code"]
        cli_ok(a, "host", "open-room")
        wait_listed(b, "open-room")
        adverts = wait_until(lambda: (out := b.run(["avahi-browse", "-prt", "_halma._tcp"], capture_output=True,
                                                   text=True, timeout=20).stdout).count("\n=;") >= 1
                             and out.count("friends=") >= 1 and out, 10, "both adverts resolved on b")
        check("secret-den" not in adverts and code.replace("-", "") not in adverts.replace("-", ""),
              f"the friends room shows through its advert: {adverts}")
        check([r["name"] for r in rooms(b)] == ["open-room"], f"b lists {rooms(b)}")
        for wrong in ["secret-den", "zzzzz-zzzzz-zzzzz-zzzzz"]:
            out = cli(b, "join", wrong)
            check(out.returncode == 1, f"joined with {wrong!r}: {out.stdout}")
        out = cli_ok(b, "join", code.upper().replace("-", ""))
        check("joined room secret-den, seat 2" in out, out)
        check(cli_json(b, "status")["summary"]["name"] == "secret-den", "b is not in the friends room")
        # Listed by who hosts it and where, as a public room is (it was a bare address).
        joined = [r for r in rooms(b) if r["name"] == "secret-den"]
        check(len(joined) == 1 and joined[0]["machine"] == f"{a.hostname}.local"
              and joined[0]["host_player"] == "player-a", f"b lists the friends room as {joined}")
        # A daemon started now counts the LAN's public rooms as it lists them, never the friends
        # room's advert (it said "2 public room(s)" beside one public room and one friends room).
        # How many it has found by the moment avahi runs is a race: 0 or 1, never 2.
        c = lan["c"]
        start_halmad(c)
        said = wait_until(lambda: (m := re.search(r"; (\d+) public room\(s\) on the LAN so far", log_of(c))) and m,
                          10, "c's discovery to run")
        check(said.group(1) in ("0", "1"), f"c counted {said.group(1)} public rooms beside one public room")


def name_collision():
    """Two hosts each open "Family": avahi renames the second service, both rooms keep their
    name, a third host lists both and is told how to pick one."""
    need("avahi-browse")
    with Lan("collide", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        for h in (a, b, c):
            start_halmad(h)
        cli_ok(a, "host", "Family")
        wait_listed(c, "Family")
        wait_listed(b, "Family")
        out = cli_ok(b, "host", "Family", "-p", "3")
        # The name is a's too: the hint names b's machine (the bare name was ambiguous).
        check(f"others on the LAN join with: halma join {b.hostname}.local/Family" in out, f"b's hint: {out}")
        # Where multicast is blocked the .local name does not resolve either: the address does.
        check(f"where multicast is blocked: halma join {b.hostname}.local:{PORT}/Family" in out
              and f"or by address: halma join {b.ipv4}:{PORT}/Family" in out, f"b's hint: {out}")
        wait_listed(c, "Family", count=2)
        listed = sorted((r["machine"], r["mode"]["players"]) for r in lan_rooms(c, "Family"))
        check(listed == [("halma-a.local", 2), ("halma-b.local", 3)], f"c lists {listed}")
        services = c.run(["avahi-browse", "-pt", "_halma._tcp"], capture_output=True, text=True, timeout=20).stdout
        check("Family #2" in services.replace("\\032", " ").replace("\\035", "#"), f"no renamed service: {services}")
        out = cli(c, "join", "Family")
        check(out.returncode == 1 and "halma-a.local" in out.stderr and "halma-b.local" in out.stderr
              and "halma join" in out.stderr, f"an ambiguous join: {out.returncode} {out.stderr}")
        out = cli_ok(c, "join", "halma-b.local/Family")
        check(cli_json(c, "status")["seats"][1]["name"] == "player-c" and "3 players" not in out, out)
        check(cli_json(c, "status")["summary"]["mode"]["players"] == 3, "joined the wrong Family")
        # One host with two rooms told apart only by case: naming the host picks neither.
        cli_ok(b, "host", "porch", "--spectate")
        cli_ok(b, "host", "PORCH", "--spectate")
        wait_listed(c, "porch")
        wait_listed(c, "PORCH")
        out = cli(c, "join", "Porch")
        check(out.returncode == 1 and "told apart by case: " in out.stderr and "say which host" not in out.stderr,
              f"a name two rooms of one host have in other cases: {out.stderr}")


def txt_follows_seats_and_phase():
    """What another host lists follows the room: seats as they fill, the phase as it starts."""
    with Lan("txt", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        for h in (a, b, c):
            start_halmad(h)
        watch = b.popen_lines(["env", f"HALMA_RUNTIME_DIR={b.dir}/run", cli_path(), "rooms", "--watch", "--json"])
        cli_ok(a, "host", "three", "-p", "3")

        def listed(seats, phase):
            def seen(line):
                r = [x for x in json.loads(line)["rooms"] if x["name"] == "three"]
                return r and r[0]["seats_taken"] == seats and r[0]["phase"] == phase
            return seen
        watch.wait_for(listed(1, "PHASE_WAITING"), 10, "b to list three with 1 of 3 seats")
        cli_ok(c, "join", "three")
        started = time.monotonic()
        watch.wait_for(listed(2, "PHASE_WAITING"), 10, "b to see the second seat taken")
        took = time.monotonic() - started
        cli_ok(a, "start", "--bot-level", "easy")
        watch.wait_for(listed(3, "PHASE_PLAYING"), 10, "b to see the game start")
        print(f"a seat taken on a showed on b after {took:.2f} s")


def cli_path():
    from halma_on_lan import HALMA
    return HALMA


def closed_room_and_killed_host_disappear():
    """A room closed, a daemon stopped (SIGTERM) and a daemon killed (SIGKILL): each room leaves
    the others' lists, the rest stay."""
    with Lan("gone", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        for h in (a, b, c):
            start_halmad(h)
        cli_ok(a, "host", "brief")
        cli_ok(a, "host", "doomed")
        cli_ok(c, "host", "stopped")
        for name in ("brief", "doomed", "stopped"):
            wait_listed(b, name)
        cli_ok(a, "close", "--room", "brief")
        closed = wait_gone(b, "brief")
        check(lan_rooms(b, "doomed") and lan_rooms(b, "stopped"), "other rooms went too")
        check(c.kill(c.halmad, signal.SIGTERM) == 0, "halmad did not stop cleanly on SIGTERM")
        stopped = wait_gone(b, "stopped")
        a.kill(a.halmad, signal.SIGKILL)
        killed = wait_gone(b, "doomed")
        print(f"left b's list: a closed room after {closed:.2f} s, a stopped daemon's after {stopped:.2f} s, "
              f"a killed daemon's after {killed:.2f} s")


def unreachable_address_falls_back():
    """The host is reachable over IPv6 only, though avahi advertises its IPv4 address too: a join
    by name tries IPv4 first, gets no answer, and goes on to the link-local IPv6 address."""
    with Lan("fallback", hosts=["a", "b"], dual_stack=True) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a, listen=f"[{a.ipv6_link_local}%{a.ifname}]:{PORT}")
        start_halmad(b, "--request-timeout-ms", "1500")
        cli_ok(a, "host", "v6only")
        wait_until(lambda: len((r := lan_rooms(b, "v6only")) and r[0]["addresses"]) >= 2, 10,
                   "v6only listed with both addresses")
        room = lan_rooms(b, "v6only")[0]
        check(room["addresses"][0] == f"{a.ipv4}:{PORT}" and "%" in room["addresses"][-1],
              f"addresses in order: {room['addresses']}")
        started = time.monotonic()
        out = cli_ok(b, "join", "v6only")
        check("seat 2" in out, out)
        check("trying" in log_of(b), "b did not say it tried the next address")
        print(f"joined over IPv6 after the IPv4 address gave no answer: {time.monotonic() - started:.2f} s")


def avahi_restart_brings_rooms_back():
    """avahi-daemon stopped and started again on the host: its rooms come back by themselves."""
    with Lan("restart", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "phoenix")
        wait_listed(b, "phoenix")
        a.stop_avahi()
        wait_gone(b, "phoenix")
        wait_until(lambda: status(a)["discovery"]["state"] == "DISCOVERY_STATE_CONNECTING", 10,
                   "a's halmad to notice avahi went")
        a.start_avahi()
        back = wait_listed(b, "phoenix", timeout=15)
        check(status(a)["discovery"]["state"] == "DISCOVERY_STATE_RUNNING", "a's discovery not running again")
        # The browsing side too: b's avahi goes and comes back, b's list empties and fills again.
        b.stop_avahi()
        wait_until(lambda: not lan_rooms(b), 10, "b's list to empty while its avahi is gone")
        b.start_avahi()
        found_again = wait_listed(b, "phoenix", timeout=15)
        check(cli_ok(b, "join", "phoenix"), "cannot join after the restarts")
        print(f"listed again {back:.2f} s after the host's avahi-daemon was back, "
              f"{found_again:.2f} s after the browser's")


def no_avahi_warns_and_address_works():
    """A host with no avahi-daemon and no D-Bus: one warning, and joining by address works both
    ways."""
    with Lan("bare", hosts=["a", "c"], no_avahi={"c"}) as lan:
        a, c = lan["a"], lan["c"]
        start_halmad(a)
        start_halmad(c)
        cli_ok(a, "host", "by-address")
        st = status(c)["discovery"]
        check(st["state"] == "DISCOVERY_STATE_UNAVAILABLE", f"c's discovery: {st}")
        warnings = [line for line in log_of(c).splitlines() if "warning: mDNS" in line]
        check(len(warnings) == 1 and "joining by address" in warnings[0], f"c's warnings: {warnings}")
        out = cli(c, "rooms")
        check(out.returncode == 0 and "LAN discovery is not running" in out.stderr, f"c's rooms: {out.stderr}")
        out = cli(c, "join", "by-address")
        check(out.returncode == 1 and "halma join HOST[:PORT]/ROOM" in out.stderr, out.stderr)
        cli_ok(c, "join", f"{a.ipv4}/by-address")  # the port defaults to 7460
        # Without mDNS the machine's name means nothing to the others: the hint gives its
        # address too, and that command, pasted as printed, joins (it named only "halma-c").
        out = cli_ok(c, "host", "on-c")
        hint = f"or by address: halma join {c.ipv4}:{PORT}/on-c"
        check(hint in out, f"c's join hint has no address: {out}")
        cli_ok(a, *hint.split("halma ", 1)[1].split())
        check(cli_json(a, "status", "-r", "on-c")["your_seat"] == 1, "a has no seat in c's room")


def ipv6_only_link():
    """Hosts that share only an IPv6 link-local network: found, resolved with the interface
    scope, joined by name, and a move goes through."""
    with Lan("v6", hosts=["a", "b"], ipv6_only=True) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "six")
        wait_listed(b, "six")
        room = lan_rooms(b, "six")[0]
        check(re.fullmatch(r"\[fe80::[0-9a-f:]+%\d+\]:7460", room["address"]), f"address {room['address']}")
        cli_ok(b, "join", "six")
        view = cli_json(a, "board")
        cli_ok(a, "move", greedy_move(view))
        wait_until(lambda: cli_json(b, "board")["your_turn"], 10, "the move to reach b over IPv6")


def service_user_reaches_avahi():
    """halmad running as the service's static system user (sysusers.d/halma.conf) publishes its
    rooms through the host's real D-Bus and Debian's avahi D-Bus policy."""
    with Lan("user", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        a.add_system_user("halma", f"{a.dir}/home")
        start_halmad(a, user="halma")
        start_halmad(b)
        out = a.run(["ps", "-o", "user=", "-p", str(pid_of(a))], capture_output=True, text=True)
        check(out.stdout.strip() == "halma", f"halmad runs as {out.stdout.strip()!r}")
        cli_ok(a, "host", "office", user="halma")
        wait_listed(b, "office")
        check(status(b)["discovery"]["state"] == "DISCOVERY_STATE_RUNNING", "b's discovery")
        check(cli(a, "daemon", "status", "--json", user="halma").stdout.count("DISCOVERY_STATE_RUNNING") == 1,
              "a's discovery is not running as the service user")


def pid_of(host):
    """halmad's own pid inside the host (the Popen is nsenter/setpriv, which exec it)."""
    return host.halmad.pid


def interfaces_leave_others_out():
    """--interfaces naming no interface of the host publishes nothing there, while the link
    itself carries mDNS (an avahi-publish control is seen)."""
    need("avahi-publish")
    with Lan("ifaces", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a, "--interfaces", "docker0")
        start_halmad(b)
        cli_ok(a, "host", "hidden")
        a.popen(["avahi-publish", "-s", "control", "_halma._tcp", "7461", "proto=1", "daemon=0123456789abcdef",
                 "rid=" + "ab" * 16, "room=control", "host=x", "players=2", "sets=1", "rules=", "limit=1000",
                 "seats=0/2", "phase=waiting"], log="avahi-publish")
        wait_listed(b, "control")
        time.sleep(1.5)
        check(not lan_rooms(b, "hidden"), "a room published on an interface left out")
        check("none of the interfaces" in log_of(a), "no warning that docker0 does not exist")
        # Said at start, before any room, and in the status: a typo left every room unseen while
        # the status said discovery ran.
        check(f"no interface here is called docker0 (there are: " in log_of(a), f"a's log: {log_of(a)}")
        detail = status(a)["discovery"]["detail"]
        check("no interface here is called docker0" in detail and a.ifname in detail, f"a's status: {detail}")
        check("no interface here" not in status(b)["discovery"]["detail"], "b's status complains")


def forget_host_by_its_machines_name():
    """b joined a's room by its name; a's daemon comes back with a new key and b refuses it,
    naming halma forget-host. b never typed nor saw a's address: forget-host takes the machine's
    name as the LAN lists it (it asked for "host:port as it was joined")."""
    with Lan("forget", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "keys")
        wait_listed(b, "keys")
        cli_ok(b, "join", "keys")
        a.kill(a.halmad, signal.SIGTERM)
        os.remove(f"{a.dir}/state/curve")
        start_halmad(a)
        wait_until(lambda: "has a new key" in log_of(b), 15, "b to refuse a's new key")
        out = cli_ok(b, "forget-host", f"{a.hostname}.local")
        check(f"forgot the key of {a.ipv4}:{PORT}" in out, f"forget-host by name: {out}")
        wait_until(lambda: cli_json(b, "status", "-r", "keys")["connection"] == "CONNECTION_STATE_CONNECTED", 15,
                   "b to rejoin a after forget-host")
        out = cli(b, "forget-host", "nosuch.local")
        check(out.returncode == 1 and "no key is pinned for 'nosuch.local'" in out.stderr, out.stderr)


def a_copied_advert_cannot_rename_a_joined_rooms_host():
    """Anyone can advertise a room id (it is in every public advert): a copy of sunday's advert
    from another machine, "hosted by mallory", must not change who b sees hosting the room it
    joined (it showed "mallory (that machine)" for good). Nor does the copy push the room off."""
    need("avahi-publish")
    with Lan("forge", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "sunday")
        wait_listed(b, "sunday")
        rid = lan_rooms(b, "sunday")[0]["room_id"]
        cli_ok(b, "join", "sunday")
        c.popen(["avahi-publish", "-s", "sunday copy", "_halma._tcp", str(PORT), "proto=1",
                 "daemon=0123456789abcdef", "rid=" + rid, "room=sunday", "host=mallory", "players=2", "sets=1",
                 "rules=", "limit=1000", "seats=1/2", "phase=waiting"], log="avahi-publish")
        # b's daemon has the copy (two adverts of the room, from two machines)...
        wait_until(lambda: status(b)["discovery"].get("lan_rooms", 0) >= 2, 10, "the copy to reach b")
        joined = [r for r in rooms(b) if r["room_id"] == rid and r["origin"] == "ROOM_ORIGIN_JOINED"]
        check(len(joined) == 1, f"b's joined sunday: {joined}")
        # ...but the room b joined is still a's.
        check(joined[0].get("host_player") == "player-a" and joined[0].get("machine") == f"{a.hostname}.local",
              f"the copied advert renamed the joined room's host: {joined[0]}")


def a_machine_off_the_network_is_not_called_refused():
    """The host's machine leaves the network (its link down): a join there says the machine
    cannot be reached, not "connection refused: is halmad running there?" (it is), and a
    daemon that is not running there is still called refused."""
    with Lan("offline", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b, "--request-timeout-ms", "9000")
        cli_ok(a, "host", "porch")
        out = cli(b, "join", f"{a.ipv4}:{PORT + 10}/porch")  # nothing listens on that port
        check(out.returncode == 1 and "connection refused" in out.stderr, f"a port nobody listens on: {out.stderr}")
        a.run(["ip", "link", "set", a.ifname, "down"], check=True)
        # As after a while off the network: b no longer knows a's hardware address, so its
        # connect fails when nobody answers ARP (a known one waits out TCP's retries instead).
        b.run(["ip", "neigh", "flush", "all"], check=True)
        started = time.monotonic()
        out = cli(b, "join", f"{a.ipv4}:{PORT}/porch")
        check(out.returncode == 1 and "cannot be reached" in out.stderr and "refused" not in out.stderr,
              f"a machine off the network: {out.stderr}")
        print(f"told the machine cannot be reached after {time.monotonic() - started:.1f} s")


def a_room_closed_since_it_was_listed_is_said_gone():
    """b joins a room by the name its list still shows, though the host closed it meanwhile (its
    avahi-daemon stopped, so the goodbye never went out): b is told the room is gone, not the
    host's "no room here (friends rooms need their code)", which sent players hunting a code."""
    with Lan("stale", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "porch")
        wait_listed(b, "porch")
        a.avahi.send_signal(signal.SIGSTOP)
        try:
            cli_ok(a, "close", "--room", "porch")
            check(lan_rooms(b, "porch"), "b's list dropped porch though no goodbye could go out")
            out = cli(b, "join", "porch")
        finally:
            a.avahi.send_signal(signal.SIGCONT)
        check(out.returncode == 1 and "porch (player-a at halma-a.local) is gone" in out.stderr
              and "friends rooms" not in out.stderr, f"a stale name: {out.stderr}")
        print(f"joined by a stale name: {out.stderr.strip()}")


def host_cell(host, room):
    """The HOST column of `halma rooms` (as a person reads it) on the row of `room`, joined."""
    for line in cli_ok(host, "rooms").splitlines()[1:]:
        cells = re.split(r" {2,}", line.strip())
        if len(cells) > 1 and cells[1] == room and "joined" in line:
            return cells[0]
    return None


def a_joined_rooms_host_is_shown_alike_with_or_without_its_advert():
    """A room joined by address is shown hosted by "player-a (halma-a.local)" while its advert is
    heard, and the same once the advert is gone (the host's avahi-daemon stopped, as when
    multicast drops for a while) and back: the HOST column of `halma rooms` went between that and
    "10.77.0.1:7460" as adverts came and went."""
    with Lan("steady", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "steady")
        wait_listed(b, "steady")
        cli_ok(b, "join", f"{a.ipv4}/steady")  # learnt by address, not by the advert
        shown = f"player-a ({a.hostname}.local)"
        wait_until(lambda: host_cell(b, "steady") == shown, 10, f"b to show steady hosted by {shown}")
        a.stop_avahi()
        wait_until(lambda: status(b)["discovery"].get("lan_rooms", 0) == 0, 10, "a's adverts to go from b")
        check(host_cell(b, "steady") == shown, f"without its advert, steady is hosted by {host_cell(b, 'steady')!r}")
        joined = [r for r in rooms(b) if r["name"] == "steady"]
        check(len(joined) == 1 and joined[0].get("machine") == f"{a.hostname}.local"
              and joined[0].get("host_player") == "player-a", f"b's steady without its advert: {joined}")
        a.start_avahi()
        wait_until(lambda: status(b)["discovery"].get("lan_rooms", 0) >= 1, 15, "a's adverts back at b")
        check(host_cell(b, "steady") == shown, f"with its advert back, steady is hosted by {host_cell(b, 'steady')!r}")
        print(f"steady shown hosted by {shown} with its advert, without it, and with it back")


def rooms_of_one_name_are_told_apart_by_machine():
    """b sits in a room called lunch at a and in another at c: `-r lunch` names both as
    MACHINE/NAME, and either is picked that way, with or without ".local" and the port (only the
    hex start of an id, which `halma rooms` shows nowhere, or ADDRESS/NAME did)."""
    with Lan("samename", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        for h in (a, b, c):
            start_halmad(h)
        ids = {h.name: cli_json(h, "host", "lunch")["summary"]["room_id"] for h in (a, c)}
        wait_listed(b, "lunch", count=2)
        for h in (a, c):
            cli_ok(b, "join", f"{h.hostname}.local/lunch")
        wait_until(lambda: all(r.get("machine") for r in rooms(b) if r["origin"] == "ROOM_ORIGIN_JOINED"), 10,
                   "b to know the machines of its rooms")
        out = cli(b, "status", "-r", "lunch")
        check(out.returncode != 0 and f"{a.hostname}.local/lunch" in out.stderr
              and f"{c.hostname}.local/lunch" in out.stderr, f"-r lunch: {out.stderr!r}")
        for h in (a, c):
            for typed in (f"{h.hostname}.local/lunch", f"{h.hostname}/lunch", f"{h.hostname.upper()}:{PORT}/lunch"):
                got = cli_json(b, "board", "-r", typed)["summary"]["room_id"]
                check(got == ids[h.name], f"-r {typed}: room {got}, not {ids[h.name]}")
        # Asked of a machine by its name, its rooms are shown hosted there (by its address alone).
        for h in (a, c):
            table = cli_ok(b, "rooms", f"{h.hostname}.local")
            check(re.search(rf"{h.hostname}\.local \({re.escape(h.ipv4)}:{PORT}\)\s+lunch", table),
                  f"halma rooms {h.hostname}.local:\n{table}")
        print("two rooms called lunch picked by machine name, with or without .local and the port")


if __name__ == "__main__":
    main({f.__name__: f for f in [
        listed_joined_by_name_and_played, three_hosts_see_each_other, friends_room_by_code_only, name_collision,
        txt_follows_seats_and_phase, closed_room_and_killed_host_disappear, avahi_restart_brings_rooms_back,
        no_avahi_warns_and_address_works, ipv6_only_link, service_user_reaches_avahi, interfaces_leave_others_out,
        unreachable_address_falls_back, a_copied_advert_cannot_rename_a_joined_rooms_host,
        a_machine_off_the_network_is_not_called_refused, a_room_closed_since_it_was_listed_is_said_gone,
        forget_host_by_its_machines_name, a_joined_rooms_host_is_shown_alike_with_or_without_its_advert,
        rooms_of_one_name_are_told_apart_by_machine]})
