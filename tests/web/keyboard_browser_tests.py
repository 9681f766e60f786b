"""Playing on the page without a mouse: Tab reaches the board and its ring shows at once, on one
of the player's marbles that can move. It showed only at the first arrow, in the centre. Real
daemons on 127.0.0.1, halma web in headless Chromium. Run one with:
keyboard_browser_tests.py NAME. From a QA pass of the page."""
from halmatest import Cluster, check, run, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, need_browser, wait_in_step


def tab_brings_the_ring_to_a_marble_that_can_move():
    need_browser()
    from selenium.webdriver.common.keys import Keys
    with Cluster("web-keys") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            api = ann.api()
            api.ok(host=api_pb2.HostRequest(name="keys", mode=common_pb2.RoomMode(players=2), bots=1,
                                            bot_level="easy"))
            wait_until(lambda: api.view("keys").your_turn, 20, "ann's turn")
            view = wait_in_step(page, api, api.view("keys").summary.room_id, "the page to show ann's turn")
            page.js("document.activeElement.blur(); window.scrollTo(0, 0)")
            for _ in range(40):  # bounded: the board is a few stops from the top
                if page.js("return document.activeElement && document.activeElement.id") == "board":
                    break
                page.driver.switch_to.active_element.send_keys(Keys.TAB)
            check(page.js("return document.activeElement.id") == "board", "Tab never reached the board")
            ring = page.wait(lambda: page.js("const r = document.querySelector('#board .cursor-ring');"
                                             "return r ? Number(r.parentNode.dataset.hole) : null"),
                             "the ring on the board when Tab reaches it")
            movable = {m.split("-")[0] for m in view.legal_moves}
            name, held = page.attr(f'[data-hole="{ring}"]', "data-name"), page.attr(f'[data-hole="{ring}"]', "data-set")
            check(held == str(view.seats[view.your_seat].sets[0]) and name in movable,
                  f"the ring starts on {name} (set {held!r}), not on a marble of ann's that can move: {sorted(movable)}")
            page.el("#board").send_keys(Keys.ENTER)
            page.wait(lambda: page.js("return document.querySelectorAll('#board .hole.target').length") > 0,
                      "Enter on the ring's marble to show where it can go")
        finally:
            page.close()
            web.stop()


if __name__ == "__main__":
    run({f.__name__: f for f in (tab_brings_the_ring_to_a_marble_that_can_move,)})
