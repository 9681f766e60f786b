"""halma web's take-back button: "Ask to take back your last move" is offered only while the
player has a move of their own in the game being played, and a click takes it back (against a
computer, at once, with its reply). Run one with: take_back_browser_tests.py NAME."""
from halmatest import Cluster, check, greedy_move, run, wait_until
from halma.v1 import api_pb2, common_pb2
from webtest import Page, Web, need_browser, wait_in_step


def a_move_is_taken_back_from_the_page():
    need_browser()
    with Cluster("web-take-back") as cluster:
        ann = cluster.add("ann")
        web = Web(ann)
        page = Page(web)
        try:
            api = ann.api()
            api.ok(host=api_pb2.HostRequest(name="oops", mode=common_pb2.RoomMode(players=2), bots=1,
                                            bot_level="easy"))
            wait_until(lambda: api.view("oops").your_turn, 20, "ann's turn")
            room = api.view("oops").summary.room_id
            before = wait_in_step(page, api, room, "the page to show ann's turn")
            check(page.attr("#vote-take-back", "hidden") is not None, "a take-back offered before ann moved")
            reply = api.move(greedy_move(before), room)
            check(not reply.HasField("error"), f"ann's move refused: {reply.error.message}")
            wait_until(lambda: len(api.view(room).moves) == len(before.moves) + 2, 20, "the computer's reply")
            mine = api.view(room).moves[len(before.moves)]
            page.wait(lambda: page.attr("#vote-take-back", "hidden") is None, "the take-back button")
            label = page.text("#vote-take-back")
            check(label == f"Ask to take back your last move ({mine})", f"the button says {label!r}")
            page.click("#vote-take-back")
            view = page.wait(lambda: (v := api.view(room)).moves == before.moves and v, "ann's move taken back")
            check(view.position == before.position and view.your_turn, "not the board before ann's move")
            wait_in_step(page, api, room, "the page to draw the board before ann's move")
            # Her name as she wrote it: the sentence's capital made it "Ann took back ...; ann moves
            # again" (a family QA pass).
            said = page.wait(lambda: (t := page.text("#message")) and "took back" in t and t, "the take-back said")
            check(said.startswith(f"ann took back {mine}"), f"the page says {said!r}")
            page.wait(lambda: page.attr("#vote-take-back", "hidden") is not None,
                      "the button to go with nothing left to take back")
        finally:
            page.close()
            web.stop()


if __name__ == "__main__":
    run({f.__name__: f for f in (a_move_is_taken_back_from_the_page,)})
