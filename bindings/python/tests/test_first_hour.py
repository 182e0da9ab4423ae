"""test_first_hour.py - the calls a newcomer tries first: int seeds, random_playouts' order, an incomplete solve, error messages that say what is allowed, column and cell names, winning_line."""

import pytest

import ttt
from ttt import O, X


def connect4():
    return ttt.Game(width=7, height=6, k=4, gravity=True)


# -- seeds: an int everywhere a seed is taken -----------------------------


def test_an_int_seed_is_a_seed_of_that_value():
    game = ttt.Game(5, 4)
    assert game.best_move(ttt.BotLevel.RANDOM, seed=3) == \
        game.best_move(ttt.BotLevel.RANDOM, seed=ttt.Seed(3))
    assert game.random_move(11) == game.random_move(ttt.Seed(11))
    assert game.clone().random_playout(5) == game.clone().random_playout(ttt.Seed(5))
    with pytest.raises(TypeError, match="an int or a ttt.Seed"):
        game.random_move("3")
    with pytest.raises(TypeError, match="an int or a ttt.Seed"):
        game.random_move(3.0)
    with pytest.raises(ValueError):
        game.random_move(-1)
    with pytest.raises(OverflowError):
        game.random_move(2 ** 64)
    with pytest.raises(TypeError):
        game.random_move(True)


def test_random_playouts_takes_the_count_first_and_keeps_the_old_order():
    game = ttt.Game(3)
    game.play("b2")
    new = game.random_playouts(1000, seed=1)
    assert sum(new) == 1000
    assert game.random_playouts(1000, 1) == new
    assert game.random_playouts(games=1000, seed=1) == new
    assert game.random_playouts(seed=ttt.Seed(1), games=1000) == new
    seed = ttt.Seed(1)
    assert game.random_playouts(seed, 1000) == new  # 1.4's documented order
    assert seed.value != 1  # a Seed carries through, as before
    with pytest.raises(TypeError):
        game.random_playouts(1000)  # no seed


# -- an incomplete solve reads as unknown ---------------------------------


def test_an_incomplete_solve_has_no_value_but_its_bounds():
    solution = connect4().solve(node_budget=10 ** 4)
    assert not solution.complete
    assert solution.value is None
    assert (solution.value_min, solution.value_max) == (ttt.Value.LOSS, ttt.Value.WIN)
    assert isinstance(solution.value_min, ttt.Value)
    full = ttt.Game(3).solve()
    assert full.complete and full.value is ttt.Value.DRAW


# -- messages: what was wrong and what is allowed -------------------------


@pytest.mark.parametrize("call, error, words", [
    (lambda: ttt.Game(2), ttt.SizeError, ["2x2", "3 <= width, height <= 1024"]),
    (lambda: ttt.Game(width=7, height=6, k=9), ttt.SizeError, ["7x6, k=9", "the longer side"]),
    (lambda: ttt.Game().play(5, 5), ttt.OffBoardError, ["row 5, column 5", "rows 0..2"]),
    (lambda: ttt.Game().play(1, 1, mark=5), ttt.MarkError, ["not 5", "X (1) or O (-1)"]),
    (lambda: ttt.Game().play(1, 1, mark=O), ttt.WrongTurnError, ["X is to move"]),
    (lambda: ttt.Game().set_rule(9, 1), ttt.RuleError, ["rule 9", "PLY_LIMIT 3"]),
    (lambda: ttt.Game().get_rule(9), ttt.RuleError, ["rule 9", "GRAVITY 4"]),
    (lambda: ttt.Game().best_move(7), ttt.TttError, ["level 7", "PERFECT 2"]),
    (lambda: ttt.Game().best_move(ttt.BotLevel.RANDOM), ttt.TttError, ["needs a seed"]),
    (lambda: ttt.Game().undo(), ttt.NoUndoError, ["board is empty"]),
    (lambda: ttt.Game().redo(), ttt.NoRedoError, ["undo() took back"]),
    (lambda: ttt.parse_cell("b0"), ttt.ParseError, ["'b0'", "e.g. b2"]),
    (lambda: ttt.Game.load("ttt/1 n=3 k=3 rulez\n"), ttt.ParseError, ["at byte 18"]),
    (lambda: connect4().play("b2"), ttt.FloatingError, ["drop(1)", "play('b')"]),
])
def test_messages_say_what_was_wrong_and_what_is_allowed(call, error, words):
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    lib = ttt.load_library()
    assert message.startswith(lib.ttt_strerror(caught.value.code).decode())
    for word in words:
        assert word in message, message


def test_messages_of_a_played_game():
    game = ttt.Game(3)
    game.play("b2")
    with pytest.raises(ttt.OccupiedError, match="b2 .* already holds X"):
        game.play(1, 1)
    for name in ("a1", "c1", "b1", "a3"):
        game.play(name)
    with pytest.raises(ttt.GameOverError, match=r"ended \(X won\); undo\(\) reopens it"):
        game.play("c3")
    with pytest.raises(ttt.RuleError, match="5 moves are on the board"):
        game.set_rule(ttt.Rule.MISERE, 1)
    with pytest.raises(ttt.StaleError, match="for ply 2, the game is at ply 5"):
        game.play_at(2, 2, 2, X)
    full = connect4()
    for _ in range(6):
        full.drop(0)
    with pytest.raises(ttt.ColumnFullError, match="column a .*open columns are b, c, d, e, f, g"):
        full.drop(0)


# -- the obvious call works: columns, cell names, winning_line ------------


def test_under_gravity_a_column_name_is_a_move():
    game = connect4()
    assert game.play("d") == ttt.IN_PROGRESS
    assert game.cell(5, 3) == X
    assert game.drop("D") == (4, ttt.IN_PROGRESS)
    assert game.moves() == [(X, 5, 3), (O, 4, 3)]
    with pytest.raises(ttt.ParseError, match="only under gravity"):
        ttt.Game(3).play("b")
    with pytest.raises(ttt.ParseError, match="not a column"):
        game.drop("d4")
    with pytest.raises(ttt.OffBoardError, match="column 26"):
        game.drop("aa")


def test_cell_takes_a_name_as_play_does():
    game = ttt.Game(3)
    game.play("b2")
    assert game.cell("b2") == X and game.cell("a1") == ttt.EMPTY
    with pytest.raises(ttt.OffBoardError):
        game.cell("d4")
    with pytest.raises(TypeError, match="cell name"):
        game.cell(1)
    with pytest.raises(TypeError):
        game.cell("b2", 1)


def test_winning_line_reads_as_a_property_and_still_calls():
    game = ttt.Game(3)
    assert not game.winning_line
    assert game.winning_line() is None
    for name in ("a1", "b1", "a2", "b2", "a3"):
        game.play(name)
    assert game.winning_line == ((0, 0), (2, 0))
    assert game.winning_line() == ((0, 0), (2, 0))
    assert game.winning_line
    assert game.state == ttt.X_WON
