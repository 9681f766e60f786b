"""What a room decides is said on every page in it, not only on the page that asked: a game
cancelled, a take-back that lapsed, and the address others join a room hosted here by. Real
daemons on 127.0.0.1, halma web in headless Chromium. Run one with:
room_news_browser_tests.py NAME. From a QA pass of the page, played as a family."""
import re
import signal

from halmatest import Cluster, check, greedy_move, join_room, run, views_in_step, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, need_browser, wait_in_step


def trio(ann, bob, cat):
    """ann hosts den for three, bob and cat join by address; the game has begun everywhere."""
    room = ann.api().ok(host=api_pb2.HostRequest(name="den", mode=common_pb2.RoomMode(players=3))).view.summary.room_id
    join_room(bob, ann, "den")
    join_room(cat, ann, "den")
    wait_until(lambda: all(d.api().view(room).game_number == 1 for d in (ann, bob, cat)), 10, "the game to start")
    return room


def move_of_whoever_is_to_move(players, room):
    views = views_in_step(players, lambda d: d.api().view(room))
    mover, view = next((d, v) for d, v in zip(players, views) if v.your_turn)
    reply = mover.api().move(greedy_move(view), room)
    check(not reply.HasField("error"), f"{mover.name}'s move refused: {reply.error.message}")
    return mover


def a_cancel_and_the_rooms_address_are_said_on_the_page():
    """ann's page shows the address others join den by. cat's daemon vanishes (the page counts
    down how long his seat is held); ann and bob vote
    to cancel from their daemons: ann's page says the game was cancelled, as its result, where
    it said only "cancelled" in the room's title."""
    need_browser()
    with Cluster("web-news") as cluster:
        ann, bob, cat = cluster.add("ann"), cluster.add("bob"), cluster.add("cat")
        web = Web(ann)
        page = Page(web)
        try:
            room = trio(ann, bob, cat)
            wait_in_step(page, ann.api(), room, "the page to show den")
            joined_by = page.wait(lambda: page.text("#join-with"), "the address others join by")
            check(joined_by == f"{ann.address}/den", f"the page says others join with {joined_by!r}")
            cat.kill(signal.SIGKILL)
            wait_until(lambda: any(s.name == "cat" and not s.connected for s in ann.api().view(room).seats), 10,
                       "ann's daemon to see cat gone")
            # How long cat's seat is still held (30 s here), counting down: the page said only
            # "gone, seat held", and nobody knew how long they would wait.
            held = lambda: re.search(r"cat \(gone, seat held (\d+) s more, then a computer keeps it for them\)",
                                     page.text("#seats") or "")
            first = int(page.wait(held, "cat's seat held, with its time").group(1))
            check(20 <= first <= 30, f"cat's seat held {first} s of 30")
            page.wait(lambda: held() and int(held().group(1)) <= first - 2, "the hold to count down")
            for d in (ann, bob):
                d.api().ok(action=api_pb2.ActionRequest(room=room, vote=common_pb2.VOTE_KIND_CANCEL))
            wait_until(lambda: ann.api().view(room).summary.phase == common_pb2.PHASE_CANCELLED, 10, "the cancel")
            page.wait(lambda: "The game was cancelled." in page.text("#message"), "the page to say the game was cancelled")
            result = page.wait(lambda: page.attr("#result", "hidden") is None and page.text("#result"), "the result line")
            check(result.startswith("Game cancelled"), f"the result line says {result!r}")
        finally:
            page.close()
            web.stop()


def a_take_back_that_lapses_is_said():
    """ann moves, then bob; ann asks to take her move back, and cat moves before agreeing: the
    request lapses, and ann's page says so and why. It vanished without a word, and her page
    still said she had voted to take a move back."""
    need_browser()
    with Cluster("web-lapse") as cluster:
        ann, bob, cat = cluster.add("ann"), cluster.add("bob"), cluster.add("cat")
        web = Web(ann)
        page = Page(web)
        try:
            room = trio(ann, bob, cat)
            players = [ann, bob, cat]
            # Moves until ann has one of her own and it is neither hers nor, next, bob's turn to
            # agree before the third player moves.
            for _ in range(6):
                if ann.api().view(room).can_take_back and not ann.api().view(room).your_turn:
                    break
                move_of_whoever_is_to_move(players, room)
            view = ann.api().view(room)
            check(view.can_take_back and not view.your_turn, "ann has no move of hers to take back")
            ann.api().ok(action=api_pb2.ActionRequest(room=room, vote=common_pb2.VOTE_KIND_TAKE_BACK))
            asked = ann.api().view(room)
            check(asked.take_back_seat == asked.your_seat, f"ann's take-back not open: {asked.take_back_seat}")
            wait_in_step(page, ann.api(), room, "the page to show the open take-back")
            mover = move_of_whoever_is_to_move(players, room)
            check(mover is not ann, "ann moved: nobody else could let her request lapse")
            said = page.wait(lambda: (t := page.text("#message")) and "lapsed" in t and t, "the page to say it lapsed")
            check(said.startswith(f"Your request to take back {asked.take_back_move} lapsed: {mover.name} played"),
                  f"the page says {said!r}")
        finally:
            page.close()
            web.stop()


if __name__ == "__main__":
    run({f.__name__: f for f in (a_cancel_and_the_rooms_address_are_said_on_the_page, a_take_back_that_lapses_is_said)})
