"""`halma play` in a real terminal (tmux) against real halmad processes on 127.0.0.1: the screen
a person sees at 80x24, 100x30, a large and a small terminal, resized under it; typing while
others move; a player gone and back, halmad restarted under it; the quick start. Across rooms:
terminal_room_tests.py; what play says and asks: terminal_words_tests.py. Run one with:
terminal_tests.py NAME (ctest does)."""
import os
import re
import signal
import subprocess
import time

import halmatest
from halmatest import (Cluster, Daemon, api_pb2, check, common_pb2, greedy_move, replica_digest, run, views_in_step,
                       wait_until)
from terminal import (BOARD_ROWS, BOARD_WIDTH, Terminal, board_holes, check_layout, last_line, panel_text,
                      prompt_ready, shows_position, without_elsewhere)


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
            check(any(line.startswith("you played n3-m7") for line in lines), "the log lost ann's move (her own: you)")
            check(lines[12][4 + 6 * 4] == "B", f"no marble on m7 after n3-m7: {lines[12]!r}")
            for cols, rows in [(100, 30), (200, 60), (60, 20)]:
                t.resize(cols, rows)
                check(t.size() == (cols, rows), f"tmux did not resize to {cols}x{rows}")
                t.wait_for(prompt_ready(rows), f"the screen redrawn at {cols}x{rows}")
                lines = check_layout(t, f"6 players at {cols}x{rows}")
                screen = "\n".join(lines)
                if cols >= 100:
                    check("[easy bot]" in screen, f"{cols}x{rows}: the wide status does not say the bots' level")
                    check("you played n3-m7" in screen, f"{cols}x{rows}: the log is trimmed though rows are free")
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
            # The key's hint goes with it (it stayed in the log, saying Enter would go back).
            t.wait_for(lambda s: prompt_ready(24)(s) and "every hole's name" not in s,
                       "the board back after the key, and the key's hint gone from the log")


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
                tb.wait_text("vote for what: /vote new, cancel, leader or takeback")
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
    nothing at all. A close while the player is in another room shows that room instead, the
    close said first: play ended then too, and a family in three rooms was back at the shell."""
    with Cluster("term-bye") as c:
        ann = c.add("ann")
        for room in ("bye", "bye2"):
            out = ann.cli("host", room, "--bots", "1", "--bot-level", "easy")
            check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "close", 80, 24, ann.runtime_dir, "-r", "bye") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            out = ann.cli("close", "-r", "bye", "-f")
            check(out.returncode == 0, f"close: {out.stderr}")
            screen = t.wait_for(lambda s: "room bye2, where you are too" in s and prompt_ready(24)(s),
                                "bye2 shown once bye closed")
            check("closed" in screen and "halma-exited" not in screen and "room bye2, game" in screen,
                  f"the close of bye and bye2 in its place:\n{screen}")
            # Closed too, with no other room left: play ends, its last words above the shell's line.
            out = ann.cli("close", "-r", "bye2", "-f")
            check(out.returncode == 0, f"close: {out.stderr}")
            screen = t.wait_text("halma-exited-0")
            lines = [line for line in screen.split("\n") if line.strip()]
            check(len(lines) >= 2 and "closed" in lines[-2] and "bye2" in lines[-2],
                  f"the close is not said above the shell's next line:\n{screen}")
        for room in ("bye3", "bye4"):
            out = ann.cli("host", room, "--bots", "1", "--bot-level", "easy")
            check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "leave", 80, 24, ann.runtime_dir, "-r", "bye3") as t:
            t.wait_for(prompt_ready(24), "ann's board")
            t.type_line("/leave")
            t.wait_text("/leave again to confirm")  # mid-game (leaving_a_game_in_progress_is_asked_first)
            t.type_line("/leave")
            screen = t.wait_text("halma-exited-0")
            lines = [line for line in screen.split("\n") if line.strip()]
            # The leave, then the room ann is still in and how to go there: a leave typed here
            # ends play (it is the player's own choice to stop), whatever other rooms there are.
            check(len(lines) >= 3 and lines[-3] == "left room bye3"
                  and lines[-2] == "you are still in room bye4: halma play -r bye4",
                  f"/leave did not say so:\n{screen}")


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


def a_room_of_fast_computers_can_be_watched_and_left():
    """Two easy computers play as fast as they can (no bot pace), a game after another: halma play
    watching them keeps up, never draws a board it cannot read, and /quit ends it at once. It
    played every move out hop by hop, fell minutes behind, read no key (Ctrl-C neither), and
    played a new game's moves on the old game's board ("unreadable position")."""
    with Cluster("term-fast") as c:
        pi = c.add("pi")
        out = pi.cli("host", "fast", "--spectate", "--bots", "2", "--bot-level", "easy", "--next-game-ms", "300")
        check(out.returncode == 0, f"host: {out.stderr}")
        with Terminal(c.tmp, "pi", 80, 24, pi.runtime_dir, "-r", "fast") as t:
            t.wait_text("room fast")
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline:  # bounded: six seconds of watching
                screen = t.screen()
                check("unreadable" not in screen, f"a board that could not be read:\n{screen}")
                time.sleep(0.3)
            games = pi.api().view("fast").game_number
            check(games >= 2, f"the computers played {games} game(s) in six seconds: not fast enough to test")
            t.wait_for(lambda s: f"room fast, game {games}" in s or f"room fast, game {games + 1}" in s,
                       f"the screen to keep up with game {games}", timeout=5)
            started = time.monotonic()
            t.type_line("/quit")
            t.wait_text("halma-exited-0", timeout=10)
            print(f"watched {games} games of fast computers; /quit took {time.monotonic() - started:.1f} s")


def a_gone_players_hold_counts_down():
    """bob's daemon dies mid-game in ann's room (seats held 30 s): ann's screen says his seat is
    held and for how long, counting down, until he is back. It said "gone, held" with no time,
    and the family waited on it not knowing for how long."""
    with Cluster("term-hold") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "duo").returncode == 0, "host refused")
        check(bob.cli("join", f"{ann.address}/duo").returncode == 0, "join refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(prompt_ready(24), "ann's board")
            bob.kill(signal.SIGKILL)
            # At 80 columns the seat says "gone", the line under the seats when a computer comes.
            held = lambda s: re.search(r"a computer plays for bob in (\d+) s", panel_text(s))
            first = int(held(t.wait_for(held, "bob's seat held, with its time")).group(1))
            check(20 <= first <= 30, f"held {first} s of a 30 s hold")
            later = t.wait_for(lambda s: held(s) and int(held(s).group(1)) <= first - 2, "the hold to count down",
                               timeout=10)
            check_layout(t, "a gone player's hold counting down")
            bob.start()
            t.wait_for(lambda s: not held(s) and "gone" not in panel_text(s), "bob back, no hold shown", timeout=15)
            t.resize(120, 40)  # a wide panel has the time beside the seat too
            bob.kill(signal.SIGKILL)
            t.wait_for(lambda s: re.search(r"bob gone, held (\d+) s", s), "the time beside bob's seat at 120 columns")
            print(f"bob's hold counted down from {first} s on ann's screen ({held(later).group(1)} s later)")


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
                t.wait_text(f"you played {mine}")
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


run({f.__name__: f for f in [the_quick_start_ends_cleanly, a_gone_players_hold_counts_down, a_room_of_fast_computers_can_be_watched_and_left, six_players_fit, two_players_type_and_finish,
                             the_last_words_stay_on_the_screen, a_gone_player_gets_a_stand_in,
                             play_and_watch_survive_a_daemon_restart]})
