"""test_rect_gravity.py - rectangular boards and gravity (libttt 1.3): Game(width=, height=, k=, gravity=), width/height, drop, the floating and full-column errors, records and the engine on them."""

import pytest

import ttt
from ttt import EMPTY, X, O


def connect4():
    return ttt.Game(width=7, height=6, k=4, gravity=True)


def snapshot(game):
    """Everything a rejected call must leave as it was."""
    return (game.board(), game.ply, game.to_move, game.state, game.save(),
            game.redo_count, game.legal_moves())


# -- the constants -------------------------------------------------------------


def test_the_new_codes_and_rule_have_the_header_values():
    assert (ttt.E_FLOATING, ttt.E_COLUMN_FULL, ttt.RULE_GRAVITY) == (-22, -23, 4)
    assert ttt.Status(-22) is ttt.Status.E_FLOATING
    assert ttt.Rule.GRAVITY == 4
    messages = {ttt._lib.ttt_strerror(code) for code in (-22, -23, -6, -5)}
    assert len(messages) == 4  # each has its own message


# -- shape ---------------------------------------------------------------------


def test_connect_four_shape():
    with connect4() as game:
        assert (game.width, game.height, game.win_length) == (7, 6, 4)
        assert game.gravity is True
        assert game.get_rule(ttt.RULE_GRAVITY) == 1
        board = game.board()
        assert len(board) == 6 and all(len(row) == 7 for row in board)
        assert repr(game) == "<ttt.Game 7x6 k=4 ply=0 X to move>"
        with pytest.raises(ttt.SizeError):
            game.size  # noqa: B018 (the property raises)


def test_square_games_keep_size_and_no_gravity():
    game = ttt.Game(4, 3)
    assert (game.size, game.width, game.height, game.gravity) == (4, 4, 4, False)
    square = ttt.Game(width=5, height=5, k=4)
    assert (square.size, square.win_length) == (5, 4)


def test_k_defaults_to_the_shorter_side_and_is_checked():
    assert ttt.Game(width=5, height=3).win_length == 3
    assert ttt.Game(width=3, height=5, k=5).win_length == 5  # K up to the longer side
    for width, height, k in [(2, 6, 0), (7, 2, 0), (7, 6, 8), (7, 6, 2), (1025, 6, 4)]:
        with pytest.raises(ttt.SizeError):
            ttt.Game(width=width, height=height, k=k)
    with pytest.raises(TypeError):
        ttt.Game(width=7, height=6, win_length=3, k=4)


def test_str_draws_width_columns_and_height_rows():
    game = ttt.Game(width=5, height=3, k=3)
    game.play(2, 4)
    assert str(game) == ("   a b c d e\n"
                         "1  . . . . .\n"
                         "2  . . . . .\n"
                         "3  . . . . X")


def test_footprint_of_a_rectangle():
    assert ttt._lib.ttt_game_footprint_rect(7, 6, 4) > 0
    assert ttt._lib.ttt_game_footprint_rect(2, 6, 4) == 0


# -- drop and gravity ----------------------------------------------------------


def test_drop_lands_on_the_lowest_empty_cell():
    game = connect4()
    assert game.drop(3) == (5, ttt.IN_PROGRESS)
    assert game.drop(3) == (4, ttt.IN_PROGRESS)
    assert game.cell(5, 3) == X and game.cell(4, 3) == O
    assert game.moves() == [(X, 5, 3), (O, 4, 3)]
    assert game.to_move == X


def test_drop_without_gravity_lands_too():
    game = ttt.Game(width=4, height=3, k=3)
    assert game.drop(1) == (2, ttt.IN_PROGRESS)
    game.play(0, 0)  # no gravity: any empty cell
    assert game.drop(0) == (2, ttt.IN_PROGRESS)


def test_a_floating_cell_is_refused_and_changes_nothing():
    game = connect4()
    game.drop(2)
    before = snapshot(game)
    for row, col in [(0, 0), (4, 0), (3, 2), (0, 2)]:
        with pytest.raises(ttt.FloatingError) as caught:
            game.play(row, col)
        assert caught.value.code == ttt.E_FLOATING
        assert isinstance(caught.value, ttt.IllegalMoveError)
        assert snapshot(game) == before
    with pytest.raises(ttt.FloatingError):
        game.play("a1")
    assert game.play("c5") == ttt.IN_PROGRESS  # the landing cell is legal
    assert game.cell(4, 2) == O


def test_a_full_column_is_refused_and_changes_nothing():
    game = connect4()
    for _ in range(6):
        game.drop(0)  # X, O, X, O, X, O: no four
    before = snapshot(game)
    with pytest.raises(ttt.ColumnFullError) as caught:
        game.drop(0)
    assert caught.value.code == ttt.E_COLUMN_FULL
    assert snapshot(game) == before
    with pytest.raises(ttt.OccupiedError):  # its top cell is taken
        game.play(0, 0)
    assert snapshot(game) == before
    assert (5, 0) not in game.legal_moves() and (0, 0) not in game.legal_moves()


def test_bad_columns_and_a_finished_game_are_refused():
    game = connect4()
    for col in (-1, 7, 1 << 40):
        with pytest.raises(ttt.OffBoardError):
            game.drop(col)
    for col in (0, 0, 1, 1, 2, 2):
        game.drop(col)
    assert game.drop(3) == (5, ttt.X_WON)
    before = snapshot(game)
    with pytest.raises(ttt.GameOverError):
        game.drop(4)
    assert snapshot(game) == before


def test_legal_moves_under_gravity_are_the_landing_cells():
    game = connect4()
    assert game.legal_moves() == [(5, c) for c in range(7)]
    game.drop(3)
    game.drop(3)
    assert game.legal_moves() == [(3, 3)] + [(5, c) for c in range(7) if c != 3]
    seed = ttt.Seed(5)
    for _ in range(20):
        assert game.random_move(seed) in game.legal_moves()


def test_gravity_is_set_before_the_first_move_only():
    game = ttt.Game(width=7, height=6, k=4)
    game.drop(0)
    with pytest.raises(ttt.RuleError):
        game.set_rule(ttt.RULE_GRAVITY, 1)
    assert game.gravity is False


# -- wins on rectangles ------------------------------------------------------


@pytest.mark.parametrize("moves, line", [
    # X along the bottom row, O on top of it.
    ([0, 0, 1, 1, 2, 2, 3], ((5, 0), (5, 3))),
    # X up column e.
    ([4, 5, 4, 5, 4, 5, 4], ((2, 4), (5, 4))),
    # X down-left to up-right: a6, b5, c4, d3.
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], ((2, 3), (5, 0))),
    # X up-left from g6: g6, f5, e4, d3.
    ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], ((2, 3), (5, 6))),
])
def test_connect_four_wins_in_every_direction(moves, line):
    game = connect4()
    for col in moves[:-1]:
        assert game.drop(col)[1] == ttt.IN_PROGRESS
    assert game.drop(moves[-1])[1] == ttt.X_WON
    ends = game.winning_line()
    assert sorted(ends) == sorted(line)


def test_taller_than_wide_with_k_longer_than_the_width():
    game = ttt.Game(width=3, height=7, k=5)
    for ply in range(4):
        game.play(ply, 0)  # X down column a
        game.play(ply, 2)  # O down column c
    assert game.play(4, 0) == ttt.X_WON
    assert sorted(game.winning_line()) == [(0, 0), (4, 0)]


def test_wider_than_tall_row_win_and_no_column_win():
    game = ttt.Game(width=6, height=3, k=4)
    for col in range(3):
        game.play(0, col)
        game.play(2, col)
    assert game.play(0, 3) == ttt.X_WON
    # Columns are three high: shorter than K, they never win.
    short = ttt.Game(width=6, height=3, k=4)
    for row, col in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        short.play(row, col)
    assert short.state == ttt.IN_PROGRESS


# -- history and records -------------------------------------------------------


def test_undo_redo_under_gravity():
    game = connect4()
    for col in (3, 3, 4):
        game.drop(col)
    after = snapshot(game)
    game.undo()
    assert game.cell(5, 4) == EMPTY and (5, 4) in game.legal_moves()
    game.redo()
    assert snapshot(game) == after
    game.undo()
    game.undo()
    assert game.drop(3) == (4, ttt.IN_PROGRESS)  # the redo stack is gone
    with pytest.raises(ttt.NoRedoError):
        game.redo()


def test_records_carry_width_height_and_gravity():
    game = connect4()
    for col in (3, 3, 2):
        game.drop(col)
    record = game.save()
    assert " w=7 h=6 " in record and "gravity" in record
    assert record.rstrip("\n").endswith("moves=d6,d5,c6")
    loaded = ttt.Game.load(record)
    assert (loaded.width, loaded.height, loaded.win_length, loaded.gravity) == (7, 6, 4, True)
    assert loaded.save() == record
    assert loaded.board() == game.board()
    with pytest.raises(ttt.FloatingError):
        loaded.play(0, 0)
    # A square game without gravity still saves as 1.2 did.
    square = ttt.Game(3)
    square.play("b2")
    assert square.save() == "ttt/1 n=3 k=3 rules=classic moves=b2\n"


def test_clone_keeps_the_shape_and_gravity():
    game = connect4()
    game.drop(6)
    copy = game.clone()
    assert (copy.width, copy.height, copy.gravity, copy.board()) == (7, 6, True, game.board())
    copy.drop(6)
    assert game.ply == 1 and copy.ply == 2


# -- engine --------------------------------------------------------------------

# Connect Four perft from the empty board, published (e.g. by the chess
# programming wiki's Connect Four page): 7**d until a column can fill up.
CONNECT4_PERFT = {1: 7, 2: 49, 3: 343, 4: 2401, 5: 16807}


@pytest.mark.parametrize("depth", sorted(CONNECT4_PERFT))
def test_connect_four_perft_matches_the_published_counts(depth):
    counts, by_length = connect4().perft(depth)
    assert counts.in_progress == CONNECT4_PERFT[depth]
    assert counts.x_won == counts.o_won == counts.draw == 0
    assert by_length[depth] == CONNECT4_PERFT[depth]


def test_perft_of_a_rectangle_counts_each_order():
    # Two plies cannot win: every ordered pair of distinct cells.
    counts, _ = ttt.Game(width=5, height=3, k=3).perft(2)
    assert counts == ttt.Counts(15 * 14, 0, 0, 0)


def test_perft_under_gravity_sums_over_the_drops():
    root = connect4()
    total, _ = root.perft(4)
    children = 0
    for col in range(7):
        child = connect4()
        child.drop(col)
        children += child.perft(3)[0].in_progress
    assert children == total.in_progress


def test_small_gravity_boards_solve_as_published():
    # 4x4 with gravity: K = 3 is a first-player win, K = 4 a draw.
    win = ttt.Game(width=4, height=4, k=3, gravity=True).solve()
    assert win.complete and win.value == ttt.Value.WIN
    legal = set(ttt.Game(width=4, height=4, k=3, gravity=True).legal_moves())
    assert win.best and set(win.best) <= legal
    draw = ttt.Game(width=4, height=4, k=4, gravity=True).solve(value_only=True)
    assert draw.value == ttt.Value.DRAW


def test_best_move_under_gravity_is_a_landing_cell():
    game = connect4()
    for col in (3, 0, 3, 0, 3):
        game.drop(col)
    move = game.best_move(ttt.BOT_STRONG, 20000, ttt.Seed(1))
    assert move in game.legal_moves()
    # O must block the column: X, on d6, d5 and d4, threatens d3.
    assert move == (2, 3)


def test_drop_on_a_closed_game_raises():
    game = connect4()
    game.close()
    with pytest.raises(ValueError):
        game.drop(3)
    with pytest.raises(ValueError):
        game.drop(True)  # the checked path too
