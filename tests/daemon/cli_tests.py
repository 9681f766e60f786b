#!/usr/bin/env python3
"""The command line keeps its contract (README, docs/api.md): exit code 2 and a message starting
`halma:` for every usage or input error, typed as a user would, against a real daemon."""

from halmatest import Cluster, check, run


def usage_errors_exit_2():
    """Each of these is refused before anything reaches the daemon: exit 2, one `halma:` message
    naming the problem, and no room made."""
    with Cluster("cli-usage") as c:
        ann = c.add("ann")
        for args, says in [
            (["host", "t", "-p", "5"], "5"),
            (["host", "t", "--rules", "jump=long"], "jump"),
            (["host", "t", "--rules", "jumps=longest"], "longest"),
            (["host", ""], "1 to 40 bytes"),
            (["host", "x" * 41], "1 to 40 bytes"),
            (["host", "t", "--move-limit", "-1"], "-1"),
            (["host", "t", "--move-limit", "0"], "0"),
            (["host", "t", "--bots", "-1"], "-1"),
            (["host", "t", "--sets", "4"], "4"),
            (["host", "t", "--bogus"], "--bogus"),
            (["mvoe", "n3-m7"], "did you mean `move`?"),
        ]:
            out = ann.cli(*args)
            typed = " ".join(args)
            check(out.returncode == 2, f"halma {typed}: rc {out.returncode}: {out.stderr}")
            check(out.stderr.startswith("halma: ") and says in out.stderr.split("\n")[0],
                  f"halma {typed}: the message: {out.stderr!r}")
            check(out.stdout == "", f"halma {typed}: printed {out.stdout!r}")
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


run({f.__name__: f for f in [usage_errors_exit_2, help_and_version]})
