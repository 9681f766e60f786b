"""What a family hit on the page in their first evenings (a QA pass): the board of a room just
hosted was left off the screen, a reload mid-game opened another room, and clicks that did
nothing said nothing. Real daemons on 127.0.0.1, halma web in headless Chromium. Run one with:
family_browser_tests.py NAME."""
from halmatest import Cluster, check, run, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, need_browser, wait_in_step


def host_against_a_computer(api, name):
    room = api.ok(host=api_pb2.HostRequest(name=name, mode=common_pb2.RoomMode(players=2), bots=1,
                                           bot_level="easy")).view.summary.room_id
    wait_until(lambda: api.view(room).your_turn, 20, f"ann's turn in {name}")
    return room


def a_hosted_board_is_shown_and_a_reload_keeps_the_room():
    """ann plays in "first"; in a window of a laptop's height she hosts "second" (for people, no
    computer) from the form at the bottom of the page: the new board is scrolled into sight. A
    reload then opens "second" again, not "first", where it is her move (which a new page
    opens)."""
    need_browser()
    with Cluster("web-family") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web, (1280, 640))
        try:
            api = ann.api()
            first = host_against_a_computer(api, "first")
            wait_in_step(page, api, first, "the page to show first")
            page.js("document.getElementById('host-form').scrollIntoView({block: 'end'})")
            before = page.js("return document.getElementById('board').getBoundingClientRect().top")
            check(before < -50, f"the board's top is in sight with the form scrolled to: at {before}")
            page.el("#host-name").send_keys("second")
            page.js("document.getElementById('host-bots').value = '0'")
            page.click("#host-submit")
            second = wait_until(lambda: next((r.room_id for r in api.ok(list=api_pb2.ListRequest()).rooms.rooms
                                              if r.name == "second"), None), 10, "the room hosted from the page")
            page.wait(lambda: page.js("return document.body.dataset.room") == second, "the page to show second")
            wait_in_step(page, api, second, "the page to draw second")
            # The room's title and the board's top, below the sticky header (they were under it).
            top = page.js("return document.getElementById('room-title').getBoundingClientRect().top")
            header = page.js("return document.querySelector('header').getBoundingClientRect().bottom")
            height = page.js("return window.innerHeight")
            check(header <= top < height / 2, f"the new room's title is off the screen or under the header: "
                                              f"at {top} (header to {header}) of {height}")
            page.js("location.reload()")
            page.wait(lambda: page.js("return document.body.dataset.room") == second
                      and page.js("return document.getElementById('light-connection').dataset.state") == "green",
                      "the reloaded page to show second again")
            wait_in_step(page, api, second, "the reloaded page to draw second")
            check(page.js("return document.body.dataset.room") == second, "the reload went to another room")
        finally:
            page.close()
            web.stop()


def clicks_that_do_nothing_say_why():
    """An empty hole clicked with no marble picked says to pick a marble first; the Join box
    empty sends nothing; a room that is nowhere is answered with what to type in the box, not
    with a terminal's command."""
    need_browser()
    with Cluster("web-family-clicks") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            api = ann.api()
            room = host_against_a_computer(api, "clicks")
            view = wait_in_step(page, api, room, "the page to show ann's turn")
            empty = view.position.split(" ")[0].replace("/", "").index(".")  # the first empty hole
            page.click_hole(empty)
            said = page.wait(lambda: (t := page.text("#message")) and "is empty" in t and t,
                             "what a click on an empty hole says")
            check(said.endswith("is empty: pick one of your marbles first, then where it goes."), f"it says {said!r}")
            page.count_requests()
            page.click("#join-form button[type=submit]")
            check(page.js("return document.getElementById('join-what').validity.valueMissing"),
                  "the empty Join box is not refused by the page")
            check(not [r for r in page.requests_sent() if "join" in r[0] or "join" in r[1]],
                  f"an empty join was sent: {page.requests_sent()}")
            page.el("#join-what").send_keys("   ")  # spaces alone pass the browser's check
            page.click("#join-form button[type=submit]")
            page.wait(lambda: page.text("#message").startswith("Type a room's name or code"), "spaces refused")
            check(not [r for r in page.requests_sent() if "join" in r[0] or "join" in r[1]],
                  f"a join of spaces was sent: {page.requests_sent()}")
            page.el("#join-what").clear()
            page.el("#join-what").send_keys("nosuchroom")
            page.click("#join-form button[type=submit]")
            said = page.wait(lambda: (t := page.text("#message")) and "nosuchroom" in t and t,
                             "the refusal of a room that is nowhere")
            check("halma join" not in said and "type HOST[:PORT]/ROOM in this box" in said, f"it says {said!r}")
        finally:
            page.close()
            web.stop()


if __name__ == "__main__":
    run({f.__name__: f for f in (a_hosted_board_is_shown_and_a_reload_keeps_the_room, clicks_that_do_nothing_say_why)})
