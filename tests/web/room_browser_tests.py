"""The page's rooms in a real browser: leaving one, which room it opens when the daemon is in
several, and the host form's bounds, with headless Chromium (Selenium) on `halma web` and real
halmad processes on 127.0.0.1. Run as `room_browser_tests.py NAME`; exits 77 (skipped) without
Chromium."""
from halmatest import Cluster, check, greedy_move, run, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, click_move, need_browser, wait_in_step


def room_button(page, room):
    """The text and classes of `room`'s button in the rooms list, or None when it is not listed."""
    return page.js("const b = document.querySelector(`#rooms-list button[data-room-id='${arguments[0]}']`); "
                   "return b ? [b.textContent, b.className] : null", room)


def leaving_a_room_says_so():
    """kim leaves, from the page, a game she joined at ann's: a computer takes her seat, and the
    page says she left, with no error about the room her daemon no longer holds, and no room open."""
    need_browser()
    with Cluster("web-leave") as cluster:
        ann, kim = cluster.add("ann"), cluster.add("kim")
        ann.api().ok(host=api_pb2.HostRequest(name="den"))
        kim.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="den"))
        room = ann.api().view("den").summary.room_id
        wait_until(lambda: kim.api().view(room).game_number == 1, 10, "the game to start on kim's side")
        web = Web(kim)
        page = Page(web)
        try:
            wait_in_step(page, kim.api(), room, "kim's page to show the game")
            page.click("#leave")
            wait_until(lambda: ann.api().view(room).seats[1].name == "bot for kim", 10,
                       "a computer to take kim's seat at ann's")
            # The room leaves kim's list once her daemon has dropped it: by then every answer about
            # it (the leave's, the views the room's last events asked for) is on the page.
            page.wait(lambda: page.js("return document.body.dataset.inRoom") == "no" and room_button(page, room) is None,
                      "the page to close the room it left")
            message, tone = page.text("#message"), page.attr("#message", "class")
            check(tone == "info" and message.startswith("left"), f"after leaving, the page says {message!r} as {tone!r}")
            check(page.text("#room-title") == "No room open", f"the page still shows {page.text('#room-title')!r}")
        finally:
            page.close()
            web.stop()


def the_page_opens_the_room_waiting_for_the_player():
    """ann's daemon is in three rooms: the page opens the one where it is her move, else one where
    she holds a seat (not the first listed, which she only watches), and the rooms list marks
    where it is her move, also in a room the page is not showing."""
    need_browser()
    with Cluster("web-rooms") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="show", spectate=True))
        bob.api().ok(host=api_pb2.HostRequest(name="wait", mode=common_pb2.RoomMode(players=3)))
        ann.api().ok(join=api_pb2.JoinRequest(address=bob.address, room="wait"))
        bob.api().ok(host=api_pb2.HostRequest(name="duel"))
        ann.api().ok(join=api_pb2.JoinRequest(address=bob.address, room="duel"))
        # Hosted rooms are listed first, then joined ones as joined: "show", the first, is the one
        # where ann holds no seat, so that each rule picks another room.
        rooms = ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms
        ids = {r.name: r.room_id for r in rooms}
        check([r.name for r in rooms] == ["show", "wait", "duel"], f"ann's daemon lists {list(ids)} in another order")
        duel = ids["duel"]
        wait_until(lambda: ann.api().view(duel).game_number == 1, 10, "the duel to start on ann's side")

        def bob_moves():
            moves = len(ann.api().view(duel).moves)
            bob.api().ok(action=api_pb2.ActionRequest(room=duel, move=greedy_move(bob.api().view(duel))))
            wait_until(lambda: len(ann.api().view(duel).moves) > moves and ann.api().view(duel).your_turn, 10,
                       "ann's turn in the duel")

        def marked(page):
            """The rooms whose button says it is ann's move, in words and in the turn light's colour."""
            buttons = {name: room_button(page, room) or ["", ""] for name, room in ids.items()}
            return [name for name, (text, classes) in buttons.items() if "your move" in text and "your-move" in classes]

        bob_moves()
        web = Web(ann)
        first = Page(web)
        second = None
        try:
            first.wait(lambda: first.js("return document.body.dataset.room") == duel,
                       "the page to open the duel, where it is ann's move")
            view = wait_in_step(first, ann.api(), duel, "the page to draw the duel")
            first.wait(lambda: marked(first) == ["duel"], "the list to mark the duel alone as ann's move")
            click_move(first, greedy_move(view))
            first.wait(lambda: marked(first) == [], "the mark to go once ann has moved")
            # Her move nowhere: a page opened now shows a room where she is seated, not the first.
            second = Page(web)
            second.wait(lambda: second.js("return document.body.dataset.room") == ids["wait"],
                        "the page to open the room where ann holds a seat")
            bob_moves()
            second.wait(lambda: marked(second) == ["duel"], "the list to mark the duel, not the room shown")
            check(second.js("return document.body.dataset.room") == ids["wait"], "the page changed rooms by itself")
        finally:
            first.close()
            if second:
                second.close()
            web.stop()


def host_form_takes_the_daemons_move_limits():
    """The host form's "moves each" takes the move limits the daemon takes and no other: a room
    gets the field's least and its most, and the daemon refuses one more than the field's most."""
    need_browser()
    with Cluster("web-limit") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            least, most = int(page.attr("#host-limit", "min")), int(page.attr("#host-limit", "max"))
            api = ann.api()
            # 0 on the wire asks for the default (1000): a room gets the field's least only if it is 1 or more.
            got = api.ok(host=api_pb2.HostRequest(name="least", mode=common_pb2.RoomMode(move_limit=least)))
            check(got.view.summary.mode.move_limit == least,
                  f"the field's least, {least}, gives a room {got.view.summary.mode.move_limit} moves each")
            over = api.call(host=api_pb2.HostRequest(name="over", mode=common_pb2.RoomMode(move_limit=most + 1)))
            check(over.HasField("error"), f"the daemon takes {most + 1} moves each, which the field refuses")
            # The browser keeps the form from being sent with a number out of the field's range.
            field = page.el("#host-limit")
            for value, valid in ((least - 1, False), (least, True), (most, True), (most + 1, False)):
                field.clear()
                field.send_keys(str(value))
                check(page.js("return document.getElementById('host-limit').validity.valid") == valid,
                      f"the field takes {value} as {'invalid' if valid else 'valid'}")
            field.clear()
            field.send_keys(str(most))
            page.el("#host-name").send_keys("most")
            page.el("#host-form button[type=submit]").click()
            page.wait(lambda: "most" in page.text("#room-title"), "the page to show the room it hosted")
            check(api.view("most").summary.mode.move_limit == most, "the page's room did not get the field's most")
        finally:
            page.close()
            web.stop()


run({f.__name__: f for f in (leaving_a_room_says_so, the_page_opens_the_room_waiting_for_the_player,
                             host_form_takes_the_daemons_move_limits)})
