"""demo.py - plays a short game of tic-tac-toe through the ctypes binding and prints it."""

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


if __name__ == "__main__":
    main()
