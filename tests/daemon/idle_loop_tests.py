"""Issue 11: a daemon with nothing to do uses no CPU, also when what it waits for cannot happen
yet: a host gone, a host whose new key it refused. Its event loop sleeps until a deadline that
it will act on, not until one it already passed (which polled with a timeout of 0 for ever).
Run as: idle_loop_tests.py TEST_NAME"""
import os
import signal
import time

from halmatest import Cluster, check, host_room, join_room, run, wait_until


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_over(daemon, seconds=3):
    before = cpu_seconds(daemon.proc.pid)
    time.sleep(seconds)
    return cpu_seconds(daemon.proc.pid) - before


def peer_idles_while_its_host_is_gone():
    """Bob holds a seat at ann's; ann's halmad is killed. Bob tries to reach her again (a key
    probe a second, unsent requests every 20 ms at most), but does not spin while she is gone."""
    with Cluster("gonehost") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "r")
        join_room(bob, ann, "r")
        ann.kill()
        time.sleep(3)  # past the peer timeout (700 ms in tests) and the key probe asked again
        used = cpu_over(bob)
        check(used < 0.5, f"bob's loop spins while its host is gone: {used:.2f} s of CPU in 3 s")


def peer_idles_after_refusing_a_changed_host_key():
    """Ann comes back with a new key; bob refuses it (curve.changed_host_key_is_refused) and then
    waits for the user, without spinning."""
    with Cluster("newkeyidle") as c:
        ann, bob = c.add("ann"), c.add("bob")
        host_room(ann, "k")
        join_room(bob, ann, "k")
        ann.kill(signal.SIGTERM)
        os.remove(os.path.join(ann.state_dir, "curve"))
        ann.start()
        wait_until(lambda: "has a new key" in open(bob.log_path).read(), 10, "bob to refuse the new key")
        time.sleep(1)
        used = cpu_over(bob)
        check(used < 0.5, f"bob's loop spins after refusing a changed key: {used:.2f} s of CPU in 3 s")


TESTS = [peer_idles_while_its_host_is_gone, peer_idles_after_refusing_a_changed_host_key]

if __name__ == "__main__":
    run({f.__name__: f for f in TESTS})
