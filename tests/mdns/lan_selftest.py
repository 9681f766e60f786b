"""Proves that lanhosts gives real mDNS between its test hosts, with avahi's own tools only:
what avahi-publish announces on one host, avahi-browse on another finds and resolves (address,
port, TXT), over IPv4 and over an IPv6 link with only fe80:: addresses, and again after an
avahi-daemon restart. Also checks the harness's other promises (no-avahi hosts, system users,
stale namespaces removed). Run one test: lan_selftest.py NAME (exit 77: skipped).
"""
import os
import pwd
import subprocess
import sys
import time

from lanhosts import (Lan, SERVICE, check, main, need, parse_avahi_browse, remove_stale, wait_until, PREFIX,
                      NETNS_DIR)

TXT = ["v=1", "room=sunday brunch", "seats=1/2"]


def publish(host, name, port=7460, txt=TXT, wait=True):
    """avahi-publish on host; with wait, once it says its service is established (probed and
    announced)."""
    pub = host.popen_lines(["avahi-publish", "-s", name, SERVICE, str(port), *txt], merge_stderr=True)
    if wait:
        established(pub, host, name)
    return pub


def established(pub, host, name):
    pub.wait_for(lambda line: line.startswith("Established under name"), 10, f"{host.name} to publish {name!r}")


def resolved(host, *names, timeout=10):
    """{name: [resolved records]} for the services `avahi-browse -rpt` on host lists; re-run,
    bounded, until every name has one (one run takes about a second once services exist)."""
    def attempt():
        out = host.run(["avahi-browse", "-rpt", "-k", SERVICE], capture_output=True, text=True, timeout=15)
        check(out.returncode == 0, f"avahi-browse on {host.name}: rc {out.returncode}: {out.stderr}")
        recs = [parse_avahi_browse(line) for line in out.stdout.splitlines()]
        found = {n: [r for r in recs if r and r["event"] == "=" and r["name"] == n] for n in names}
        return found if all(found.values()) else None
    return wait_until(attempt, timeout, f"{host.name} to resolve {names}", interval=0.2)


def check_record(rec, publisher, browser, name, proto, address, txt=TXT, port=7460):
    where = f"{name!r} seen from {browser.name}: {rec}"
    check(rec["proto"] == proto, f"{where}: not over {proto}")
    check(rec["ifname"] == browser.ifname, f"{where}: not on {browser.ifname}")
    check(rec["host"] == f"{publisher.hostname}.local", f"{where}: host is not {publisher.hostname}.local")
    check(rec["address"] == address, f"{where}: address is not {address}")
    check(rec["port"] == port, f"{where}: port is not {port}")
    check(rec["txt"] == set(txt), f"{where}: TXT is not {txt}")


def two_hosts():
    need("avahi-publish", "avahi-browse")
    with Lan("two", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        check(a.run(["hostname"], capture_output=True, text=True).stdout.strip() == "halma-a", "a's hostname")
        publish(a, "two hosts")
        recs = resolved(b, "two hosts")["two hosts"]
        check(len(recs) == 1, f"one record expected on an IPv4 link, got {recs}")
        check_record(recs[0], a, b, "two hosts", "IPv4", a.ipv4)


def three_hosts():
    need("avahi-publish", "avahi-browse")
    with Lan("three", hosts=["a", "b", "c"]) as lan:
        port = {h.name: 7460 + i for i, h in enumerate(lan.hosts)}
        pubs = [(h, publish(h, f"room on {h.name}", port[h.name], [f"host={h.name}"], wait=False))
                for h in lan.hosts]
        for h, pub in pubs:  # the three probe at the same time
            established(pub, h, f"room on {h.name}")
        for browser in lan.hosts:
            others = [h for h in lan.hosts if h is not browser]
            found = resolved(browser, *(f"room on {h.name}" for h in others))
            for pub in others:
                recs = found[f"room on {pub.name}"]
                check(len(recs) == 1, f"one record expected, got {recs}")
                check_record(recs[0], pub, browser, f"room on {pub.name}", "IPv4", pub.ipv4,
                             txt=[f"host={pub.name}"], port=port[pub.name])


def ipv6_only():
    need("avahi-publish", "avahi-browse")
    with Lan("six", hosts=["a", "b"], ipv6_only=True) as lan:
        a, b = lan["a"], lan["b"]
        for h in (a, b):
            check(h.ipv4 is None, f"{h.name} has an IPv4 address")
            v4 = h.run(["ip", "-4", "addr", "show", "dev", h.ifname], capture_output=True, text=True).stdout
            check(v4.strip() == "", f"{h.name} has IPv4 on {h.ifname}: {v4}")
            check(h.ipv6_link_local.startswith("fe80:"), f"{h.name}: {h.ipv6_link_local}")
        publish(a, "six room")
        recs = resolved(b, "six room")["six room"]
        check(len(recs) == 1, f"one record expected on an IPv6-only link, got {recs}")
        check_record(recs[0], a, b, "six room", "IPv6", a.ipv6_link_local)
        # What a client does with the answer: connect to the scoped address, at once (no DAD).
        check(tcp_hello(a, b, a.ipv6_scoped), f"no TCP from b to [{a.ipv6_scoped}]:7461")


def tcp_hello(server, client, address, port=7461):
    """True if client reaches a listener on server at address:port (both bounded by timeouts)."""
    listen = ("import socket; s = socket.create_server(('::', %d), family=socket.AF_INET6); s.settimeout(10); "
              "print('listening', flush=True); s.accept()[0].sendall(b'hello')" % port)
    srv = server.popen_lines([sys.executable, "-c", listen])
    srv.wait_for(lambda line: line == "listening", 10, f"a listener on {server.name}")
    connect = ("import socket, sys; c = socket.create_connection((sys.argv[1], %d), timeout=5); "
               "print(c.recv(5).decode())" % port)
    out = client.run([sys.executable, "-c", connect, address], capture_output=True, text=True, timeout=15)
    return out.stdout.strip() == "hello"


def avahi_restart():
    need("avahi-publish", "avahi-browse")
    with Lan("restart", hosts=["a", "b"]) as lan:
        a, b = lan["a"], lan["b"]
        browse = b.popen_lines(["avahi-browse", "-prk", SERVICE])

        def event_for(event, name):
            return lambda line: (r := parse_avahi_browse(line)) is not None and r["event"] == event \
                and r["name"] == name
        pub = publish(a, "before restart")
        browse.wait_for(event_for("=", "before restart"), 10, "b to resolve the first publication")
        bus = a.dbus.pid
        a.stop_avahi()
        # avahi says goodbye as it stops; the client loses its daemon and exits.
        browse.wait_for(event_for("-", "before restart"), 10, "b to see the service go with avahi")
        check(wait_until(lambda: pub.proc.poll() is not None, 10, "avahi-publish to exit") is not None, "")
        check(a.avahi_state() is None, "avahi still answers on a's bus after stop_avahi")
        a.start_avahi()
        check(a.dbus.pid == bus and a.dbus.poll() is None, "a's dbus-daemon did not stay up over the restart")
        publish(a, "after restart")
        rec = parse_avahi_browse(browse.wait_for(event_for("=", "after restart"), 10,
                                                 "b to resolve the publication after the restart"))
        check_record(rec, a, b, "after restart", "IPv4", a.ipv4)


def bare_host_and_system_user():
    need("avahi-publish", "avahi-browse")
    with Lan("bare", hosts=["a", "c"], no_avahi={"c"}) as lan:
        a, c = lan["a"], lan["c"]
        # A host with no bus and no avahi: clients fail at once, as on a machine without avahi.
        check(c.dbus is None and c.avahi is None, "c should have no dbus-daemon or avahi-daemon")
        started = time.monotonic()
        out = c.run(["avahi-browse", "-rpt", SERVICE], capture_output=True, text=True, timeout=10)
        check(out.returncode != 0 and "Daemon not running" in out.stderr, f"avahi-browse on c: {out}")
        check(time.monotonic() - started < 5, "avahi-browse on a host without avahi took long to fail")
        # A system user that exists only on host a, talking to a's avahi through Debian's policy.
        home = os.path.join(a.dir, "home-halmatest")
        uid, _ = a.add_system_user("halmatest", home, groups=[])
        ident = a.run_as("halmatest", ["id", "-un"], capture_output=True, text=True)
        check(ident.stdout.strip() == "halmatest", f"id as halmatest: {ident}")
        check(os.stat(home).st_uid == uid, "home not owned by the user")
        try:
            pwd.getpwnam("halmatest")
            check(False, "halmatest leaked into the root namespace's /etc/passwd")
        except KeyError:
            pass
        out = c.run(["id", "halmatest"], capture_output=True, text=True)
        check(out.returncode != 0, "halmatest leaked into host c")
        publish(a, "local room")
        out = a.run_as("halmatest", ["avahi-browse", "-rpt", "-k", SERVICE], capture_output=True, text=True)
        recs = [r for r in map(parse_avahi_browse, out.stdout.splitlines()) if r and r["event"] == "="]
        check(out.returncode == 0 and [r["name"] for r in recs] == ["local room"],
              f"avahi-browse as halmatest: {out}")


def stale_namespaces_removed():
    # A namespace named after a pid that cannot exist (above pid_max) stands for a killed run.
    stale = f"{PREFIX}4194305-1-stale-a"
    subprocess.run(["ip", "netns", "add", stale], check=True, timeout=10)
    try:
        remove_stale()
        check(stale not in os.listdir(NETNS_DIR), "remove_stale() left a stale namespace")
    finally:
        subprocess.run(["ip", "netns", "del", stale], capture_output=True, timeout=10)
    with Lan("mine", hosts=["a"]) as lan:
        names = set(os.listdir(NETNS_DIR))
        check(set(lan.namespaces) <= names, "the Lan's namespaces are missing")
        remove_stale()  # must not touch a live run's namespaces
        check(set(lan.namespaces) <= set(os.listdir(NETNS_DIR)), "remove_stale() removed live namespaces")
    check(not set(lan.namespaces) & set(os.listdir(NETNS_DIR)), "namespaces left after close")
    check(not os.path.exists(lan.tmp), "temp dir left after close")


if __name__ == "__main__":
    main({f.__name__: f for f in (two_hosts, three_hosts, ipv6_only, avahi_restart, bare_host_and_system_user,
                                   stale_namespaces_removed)})
