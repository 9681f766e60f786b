"""halmad's settings as an admin gives them: flags and a TOML file checked with --check-config
(every error named, with its line), the runtime and state directories claimed by one daemon at a
time, standing rooms made, edited and left, and signals. Run one with: config_tests.py NAME."""
import glob
import os
import shutil
import signal
import stat
import subprocess
import tempfile

from halmatest import Cluster, HALMAD, check, common_pb2, free_port, run, wait_until


def config_and_startup():
    with Cluster("config") as c:
        base = [HALMAD, "--runtime-dir", os.path.join(c.tmp, "x"), "--state-dir", os.path.join(c.tmp, "xs")]

        def run_halmad(*args):
            listen = [] if "--listen" in args else ["--listen", f"127.0.0.1:{free_port()}"]
            return subprocess.run(base + listen + list(args), capture_output=True, text=True, timeout=20)

        out = run_halmad("--heartbeat-ms", "0")
        check(out.returncode == 2 and out.stderr.startswith("halmad: --heartbeat-ms must be"),
              f"bad flag: {out.returncode} {out.stderr}")
        # An option is named as one, and a port past 65535 as the problem ("bad config: listen:
        # '127.0.0.1:99999' is not host:port").
        out = run_halmad("--listen", "127.0.0.1:99999", "--check-config")
        check(out.returncode == 2 and out.stderr.startswith("halmad: --listen: '127.0.0.1:99999': the port is 0 to 65535, not 99999"),
              f"a port out of range: {out.stderr!r}")
        out = run_halmad("--config", os.path.join(c.tmp, "no-such.toml"))
        check(out.returncode == 2 and out.stderr.startswith("halmad: --config: File does not exist"),
              f"a config file that is not there: {out.stderr!r}")
        out = run_halmad("--listen", "nonsense")
        check(out.returncode == 2 and "listen" in out.stderr, f"bad listen: {out.stderr}")
        # A host name passed the check, and the start then failed with "No such device".
        out = run_halmad("--listen", "localhost:7460", "--check-config")
        check(out.returncode == 2 and "not a host name" in out.stderr, f"listen at a host name: {out.stderr}")
        cfg = os.path.join(c.tmp, "halmad.toml")
        for text, needle in [("colour = 'blue'\n", "unknown setting"), ("heartbeat-ms = 'fast'\n", "whole number"),
                             ("[[room]]\nname = 'x'\nplayers = 5\n", "players"), ("listen = \n", "halmad.toml line 1, column 10: "),
                             ("mdns = 3\n", "mdns must be true or false"),
                             # The docs say every flag goes by its long name; --no-mdns does not.
                             ("no-mdns = true\n", "unknown setting 'no-mdns': write mdns = false"),
                             ("[[room]]\nname = 'x'\nhide-leader = 'yes'\n", "hide-leader must be true or false"),
                             ("interfaces = 'eth0'\n", "interfaces must be a list"),
                             ("interfaces = ['bad name']\n", "not an interface name"),
                             ("[[room]]\nname = 'a'\n[[room]]\nname = 'a'\nplayers = 3\n",
                              "two [[room]] tables have this name"),
                             # What start-up would refuse, --check-config refuses (it passed them,
                             # and the rooms were then silently not made).
                             ("[[room]]\nname = '  '\n", "room '  ': a room name cannot be blank"),
                             ("[[room]]\nname = '" + "a" * 41 + "'\n", "a room name is at most 40 bytes"),
                             ("[[room]]\nname = 'a'\n[[room]]\nname = 'a '\n", "two [[room]] tables have this name"),
                             ("name = ''\n", "the player's name cannot be blank"),
                             # Numbers past 32 bits were cut before they were checked: 2^32 + 100
                             # passed as 100, and 2^31 "cannot be negative".
                             ("hold-ms = 4294967396\n", "hold-ms = 4294967396 is far out of range"),
                             ("records-kept = 4294967396\n", "records-kept = 4294967396 is far out of range"),
                             ("hold-ms = 2147483648\n", "is far out of range"),
                             ("max-message = -1\n", "max-message = -1 is far out of range"),
                             ("bot-budget-ms = 0\n", "bot-budget-ms must be 1..60000"),
                             ("name = \"pi\\u001b[31mRED\"\n", "cannot hold control characters"),
                             ("[[room]]\nname = 'x'\nrules = 'jumps=long,jumps=short'\n", "jumps is given twice"),
                             # Spellings a person tries: what was meant is said.
                             ("[[room]]\nname = 'x'\nrules = 'jumps=long rest=any'\n",
                              "rule settings are separated by commas: 'jumps=long rest=any' reads as one; "
                              "write jumps=long,rest=any"),
                             ("bot_level = 'easy'\n", "unknown setting 'bot_level' (did you mean bot-level?)"),
                             ("[[rooms]]\nname = 'x'\n", "unknown setting 'rooms' (did you mean [[room]]?)"),
                             ("[[room]]\nname = 'x'\nBots = 1\n", "unknown setting 'Bots' (did you mean bots?)"),
                             # Each error names the line to fix, a range's as a type's.
                             ("name = 'pi'\n\nheartbeat-ms = 5\n", "halmad.toml:3: heartbeat-ms must be 10..60000"),
                             ("name = 'pi'\nhold-ms = 'long'\n", "halmad.toml:2: hold-ms must be a whole number"),
                             # true and false are no numbers: `bots = true` gave a room a computer,
                             # each said to be fine (an office QA pass).
                             ("name = 'pi'\nhold-ms = true\n", "halmad.toml:2: hold-ms must be a whole number"),
                             ("records-kept = false\n", "halmad.toml:1: records-kept must be a whole number"),
                             ("bot-pace-ms = 1.0\n", "halmad.toml:1: bot-pace-ms must be a whole number"),
                             ("[[room]]\nname = 'a'\nbots = true\n", "halmad.toml:3: room a: bots must be a whole number"),
                             ("[[room]]\nname = 'a'\nplayers = true\n",
                              "halmad.toml:3: room a: players must be a whole number"),
                             ("[[room]]\nname = 'a'\nturn-limit-s = false\n",
                              "halmad.toml:3: room a: turn-limit-s must be a whole number"),
                             ("[[room]]\nname = 'a'\n\n[[room]]\nname = 'b'\nbots = 9\n",
                              "halmad.toml:6: room b: bots must be 0..2"),
                             # A mode no game has names the setting's line, not the [[room]]'s.
                             ("[[room]]\nname = 'a'\n[[room]]\nname = 'c'\nplayers = 5\n", "halmad.toml:5: room c: 5 players"),
                             ("[[room]]\nname = 'c'\nplayers = 2\n\nsets = 4\n", "halmad.toml:5: room c: 2 players with 4 sets"),
                             ("[[room]]\nname = 'c'\nplayers = 6\nrules = 'unused=filled'\n",
                              "halmad.toml:4: room c: unused=filled needs unused triangles"),
                             ("[[room]]\nname = 'c'\n\nturn-limit-s = 100000\n", "halmad.toml:4: room c: a turn limit is"),
                             # A daemon's setting added at the end of the file lands in the last room.
                             ("[[room]]\nname = 'a'\n\nrecords-kept = 500\n",
                              "halmad.toml:4: room a: records-kept is a setting of the whole daemon: put it above")]:
            with open(cfg, "w") as f:
                f.write(text)
            out = run_halmad("--config", cfg, "--check-config")
            check(out.returncode == 2 and needle in out.stderr, f"config {text!r}: {out.returncode} {out.stderr}")
        # Not a config at all: a device read as an empty file was "config fine", and so were
        # 3,000 standing rooms of six computers each (a red-team QA pass).
        out = run_halmad("--config", "/dev/zero", "--check-config")
        check(out.returncode == 2 and "/dev/zero is not a file" in out.stderr, f"/dev/zero: {out.returncode} {out.stderr}")
        with open(cfg, "w") as f:
            f.write("".join(f"[[room]]\nname = 'r{i}'\nplayers = 6\nbots = 6\n" for i in range(1001)))
        out = run_halmad("--config", cfg, "--check-config")
        check(out.returncode == 2 and "halmad.toml:4001: at most 1000 standing rooms ([[room]]); this file has 1001"
              in out.stderr, f"1001 rooms: {out.returncode} {out.stderr}")
        with open(cfg, "w") as f:
            f.write("# " + "x" * (1 << 20) + "\n")
        out = run_halmad("--config", cfg, "--check-config")
        check(out.returncode == 2 and "is over 1 MiB: not a halmad config" in out.stderr, f"a 1 MiB file: {out.stderr}")
        # An interface that is not there is no error (Wi-Fi may come up later), but the check
        # says so, as halmad warns once running: it said "config fine" of a typo.
        out = run_halmad("--interfaces", "nosuch0", "--check-config")
        check(out.returncode == 0 and "config fine" in out.stdout and "no interface here is called nosuch0" in out.stdout,
              f"--interfaces nosuch0: {out.returncode} {out.stdout} {out.stderr}")
        out = run_halmad("--listen", "127.0.0.1:65535", "--check-config")
        check(out.returncode == 2 and "port 65535 leaves no port above it" in out.stderr,
              f"--listen :65535: {out.returncode} {out.stderr}")
        with open(cfg, "w") as f:
            f.write("name = 'pi'\nhold-ms = 60000\n[[room]]\nname = ' standing '\nplayers = 3\nhide-leader = true\n")
        out = run_halmad("--config", cfg, "--check-config")
        check(out.returncode == 0, f"good config refused: {out.stderr}")
        # The runtime directory is private and a second daemon cannot take it over.
        d = c.add("ann")
        check(stat.S_IMODE(os.stat(d.runtime_dir).st_mode) == 0o700, "runtime dir not 0700")
        check(stat.S_IMODE(os.stat(os.path.join(d.runtime_dir, "api.sock")).st_mode) == 0o600, "socket not 0600")
        out = subprocess.run([HALMAD, "--runtime-dir", d.runtime_dir, "--listen", f"127.0.0.1:{free_port()}"],
                             capture_output=True, text=True, timeout=20)
        check(out.returncode == 1 and "another halmad" in out.stderr, f"second daemon: {out.returncode} {out.stderr}")
        # Nor its state directory (it would host the same rooms and write the same files).
        out = subprocess.run([HALMAD, "--runtime-dir", os.path.join(c.tmp, "other-run"), "--state-dir", d.state_dir,
                              "--listen", f"127.0.0.1:{free_port()}"], capture_output=True, text=True, timeout=20)
        check(out.returncode == 1 and "another halmad" in out.stderr and "--state-dir" in out.stderr,
              f"second daemon on the state directory: {out.returncode} {out.stderr}")
        out = run_halmad("--listen", d.address)
        check(out.returncode == 1 and "cannot listen" in out.stderr, f"port taken: {out.returncode} {out.stderr}")
        check(d.cli("daemon", "status").returncode == 0, "the first daemon stopped answering")
        # A standing room from the config file.
        e = c.add("pi", extra=["--config", cfg])
        rooms = e.cli_json("rooms")["rooms"]
        check([r["name"] for r in rooms] == ["standing"], f"standing rooms: {rooms}")
        check(rooms[0].get("mode", {}).get("hide_leader") is True, f"standing room's hide-leader: {rooms}")
        # Edited while it stands, it keeps the setup it was made with, and the log says so.
        with open(cfg, "w") as f:
            f.write("name = 'pi'\nhold-ms = 60000\n[[room]]\nname = 'standing'\nplayers = 4\nhide-leader = true\n"
                    "visibility = 'friends'\n")
        e.kill(signal.SIGTERM)
        e.start()
        rooms = e.cli_json("rooms")["rooms"]
        check(rooms[0]["mode"]["players"] == 3, f"the standing room changed under its players: {rooms}")
        check("describes it differently now (visibility: public in the room, friends in the file; players: 3 in "
              "the room, 4 in the file)" in e.log_tail(40), f"no word of the edit: {e.log_tail(10)}")
        # Still public: no code is said for it (the log said "friends code " and nothing).
        check("friends code" not in e.log_tail(40), f"a code for a public room: {e.log_tail(10)}")
        check(f"state in {e.state_dir}" in e.log_tail(40), f"the log does not say where the state is: {e.log_tail(10)}")
        # HUP, which many send for a reload, does not stop it (it stopped with 0, which
        # systemd's Restart=on-failure leaves stopped): it says how to apply a changed config.
        e.proc.send_signal(signal.SIGHUP)
        wait_until(lambda: "SIGHUP" in e.log_tail(5), 5, "a word on SIGHUP")
        check(e.proc.poll() is None and e.cli("daemon", "status").returncode == 0, "SIGHUP stopped halmad")
        # A [[room]] renamed in the file leaves the old room standing: said at start.
        with open(cfg, "w") as f:
            f.write("name = 'pi'\nhold-ms = 60000\n[[room]]\nname = 'porch'\n")
        e.kill(signal.SIGTERM)
        e.start()
        # halmad takes front ends (start() waits for its socket) before it has read its rooms.
        wait_until(lambda: "room standing: hosted here, and not a [[room]] of the config file" in e.log_tail(40),
                   5, "a word of the room the file no longer names")
        check(sorted(r["name"] for r in e.cli_json("rooms")["rooms"]) == ["porch", "standing"], "rooms")
        out = run_halmad("--config", cfg, "--check-config")
        check(out.returncode == 0 and out.stdout.startswith("halmad: config fine:") and "1 standing room" in out.stdout,
              f"a check that passed says nothing: {out.stdout!r}")
        check(subprocess.run([os.environ["HALMA"], "--runtime-dir", os.path.join(c.tmp, "nobody"), "daemon", "status"],
                             capture_output=True, timeout=20).returncode == 1, "no daemon: not exit 1")


def computers_a_start_seats_are_no_edit_of_the_file():
    """A standing room of 6 with 3 easy computers (the file's); dan joins from his own halmad and
    starts, which seats 2 more computers (at the host's default level). At the host's next start
    the file is unchanged, and the log said it "describes it differently now (bots: 5 in the
    room, 3 in the file)": the computers seated now were compared with the file, not those the
    room was made with. Now nothing is said; an edit of the file's bots (3 -> 2) still is."""
    with Cluster("config-bots") as c:
        cfg = os.path.join(c.tmp, "halmad.toml")
        room = "[[room]]\nname = 'office six'\nplayers = 6\nbot-level = 'easy'\nbots = {}\n"
        with open(cfg, "w") as f:
            f.write("name = 'pi'\nbot-budget-ms = 20\n" + room.format(3))
        pi = c.add("pi", extra=["--config", cfg])
        dan = c.add("dan")
        out = dan.cli("join", f"{pi.address}/office six")
        check(out.returncode == 0, f"dan's join: {out.returncode} {out.stderr}")
        out = dan.cli("start", "-r", "office six")
        check(out.returncode == 0, f"dan's start: {out.returncode} {out.stderr}")
        wait_until(lambda: pi.api().view("office six").game_number == 1, 10, "the game with computers in the free seats")
        bots = [s for s in pi.cli_json("status", "-r", "office six")["seats"] if s.get("bot")]
        check(len(bots) == 5, f"5 computers seated after the start: {bots}")

        def restart_with_bots_in_file(bots, while_stopped=lambda: None):
            """pi's log from its restart with `bots = BOTS` in the file, once it has the room."""
            pi.kill(signal.SIGTERM)
            while_stopped()
            with open(cfg, "w") as f:
                f.write("name = 'pi'\nbot-budget-ms = 20\n" + room.format(bots))
            with open(pi.log_path) as f:
                start = len(f.read())
            pi.start()
            # halmad takes front ends (start() waits for its socket) before it has read its rooms.
            wait_until(lambda: "room office six: resumed" in open(pi.log_path).read()[start:], 10,
                       "the standing room resumed")
            return open(pi.log_path).read()[start:]

        def says_bots_differ(log):
            return "room office six: the config file describes it differently now (bots: 3 in the room, 2 in the file)" in log

        log = restart_with_bots_in_file(3)
        check("describes it differently" not in log, f"a warning of an unchanged file:\n{log[-3000:]}")
        log = restart_with_bots_in_file(2)
        check(says_bots_differ(log), f"no word of the edit of its bots:\n{log[-3000:]}")

        # A room made by a halmad that did not keep its bots in its config (the field cleared
        # from the file, as such a halmad wrote it): they are the computers made with it, the
        # first of its log, and the start's are still not counted.
        def as_made_before_bots_were_kept():
            [path] = glob.glob(os.path.join(pi.state_dir, "rooms", "*", "config"))
            config = common_pb2.RoomConfig()
            with open(path, "rb") as f:
                config.ParseFromString(f.read())
            check(config.HasField("bots") and config.bots == 3, f"the room's config keeps its bots: {config}")
            config.ClearField("bots")
            with open(path, "wb") as f:
                f.write(config.SerializeToString())

        log = restart_with_bots_in_file(2, as_made_before_bots_were_kept)
        check(says_bots_differ(log), f"no word of the edit of an older room's bots:\n{log[-3000:]}")
        log = restart_with_bots_in_file(3)
        check("describes it differently" not in log, f"a warning of an older room's unchanged file:\n{log[-3000:]}")


def a_config_syntax_error_is_said_in_plain_words():
    """A TOML syntax error in the config file is said as "FILE line L, column C: what is wrong",
    in words an admin editing the file knows, by --check-config and by a start alike; the
    parser's own words follow as detail. A quote left open was "unescaped control characters
    other than TAB (U+0009) are explicitly prohibited"."""
    with Cluster("config-syntax") as c:
        cfg = os.path.join(c.tmp, "halmad.toml")
        base = [HALMAD, "--runtime-dir", os.path.join(c.tmp, "run"), "--state-dir", os.path.join(c.tmp, "state"),
                "--listen", f"127.0.0.1:{free_port()}", "--no-mdns", "--config", cfg]
        open_quote = "the quoted text has no closing quote on this line"
        for text, line, column, words in [
                ('name = "pi\nhold-ms = 60000\n', 1, 11, open_quote),
                ("name = 'pi\n", 1, 11, open_quote),
                ('hold-ms = 60000\nname = "Zoë\n', 2, 12, open_quote),  # columns are characters
                ('name = "pi\r\nhold-ms = 60000\r\n', 1, 11, open_quote),  # a file from Windows
                ('name = "pi\x1b[31m"\n', 1, 11, "the quoted text holds a control character"),
                ("name = pi\n", 1, 8, "text goes in quotes"),
                ("name = 'ann's laptop'\n", 1, 13, "something follows the value on this line"),
                ("hold-ms = 30s\n", 1, 13, "the number is not written right"),
                ("mdns = True\n", 1, 8, "true and false are written in lower case"),
                ("name = 'pi'\n\n[[room]\nname = 'x'\n", 3, 8, "a table header is written [[room]]"),
                ("interfaces = ['eth0' 'wlan0']\n", 1, 22, "a comma between items"),
                ("listen = \n", 1, 10, "the setting has no value after its '='")]:
            with open(cfg, "w", newline="") as f:
                f.write(text)
            said = f"halmad: bad config: {cfg} line {line}, column {column}: "
            for check_only in (True, False):
                try:
                    out = subprocess.run(base + (["--check-config"] if check_only else []), capture_output=True,
                                         text=True, timeout=20)
                except subprocess.TimeoutExpired:
                    raise AssertionError(f"{text!r}: halmad started with a file it cannot read")
                how = "--check-config" if check_only else "a start"
                check(out.returncode == 2 and out.stderr.startswith(said)
                      and words in out.stderr.split("; the TOML parser says")[0],
                      f"{text!r}, {how}: rc {out.returncode}: {out.stderr!r}\nwanted {said!r}, {words!r}")
                # The parser's words as detail, on the same line (a journal reader greps one).
                check("; the TOML parser says: Error while parsing " in out.stderr and out.stderr.count("\n") == 1,
                      f"{text!r}, {how}: the parser's words: {out.stderr!r}")


def an_unreadable_config_is_said_so():
    """A config file halmad may not read is said to be that, with the user it runs as: it was
    "not valid TOML ... line 0, column 0" (a file made private to root, which the service reads
    as user halma). As root, halmad runs as nobody for this, from a copy nobody may run."""
    d = tempfile.mkdtemp(prefix="halma-unreadable-")
    try:
        os.chmod(d, 0o755)
        cfg = os.path.join(d, "halmad.toml")
        with open(cfg, "w") as f:
            f.write('name = "pi"\n')
        os.chmod(cfg, 0)
        halmad = HALMAD
        cmd = []
        if os.geteuid() == 0:
            halmad = os.path.join(d, "halmad")
            shutil.copy(HALMAD, halmad)
            os.chmod(halmad, 0o755)
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        cmd += [halmad, "--no-mdns", "--config", cfg, "--check-config", "--runtime-dir", os.path.join(d, "run"),
                "--state-dir", os.path.join(d, "state")]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
        said = f"halmad: cannot read the config file {cfg}: Permission denied (halmad runs as user "
        check(out.returncode == 2 and out.stderr.startswith(said) and "TOML" not in out.stderr,
              f"an unreadable config: rc {out.returncode}: {out.stderr!r}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


run({f.__name__: f for f in [config_and_startup, a_config_syntax_error_is_said_in_plain_words,
                             computers_a_start_seats_are_no_edit_of_the_file, an_unreadable_config_is_said_so]})
