"""Issue 13 in a real browser: headless Chromium (Selenium) on `halma web`, with real halmad
processes on 127.0.0.1. Run as `browser_tests.py NAME`; exits 77 (skipped) without Chromium."""
import os
import subprocess
import urllib.error
import urllib.request

from halmatest import HALMA, Cluster, Failure, check, free_port, greedy_move, run, wait_until
from halma.v1 import api_pb2, common_pb2
import png
from webtest import DESKTOP, PHONE, Page, Web, cells_of, click_move, game_of_two, holes_of, need_browser, wait_in_step

SHOTS = os.environ.get("HALMA_WEB_SCREENSHOTS", "screenshots")


def check_board(page, view):
    """The board drawn equals the daemon's position, once the page has played out its animation."""
    want = cells_of(view.position)
    try:
        page.wait(lambda: page.board_cells() == want, "the page to finish drawing the move")
    except Failure:
        drawn = page.board_cells()
        diff = [(i, d, w) for i, (d, w) in enumerate(zip(drawn, want)) if d != w][:8]
        raise Failure(f"the board drawn differs from the daemon's position (hole, drawn, daemon): {diff}")


def screenshot(page, name, size, marbles=True):
    """Shoots the page at `size` and checks the picture: not empty, the board drawn in its box
    (its colour, the holes', and with `marbles` a black and a red marble)."""
    page.resize(size)
    page.wait(lambda: page.el("#board").size["width"] > 0, "the board to be laid out")
    page.wait(lambda: page.attr("#skip", "hidden") is not None, "the animation to end")
    page.js("document.activeElement.blur()")  # a shot of the page, not of the keyboard's ring
    # Typing in the chat scrolls the page; the shot (and the box checked in it) is of the top.
    page.js("window.scrollTo(0, 0)")
    page.wait(lambda: page.js("return window.scrollY") == 0, "the page to scroll to the top")
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f"{name}-{size[0]}x{size[1]}.png")
    check(page.driver.save_screenshot(path), f"no screenshot {path}")
    width, height, rows = png.pixels(path)
    check(width > 0 and height > 0, f"{path} is empty")
    # The board: its box holds the board's colour, the holes' and at least two sets' (B and R).
    box = page.el("#board").rect
    scale = width / page.js("return window.innerWidth")
    x0, y0 = int(box["x"] * scale), int(box["y"] * scale)
    x1, y1 = min(width, int((box["x"] + box["width"]) * scale)), min(height, int((box["y"] + box["height"]) * scale))
    check(x1 - x0 > 100 and y1 - y0 > 100, f"{path}: the board is {x1 - x0}x{y1 - y0} pixels")
    seen = {px for row in rows[y0:y1:3] for px in row[x0:x1:3]}
    colours = [((0xf4, 0xea, 0xd2), "board"), ((0xd8, 0xc9, 0xa8), "hole")]
    if marbles:
        colours += [((0x1b, 0x1b, 0x1b), "black marble"), ((0xd7, 0x26, 0x1e), "red marble")]
    for colour, name_ in colours:
        check(colour in seen, f"{path}: no {name_} colour in the board's box: the board is not drawn")
    return path


def hole_at(page, index):
    """Where hole `index` is drawn on the screen: its centre (x, y) in CSS pixels."""
    return page.centre(f'[data-hole="{index}"] circle.spot')


def cursor_hole(page):
    return page.js("const r = document.querySelector('#board .cursor-ring'); "
                   "return r ? Number(r.parentNode.dataset.hole) : null")


def key_to(page, index):
    """Moves the keyboard's ring to hole `index` with the arrow keys, as the board lies on screen."""
    from selenium.webdriver.common.keys import Keys
    board = page.el("#board")
    if cursor_hole(page) is None:
        board.send_keys(Keys.ARROW_UP)
    for _ in range(60):
        at = cursor_hole(page)
        if at == index:
            return
        (x0, y0), (x1, y1) = hole_at(page, at), hole_at(page, index)
        row = page.js("return document.querySelector('[data-hole=\"60\"] circle.spot').getBoundingClientRect().height")
        if abs(y1 - y0) > row:
            key = Keys.ARROW_DOWN if y1 > y0 else Keys.ARROW_UP
        else:
            key = Keys.ARROW_RIGHT if x1 > x0 else Keys.ARROW_LEFT
        page.el("#board").send_keys(key)
        page.wait(lambda: cursor_hole(page) != at, "the ring to move")
    raise Failure(f"the arrow keys did not bring the ring to hole {index}")


def keyboard_move(page, move):
    """Plays `move` with the keyboard only: arrows to the marble, Enter, arrows to the target, Enter."""
    from selenium.webdriver.common.keys import Keys
    a, b = holes_of(move)
    key_to(page, a)
    page.el("#board").send_keys(Keys.ENTER)
    page.wait(lambda: "target" in page.attr(f'[data-hole="{b}"]', "class"),
              f"{move}'s target to be highlighted after Enter")
    page.el("#board").send_keys(Keys.ESCAPE)  # puts the marble down again
    page.wait(lambda: page.js("return document.querySelectorAll('#board .hole.target').length") == 0,
              "Escape to put the marble down")
    page.el("#board").send_keys(Keys.ENTER)
    page.wait(lambda: "target" in page.attr(f'[data-hole="{b}"]', "class"),
              f"{move}'s target to be highlighted after Enter again")
    key_to(page, b)
    page.el("#board").send_keys(Keys.ENTER)


def viewer_choices(page, view):
    """What each viewer picks alone: turning the board by a colour, the triangles' colours, the palette."""
    ann_set = view.seats[view.your_seat].sets[0]
    other = next(s.sets[0] for s in view.seats if s.seat != view.your_seat)
    bottom, top = 120, 0  # q1 and a1, the tips of triangles 1 and 4
    check(hole_at(page, bottom)[1] > hole_at(page, top)[1], "ann's triangle is not at the bottom")
    page.click(f'#seats button.chip[data-set="{other}"]')
    page.wait(lambda: hole_at(page, top)[1] > hole_at(page, bottom)[1], "the board to turn to the clicked colour")
    page.click(f'#seats button.chip[data-set="{ann_set}"]')
    page.wait(lambda: hole_at(page, bottom)[1] > hole_at(page, top)[1], "the board to turn back to ann's side")
    tint = lambda: page.attr(f'[data-hole="{bottom}"] circle.spot', "class")
    check(f"set{ann_set}" in tint(), f"ann's start triangle is not in her colour: {tint()}")
    page.click("#view-options summary")
    page.click("#swap-colours")
    page.wait(lambda: f"set{other}" in tint(), "the start triangle to take the colour of the set heading there")
    page.click("#swap-colours")
    page.wait(lambda: f"set{ann_set}" in tint(), "the start colours back")
    fill = lambda: page.js("return getComputedStyle(document.querySelector('#board .marble.set3')).fill")
    standard = fill()
    from selenium.webdriver.support.ui import Select
    Select(page.el("#palette")).select_by_value("safe")
    page.wait(lambda: fill() != standard, "the colour-blind-safe palette to change the red marbles")
    check(page.js("return document.querySelector('#board .marble.set3').parentNode.textContent") == "R",
          "a red marble lost its letter, the cue besides colour")
    Select(page.el("#palette")).select_by_value("standard")
    page.wait(lambda: fill() == standard, "the standard palette back")
    page.click("#turn-alert")  # a sound on one's turn, from now on
    page.click("#view-options summary")


def whole_game_against_a_bot():
    """The issue's "done when": a newcomer hosts a room with an easy computer from the page and
    plays a whole game by clicking, to its natural end (first place decided), and sees the winner."""
    play_against_a_bot(limit=0, shots="bot-game")


def short_game_against_a_bot():
    """The same with "moves each" set in the host form (the room's move limit): a short game that
    ends on the limit, the rest placed by distance. "hide the leader" is ticked too: the page shows
    nobody in the lead and no ranking until the end, and the winner at the end."""
    play_against_a_bot(limit=6, shots="short-game")


def play_against_a_bot(limit, shots):
    """Hosts a room with an easy computer from the page and plays it to its end by clicking (one
    move by keyboard), greedy moves chosen among the daemon's legal moves; checks each of ann's
    turns on the page (light, board), the viewer's own choices, a refused move, and the winner."""
    need_browser()
    with Cluster("web-bot") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            if shots == "bot-game":  # the first screen: no room yet, the rooms and the host form
                for size in (PHONE, DESKTOP):
                    print("screenshot", screenshot(page, "lobby", size, marbles=False))
            page.el("#host-name").send_keys("sunday")
            page.el("#host-level").send_keys("easy")
            if limit:
                page.el("#host-limit").send_keys(str(limit))
                page.el("#host-hide-leader").click()
            page.el("#host-form button[type=submit]").click()
            api = ann.api()
            # The room exists once the page shows it (halmad answered its host request).
            page.wait(lambda: "sunday" in page.text("#room-title"), "the page to show the room it hosted")
            page.wait(lambda: api.view("sunday").game_number == 1, "the game with the bot to start")
            room = api.view("sunday").summary.room_id
            check(api.view(room).summary.mode.move_limit in (limit, 1000 if not limit else limit),
                  "the page did not pass the move limit")
            check(api.view(room).summary.mode.hide_leader == bool(limit), "the page did not pass hide the leader")
            seen = set()
            turns = 0
            for turn in range(limit + 1 if limit else 400):
                # Once ann is home the computer plays on alone for second place: that takes longer.
                page.wait(lambda: api.view(room).your_turn or api.view(room).summary.phase == common_pb2.PHASE_OVER,
                          "ann's turn or the end", timeout=20 if limit else 300)
                view = wait_in_step(page, api, room, "the page to draw ann's turn")
                if view.summary.phase == common_pb2.PHASE_OVER:
                    break
                turns += 1
                check(page.attr("#light-turn", "data-on") == "yes", "the your-turn light is off")
                check_board(page, view)
                if limit:  # the leader is hidden: the page says so and ranks nobody
                    check(page.text("#leader") == "In the lead: hidden until the game ends",
                          f"the page tells who leads: {page.text('#leader')!r}")
                    check(view.leader_seat == -1 and not view.standings, "the daemon's view tells who leads")
                    check(not page.js("return document.querySelectorAll('#standings tbody tr').length"),
                          "the page shows standings while the leader is hidden")
                if turn == 0:
                    viewer_choices(page, view)
                if turn == 1:
                    # A move the daemon refuses: the page shows the daemon's own reason, as an error.
                    a = holes_of(view.legal_moves[0])[0]
                    targets = {holes_of(m)[1] for m in view.legal_moves if holes_of(m)[0] == a}
                    empty = next(i for i, c in enumerate(cells_of(view.position)) if c == "" and i not in targets)
                    page.click_hole(a)
                    page.click_hole(empty)
                    names = page.js("return Array.from(document.querySelectorAll('#board [data-hole]'), g => g.dataset.name)")
                    reason = api.move(f"{names[a]}-{names[empty]}", room).error.message
                    check(reason, "the daemon took an illegal move")
                    page.wait(lambda: page.text("#message") == reason, f"the daemon's reason {reason!r} on the page")
                    check(page.attr("#message", "class") == "error", "a refusal is not shown as an error")
                    # The marble stays picked and its holes lit beside the reason, which names
                    # holes ("it can go to m5, m6") the board does not label; Escape puts it down.
                    picked = lambda: page.js(f"return !!document.querySelector('[data-hole=\"{a}\"] .selected')")
                    page.wait(picked, "the refused marble to stay picked")
                    check(page.js("return document.querySelectorAll('#board .hole.target').length") == len(targets),
                          "the refused marble's holes are not lit")
                    from selenium.webdriver.common.keys import Keys
                    page.el("#board").send_keys(Keys.ESCAPE)
                    page.wait(lambda: not picked(), "Escape to put the marble down")
                move = greedy_move(view, seen)
                moves_before = len(view.moves)
                if turn == 0:
                    # Every message the page shows, as it shows it: the computer's reply, a moment
                    # later, takes the 'done' back as old news, often before a poll could see it.
                    page.js("window.saidMessages = []; const m = document.getElementById('message');"
                            "new MutationObserver(() => window.saidMessages.push([m.textContent, m.className]))"
                            ".observe(m, {attributes: true, childList: true, characterData: true, subtree: true});")
                if turn == 2:
                    keyboard_move(page, move)
                elif turn == 4:
                    # The README's picture: a marble picked, where it can go lit up.
                    a, b = holes_of(move)
                    page.click_hole(a)
                    page.wait(lambda: "target" in page.attr(f'[data-hole="{b}"]', "class"), "the targets to light up")
                    print("screenshot", screenshot(page, f"{shots}-choosing", DESKTOP))
                    page.click_hole(b)
                else:
                    click_move(page, move)
                page.wait(lambda: len(api.view(room).moves) > moves_before, "ann's move to be played")
                check(api.view(room).moves[moves_before].startswith(move.split("-")[0]),
                      "the daemon played another marble than the one chosen")
                if turn == 0:
                    page.wait(lambda: any(text and tone == "info" for text, tone in page.js("return window.saidMessages")),
                              "the daemon's 'done' in the colour of news, not of errors")
                    said = page.js("return window.saidMessages")
                    check(not any(text and tone == "error" for text, tone in said), f"ann's move said as an error: {said}")
            view = wait_in_step(page, api, room, "the page to draw the end")
            check(view.summary.phase == common_pb2.PHASE_OVER, f"the game is not over after {turns} moves")
            ends = (api_pb2.GAME_END_MOVE_LIMIT,) if limit else (api_pb2.GAME_END_ALL_HOME, api_pb2.GAME_END_PLACES_DECIDED)
            check(view.game_end in ends, f"the game ended otherwise: {view.game_end}")
            print(f"the game ended after {turns} moves by ann: {api_pb2.GameEnd.Name(view.game_end)}")
            check_board(page, view)
            # Ann's own win or share of it is said to her as hers ("Winner: ann" before).
            firsts = [s for s in view.standings if s.place == 1]
            names = ["you"] * sum(s.seat == view.your_seat for s in firsts) + [s.name for s in firsts
                                                                            if s.seat != view.your_seat]
            want = ("You won!" if names == ["you"] else f"Winner: {names[0]}" if len(names) == 1
                    else "Draw for first place: " + " and ".join(names))
            page.wait(lambda: page.text("#result").startswith(want), f"the page to show {want!r}")
            check("undecided" not in page.attr("#result", "class"), "the decided winner is translucent")
            check(page.attr("#light-turn", "data-on") == "no", "the your-turn light is on after the end")
            # Enabled during ann's first turn: one alert for each of her later turns.
            alerts = int(page.js("return document.body.dataset.turnAlerts || 0"))
            check(alerts == turns - 1, f"{alerts} turn alerts (sound or notification) for {turns - 1} turns")
            check(page.js("return document.querySelector('[data-hole].last-to') !== null"), "the last move is not marked")
            for size in (PHONE, DESKTOP):
                print("screenshot", screenshot(page, shots, size))
        finally:
            page.close()
            web.stop()


def two_browsers_play():
    """Two players on two daemons, each in a browser: host, join (by the command a terminal shows,
    pasted whole), moves both ways, chat, a vote to hide the leader, a new-game vote."""
    need_browser()
    with Cluster("web-two") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        web_a, web_b = Web(ann), Web(bob)
        page_a, page_b = Page(web_a), Page(web_b, PHONE)
        try:
            page_a.el("#host-name").send_keys("duel")
            bots = page_a.el("#host-bots")
            bots.clear()
            bots.send_keys("0")
            page_a.el("#host-form button[type=submit]").click()
            page_a.wait(lambda: "duel" in page_a.text("#room-title"), "ann's page to show her room")
            # The command ann's terminal would show her, pasted whole: the page takes what it joins.
            page_b.el("#join-what").send_keys(f"halma join '{ann.address}/duel'")
            page_b.el("#join-form button[type=submit]").click()
            apis = {"ann": (ann.api(), page_a, page_b), "bob": (bob.api(), page_b, page_a)}
            room = ann.api().view("duel").summary.room_id
            page_a.wait(lambda: ann.api().view(room).game_number == 1, "the game to start")
            for _ in range(4):
                view_a = ann.api().view(room)
                mover = "ann" if view_a.your_turn else "bob"
                api, mine, theirs = apis[mover]
                view = wait_in_step(mine, api, room, f"{mover}'s page to show the turn")
                click_move(mine, view.legal_moves[0])
                page_a.wait(lambda: len(api.view(room).moves) > len(view.moves), f"{mover}'s move")
                other_api = apis["bob" if mover == "ann" else "ann"][0]
                # The other daemon may not have the move yet; its view before the move would match
                # the other page as it was, and the page would then be checked against a stale view.
                played = len(api.view(room).moves)
                theirs.wait(lambda: len(other_api.view(room).moves) >= played, f"{mover}'s move to reach the other daemon")
                after = wait_in_step(theirs, other_api, room, f"the other page to show {mover}'s move")
                check_board(theirs, after)
                path = " ".join(str(h) for h in after.last_path)
                theirs.wait(lambda: theirs.js("return document.body.dataset.animated") == path,
                            "the other page to animate the move along its path")
            # Chat both ways, shown as sent.
            for page, other, line in ((page_a, page_b, "hello bob"), (page_b, page_a, "hi ann")):
                page.el("#chat-input").send_keys(line)
                page.el("#chat-form button[type=submit]").click()
                other.wait(lambda: line in other.text("#chat-log"), f"{line!r} on the other page")
            # The leader vote: both pages' buttons hide who is in the lead for this game; the
            # first vote shows on the other page (it looked stuck: only the voter's button said it).
            for page in (page_a, page_b):
                page.wait(lambda: not page.js("return document.getElementById('vote-leader').hidden"),
                          "the leader vote button during the game")
                check("hidden" not in page.text("#leader"), "the leader is hidden before any vote")
                page.click("#vote-leader")
                if page is page_a:
                    page_b.wait(lambda: "ann (voted to hide the leader)" in page_b.text("#seats"),
                                "ann's leader vote on bob's page")
            for api, page in ((ann.api(), page_a), (bob.api(), page_b)):
                page.wait(lambda: api.view(room).leader_hidden, "the room to agree to hide the leader")
                page.wait(lambda: page.text("#leader") == "In the lead: hidden until the game ends",
                          "the page to hide the leader")
            # A new-game vote: ann's vote shows on bob's page; with bob's, game 2 starts with the
            # colours turned, and each page turns its board so its player's new triangle is at the bottom.
            page_a.click("#vote-new")
            page_b.wait(lambda: "ann (voted new game)" in page_b.text("#seats"), "ann's vote on bob's page")
            page_a.wait(lambda: page_a.js("return document.getElementById('vote-new').disabled"),
                        "ann's vote button to say she has voted")
            page_b.click("#vote-new")
            sets = {}
            for api, page, who in ((ann.api(), page_a, "ann"), (bob.api(), page_b, "bob")):
                page.wait(lambda: api.view(room).game_number == 2, "game 2 to start")
                view = wait_in_step(page, api, room, f"{who}'s page to show game 2")
                check_board(page, view)
                sets[who] = view.seats[view.your_seat].sets[0]
                bottom = page.js("const spots = Array.from(document.querySelectorAll('#board circle.spot')); "
                                 "const y = s => s.getBoundingClientRect().y; "
                                 "return spots.reduce((a, b) => y(b) > y(a) ? b : a).getAttribute('class')")
                check(f"set{sets[who]}" in bottom, f"{who}'s own triangle is not at the bottom of her page: {bottom}")
                check("voted" not in page.text("#seats"), "last game's votes still shown")
            check(sets["ann"] != 0, "game 2 did not turn the colours: ann is black again")
            screenshot(page_b, "two-players", PHONE)
        finally:
            page_a.close()
            page_b.close()
            web_a.stop()
            web_b.stop()


def daemon_restarts_under_the_page():
    """bob's halmad is killed and started again under his open page: the light goes red, then
    yellow while it catches up, then green; the page shows the move ann made meanwhile and bob
    plays on by clicking, without reloading. Then halma web itself stops: the page says so."""
    need_browser()
    with Cluster("web-restart") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        room = game_of_two(ann, bob, "restart")
        web = Web(bob)
        page = Page(web)
        try:
            wait_in_step(page, bob.api(), room, "bob's page to show the game")
            page.js("document.body.dataset.lights = ''")
            bob.kill()
            page.wait(lambda: page.js("return document.getElementById('light-connection').dataset.state") == "red",
                      "the light to go red with bob's halmad gone")
            # Nothing can be done meanwhile: said in words for a person, and no turn light on.
            check(page.text("#turn-text").strip() == "waiting for halmad to come back",
                  f"the turn display with halmad gone: {page.text('#turn-text')!r}")
            page.click("#vote-leader")
            said = page.wait(lambda: page.text("#message"), "what the click says")
            check("halmad is not running on this computer" in said and "--runtime-dir" not in said,
                  f"a click with halmad gone: {said!r}")
            # The host form says the same, not the CLI's "start one with `halmad &`".
            page.js("document.getElementById('message').textContent = ''")
            page.el("#host-name").send_keys("second")
            page.click("#host-form button[type=submit]")
            said = page.wait(lambda: page.text("#message"), "what hosting with halmad gone says")
            check("halmad is not running on this computer" in said and "halmad &" not in said,
                  f"the host form with halmad gone: {said!r}")
            page.el("#host-name").clear()
            view = ann.api().view(room)
            check(view.your_turn, "ann (seat 1, black) does not move first")
            moved = greedy_move(view)
            ann.api().ok(action=api_pb2.ActionRequest(room=room, move=moved))
            bob.start()
            page.wait(lambda: page.js("return document.getElementById('light-connection').dataset.state") == "green"
                      and bob.api().view(room).connection == api_pb2.CONNECTION_STATE_CONNECTED,
                      "the light to go green with bob's halmad back", timeout=40)
            # What was said while halmad was down is taken back: it stayed under the green light.
            page.wait(lambda: "not running" not in page.text("#message"),
                      "the page to take back 'halmad is not running' once it is back")
            lights = page.js("return document.body.dataset.lights").split()
            check(lights[:1] == ["red"] and "yellow" in lights and lights[-1] == "green"
                  and lights.index("yellow") < len(lights) - 1,
                  f"the light went {lights}, not red, yellow, then green")
            view = wait_in_step(page, bob.api(), room, "bob's page to catch up with ann's move")
            check(len(view.moves) == 1 and view.your_turn, f"bob's halmad did not get ann's move: {list(view.moves)}")
            check_board(page, view)
            click_move(page, greedy_move(view))
            page.wait(lambda: len(ann.api().view(room).moves) == 2, "bob's clicked move to reach ann's host")
            wait_in_step(page, bob.api(), room, "bob's page to show his own move")
            # halma web itself stopped: the page says that, not that halmad is gone.
            web.stop()
            page.wait(lambda: page.js("return document.getElementById('light-connection').dataset.state") == "red"
                      and "halma web" in page.text("#connection-text"), "the page to say halma web is gone")
            # A click says what to do: halmad is still running; halma web is to be started again.
            page.click_hole(next(i for i, c in enumerate(cells_of(bob.api().view(room).position)) if c))
            said = page.wait(lambda: page.text("#message"), "what a click says with halma web gone")
            check("halma web, the program that serves this page, has stopped" in said
                  and "picks up by itself" in said and "halmad is not running" not in said,
                  f"a click with halma web gone: {said!r}")
            # Started again, halma web serves the same address, and the page, never reloaded,
            # comes back by itself: the light goes green, the message is taken back, and ann's
            # next move is shown.
            web = Web(bob)
            check(web.url == page.opened_url, f"halma web came back at {web.url}, not {page.opened_url}")
            page.wait(lambda: page.js("return document.getElementById('light-connection').dataset.state") == "green",
                      "the page to come back by itself with halma web started again", timeout=40)
            page.wait(lambda: "has stopped" not in page.text("#message"),
                      "the page to take back 'halma web has stopped'")
            view = ann.api().view(room)
            if view.your_turn:
                ann.api().ok(action=api_pb2.ActionRequest(room=room, move=greedy_move(view)))
            view = wait_in_step(page, bob.api(), room, "the page to show the game as it stands after")
            check_board(page, view)
        finally:
            page.close()
            web.stop()


def the_address_is_kept_for_the_next_start():
    """halma web serves the address it served last (port and token), kept in halmad's directory
    readable by its user only; --new-token turns the old one away; a kept file that others could
    read or write is not trusted. No browser needed."""
    with Cluster("web-address") as cluster:
        ann = cluster.add("ann")
        kept = os.path.join(ann.runtime_dir, "web-address")
        web = Web(ann)
        first = (web.port, web.token)
        web.stop()
        mode = os.stat(kept).st_mode & 0o777
        check(mode == 0o600, f"{kept} has mode {oct(mode)}, not 0600")
        web = Web(ann)
        try:
            check((web.port, web.token) == first, f"the second start serves {web.url}, not port {first[0]} token {first[1]}")
            check(http(web, f"/?token={web.token}")[0] == 200, "the kept token is refused")
            # Started again while it runs: it says where the running one serves, and stops (a second
            # server at a new address said the pages of the first would need it).
            again = subprocess.run([HALMA, "--runtime-dir", ann.runtime_dir, "web", "--no-open"], capture_output=True,
                                   text=True, timeout=20)
            check(again.returncode == 0 and f"halma web: already running, at {web.url}" in again.stdout,
                  f"a second halma web: rc {again.returncode} {again.stdout!r} {again.stderr!r}")
            # With a new token or another port it is refused: it served beside the first, and the
            # first kept the token --new-token was to turn away.
            for extra in (["--new-token"], ["--port", str(free_port())]):
                other = subprocess.run([HALMA, "--runtime-dir", ann.runtime_dir, "web", "--no-open", *extra],
                                       capture_output=True, text=True, timeout=20)
                check(other.returncode == 1 and f"one is already running, at {web.url}; stop it first" in other.stderr,
                      f"halma web {' '.join(extra)} beside a running one: rc {other.returncode} {other.stderr!r}")
            check(http(web, f"/?token={web.token}")[0] == 200, "the running page stopped answering")
        finally:
            web.stop()
        web = Web(ann, ("--new-token",))
        try:
            check(web.token != first[1], "--new-token kept the old token")
            check(http(web, f"/?token={first[1]}")[0] == 403, "the old token is let in after --new-token")
            check(http(web, f"/?token={web.token}")[0] == 200, "the new token is refused")
        finally:
            web.stop()
        newest = web.token
        # Readable by others: somebody may have read it, or put it there. A fresh one is made.
        os.chmod(kept, 0o644)
        web = Web(ann)
        try:
            check(web.token != newest, "a token file others can read was trusted")
        finally:
            web.stop()
        with open(kept, "w") as f:
            f.write("garbage\n")
        os.chmod(kept, 0o600)
        web = Web(ann)
        web.stop()
        check(len(web.token) == 32, f"a garbage address file gave token {web.token!r}")


def http(web, path, headers=None, data=None):
    request = urllib.request.Request(f"{web.origin}{path}", data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def strangers_are_refused():
    """A wrong token, a foreign Host or Origin are refused; HTML in names and chat stays text."""
    need_browser()
    with Cluster("web-guard") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        try:
            cookie = {"Cookie": f"halma_token_{web.port}={web.token}"}
            post = {**cookie, "Origin": web.origin, "Content-Type": "application/json"}
            check(http(web, f"/?token={web.token}")[0] == 200, "the right token is refused")
            check(http(web, "/?token=" + "0" * 32)[0] == 403, "a wrong token is let in")
            check(http(web, "/")[0] == 403, "no token is let in")
            check(http(web, "/js/main.js")[0] == 403, "a script without the token is served")
            check(http(web, "/api/status", post, b"{}")[0] == 200, "the page's own request is refused")
            check(http(web, "/api/status", {**post, "Origin": "http://evil.example"}, b"{}")[0] == 403,
                  "a request from a foreign origin is let in")
            check(http(web, "/api/status", {**cookie, "Content-Type": "application/json"}, b"{}")[0] == 403,
                  "a POST without Origin is let in")
            check(http(web, f"/?token={web.token}", {"Host": f"evil.example:{web.port}"})[0] == 403,
                  "a DNS-rebinding Host is let in")
            check(http(web, "/api/status", {**post, "Sec-Fetch-Site": "cross-site"}, b"{}")[0] == 403,
                  "a cross-site fetch is let in")
            evil = '<img src=x onerror="window.pwned=1">'
            api = ann.api()
            api.ok(host=api_pb2.HostRequest(name=f"<b>room</b>{evil}"[:40], bots=1, bot_level="easy"))
            api.ok(action=api_pb2.ActionRequest(room="", chat=f"<i>hi</i>{evil}"))
            page = Page(web)
            try:
                page.wait(lambda: "<i>hi</i>" in page.text("#chat-log"), "the chat line as text")
                check(page.js("return document.querySelectorAll('#chat-log i, #chat-log img, #room-title b, img').length") == 0,
                      "HTML from a chat line or a room name became elements")
                check("<b>room</b>" in page.text("#room-title"), "the room's name is not shown as text")
                check(page.js("return window.pwned === undefined"), "text from the room ran as script")
            finally:
                page.close()
        finally:
            web.stop()


def a_taken_port_is_refused():
    """A second `halma web --port N` on a port the first listens on stops, naming the port, and
    the first page keeps answering with its own token (no browser needed)."""
    with Cluster("web-port") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        web = Web(ann)
        try:
            second = subprocess.run([HALMA, "--runtime-dir", bob.runtime_dir, "web", "--no-open", "--port",
                                     str(web.port)], capture_output=True, text=True, timeout=20)
            check(second.returncode != 0 and f"cannot listen on 127.0.0.1:{web.port}" in second.stderr,
                  f"a second halma web on port {web.port}: rc {second.returncode} {second.stdout!r} {second.stderr!r}")
            for _ in range(8):
                check(http(web, f"/?token={web.token}")[0] == 200, "the first page stopped answering its token")
        finally:
            web.stop()
        # Once the first is gone, the port is free again at once.
        again = Web.on_port(bob, web.port)
        again.stop()


def a_marble_that_cannot_move_says_why():
    """On her turn, a click on one of her marbles that cannot move, or on the computer's, says why
    (it did nothing, and the player was left to guess)."""
    need_browser()
    with Cluster("web-stuck") as cluster:
        ann = cluster.add("ann")
        api = ann.api()
        api.ok(host=api_pb2.HostRequest(name="stuck", mode=common_pb2.RoomMode(players=2), bots=1,
                                        bot_level="easy"))
        view = wait_until(lambda: (v := api.view("stuck")).your_turn and v, 10, "ann's turn")
        cells = cells_of(view.position)
        mine = {str(s) for s in view.seats[view.your_seat].sets}
        movable = {holes_of(m)[0] for m in view.legal_moves if m != "pass"}
        stuck = next(i for i, c in enumerate(cells) if c in mine and i not in movable)
        theirs = next(i for i, c in enumerate(cells) if c not in mine and c not in ("", "x"))
        web = Web(ann)
        page = Page(web)
        try:
            wait_in_step(page, api, view.summary.room_id, "the page to show ann's turn")
            page.click_hole(stuck)
            page.wait(lambda: page.text("#message").endswith("cannot move now."), "why her marble does not move")
            page.click_hole(theirs)
            page.wait(lambda: page.text("#message").endswith("is not yours to move."), "why theirs does not")
        finally:
            page.close()
            web.stop()


run({f.__name__: f for f in (whole_game_against_a_bot, short_game_against_a_bot, two_browsers_play, daemon_restarts_under_the_page,
                             strangers_are_refused, a_taken_port_is_refused,
                             a_marble_that_cannot_move_says_why, the_address_is_kept_for_the_next_start)})
