"""What `halma play` says and asks, in a real terminal (tmux) against real halmad processes on
127.0.0.1: no turn offered while the room is out of reach, open votes, the house rules, the
question before leaving a game, the chat on reopening, and answers to what is not a move. Run
one with: terminal_words_tests.py NAME (ctest does)."""
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
            check(f"you played {move}" not in screen, f"a move played while bob's halmad was down:\n{screen}")
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
            t.wait_text(f"you played {move}")
            wait_until(lambda: len(bob.api().view().moves) == 2, 10, "bob's daemon to see ann's move")


def a_halmad_that_does_not_come_back_is_said_not_running():
    """ann plays an easy computer in her own room at 80x24; her halmad is killed and nothing
    starts it again (no systemd). First the screen says it is restarting, as systemd brings it
    back within seconds; past that (10 s) it says halmad is not running and how to start it, as
    `halma` does with no halmad, and a move typed says so too. It said "halmad is restarting"
    for good. Started again by hand, halmad brings the room back on the screen by itself."""
    with Cluster("term-gone") as c:
        ann = c.add("ann")
        check(ann.cli("host", "solo", "--bots", "1", "--bot-level", "easy").returncode == 0, "host refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir) as t:
            t.wait_for(lambda s: prompt_ready(24)(s) and last_line(s).startswith("your move>"), "ann's turn")
            move = greedy_move(ann.api().view())
            ann.kill(signal.SIGKILL)
            killed = time.monotonic()
            t.wait_text("● halmad gone")
            t.wait_for(lambda s: "halmad is restarting: you can move once the room is back" in panel_text(s),
                       "halmad said to be restarting at first")
            screen = t.wait_for(lambda s: "● halmad not running" in s, "halmad said not to be running", timeout=30)
            waited = time.monotonic() - killed
            check(waited >= 9, f"not running said {waited:.1f} s after the kill: a restart takes longer")
            check_layout(t, "ann's screen with her halmad not running")
            words = " ".join(line.strip() for line in screen.split("\n"))
            check("halmad is not running (below): you can move once the room is back" in panel_text(screen),
                  f"not said beside the board that halmad is not running:\n{screen}")
            check("no halmad is running here" in words and "start one with `halmad &`" in words,
                  f"not said that halmad is not running and how to start it:\n{screen}")
            t.type_line(move)
            t.wait_for(lambda s: "! not sent: no halmad is running here" in s, "the move refused, saying why")
            ann.start()
            screen = t.wait_for(lambda s: "● connected" in s and last_line(s).startswith("your move>"),
                                "ann's turn once her halmad runs again")
            check("not running" not in panel_text(screen), f"still said not to be running:\n{screen}")
            t.type_line(move)
            t.wait_text(f"you played {move}")


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

            def shows(text, what, gone=None):
                # Waited for whole: a screen read mid-redraw shows the new header over the old
                # panel's last lines, so a line that goes (`gone`) is waited out, not checked once.
                screen = t.wait_for(lambda s: text in panel_text(s) and not (gone and gone in panel_text(s)),
                                    what)
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
            shows("in the lead: hidden until the game ends", "the leader hidden once all agree, its vote gone",
                  gone="vote to hide")
            # A new game.
            vote(bob, "new")
            shows("* vote for a new game: voted bob; not yet you, cat; to agree: /vote new",
                  "bob's new-game vote on ann's screen")
            vote(cat, "new")
            shows("* vote for a new game: voted bob, cat; not yet you; to agree: /vote new", "cat's vote too")
            t.type_line("/vote new")
            shows("room den, game 2", "game 2, the carried vote gone", gone="vote for a new game")
            # To cancel, once cat is gone (her halmad killed: her seat is held).
            cat.kill(signal.SIGKILL)
            # Said with when a computer takes her turns (the hold's time is known here).
            t.wait_for(lambda s: re.search(r"a computer plays for cat in \d+ s; /vote cancel ends the game",
                                           panel_text(s)), "cat gone, and when a computer plays for her")
            vote(bob, "cancel")
            shows("* vote to cancel the game: voted bob; not yet you; to agree: /vote cancel",
                  "bob's cancel vote on ann's screen")
            t.resize(120, 30)
            shows("* vote to cancel the game: voted bob; not yet you; to agree: /vote cancel", "the vote at 120x30")
            t.type_line("/vote cancel")
            shows("game cancelled", "the game cancelled, its vote gone", gone="vote to cancel")


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
    log, and still after /quit and opening it again, with the last move made meanwhile. The log
    was empty, the conversation gone from the screen (the web page shows it on reload), and a
    move made while play was closed went unsaid."""
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
                if opening == "first":
                    check("last move" not in screen, f"a last move before any:\n{screen}")
                else:  # the moves made while play was closed: the last of them is said
                    check(f"last move: bob played {bobs}" in screen, f"bob's {bobs} not said:\n{screen}")
                t.type_line("/quit")
                t.wait_text("halma-exited-0")
            if opening == "first":
                for d in (ann, bob):
                    move = greedy_move(d.api().view("den"))
                    check(not d.api().move(move, "den").HasField("error"), f"{d.name}'s move refused")
                    bobs = move
                wait_until(lambda: len(ann.api().view("den").moves) == 2, 10, "both moves at ann's daemon")


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


def coming_back_says_what_the_computer_played():
    """ann hosts a room with a 2-second turn limit against a computer and walks off: the computer
    moves for her. When she opens halma play again, the panel says she is away and which moves
    the computer made for her (she was not there to see them). From the stop-32 list of what was
    left: a returning player was told only that she was away."""
    with Cluster("term-away") as c:
        ann = c.add("ann")
        out = ann.cli("host", "porch", "--turn-limit-s", "2", "--bots", "1", "--bot-level", "easy")
        check(out.returncode == 0, f"host: {out.stderr}")
        wait_until(lambda: ann.api().view("porch").moves_made_for_you_count >= 1, 20,
                   "the computer to move for ann")
        with Terminal(c.tmp, "ann", 100, 30, ann.runtime_dir, "-r", "porch") as t:
            screen = t.wait_for(lambda s: prompt_ready(30)(s) and "the computer played" in panel_text(s),
                                "the panel to say what the computer played for ann")
            said = panel_text(screen)
            check("you are away: your time ran out; make a move to come back" in said, f"not said away:\n{screen}")
            view = ann.api().view("porch")
            named = said.split("the computer played ", 1)[1]
            check(any(m in named for m in view.moves_made_for_you),
                  f"the panel named none of {list(view.moves_made_for_you)}:\n{screen}")
            check(all(len(line) <= 100 for line in t.lines()), "a line wider than the terminal")


run({f.__name__: f for f in [no_turn_is_offered_while_the_room_is_out_of_reach, coming_back_says_what_the_computer_played,
                             a_halmad_that_does_not_come_back_is_said_not_running,
                             open_votes_are_shown_with_who_voted_and_how, the_house_rules_are_beside_the_board,
                             leaving_a_game_in_progress_is_asked_first, reopening_play_shows_the_recent_chat,
                             a_hole_or_words_typed_get_a_useful_answer]})
