"""`halma play` in a real terminal (tmux) against real halmad processes on 127.0.0.1: the screen
a person sees at 80x24, 100x30, a large and a small terminal, resized under it; typing while
others move; the waiting and end screens. Run one with: terminal_tests.py NAME (ctest does)."""
import os
import re
import signal
import subprocess
import time

import halmatest
from halmatest import (Cluster, Daemon, api_pb2, check, common_pb2, greedy_move, replica_digest, run, views_in_step,
                       wait_until)
from terminal import BOARD_ROWS, BOARD_WIDTH, Terminal, board_holes, check_layout, shows_position


def last_line(screen):
    return screen.split("\n")[-1]


def prompt_ready(rows):
    """The screen of a terminal `rows` high, redrawn: the prompt on its last row, all holes."""
    def ready(screen):
        lines = screen.split("\n")
        return len(lines) == rows and last_line(screen).startswith(("your move>", ">")) and board_holes(lines) == 121
    return ready


def six_players_fit():
    """Six players (ann and five easy bots) at 80x24: the whole board, every seat beside it and
    the prompt; still so after a round of moves, and after the terminal is resized to 100x30,
    200x60 and 60x20. Then a new game turns ann's triangle: the board is rotated, and /keys names
    every hole where it is drawn."""
    with Cluster("term-six") as c:
        ann = c.add("ann")
        out = ann.cli("host", "six", "-p", "6", "--bots", "5", "--bot-level", "easy")
        check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(prompt_ready(24), "the first screen")
            lines = check_layout(t, "6 players at 80x24")
            panel = [line[BOARD_WIDTH + 2:] for line in lines]
            check(panel[0].startswith("room six, game 1"), f"no room line beside the board: {panel[0]!r}")
            seats = [p for p in panel if re.match(r"^[> ][BGYRCP] \S", p)]
            check(len(seats) == 6, "not every seat beside the board:\n" + "\n".join(panel))
            check(len({s[1] for s in seats}) == 6, f"two seats share a letter: {seats}")
            check(seats[0].startswith(">B ann (you)"), f"ann (black, first to move) not marked: {seats[0]!r}")
            # A round of moves: pick a marble, send it, the five bots answer; the log fits below.
            t.type_line("n3")
            t.wait_text("n3 can go to m7 m8")
            t.type_line("m7")
            t.wait_text("bot (5) played")
            # The bots' moves played out, the board is the room's position, and it is her turn.
            position = wait_until(lambda: (v := ann.api().view()).your_turn and v.position, 20, "ann's turn again")
            screen = t.wait_for(lambda s: prompt_ready(24)(s) and shows_position(s.split("\n"), position),
                                "the board to show the room's position")
            check(last_line(screen).startswith("your move>"), "not ann's turn after the bots'")
            lines = check_layout(t, "80x24 after a round")
            check(any(line.startswith("ann played n3-m7") for line in lines), "the log lost ann's move")
            check(lines[12][4 + 6 * 4] == "B", f"no marble on m7 after n3-m7: {lines[12]!r}")
            for cols, rows in [(100, 30), (200, 60), (60, 20)]:
                t.resize(cols, rows)
                check(t.size() == (cols, rows), f"tmux did not resize to {cols}x{rows}")
                t.wait_for(prompt_ready(rows), f"the screen redrawn at {cols}x{rows}")
                lines = check_layout(t, f"6 players at {cols}x{rows}")
                screen = "\n".join(lines)
                if cols >= 100:
                    check("[easy bot]" in screen, f"{cols}x{rows}: the wide status does not say the bots' level")
                    check("ann played n3-m7" in screen, f"{cols}x{rows}: the log is trimmed though rows are free")
                else:
                    brief = lines[BOARD_ROWS]
                    check(brief.startswith(">B you") and "P " in brief, f"60x20: no brief status: {brief!r}")
            t.resize(80, 24)
            t.wait_for(prompt_ready(24), "back at 80x24")
            # A new game (bots always agree): the colours turn one seat, ann's triangle with them.
            t.type_line("/vote new")
            t.wait_text("room six, game 2")
            screen = t.wait_for(prompt_ready(24), "game 2's board")
            lines = check_layout(t, "game 2 at 80x24")
            check(re.match(r"^[> ]G ann \(you\)", lines[3][BOARD_WIDTH + 2:]), f"ann is not green now: {lines[3]!r}")
            # Her start (triangle 2, apex m1) is at the bottom: the star is turned a sixth.
            check(lines[16].split()[0] == "m1" and "G" in lines[16], f"ann's triangle not at the bottom: {lines[16]!r}")
            t.type_line("/keys")
            key = t.wait_text("every hole's name").split("\n")
            print("--- /keys on game 2's board ---\n" + "\n".join(key))
            check(key[16].split()[0] == "m1" and key[0].split()[0] == "e13", f"hole key not turned:\n" + "\n".join(key))
            named = set(re.findall(r"\b[a-q]\d{1,2}\b", "\n".join(line[:51] for line in key[:BOARD_ROWS])))
            check(len(named) == 121, f"the key names {len(named)} of 121 holes")
            t.type_line("")
            t.wait_for(prompt_ready(24), "the board back after the key")


def two_players_type_and_finish():
    """Two players on two daemons. ann's screen (NO_COLOR) waits saying how bob joins; bob, at
    100x30 on a board turned his way, types while ann moves: his text stays, the bell rings,
    he finishes the line with Home/End, brings it back with Up, chats in UTF-8, gets told the slash form of
    `vote new`. At the end both screens say how to start the next game; `quit` and Ctrl-C end
    halma play."""
    with Cluster("term-two") as c:
        ann, bob = c.add("ann"), c.add("bob")
        out = ann.cli("host", "duo", "--move-limit", "3")
        check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, env={"NO_COLOR": "1"}) as ta:
            screen = ta.wait_text("Waiting for 1 more player")
            check(f"halma join {ann.address}/duo" in screen, f"the waiting screen does not say how to join:\n{screen}")
            out = bob.cli("join", f"{ann.address}/duo")
            check(out.returncode == 0, f"join: {out.stderr}")
            start = ann.api().view().position
            ta.wait_for(lambda s: prompt_ready(24)(s) and shows_position(s.split("\n"), start), "ann's board")
            lines = check_layout(ta, "2 players at 80x24")
            check(">B ann (you)" in "\n".join(lines) and " R bob" in "\n".join(lines), "seats without letters")
            check("\x1b[9" not in ta.raw_screen(), "colours drawn under NO_COLOR")
            check(lines[16].split()[0] == "q1" and "B" in lines[16], f"ann's marbles not at the bottom: {lines[16]!r}")
            with Terminal(c.tmp, "bob", 100, 30, bob.runtime_dir) as tb:
                tb.wait_for(prompt_ready(30), "bob's board")
                lines = check_layout(tb, "bob at 100x30")
                check(lines[16].split()[0] == "a1" and "R" in lines[16], f"bob's marbles not at the bottom: {lines[16]!r}")
                check("ann's turn" in "\n".join(lines), "bob's status does not say whose turn")
                tb.keys("-l", "hello wor")
                tb.wait_for(lambda s: last_line(s) == "> hello wor", "bob's typing")
                ta.type_line("n3-m7")
                screen = tb.wait_text("ann played n3-m7")
                screen = tb.wait_for(lambda s: last_line(s).startswith("your move>"), "bob's turn")
                check(last_line(screen) == "your move> hello wor", f"bob's typing lost: {last_line(screen)!r}")
                check(tb.bell_rang(), "no bell when it became bob's turn")
                tb.keys("Home")
                tb.keys("-l", "/c ")
                tb.keys("End")
                tb.keys("-l", "ld")
                tb.keys("Enter")
                ta.wait_text("bob: hello world")
                tb.wait_text("bob: hello world")
                tb.keys("Up")
                tb.wait_for(lambda s: last_line(s) == "your move> /c hello world", "Up to bring the line back")
                tb.keys("C-u")
                # Letters past ASCII are typed as they are, whatever the shell's locale (in "C"
                # libedit dropped them: "Grüße 🎲 你好" arrived as "Gre  ").
                tb.type_line("/c Grüße 🎲 你好")
                wait_until(lambda: any(line.text == "Grüße 🎲 你好" for line in ann.api().view().chat), 10,
                           "bob's chat in UTF-8 at ann's daemon")
                tb.type_line("vote new")
                tb.wait_text("to vote, type /vote new")
                # A command short of what it needs says what is missing (was "unknown command").
                tb.type_line("/vote maybe")
                tb.wait_text("vote for what: /vote new, /vote cancel or /vote leader")
                tb.type_line("/c")
                tb.wait_text("/c TEXT: say what to chat")
                # The rest of the game through the API (the room's move limit is 3 each).
                players = [ann, bob]
                for _ in range(10):
                    views = views_in_step(players, lambda d: d.api().view())
                    if views[0].summary.phase == common_pb2.PHASE_OVER:
                        break
                    d, v = next((d, v) for d, v in zip(players, views) if v.your_turn)
                    reply = d.api().move(greedy_move(v))
                    check(not reply.HasField("error"), f"{d.name}: {reply.error.message}")
                check(ann.api().view().summary.phase == common_pb2.PHASE_OVER, "the move limit did not end the game")
                final = ann.api().view().position
                ta.wait_for(lambda s: shows_position(s.split("\n"), final), "ann's board to show the last move")
                for term, rows in ((ta, 24), (tb, 30)):
                    screen = term.wait_text("game over")
                    check("/vote new" in screen, f"{term.name}'s end screen does not say how to start the next game:\n{screen}")
                    check_layout(term, f"{term.name} at the end")
                ta.resize(180, 50)
                ta.wait_for(prompt_ready(50), "ann's screen at 180x50")
                check_layout(ta, "2 players at 180x50")
                tb.type_line("quit")
                tb.wait_text("halma-exited-0")
            # Ctrl-C ends halma play cleanly: exit 0 and the shell's screen back.
            ta.keys("C-c")
            screen = ta.wait_text("halma-exited-0")
            check("room duo" not in screen, f"the play screen stayed after Ctrl-C:\n{screen}")


def the_last_words_stay_on_the_screen():
    """Why halma play ended stays on the shell's screen: the host's close of the room, and /leave
    saying the player left. The close's words were printed on the way out of the play screen,
    whose end put the cursor back above them: the shell's prompt wrote over them. /leave said
    nothing at all."""
    with Cluster("term-bye") as c:
        ann = c.add("ann")
        for room in ("bye", "bye2"):
            out = ann.cli("host", room, "--bots", "1", "--bot-level", "easy")
            check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "close", 80, 24, ann.runtime_dir, "-r", "bye") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            out = ann.cli("close", "-r", "bye", "-f")
            check(out.returncode == 0, f"close: {out.stderr}")
            screen = t.wait_text("halma-exited-0")
            lines = [line for line in screen.split("\n") if line.strip()]
            check(len(lines) >= 2 and "closed" in lines[-2] and "bye" in lines[-2],
                  f"the close is not said above the shell's next line:\n{screen}")
        with Terminal(c.tmp, "leave", 80, 24, ann.runtime_dir, "-r", "bye2") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            t.type_line("/leave")
            t.wait_text("/leave again to confirm")  # mid-game (leaving_a_game_in_progress_is_asked_first)
            t.type_line("/leave")
            screen = t.wait_text("halma-exited-0")
            lines = [line for line in screen.split("\n") if line.strip()]
            check(len(lines) >= 2 and lines[-2] == "left room bye2", f"/leave did not say so:\n{screen}")


def a_gone_player_gets_a_stand_in():
    """bob's daemon dies mid-game and stays away past his hold: on ann's screen a computer is
    announced in his seat and plays his turns, so the game goes on; when bob's daemon comes
    back, it takes his seat back by itself and he plays on."""
    with Cluster("term-standin") as c:
        ann = Daemon(c, "ann")
        command = ann.command
        ann.command = lambda: (lambda args: args[:args.index("--hold-ms") + 1] + ["1000"] + args[args.index("--hold-ms") + 2:])(command())
        c.daemons.append(ann)
        ann.start()
        bob = c.add("bob")
        check(ann.cli("host", "duo").returncode == 0, "host refused")
        check(bob.cli("join", f"{ann.address}/duo").returncode == 0, "join refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(prompt_ready(24), "ann's board")
            t.type_line("n3-m7")
            t.wait_for(lambda s: last_line(s).startswith(">"), "bob's turn")
            bob.kill(signal.SIGKILL)
            t.wait_text("bob was gone too long")
            screen = t.wait_text("until they are back")
            check("bot for bob" in screen, f"the status does not say who plays bob's seat:\n{screen}")
            # The seat is kept for bob: said so ("lost the seat" was said, and he came back to it).
            check("lost the seat" not in screen and "bot for bob, a computer (hard), plays seat 2" in screen,
                  f"the screen does not say the seat waits for bob:\n{screen}")
            t.wait_for(lambda s: last_line(s).startswith("your move>") and "bot for bob played" in s,
                       "the computer to play bob's turn")
            check_layout(t, "a computer stands in for bob")
            bob.start()  # its seats file still holds bob's token
            t.wait_text("bob joined, seat 2")

            def bob_back():
                reply = bob.api().call(view=api_pb2.ViewRequest())
                if reply.HasField("error") or reply.view.connection != api_pb2.CONNECTION_STATE_CONNECTED:
                    return None
                return reply.view if replica_digest(reply.view) == replica_digest(ann.api().view()) else None

            v = wait_until(bob_back, 15, "bob's daemon to take the seat back and catch up")
            check(v.your_seat == 1 and not v.seats[1].bot, f"bob not back in his seat: {v.seats}")
            screen = t.screen()
            check(re.search(r"^ *R bob +\d", "\n".join(line[BOARD_WIDTH + 2:] for line in screen.split("\n")), re.M),
                  f"ann's status does not show bob back:\n{screen}")
            t.type_line(greedy_move(ann.api().view()))
            reply = wait_until(lambda: (v := bob.api().view()).your_turn and v, 10, "bob's turn")
            check(not bob.api().move(greedy_move(reply)).HasField("error"), "bob's move refused")
            t.wait_for(lambda s: last_line(s).startswith("your move>"), "ann's turn after bob's")


def play_and_watch_survive_a_daemon_restart():
    """ann plays at bob's room; her halmad is stopped (SIGTERM) and started again with the same
    directories under her running `halma play` and `halma watch`. Her screen says halmad is
    gone and reconnecting, then that it is back, and shows the room as it is now: bob's move made
    after the restart is on her board and in her log, and a move she types then is played (bob's
    daemon sees it). `halma watch` goes on printing across the restart, and `halma rooms --watch`
    subscribes to the new daemon's list."""
    with Cluster("term-restart") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(bob.cli("host", "duo").returncode == 0, "host refused")
        check(ann.cli("join", f"{bob.address}/duo").returncode == 0, "join refused")
        watch_out = os.path.join(c.tmp, "watch.out")
        rooms_out = os.path.join(c.tmp, "rooms.out")
        with open(watch_out, "w") as out, open(os.path.join(c.tmp, "watch.err"), "w") as err:
            watch = subprocess.Popen([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "watch"], stdout=out,
                                     stderr=err)
        with open(rooms_out, "w") as out:
            rooms = subprocess.Popen([halmatest.HALMA, "--runtime-dir", ann.runtime_dir, "rooms", "--watch", "--json"],
                                     stdout=out, stderr=subprocess.DEVNULL)
        try:
            # --fixed: triangle 1 at the bottom, so the board reads as the position does.
            with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "--fixed") as t:
                t.wait_for(prompt_ready(24), "ann's board")
                # watch is subscribed once a chat line reaches it: one said before it subscribed
                # (it starts slowly on a loaded machine) never does, so bob says it again.
                said = []

                def watch_heard():
                    if "bob: before" in open(watch_out).read():
                        return True
                    if len(said) < 8 and (not said or time.monotonic() - said[-1] > 1):
                        bob.cli("chat", "before")
                        said.append(time.monotonic())
                    return False
                wait_until(watch_heard, 10, "watch to print bob's chat")
                wait_until(lambda: open(rooms_out).read().endswith("\n"), 10, "rooms --watch to print the list")
                lists_before = len(open(rooms_out).read().splitlines())
                ann.kill(signal.SIGTERM)
                t.wait_text("● halmad gone")
                t.wait_text("lost halmad")
                # Too narrow for the status panel: the brief status under the board says it.
                t.resize(60, 20)
                t.wait_for(lambda s: s.split("\n")[BOARD_ROWS + 1:BOARD_ROWS + 2] == ["● halmad gone"],
                           "the brief status at 60x20 to say halmad is gone")
                t.resize(80, 24)
                ann.start()
                t.wait_text("halmad is back")
                wait_until(lambda: ann.api().view().connection == api_pb2.CONNECTION_STATE_CONNECTED, 15,
                           "ann's daemon to rejoin bob's room")
                # bob moves after the restart: it reaches the new daemon's subscriber, ann's screen.
                move = greedy_move(bob.api().view())
                check(not bob.api().move(move).HasField("error"), "bob's move refused")
                t.wait_text(f"bob played {move}")
                position = wait_until(lambda: (v := ann.api().view()).your_turn and v.position, 10, "ann's turn")
                screen = t.wait_for(lambda s: last_line(s).startswith("your move>")
                                    and shows_position(s.split("\n"), position), "ann's board with bob's move")
                check("halmad gone" not in screen, f"the light still says halmad is gone:\n{screen}")
                check_layout(t, "after ann's daemon restarted")
                mine = greedy_move(ann.api().view())
                t.type_line(mine)
                t.wait_text(f"ann played {mine}")
                wait_until(lambda: len(bob.api().view().moves) == 2, 10, "bob's daemon to see ann's move")
            wait_until(lambda: f"ann played {mine}" in open(watch_out).read(), 10,
                       "watch to print ann's move after the restart")
            check(watch.poll() is None, "halma watch ended at the restart")
            printed = open(watch_out).read()
            check(f"bob played {move}" in printed, f"watch missed bob's move after the restart:\n{printed}")
            # `halma rooms --watch` subscribed again too: a subscription is answered with the list
            # (here only ann's own rooms: no avahi), so it printed more, the last with bob's room.
            def lists_after():
                lines = open(rooms_out).read().splitlines()
                return len(lines) > lists_before and lines[-1]
            last = wait_until(lists_after, 10, "rooms --watch to print the list from the new daemon")
            check("duo" in last, f"the last list from the new daemon lacks bob's room: {last}")
        finally:
            for p in (watch, rooms):
                p.kill()
                p.wait()


def without_elsewhere(screen):
    """The screen less its line saying it is the player's move in another room."""
    return "\n".join(line for line in screen.split("\n") if not line.startswith("your move in room"))


def panel_text(screen):
    """The status beside the board (80 columns and wider) as one line of words, however it is
    wrapped."""
    return " ".join(line[BOARD_WIDTH + 2:].strip() for line in screen.split("\n")[:-1])


def no_turn_is_offered_while_the_room_is_out_of_reach():
    """ann's turn at bob's room: while bob's halmad is down (her light "connecting"), and while
    her own halmad restarts ("halmad gone", then "halmad back"), her screen does not say "your
    turn" nor prompt "your move>": it says it waits for the host (or halmad) and that she can
    move once the room is back. A move typed then is not sent, and says why. Once back, it is her
    turn again and her move is played. It said "your turn: type a move" under the yellow light,
    and the move typed could not be sent."""
    with Cluster("term-reach") as c:
        bob, ann = c.add("bob"), c.add("ann")
        check(bob.cli("host", "duo").returncode == 0, "host refused")
        check(ann.cli("join", f"{bob.address}/duo").returncode == 0, "join refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(prompt_ready(24), "ann's board")
            check(not bob.api().move(greedy_move(bob.api().view())).HasField("error"), "bob's move refused")
            screen = t.wait_for(lambda s: last_line(s).startswith("your move>"), "ann's turn")
            check("your turn" in panel_text(screen), f"ann's turn is not said:\n{screen}")

            def out_of_reach(light, why):
                screen = t.wait_text(light)
                screen = t.wait_for(lambda s: why in panel_text(s), f"{why!r} beside the board")
                lines = check_layout(t, f"ann's screen with {light!r}")
                panel = panel_text(screen)
                check("your turn" not in panel and "type a move" not in panel,
                      f"a turn offered with {light!r}:\n{screen}")
                check("you can move once the room is back" in panel, f"not said when she can move:\n{screen}")
                check(not lines[-1].startswith("your move>"), f"a move prompted with {light!r}: {lines[-1]!r}")
                check(all(len(line) <= 80 for line in lines), "a line wider than the terminal")
                return screen

            bob.kill(signal.SIGKILL)
            out_of_reach("● connecting", "waiting for the host (reconnecting)")
            move = greedy_move(ann.api().view())
            t.type_line(move)
            screen = t.wait_for(lambda s: "! " in s and "not sent" in s, "the move refused on ann's screen")
            check(f"ann played {move}" not in screen, f"a move played while bob's halmad was down:\n{screen}")
            bob.start()
            screen = t.wait_for(lambda s: "● connected" in s and last_line(s).startswith("your move>"),
                                "ann's turn once bob's halmad is back")
            check("your turn" in panel_text(screen), f"ann's turn is not said once back:\n{screen}")
            # Her own halmad: gone, then back and reading the room again.
            ann.kill(signal.SIGTERM)
            out_of_reach("● halmad gone", "halmad is restarting")
            ann.start()
            t.wait_for(lambda s: "● connected" in s and last_line(s).startswith("your move>"),
                       "ann's turn once her halmad is back")
            move = greedy_move(ann.api().view())
            t.type_line(move)
            t.wait_text(f"ann played {move}")
            wait_until(lambda: len(bob.api().view().moves) == 2, 10, "bob's daemon to see ann's move")


def open_votes_are_shown_with_who_voted_and_how():
    """ann, bob and cat at ann's room; ann plays at 80x24. Each vote the others open is on her
    screen, as halma status has it: what for, who voted, who has not yet, and what she types to
    agree. To hide the leader (it was not shown at all), for a new game and to cancel (shown
    with neither who was still to vote nor how to vote). Once a vote is carried, its line goes."""
    with Cluster("term-votes") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        check(ann.cli("host", "den", "-p", "3").returncode == 0, "host refused")
        for d in (bob, cat):
            check(d.cli("join", f"{ann.address}/den").returncode == 0, f"{d.name}'s join refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(prompt_ready(24), "ann's board")

            def shows(text, what):
                screen = t.wait_for(lambda s: text in panel_text(s), what)
                lines = check_layout(t, what)
                cols = t.size()[0]
                check(all(len(line) <= cols for line in lines), f"{what}: a line wider than the terminal")
                return screen

            def vote(d, kind):
                out = d.cli("vote", kind, "-r", "den")
                check(out.returncode == 0, f"{d.name}'s vote {kind}: {out.stderr}")

            # The leader: bob opens it, ann sees how to agree; once she has, only cat is awaited.
            vote(bob, "leader")
            status = ann.cli("status", "-r", "den").stdout
            check("bob" in status and "votes to hide the leader" in status, f"halma status:\n{status}")
            shows("* vote to hide the leader: voted bob; not yet you, cat; to agree: /vote leader",
                  "bob's leader vote on ann's screen")
            t.type_line("/vote leader")
            shows("* vote to hide the leader: voted you, bob; not yet cat", "ann's own leader vote")
            vote(cat, "leader")
            screen = shows("in the lead: hidden until the game ends", "the leader hidden once all agree")
            check("vote to hide" not in panel_text(screen), f"a carried vote still shown:\n{screen}")
            # A new game.
            vote(bob, "new")
            shows("* vote for a new game: voted bob; not yet you, cat; to agree: /vote new",
                  "bob's new-game vote on ann's screen")
            vote(cat, "new")
            shows("* vote for a new game: voted bob, cat; not yet you; to agree: /vote new", "cat's vote too")
            t.type_line("/vote new")
            screen = shows("room den, game 2", "game 2")
            check("vote for a new game" not in panel_text(screen), f"a carried vote still shown:\n{screen}")
            # To cancel, once cat is gone (her halmad killed: her seat is held).
            cat.kill(signal.SIGKILL)
            t.wait_text("a player is gone")
            vote(bob, "cancel")
            shows("* vote to cancel the game: voted bob; not yet you; to agree: /vote cancel",
                  "bob's cancel vote on ann's screen")
            t.resize(120, 30)
            shows("* vote to cancel the game: voted bob; not yet you; to agree: /vote cancel", "the vote at 120x30")
            t.type_line("/vote cancel")
            screen = shows("game cancelled", "the game cancelled")
            check("vote to cancel" not in panel_text(screen), f"a carried vote still shown:\n{screen}")


def your_move_in_another_room_is_shown():
    """ann plays in her room "lunch" (with bob) and is seated in bob's room "Office 4" too. When
    bob moves there, her lunch screen says it is her move in Office 4 and how to go there, at 80
    and at 120 columns; it goes once she has moved there (from another shell). A room she hosts
    while playing, where she moves first, is named too. /switch takes her to Office 4, and she
    moves there. Nothing told her another room waited for her."""
    with Cluster("term-elsewhere") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "lunch").returncode == 0, "host lunch refused")
        check(bob.cli("join", f"{ann.address}/lunch").returncode == 0, "join lunch refused")
        check(bob.cli("host", "Office 4").returncode == 0, "host Office 4 refused")
        check(ann.cli("join", f"{bob.address}/Office 4").returncode == 0, "join Office 4 refused")
        elsewhere = "your move in room 'Office 4' too: /switch Office 4"
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "-r", "lunch") as t:
            screen = t.wait_for(prompt_ready(24), "ann's lunch board")
            check("Office 4" not in screen, f"Office 4 named before it is ann's move there:\n{screen}")
            check(not bob.api().move(greedy_move(bob.api().view("Office 4")), "Office 4").HasField("error"),
                  "bob's move in Office 4 refused")
            for cols, rows in ((80, 24), (120, 30)):
                t.resize(cols, rows)
                screen = t.wait_for(lambda s: elsewhere in s and prompt_ready(rows)(s), f"the line at {cols}x{rows}")
                lines = check_layout(t, f"ann's move in Office 4, at {cols}x{rows}")
                check(all(len(line) <= cols for line in lines), "a line wider than the terminal")
                check(t.bell_rang(), "no bell when Office 4 began to wait for ann")
            move = greedy_move(ann.api().view("Office 4"))
            out = ann.cli("move", "-r", "Office 4", move)
            check(out.returncode == 0, f"ann's move in Office 4: {out.stderr}")
            t.wait_for(lambda s: "Office 4" not in s, "the line to go once ann has moved in Office 4")
            # A room hosted meanwhile: ann (black) moves first there.
            check(ann.cli("host", "porch", "--bots", "1", "--bot-level", "easy").returncode == 0, "host porch")
            t.wait_text("your move in room 'porch' too: /switch porch")
            check(not bob.api().move(greedy_move(bob.api().view("Office 4")), "Office 4").HasField("error"),
                  "bob's second move in Office 4 refused")
            t.wait_text("your move in rooms 'Office 4' and 'porch' too: /switch ROOM")
            t.type_line("/switch 'Office 4'")
            screen = t.wait_for(lambda s: "room Office 4, game 1" in s and last_line(s).startswith("your move>"),
                                "Office 4 on ann's screen")
            # ann has not moved in lunch yet (she moves first there): it waits for her too.
            check("your move in rooms 'lunch' and 'porch' too: /switch ROOM" in screen,
                  f"the other rooms after /switch:\n{screen}")
            move = greedy_move(ann.api().view("Office 4"))
            t.type_line(move)
            frm, to = move.split("-")[0], move.split("-")[-1]  # the log names the hops between
            t.wait_for(lambda s: any(line.startswith(f"ann played {frm}-") and line.rstrip().endswith(f"-{to}")
                                     for line in s.split("\n")), f"ann's {move} in Office 4's log")
            wait_until(lambda: len(bob.api().view("Office 4").moves) == 4, 10, "bob's daemon to see ann's move")
            t.type_line("/switch")
            t.wait_text("! /switch ROOM: which of your rooms to play in")
            t.type_line("/switch nowhere")
            screen = t.wait_text("! no room 'nowhere' on this daemon")
            check("room Office 4, game 1" in screen, f"a bad /switch left Office 4:\n{screen}")


def a_room_closed_while_halmad_was_down_ends_play():
    """bob plays at dan's room; bob's halmad is killed, dan closes the room meanwhile, and bob's
    halmad starts again and finds the room gone at its host. bob's screen says the host closed
    the room while his halmad was down, and halma play ends (exit 0, as for a close it sees).
    It stayed at "halmad back" for good, answering every move "halmad is restarting"."""
    with Cluster("term-gone") as c:
        dan, bob = c.add("dan"), c.add("bob")
        check(dan.cli("host", "gone2").returncode == 0, "host refused")
        check(bob.cli("join", f"{dan.address}/gone2").returncode == 0, "join refused")
        with Terminal(c.tmp, "bob", 80, 24, bob.runtime_dir, "-r", "gone2") as t:
            t.wait_for(prompt_ready(24), "bob's board")
            bob.kill(signal.SIGKILL)
            t.wait_text("● halmad gone")
            out = dan.cli("close", "-r", "gone2", "--force")
            check(out.returncode == 0, f"close: {out.stderr}")
            bob.start()
            wait_until(lambda: "no longer has it" in bob.log_tail(), 15, "bob's halmad to drop the closed room")
            screen = t.wait_text("halma-exited-0", timeout=15)
            lines = [line for line in screen.split("\n") if line.strip()]
            check(len(lines) >= 2 and lines[-2] == "room gone2 is gone: its host closed it while your halmad was down",
                  f"the close while halmad was down is not said:\n{screen}")
            print("halma play said the room was closed while its halmad was down, and ended")


def a_leave_from_another_halma_ends_play():
    """dan plays in a room and gives his seat up with `halma leave` from another shell: halma play
    says he left the room and ends (exit 0, as /leave does), whether the room is joined at
    another daemon or hosted by his own. It said "dan left" and went on showing him seated, and
    a chat line, a move or /board each answered "no room '<32 hex digits>' on this daemon".
    A room halmad dropped without telling (left while its host was out of reach) is named by
    its name, and play ends, at the next thing typed."""
    with Cluster("term-left") as c:
        ann, dan = c.add("ann"), c.add("dan")
        check(ann.cli("host", "Office 4").returncode == 0, "host refused")
        check(dan.cli("join", f"{ann.address}/Office 4").returncode == 0, "join refused")
        check(dan.cli("host", "Office 5", "--bots", "1", "--bot-level", "easy").returncode == 0, "host refused")
        for room in ("Office 4", "Office 5"):
            with Terminal(c.tmp, "dan", 80, 24, dan.runtime_dir, "-r", room) as t:
                t.wait_for(prompt_ready(24), f"dan's board in {room}")
                out = dan.cli("leave", "-r", room)
                check(out.returncode == 0, f"leave {room}: {out.stderr}")
                screen = t.wait_text("halma-exited-0")
                lines = [line for line in screen.split("\n") if line.strip()]
                check(len(lines) >= 2 and lines[-2] == f"you left room {room} (from another halma)",
                      f"the leave from another halma is not said in {room}:\n{screen}")
                check(not re.search(r"[0-9a-f]{32}", screen), f"a room id on the screen:\n{screen}")
        # Left while its host is out of reach: dan's halmad drops the room at once, telling no one.
        check(dan.cli("join", f"{ann.address}/Office 4").returncode == 0, "join again refused")
        with Terminal(c.tmp, "dan2", 80, 24, dan.runtime_dir, "-r", "Office 4") as t:
            t.wait_for(prompt_ready(24), "dan's board in Office 4 again")
            ann.kill(signal.SIGKILL)
            wait_until(lambda: dan.api().view("Office 4").connection != api_pb2.CONNECTION_STATE_CONNECTED, 15,
                       "dan's halmad to lose ann's")
            out = dan.cli("leave", "-r", "Office 4")
            check(out.returncode == 0, f"leave while ann is gone: {out.stderr}")
            t.type_line("/c still here?")
            screen = t.wait_text("halma-exited-1")
            check("room Office 4 is no longer on your halmad" in screen and not re.search(r"[0-9a-f]{32}", screen),
                  f"the room dropped meanwhile is not said by its name:\n{screen}")
            print("a leave from another halma ended halma play, saying so by the room's name")


def another_rooms_events_stay_off_the_screen():
    """ann plays in her only room (halma play with no -r), then hosts a second room with a
    computer player and chats there: her screen shows none of it, and still the first room's
    own chat. A play in no named room subscribed to every room, and a room hosted later put its
    moves, its "game over" and its board on this one's screen."""
    with Cluster("term-other-room") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(bob.cli("host", "duo").returncode == 0, "host refused")
        check(ann.cli("join", f"{bob.address}/duo").returncode == 0, "join refused")
        position = ann.api().view().position
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "--fixed") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            out = ann.cli("host", "side", "--bots", "1", "--bot-level", "easy")
            check(out.returncode == 0, f"the second room: {out.stderr}")
            check(ann.cli("chat", "-r", "side", "psst").returncode == 0, "chat in side refused")
            check(bob.cli("chat", "hello").returncode == 0, "chat in duo refused")
            screen = t.wait_text("bob: hello")
            # Its one line saying it is her move there is all of it (your_move_in_another_room_is_shown).
            rest = without_elsewhere(screen)
            check("psst" not in rest and "side" not in rest and "bot played" not in rest,
                  f"the other room's events on the screen:\n{screen}")
            check(shows_position(screen.split("\n"), position), f"duo's board is gone:\n{screen}")
            print("a room hosted meanwhile stayed off the screen of the first")


def play_in_several_rooms_offers_them():
    """ann is in two rooms: halma play at a terminal lists them, the one where it is her move
    marked, and opens the one she picks (it stopped with "say which with -r ROOM")."""
    with Cluster("term-several") as c:
        ann = c.add("ann")
        for name in ("lunch", "porch"):
            check(ann.cli("host", name, "--bots", "1", "--bot-level", "easy").returncode == 0, f"host {name}")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            listed = t.wait_text("You are in 2 rooms:")
            check("lunch" in listed and "porch" in listed and "(your move)" in listed, f"the list:\n{listed}")
            number = next(line.split("]")[0].strip("[") for line in listed.split("\n") if "porch" in line)
            t.type_line(number)
            screen = t.wait_for(prompt_ready(24), "the porch room's screen")
            check("porch" in screen and "lunch" not in without_elsewhere(screen), f"not porch's screen:\n{screen}")
            print("halma play in two rooms listed them and opened the one picked")


def shown_join_command(screen):
    """The join command a screen shows, as a person would copy it: from "halma join" to where the
    status beside it begins, with the lines it continues on (a line ending in a backslash)."""
    lines = screen.split("\n")
    at = next((i for i, line in enumerate(lines) if "halma join " in line), None)
    check(at is not None, f"no join command on the screen:\n{screen}")
    shown = [re.split(r" {2,}", lines[at][lines[at].index("halma join "):].rstrip())[0]]
    while shown[-1].endswith("\\") and at + 1 < len(lines):
        at += 1
        shown.append(lines[at].rstrip())
    return "\n".join(shown)


def paste_join(command, daemon):
    """The command pasted into a shell, with `halma` talking to `daemon`."""
    argv0 = f"'{halmatest.HALMA}' --runtime-dir '{daemon.runtime_dir}' "
    return subprocess.run(["sh", "-c", command.replace("halma ", argv0, 1)], capture_output=True, text=True,
                          timeout=30)


def a_shown_join_command_works_pasted():
    """The join command on the waiting screen, the host's and a guest's, pasted into a shell as
    it is shown, joins the room. A room named "Sunday game" showed `halma join ADDRESS/Sunday
    game` unquoted: pasted, halma said "The following argument was not expected: game"."""
    with Cluster("term-pasted") as c:
        ann, bob, cat = c.add("ann"), c.add("bob"), c.add("cat")
        out = ann.cli("host", "Sunday game", "-p", "3")
        check(out.returncode == 0, f"host: {out.stderr}")
        for player, joiner in ((ann, bob), (bob, cat)):
            with Terminal(c.tmp, player.name, 80, 24, player.runtime_dir, "-r", "Sunday game") as t:
                screen = t.wait_text("Others join from their own halma with")
                print(f"--- {player.name}'s waiting screen ---\n{screen}")
                command = shown_join_command(screen)
                joined = paste_join(command, joiner)
                check(joined.returncode == 0 and "joined room" in joined.stdout,
                      f"{player.name}'s {command!r} pasted: rc {joined.returncode} {joined.stdout!r} {joined.stderr!r}")


def a_friends_code_is_shown_whole():
    """A friends room's waiting screen at 80x24 and 120x30, the host's and a guest's, shows the
    whole code, and its join command pasted as shown joins. The code was cut at the board's edge
    (`halma join ADDRESS/zm6xt-em7v7-18xar-tz7r6-kvhf-a7`) and beside it ("friends code
    zm6xt-em"): a friend who typed what was shown got "no room"."""
    with Cluster("term-friends") as c:
        ann, bob, cat, dan = c.add("ann"), c.add("bob"), c.add("cat"), c.add("dan")
        out = ann.cli("host", "fr", "--friends", "-p", "4")
        check(out.returncode == 0, f"host: {out.stderr}")
        code = re.search(r"friends code: (\S+)", out.stdout).group(1)
        for player, joiner, (cols, rows) in ((ann, bob, (80, 24)), (bob, cat, (80, 24)), (cat, dan, (120, 30))):
            with Terminal(c.tmp, player.name, cols, rows, player.runtime_dir, "-r", "fr") as t:
                screen = t.wait_text("Others join from their own halma with")
                print(f"--- {player.name}'s waiting screen at {cols}x{rows} ---\n{screen}")
                command = shown_join_command(screen)
                check(code in command, f"{player.name}'s join command lacks the whole code {code}: {command!r}")
                joined = paste_join(command, joiner)
                check(joined.returncode == 0 and "joined room" in joined.stdout,
                      f"{player.name}'s {command!r} pasted: rc {joined.returncode} {joined.stdout!r} {joined.stderr!r}")


def the_house_rules_are_beside_the_board():
    """ann hosts a room with long jumps, marbles free to leave home, a move limit and a turn
    limit, against a computer. Her play screen says those rules beside the board, in a few
    words at 80x24 and in the web page's words at 120x40, and nothing of the plain rules. Only
    halma rooms and status said them: the family played long jumps by surprise."""
    with Cluster("term-rules") as c:
        ann = c.add("ann")
        out = ann.cli("host", "fast", "--rules", "jumps=long,home-lock=off", "--move-limit", "15",
                      "--turn-limit-s", "120", "--bots", "1", "--bot-level", "easy")
        check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "-r", "fast") as t:
            for (cols, rows), said in (((80, 24), "rules: long jumps; marbles may leave home; 15 moves each, "
                                                  "then by distance; 120 s a turn"),
                                       ((120, 40), "rules: long jumps (over one marble from any distance); a "
                                                   "marble home may leave it again; ends after 15 moves each, the "
                                                   "rest placed by distance; 120 s a turn, then the computer moves")):
                t.resize(cols, rows)
                screen = t.wait_for(lambda s: prompt_ready(rows)(s) and said in panel_text(s),
                                    f"the rules beside the board at {cols}x{rows}")
                lines = check_layout(t, f"the rules at {cols}x{rows}")
                check(all(len(line) <= cols for line in lines), "a line wider than the terminal")
                for plain in ("short", "rest=own", "release", "spoil"):
                    check(plain not in panel_text(screen), f"a plain rule said at {cols}x{rows}:\n{screen}")
            t.type_line("n3")  # the log still has its rows under the board
            t.wait_text("n3 can go to")


def leaving_a_game_in_progress_is_asked_first():
    """/leave in the middle of a game asks first, says a computer takes the seat, and leaves
    only when typed again: anything else typed between is a no. It left at once (while halma
    close insists on --force)."""
    question = "leave the game in progress? a computer takes your seat. /leave again to confirm"
    with Cluster("term-leave") as c:
        ann = c.add("ann")
        check(ann.cli("host", "den", "--bots", "1", "--bot-level", "easy").returncode == 0, "host refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "-r", "den") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            t.type_line("/leave")
            screen = t.wait_text(question)  # on one line at 80 columns
            check("halma-exited" not in screen, f"play ended at the first /leave:\n{screen}")
            check(ann.api().view("den").your_seat >= 0, "ann's seat given up at the first /leave")
            t.type_line("/board")  # a no
            t.type_line("/leave")
            time.sleep(1)
            screen = t.screen()
            check("halma-exited" not in screen and ann.api().view("den").your_seat >= 0,
                  f"a /leave after another line left without asking:\n{screen}")
            t.type_line("/leave")
            screen = t.wait_text("halma-exited-0")
            lines = [line for line in screen.split("\n") if line.strip()]
            check(len(lines) >= 2 and lines[-2] == "left room den", f"/leave again did not leave:\n{screen}")


def reopening_play_shows_the_recent_chat():
    """ann and bob chat in a room, then ann opens halma play: the last chat lines are in the
    log, and still after /quit and opening it again. The log was empty, the conversation gone
    from the screen (the web page shows it on reload)."""
    with Cluster("term-chat") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "den").returncode == 0, "host refused")
        check(bob.cli("join", f"{ann.address}/den").returncode == 0, "join refused")
        said = [(bob, "are you there?"), (ann, "yes, one moment"), (bob, "who is black?"), (ann, "me, I move first")]
        for d, text in said:
            check(d.cli("chat", "-r", "den", text).returncode == 0, f"{d.name}'s chat refused")
        wait_until(lambda: len(ann.api().view("den").chat) == 4, 10, "the chat at ann's daemon")
        for opening in ("first", "again"):
            with Terminal(c.tmp, f"ann-{opening}", 80, 24, ann.runtime_dir, "-r", "den") as t:
                screen = t.wait_for(prompt_ready(24), f"ann's board, opened {opening}")
                check_layout(t, f"the chat on opening {opening}")
                for d, text in said[1:]:
                    check(f"{d.name}: {text}" in screen,
                          f"{d.name}: {text!r} not shown on opening {opening}:\n{screen}")
                t.type_line("/quit")
                t.wait_text("halma-exited-0")


def a_hole_or_words_typed_get_a_useful_answer():
    """grandma plays three sets (B, Y, C) against a computer at 80x24. Her name is whole beside
    her sets (">BYC Gran~ (you)" before). On her turn, black's: her yellow marble's hole alone
    says whose marble it is and whose turn, as a whole move does ("the marble on m5 cannot move
    now" before); an opponent's hole says the same; words that are not a move say how to chat
    them ("is not a hole: rows run from a to q" before)."""
    with Cluster("term-answers") as c:
        gran = c.add("grandma")
        check(gran.cli("host", "trio", "-s", "3", "--bots", "1", "--bot-level", "easy").returncode == 0, "host")
        with Terminal(c.tmp, "grandma", 80, 24, gran.runtime_dir, "-r", "trio") as t:
            screen = t.wait_for(lambda s: prompt_ready(24)(s) and last_line(s).startswith("your move>"),
                                "grandma's turn")
            lines = check_layout(t, "three sets at 80x24")
            seat = next((line[BOARD_WIDTH + 2:] for line in lines if line[BOARD_WIDTH + 2:].startswith(">BYC")), "")
            check(seat.startswith(">BYC grandma") and "~" not in seat, f"her name is cut: {seat!r}")
            position = gran.api().view("trio").position

            def hole_of(digit):
                rows = position.split()[0].split("/")
                for r, row in enumerate(rows):
                    if digit in row:
                        return f"{chr(ord('a') + r)}{row.index(digit) + 1}"
            for digit, words in (("3", "yellow (set 3)"), ("2", "green (set 2)")):
                hole = hole_of(digit)
                t.type_line(hole)
                t.wait_text(f"! {hole} holds a marble of {words}; it is the turn of black (set 1)")
            t.type_line("who is winning?")
            screen = t.wait_text("to chat, type /c who is winning?")
            check("rows run from" not in screen, f"still told about rows:\n{screen}")
            check(not gran.api().view("trio").chat, "the words were sent as chat unasked")


def the_room_list_says_which_games_are_over_or_waiting():
    """ann is in three rooms: one where it is her move, one whose game is over, one waiting for a
    player. halma play's list of them says so beside each: it marked "(your move)" alone, and a
    finished room looked as live as the others."""
    with Cluster("term-marks") as c:
        ann = c.add("ann")
        check(ann.cli("host", "lunch", "--bots", "1", "--bot-level", "easy").returncode == 0, "host lunch")
        check(ann.cli("host", "done", "--bots", "1", "--bot-level", "easy", "--move-limit", "1").returncode == 0,
              "host done")
        check(ann.cli("host", "calm").returncode == 0, "host calm")
        check(not ann.api().move(greedy_move(ann.api().view("done")), "done").HasField("error"), "ann's move in done")
        wait_until(lambda: ann.api().view("done").summary.phase == common_pb2.PHASE_OVER, 20, "the game in done to end")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            listed = t.wait_text("You are in 3 rooms:")
            marks = {name: line for line in listed.split("\n") for name in ("lunch", "done", "calm")
                     if f"] {name}" in line}
            check(marks.get("lunch", "").endswith("(your move)"), f"lunch: {marks}")
            check(marks.get("done", "").endswith("(game over)"), f"done: {marks}")
            check(marks.get("calm", "").endswith("(waiting for 1 more player)"), f"calm: {marks}")


def the_quick_start_ends_cleanly():
    """The README's first command, scripts/setup-and-play.sh, as a newcomer runs it: it starts a
    halmad for the game, opens the board, and when the player quits it says the game's halmad
    stops, and stops it, with its room. It hung: its close of the room asked mid-game whether
    to close it, into /dev/null, and waited for an answer nobody saw; the daemon was left
    running."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.path.dirname(os.path.dirname(halmatest.HALMA))
    with Cluster("term-quick") as c:
        run_dir = os.path.join(c.tmp, "run")
        env = {"HALMA_RUNTIME_DIR": run_dir, "XDG_STATE_HOME": os.path.join(c.tmp, "state"),
               "HALMA_BUILD_DIR": build}
        with Terminal(c.tmp, "quick", 80, 24, run_dir, env=env,
                      argv=[os.path.join(repo, "scripts", "setup-and-play.sh")]) as t:
            t.wait_for(prompt_ready(24), "the quick start's board", timeout=120)
            check(os.path.exists(os.path.join(run_dir, "api.sock")), "no halmad of the quick start's")
            t.type_line("/quit")
            screen = t.wait_text("halma-exited-0", timeout=30)
            check("this game's halmad stops now" in screen, f"not said that halmad stops:\n{screen}")
        out = subprocess.run([halmatest.HALMA, "--runtime-dir", run_dir, "daemon", "status"],
                             capture_output=True, text=True, timeout=30)
        check(out.returncode != 0, f"the quick start's halmad still runs: {out.stdout}")


run({f.__name__: f for f in [the_quick_start_ends_cleanly, six_players_fit, two_players_type_and_finish, the_last_words_stay_on_the_screen,
                             a_gone_player_gets_a_stand_in,
                             play_and_watch_survive_a_daemon_restart, another_rooms_events_stay_off_the_screen,
                             a_room_closed_while_halmad_was_down_ends_play, a_leave_from_another_halma_ends_play,
                             play_in_several_rooms_offers_them, a_shown_join_command_works_pasted,
                             a_friends_code_is_shown_whole, no_turn_is_offered_while_the_room_is_out_of_reach,
                             open_votes_are_shown_with_who_voted_and_how, your_move_in_another_room_is_shown,
                             the_house_rules_are_beside_the_board,
                             leaving_a_game_in_progress_is_asked_first,
                             reopening_play_shows_the_recent_chat,
                             a_hole_or_words_typed_get_a_useful_answer,
                             the_room_list_says_which_games_are_over_or_waiting]})
