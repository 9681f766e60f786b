"""`halma play` with no room yet: the lobby lists the LAN's rooms and follows them, on real test
hosts (lanhosts.py), in a real terminal (tmux), as a person sees it."""
import time

from halma_on_lan import HALMA, cli_ok, start_halmad, wait_listed
from lanhosts import Lan, check, main, need, wait_until
from terminal import Terminal


def printed_lists(t):
    """How many times the lobby's list was printed, the terminal's scrollback included."""
    out = t._tmux("capture-pane", "-p", "-S", "-", "-t", t.name).stdout
    return out.count("Join (number")


def the_lobby_is_not_printed_again_at_every_change():
    """b's lobby while a opens a room a second for eight seconds: the list is printed again at
    most once every 5 s, and the last one shows every room. Each change printed it again (36
    times in four minutes beside a room of computers going between games), pushing what the
    player had begun to type out of sight, and renumbering the rows under their eyes."""
    need("tmux")
    with Lan("lobby", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        start_halmad(a)
        start_halmad(b)
        cli_ok(a, "host", "first")
        wait_listed(b, "first")
        argv = b._enter([HALMA, "--runtime-dir", f"{b.dir}/run", "play"], {})
        with Terminal(lan.tmp, "lobby", 120, 40, f"{b.dir}/run", argv=argv) as t:
            t.wait_text("Join (number")
            started = time.monotonic()
            for i in range(8):
                cli_ok(a, "host", f"room{i}")
                time.sleep(1)
            wait_until(lambda: "room7" in t.screen(), 10, "the lobby to show the last room")
            took = time.monotonic() - started
            printed = printed_lists(t)
            # The first list, then one per 5 s at most over the changes and the wait after.
            check(printed <= 2 + int(took / 5), f"the list was printed {printed} times in {took:.1f} s")
            # A number picks from the list shown: room7's row, as printed last.
            rows = [line for line in t.screen().split("\n") if "room7" in line]
            check(rows and rows[-1].startswith("["), f"room7's row: {rows}")
            number = rows[-1][1:rows[-1].index("]")]
            t.type_line(number)
            t.wait_text("room room7", timeout=15)
            print(f"the list printed {printed} times in {took:.1f} s of a room opening every second; "
                  f"room7 picked by its number {number}")


if __name__ == "__main__":
    main({f.__name__: f for f in [the_lobby_is_not_printed_again_at_every_change]})
