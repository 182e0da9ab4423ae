"""test_misuse.py - copies, pickling, moves() on named and ended games, a listener closing its game, out-of-range counts and wrong argument types."""

import copy
import pathlib
import pickle
import subprocess
import sys
import textwrap

import pytest

import ttt
from ttt import O, X


def run_python(code):
    """Runs code in a fresh interpreter (the same ttt): a crash or a hang
    there cannot take the suite with it."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=60)


# -- copies and pickling --------------------------------------------------


def test_copy_owns_its_own_c_game():
    # Sharing the C game freed it twice at exit, and a play after the copy
    # was dropped waited forever on the freed game's lock.
    result = run_python("""
        import copy, ttt
        g = ttt.Game(3)
        g.play("b2")
        c = copy.copy(g)
        c.play("a1")
        print(g.ply, c.ply)
        del c
        g.play(0, 0)
        print(g.moves())
        """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "1 2", "[(<Mark.X: 1>, 1, 1), (<Mark.O: -1>, 0, 0)]"]


def test_deepcopy_is_an_independent_clone():
    game = ttt.Game(4, 3, misere=True)
    game.set_name(X, "ann")
    game.play("b2")
    game.play("a1")
    game.undo()
    twin = copy.deepcopy(game)
    assert twin is not game and twin.save() == game.save()
    assert twin.redo_count == 1  # a clone: the redo stack too
    twin.play("c3")
    assert (game.ply, twin.ply) == (1, 2)
    game.close()
    assert twin.moves() == [(X, 1, 1), (O, 2, 2)]


def test_copies_inside_containers_are_clones():
    games = [ttt.Game(3)]
    copied = copy.deepcopy(games)
    copied[0].play(1, 1)
    assert games[0].ply == 0


def test_pickle_round_trips_names_rules_ending_and_position():
    game = ttt.Game(width=7, height=6, k=4, gravity=True)
    game.set_rule(ttt.Rule.PLY_LIMIT, 30)
    game.set_name(X, "ann")
    game.set_name(O, "bo b")
    for col in (3, 3, 2):
        game.drop(col)
    game.resign(O)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(game, protocol))
        assert type(back) is ttt.Game
        assert back.save() == game.save()
        assert (back.width, back.height, back.win_length, back.gravity) == (7, 6, 4, True)
        assert back.get_rule(ttt.Rule.PLY_LIMIT) == 30
        assert (back.name(X), back.name(O)) == ("ann", "bo b")
        assert (back.ending, back.state) == (ttt.Ending.RESIGN, ttt.X_WON)
        assert back.board() == game.board()
        back.undo()  # its own game: the original keeps its ending
        assert game.ending == ttt.Ending.RESIGN


# A Game pickled by ttt 1.4.0 when the package was one file (protocols 0, 2
# and 4): pickles refer to ttt._load_record and ttt.Game, wherever the code
# lives inside the package.
ONE_FILE_PICKLES = {
    0: b'cttt\n_load_record\np0\n(cttt\nGame\np1\nVttt/1 n=4 k=3 rules=classic '
    b'moves=b2,c3 o="bo"\\u000a\np2\ntp3\nRp4\n.',
    2: b'\x80\x02cttt\n_load_record\nq\x00cttt\nGame\nq\x01X/\x00\x00\x00ttt/1 '
    b'n=4 k=3 rules=classic moves=b2,c3 o="bo"\nq\x02\x86q\x03Rq\x04.',
    4: b'\x80\x04\x95Y\x00\x00\x00\x00\x00\x00\x00\x8c\x03ttt\x94\x8c\x0c_load_record'
    b'\x94\x93\x94h\x00\x8c\x04Game\x94\x93\x94\x8c/ttt/1 n=4 k=3 rules=classic '
    b'moves=b2,c3 o="bo"\n\x94\x86\x94R\x94.',
}


@pytest.mark.parametrize("protocol", sorted(ONE_FILE_PICKLES))
def test_pickles_of_the_one_file_package_load_and_are_still_written(protocol):
    data = ONE_FILE_PICKLES[protocol]
    game = pickle.loads(data)
    assert type(game) is ttt.Game
    assert game.save() == 'ttt/1 n=4 k=3 rules=classic moves=b2,c3 o="bo"\n'
    assert (game.width, game.win_length, game.name(O)) == (4, 3, "bo")
    assert game.moves() == [(X, 1, 1), (O, 2, 2)]
    assert pickle.dumps(game, protocol) == data


def test_a_closed_game_is_neither_copied_nor_pickled():
    game = ttt.Game(3)
    game.close()
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(ValueError):
            make(game)


# -- moves() ---------------------------------------------------------------


def test_moves_of_a_named_and_ended_game():
    game = ttt.Game(3)
    game.play("b2")
    game.resign(O)
    assert game.moves() == [(X, 1, 1)]
    game.set_name(O, "moves=a1,b1")
    game.undo()
    game.agree_draw()
    assert game.moves() == [(X, 1, 1)]


def test_moves_of_a_gravity_rectangle_and_after_undo():
    game = ttt.Game(width=5, height=4, k=3, gravity=True)
    for col in (0, 4, 0):
        game.drop(col)
    assert game.moves() == [(X, 3, 0), (O, 3, 4), (X, 2, 0)]
    game.undo()
    assert game.moves() == [(X, 3, 0), (O, 3, 4)]
    assert all(type(m) is ttt.Mark for m, _, _ in game.moves())
    assert ttt.Game(3).moves() == []


# -- a listener that closes its own game -----------------------------------


def test_listener_closing_its_game_is_refused_and_the_game_intact():
    # It hung, and the library then used the freed game.
    result = run_python("""
        import ttt
        g = ttt.Game(3)
        seen = []
        def listener(event):
            try:
                g.close()
            except ttt.ListenerError as e:
                seen.append((int(e.code), str(e)))
        g.set_listener(listener)
        print(g.play(1, 1).name, g.closed, g.moves())
        print(seen)
        g.set_listener(None)
        g.play(0, 0)
        g.close()
        print(g.closed)
        """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "IN_PROGRESS False [(<Mark.X: 1>, 1, 1)]"
    assert lines[1].startswith("[(-20, 'a listener cannot close its own game")
    assert lines[2] == "True"


def test_listener_closing_another_game_may():
    other = ttt.Game(3)
    game = ttt.Game(3)
    game.set_listener(lambda event: other.close())
    game.play(1, 1)
    assert other.closed and not game.closed


def test_listener_error_reaches_the_hook(monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    game = ttt.Game(3)
    game.set_listener(lambda event: game.close())
    game.play(1, 1)
    assert len(reported) == 1
    assert isinstance(reported[0].exc_value, ttt.ListenerError)
    assert reported[0].exc_value.code == ttt.E_IN_LISTENER
    assert not game.closed and game.ply == 1
    game.set_listener(None)
    game.close()


# -- 64-bit and size arguments: refused, never wrapped ----------------------


@pytest.mark.parametrize("call, error", [
    (lambda g, s: g.random_playouts(s, 2 ** 64), OverflowError),
    (lambda g, s: g.random_playouts(s, 2 ** 64 + 5), OverflowError),
    (lambda g, s: g.random_playouts(s, -1), ValueError),
    (lambda g, s: g.solve(node_budget=-1), ValueError),
    (lambda g, s: g.solve(node_budget=2 ** 64), OverflowError),
    (lambda g, s: g.solve(table_bytes=-1), ValueError),
    (lambda g, s: g.solve(table_bytes=2 ** 64), OverflowError),
    (lambda g, s: g.perft(2, table_bytes=-1), ValueError),
    (lambda g, s: g.perft(2, table_bytes=2 ** 64), OverflowError),
    (lambda g, s: g.count_positions(2, table_bytes=-1), ValueError),
    (lambda g, s: g.best_move(ttt.BOT_STRONG, node_budget=-1, seed=s), ValueError),
    (lambda g, s: g.best_move(ttt.BOT_STRONG, node_budget=2 ** 64, seed=s), OverflowError),
    (lambda g, s: ttt.Seed(-1), ValueError),
    (lambda g, s: ttt.Seed(2 ** 64), OverflowError),
])
def test_counts_out_of_range_are_refused(call, error):
    game = ttt.Game(3)
    game.play("b2")
    seed = ttt.Seed(7)
    with pytest.raises(error):
        call(game, seed)
    assert (game.ply, seed.value) == (1, 7)


def test_counts_at_their_limits_are_taken():
    game = ttt.Game(3)
    assert ttt.Seed(2 ** 64 - 1).value == 2 ** 64 - 1
    assert sum(game.random_playouts(ttt.Seed(1), 5)) == 5
    assert game.solve(node_budget=2 ** 64 - 1).complete


# -- argument types ----------------------------------------------------------


class Index:
    """An int-like object that is not an int (as numpy's integers are)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


@pytest.mark.parametrize("call", [
    lambda g: g.play(1.7, 0.2),
    lambda g: g.play(1, 0.0),
    lambda g: g.play(True, 0),
    lambda g: g.play(1, 1, mark=True),
    lambda g: g.play(1, 1, mark=1.0),
    lambda g: g.play(b"b2"),
    lambda g: g.play(None, 1),
    lambda g: g.play_at(0.0, 1, 1, X),
    lambda g: g.drop(1.5),
    lambda g: g.drop(False),
    lambda g: ttt.Game(3.5),
    lambda g: ttt.Game("3"),
    lambda g: ttt.Game(True),
    lambda g: ttt.Game(3, 3.0),
    lambda g: ttt.Game(width=7.0, height=6),
    lambda g: ttt.Game(width=7, height="6"),
    lambda g: ttt.Game(5, k=4.0),
    lambda g: ttt.Game(lib_path=5),
    lambda g: g.set_name(1.5, "a"),
    lambda g: g.set_name(True, "a"),
    lambda g: g.set_name(X, b"ab"),
    lambda g: g.set_name(X, None),
    lambda g: g.name(1.0),
    lambda g: g.resign(True),
    lambda g: g.set_rule(ttt.Rule.MISERE, True),
    lambda g: g.set_rule(1.0, 1),
    lambda g: g.get_rule(None),
    lambda g: g.cell(0.0, 0),
    lambda g: ttt.Game.load(5),
    lambda g: ttt.Game.load(None),
    lambda g: g.random_playout(None),
    lambda g: g.random_playouts(ttt.Seed(1), 10.0),
    lambda g: g.best_move(1.0),
    lambda g: g.solve(node_budget=1.5),
    lambda g: g.solve(table_bytes=True),
    lambda g: g.perft(2.0),
    lambda g: g.count_positions(2, 1.0),
    lambda g: g.set_listener(5),
    lambda g: ttt.Seed(1.5),
    lambda g: ttt.Seed("1"),
    lambda g: ttt.cell_name(1.0, 1),
    lambda g: ttt.parse_cell(b"b2"),
    lambda g: ttt.parse_cell(None),
    lambda g: ttt.load_library(5),
])
def test_wrong_types_are_type_errors(call):
    game = ttt.Game(3)
    game.play("b2")
    before = game.save()
    with pytest.raises(TypeError):
        call(game)
    assert game.save() == before


def test_int_like_objects_are_ints():
    game = ttt.Game(Index(4), Index(3))
    assert (game.size, game.win_length) == (4, 3)
    assert game.play(Index(1), Index(1)) == ttt.IN_PROGRESS
    assert game.play(Index(0), Index(0), mark=Index(-1)) == ttt.IN_PROGRESS
    assert game.cell(Index(1), Index(1)) == X
    game.set_name(Index(1), "ann")
    assert game.name(X) == "ann"
    assert sum(game.random_playouts(ttt.Seed(Index(3)), Index(4))) == 4
    assert game.solve(node_budget=Index(10 ** 6)).complete
    rect = ttt.Game(width=Index(5), height=Index(4), k=Index(3), gravity=True)
    assert rect.drop(Index(2)) == (3, ttt.IN_PROGRESS)
    assert ttt.cell_name(Index(1), Index(1)) == "b2"


def test_text_that_is_not_utf8_is_the_packages_own_error():
    game = ttt.Game(3)
    with pytest.raises(ttt.PlayerNameError):
        game.set_name(X, "\ud800")
    assert game.name(X) == ""
    with pytest.raises(ttt.ParseError):
        game.play("\ud800")
    with pytest.raises(ttt.ParseError):
        ttt.parse_cell("b\ud800")
    with pytest.raises(ttt.ParseError) as caught:
        ttt.Game.load("ttt/1 n=3 k=3 rules=classic moves=b2\ud800\n")
    assert caught.value.offset == len("ttt/1 n=3 k=3 rules=classic moves=b2")
    assert game.ply == 0


def test_records_are_str_or_bytes_and_library_paths_str_or_path(tmp_path):
    record = "ttt/1 n=3 k=3 rules=classic moves=b2\n"
    for form in (record, record.encode(), bytearray(record.encode()),
                 memoryview(record.encode())):
        assert ttt.Game.load(form).moves() == [(X, 1, 1)]
    path = pathlib.Path(ttt.library_path())
    assert ttt.load_library(path) is ttt.load_library(str(path))
    with ttt.Game(3, lib_path=path) as game:
        assert game.play("b2") == ttt.IN_PROGRESS
    with pytest.raises(OSError):
        ttt.load_library(tmp_path / "no-such-libttt.so")
