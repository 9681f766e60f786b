"""How halmad's threads are scheduled: ZeroMQ's I/O thread, the loop and the bot threads, read
from /proc of real daemons. Run one with: scheduling_tests.py NAME (ctest does, label
`integration`)."""
import os
import subprocess

from halmatest import Cluster, Daemon, check, host_room, run


def thread_policy_and_nice(pid, tid):
    """(name, scheduling policy, nice) of one thread, from /proc (stat fields 41 and 19)."""
    with open(f"/proc/{pid}/task/{tid}/comm") as f:
        name = f.read().strip()
    with open(f"/proc/{pid}/task/{tid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # fields from the 3rd on; the name may hold spaces
    return name, int(fields[41 - 3]), int(fields[19 - 3])


def threads_are_scheduled_for_the_loop():
    """ZeroMQ's I/O thread runs at SCHED_BATCH, so handing it a move's fan-out does not preempt
    the loop once per message; the loop itself keeps the default; the threads thinking for
    bot-only rooms run at SCHED_IDLE, so anything else preempts them (docs/scaling.md)."""
    SCHED_OTHER, SCHED_BATCH = 0, 3
    with Cluster("sched") as c:
        ann = c.add("ann", extra=["--bot-threads", "2"])
        host_room(ann, "porch", bots=1)  # sockets made, bot pool started
        pid = ann.proc.pid
        threads = {tid: thread_policy_and_nice(pid, tid) for tid in os.listdir(f"/proc/{pid}/task")}
        by_name = {}
        for name, policy, nice in threads.values():
            by_name.setdefault(name, []).append((policy, nice))
        check(by_name.get("ZMQbg/IO/0") == [(SCHED_BATCH, 0)], f"ZeroMQ's I/O thread: {threads}")
        check(threads[str(pid)][1:] == (SCHED_OTHER, 0), f"the loop: {threads[str(pid)]}")
        SCHED_IDLE = 5
        check(sorted(by_name.get("bots", [])) == [(SCHED_IDLE, 0)] * 2,
              f"not 2 bot-only rooms' threads at SCHED_IDLE (--bot-threads 2): {threads}")
        check(sorted(by_name.get("bots for people", [])) == [(SCHED_OTHER, 0)] * 3,
              f"not 3 people's bot threads at normal priority (--bot-threads 2): {threads}")
        # The largest pool the settings allow starts (its sockets stay under ZeroMQ's limit).
        many = c.add("many", extra=["--bot-threads", "256"])
        host_room(many, "hall", bots=1)
        names = [thread_policy_and_nice(many.proc.pid, t)[0] for t in os.listdir(f"/proc/{many.proc.pid}/task")]
        check(names.count("bots") == 256 and names.count("bots for people") == 257,
              f"--bot-threads 256: {names.count('bots')} bot-only and {names.count('bots for people')} people's threads")
        # Started under a real-time policy (chrt, CPUSchedulingPolicy=rr), halmad keeps it: ZeroMQ
        # would abort turning it into SCHED_BATCH (it keeps the priority, which SCHED_BATCH refuses).
        SCHED_RR = 2
        if subprocess.run(["chrt", "-r", "1", "true"], capture_output=True).returncode != 0:
            print("chrt -r not permitted here: the real-time case is not tried")
            return
        rt = Daemon(c, "rt")
        rt.command = lambda base=rt.command: ["chrt", "-r", "1"] + base()
        c.daemons.append(rt)
        rt.start()
        host_room(rt, "porch")  # sockets made: ZeroMQ's threads are running
        check(rt.proc.poll() is None, f"halmad under chrt -r 1 exited: {rt.log_tail()}")
        pid = rt.proc.pid
        policies = {thread_policy_and_nice(pid, tid)[:2] for tid in os.listdir(f"/proc/{pid}/task")}
        check(("ZMQbg/IO/0", SCHED_RR) in policies, f"under chrt -r 1: {policies}")


run({f.__name__: f for f in [threads_are_scheduled_for_the_loop]})
