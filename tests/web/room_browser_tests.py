"""The page's rooms in a real browser: leaving one, which room it opens when the daemon is in
several, what a busy room it does not show costs it, switching rooms, and the host form's bounds,
with headless Chromium (Selenium) on `halma web` and real halmad processes on 127.0.0.1. Run as `room_browser_tests.py NAME`; exits 77 (skipped) without
Chromium."""
import collections
import re
import time

from halmatest import Cluster, check, greedy_move, run, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, click_move, game_of_two, holes_of, need_browser, wait_in_step


def room_button(page, room):
    """The text and classes of `room`'s button in the rooms list, or None when it is not listed."""
    return page.js("const b = document.querySelector(`#rooms-list button[data-room-id='${arguments[0]}']`); "
                   "return b ? [b.textContent, b.className] : null", room)


def opened_room(page):
    return page.js("return document.body.dataset.room")


def views_asked(page, room):
    """How many of the requests the page sent since count_requests were views of `room`."""
    return sum(1 for url, body in page.requests_sent() if url.endswith("/api/view") and room in body)


def marked(page, ids):
    """The names (of `ids`, name -> room id) whose button says it is the player's move, in words
    and in the turn light's colour."""
    buttons = {name: room_button(page, room) or ["", ""] for name, room in ids.items()}
    return [name for name, (text, classes) in buttons.items() if "your move" in text and "your-move" in classes]


def move_then_wait_for_turn(mover, player, room):
    """`mover` plays in `room`; returns once `player`'s daemon has the move and it is their turn."""
    moves = len(player.api().view(room).moves)
    mover.api().ok(action=api_pb2.ActionRequest(room=room, move=greedy_move(mover.api().view(room))))
    wait_until(lambda: len(player.api().view(room).moves) > moves and player.api().view(room).your_turn, 10,
               f"{player.name}'s turn after {mover.name}'s move")


def leaving_a_room_says_so():
    """kim leaves, from the page, a game she joined at ann's: the page asks first (a click on "no"
    keeps her seat), a computer takes her seat, and the page says she left den, with no error about
    the room her daemon no longer holds, and no room open."""
    need_browser()
    with Cluster("web-leave") as cluster:
        ann, kim = cluster.add("ann"), cluster.add("kim")
        room = game_of_two(ann, kim, "den")
        web = Web(kim)
        page = Page(web)
        try:
            wait_in_step(page, kim.api(), room, "kim's page to show the game")
            # Mid-game the page asks first; "no" keeps her in her seat.
            page.click("#leave")
            question = page.answer_dialog(accept=False)
            check("den" in question and "computer" in question, f"the page asked {question!r}")
            time.sleep(0.5)
            check(ann.api().view(room).seats[1].name == "kim", "kim left though she said no")
            page.click("#leave")
            page.answer_dialog()
            wait_until(lambda: ann.api().view(room).seats[1].name == "bot for kim", 10,
                       "a computer to take kim's seat at ann's")
            # The room leaves kim's list once her daemon has dropped it: by then every answer about
            # it (the leave's, the views the room's last events asked for) is on the page.
            page.wait(lambda: page.js("return document.body.dataset.inRoom") == "no" and room_button(page, room) is None,
                      "the page to close the room it left")
            message, tone = page.text("#message"), page.attr("#message", "class")
            check(tone == "info" and message == "left den", f"after leaving, the page says {message!r} as {tone!r}")
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
        move_then_wait_for_turn(bob, ann, duel)
        web = Web(ann)
        first = Page(web)
        second = None
        try:
            first.wait(lambda: first.js("return document.body.dataset.room") == duel,
                       "the page to open the duel, where it is ann's move")
            view = wait_in_step(first, ann.api(), duel, "the page to draw the duel")
            first.wait(lambda: marked(first, ids) == ["duel"], "the list to mark the duel alone as ann's move")
            click_move(first, greedy_move(view))
            first.wait(lambda: marked(first, ids) == [], "the mark to go once ann has moved")
            # Her move nowhere: a page opened now shows a room where she is seated, not the first.
            second = Page(web)
            second.wait(lambda: second.js("return document.body.dataset.room") == ids["wait"],
                        "the page to open the room where ann holds a seat")
            move_then_wait_for_turn(bob, ann, duel)
            second.wait(lambda: marked(second, ids) == ["duel"], "the list to mark the duel, not the room shown")
            check(second.js("return document.body.dataset.room") == ids["wait"], "the page changed rooms by itself")
        finally:
            first.close()
            if second:
                second.close()
            web.stop()


def a_room_of_bots_does_not_flood_the_page():
    """ann's daemon hosts a room of two easy bots playing as fast as they can (bot-pace-ms 0, the
    default: a game of about 130 events in under a second, then 5 s to the next), a room where she
    waits alone, and is in a duel at bob's where it is her move. The page hears every event of
    every room: it opens the duel by itself, marks it, keeps the marks right while the bots play,
    and sends at most one request for ten of the bots' events. It used to send a list and a view
    of each room for each one, which queued behind the player's own requests."""
    need_browser()
    with Cluster("web-busy") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        ann.api().ok(host=api_pb2.HostRequest(name="bots", spectate=True, bots=2, bot_level="easy"))
        ann.api().ok(host=api_pb2.HostRequest(name="wait"))
        bob.api().ok(host=api_pb2.HostRequest(name="duel"))
        ann.api().ok(join=api_pb2.JoinRequest(address=bob.address, room="duel"))
        ids = {r.name: r.room_id for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms}
        duel, bots = ids["duel"], ids["bots"]
        wait_until(lambda: ann.api().view(duel).game_number == 1, 10, "the duel to start on ann's side")
        move_then_wait_for_turn(bob, ann, duel)
        web = Web(ann)
        page = Page(web)
        try:
            page.wait(lambda: opened_room(page) == duel, "the page to open the duel, where it is ann's move")
            page.wait(lambda: marked(page, ids) == ["duel"], "the list to mark the duel")
            page.count_requests()
            first = int(ann.api().view(bots).seq)
            # Two hundred events take in one whole game at least, whenever the count starts.
            wait_until(lambda: int(ann.api().view(bots).seq) >= first + 200, 30, "the bots to play 200 events")
            time.sleep(1)  # requests the last events make are counted too
            events = int(ann.api().view(bots).seq) - first
            sent = page.requests_sent()
            kinds = collections.Counter(url.rsplit("/", 1)[-1] for url, _ in sent)
            print(f"{len(sent)} requests for {events} events of the bots' room: {dict(kinds)}")
            check(len(sent) * 10 <= events, f"the page sent {len(sent)} requests for {events} events of a room it does not show")
            check(opened_room(page) == duel, "the page left the duel by itself")
            # The marks follow the duel while another room is shown and the bots play on.
            page.click(f"#rooms-list button[data-room-id='{ids['wait']}']")
            page.wait(lambda: opened_room(page) == ids["wait"], "the page to open the room picked")
            move_then_wait_for_turn(ann, bob, duel)
            page.wait(lambda: marked(page, ids) == [], "the mark to go once ann has moved in the duel")
            move_then_wait_for_turn(bob, ann, duel)
            page.wait(lambda: marked(page, ids) == ["duel"], "the list to mark the duel again")
            check(opened_room(page) == ids["wait"], "the page changed rooms by itself")
        finally:
            page.close()
            web.stop()


def leaving_her_own_room_does_not_reopen_it():
    """ann leaves the game in the room she hosts, her only room: a computer takes her seat and the
    room stays on her daemon's list, but the page shows no room, and does not open it again by
    itself while the computers play on (it used to, at once). A click on it in the list opens it."""
    need_browser()
    with Cluster("web-leave-own") as cluster:
        ann = cluster.add("ann")
        ann.api().ok(host=api_pb2.HostRequest(name="den", bots=1, bot_level="easy"))
        room = ann.api().view("den").summary.room_id
        wait_until(lambda: ann.api().view(room).game_number == 1, 10, "the game to start")
        web = Web(ann)
        page = Page(web)
        try:
            wait_in_step(page, ann.api(), room, "the page to show ann's game")
            page.click("#leave")
            page.answer_dialog()
            wait_until(lambda: ann.api().view(room).your_seat < 0, 10, "a computer to take ann's seat")
            page.wait(lambda: page.text("#message").startswith("left") and opened_room(page) == "",
                      "the page to say ann left, with no room open")
            # Nothing can show that a page will never do a thing: a hundred events of the computers'
            # game (the next one starts 5 s after one ends), and a second for the page to hear the
            # last ones, give it the chances it took before.
            enough = int(ann.api().view(room).seq) + 100
            until = time.monotonic() + 20
            while time.monotonic() < until:
                shown, title = opened_room(page), page.text("#room-title")
                check(shown == "" and title == "No room open", f"the page opened {title!r} again by itself")
                if int(ann.api().view(room).seq) >= enough:
                    until = min(until, time.monotonic() + 1)
                time.sleep(0.1)
            check(int(ann.api().view(room).seq) >= enough, "the computers played too little to show anything")
            check(room_button(page, room) is not None, "the room left is not in the list")
            page.click(f"#rooms-list button[data-room-id='{room}']")
            page.wait(lambda: opened_room(page) == room, "a click to open the room left")
        finally:
            page.close()
            web.stop()


def switching_rooms_drops_the_old_rooms_events():
    """ann watches a room of two easy bots playing as fast as they can: their events come far
    faster than the page animates their moves, and wait their turn. When she opens another room
    those events go with the room they belong to: no move of theirs is animated on the new room's
    board (the Skip button shows while one is), and the page reads the new room once, not once
    for each event left."""
    need_browser()
    with Cluster("web-switch") as cluster:
        ann = cluster.add("ann")
        ann.api().ok(host=api_pb2.HostRequest(name="wait"))
        ann.api().ok(host=api_pb2.HostRequest(name="bots", spectate=True, bots=2, bot_level="easy"))
        ids = {r.name: r.room_id for r in ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms}
        wait, bots = ids["wait"], ids["bots"]
        web = Web(ann)
        page = Page(web)
        try:
            page.wait(lambda: opened_room(page) == wait, "the page to open the room where ann is seated")
            page.click(f"#rooms-list button[data-room-id='{bots}']")
            page.wait(lambda: opened_room(page) == bots, "the page to open the bots' room")

            def behind():
                drawn = page.drawn()[0]
                return drawn and int(ann.api().view(bots).seq) - int(drawn) >= 30
            # Between two of the bots' games (the next-game pause) the page catches up: falling
            # behind took 8 to 24 s here, and 20 s was not always enough under CI's load.
            page.wait(behind, "the page to fall 30 events behind the bots", timeout=60)
            page.count_requests()
            page.click(f"#rooms-list button[data-room-id='{wait}']")
            page.wait(lambda: opened_room(page) == wait, "the page to open the room picked")
            # The page shows a queued event in about a second (a view, then hops of 280 ms): three
            # seconds would show a few.
            until = time.monotonic() + 3
            while time.monotonic() < until:
                check(page.js("return document.getElementById('skip').hidden"),
                      "a move of the bots' room is animated on the board of the room opened")
                time.sleep(0.05)
            asked = views_asked(page, wait)
            check(asked <= 2, f"the page read the room it opened {asked} times")
        finally:
            page.close()
            web.stop()


def a_fast_room_of_bots_is_shown_as_it_stands():
    """A room of two easy bots playing as fast as they can sends the page hundreds of events a
    second, far more than it animates. The page keeps at most 8 waiting (main.js, kMostBehind;
    its queue grew without end, by hundreds a second) and still shows the room as it stands."""
    need_browser()
    with Cluster("web-fast") as cluster:
        ann = cluster.add("ann")
        ann.api().ok(host=api_pb2.HostRequest(name="bots", spectate=True, bots=2, bot_level="easy"))
        web = Web(ann)
        page = Page(web)
        try:
            bots = ann.api().ok(list=api_pb2.ListRequest()).rooms.rooms[0].room_id
            page.wait(lambda: opened_room(page) == bots, "the page to open the bots' room")
            most = 0
            for _ in range(80):
                time.sleep(0.1)
                most = max(most, int(page.js("return document.body.dataset.waiting || '0'")))
            check(most <= 8, f"{most} events waited to be shown")
            reached = int(ann.api().view(bots).seq)
            page.wait(lambda: page.drawn()[0] and int(page.drawn()[0]) >= reached,
                      f"the page to draw the room as it stood 8 s in (seq {reached})", timeout=5)
        finally:
            page.close()
            web.stop()


def host_form_takes_the_daemons_move_limits():
    """The host form's "moves each" takes the move limits the daemon takes and no other: a room
    gets the field's least and its most, and the daemon refuses one more than the field's most.
    Its "seconds a turn" gives the room its turn limit."""
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
            page.el("#host-turn").send_keys("45")  # "seconds a turn"
            page.el("#host-form button[type=submit]").click()
            page.wait(lambda: "most" in page.text("#room-title"), "the page to show the room it hosted")
            check(api.view("most").summary.mode.move_limit == most, "the page's room did not get the field's most")
            check(api.view("most").summary.mode.turn_limit_s == 45, "the page's room did not get its 45 s a turn")
            # The name is emptied for the next room (a second click hosted a duplicate).
            check(page.js("return document.getElementById('host-name').value") == "", "the room's name stayed")
        finally:
            page.close()
            web.stop()


def a_room_its_host_closes_is_said_in_words():
    """kim's page shows ann's room; ann closes it: the page says the host closed it, not the
    daemon's "no room '9c85...' on this daemon"."""
    need_browser()
    with Cluster("web-closed") as cluster:
        ann, kim = cluster.add("ann"), cluster.add("kim")
        ann.api().ok(host=api_pb2.HostRequest(name="den"))
        kim.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="den"))
        room = ann.api().view("den").summary.room_id
        web = Web(kim)
        page = Page(web)
        try:
            wait_in_step(page, kim.api(), room, "kim's page to show the game")
            out = ann.cli("close", "-r", "den", "--force")
            check(out.returncode == 0, f"close: {out.stderr}")
            said = page.wait(lambda: (t := page.text("#message")) and t, "the page to say the room is gone")
            check("closed" in said and room not in said and "no room '" not in said, f"the page said: {said!r}")
            print(f"the page said {said!r}")
        finally:
            page.close()
            web.stop()


def several_sets_each_say_which_moves():
    """ann plays two sets against a computer: the turn display says which of her colours moves
    now, and a click on a marble of her other set says so (it said only "cannot move now")."""
    need_browser()
    with Cluster("web-two-sets") as cluster:
        ann = cluster.add("ann")
        ann.api().ok(host=api_pb2.HostRequest(name="pair", mode=common_pb2.RoomMode(players=2, sets_per_player=2),
                                              bots=1, bot_level="easy"))
        view = wait_until(lambda: (v := ann.api().view("pair")).your_turn and v, 10, "ann's turn")
        colours = ["black", "green", "yellow", "red", "cyan", "purple"]
        cells, to_move = view.position.split(" ")[0].replace("/", ""), int(view.position[-1]) - 1
        own = list(view.seats[view.your_seat].sets)
        other = next(s for s in own if s != to_move)
        hole = cells.index(str(other + 1))
        web = Web(ann)
        page = Page(web)
        try:
            wait_in_step(page, ann.api(), view.summary.room_id, "ann's page to show the game")
            turn = page.wait(lambda: (t := page.text("#turn-text")) and "your turn" in t and t, "the turn display")
            check(f"move {colours[to_move]}" in turn, f"the turn display: {turn!r}")
            page.click_hole(hole)
            said = page.wait(lambda: page.text("#message"), "what the click says")
            check(f"your {colours[other]} set: move a {colours[to_move]} marble now" in said, f"the page said: {said!r}")
            print(f"the page said {turn.strip()!r}, then {said!r}")
        finally:
            page.close()
            web.stop()


def spectators_are_shown_and_can_leave():
    """dad watches ann's game: both pages list him as watching; his says he is watching and
    offers "Stop watching", which leaves the room (the page showed no spectators, and gave a
    spectator no way out)."""
    need_browser()
    with Cluster("web-spectator") as cluster:
        ann, kim, dad = cluster.add("ann"), cluster.add("kim"), cluster.add("dad")
        ann.api().ok(host=api_pb2.HostRequest(name="den"))
        kim.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="den"))
        dad.api().ok(join=api_pb2.JoinRequest(address=ann.address, room="den", spectate=True))
        room = ann.api().view("den").summary.room_id
        web = Web(dad)
        page = Page(web)
        try:
            wait_in_step(page, dad.api(), room, "dad's page to show the game")
            said = page.wait(lambda: (t := page.text("#spectators")) and "You are watching" in t and t, "dad's page")
            check("Watching: dad" in said, f"dad's page: {said!r}")
            check(page.text("#leave") == "Stop watching" and page.attr("#leave", "hidden") is None, "no way out")
            page.click("#leave")
            wait_until(lambda: "dad" not in ann.api().view(room).spectators,
                       10, "dad to leave the room")
            print(f"dad's page said {said!r}; Stop watching left the room")
        finally:
            page.close()
            web.stop()


def a_room_named_with_a_slash_is_joined_by_address():
    """ann hosts "a/b"; kim types ann's address and "a/b" into the page's join box, as halma
    host prints it: she joins (the page split at the last slash and asked for room "b" at
    "ADDRESS/a")."""
    need_browser()
    with Cluster("web-slash") as cluster:
        ann, kim = cluster.add("ann"), cluster.add("kim")
        ann.api().ok(host=api_pb2.HostRequest(name="a/b"))
        web = Web(kim)
        page = Page(web)
        try:
            page.el("#join-what").send_keys(f"{ann.address}/a/b")
            page.el("#join-form button[type=submit]").click()
            page.wait(lambda: "a/b" in page.text("#room-title"), "kim's page to show room a/b")
            check(kim.api().view("a/b").your_seat == 1, "kim has no seat in a/b")
            print("joined a/b from the page")
        finally:
            page.close()
            web.stop()


def a_turn_limit_counts_down_and_says_who_is_away():
    """ann has a room with a 3-second turn limit against a computer (hosted through the API; the
    host form's "seconds a turn" is host_form_takes_the_daemons_move_limits's): the turn display
    shows her time, and when it runs out the computer moves for her and her seat says she is
    away; a vote to cancel is offered then (and only then). That the clock runs on is
    the_turn_clock_runs_on_across_clicks's."""
    need_browser()
    with Cluster("web-turn-limit") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            ann.api().ok(host=api_pb2.HostRequest(name="clock", mode=common_pb2.RoomMode(players=2, turn_limit_s=3),
                                                  bots=1, bot_level="easy"))
            wait_until(lambda: ann.api().view("clock").your_turn, 10, "ann's turn")
            clock = page.wait(lambda: (t := page.text("#turn-clock")) and "left, then the computer moves for you" in t
                              and t, "the turn's clock on the page")
            check(page.attr("#vote-cancel", "hidden") is not None, "a cancel vote offered while everyone is here")
            seat = page.wait(lambda: (t := page.text("#seats")) and "away: your time ran out" in t
                             and "make a move to come back" in t and t, "ann's seat to say she is away", timeout=15)
            view = ann.api().view("clock")
            check(view.seats[0].away or view.seats[1].away, "not away on halmad")
            # What the computer played for her is named, for one who was not looking.
            check(view.moves_made_for_you and any(f"the computer played {m} for you" in seat for m in view.moves),
                  f"the seat does not name the computer's move {list(view.moves_made_for_you)}: {seat!r}")
            page.wait(lambda: page.attr("#vote-cancel", "hidden") is None, "the cancel vote offered")
            print(f"the page showed {clock.strip()!r}, then {seat.splitlines()[0]!r}")
        finally:
            page.close()
            web.stop()


def a_computers_move_for_an_away_player_is_said():
    """When ann's time runs out, the page says which move the computer made for her (the seat
    label changed, and "Last move" soon showed the other side's); once the game is over she is
    no longer told to make a move to come back, which nobody can. From a family QA pass."""
    need_browser()
    with Cluster("web-away-over") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            ann.api().ok(host=api_pb2.HostRequest(
                name="brief", mode=common_pb2.RoomMode(players=2, turn_limit_s=2, move_limit=2),
                bots=1, bot_level="easy"))
            said = page.wait(lambda: (t := page.text("#message")) and "Your time ran out: the computer played" in t
                             and t, "the page to say the computer moved for ann", timeout=20)
            played = [m for m in ann.api().view("brief").moves]
            check(any(said.split("played ")[1].split(" ")[0] == m for m in played),
                  f"the page named a move that was not played: {said!r}, moves {played}")
            check(page.attr("#message", "class") == "info", "the computer's move is said as an error")
            view = wait_until(lambda: (v := ann.api().view("brief")).summary.phase == common_pb2.PHASE_OVER and v,
                              30, "the game to end on its move limit")
            check(any(s.away for s in view.seats), "nobody is away at the end: the check below proves nothing")
            page.wait(lambda: page.attr("#result", "hidden") is None, "the result on the page")
            seats = page.text("#seats")
            check("make a move to come back" not in seats and "away:" not in seats,
                  f"a finished game still calls ann back: {seats!r}")
        finally:
            page.close()
            web.stop()


def a_refusal_for_a_lost_host_is_taken_back():
    """bob chats while the room's host (ann's halmad) is restarting: the page says the host is
    not connected, and takes that back once the light is green again (it stayed under the green
    light and "your turn"). From a family QA pass."""
    need_browser()
    with Cluster("web-host-back") as cluster:
        ann, bob = cluster.add("ann"), cluster.add("bob")
        room = game_of_two(ann, bob, "back")
        web = Web(bob)
        page = Page(web)
        light = lambda: page.js("return document.getElementById('light-connection').dataset.state")
        try:
            wait_in_step(page, bob.api(), room, "bob's page to show the game")
            ann.kill()
            page.wait(lambda: light() != "green", "bob's light to leave green with the host gone", timeout=30)
            page.el("#chat-input").send_keys("are you there?")
            page.el("#chat-form button[type=submit]").click()
            said = page.wait(lambda: page.text("#message"), "what the chat's refusal says")
            check("host" in said and page.attr("#message", "class") == "error", f"the refusal: {said!r}")
            ann.start()
            page.wait(lambda: light() == "green", "bob's light to go green with the host back", timeout=40)
            page.wait(lambda: page.text("#message") == "", "the page to take back the refusal once the host is back")
        finally:
            page.close()
            web.stop()


def the_turn_clock_runs_on_across_clicks():
    """The turn display's countdown keeps running when the player clicks about: a click redraws
    the page, and the clock started again from what the view said when it was read (the computer
    then moved for a player the page still gave 25 s). A review of the turn limit."""
    need_browser()
    with Cluster("web-turn-clicks") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            ann.api().ok(host=api_pb2.HostRequest(name="clicks", mode=common_pb2.RoomMode(players=2, turn_limit_s=60),
                                                  bots=1, bot_level="easy"))
            view = wait_until(lambda: (v := ann.api().view("clicks")).your_turn and v, 10, "ann's turn")

            def seconds_left():
                t = page.text("#turn-clock")
                m = re.search(r"(\d+) s left", t or "")
                return int(m.group(1)) if m else None
            first = page.wait(seconds_left, "the turn's clock on the page")
            time.sleep(3)
            page.click_hole(holes_of(view.legal_moves[0])[0])  # picks a marble: the page redraws
            later = page.wait(seconds_left, "the clock after the click")
            check(later <= first - 2, f"the clock went from {first} s to {later} s across a click 3 s later")
        finally:
            page.close()
            web.stop()


def the_rooms_rules_and_what_hosting_does_are_said():
    """A family in a variant room sees its rules in words beside the seats (the page said only
    "four (4/4 seats, playing, game 1)", so long jumps came as a surprise); the host form's button
    says what hosting does with the seats (its default computer filled a two-player room at once,
    and the child joining next door found it full); a chat line sent says nothing under the board
    (it said "said it")."""
    need_browser()
    with Cluster("web-rules") as cluster:
        ann = cluster.add("ann")
        api = ann.api()
        api.ok(host=api_pb2.HostRequest(name="variant", bots=1, bot_level="easy", mode=common_pb2.RoomMode(
            players=2, rules="jumps=long,home-lock=off", move_limit=15)))
        web = Web(ann)
        page = Page(web)
        try:
            page.wait(lambda: "variant" in page.text("#room-title"), "the page to open the variant room")
            rules = page.text("#room-rules")
            check("long jumps" in rules and "a marble home may leave it again" in rules
                  and "ends after 15 moves each" in rules, f"the variant's rules on the page: {rules!r}")
            api.ok(host=api_pb2.HostRequest(name="plain", mode=common_pb2.RoomMode(players=2)))
            plain = api.view("plain").summary.room_id
            page.wait(lambda: room_button(page, plain), "the plain room in the page's list")
            page.click(f"#rooms-list button[data-room-id='{plain}']")
            page.wait(lambda: "plain" in page.text("#room-title"), "the page to open the plain room")
            check(page.text("#room-rules") == "Rules: the standard ones.", f"a plain room's rules: {page.text('#room-rules')!r}")
            button = lambda: page.text("#host-submit")
            check(button() == "Host and play the computer now", f"the host button with the form's defaults: {button()!r}")
            page.el("#host-bots").clear()
            page.el("#host-bots").send_keys("0")
            page.wait(lambda: button() == "Host: 1 seat for others", f"the button with no computer: {button()!r}")
            page.js("const p = document.getElementById('host-players'); p.value = '4'; "
                    "p.dispatchEvent(new Event('input'))")
            page.el("#host-bots").clear()
            page.el("#host-bots").send_keys("1")
            page.wait(lambda: button() == "Host: 1 computer, 2 seats for others", f"4 players, 1 computer: {button()!r}")
            page.el("#chat-input").send_keys("hello grandma")
            page.el("#chat-form button[type=submit]").click()
            page.wait(lambda: "hello grandma" in page.text("#chat-log"), "the chat line in the chat")
            time.sleep(0.5)  # what act() says comes after the reply
            check("said it" not in page.text("#message"), f"under the board after a chat line: {page.text('#message')!r}")
        finally:
            page.close()
            web.stop()


run({f.__name__: f for f in (leaving_a_room_says_so, the_page_opens_the_room_waiting_for_the_player,
                             a_fast_room_of_bots_is_shown_as_it_stands,
                             a_room_of_bots_does_not_flood_the_page, leaving_her_own_room_does_not_reopen_it,
                             switching_rooms_drops_the_old_rooms_events, host_form_takes_the_daemons_move_limits,
                             a_turn_limit_counts_down_and_says_who_is_away, a_room_its_host_closes_is_said_in_words,
                             several_sets_each_say_which_moves, spectators_are_shown_and_can_leave,
                             a_room_named_with_a_slash_is_joined_by_address,
                             the_turn_clock_runs_on_across_clicks, a_computers_move_for_an_away_player_is_said,
                             a_refusal_for_a_lost_host_is_taken_back, the_rooms_rules_and_what_hosting_does_are_said)})
