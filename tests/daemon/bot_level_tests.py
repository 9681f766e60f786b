"""Integration tests of the computer players' levels as a user picks them: a real halmad, driven
through the halma CLI and the local API. Run one with: bot_level_tests.py NAME."""
from halmatest import Cluster, check, common_pb2, greedy_move, run, wait_until


def max_bot_room_answers_while_thinking():
    """A room with a "max" bot (the hard bot thinking seconds a move): the CLI and the API accept
    the level, the seat says so, the bot plays its moves, and while it thinks the daemon still
    answers: a view asked right after a person's move comes back before the bot's reply (it runs
    on the bot pool, never on the event loop). A daemon whose loop thought for the bot would
    answer only after the bot's move, every time. A level nobody knows is refused by name; one
    typed with a capital ("Max") is taken."""
    with Cluster("maxbot") as c:
        ann = c.add("ann")
        out = ann.cli("host", "bad", "--bots", "1", "--bot-level", "hardest")
        check(out.returncode == 2 and "hardest" in out.stderr, f"bad level accepted: {out.returncode} {out.stderr}")
        # Typed as a person might: the level is taken whatever its case.
        out = ann.cli("host", "slow", "--bots", "1", "--bot-level", "Max", "--json")
        check(out.returncode == 0, f"host with a max bot refused: {out.stderr}")
        view = wait_until(lambda: (v := ann.api().view()).summary.phase == common_pb2.PHASE_PLAYING and v, 10,
                          "the game to start")
        bots = [s for s in view.seats if s.bot]
        check(len(bots) == 1 and bots[0].bot_level == "max", f"bot seats: {view.seats}")
        answered_while_thinking, bot_moves, seen = 0, 0, set()
        for _ in range(4):  # bounded: four of ann's moves, each answered by the bot
            view = wait_until(lambda: (v := ann.api().view()).your_turn and v, 120, "ann's turn (the bot to move)")
            reply = ann.api().move(greedy_move(view, seen))
            check(not reply.HasField("error"), f"ann's move refused: {reply.error.message}")
            after = ann.api().view()  # asked at once: the bot has just started thinking
            if not after.your_turn and after.summary.phase == common_pb2.PHASE_PLAYING:
                answered_while_thinking += 1
            moves = len(after.moves)
            wait_until(lambda: len(ann.api().view().moves) > moves or ann.api().view().your_turn, 120,
                       "the max bot to move")
            bot_moves += 1
        check(answered_while_thinking > 0, "every view came after the bot's move: the loop waited for the bot")
        final = ann.api().view()
        check(len(final.moves) >= 8, f"only {len(final.moves)} moves: the bot did not play")
        print(f"max bot: {bot_moves} moves; {answered_while_thinking} of 4 views answered while it thought")


run({f.__name__: f for f in [max_bot_room_answers_while_thinking]})
