"""demo.py - plays a short game through the ctypes binding and prints it, then lets two perfect bots play."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttt  # noqa: E402


def announce(event):
    if event.kind == ttt.EVENT_PLAY:
        print("  %s plays %s" % (ttt.MARK_CHARS[event.mark],
                                 ttt.cell_name(event.row, event.col)))


def main():
    print("libttt", ttt.version())
    with ttt.Game(3) as game:
        game.set_listener(announce)
        for cell in ["b2", "a1", "c3", "c1"]:
            game.play(cell)
        try:
            game.play("b2")
        except ttt.OccupiedError as e:
            print("  b2 refused:", e)
        for cell in ["b1", "a2", "b3"]:
            state = game.play(cell)
        print(game)
        print(repr(game))
        print("result:", ttt.STATE_NAMES[state], "line", game.winning_line())
        print("record:", game.save(), end="")

    if ttt.has_engine():
        perfect_play()


def perfect_play():
    """The solver's verdict on the empty board, then a game between two perfect bots."""
    with ttt.Game(3) as game:
        solution = game.solve()
        value = {ttt.VALUE_WIN: "win", ttt.VALUE_DRAW: "draw", ttt.VALUE_LOSS: "loss"}
        print("solver: the empty board is a %s in %d plies" % (value[solution.value],
                                                              solution.plies))
        seed = ttt.Seed(2024)
        while game.state == ttt.IN_PROGRESS:
            game.play(*game.best_move(ttt.BOT_PERFECT, seed=seed))
        print(game)
        print("perfect play:", ttt.STATE_NAMES[game.state])


if __name__ == "__main__":
    main()
