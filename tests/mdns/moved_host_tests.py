"""A host whose machine gets a new address (a new DHCP lease, a laptop moved from its dock to
Wi-Fi), on real test hosts (lanhosts.py): the players who joined its rooms follow its adverts to
the new address, whether their daemon ran through the change or was restarted after it, and only
to a host with the key the room's host had. Before, they kept calling the old address for good,
and a join at the new one found their seat taken by the computer keeping it."""
import signal
import subprocess
import time

from halma_on_lan import PORT, cli_json, cli_ok, lan_rooms, log_of, rooms, start_halmad, status, wait_listed
from halmatest import greedy_move
from lanhosts import Lan, check, main, need, wait_until

NEW_ADDRESS = "10.77.0.11"


def move_address(host, new_ip):
    """The host's machine leaves its address for another on the same LAN (the old one first: a
    secondary address would go with it)."""
    for verb, ip in (("del", host.ipv4), ("add", new_ip)):
        subprocess.run(["ip", "-n", host.netns, "addr", verb, f"{ip}/24", "dev", host.ifname], check=True,
                       capture_output=True, timeout=15)
    host.ipv4 = new_ip


def joined(host):
    """{room name: (address, host out of reach)} of the rooms this host joined."""
    return {r["name"]: (r.get("address"), r.get("host_out_of_reach", False))
            for r in rooms(host) if r["origin"] == "ROOM_ORIGIN_JOINED"}


def wait_rejoined_at(host, names, address, timeout):
    started = time.monotonic()
    wait_until(lambda: all(joined(host).get(n) == (address, False) for n in names), timeout,
               f"{', '.join(names)} on {host.name} rejoined at {address}", 0.2)
    return time.monotonic() - started


def one_move(players, room):
    """Whoever is to move in `room` moves; every player's board then shows it."""
    views = wait_until(lambda: (v := [cli_json(p, "board", "-r", room) for p in players])
                       and len({x["seq"] for x in v}) == 1 and v, 10, f"every replica of {room} at the same event")
    mover = [(p, v) for p, v in zip(players, views) if v["your_turn"]]
    check(len(mover) == 1, f"{len(mover)} players think it is their turn in {room}")
    cli_ok(mover[0][0], "move", "-r", room, greedy_move(mover[0][1]))
    seq = int(views[0]["seq"]) + 1
    wait_until(lambda: all(int(cli_json(p, "board", "-r", room)["seq"]) == seq for p in players), 10,
               f"the move in {room} to reach every player")


def host_two_rooms(a, b):
    """A public room and a friends room on a, both joined from b: (friends room's name)."""
    cli_ok(a, "host", "sunday")
    code = cli_json(a, "host", "den", "--friends")["summary"]["code"]
    wait_listed(b, "sunday")
    cli_ok(b, "join", "sunday")
    cli_ok(b, "join", code)
    old = f"{a.ipv4}:{PORT}"
    wait_until(lambda: joined(b) == {"sunday": (old, False), "den": (old, False)}, 10, "b in both rooms")
    # The friends room is followed by the machine its host's adverts name, learnt from them.
    wait_until(lambda: all(r.get("machine") == f"{a.hostname}.local" for r in rooms(b)
                           if r["origin"] == "ROOM_ORIGIN_JOINED"), 10, "b to know the rooms' machine")


def a_host_with_a_new_address_is_followed():
    """a's address changes under two rooms b sits in (a public one and a friends one): b rejoins
    both at the new address by itself, and the games go on."""
    with Lan("moved", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        host_two_rooms(a, b)
        one_move([a, b], "sunday")
        move_address(a, NEW_ADDRESS)
        took = wait_rejoined_at(b, ["sunday", "den"], f"{NEW_ADDRESS}:{PORT}", 30)
        check("rejoining there" in log_of(b), "b's log does not say where it followed the host")
        for room in ("sunday", "den"):
            one_move([a, b], room)
        print(f"both rooms rejoined at a's new address {took:.1f} s after it changed; a move played in each")


def a_restarted_player_finds_its_host_at_its_new_address():
    """b is stopped, a's address changes, b starts again: its seats file names the old address,
    the LAN the new one; b rejoins its seat there (not a new one, not the computer's)."""
    with Lan("moved-restart", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        host_two_rooms(a, b)
        seat = cli_json(b, "board", "-r", "sunday")["your_seat"]
        check(b.kill(b.halmad, signal.SIGTERM) == 0, "b's halmad did not stop cleanly")
        move_address(a, NEW_ADDRESS)
        start_halmad(b)
        took = wait_rejoined_at(b, ["sunday"], f"{NEW_ADDRESS}:{PORT}", 30)
        view = cli_json(b, "board", "-r", "sunday")
        check(view["your_seat"] == seat, f"b came back in seat {view['your_seat']}, not its own {seat}")
        one_move([a, b], "sunday")
        print(f"after a restart, b rejoined its seat at a's new address in {took:.1f} s")


def an_advert_from_another_key_is_not_followed():
    """a's daemon is gone, and c (another daemon, another key) advertises a copy of the room b
    sits in: b does not go there (it would hand c its seat token), and is back with a when a
    returns at its own address."""
    need("avahi-publish")
    with Lan("moved-forged", hosts=["a", "b", "c"]) as lan:
        a, b, c = lan["a"], lan["b"], lan["c"]
        start_halmad(a)
        start_halmad(b)
        start_halmad(c)
        cli_ok(a, "host", "sunday")
        wait_listed(b, "sunday")
        rid = lan_rooms(b, "sunday")[0]["room_id"]
        cli_ok(b, "join", "sunday")
        a.kill(a.halmad, signal.SIGKILL)
        c.popen(["avahi-publish", "-s", "sunday copy", "_halma._tcp", str(PORT), "proto=1",
                 "daemon=0123456789abcdef", "rid=" + rid, "room=sunday", "host=player-a", "players=2", "sets=1",
                 "rules=", "limit=1000", "seats=1/2", "phase=waiting"], log="avahi-publish")
        wait_until(lambda: status(b)["discovery"].get("lan_rooms", 0) >= 1, 15, "the copy to reach b")
        wait_until(lambda: "is not the one whose rooms the LAN advertises there" in log_of(b), 15,
                   "b to refuse the copy's host for its key")
        check(joined(b).get("sunday", (None,))[0] == f"{a.ipv4}:{PORT}",
              f"b followed the copied advert: {joined(b)}")
        check("join" not in log_of(c).lower() or "room sunday" not in log_of(c),
              f"c heard of b's seat: {log_of(c)[-2000:]}")
        start_halmad(a)
        took = wait_rejoined_at(b, ["sunday"], f"{a.ipv4}:{PORT}", 30)
        print(f"the copy at c was refused for its key; b back with a {took:.1f} s after a restarted")


if __name__ == "__main__":
    main({f.__name__: f for f in [
        a_host_with_a_new_address_is_followed, a_restarted_player_finds_its_host_at_its_new_address,
        an_advert_from_another_key_is_not_followed]})
