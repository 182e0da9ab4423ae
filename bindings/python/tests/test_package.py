"""test_package.py - the installed package: where it loads from, a missing library failing loudly, enums, typing, docs, the public names docs/python.md lists, str/repr, legal_moves, python3 -m ttt."""

import ctypes.util
import inspect
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import typing

import pytest

import ttt

PACKAGE_DIR = os.path.dirname(os.path.abspath(ttt.__file__))


def run_python(code, env_extra=None, env_drop=(), **kwargs):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LIBTTT_PATH", "PYTHONPATH") and k not in env_drop}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, **kwargs)


# -- installation ----------------------------------------------------------


def test_imported_from_the_installed_package_with_its_own_library():
    site = os.path.realpath(sysconfig.get_paths()["platlib"])
    assert os.path.realpath(PACKAGE_DIR) == os.path.join(site, "ttt")
    assert "LIBTTT_PATH" not in os.environ
    assert ttt.library_path() == os.path.join(PACKAGE_DIR, "libttt.so")
    assert ttt.version() == ttt.__version__ == "1.5.0"
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed"))


def test_import_works_from_any_directory(tmp_path):
    result = run_python("import ttt; g = ttt.Game(3); g.play(1, 1); print(g)", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "   a b c\n1  . . .\n2  . X .\n3  . . .\n"


def copy_package_without_library(tmp_path):
    copy = tmp_path / "site" / "ttt"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("libttt.so", "__pycache__"))
    assert not (copy / "libttt.so").exists()
    return str(tmp_path / "site")


def test_missing_library_fails_loudly(tmp_path):
    site = copy_package_without_library(tmp_path)
    result = run_python("import ttt", env_extra={"PYTHONPATH": site}, cwd=tmp_path)
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "libttt" in result.stderr and "LIBTTT_PATH" in result.stderr


def test_environment_variable_overrides_the_bundled_library(tmp_path):
    # A named library that is not there is an error, not a quiet fallback.
    missing = str(tmp_path / "no-such-libttt.so")
    result = run_python("import ttt", env_extra={"LIBTTT_PATH": missing})
    assert result.returncode != 0
    assert missing in result.stderr
    # A copy elsewhere is the one loaded, even by a package without its own.
    other = tmp_path / "lib" / "libttt.so"
    other.parent.mkdir()
    shutil.copy(os.path.join(PACKAGE_DIR, "libttt.so"), other)
    site = copy_package_without_library(tmp_path)
    result = run_python("import ttt; print(ttt.library_path(), ttt.Game(4).size)",
                        env_extra={"LIBTTT_PATH": str(other), "PYTHONPATH": site})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "%s 4\n" % other


def test_a_library_older_than_1_2_is_refused(tmp_path):
    # libc has none of libttt's functions: load_library says which it lacks.
    libc = ctypes.util.find_library("c")
    with pytest.raises(OSError, match="ttt_play_next"):
        ttt.load_library(libc)


# -- types, documentation ---------------------------------------------------


def test_enums_equal_the_c_values():
    assert (ttt.Mark.EMPTY, ttt.Mark.X, ttt.Mark.O) == (0, 1, -1)
    assert list(ttt.State) == [0, 1, 2, 3]
    assert (ttt.BotLevel.RANDOM, ttt.BotLevel.STRONG, ttt.BotLevel.PERFECT) == (0, 1, 2)
    assert (ttt.Value.LOSS, ttt.Value.DRAW, ttt.Value.WIN) == (-1, 0, 1)
    assert (ttt.Rule.MISERE, ttt.Rule.EARLY_DRAW) == (1, 2)
    assert list(ttt.EventKind) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert list(ttt.Ending) == [0, 1, 2, 3, 4, 5, 6]
    assert ttt.Rule.PLY_LIMIT == 3 and ttt.NAME_MAX == 64
    assert [int(s) for s in ttt.Status] == list(range(0, -24, -1))
    assert ttt.Rule.GRAVITY == 4
    assert ttt.X is ttt.Mark.X and ttt.DRAW is ttt.State.DRAW
    assert ttt.BOT_PERFECT is ttt.BotLevel.PERFECT
    for status in ttt.Status:
        if status != ttt.OK:
            assert str(ttt._error(ttt._lib, status)) == \
                ttt._lib.ttt_strerror(status).decode()


def test_results_are_enum_members():
    game = ttt.Game()
    state = game.play(1, 1)
    assert state is ttt.State.IN_PROGRESS
    assert game.to_move is ttt.Mark.O
    assert game.cell(1, 1) is ttt.Mark.X
    assert game.board()[1][1] is ttt.Mark.X
    assert game.moves() == [(ttt.Mark.X, 1, 1)]
    for cell in ["a1", "c1", "a2", "c3", "a3"]:
        state = game.play(cell)
    assert state is ttt.State.O_WON  # O: a1 a2 a3
    assert game.to_move is ttt.Mark.EMPTY
    # A finished game is valued for the side that would move next, the loser.
    assert game.solve().value is ttt.Value.LOSS


def public_names():
    for name in ttt.__all__:
        obj = getattr(ttt, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield name, obj
    for name, member in vars(ttt.Game).items():
        if not name.startswith("_") or name in ("__init__", "__str__"):
            yield "Game." + name, member


def test_every_public_name_has_a_docstring_and_type_hints():
    for name, obj in public_names():
        function = obj.fget if isinstance(obj, property) else getattr(obj, "__func__", obj)
        assert inspect.getdoc(function), name + " has no docstring"
        if inspect.isfunction(function):
            typing.get_type_hints(function)  # every annotation resolves
    hints = typing.get_type_hints(ttt.Game.play)
    assert hints["return"] is ttt.State


# -- text, lifetime, legal moves -------------------------------------------


def test_str_names_columns_as_the_library_does():
    game = ttt.Game(30, 5)
    game.play("ab3")
    lines = str(game).splitlines()
    assert lines[0].split() == [ttt.cell_name(0, c)[:-1] for c in range(30)]
    assert lines[3].split()[0] == "3" and lines[3].split()[28] == "X"
    assert len(lines) == 31


def test_repr_and_context_manager():
    with ttt.Game(4, 3, misere=True) as game:
        assert repr(game) == "<ttt.Game 4x4 k=3 ply=0 X to move>"
        game.play("b2")
        assert repr(game) == "<ttt.Game 4x4 k=3 ply=1 O to move>"
    assert game.closed and repr(game) == "<ttt.Game closed>"
    with pytest.raises(ValueError):
        game.legal_moves()


def test_legal_moves():
    game = ttt.Game()
    assert game.legal_moves() == [(r, c) for r in range(3) for c in range(3)]
    for cell in ["a1", "a2", "b1", "b2"]:
        game.play(cell)
    assert game.legal_moves() == [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
    game.play("c1")  # X wins the top row: nothing is legal any more
    assert game.legal_moves() == []
    game.undo()
    assert (0, 2) in game.legal_moves()
    with pytest.raises(ttt.GameOverError):
        game.redo() or game.play(2, 2)


def test_python_name_parsing_matches_the_library():
    names = [ttt.cell_name(r, c) for r in (0, 1, 8, 9, 99, 1023) for c in (0, 25, 26, 701, 702, 1023)]
    names += [n.upper() for n in names] + ["Ab12", "aMj1024"]
    for name in names:
        assert ttt._parse_name(ttt._lib, name) == ttt.parse_cell(name)
    for bad in ["", "a", "1", "a0", "a01", "b2x", "amk1", "a1025", "é1", "a١", " a1", "a1 "]:
        with pytest.raises(ttt.ParseError):
            ttt.parse_cell(bad)
        with pytest.raises(ttt.ParseError):
            ttt._parse_name(ttt._lib, bad)
    game = ttt.Game()
    with pytest.raises(ttt.ParseError) as caught:
        game.play("b2x")
    assert caught.value.offset == 2 and game.ply == 0


# -- python3 -m ttt --------------------------------------------------------


def run_module(args, stdin=""):
    return subprocess.run([sys.executable, "-m", "ttt"] + args, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_module_runs_the_ttt_program():
    result = run_module(["--version"])
    assert (result.returncode, result.stdout) == (0, "1.5.0\n")
    result = run_module(["play", "--x", "human", "--o", "human"],
                        "b2\na1\nc3\na2\nb1\na3\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "result: O won"


def test_module_without_arguments_plays():
    result = run_module([], "b2\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("result: ")


# -- exceptions --------------------------------------------------------------

ERROR_CLASSES = {
    ttt.E_INVALID: ttt.TttError, ttt.E_NOMEM: ttt.TttError, ttt.E_SIZE: ttt.SizeError,
    ttt.E_MARK: ttt.MarkError, ttt.E_OFF_BOARD: ttt.OffBoardError,
    ttt.E_OCCUPIED: ttt.OccupiedError, ttt.E_WRONG_TURN: ttt.WrongTurnError,
    ttt.E_GAME_OVER: ttt.GameOverError, ttt.E_NO_UNDO: ttt.NoUndoError,
    ttt.E_NO_REDO: ttt.NoRedoError, ttt.E_RULE: ttt.RuleError,
    ttt.E_RULES_LOCKED: ttt.RuleError, ttt.E_PARSE: ttt.ParseError,
    ttt.E_BUFFER: ttt.TttError, ttt.E_NO_LINE: ttt.TttError, ttt.E_RANGE: ttt.TttError,
    ttt.E_STALE: ttt.StaleError, ttt.E_BUDGET: ttt.BudgetError,
    ttt.E_OVERFLOW: ttt.TttError, ttt.E_IN_LISTENER: ttt.ListenerError,
    ttt.E_NAME: ttt.PlayerNameError,
    ttt.E_FLOATING: ttt.FloatingError, ttt.E_COLUMN_FULL: ttt.ColumnFullError,
}


def test_every_status_code_has_its_exception_class():
    assert set(ERROR_CLASSES) == set(ttt.Status) - {ttt.OK}
    for code, cls in ERROR_CLASSES.items():
        error = ttt._error(ttt._lib, code)
        assert type(error) is cls and error.code == code
        illegal = code in (ttt.E_MARK, ttt.E_OFF_BOARD, ttt.E_OCCUPIED,
                           ttt.E_WRONG_TURN, ttt.E_GAME_OVER, ttt.E_FLOATING,
                           ttt.E_COLUMN_FULL)
        assert isinstance(error, ttt.IllegalMoveError) == illegal


def test_budget_error_from_a_real_search():
    game = ttt.Game(4)
    with pytest.raises(ttt.BudgetError) as caught:
        game.best_move(ttt.BotLevel.PERFECT, node_budget=1)
    assert caught.value.code == ttt.E_BUDGET and game.ply == 0


def test_malformed_record_reports_its_offset():
    record = "ttt/1 n=3 k=3 rules=classic moves=b2,zz\n"
    with pytest.raises(ttt.ParseError) as caught:
        ttt.Game.load(record)
    # "zz" is a column with no row: the first bad byte is the newline after it.
    assert caught.value.offset == record.index("zz") + 2
    with pytest.raises(ttt.ParseError) as caught:
        ttt.Game.load("ttt/2 n=3 k=3 rules=classic moves=-\n")
    assert caught.value.offset == 4
    with pytest.raises(ttt.OccupiedError) as caught:
        ttt.Game.load("ttt/1 n=3 k=3 rules=classic moves=b2,b2\n")
    assert caught.value.offset == len("ttt/1 n=3 k=3 rules=classic moves=b2,")


# -- players and endings (1.2) -----------------------------------------------

def test_names_resignation_and_record():
    game = ttt.Game()
    game.set_name(ttt.X, "Ana")
    game.set_name(ttt.O, "Bö \"b\" \\")
    with pytest.raises(ttt.PlayerNameError):
        game.set_name(ttt.X, "a\tb")
    with pytest.raises(ttt.PlayerNameError):
        game.set_name(ttt.X, "a" * (ttt.NAME_MAX + 1))
    assert game.name(ttt.X) == "Ana"
    game.play("b2")
    assert game.ending is ttt.Ending.NONE
    assert game.resign(ttt.X) is ttt.State.O_WON
    assert game.ending is ttt.Ending.RESIGN
    with pytest.raises(ttt.GameOverError):
        game.play("a1")
    record = game.save()
    assert record == ('ttt/1 n=3 k=3 rules=classic moves=b2 x="Ana" '
                      'o="Bö \\"b\\" \\\\" end=resign-x\n')
    loaded = ttt.Game.load(record)
    assert loaded.ending is ttt.Ending.RESIGN and loaded.state is ttt.State.O_WON
    assert loaded.name(ttt.O) == 'Bö "b" \\'
    game.undo()
    assert game.state is ttt.State.IN_PROGRESS and game.ply == 1
    assert game.agree_draw() is ttt.State.DRAW
    assert game.ending is ttt.Ending.AGREED


def test_ply_limit_and_ending_events():
    game = ttt.Game(9, 5)
    game.set_rule(ttt.Rule.PLY_LIMIT, 2)
    assert game.get_rule(ttt.Rule.PLY_LIMIT) == 2
    events = []
    game.set_listener(events.append)
    game.play(0, 0)
    assert game.play(8, 8) is ttt.State.DRAW
    assert game.ending is ttt.Ending.PLY_LIMIT
    game.undo()
    game.resign(ttt.O)
    game.undo()
    game.redo()
    kinds = [e.kind for e in events]
    assert kinds == [ttt.EventKind.PLAY, ttt.EventKind.PLAY, ttt.EventKind.UNDO,
                     ttt.EventKind.RESIGN, ttt.EventKind.UNDO_ENDING,
                     ttt.EventKind.REDO_ENDING]
    assert events[3].mark is ttt.Mark.O and events[3].row == -1
    assert events[3].state is ttt.State.X_WON


def test_console_script_runs_the_ttt_program():
    # pip puts the `ttt` console script beside the venv's python.
    script = os.path.join(os.path.dirname(sys.executable), "ttt")
    assert os.access(script, os.X_OK), script
    result = subprocess.run([script, "--version"], capture_output=True,
                            text=True, timeout=120)
    assert (result.returncode, result.stdout) == (0, ttt.__version__ + "\n")
    result = subprocess.run([script, "--help"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == run_module(["--help"]).stdout
    assert "ttt solve SIZE K" in result.stdout


# -- bindings/python/ci.sh ----------------------------------------------------

# ci.sh sets TTT_CI_SCRIPT when it runs this suite; else the source tree's.
CI_SCRIPT = os.environ.get("TTT_CI_SCRIPT") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "ci.sh")


@pytest.mark.parametrize("ci, status", [("", 77), ("true", 1)])
def test_ci_script_skips_without_its_tools_but_fails_under_ci(tmp_path, ci, status):
    # 77 is meson's SKIP: missing tools are reported, never a pass or a
    # failure; where CI installs everything, a missing tool fails.
    env = dict(os.environ, PYTHON=str(tmp_path / "no-such-python3"), CI=ci)
    result = subprocess.run(["bash", CI_SCRIPT, "--no-bench", str(tmp_path / "work")],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == status, result.stdout + result.stderr
    assert "SKIP: no python3 with mesonpy, pytest, venv and pip" in result.stderr
    assert not (tmp_path / "work" / "venv").exists()


# -- the public names docs/python.md lists -----------------------------------

# The source tree's docs/python.md, beside ci.sh's (the suite runs from a copy).
PYTHON_DOC = os.path.join(os.path.dirname(CI_SCRIPT), "..", "..", "docs", "python.md")


def documented_names():
    """The names of docs/python.md's "Public names" list: the package's,
    and Game's (the item that starts with `Game`)."""
    with open(PYTHON_DOC, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Public names\n", 1)[1].split("\n## ", 1)[0]
    package, game = [], []
    for item in re.findall(r"^- (.*?)(?=^- |\Z)", section, re.M | re.S):
        label, _, names = item.partition(": ")
        (game if label.startswith("`Game`") else package).extend(
            re.findall(r"`(\w+)`", names))
    return package, game


def test_public_names_are_the_documented_ones():
    package, game = documented_names()
    assert len(package) == len(set(package)) and len(game) == len(set(game))
    assert sorted(package) == sorted(ttt.__all__)
    assert sorted(game) == sorted(n for n in vars(ttt.Game) if not n.startswith("_"))
    # Beyond __all__, ttt's public names are only what its code imports:
    # modules, typing's names (and the Listener alias), __future__'s feature.
    for name in set(n for n in dir(ttt) if not n.startswith("_")) - set(ttt.__all__):
        value = getattr(ttt, name)
        assert (inspect.ismodule(value) or
                getattr(value, "__module__", None) in ("typing", "__future__")), name
    # Each class and function is ttt's own, wherever inside the package it
    # is defined: pickles, tracebacks and help() name it ttt.NAME.
    for name in ttt.__all__:
        value = getattr(ttt, name)
        if callable(value):
            assert value.__module__ == "ttt", name
            assert value.__qualname__ == name
