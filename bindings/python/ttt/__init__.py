"""ttt - tic-tac-toe (m,n,k) games in Python on libttt, the C library bundled in this package.

    import ttt
    with ttt.Game(3) as game:
        game.play("b2")          # or game.play(1, 1): for the side to move
        game.play(0, 0)
        print(game)              # the board as text
        print(game.solve())      # perfect play from here

    # Connect Four: 7 columns, 6 rows, four in a row, marks drop.
    with ttt.Game(width=7, height=6, k=4, gravity=True) as game:
        row, state = game.drop(3)  # column d: lands on row 5, the bottom

The package loads the libttt.so installed inside it. The LIBTTT_PATH
environment variable, when set, names another libttt shared library (1.3 or
later) to load instead. If neither can be loaded, importing the package
fails with ImportError: there is no silent fallback.

Every Game method is one call into C where the C API has one for it, and
ctypes lets go of the GIL during each call, so threads may share a Game (the
C game has its own lock).
"""

from __future__ import annotations

# The imports the package had when it was one file: ttt's names stay what
# they were, and the annotations of its classes (which name ttt as their
# module, below) resolve in this namespace.
import collections  # noqa: F401
import ctypes  # noqa: F401
import enum  # noqa: F401
import operator  # noqa: F401
import os  # noqa: F401
import re  # noqa: F401
import sys  # noqa: F401
import threading  # noqa: F401
from typing import Callable, List, NamedTuple, Optional, Tuple, Union  # noqa: F401

__version__ = "1.5.0"

__all__ = [
    # types
    "Mark", "State", "BotLevel", "Value", "Rule", "EventKind", "Status",
    "Ending",
    "Game", "Seed", "Event", "Counts", "Solution",
    # errors
    "TttError", "IllegalMoveError", "MarkError", "OffBoardError",
    "OccupiedError", "WrongTurnError", "GameOverError", "NoUndoError",
    "NoRedoError", "SizeError", "RuleError", "StaleError", "BudgetError",
    "ParseError", "PlayerNameError", "FloatingError", "ColumnFullError",
    "ListenerError",
    # functions
    "load_library", "library_path", "has_engine", "version", "cell_name",
    "parse_cell",
    # constants (the values written out in ttt.h)
    "EMPTY", "X", "O", "IN_PROGRESS", "X_WON", "O_WON", "DRAW",
    "RULE_MISERE", "RULE_EARLY_DRAW", "EVENT_PLAY", "EVENT_UNDO",
    "EVENT_REDO", "EVENT_RESET", "VALUE_LOSS", "VALUE_DRAW", "VALUE_WIN",
    "BOT_RANDOM", "BOT_STRONG", "BOT_PERFECT", "SOLVE_VALUE_ONLY", "OK",
    "E_INVALID", "E_NOMEM", "E_SIZE", "E_MARK", "E_OFF_BOARD", "E_OCCUPIED",
    "E_WRONG_TURN", "E_GAME_OVER", "E_NO_UNDO", "E_NO_REDO", "E_RULE",
    "E_RULES_LOCKED", "E_PARSE", "E_BUFFER", "E_NO_LINE", "E_RANGE",
    "E_STALE", "E_BUDGET", "E_OVERFLOW", "MIN_SIZE", "MAX_SIZE",
    "MARK_CHARS", "STATE_NAMES", "ENV_VAR",
    # since 1.2: players and endings
    "E_IN_LISTENER", "E_NAME", "RULE_PLY_LIMIT", "NAME_MAX", "EVENT_RESIGN",
    "EVENT_DRAW_AGREED", "EVENT_UNDO_ENDING", "EVENT_REDO_ENDING",
    "END_NONE", "END_LINE", "END_FULL_BOARD", "END_NO_LINE", "END_RESIGN",
    "END_AGREED", "END_PLY_LIMIT",
    # since 1.3: rectangles and gravity
    "E_FLOATING", "E_COLUMN_FULL", "RULE_GRAVITY",
    # since 1.3: how ttt_solve proved a value
    "Method", "METHOD_SEARCH", "METHOD_PAIRING", "METHOD_THREATS",
]

# The package's modules, by job: _types (the enumerations, constants and
# result tuples), _errors (the exceptions and the argument checks), _library
# (loading libttt and its prototypes), _notation (cell names) and _game (Game
# and Seed). Every public name is ttt's own: import it from ttt.
#
# Every name the one-file module had, the private ones too: tests and
# benchmarks read ttt._lib, pickles name ttt._load_record, and code written
# against that module may import any of them from the package.
from ._types import (  # noqa: F401
    BOT_PERFECT, BOT_RANDOM, BOT_STRONG, DRAW, EMPTY, END_AGREED,
    END_FULL_BOARD, END_LINE, END_NO_LINE, END_NONE, END_PLY_LIMIT,
    END_RESIGN, EVENT_DRAW_AGREED, EVENT_PLAY, EVENT_REDO, EVENT_REDO_ENDING,
    EVENT_RESET, EVENT_RESIGN, EVENT_UNDO, EVENT_UNDO_ENDING, E_BUDGET,
    E_BUFFER, E_COLUMN_FULL, E_FLOATING, E_GAME_OVER, E_IN_LISTENER,
    E_INVALID, E_MARK, E_NAME, E_NO_LINE, E_NO_REDO, E_NO_UNDO, E_NOMEM,
    E_OCCUPIED, E_OFF_BOARD, E_OVERFLOW, E_PARSE, E_RANGE, E_RULE,
    E_RULES_LOCKED, E_SIZE, E_STALE, E_WRONG_TURN, IN_PROGRESS, MARK_CHARS,
    MAX_SIZE, METHOD_PAIRING, METHOD_SEARCH, METHOD_THREATS, MIN_SIZE,
    NAME_MAX, O, O_WON, OK, RULE_EARLY_DRAW, RULE_GRAVITY, RULE_MISERE,
    RULE_PLY_LIMIT, SOLVE_VALUE_ONLY, STATE_NAMES, VALUE_DRAW, VALUE_LOSS,
    VALUE_WIN, X, X_WON, _MARK_OF, _STATE_OF, BotLevel, Counts, Ending, Event,
    EventKind, Mark, Method, Rule, Solution, State, Status, Value)
from ._errors import (  # noqa: F401
    _ERRORS, _INT_MAX, _INT_MIN, BudgetError, ColumnFullError, FloatingError,
    GameOverError, IllegalMoveError, ListenerError, MarkError, NoRedoError,
    NoUndoError, OccupiedError, OffBoardError, ParseError, PlayerNameError,
    RuleError, SizeError, StaleError, TttError, WrongTurnError, _c_int,
    _check, _encode_record, _error, _index, _path, _text, _unsigned)
from ._library import (  # noqa: F401
    _BUNDLED, _LISTENER, _PROTOTYPES, _SIZE_BITS, ENV_VAR, _buf, _char_p,
    _Event, _Game, _GameP, _i32_p, _int, _int_p, _lib, _libraries, _size,
    _size_p, _Solution, _u64, _u64_p, has_engine, library_path, load_library,
    version)
from ._notation import (  # noqa: F401
    _CELL_NAME, _column_letters, _parse_cell, _parse_name, cell_name,
    parse_cell)
from ._game import Game, Listener, Seed, _load_record, _seed_ref  # noqa: F401

# The classes and functions name ttt as their module, as when they were
# defined in this file: pickles (which refer to ttt.Game, ttt._load_record,
# ttt.State, ...) load across versions, and tracebacks and help() print
# ttt.OccupiedError, not the module inside that holds it.
for _obj in [globals()[_name] for _name in __all__] + [_load_record]:
    if callable(_obj):
        _obj.__module__ = __name__
del _obj


def __getattr__(name: str):
    """ttt.VectorEnv (ttt/vector.py) and ttt.Env (ttt/env.py) load on first
    use: they need numpy, which `import ttt` alone does not."""
    if name == "VectorEnv":
        from .vector import VectorEnv
        return VectorEnv
    if name == "Env":
        from .env import Env
        return Env
    raise AttributeError("module 'ttt' has no attribute %r" % (name,))
