#!/usr/bin/env python3
"""The command line keeps its contract (README, docs/api.md): exit code 2 and a message starting
`halma:` for every usage or input error, typed as a user would, against a real daemon."""

import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request

import halmatest
from halmatest import Cluster, check, free_port, greedy_move, run, wait_until
from terminal import Terminal


def typed(daemon, *args, env=None):
    """`halma ARGS` as typed into a script: no terminal on stdin."""
    return subprocess.run([halmatest.HALMA, "--runtime-dir", daemon.runtime_dir, *args], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL, env=env)


def usage_errors_exit_2():
    """Each of these is refused before anything reaches the daemon: exit 2, one `halma:` message
    naming the problem, and no room made."""
    with Cluster("cli-usage") as c:
        ann = c.add("ann")
        for args, says in [
            (["host", "t", "-p", "5"], "5"),
            (["host", "t", "--rules", "jump=long"], "jump"),
            (["host", "t", "--rules", "jumps=longest"], "longest"),
            (["host", ""], "a room name cannot be blank"),
            (["host", "x" * 41], "a room name is at most 40 bytes"),
            (["host", "t", "--move-limit", "-1"], "-1"),
            (["host", "t", "--move-limit", "0"], "0"),
            (["host", "t", "--bots", "-1"], "-1"),
            (["host", "t", "--sets", "4"], "4"),
            (["host", "t", "--bot-level", "easy"], "halma start --bot-level easy"),  # no --bots: it was ignored
            (["host", "t", "--turn-limit-s", "0"], "0"),
            (["host", "t", "--bogus"], "`--bogus` is not an option of `halma host`"),
            # An option the command does not have, named as such, and the one meant where one is
            # near: it said "medium --level" was not expected, and to quote 'x medium' as a name.
            (["host", "x", "--level", "medium"],
             "`--level` is not an option of `halma host` (did you mean `--bot-level`?)"),
            (["move", "--levl", "n3-m7"], "`--levl` is not an option of `halma move`"),
            # An option with its value left off (CLI11: "--sets: 1 required INT:INT in [1 - 3] missing").
            (["host", "x", "--sets"], "--sets needs a number from 1 to 3 after it"),
            (["host", "x", "-p"], "--players needs one of 2, 3, 4, 6 after it"),
            (["start", "--bot-level"], "--bot-level needs one of easy, hard, max after it"),
            (["mvoe", "n3-m7"], "did you mean `move`?"),
            # A command's own command mistyped or missing (CLI11: "A subcommand is required").
            (["daemon", "stop"], "`stop` is not a `halma daemon` command; it has status"),
            (["analyze", "bestt"], "`bestt` is not a `halma analyze` command (did you mean `best`?)"),
            (["daemon"], "`halma daemon` needs one of its commands: status"),
            # A command's option before the command: said so, with where it goes (CLI11 said
            # "arguments were not expected: vs-hard -r").
            (["-r", "vs-hard", "move", "n3-m7"], "`-r` is an option of `halma move`: put it after the command"),
            (["analyze", "--level", "hard", "best", "startpos"],
             "`--level` is an option of `halma analyze best`: put it after the command"),
            (["--bogus", "status"], "not expected: --bogus"),  # no command has it: not sent to one
            # A room's name of two words, unquoted: the command again, quoted (CLI11 said only
            # that the second word was not expected). A move's two words are no name to quote.
            (["join", "--spectate", "new", "room"], "a name with spaces goes in quotes: halma join --spectate 'new room'"),
            (["host", "office", "six", "-p", "3"], "a name with spaces goes in quotes: halma host -p 3 'office six'"),
            (["move", "n3", "m7"], "not expected: m7; a move is one word, its holes joined by dashes: halma move n3-m7"),
            # An address that cannot be one: it went to the daemon, which refused it (exit 1).
            (["join", ":17481/family"], "there is no host before the :17481"),
            (["join", ":17481"], "there is no host before the :17481"),
            (["join", "ann-laptop.local:x7460/family"], "the port is 1 to 65535, and 'x7460' is not"),
            (["join", "ann-laptop.local:/family"], "there is no port after the ':'"),
            (["join", "fe80::1/family"], "an IPv6 address goes in brackets"),
            (["join", "[fe80::1/family"], "this one has no ]"),
            (["join", "ann laptop/family"], "'ann laptop' cannot be a host's name or address: it has a space"),
            (["rooms", ":17481"], "there is no host before the :17481"),
            (["rooms", "ann-laptop.local:0"], "the port is 1 to 65535, and '0' is not"),
            # A word where a number goes ("Value abc not in range 0 to 64"), and one out of range.
            (["analyze", "perft", "abc"], "depth: 'abc' is not a number (from 0 to 64)"),
            (["analyze", "perft", "99"], "depth: '99' is not between 0 and 64"),
            (["host", "t", "--turn-limit-s", "1.5"], "'1.5' is not a whole number (from 1 to 86400)"),
            (["analyze", "best", "startpos", "--time", "abc"], "--time: 'abc' is not a number"),
            (["vote", "maybe"], "'maybe' is not one of new, cancel, leader, takeback"),
        ]:
            out = ann.cli(*args)
            typed = " ".join(args)
            check(out.returncode == 2, f"halma {typed}: rc {out.returncode}: {out.stderr}")
            check(out.stderr.startswith("halma: ") and says in out.stderr.split("\n")[0],
                  f"halma {typed}: the message: {out.stderr!r}")
            check(out.stdout == "", f"halma {typed}: printed {out.stdout!r}")
        # The way on is the help of the command typed (it was `halma --help`, a list of commands).
        for args, helps in [(["move"], "halma move --help"), (["host", "t", "-p", "5"], "halma host --help"),
                            (["mvoe", "n3-m7"], "halma --help"), (["analyze", "perft", "abc"], "halma analyze perft --help")]:
            out = ann.cli(*args)
            check(f"Run `{helps}` for more." in out.stderr, f"halma {' '.join(args)}: {out.stderr!r}")
        rooms = ann.cli_json("rooms").get("rooms")
        check(not rooms, f"a refused host made a room: {rooms}")
        # The same options in range are taken: the checks above are not refusing everything.
        out = ann.cli("host", "t", "-p", "3", "--rules", "jumps=long", "--move-limit", "5")
        check(out.returncode == 0, f"a good host: rc {out.returncode}: {out.stderr}")


def help_and_version():
    """`halma help`, `--help` and `-V`: exit 0; usage lines name `halma`, not the path it ran
    from."""
    with Cluster("cli-help") as c:
        ann = c.add("ann")
        for args in [["help"], ["--help"]]:
            out = ann.cli(*args)
            check(out.returncode == 0, f"halma {args[0]}: rc {out.returncode}: {out.stderr}")
            check("Usage: halma " in out.stdout and "/halma" not in out.stdout, f"halma {args[0]}: {out.stdout[:200]}")
            check(" move " in out.stdout and " play " in out.stdout, f"halma {args[0]} lists no commands")
        out = ann.cli("-V")
        check(out.returncode == 0 and out.stdout.startswith("halma "), f"halma -V: {out.returncode} {out.stdout}")


def moves_as_people_write_them():
    """A move written "N1 – M5" (capitals, spaces, a word processor's dash) is played as n1-m5; a
    line of 300 characters is refused without being echoed; and halma play, quit, says the seat
    is still the player's (a family thought /quit gave it up)."""
    with Cluster("cli-moves") as c:
        ann = c.add("ann")
        check(ann.cli("host", "t", "--bots", "1", "--bot-level", "easy").returncode == 0, "host refused")
        wait_until(lambda: ann.api().view().your_turn, 10, "ann's turn")
        first = greedy_move(ann.api().view())  # "n1-m5" and the like
        frm, to = first.split("-")
        out = ann.cli("move", f"{frm.upper()} \u2013 {to.upper()}")
        check(out.returncode == 0 and f"played {first}" in out.stdout, f"the move as typed: {out.stdout}{out.stderr}")
        out = ann.cli("move", "x" * 300)
        check(out.returncode == 2 and "that is not a move (300 characters)" in out.stderr
              and "x" * 50 not in out.stderr, f"a 300-character move: {out.stderr!r}")
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "play"], input="/quit\n",
                             capture_output=True, text=True, timeout=30)
        check(out.returncode == 0 and "your seat in t stays yours" in out.stdout, f"play, then /quit: {out.stdout[-300:]}")
        print(f"'{frm.upper()} \u2013 {to.upper()}' played as {first}")


def rooms_are_named_for_the_user():
    """`halma play` in a daemon with several rooms names them and says `-r ROOM` (exit 2); a
    wrong room name lists the rooms there are and guesses the one meant, for this daemon's rooms
    and for a host's in `halma join HOST/ROOM`."""
    with Cluster("cli-rooms") as c:
        ann, bob = c.add("ann"), c.add("bob")
        for name in ["sunday", "lunch"]:
            check(ann.cli("host", name).returncode == 0, f"host {name} refused")
        out = typed(ann, "play")
        check(out.returncode == 2, f"play among two rooms: rc {out.returncode}: {out.stderr}")
        check(out.stderr.startswith("halma: ") and "-r ROOM" in out.stderr and "lunch, sunday" in out.stderr,
              f"play among two rooms: {out.stderr!r}")
        out = typed(ann, "board", "-r", "sundy")
        check(out.returncode == 1, f"board -r sundy: rc {out.returncode}")
        check("rooms here: lunch, sunday" in out.stderr and "did you mean `sunday`?" in out.stderr,
              f"board -r sundy: {out.stderr!r}")
        check(all(line.startswith("halma: ") for line in out.stderr.splitlines()), f"a line without halma: {out.stderr!r}")
        out = typed(bob, "join", f"{ann.address}/lnch")
        check(out.returncode == 1, f"join lnch: rc {out.returncode}")
        check(f"rooms at {ann.address}: lunch, sunday" in out.stderr and "did you mean `lunch`?" in out.stderr,
              f"join {ann.address}/lnch: {out.stderr!r}")
        # Named right, each works: the hints above are not said of every room.
        check(typed(ann, "board", "-r", "sunday").returncode == 0, "board -r sunday refused")
        check(typed(bob, "join", f"{ann.address}/lunch").returncode == 0, "join lunch refused")


def port_free(port):
    """Whether nothing listens on 127.0.0.1:port (then a connect to it is refused)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def no_daemon_is_said_at_once():
    """A runtime directory whose halmad ended and left its socket file: halma says no halmad is
    running, instead of waiting for an answer until its timeout and blaming the daemon's
    slowness. Likewise a join or listing at a host address where nothing listens."""
    with Cluster("cli-nodaemon") as c:
        ann = c.add("ann")
        ann.kill(signal.SIGKILL)  # leaves api.sock behind, nothing listening on it
        check(os.path.exists(os.path.join(ann.runtime_dir, "api.sock")), "no socket file left behind")
        out = typed(ann, "--timeout-ms", "20000", "daemon", "status")
        check(out.returncode == 1, f"daemon status: rc {out.returncode}")
        check(out.stderr.startswith("halma: no halmad is running") and "did not answer" not in out.stderr,
              f"daemon status without a daemon: {out.stderr!r}")
        # A host address where nothing listens: the daemon says the connection was refused
        # (rather than that the host did not answer in time).
        ann.start()
        port = free_port()
        for args in (["join", f"127.0.0.1:{port}/sunday"], ["rooms", f"127.0.0.1:{port}"]):
            out = typed(ann, "--timeout-ms", "20000", *args)
            check(out.returncode == 1 and out.stderr.startswith("halma: ") and "connection refused" in out.stderr,
                  f"halma {' '.join(args)} with nothing listening: rc {out.returncode}: {out.stderr!r}")
            check("misspelt" not in out.stderr, f"an address doubted as a name: {out.stderr!r}")
        # Something listens on the port but not on the port + 1, where a daemon asks a host's
        # key first (a firewall that lets one through): that port is named, not only the one
        # that listens ("nothing answers at" the listening port misled).
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        if not port_free(port + 1):
            listener.close()
        else:
            with listener:
                out = typed(ann, "--timeout-ms", "20000", "join", f"127.0.0.1:{port}/sunday")
                check(out.returncode == 1 and f"127.0.0.1:{port + 1}, its key port" in out.stderr
                      and "both ports" in out.stderr, f"join with only the key port closed: {out.stderr!r}")
        # A room name or chat line that is not UTF-8 (a Latin-1 terminal's "café"): said so, with no
        # line of libprotobuf's and no "not a halma.v1 message" from the daemon.
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "host", b"caf\xe9", "--spectate"],
                             capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        err = out.stderr.decode(errors="replace")
        check(out.returncode == 1 and err.startswith("halma: the name given is not UTF-8") and "libprotobuf" not in err,
              f"a room name that is not UTF-8: rc {out.returncode}: {err!r}")


def loopback_name():
    """A machine's name other than localhost that /etc/hosts gives a loopback address (Debian
    gives the machine's own name 127.0.1.1), and that address; None when there is none. Looked
    up in the file: no name is sent to a DNS server."""
    try:
        with open("/etc/hosts") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split("#")[0].split()
        if len(fields) < 2 or not fields[0].startswith("127."):
            continue
        for name in fields[1:]:
            if name.lower().rstrip(".") == "localhost" or name.lower().endswith(".localhost"):
                continue
            found = {a[4][0] for a in socket.getaddrinfo(name, None, socket.AF_INET)}
            if found == {fields[0]}:
                return name, fields[0]
    return None


def a_name_is_doubted_only_where_a_typo_can_be():
    """A refused connection at a machine's name asks "Or is the name NAME misspelt?" (ZeroMQ says
    a name it cannot resolve was refused): only of a name, never of localhost or an address
    written out, and not of a name this daemon has joined a host at (it resolved then)."""
    with Cluster("cli-misspelt") as c:
        bob = c.add("bob")
        port = free_port()
        for where in ("localhost", "LocalHost", "127.1"):
            out = typed(bob, "--timeout-ms", "20000", "rooms", f"{where}:{port}")
            check(out.returncode == 1 and "nothing answers at" in out.stderr,
                  f"rooms at {where} with nothing listening: rc {out.returncode}: {out.stderr!r}")
            check("misspelt" not in out.stderr, f"{where} doubted as a name: {out.stderr!r}")
        named = loopback_name()
        if named is None:
            print("no name but localhost for a loopback address in /etc/hosts: the hint's name part is not run")
            return
        name, address = named
        # A name nothing has answered at: it may be mistyped.
        out = typed(bob, "--timeout-ms", "20000", "join", f"{name}:{port}/sunday")
        check(out.returncode == 1 and f"Or is the name {name} misspelt?" in out.stderr,
              f"join at {name} with nothing listening: {out.stderr!r}")
        # A host joined at that name, then stopped: its name is not in doubt.
        ann = halmatest.Daemon(c, "ann")
        ann.address = f"{address}:{ann.port}"
        c.daemons.append(ann)
        ann.start()
        check(ann.cli("host", "sunday").returncode == 0, "host sunday refused")
        out = typed(bob, "join", f"{name}:{ann.port}/sunday")
        check(out.returncode == 0, f"join at {name}:{ann.port}: rc {out.returncode}: {out.stderr!r}")
        ann.kill()

        def refused():
            out = typed(bob, "--timeout-ms", "20000", "rooms", f"{name}:{ann.port}")
            return out if out.returncode == 1 and "nothing answers at" in out.stderr else None
        out = wait_until(refused, 15, f"rooms at {name}:{ann.port} refused")
        check("misspelt" not in out.stderr, f"a name joined at before doubted: {out.stderr!r}")
        print(f"named {name} ({address})")


def isolated_from_dns(test):
    """Runs `test` (a function of this script) again in a network and mount namespace of its own:
    only loopback up, and /etc/nsswitch.conf bind-mounted over by one that looks host names up in
    /etc/hosts alone. A name not there fails at once, in halma and halmad alike, and no lookup can
    leave the machine (DNS is never asked, and there is no route out). Where namespaces cannot be
    made (not root, and no user namespaces) it says why and exits 77: ctest reports the test as
    not run, never as passed."""
    if os.environ.get("HALMA_TEST_NO_DNS") == "1":
        test()
        return True
    tmp = tempfile.mkdtemp(prefix="halma-no-dns-")
    nsswitch = os.path.join(tmp, "nsswitch.conf")
    with open(nsswitch, "w") as f:
        f.write("hosts: files\n")
    unshare = ["unshare"] + ([] if os.geteuid() == 0 else ["--map-root-user"]) + ["--net", "--mount", "--"]
    inside = "ip link set lo up && mount --bind \"$1\" /etc/nsswitch.conf && shift && exec \"$@\""
    try:
        probe = subprocess.run(unshare + ["sh", "-c", inside, "sh", nsswitch, "true"], capture_output=True,
                               text=True, timeout=30)
        if probe.returncode != 0:
            print(f"no network namespace could be made here ({probe.stderr.strip()}): not run")
            sys.exit(77)
        out = subprocess.run(unshare + ["sh", "-c", inside, "sh", nsswitch, sys.executable, __file__,
                                        test.__name__], env={**os.environ, "HALMA_TEST_NO_DNS": "1"},
                             capture_output=True, text=True, timeout=120)
        print(out.stdout, end="")
        print(out.stderr, end="", file=sys.stderr)
        check(out.returncode == 0, f"{test.__name__}, in a namespace without DNS: rc {out.returncode}")
        return True
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def web_join_error(daemon, address, room):
    """The error message `halma web`'s bridge answers the page's join of `room` at `address` with."""
    proc = subprocess.Popen([halmatest.HALMA, "--runtime-dir", daemon.runtime_dir, "--timeout-ms", "20000", "web",
                             "--no-open", "--new-token"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", proc.stdout.readline())
        check(found, "halma web printed no address")
        port, token = found.groups()
        origin = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(f"{origin}/api/join", method="POST",
                                         data=json.dumps({"address": address, "room": room}).encode(),
                                         headers={"Cookie": f"halma_token_{port}={token}", "Origin": origin,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read()).get("error", {}).get("message", "")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def a_name_that_does_not_resolve_is_said_so():
    """`halma join nosuchhost.invalid:7460/family` and `halma rooms` at a misspelt .local name say
    that no machine has that name, not that one refused the connection (ZeroMQ says the one for
    the other); a name that resolves, where nothing listens, is still said to refuse. Run where no
    lookup can leave the machine (isolated_from_dns)."""
    if os.environ.get("HALMA_TEST_NO_DNS") != "1":
        isolated_from_dns(a_name_that_does_not_resolve_is_said_so)
        return
    with open("/etc/nsswitch.conf") as f:
        check(f.read().split() == ["hosts:", "files"], "not isolated from DNS: the test would ask it")
    with Cluster("cli-noname") as c:
        bob = c.add("bob")
        for args, name in [(["join", "nosuchhost.invalid:7460/family"], "nosuchhost.invalid"),
                           (["join", "nosuchhost.invalid/family", "--spectate"], "nosuchhost.invalid"),
                           (["rooms", "ann-laptpo.local"], "ann-laptpo.local")]:
            out = typed(bob, "--timeout-ms", "20000", *args)
            typed_args = " ".join(args)
            check(out.returncode == 1 and out.stderr.startswith(f"halma: no machine called {name} is known: "
                                                                "the name does not resolve. Is it misspelt?"),
                  f"halma {typed_args}: rc {out.returncode}: {out.stderr!r}")
            check("refused" not in out.stderr and "is halmad running" not in out.stderr,
                  f"halma {typed_args}: a name that does not resolve said to refuse: {out.stderr!r}")
            check((".local name resolves only where mDNS gets through" in out.stderr) == name.endswith(".local"),
                  f"halma {typed_args}: the .local note: {out.stderr!r}")
        # The page's join form says the same: halma web asks the resolver as the CLI does.
        said = web_join_error(bob, "nosuchhost.invalid:7460", "family")
        check(said.startswith("no machine called nosuchhost.invalid is known: the name does not resolve"),
              f"halma web's join at a name that does not resolve: {said!r}")
        # A name /etc/hosts has, where nothing listens: refused, as before.
        named = loopback_name()
        check(named is not None, "no name but localhost for a loopback address in /etc/hosts")
        name, _ = named
        out = typed(bob, "--timeout-ms", "20000", "join", f"{name}:{free_port()}/family")
        check(out.returncode == 1 and "nothing answers at" in out.stderr and "no machine called" not in out.stderr,
              f"join at {name}, which resolves: {out.stderr!r}")
        print(f"a name that resolves ({name}) is still said to refuse")


def halmad_defaults_follow_the_login():
    """`halmad --help` shows the login name as the default player name (not $USER, which may be
    unset or someone else's), and with $XDG_RUNTIME_DIR set halmad and halma both put the socket
    under it: halma finds the daemon with no --runtime-dir."""
    with Cluster("cli-defaults") as c:
        login = pwd.getpwuid(os.getuid()).pw_name
        env = {k: v for k, v in os.environ.items() if k not in ("USER", "HALMA_RUNTIME_DIR", "RUNTIME_DIRECTORY")}
        out = subprocess.run([halmatest.HALMAD, "--help"], capture_output=True, text=True, timeout=10,
                             env=dict(env, USER="not-" + login))
        check(out.returncode == 0, f"halmad --help: rc {out.returncode}")
        name_line = next((line for line in out.stdout.splitlines() if "--name" in line), "")
        check(f"--name TEXT={login} " in name_line, f"halmad --help: the default name is not {login}: {name_line!r}")
        xdg = os.path.join(c.tmp, "xdg")
        os.makedirs(xdg, mode=0o700)
        env["XDG_RUNTIME_DIR"] = xdg
        port = free_port()
        log = open(os.path.join(c.tmp, "xdg-halmad.log"), "w")
        proc = subprocess.Popen([halmatest.HALMAD, "--listen", f"127.0.0.1:{port}", "--state-dir",
                                 os.path.join(c.tmp, "xdg-state"), "--no-mdns"], env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            sock = os.path.join(xdg, "halma", "api.sock")
            wait_until(lambda: os.path.exists(sock) or proc.poll() is not None, 10, "halmad to start")
            check(proc.poll() is None, "halmad exited: " + open(log.name).read())
            out = subprocess.run([halmatest.HALMA, "daemon", "status"], capture_output=True, text=True, timeout=30,
                                 env=env, stdin=subprocess.DEVNULL)
            check(out.returncode == 0, f"halma did not find halmad under $XDG_RUNTIME_DIR: {out.stderr}")
            check(login in out.stdout, f"the daemon's name is not {login}: {out.stdout!r}")
        finally:
            proc.kill()
            proc.wait()


def close_asks_during_a_game():
    """`halma close` on a room with a game in progress: from a script it refuses (exit 2) and
    says --force; on a terminal it asks, and N keeps the room, y closes it. A room with no game
    closes without asking."""
    with Cluster("cli-close") as c:
        ann = c.add("ann")
        check(ann.cli("host", "idle").returncode == 0, "host idle refused")
        check(ann.cli("host", "duo", "--bots", "1").returncode == 0, "host duo refused")
        out = typed(ann, "close", "-r", "duo")
        check(out.returncode == 2 and out.stderr.startswith("halma: ") and "--force" in out.stderr,
              f"close mid-game from a script: rc {out.returncode}: {out.stderr!r}")
        check(ann.cli("board", "-r", "duo").returncode == 0, "the room went though close was refused")
        for answer, closed in [("n", False), ("y", True)]:
            with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "-r", "duo", command="close") as t:
                t.wait_text("close it for good? [y/N]")
                t.type_line(answer)
                screen = t.wait_text("halma-exited-")
                check(("halma-exited-0" in screen) == closed, f"close answered {answer}:\n{screen}")
            gone = ann.cli("board", "-r", "duo").returncode == 1
            check(gone == closed, f"close answered {answer}: the room {'stayed' if closed else 'went'}")
        out = typed(ann, "close", "-r", "idle")
        check(out.returncode == 0, f"close of a room with no game: rc {out.returncode}: {out.stderr}")


run({f.__name__: f for f in [usage_errors_exit_2, moves_as_people_write_them, help_and_version, rooms_are_named_for_the_user,
                             no_daemon_is_said_at_once, halmad_defaults_follow_the_login, close_asks_during_a_game,
                             a_name_is_doubted_only_where_a_typo_can_be,
                             a_name_that_does_not_resolve_is_said_so]})
