"""Throwaway LANs of test hosts on this machine, for real mDNS between real processes.

Each host is a network namespace with its own mount and UTS namespaces (hostname halma-NAME),
its own D-Bus system bus and its own avahi-daemon; all hosts hang off one bridge living in an
extra "switch" namespace. Nothing is ever added to the root namespace: no link, address or route,
so test traffic cannot leave the hosts the test made. Python stdlib only.

Only /run/dbus, /run/avahi-daemon and /etc/avahi/services (and /etc/passwd and /etc/group after
add_system_user) are a host's own: /tmp and the rest of the file system are shared, so give each
daemon its own directories (Host.dir is one per host). Programs started in a host are found on
the machine's PATH; paths given to them must be absolute (a host starts in /).

Every wait is bounded. Every process dies with the runner (PR_SET_PDEATHSIG) and is killed by
PID on close; namespaces are deleted on close and at exit, and stale ones left by a killed run
(named after a pid that is gone) are removed when the next Lan is made.
"""
import atexit
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from waits import Failure, Lines, check, tail, wait_until  # noqa: F401 (part of this module's API)

PREFIX = "halmalan-"  # every namespace and temp dir we make: halmalan-<pid>-<seq>-<label>...
SERVICE = "_halma._tcp"
SKIP_CODE = 77  # ctest's SKIP_RETURN_CODE
NETNS_DIR = "/run/netns"
DBUS_SYSTEM_CONF = "/usr/share/dbus-1/system.conf"
TOOLS = ("ip", "unshare", "nsenter", "setpriv", "dbus-daemon", "dbus-send", "avahi-daemon", "sysctl")

_libc = ctypes.CDLL("libc.so.6", use_errno=True)
_open_lans = []
_seq = [0]
_preflight_done = []


class Skip(Exception):
    """This machine cannot make test hosts (not root, a tool missing, no namespaces)."""


def _die_with_parent():
    _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: a killed runner leaves nothing behind


def _sh(argv, timeout=15, check_rc=True):
    """A short command in the root namespace (ip, sysctl through ip netns exec)."""
    out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, preexec_fn=_die_with_parent)
    if check_rc and out.returncode != 0:
        raise Failure(f"{' '.join(argv)}: rc {out.returncode}: {out.stderr.strip()}")
    return out


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def remove_stale():
    """Deletes namespaces and temp dirs of earlier runs that were killed before cleaning up."""
    names = os.listdir(NETNS_DIR) if os.path.isdir(NETNS_DIR) else []
    tmp = tempfile.gettempdir()
    for name, kind in [(n, "netns") for n in names] + [(n, "dir") for n in os.listdir(tmp)]:
        m = re.match(re.escape(PREFIX) + r"(\d+)-", name)
        if not m or _pid_alive(int(m.group(1))):
            continue
        if kind == "netns":
            _sh(["ip", "netns", "del", name], check_rc=False)
        else:
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)


def preflight():
    """Raises Skip unless this machine can make test hosts; removes stale ones once per run."""
    if _preflight_done:
        return
    if os.geteuid() != 0:
        raise Skip("test hosts need root (network, mount and UTS namespaces)")
    # ip, sysctl and the daemons live in sbin, which a user's PATH kept through sudo may lack.
    path = os.environ.get("PATH", "").split(":")
    os.environ["PATH"] = ":".join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        raise Skip(f"missing {', '.join(missing)} (scripts/install-deps.sh installs them)")
    remove_stale()
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = _sh(["ip", "netns", "add", probe], check_rc=False)
    if made.returncode != 0:
        raise Skip(f"cannot make a network namespace: {made.stderr.strip()}")
    try:
        out = _sh(["ip", "netns", "exec", probe, "unshare", "--mount", "--uts", "--propagation", "private",
                   "true"], check_rc=False)
        if out.returncode != 0:
            raise Skip(f"cannot make mount/UTS namespaces: {out.stderr.strip()}")
    finally:
        _sh(["ip", "netns", "del", probe], check_rc=False)
    _preflight_done.append(True)


def exit_on_sigterm():
    """A SIGTERM (a ctest timeout, a kill) becomes SystemExit, so `with Lan` and atexit clean up."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, handler)


def parse_avahi_browse(line):
    """One line of `avahi-browse -p` as a dict, or None for other lines. Keys: event (+ - =),
    ifname, proto (IPv4/IPv6), name, type, domain, and for '=': host, address, port, txt (a set)."""
    fields = line.split(";", 9)
    if len(fields) < 6 or fields[0] not in "+-=":
        return None
    rec = dict(zip(("event", "ifname", "proto", "name", "type", "domain"), fields[:6]))
    rec["name"] = _unescape_label(rec["name"])
    if rec["event"] == "=" and len(fields) == 10:
        rec.update(host=fields[6], address=fields[7], port=int(fields[8]),
                   txt=set(re.findall(r'"((?:[^"\\]|\\.)*)"', fields[9])))
    return rec


def _unescape_label(text):
    # avahi escapes every byte but [A-Za-z0-9_-] as \DDD, and '.' and '\' as \. and \\
    raw = re.sub(rb"\\(\d{3}|.)", lambda m: bytes([int(m.group(1))]) if len(m.group(1)) == 3 else m.group(1),
                 text.encode())
    return raw.decode(errors="replace")


class Host:
    """One test host: its namespaces are those of `anchor`, a sleeping process started in them."""

    def __init__(self, lan, index, name, with_avahi):
        self.lan = lan
        self.name = name
        self.hostname = f"halma-{name}"
        self.ifname = "lan0"
        self.netns = f"{lan.base}-{name}"
        self.dir = os.path.join(lan.tmp, name)
        self.ipv4 = None if lan.ipv6_only else f"10.77.0.{index + 1}"
        self.ipv6_link_local = None
        self.with_avahi = with_avahi
        self.anchor = self.dbus = self.avahi = None
        self._users = {}
        os.makedirs(self.dir)

    @property
    def users(self):
        """{name: home} of the users add_system_user made here."""
        return dict(self._users)

    @property
    def ipv6_scoped(self):
        return f"{self.ipv6_link_local}%{self.ifname}"

    def root_path(self, path):
        """A path as this host sees it (its own /run/dbus, /etc/passwd...), from outside."""
        return f"/proc/{self.anchor.pid}/root{path}"

    # Processes inside the host ---------------------------------------------------------------
    def _enter(self, argv, kw):
        cmd = ["nsenter", "-t", str(self.anchor.pid), "-m", "-n", "-u"]
        if kw.get("cwd"):  # entering a mount namespace resets the working directory to /
            cmd.append(f"--wd={kw['cwd']}")
        return cmd + ["--"] + [str(a) for a in argv]

    def run(self, argv, timeout=30, **kw):
        """subprocess.run inside the host (bounded: 30 s unless told)."""
        kw.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.run(self._enter(argv, kw), timeout=timeout, preexec_fn=_die_with_parent, **kw)

    def popen(self, argv, log=None, **kw):
        """subprocess.Popen inside the host, killed when the Lan closes. Unless stdout is given,
        stdout and stderr go to DIR/<log or program>.log (printed when a test fails)."""
        kw.setdefault("stdin", subprocess.DEVNULL)
        path = None
        if "stdout" not in kw:
            path = os.path.join(self.dir, f"{log or os.path.basename(str(argv[0]))}.log")
            kw["stdout"] = open(path, "ab")
            kw.setdefault("stderr", subprocess.STDOUT)
        proc = subprocess.Popen(self._enter(argv, kw), preexec_fn=_die_with_parent, **kw)
        if path:
            kw["stdout"].close()
        proc.log_path = path
        proc.host_argv = [str(a) for a in argv]
        self.lan.procs.append(proc)
        return proc

    def popen_lines(self, argv, merge_stderr=False, **kw):
        """popen with stdout read through Lines (stderr to DIR/<program>.err unless merged)."""
        kw["stdout"] = subprocess.PIPE
        err = None
        if merge_stderr:
            kw["stderr"] = subprocess.STDOUT
        elif "stderr" not in kw:
            err = os.path.join(self.dir, f"{os.path.basename(str(argv[0]))}.err")
            kw["stderr"] = open(err, "ab")
        proc = self.popen(argv, **kw)
        if err:
            kw["stderr"].close()
            proc.log_path = err
        return Lines(proc)

    def kill(self, proc, sig=signal.SIGTERM, timeout=10):
        """Stops a process by PID: sig, then SIGKILL if it has not gone within timeout."""
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        return proc.returncode

    # Users --------------------------------------------------------------------------------
    def add_system_user(self, name, home, groups=()):
        """A system user (and its group) that exists only in this host's mount namespace: bind
        mounts of edited copies of /etc/passwd and /etc/group, as a package's adduser would
        leave them. groups: existing groups to add it to. Returns (uid, gid)."""
        copies = {f: os.path.join(self.dir, f"etc-{f}") for f in ("passwd", "group")}
        if not self._users:
            for f, copy in copies.items():
                shutil.copyfile(f"/etc/{f}", copy)
                self.run(["mount", "--bind", copy, f"/etc/{f}"], check=True)
        taken = set()
        for copy in copies.values():
            with open(copy) as fh:
                taken |= {int(line.split(":")[2]) for line in fh if line.count(":") >= 3}
        uid = next(i for i in range(990, 100, -1) if i not in taken)
        with open(copies["passwd"], "a") as fh:  # appended in place: the bind mount follows
            fh.write(f"{name}:x:{uid}:{uid}:halma test user:{home}:/usr/sbin/nologin\n")
        with open(copies["group"]) as fh:
            lines = [line.rstrip("\n") for line in fh]
        for i, line in enumerate(lines):
            parts = line.split(":")
            if parts[0] in groups:
                parts[3] = ",".join([m for m in parts[3].split(",") if m] + [name])
                lines[i] = ":".join(parts)
        lines.append(f"{name}:x:{uid}:")
        with open(copies["group"], "r+") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.truncate()
        os.makedirs(home, exist_ok=True)
        os.chown(home, uid, uid)
        self._users[name] = home
        return uid, uid

    def _as(self, user, argv, kw):
        # setpriv, not runuser: no PAM, and it sets the parent-death signal again after the
        # uid change (which clears it).
        if "env" not in kw:
            home = self._users.get(user, "/")
            kw["env"] = dict(os.environ, HOME=home, USER=user, LOGNAME=user)
        return ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--pdeathsig=SIGKILL",
                "--"] + list(argv)

    def run_as(self, user, argv, timeout=30, **kw):
        return self.run(self._as(user, argv, kw), timeout=timeout, **kw)

    def popen_as(self, user, argv, **kw):
        log = kw.pop("log", os.path.basename(str(argv[0])))
        return self.popen(self._as(user, argv, kw), log=log, **kw)

    # D-Bus and avahi -------------------------------------------------------------------------
    def start_dbus(self):
        """The system bus, configured as Debian's but kept root and in the foreground (so it
        dies with the runner) and with no bus activation (nothing starts behind our back)."""
        sock = self.root_path("/run/dbus/system_bus_socket")
        if os.path.exists(sock):
            os.remove(sock)
        self.dbus = self.popen(["dbus-daemon", f"--config-file={self.lan.dbus_conf}", "--nofork", "--nopidfile",
                                "--nosyslog"], log="dbus-daemon")
        wait_until(lambda: os.path.exists(sock) or self.dbus.poll() is not None, 10, f"{self.name}'s D-Bus")
        check(self.dbus.poll() is None, f"{self.name}: dbus-daemon exited: {tail(self.dbus.log_path)}")

    def stop_dbus(self):
        """SIGTERM to the bus: avahi and every client lose it (start_dbus brings a new one)."""
        if self.dbus:
            self.kill(self.dbus)
        self.dbus = None

    def start_avahi(self, wait=True):
        """avahi-daemon with this host's config; waits until it runs (host name probed)."""
        pidfile = self.root_path("/run/avahi-daemon/pid")
        if os.path.exists(pidfile):  # left by a killed avahi: it would refuse to start
            os.remove(pidfile)
        self.avahi = self.popen(["avahi-daemon", "-f", self.lan.avahi_conf(self), "--no-drop-root", "--no-chroot",
                                 "--no-rlimits"], log="avahi-daemon")
        if wait:
            self.wait_avahi()

    def wait_avahi(self, timeout=15):
        def running():
            check(self.avahi.poll() is None, f"{self.name}: avahi-daemon exited: {tail(self.avahi.log_path)}")
            return self.avahi_state() == 2  # AVAHI_SERVER_RUNNING
        wait_until(running, timeout, f"{self.name}'s avahi-daemon to run", interval=0.05)

    def avahi_state(self):
        """avahi's server state over this host's D-Bus (2: running), or None if unreachable."""
        out = self.run(["dbus-send", "--system", "--print-reply", "--reply-timeout=2000",
                        "--dest=org.freedesktop.Avahi", "/", "org.freedesktop.Avahi.Server.GetState"],
                       capture_output=True, text=True, timeout=10)
        m = re.search(r"int32 (-?\d+)", out.stdout)
        return int(m.group(1)) if out.returncode == 0 and m else None

    def stop_avahi(self):
        """SIGTERM: avahi says goodbye for its records, as a stopped service does."""
        if self.avahi:
            self.kill(self.avahi)
        self.avahi = None

    def _start_anchor(self):
        # The mkdir lands in the machine's /run (an empty dir if avahi never ran here); the
        # tmpfs mounted on it belongs to this host alone.
        script = ('set -e; hostname "$1"; mkdir -p /run/dbus /run/avahi-daemon\n'
                  'for d in /run/dbus /run/avahi-daemon /etc/avahi/services; do\n'
                  '  [ -d "$d" ] && mount -t tmpfs -o mode=0755,size=4m halmalan "$d"; done\n'
                  'echo ready; exec sleep infinity')
        argv = ["ip", "netns", "exec", self.netns, "unshare", "--mount", "--uts", "--propagation", "private",
                "sh", "-c", script, "anchor", self.hostname]
        self.anchor = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, preexec_fn=_die_with_parent)
        self.lan.procs.append(self.anchor)
        lines = Lines(self.anchor)
        if lines.next(10) != "ready":
            self.kill(self.anchor, signal.SIGKILL)
            raise Failure(f"{self.name}: namespaces not made: {self.anchor.stderr.read().decode().strip()}")

    def _wait_link_local(self):
        def address():
            out = _sh(["ip", "-n", self.netns, "-j", "-6", "addr", "show", "dev", self.ifname, "scope", "link"])
            for a in (i for link in json.loads(out.stdout or "[]") for i in link.get("addr_info", [])):
                if not a.get("tentative") and not a.get("dadfailed"):
                    return a["local"]
            return None
        self.ipv6_link_local = wait_until(address, 10, f"{self.name}'s fe80:: address", interval=0.05)


class Lan:
    """Test hosts on one bridge: `with Lan("label", hosts=["a", "b"]) as lan: lan["a"].run(...)`.

    ipv6_only: no IPv4 on the link, only the kernel's fe80:: addresses; avahi uses IPv6 only.
    dual_stack: IPv4 and fe80:: on the link and avahi uses both (default: avahi IPv4 only).
    no_avahi: names of hosts with neither dbus-daemon nor avahi-daemon (clients get errors).
    """

    def __init__(self, label, hosts=("a", "b"), ipv6_only=False, dual_stack=False, no_avahi=(), timeout=20):
        preflight()
        exit_on_sigterm()
        check(not (ipv6_only and dual_stack), "ipv6_only and dual_stack exclude each other")
        check(all(re.fullmatch(r"[a-z0-9]{1,20}", h) for h in hosts), f"host names: [a-z0-9]{{1,20}}: {hosts}")
        check(len(set(hosts)) == len(hosts) and 0 < len(hosts) < 250, f"bad host list {hosts}")
        label = re.sub(r"[^a-z0-9]", "", label.lower())[:20] or "lan"
        _seq[0] += 1
        self.base = f"{PREFIX}{os.getpid()}-{_seq[0]}-{label}"
        self.tmp = tempfile.mkdtemp(prefix=self.base + "-")
        os.chmod(self.tmp, 0o755)  # so a system user made by add_system_user reaches its home
        self.ipv6_only, self.dual_stack = ipv6_only, dual_stack
        self.procs = []
        self.namespaces = []
        self.closed = False
        _open_lans.append(self)
        try:
            self.dbus_conf = self._write_dbus_conf()
            self.hosts = [Host(self, i, h, h not in set(no_avahi)) for i, h in enumerate(hosts)]
            self.by_name = {h.name: h for h in self.hosts}
            self._build(timeout)
        except BaseException:
            self.close()
            raise

    def __getitem__(self, name):
        return self.by_name[name]

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is not None and not issubclass(kind, Skip):
            self.print_logs()
        self.close()
        return False

    def _netns_add(self, name):
        self.namespaces.append(name)
        _sh(["ip", "netns", "add", name])

    def _sysctl(self, netns, *settings):
        _sh(["ip", "netns", "exec", netns, "sysctl", "-q", "-w", *settings])

    def _build(self, timeout):
        switch = f"{self.base}-switch"
        self._netns_add(switch)
        # The switch only forwards: no IPv6 of its own, and no multicast snooping, which would
        # drop mDNS to a port whose membership report it missed.
        self._sysctl(switch, "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        _sh(["ip", "-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0"])
        _sh(["ip", "-n", switch, "link", "set", "br0", "up"])
        for i, h in enumerate(self.hosts):
            self._netns_add(h.netns)
            # No duplicate address detection: fe80:: addresses are usable the moment the link is.
            self._sysctl(h.netns, "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0")
            port = f"p{i}"
            _sh(["ip", "-n", switch, "link", "add", port, "type", "veth", "peer", "name", h.ifname,
                 "netns", h.netns])
            _sh(["ip", "-n", switch, "link", "set", port, "master", "br0", "up"])
            _sh(["ip", "-n", h.netns, "link", "set", "lo", "up"])
            self._sysctl(h.netns, f"net.ipv6.conf.{h.ifname}.accept_dad=0")
            if h.ipv4:
                _sh(["ip", "-n", h.netns, "addr", "add", f"{h.ipv4}/24", "dev", h.ifname])
            _sh(["ip", "-n", h.netns, "link", "set", h.ifname, "multicast", "on", "up"])
            h._start_anchor()
        for h in self.hosts:
            h._wait_link_local()
            if h.with_avahi:
                h.start_dbus()
                h.start_avahi(wait=False)
        for h in self.hosts:  # the hosts probe their names in parallel
            if h.with_avahi:
                h.wait_avahi(timeout)

    def _write_dbus_conf(self):
        with open(DBUS_SYSTEM_CONF) as f:
            text = f.read()
        edits = [(r"<user>[^<]*</user>", ""), (r"<fork/>", ""), (r"<pidfile>[^<]*</pidfile>", ""),
                 (r"<standard_system_servicedirs/>", ""), (r"<servicehelper>[^<]*</servicehelper>", ""),
                 (r"<includedir>system.d</includedir>", "<includedir>/usr/share/dbus-1/system.d</includedir>")]
        for pattern, new in edits:
            text, n = re.subn(pattern, new, text)
            check(n == 1, f"{DBUS_SYSTEM_CONF} has changed: no single {pattern}")
        path = os.path.join(self.tmp, "dbus-system.conf")
        with open(path, "w") as f:
            f.write(text)
        return path

    def avahi_conf(self, host):
        v4 = "no" if self.ipv6_only else "yes"
        v6 = "yes" if self.ipv6_only or self.dual_stack else "no"
        path = os.path.join(host.dir, "avahi-daemon.conf")
        with open(path, "w") as f:  # Debian's settings, plus: this host's name and link only
            f.write(f"[server]\nhost-name={host.hostname}\ndomain-name=local\nuse-ipv4={v4}\nuse-ipv6={v6}\n"
                    f"allow-interfaces={host.ifname}\nenable-dbus=yes\nratelimit-interval-usec=1000000\n"
                    "ratelimit-burst=1000\n[wide-area]\nenable-wide-area=no\n"
                    "[publish]\npublish-hinfo=no\npublish-workstation=no\n")
        return path

    def print_logs(self, lines=25):
        for h in self.hosts if hasattr(self, "hosts") else []:
            for p in [p for p in self.procs if getattr(p, "log_path", None) and p.log_path.startswith(h.dir)]:
                print(f"--- {h.name}: {' '.join(p.host_argv)} ---\n{tail(p.log_path, lines)}", file=sys.stderr)

    def close(self):
        """Kills every process by PID (newest first), deletes the namespaces and temp files."""
        if self.closed:
            return
        self.closed = True
        # A SIGTERM now (exit_on_sigterm's SystemExit) would cut the cleanup short: it waits.
        masked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP, signal.SIGINT})
        try:
            self._teardown()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, masked)

    def _teardown(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 5
        for p in reversed(self.procs):
            try:
                p.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        for name in reversed(self.namespaces):
            _sh(["ip", "netns", "del", name], check_rc=False)
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self in _open_lans:
            _open_lans.remove(self)


@atexit.register
def _close_all():
    for lan in list(_open_lans):
        lan.close()


def need(*programs):
    """Skip unless these programs are installed (e.g. avahi-utils for avahi-browse)."""
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        raise Skip(f"missing {', '.join(missing)}")


def main(tests):
    """Runs the test named on the command line; exit 77 (ctest: skipped) if hosts can't be made."""
    exit_on_sigterm()
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    if name not in tests:
        print(f"usage: {sys.argv[0]} TEST  (one of: {' '.join(tests)})", file=sys.stderr)
        sys.exit(2)
    started = time.monotonic()
    try:
        preflight()
        tests[name]()
    except Skip as why:
        print(f"SKIPPED: {why}")
        sys.exit(SKIP_CODE)
    print(f"{name}: ok in {time.monotonic() - started:.1f} s")
