"""halmad and the halma CLI on the test hosts of lanhosts.py: start a daemon in a host, run the
CLI there as a user would, read the LAN's room list. Kept apart from the tests so each is short."""
import json
import os
import time

from lanhosts import check, wait_until

HALMAD = os.environ["HALMAD"]
HALMA = os.environ["HALMA"]
PORT = 7460


def start_halmad(host, *extra, user=None, listen=f"*:{PORT}"):
    """A halmad listening on every interface of the host (as on a real machine), fast timers."""
    run, state = f"{host.dir}/run", f"{host.dir}/state"
    argv = [HALMAD, "--listen", listen, "--runtime-dir", run, "--state-dir", state, "--name",
            f"player-{host.name}", "--heartbeat-ms", "100", "--peer-timeout-ms", "700",
            "--log-level", "debug", *extra]
    if user:
        home = os.stat(host.users[user])  # add_system_user made the home the user's own
        for d in (run, state):
            os.makedirs(d, exist_ok=True)
            os.chown(d, home.st_uid, home.st_gid)
        proc = host.popen_as(user, argv, log="halmad")
    else:
        proc = host.popen(argv, log="halmad")
    host.halmad = proc
    sock = f"{run}/api.sock"
    wait_until(lambda: os.path.exists(sock) or proc.poll() is not None, 10, f"halmad on {host.name}")
    check(proc.poll() is None, f"halmad on {host.name} exited: {log_of(host)}")
    return proc


def log_of(host):
    try:
        with open(host.halmad.log_path, errors="replace") as f:
            return f.read()
    except (OSError, AttributeError):
        return ""


def cli(host, *args, timeout=30, user=None):
    argv = [HALMA, "--runtime-dir", f"{host.dir}/run", *args]
    if user:
        return host.run_as(user, argv, timeout=timeout, capture_output=True, text=True)
    return host.run(argv, timeout=timeout, capture_output=True, text=True)


def cli_ok(host, *args, **kw):
    out = cli(host, *args, **kw)
    check(out.returncode == 0, f"halma {' '.join(args)} on {host.name}: rc {out.returncode}: {out.stdout}{out.stderr}")
    return out.stdout


def cli_json(host, *args):
    return json.loads(cli_ok(host, *args, "--json"))


def rooms(host):
    """The rooms `halma rooms --json` lists on this host."""
    return cli_json(host, "rooms")["rooms"]


def lan_rooms(host, name=None):
    return [r for r in rooms(host) if r["origin"] == "ROOM_ORIGIN_LAN" and (name is None or r["name"] == name)]


def wait_listed(host, name, timeout=10, count=1):
    """Seconds until `count` LAN rooms called `name` are listed on host."""
    started = time.monotonic()
    wait_until(lambda: len(lan_rooms(host, name)) >= count, timeout, f"{name} listed on {host.name}", 0.05)
    return time.monotonic() - started


def wait_gone(host, name, timeout=10):
    started = time.monotonic()
    wait_until(lambda: not lan_rooms(host, name), timeout, f"{name} gone from {host.name}", 0.05)
    return time.monotonic() - started


def status(host):
    return cli_json(host, "daemon", "status")
