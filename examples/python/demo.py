"""demo.py - a short game through the ttt package (pip install . first), then two perfect bots, then Connect Four's gravity."""

import ttt


def announce(event):
    if event.kind == ttt.EventKind.PLAY:
        print("  %s plays %s" % (ttt.MARK_CHARS[event.mark],
                                 ttt.cell_name(event.row, event.col)))


with ttt.Game(3) as game:
    print("libttt", ttt.version())
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
    print(repr(game), "line", game.winning_line())
    print("record:", game.save(), end="")

with ttt.Game(3) as game:
    solution = game.solve()
    print("solver: the empty board is a %s in %d plies" % (solution.value.name.lower(),
                                                          solution.plies))
    seed = ttt.Seed(2024)
    while game.state == ttt.State.IN_PROGRESS:
        game.play(*game.best_move(ttt.BotLevel.PERFECT, seed=seed))
    print(game)
    print("perfect play:", ttt.STATE_NAMES[game.state])

# Connect Four (libttt 1.3): 7 columns, 6 rows, four in a row, marks drop.
with ttt.Game(width=7, height=6, k=4, gravity=True) as game:
    for col in (3, 3, 2, 4, 1):
        row, state = game.drop(col)
    try:
        game.play(0, 0)                     # a1 floats above an empty column
    except ttt.FloatingError as e:
        print("  a1 refused:", e)
    print(game)
    print("X threatens a6; O may drop on", [ttt.cell_name(r, c) for r, c in game.legal_moves()])
