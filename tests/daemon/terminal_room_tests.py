"""`halma play` across rooms, in a real terminal (tmux) against real halmad processes on
127.0.0.1: your move in another room, the list of your rooms, the join command it shows, and a
room that ends under it (left from another shell, closed while halmad was down). Run one with:
terminal_room_tests.py NAME (ctest does)."""
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
            t.wait_for(lambda s: any(line.startswith(f"you played {frm}-") and line.rstrip().endswith(f"-{to}")
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
    says he left the room and shows the room he is still in (Office 5), or, in no other room,
    ends (exit 0, as /leave does), whether the room is joined at another daemon or hosted by his
    own. It said "dan left" and went on showing him seated, and
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
                if room == "Office 4":
                    # dan is in Office 5 too: it is shown, the leave said first (play ended).
                    screen = t.wait_for(lambda s: "you left room Office 4 (from another halma)" in s
                                        and "room Office 5, where you are too" in s, "Office 5 shown")
                    check("halma-exited" not in screen, f"play ended, dan in Office 5 still:\n{screen}")
                    continue
                screen = t.wait_text("halma-exited-0")
                lines = [line for line in screen.split("\n") if line.strip()]
                check(f"you left room {room} (from another halma)" in lines,
                      f"the leave from another halma is not said in {room}:\n{screen}")
                check("still in room" not in screen, f"a room dan left is said to be his:\n{screen}")
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


def a_room_left_elsewhere_goes_from_the_line():
    """ann hosts "Office 4" against a computer, where it is her move, and plays in bob's "lunch";
    the line under lunch's board says Office 4 waits for her. She leaves Office 4 from another
    shell (her room stays, a computer in her seat): the line goes. It kept sending her to a room
    she was no longer in, until a /switch. Then the same with Office 4 on the screen: play goes
    on to lunch, and the line does not name Office 4."""
    with Cluster("term-left-line") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(bob.cli("host", "lunch").returncode == 0, "host lunch refused")
        check(ann.cli("join", f"{bob.address}/lunch").returncode == 0, "join lunch refused")
        for room, shown in (("Office 4", "lunch"), ("Office 5", "Office 5")):
            check(ann.cli("host", room, "--bots", "1", "--bot-level", "easy").returncode == 0, f"host {room}")
            wait_until(lambda: ann.api().view(room).your_turn, 10, f"ann's move in {room}")
            with Terminal(c.tmp, f"ann-{shown}", 80, 24, ann.runtime_dir, "-r", shown) as t:
                t.wait_for(lambda s: prompt_ready(24)(s) and f"room {shown}" in s, f"ann's {shown} board")
                if shown == "lunch":
                    t.wait_text(f"your move in room '{room}' too: /switch {room}")
                check(ann.cli("leave", "-r", room).returncode == 0, f"ann's leave of {room} refused")
                if shown != "lunch":
                    t.wait_text("room lunch, where you are too")
                t.wait_for(lambda s: room not in s.split("\n")[-8:][0] and f"'{room}'" not in s,
                           f"the line about {room} to go", timeout=10)
        print("a room left from another shell went from the line, shown or not")


def chat_in_another_room_is_shown_with_the_way_there():
    """ann plays in "lunch" and sits in bob's "Office 4" too. bob's chat in Office 4 shows in
    ann's lunch log with the room's name and the way there; her own chat there (from another
    shell) does not, nor does anything else of Office 4's. It went unseen until she switched."""
    with Cluster("term-chat-elsewhere") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "lunch").returncode == 0, "host lunch refused")
        check(bob.cli("join", f"{ann.address}/lunch").returncode == 0, "join lunch refused")
        check(bob.cli("host", "Office 4").returncode == 0, "host Office 4 refused")
        check(ann.cli("join", f"{bob.address}/Office 4").returncode == 0, "join Office 4 refused")
        with Terminal(c.tmp, "ann", 80, 24, ann.runtime_dir, "-r", "lunch") as t:
            t.wait_for(prompt_ready(24), "ann's lunch board")
            check(ann.cli("chat", "-r", "Office 4", "psst").returncode == 0, "ann's chat in Office 4 refused")
            check(bob.cli("chat", "-r", "Office 4", "anyone for a game?").returncode == 0,
                  "bob's chat in Office 4 refused")
            screen = t.wait_text("in room Office 4, bob: anyone for a game? (/switch Office 4)")
            check("psst" not in screen, f"ann's own chat in Office 4 shown to her:\n{screen}")
            check(bob.cli("chat", "-r", "lunch", "and here").returncode == 0, "bob's chat in lunch refused")
            screen = t.wait_text("bob: and here")
            check("in room lunch" not in screen, f"lunch's own chat named as another room's:\n{screen}")
            t.type_line("/switch Office 4")
            screen = t.wait_for(lambda s: "room Office 4, game 1" in s and prompt_ready(24)(s), "Office 4 shown")
            check(bob.cli("chat", "-r", "Office 4", "welcome").returncode == 0, "bob's second chat refused")
            screen = t.wait_text("bob: welcome")
            check("in room Office 4, bob: welcome" not in screen, f"the room shown named as another:\n{screen}")
            print("bob's chat in Office 4 showed on ann's lunch screen with /switch Office 4")


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


def a_host_seated_nowhere_offers_its_rooms_to_watch():
    """A headless host's owner runs halma play on it: its two rooms of computers are listed to
    watch, and the one picked is shown (it stopped with "this daemon is in several rooms: say
    which with -r ROOM", exit 2)."""
    with Cluster("term-watch") as c:
        pi = c.add("pi")
        for name in ("lunch", "team"):
            check(pi.cli("host", name, "--spectate", "--bots", "2", "--bot-level", "easy").returncode == 0,
                  f"host {name}")
        with Terminal(c.tmp, "pi", 80, 24, pi.runtime_dir) as t:
            listed = t.wait_text("rooms, to watch:")
            check("lunch" in listed and "team" in listed and "Room to watch" in listed, f"the list:\n{listed}")
            number = next(line.split("]")[0].strip("[") for line in listed.split("\n") if "team" in line)
            t.type_line(number)
            screen = t.wait_for(lambda s: "room team" in s, "the team room's screen")
            check("halma-exited" not in screen, f"play ended:\n{screen}")
            print("halma play on a host seated nowhere listed its rooms to watch and showed the one picked")


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


def a_room_of_the_same_name_is_named_by_its_host():
    """bob plays in ann's "duel" and hosts a "duel" of his own, where he moves first: the line
    saying it is his move there names it by its host as well (HOST/NAME), and /switch takes that
    and goes there, saying the way back the same way; leaving says which duel he is still in so. It said "your move in
    room 'duel' too: /switch duel", which answered that several rooms are called duel."""
    with Cluster("term-samename") as c:
        ann, bob = c.add("ann"), c.add("bob")
        check(ann.cli("host", "duel").returncode == 0, "host duel refused")
        check(bob.cli("join", f"{ann.address}/duel").returncode == 0, "join duel refused")
        with Terminal(c.tmp, "bob", 100, 30, bob.runtime_dir, "-r", f"{ann.address}/duel") as t:
            t.wait_for(prompt_ready(30), "bob's board in ann's duel")
            check(bob.cli("host", "duel", "--bots", "1", "--bot-level", "easy").returncode == 0, "host duel refused")
            ours = f"{bob.address}/duel"
            t.wait_text(f"your move in room '{ours}' too: /switch {ours}")
            t.type_line(f"/switch {ours}")
            screen = t.wait_for(lambda s: "room duel, game 1" in s and last_line(s).startswith("your move>"),
                                "bob's own duel on the screen")
            check(f"(/switch {ann.address}/duel goes back)" in screen, f"the way back:\n{screen}")
            t.type_line("/leave")
            t.wait_text("/leave again to confirm")
            t.type_line("/leave")
            screen = t.wait_text("halma-exited-0", timeout=15)
            check(f"you are still in room {ann.address}/duel" in screen, f"the room bob is still in:\n{screen}")


def moves_made_while_away_are_named():
    """bob plays at ann's; his halmad is killed and stays away past the hold, so a computer keeps
    his seat and plays his turns while ann plays hers. When his halmad is back, his screen names
    each move made meanwhile: ann's by her name, his seat's as the computer keeping it. It said
    only "halmad is back: the room as it is now", and the board had changed without a word."""
    with Cluster("term-away") as c:
        ann = halmatest.host_holding_seats_for(c, "ann", 1000)
        bob = c.add("bob")
        check(ann.cli("host", "away").returncode == 0, "host refused")
        check(bob.cli("join", f"{ann.address}/away").returncode == 0, "join refused")
        with Terminal(c.tmp, "bob", 100, 40, bob.runtime_dir, "-r", "away") as t:
            t.wait_for(prompt_ready(40), "bob's board")
            bob.kill(signal.SIGKILL)
            t.wait_text("● halmad gone")
            api = ann.api()
            # Two moves of ann's, and the computer's replies for bob's seat.
            for _ in range(2):
                wait_until(lambda: api.view("away").your_turn, 20, "ann's turn")
                check(not api.move(greedy_move(api.view("away")), "away").HasField("error"), "ann's move refused")
            wait_until(lambda: len(api.view("away").moves) >= 4, 20, "the computer to play for bob")
            moves = list(api.view("away").moves)
            bob.start()
            screen = t.wait_text("halmad is back: the room as it is now", timeout=20)
            # ann moved first: moves 0 and 2 are hers, 1 and 3 the computer's for bob.
            screen = t.wait_text(f"played {moves[3]}")
            check(f"meanwhile ann played {moves[2]}" in screen,
                  f"ann's move while bob was away is not named:\n{screen}")
            check(f"meanwhile the computer keeping your seat played {moves[3]}" in screen,
                  f"the computer's move for bob is not named:\n{screen}")


run({f.__name__: f for f in [your_move_in_another_room_is_shown, a_room_closed_while_halmad_was_down_ends_play,
                             a_leave_from_another_halma_ends_play, another_rooms_events_stay_off_the_screen,
                             play_in_several_rooms_offers_them, a_shown_join_command_works_pasted,
                             a_friends_code_is_shown_whole,
                             the_room_list_says_which_games_are_over_or_waiting,
                             a_room_of_the_same_name_is_named_by_its_host, moves_made_while_away_are_named,
                             a_host_seated_nowhere_offers_its_rooms_to_watch,
                             chat_in_another_room_is_shown_with_the_way_there,
                             a_room_left_elsewhere_goes_from_the_line]})
