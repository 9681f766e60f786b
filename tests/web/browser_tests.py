"""Issue 13 in a real browser: headless Chromium (Selenium) on `halma web`, with real halmad
processes on 127.0.0.1. Run as `browser_tests.py NAME`; exits 77 (skipped) without Chromium."""
import os
import urllib.error
import urllib.request

from halmatest import Cluster, Failure, LOOPBACK, check, run
from halma.v1 import api_pb2
import png
from webtest import DESKTOP, PHONE, Page, Web, cells_of, need_browser, wait_in_step

SHOTS = os.environ.get("HALMA_WEB_SCREENSHOTS", "screenshots")


def holes_of(move):
    """The first and last holes (0..120) of a move such as "o1-m7"."""
    rows = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    def index(name):
        row = ord(name[0]) - ord("a")
        return sum(rows[:row]) + int(name[1:]) - 1
    a, b = move.split("-")[0], move.split("-")[-1]
    return index(a), index(b)


def click_move(page, move):
    """Plays `move` ("from-to") by clicking its marble, checking the target lights up, then it."""
    a, b = holes_of(move)
    page.click_hole(a)
    page.wait(lambda: "target" in page.el(f'[data-hole="{b}"]').get_attribute("class"),
              f"{move}'s target to be highlighted")
    page.click_hole(b)


def check_board(page, view):
    """The board drawn equals the daemon's position, once the page has played out its animation."""
    want = cells_of(view.position)
    try:
        page.wait(lambda: page.board_cells() == want, "the page to finish drawing the move")
    except Failure:
        drawn = page.board_cells()
        diff = [(i, d, w) for i, (d, w) in enumerate(zip(drawn, want)) if d != w][:8]
        raise Failure(f"the board drawn differs from the daemon's position (hole, drawn, daemon): {diff}")


def screenshot(page, name, size):
    page.resize(size)
    page.wait(lambda: page.el("#board").size["width"] > 0, "the board to be laid out")
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
    for colour, name_ in (((0xf4, 0xea, 0xd2), "board"), ((0xd8, 0xc9, 0xa8), "hole"),
                          ((0x1b, 0x1b, 0x1b), "black marble"), ((0xd7, 0x26, 0x1e), "red marble")):
        check(colour in seen, f"{path}: no {name_} colour in the board's box: the board is not drawn")
    return path


def play_a_bot_by_clicking():
    """A player hosts a room with an easy bot from the page and plays by clicking."""
    need_browser()
    with Cluster("web-bot") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            page.el("#host-name").send_keys("sunday")
            page.el("#host-level").send_keys("easy")
            page.el("#host-form button[type=submit]").click()
            api = ann.api()
            page.wait(lambda: api.view("sunday").game_number == 1, "the game with the bot to start")
            room = api.view("sunday").summary.room_id
            for turn in range(3):
                page.wait(lambda: api.view(room).your_turn, "ann's turn")
                view = wait_in_step(page, api, room, "the page to draw ann's turn")
                check(page.el("#light-turn").get_attribute("data-on") == "yes", "the your-turn light is off")
                check_board(page, view)
                if turn == 1:
                    # A move the daemon refuses: the page shows the daemon's own reason.
                    a = holes_of(view.legal_moves[0])[0]
                    targets = {holes_of(m)[1] for m in view.legal_moves if holes_of(m)[0] == a}
                    empty = next(i for i, c in enumerate(cells_of(view.position)) if c == "" and i not in targets)
                    page.click_hole(a)
                    page.click_hole(empty)
                    names = page.js("return Array.from(document.querySelectorAll('#board [data-hole]'), g => g.dataset.name)")
                    reason = api.move(f"{names[a]}-{names[empty]}", room).error.message
                    check(reason, "the daemon took an illegal move")
                    page.wait(lambda: page.text("#message") == reason, f"the daemon's reason {reason!r} on the page")
                moves_before = len(view.moves)
                click_move(page, view.legal_moves[0])
                page.wait(lambda: len(api.view(room).moves) > moves_before, "ann's clicked move to be played")
                check(api.view(room).moves[moves_before].startswith(view.legal_moves[0].split("-")[0]),
                      "the daemon played another marble than the one clicked")
            view = wait_in_step(page, api, room, "the page to catch up")
            check_board(page, view)
            check(page.el('[data-hole].last-to') is not None, "the last move is not marked")
            for size in (PHONE, DESKTOP):
                print("screenshot", screenshot(page, "bot-game", size))
        finally:
            page.close()
            web.stop()


def two_browsers_play():
    """Two players on two daemons, each in a browser: host, join, moves both ways, chat."""
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
            page_b.el("#join-what").send_keys(f"{ann.address}/duel")
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
            screenshot(page_b, "two-players", PHONE)
        finally:
            page_a.close()
            page_b.close()
            web_a.stop()
            web_b.stop()


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


run({f.__name__: f for f in (play_a_bot_by_clicking, two_browsers_play, strangers_are_refused)})
