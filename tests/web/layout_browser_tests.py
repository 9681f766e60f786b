"""The browser front end's page as a person sees it on a desktop and on a phone: what opens over
the page and what wraps inside it, in headless Chromium on real daemons (webtest.py). Run one
with: layout_browser_tests.py NAME."""
import os

from halmatest import Cluster, check, run
from halma.v1 import api_pb2, common_pb2
from webtest import PHONE, Page, Web, need_browser


def the_view_menu_and_the_forms_keep_the_page_in_place():
    """The View menu opens over the page (in the header's flow it pushed the board down by its
    height), and a form the browser itself refuses (the host form with no room name) takes the
    refusal of an earlier try off the page: it stayed, as if it were this one's."""
    need_browser()
    with Cluster("web-menu") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            board_top = lambda: page.js("return document.getElementById('board').getBoundingClientRect().top")
            before = board_top()
            page.click("#view-options summary")
            page.wait(lambda: page.js("return document.getElementById('view-options').open"), "the View menu to open")
            check(page.js("return document.getElementById('palette').getBoundingClientRect().height") > 0,
                  "the menu's colours choice is not shown")
            check(abs(board_top() - before) < 1, f"opening View moved the board from {before} to {board_top()}")
            page.click("#view-options summary")
            page.el("#join-what").send_keys("nosuchroom")
            page.click("#join-form button[type=submit]")
            page.wait(lambda: "nosuchroom" in page.text("#message"), "the refusal of a room that is nowhere")
            page.click("#host-form button[type=submit]")  # no name: the browser refuses it
            page.wait(lambda: page.text("#message") == "", "the old refusal to leave the page")
            check(not page.js("return document.getElementById('host-name').checkValidity()"),
                  "the host form was not the browser's to refuse")
        finally:
            page.close()
            web.stop()


def a_long_chat_line_keeps_the_page_on_a_phone():
    """A chat line of one long word (a pasted link, up to the 500 bytes the chat box takes) wraps:
    unbroken it made the page 4799 px wide on a 390 px phone, and the board an empty box."""
    need_browser()
    with Cluster("web-chat") as cluster:
        ann = cluster.add("ann")
        api = ann.api()
        api.ok(host=api_pb2.HostRequest(name="chatty", mode=common_pb2.RoomMode(players=2), bots=1))
        api.ok(action=api_pb2.ActionRequest(room="chatty", chat="https://example.org/" + "a" * 470 + "/end"))
        web = Web(ann)
        page = Page(web, PHONE)
        try:
            page.wait(lambda: "/end" in page.text("#chat-log"), "the long line in the chat")
            wide, screen = page.js("return [document.documentElement.scrollWidth, window.innerWidth]")
            check(wide <= screen, f"the page is {wide} px wide on a {screen} px screen")
            board = page.js("const r = document.querySelector('#board-pane').getBoundingClientRect();"
                            "return [r.left, r.right]")
            check(board[0] >= 0 and board[1] <= screen, f"the board runs off the screen: {board} of {screen} px")
            # The page's icon is its own (every load asked for /favicon.ico and logged a 404).
            missing = [m for m in page.console() if "404" in m]
            check(not missing, f"the page logged: {missing}")
        finally:
            page.close()
            web.stop()


def a_chat_line_off_the_screen_is_told():
    """On a phone the chat is below the board, off the screen: a line from another player comes
    with a button over the page that says it and scrolls to the chat (new lines went unseen)."""
    need_browser()
    with Cluster("web-chat-notice") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="talk", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="talk"))
        web = Web(ann)
        page = Page(web, PHONE)
        in_sight = lambda: page.js("const r = document.getElementById('chat-log').getBoundingClientRect();"
                                   "return r.top < window.innerHeight && r.bottom > 0")
        notice = lambda: page.js("return document.getElementById('new-chat').hidden") is False
        try:
            page.wait(lambda: "talk" in page.text("#room-title"), "ann's page to show the room")
            page.js("window.scrollTo(0, 0)")
            check(not in_sight(), "the chat is on the phone's screen: the check below proves nothing")
            room = ann.api().view("talk").summary.room_id
            bob.api().ok(action=api_pb2.ActionRequest(room=room, chat="your move, ann"))
            page.wait(notice, "the new-chat button over the page")
            check("bob: your move, ann" in page.text("#new-chat"), f"the button says {page.text('#new-chat')!r}")
            shots = os.environ.get("HALMA_WEB_SCREENSHOTS")
            if shots:
                os.makedirs(shots, exist_ok=True)
                page.driver.save_screenshot(os.path.join(shots, "new-chat-390x844.png"))
            page.click("#new-chat")
            page.wait(lambda: in_sight() and not notice(), "the click to bring the chat into sight")
        finally:
            page.close()
            web.stop()


def the_chat_follows_its_newest_line_when_the_window_turns():
    """A chat scrolled to its newest line at a desktop's width stays there when the window turns
    to a phone's, and the new-chat button shows the new line itself: the chat's box stayed
    mid-way, the new line below its edge. From a QA pass of the page."""
    need_browser()
    with Cluster("web-chat-turn") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="talk", mode=common_pb2.RoomMode(players=2)))
        bob.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="talk"))
        room = ann.api().view("talk").summary.room_id
        web = Web(ann)
        page = Page(web)
        newest_in_sight = lambda: page.js(
            "const log = document.getElementById('chat-log'); const last = log.lastElementChild;"
            "if (!last) return false; const a = last.getBoundingClientRect(), b = log.getBoundingClientRect();"
            "return a.bottom <= b.bottom + 2 && a.top >= b.top - 2")
        try:
            # Nine long lines (the room takes ten at once): more than the chat's box holds.
            for i in range(9):
                bob.api().ok(action=api_pb2.ActionRequest(
                    room=room, chat=f"line {i} of a long talk about what to cook for dinner, " * 3))
            page.wait(lambda: "line 8" in page.text("#chat-log"), "the chat on the page")
            check(page.js("const log = document.getElementById('chat-log');"
                          "return log.scrollHeight > log.clientHeight + 20"),
                  "the chat fits its box: the check below proves nothing")
            page.wait(newest_in_sight, "the chat to show its newest line")
            page.resize(PHONE)
            page.js("window.scrollTo(0, 0)")
            bob.api().ok(action=api_pb2.ActionRequest(room=room, chat="dinner is ready!"))
            page.wait(lambda: page.js("return document.getElementById('new-chat').hidden") is False,
                      "the new-chat button")
            page.click("#new-chat")
            page.wait(lambda: "dinner is ready!" in page.text("#chat-log li:last-child") and newest_in_sight(),
                      "the new line in sight in the chat")
        finally:
            page.close()
            web.stop()


run({f.__name__: f for f in (the_view_menu_and_the_forms_keep_the_page_in_place,
                             a_long_chat_line_keeps_the_page_on_a_phone, a_chat_line_off_the_screen_is_told,
                             the_chat_follows_its_newest_line_when_the_window_turns)})
