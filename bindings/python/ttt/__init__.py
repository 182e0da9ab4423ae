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

import collections
import ctypes
import enum
import operator
import os
import re
import sys
import threading
from typing import Callable, List, NamedTuple, Optional, Tuple, Union

__version__ = "1.4.0"

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

# ---------------------------------------------------------------------------
# Enumerations: IntEnum, so each member equals its C value.


class Mark(enum.IntEnum):
    """What a cell holds and who moves: TTT_EMPTY, TTT_X, TTT_O."""

    EMPTY = 0
    X = 1
    O = -1  # noqa: E741 (the mark's name)


class State(enum.IntEnum):
    """A game's state: TTT_IN_PROGRESS .. TTT_DRAW."""

    IN_PROGRESS = 0
    X_WON = 1
    O_WON = 2
    DRAW = 3


class BotLevel(enum.IntEnum):
    """Bot levels for Game.best_move: TTT_BOT_*."""

    RANDOM = 0
    STRONG = 1
    PERFECT = 2


class Value(enum.IntEnum):
    """A solved position's value for the player to move: TTT_VALUE_*."""

    LOSS = -1
    DRAW = 0
    WIN = 1


class Method(enum.IntEnum):
    """How Game.solve proved the value (since 1.3): TTT_METHOD_*."""

    SEARCH = 0    # the search (or the rules, for a finished game)
    PAIRING = 1   # a pairing strategy for each side: a draw, no search
    THREATS = 2   # a VCF (a line of fours, each reply forced): a win


class Rule(enum.IntEnum):
    """Rules for Game.set_rule and Game.get_rule: TTT_RULE_*."""

    MISERE = 1
    EARLY_DRAW = 2
    PLY_LIMIT = 3  # a count of moves, 0 for none (since 1.2)
    GRAVITY = 4  # marks drop to the lowest empty cell of a column (since 1.3)


class EventKind(enum.IntEnum):
    """What a listener is told about: TTT_EVENT_*."""

    PLAY = 1
    UNDO = 2
    REDO = 3
    RESET = 4
    # Since 1.2; row and col are -1 for these.
    RESIGN = 5        # mark: the side that resigned
    DRAW_AGREED = 6   # mark: EMPTY
    UNDO_ENDING = 7   # mark: who had resigned, EMPTY for an agreement
    REDO_ENDING = 8


class Ending(enum.IntEnum):
    """How a game ended (Game.ending): TTT_END_* (since 1.2)."""

    NONE = 0        # still in progress
    LINE = 1        # a completed line
    FULL_BOARD = 2  # every cell filled without a line
    NO_LINE = 3     # early draw: no line can be completed
    RESIGN = 4      # a side resigned (the loser in Game.state)
    AGREED = 5      # a draw by agreement
    PLY_LIMIT = 6   # drawn at the ply limit


class Status(enum.IntEnum):
    """libttt status codes: TTT_OK and the negative TTT_E_* errors."""

    OK = 0
    E_INVALID = -1
    E_NOMEM = -2
    E_SIZE = -3
    E_MARK = -4
    E_OFF_BOARD = -5
    E_OCCUPIED = -6
    E_WRONG_TURN = -7
    E_GAME_OVER = -8
    E_NO_UNDO = -9
    E_NO_REDO = -10
    E_RULE = -11
    E_RULES_LOCKED = -12
    E_PARSE = -13
    E_BUFFER = -14
    E_NO_LINE = -15
    E_RANGE = -16
    E_STALE = -17
    E_BUDGET = -18
    E_OVERFLOW = -19
    E_IN_LISTENER = -20  # since 1.2
    E_NAME = -21  # since 1.2
    E_FLOATING = -22  # since 1.3: gravity, not the lowest empty cell
    E_COLUMN_FULL = -23  # since 1.3: gravity, the column has no empty cell


# The same values under the names of the first binding (and of ttt.h).
EMPTY, X, O = Mark.EMPTY, Mark.X, Mark.O
IN_PROGRESS, X_WON, O_WON, DRAW = (State.IN_PROGRESS, State.X_WON,
                                   State.O_WON, State.DRAW)
RULE_MISERE, RULE_EARLY_DRAW = Rule.MISERE, Rule.EARLY_DRAW
EVENT_PLAY, EVENT_UNDO, EVENT_REDO, EVENT_RESET = (
    EventKind.PLAY, EventKind.UNDO, EventKind.REDO, EventKind.RESET)
VALUE_LOSS, VALUE_DRAW, VALUE_WIN = Value.LOSS, Value.DRAW, Value.WIN
BOT_RANDOM, BOT_STRONG, BOT_PERFECT = (BotLevel.RANDOM, BotLevel.STRONG,
                                       BotLevel.PERFECT)
METHOD_SEARCH, METHOD_PAIRING, METHOD_THREATS = (
    Method.SEARCH, Method.PAIRING, Method.THREATS)
SOLVE_VALUE_ONLY = 1
MIN_SIZE, MAX_SIZE = 3, 1024
OK = Status.OK
(E_INVALID, E_NOMEM, E_SIZE, E_MARK, E_OFF_BOARD, E_OCCUPIED, E_WRONG_TURN,
 E_GAME_OVER, E_NO_UNDO, E_NO_REDO, E_RULE, E_RULES_LOCKED, E_PARSE,
 E_BUFFER, E_NO_LINE, E_RANGE, E_STALE, E_BUDGET, E_OVERFLOW) = list(Status)[1:20]
E_IN_LISTENER, E_NAME = Status.E_IN_LISTENER, Status.E_NAME
E_FLOATING, E_COLUMN_FULL = Status.E_FLOATING, Status.E_COLUMN_FULL
RULE_GRAVITY = Rule.GRAVITY
RULE_PLY_LIMIT = Rule.PLY_LIMIT
NAME_MAX = 64
EVENT_RESIGN, EVENT_DRAW_AGREED, EVENT_UNDO_ENDING, EVENT_REDO_ENDING = (
    EventKind.RESIGN, EventKind.DRAW_AGREED, EventKind.UNDO_ENDING,
    EventKind.REDO_ENDING)
(END_NONE, END_LINE, END_FULL_BOARD, END_NO_LINE, END_RESIGN, END_AGREED,
 END_PLY_LIMIT) = list(Ending)

MARK_CHARS = {EMPTY: ".", X: "X", O: "O"}
STATE_NAMES = {IN_PROGRESS: "in progress", X_WON: "X won", O_WON: "O won",
               DRAW: "draw"}

# Lookups by C value that cost a tuple index, not an enum call (the move
# path): index -1 is the last entry, so _MARK_OF[-1] is O.
_MARK_OF = (Mark.EMPTY, Mark.X, Mark.O)
_STATE_OF = tuple(State)

_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1

# ---------------------------------------------------------------------------
# Result types


class Event(NamedTuple):
    """A change a listener is told about (struct ttt_event)."""

    kind: EventKind
    mark: Mark   # the mark placed (PLAY, REDO) or removed (UNDO); EMPTY for RESET
    row: int     # the cell, or -1 for RESET
    col: int
    ply: int     # moves on the board after the event
    state: State  # the game state after the event


class Counts(NamedTuple):
    """Games or positions by the state they end in (perft, random_playouts)."""

    in_progress: int
    x_won: int
    o_won: int
    draw: int


class Solution(NamedTuple):
    """Game.solve's result. complete is False when the node budget ran out:
    then value_min <= value <= value_max bounds the true value, plies is -1
    and best holds at most one move."""

    value: int
    plies: int
    nodes: int
    value_min: int
    value_max: int
    best: List[Tuple[int, int]]
    complete: bool
    method: "Method" = Method.SEARCH  # how the value was proven (1.3)


# ---------------------------------------------------------------------------
# Errors


class TttError(Exception):
    """A libttt status code: .code is the TTT_E_* value, str() its message,
    .offset the byte offset of a load or parse failure (else None)."""

    code: Optional[int] = None

    def __init__(self, code: int, message: str, offset: Optional[int] = None):
        super().__init__(message)
        self.code = code
        self.offset = offset

    def __repr__(self) -> str:
        return "%s(%d, %r)" % (type(self).__name__, self.code, str(self))


class IllegalMoveError(TttError):
    """A move the rules refuse; the game is unchanged."""


class MarkError(IllegalMoveError):
    """TTT_E_MARK: the mark is neither X nor O."""


class OffBoardError(IllegalMoveError):
    """TTT_E_OFF_BOARD: the row or column is outside the board."""


class OccupiedError(IllegalMoveError):
    """TTT_E_OCCUPIED: the cell already holds a mark."""


class WrongTurnError(IllegalMoveError):
    """TTT_E_WRONG_TURN: it is the other player's turn."""


class GameOverError(IllegalMoveError):
    """TTT_E_GAME_OVER: the game has ended; undo to reopen it."""


class NoUndoError(TttError):
    """TTT_E_NO_UNDO: there is no move to undo."""


class NoRedoError(TttError):
    """TTT_E_NO_REDO: there is no undone move to redo."""


class SizeError(TttError):
    """TTT_E_SIZE: board size or win length out of range."""


class RuleError(TttError):
    """TTT_E_RULE or TTT_E_RULES_LOCKED."""


class StaleError(TttError):
    """TTT_E_STALE: play_at for another ply, or another move at that ply."""


class BudgetError(TttError):
    """TTT_E_BUDGET: a search ran out of its node budget."""


class ParseError(TttError):
    """TTT_E_PARSE: a malformed record or cell name (see .offset)."""


class PlayerNameError(TttError):
    """TTT_E_NAME: a player name longer than NAME_MAX bytes of UTF-8, or
    with control characters."""


class FloatingError(IllegalMoveError):
    """TTT_E_FLOATING: under gravity, the cell is not the lowest empty one
    of its column (since 1.3)."""


class ColumnFullError(IllegalMoveError):
    """TTT_E_COLUMN_FULL: drop into a column with no empty cell (since 1.3)."""


class ListenerError(TttError):
    """TTT_E_IN_LISTENER: a listener tried to change, or close, its own
    game; the game is unchanged."""


_ERRORS = {
    E_MARK: MarkError,
    E_OFF_BOARD: OffBoardError,
    E_OCCUPIED: OccupiedError,
    E_WRONG_TURN: WrongTurnError,
    E_GAME_OVER: GameOverError,
    E_NO_UNDO: NoUndoError,
    E_NO_REDO: NoRedoError,
    E_SIZE: SizeError,
    E_RULE: RuleError,
    E_RULES_LOCKED: RuleError,
    E_STALE: StaleError,
    E_BUDGET: BudgetError,
    E_PARSE: ParseError,
    E_NAME: PlayerNameError,
    E_FLOATING: FloatingError,
    E_COLUMN_FULL: ColumnFullError,
    E_IN_LISTENER: ListenerError,
}


def _error(lib, status: int, offset: Optional[int] = None) -> TttError:
    """The TttError (subclass) for a status code."""
    message = lib.ttt_strerror(status).decode("utf-8", "replace")
    return _ERRORS.get(status, TttError)(status, message, offset)


def _check(lib, status: int, offset: Optional[int] = None) -> int:
    """Returns status if it is not an error, else raises the matching TttError."""
    if status >= 0:
        return status
    raise _error(lib, status, offset)


def _index(value, what: str) -> int:
    """An int argument: an int or an int-like object (operator.index), never
    a bool or a float (TypeError)."""
    if isinstance(value, bool):
        raise TypeError("%s must be an int, not bool" % what)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an int, not %s"
                        % (what, type(value).__name__)) from None


def _c_int(value, what: str = "argument") -> int:
    """An int argument clamped into C int range (ctypes would silently wrap
    it; the library refuses the clamped value as it would the real one)."""
    return max(_INT_MIN, min(_INT_MAX, _index(value, what)))


def _unsigned(value, bits: int, what: str) -> int:
    """A count for a uint64_t or size_t: ValueError if negative,
    OverflowError if it does not fit in bits (never wrapped)."""
    number = _index(value, what)
    if number < 0:
        raise ValueError("%s must not be negative" % what)
    if number >> bits:
        raise OverflowError("%s must be below 2**%d" % (what, bits))
    return number


def _text(value, what: str) -> str:
    """A str argument (TypeError for bytes, None and the rest)."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    return value


def _encode_record(lib, text: str) -> bytes:
    """UTF-8 of a record or cell name; a lone surrogate is a ParseError at
    its byte offset, as any other byte the library cannot read."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _error(lib, E_PARSE, len(text[:e.start].encode("utf-8"))) from None


def _path(value, what: str) -> str:
    """A file path argument: str or os.PathLike."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError("%s must be a str or a path, not %s"
                        % (what, type(value).__name__))
    return os.fsdecode(os.fspath(value))


# ---------------------------------------------------------------------------
# The C declarations


class _Game(ctypes.Structure):
    """struct ttt_game: opaque, only ever used through a pointer."""


class _Event(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("mark", ctypes.c_int32),
                ("row", ctypes.c_int32), ("col", ctypes.c_int32),
                ("ply", ctypes.c_int32), ("state", ctypes.c_int32)]


class _Solution(ctypes.Structure):
    """struct ttt_solution: size must be set to sizeof before the call."""
    _fields_ = [("size", ctypes.c_size_t), ("value", ctypes.c_int32),
                ("plies", ctypes.c_int32), ("nodes", ctypes.c_uint64),
                ("value_min", ctypes.c_int32), ("value_max", ctypes.c_int32),
                ("method", ctypes.c_int32), ("reserved", ctypes.c_int32)]


_GameP = ctypes.POINTER(_Game)
_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Event))

_int, _size, _char_p = ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p
_int_p = ctypes.POINTER(ctypes.c_int)
_size_p = ctypes.POINTER(ctypes.c_size_t)
_buf = ctypes.POINTER(ctypes.c_char)  # a writable char buffer
_u64, _u64_p = ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)
_i32_p = ctypes.POINTER(ctypes.c_int32)
_SIZE_BITS = 8 * ctypes.sizeof(ctypes.c_size_t)

# name: (restype, argtypes). Every one is required: a library without one of
# them (older than 1.3) is refused when it is loaded. The constructors that
# take an allocator or caller memory are C-only: a Game's memory is malloc's.
_PROTOTYPES = {
    "ttt_version": (_int, []),
    "ttt_version_string": (_char_p, []),
    "ttt_strerror": (_char_p, [_int]),
    "ttt_game_new": (_int, [_int, _int, ctypes.POINTER(_GameP)]),
    "ttt_game_free": (None, [_GameP]),
    "ttt_game_footprint": (_size, [_int, _int]),
    "ttt_game_new_rect": (_int, [_int, _int, _int, ctypes.POINTER(_GameP)]),
    "ttt_game_footprint_rect": (_size, [_int, _int, _int]),
    "ttt_game_clone": (_int, [_GameP, ctypes.POINTER(_GameP)]),
    "ttt_game_reset": (_int, [_GameP]),
    "ttt_game_set_rule": (_int, [_GameP, _int, _int]),
    "ttt_game_get_rule": (_int, [_GameP, _int, _int_p]),
    "ttt_play": (_int, [_GameP, _int, _int, _int, _int_p]),
    "ttt_play_next": (_int, [_GameP, _int, _int, _int_p]),
    "ttt_play_at": (_int, [_GameP, _int, _int, _int, _int, _int_p]),
    "ttt_undo": (_int, [_GameP]),
    "ttt_redo": (_int, [_GameP]),
    "ttt_drop": (_int, [_GameP, _int, _int_p, _int_p]),
    "ttt_game_set_name": (_int, [_GameP, _int, _char_p, _size]),
    "ttt_game_get_name": (_int, [_GameP, _int, _buf, _size, _size_p]),
    "ttt_resign": (_int, [_GameP, _int, _int_p]),
    "ttt_agree_draw": (_int, [_GameP, _int_p]),
    "ttt_ending": (_int, [_GameP]),
    "ttt_state": (_int, [_GameP]),
    "ttt_size": (_int, [_GameP]),
    "ttt_width": (_int, [_GameP]),
    "ttt_height": (_int, [_GameP]),
    "ttt_win_length": (_int, [_GameP]),
    "ttt_ply": (_int, [_GameP]),
    "ttt_redo_count": (_int, [_GameP]),
    "ttt_to_move": (_int, [_GameP]),
    "ttt_cell": (_int, [_GameP, _int, _int, _int_p]),
    "ttt_move_at": (_int, [_GameP, _int, _int_p, _int_p, _int_p]),
    "ttt_winning_line": (_int, [_GameP, _int_p, _int_p, _int_p, _int_p]),
    "ttt_board": (_int, [_GameP, ctypes.POINTER(ctypes.c_int8), _size, _size_p]),
    "ttt_legal_moves": (_int, [_GameP, _i32_p, _size, _size_p]),
    "ttt_set_listener": (_int, [_GameP, _LISTENER, ctypes.c_void_p]),
    "ttt_cell_name": (_int, [_int, _int, _buf, _size, _size_p]),
    "ttt_parse_cell": (_int, [_char_p, _size, _int_p, _int_p, _size_p]),
    "ttt_game_save": (_int, [_GameP, _buf, _size, _size_p]),
    "ttt_game_load": (_int, [_char_p, _size, ctypes.c_void_p,
                             ctypes.POINTER(_GameP), _size_p]),
    "ttt_random_move": (_int, [_GameP, _u64_p, _int_p, _int_p]),
    "ttt_random_playout": (_int, [_GameP, _u64_p, _int_p]),
    "ttt_random_playouts": (_int, [_GameP, _u64_p, _u64, _u64_p]),
    "ttt_perft": (_int, [_GameP, _int, _size, _u64_p, _u64_p, _size, _size_p]),
    "ttt_count_positions": (_int, [_GameP, _int, _size, _u64_p]),
    "ttt_solve": (_int, [_GameP, _u64, _size, _int, ctypes.POINTER(_Solution),
                         _i32_p, _size, _size_p]),
    "ttt_best_move": (_int, [_GameP, _int, _u64, _u64_p, _int_p, _int_p]),
}

ENV_VAR = "LIBTTT_PATH"
# The library pip installed next to this file.
_BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libttt.so")

_libraries = {}


def library_path() -> str:
    """The library the package loads: $LIBTTT_PATH if set, else its own copy."""
    return os.environ.get(ENV_VAR) or _BUNDLED


def load_library(path: Optional[str] = None) -> ctypes.CDLL:
    """Loads libttt (cached per path) and declares every function's types.

    path defaults to library_path(). Raises OSError, naming the path, if the
    library cannot be loaded or lacks a function this package calls."""
    path = library_path() if path is None else _path(path, "path")
    lib = _libraries.get(path)
    if lib is not None:
        return lib
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise OSError("libttt could not be loaded from %s (%s)" % (path, e)) from e
    missing = [name for name in _PROTOTYPES if not hasattr(lib, name)]
    if missing:
        raise OSError("%s is not libttt 1.3 or later: it lacks %s"
                      % (path, ", ".join(missing)))
    for name, (restype, argtypes) in _PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    _libraries[path] = lib
    return lib


# The library is loaded when the package is imported, so a missing or wrong
# one is an ImportError at once, never a skipped test or a late surprise.
try:
    _lib = load_library()
except OSError as _e:
    raise ImportError(
        "ttt: %s. The package's own libttt.so is missing: reinstall it "
        "(python3 -m pip install --no-build-isolation .), or set %s to a "
        "libttt shared library." % (_e, ENV_VAR)) from _e


def has_engine(lib_path: Optional[str] = None) -> bool:
    """True if the library has the engine (solve, best_move, perft, ...);
    always so for the 1.3 libraries this package loads."""
    return hasattr(load_library(lib_path), "ttt_solve")


def version(lib_path: Optional[str] = None) -> str:
    """The loaded library's version string, e.g. "1.4.0"."""
    return load_library(lib_path).ttt_version_string().decode()


def cell_name(row: int, col: int, lib_path: Optional[str] = None) -> str:
    """(1, 1) -> "b2"."""
    lib = load_library(lib_path)
    buf = ctypes.create_string_buffer(16)
    length = ctypes.c_size_t()
    _check(lib, lib.ttt_cell_name(_c_int(row, "row"), _c_int(col, "col"), buf, len(buf),
                                  ctypes.byref(length)))
    return buf.value.decode()


def parse_cell(name: str, lib_path: Optional[str] = None) -> Tuple[int, int]:
    """"b2" -> (1, 1). The whole string must be one cell name (ParseError
    with .offset otherwise)."""
    return _parse_cell(load_library(lib_path), name)


def _parse_cell(lib, name: str) -> Tuple[int, int]:
    data = _encode_record(lib, _text(name, "a cell name"))
    row, col, used = ctypes.c_int(), ctypes.c_int(), ctypes.c_size_t()
    status = lib.ttt_parse_cell(data, len(data), ctypes.byref(row),
                                ctypes.byref(col), ctypes.byref(used))
    _check(lib, status, 0)
    if used.value != len(data):
        raise _error(lib, E_PARSE, used.value)
    return row.value, col.value


# Cell names as ttt_parse_cell reads them: column letters (bijective base
# 26, either case) then a 1-based row without leading zeros.
_CELL_NAME = re.compile(r"([a-zA-Z]{1,3})([1-9][0-9]{0,3})\Z")


def _parse_name(lib, name: str) -> Tuple[int, int]:
    """parse_cell without a foreign call for well-formed names; anything
    else goes to ttt_parse_cell for its exact error and offset."""
    match = _CELL_NAME.match(_text(name, "a cell name"))
    if match:
        col = 0
        for letter in match.group(1).lower():
            col = col * 26 + ord(letter) - 96
        row = int(match.group(2))
        if col <= MAX_SIZE and row <= MAX_SIZE:
            return row - 1, col - 1
    return _parse_cell(lib, name)


def _column_letters(col: int) -> str:
    """The letters of a column's name: 0 -> "a", 26 -> "aa"."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(97 + rest) + letters
    return letters


class Seed:
    """A caller-owned 64-bit random seed; the engine advances it in place."""

    __slots__ = ("_c",)

    def __init__(self, value: int = 0):
        self._c = ctypes.c_uint64(_unsigned(value, 64, "a seed"))

    @property
    def value(self) -> int:
        """The seed's current value."""
        return self._c.value

    def __repr__(self) -> str:
        return "Seed(%d)" % self.value


def _seed_ref(seed: Optional[Seed], optional: bool = False):
    if seed is None and optional:
        return None
    if not isinstance(seed, Seed):
        raise TypeError("seed must be a ttt.Seed, not %s" % type(seed).__name__)
    return ctypes.byref(seed._c)


Listener = Callable[[Event], None]


def _load_record(cls, record: str) -> "Game":
    """Unpickles a Game: cls.load(record)."""
    return cls.load(record)

# ---------------------------------------------------------------------------
# Games


class Game:
    """One game: Game(size=3, win_length=0, misere=False, early_draw=False),
    or on a rectangle Game(width=7, height=6, k=4, gravity=True).

    A board is size x size, or width columns wide and height rows high when
    either is given (the other defaults to size); k is another name for
    win_length. win_length 0 means the shorter side (full rows, columns and
    diagonals on a square). gravity=True sets Rule.GRAVITY: a mark drops to
    the lowest empty cell of its column (row height - 1 is the bottom).
    Methods raise TttError subclasses and, like the C calls, a call that
    raises changes nothing. Use it as a context manager or call close(); the
    game is also freed when garbage collected. Any number of threads may
    call one Game at once, except close().

    Arguments are checked the same way everywhere: an int argument takes an
    int or an int-like object (operator.index), never a bool or a float
    (TypeError); text takes a str, a record str or bytes, a library path a
    str or os.PathLike (TypeError otherwise). A count or budget for a 64-bit
    or size_t parameter is a ValueError when negative and an OverflowError
    when too large, never wrapped. copy.copy and copy.deepcopy are clone();
    pickle carries the saved record (names, rules, ending and moves).
    """

    __slots__ = ("_lib", "_handle", "_width", "_height", "_win_length",
                 "_listener", "_old_listeners", "_listening", "_play_next",
                 "_drop", "_undo", "__weakref__")

    def __init__(self, size: int = 3, win_length: int = 0, misere: bool = False,
                 early_draw: bool = False, lib_path: Optional[str] = None, *,
                 width: Optional[int] = None, height: Optional[int] = None,
                 k: Optional[int] = None, gravity: bool = False):
        self._handle = None  # so close() and __del__ work on a half-built game
        size, win_length = _c_int(size, "size"), _c_int(win_length, "win_length")
        if k is not None:
            k = _c_int(k, "k")
            if win_length not in (0, k):
                raise TypeError("give win_length or k, not both")
            win_length = k
        lib = _lib if lib_path is None else load_library(lib_path)
        handle = _GameP()
        if width is None and height is None:
            status = lib.ttt_game_new(size, win_length, ctypes.byref(handle))
        else:
            status = lib.ttt_game_new_rect(
                size if width is None else _c_int(width, "width"),
                size if height is None else _c_int(height, "height"),
                win_length, ctypes.byref(handle))
        _check(lib, status)
        self._adopt(lib, handle)
        if misere:
            self.set_rule(RULE_MISERE, 1)
        if early_draw:
            self.set_rule(RULE_EARLY_DRAW, 1)
        if gravity:
            self.set_rule(RULE_GRAVITY, 1)

    def _adopt(self, lib, handle) -> None:
        """Takes ownership of a C game; its shape and win length never
        change, so they are read once here."""
        self._lib = lib
        self._handle = handle
        self._width = lib.ttt_width(handle)
        self._height = lib.ttt_height(handle)
        self._win_length = lib.ttt_win_length(handle)
        self._listener = None
        self._old_listeners = []
        # The threads inside this game's listener (close() refuses them).
        self._listening = []
        # The move path's functions, one attribute lookup away, as private
        # function objects without argtypes: ctypes then converts ints and
        # pointers directly, without a from_param call per argument, which
        # is most of a ctypes call's cost. play() checks its arguments first.
        self._play_next = lib["ttt_play_next"]
        self._drop = lib["ttt_drop"]
        self._undo = lib["ttt_undo"]

    @classmethod
    def _from_handle(cls, lib, handle) -> "Game":
        game = cls.__new__(cls)
        game._adopt(lib, handle)
        return game

    # -- lifetime --

    def close(self) -> None:
        """Frees the game; safe to call more than once. It must not race
        with other calls on the same game. Called by the game's own
        listener, it raises ListenerError and the game stays open."""
        if threading.get_ident() in getattr(self, "_listening", ()):
            raise ListenerError(
                E_IN_LISTENER, "a listener cannot close its own game: close "
                "it after the call that ran the listener returns")
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.ttt_game_free(handle)
        # Only now, with the C game gone, may the callbacks it held go.
        self._listener = None
        self._old_listeners = []

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return not self._handle

    def _h(self):
        if not self._handle:
            raise ValueError("operation on a closed game")
        return self._handle

    def _fail(self, status: int, offset: Optional[int] = None) -> TttError:
        """The exception for a failed call (a closed game's NULL handle is
        why a call returns TTT_E_INVALID on the fast paths)."""
        if not self._handle:
            return ValueError("operation on a closed game")  # type: ignore
        return _error(self._lib, status, offset)

    def clone(self) -> "Game":
        """An independent copy (board, rules, history, redo stack; no listener)."""
        out = _GameP()
        _check(self._lib, self._lib.ttt_game_clone(self._h(), ctypes.byref(out)))
        return type(self)._from_handle(self._lib, out)

    # copy.copy and copy.deepcopy clone the C game (each copy owns its own);
    # pickle carries the saved record (names, rules, ending, moves).
    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo) -> "Game":
        return self.clone()

    def __reduce__(self):
        return (_load_record, (type(self), self.save()))

    @classmethod
    def load(cls, record: Union[str, bytes], lib_path: Optional[str] = None) -> "Game":
        """A game from a saved record (str or bytes); a ParseError (or the
        refused move's error) has .offset, the byte where the record is wrong."""
        lib = _lib if lib_path is None else load_library(lib_path)
        if isinstance(record, str):
            data = _encode_record(lib, record)
        elif isinstance(record, (bytes, bytearray, memoryview)):
            data = bytes(record)
        else:
            raise TypeError("a record must be a str or bytes, not %s"
                            % type(record).__name__)
        out, offset = _GameP(), ctypes.c_size_t()
        status = lib.ttt_game_load(data, len(data), None, ctypes.byref(out),
                                   ctypes.byref(offset))
        _check(lib, status, offset.value)
        return cls._from_handle(lib, out)

    def save(self) -> str:
        """The game's one-line record, e.g. "ttt/1 n=3 k=3 rules=classic moves=b2\\n"."""
        capacity = 512
        length = ctypes.c_size_t()
        while True:
            buf = ctypes.create_string_buffer(capacity)
            status = self._lib.ttt_game_save(self._h(), buf, capacity,
                                             ctypes.byref(length))
            if status != E_BUFFER:
                _check(self._lib, status)
                return buf.raw[:length.value].decode()
            # Too small: *len says how much; room to spare in case moves
            # land before the next try.
            capacity = length.value + 64

    # -- rules --

    def set_rule(self, rule: int, value: int) -> None:
        """Sets a Rule (only before the first move)."""
        _check(self._lib, self._lib.ttt_game_set_rule(
            self._h(), _c_int(rule, "rule"), _c_int(value, "value")))

    def get_rule(self, rule: int) -> int:
        """A Rule's value (0 or 1; a count of moves for Rule.PLY_LIMIT)."""
        value = ctypes.c_int()
        _check(self._lib, self._lib.ttt_game_get_rule(
            self._h(), _c_int(rule, "rule"), ctypes.byref(value)))
        return value.value

    # -- playing --

    def play(self, row: Union[int, str], col: Optional[int] = None,
             mark: Optional[int] = None) -> State:
        """Plays at (row, col) or at a cell name ("b2") for the side to move,
        or for mark if given (WrongTurnError if it is not that side's turn).
        Under gravity only the lowest empty cell of a column is legal
        (FloatingError otherwise; drop(col) plays by column). Returns the
        new State."""
        if (mark is None and row.__class__ is int and col.__class__ is int
                and -0x80000000 <= row <= 0x7FFFFFFF
                and -0x80000000 <= col <= 0x7FFFFFFF):
            # The move path: one foreign call, with plain ints in C int range
            # (the untyped call would wrap others). A state per call, as
            # threads may share the game.
            state = ctypes.c_int()
            status = self._play_next(self._handle, row, col, ctypes.byref(state))
            if status:
                raise self._fail(status)
            return _STATE_OF[state.value]
        if isinstance(row, str):
            if col is not None:
                raise TypeError("play(name) takes no column")
            row, col = _parse_name(self._lib, row)
        if col is None:
            raise TypeError("play() needs a column or a cell name")
        state = ctypes.c_int()
        if mark is None:
            status = self._lib.ttt_play_next(
                self._h(), _c_int(row, "row"), _c_int(col, "col"),
                ctypes.byref(state))
        else:
            status = self._lib.ttt_play(
                self._h(), _c_int(mark, "mark"), _c_int(row, "row"),
                _c_int(col, "col"), ctypes.byref(state))
        _check(self._lib, status)
        return _STATE_OF[state.value]

    def play_at(self, ply: int, row: int, col: int, mark: int) -> State:
        """ttt_play_at: plays only if the game is at ply; a retried identical
        request is accepted and changes nothing. Returns the State."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_play_at(
            self._h(), _c_int(ply, "ply"), _c_int(mark, "mark"),
            _c_int(row, "row"), _c_int(col, "col"), ctypes.byref(state)))
        return _STATE_OF[state.value]

    def undo(self) -> None:
        """Takes back the last move (also after a win or a draw)."""
        status = self._undo(self._handle)
        if status:
            raise self._fail(status)

    def redo(self) -> None:
        """Replays the most recently undone move."""
        _check(self._lib, self._lib.ttt_redo(self._h()))

    def drop(self, col: int) -> Tuple[int, State]:
        """Drops a mark for the side to move into column col: it lands on
        the lowest empty cell (row height - 1 is the bottom), with gravity
        or without. Returns (row, State). OffBoardError for a bad column,
        ColumnFullError for a full one, GameOverError once the game ended."""
        row, state = ctypes.c_int(), ctypes.c_int()
        if col.__class__ is int and -0x80000000 <= col <= 0x7FFFFFFF:
            # The move path, as in play(): one untyped foreign call.
            status = self._drop(self._handle, col, ctypes.byref(row),
                                ctypes.byref(state))
            if status:
                raise self._fail(status)
        else:
            _check(self._lib, self._lib.ttt_drop(self._h(), _c_int(col, "col"),
                                                 ctypes.byref(row),
                                                 ctypes.byref(state)))
        return row.value, _STATE_OF[state.value]

    def reset(self) -> None:
        """Empties the board, the history and the redo stack; keeps the rules
        and the player names."""
        _check(self._lib, self._lib.ttt_game_reset(self._h()))

    # -- players and endings (since 1.2) --

    def set_name(self, mark: int, name: str) -> None:
        """Names side mark (X or O): at most NAME_MAX bytes of UTF-8 without
        control characters (else PlayerNameError); "" removes the name. Kept
        by clone, reset and the saved record."""
        handle, mark = self._h(), _c_int(mark, "mark")
        try:
            data = _text(name, "a name").encode("utf-8")
        except UnicodeEncodeError:
            raise _error(self._lib, E_NAME) from None
        _check(self._lib, self._lib.ttt_game_set_name(handle, mark, data,
                                                      len(data)))

    def name(self, mark: int) -> str:
        """The name of side mark, "" if it has none."""
        buf = ctypes.create_string_buffer(NAME_MAX + 1)
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_game_get_name(
            self._h(), _c_int(mark, "mark"), buf, NAME_MAX + 1,
            ctypes.byref(length)))
        return buf.raw[:length.value].decode("utf-8")

    def resign(self, mark: int) -> State:
        """Side mark resigns, whoever is to move: the other side wins.
        Returns the State; GameOverError if the game has ended. Not a move:
        undo() takes the resignation back alone."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_resign(self._h(), _c_int(mark, "mark"),
                                               ctypes.byref(state)))
        return _STATE_OF[state.value]

    def agree_draw(self) -> State:
        """Both sides agree to a draw (State.DRAW); GameOverError if the game
        has ended. undo() takes the agreement back."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_agree_draw(self._h(), ctypes.byref(state)))
        return _STATE_OF[state.value]

    @property
    def ending(self) -> Ending:
        """How the game ended: an Ending (Ending.NONE while in progress)."""
        return Ending(_check(self._lib, self._lib.ttt_ending(self._h())))

    # -- reading --

    @property
    def state(self) -> State:
        """The game's State."""
        return _STATE_OF[_check(self._lib, self._lib.ttt_state(self._h()))]

    @property
    def to_move(self) -> Mark:
        """X or O, or EMPTY once the game is over."""
        return _MARK_OF[self._lib.ttt_to_move(self._h())]

    @property
    def size(self) -> int:
        """N, the side of a square board; SizeError on a rectangle (read
        width and height)."""
        if self._width != self._height:
            raise _error(self._lib, E_SIZE)
        return self._width

    @property
    def width(self) -> int:
        """The number of columns."""
        return self._width

    @property
    def height(self) -> int:
        """The number of rows."""
        return self._height

    @property
    def gravity(self) -> bool:
        """True under Rule.GRAVITY."""
        return self.get_rule(RULE_GRAVITY) != 0

    @property
    def win_length(self) -> int:
        """K, the marks in a row that win."""
        return self._win_length

    @property
    def ply(self) -> int:
        """The number of moves on the board."""
        return _check(self._lib, self._lib.ttt_ply(self._h()))

    @property
    def redo_count(self) -> int:
        """The number of undone moves redo() can replay."""
        return _check(self._lib, self._lib.ttt_redo_count(self._h()))

    def cell(self, row: int, col: int) -> Mark:
        """The Mark at (row, col)."""
        mark = ctypes.c_int()
        _check(self._lib, self._lib.ttt_cell(
            self._h(), _c_int(row, "row"), _c_int(col, "col"), ctypes.byref(mark)))
        return _MARK_OF[mark.value]

    def board(self) -> Tuple[Tuple[Mark, ...], ...]:
        """The board as a tuple of height row tuples of width Marks, read in
        one call."""
        w, h = self._width, self._height
        cells = (ctypes.c_int8 * (w * h))()
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_board(self._h(), cells, w * h,
                                              ctypes.byref(length)))
        marks = [_MARK_OF[v] for v in cells]
        return tuple(tuple(marks[r * w:(r + 1) * w]) for r in range(h))

    def legal_moves(self) -> List[Tuple[int, int]]:
        """The cells (row, col) the side to move may play, in row order:
        every empty cell (under gravity, the landing cell of each column that
        is not full), or none once the game is over. One call."""
        w = self._width
        capacity = w * self._height
        cells = (ctypes.c_int32 * capacity)()
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_legal_moves(self._h(), cells, capacity,
                                                    ctypes.byref(length)))
        return [divmod(cell, w) for cell in cells[:length.value]]

    def moves(self) -> List[Tuple[Mark, int, int]]:
        """The history as a list of (mark, row, col), first move first (one
        ttt_move_at call a move)."""
        handle = self._h()
        mark, row, col = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        refs = ctypes.byref(mark), ctypes.byref(row), ctypes.byref(col)
        result = []
        for ply in range(_check(self._lib, self._lib.ttt_ply(handle))):
            status = self._lib.ttt_move_at(handle, ply, *refs)
            if status == E_RANGE:
                break  # another thread took moves back meanwhile
            _check(self._lib, status)
            result.append((_MARK_OF[mark.value], row.value, col.value))
        return result

    def winning_line(self) -> Optional[Tuple[Tuple[int, int], Tuple[int, int]]]:
        """((row0, col0), (row1, col1)), the line that ended the game, or None."""
        ends = [ctypes.c_int() for _ in range(4)]
        status = self._lib.ttt_winning_line(self._h(), *map(ctypes.byref, ends))
        if status == E_NO_LINE:
            return None
        _check(self._lib, status)
        return (ends[0].value, ends[1].value), (ends[2].value, ends[3].value)

    # -- engine: random player, perft, solver and bots --

    def random_move(self, seed: Seed) -> Tuple[int, int]:
        """A uniformly random empty cell (row, col); seed (a Seed) advances."""
        row, col = ctypes.c_int(), ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_move(
            self._h(), _seed_ref(seed), ctypes.byref(row), ctypes.byref(col)))
        return row.value, col.value

    def random_playout(self, seed: Seed) -> State:
        """Plays random moves to the end of the game; returns the final State."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_playout(
            self._h(), _seed_ref(seed), ctypes.byref(state)))
        return _STATE_OF[state.value]

    def random_playouts(self, seed: Seed, games: int) -> Counts:
        """Plays that many random games from here, each the one random_playout
        would play on a clone (seed, a Seed, carries through). Returns the
        Counts of how they ended; the game is unchanged. One call: the count
        is the caller's time budget."""
        games = _unsigned(games, 64, "games")
        counts = (ctypes.c_uint64 * 4)()
        _check(self._lib, self._lib.ttt_random_playouts(
            self._h(), _seed_ref(seed), games, counts))
        return Counts(*counts)

    def perft(self, depth: int, table_bytes: int = 0) -> Tuple[Counts, List[int]]:
        """Counts every game from here to its end or depth plies.
        Returns (Counts, by_length): by_length[i] counts games of i plies."""
        depth = _c_int(depth, "depth")
        table_bytes = _unsigned(table_bytes, _SIZE_BITS, "table_bytes")
        counts = (ctypes.c_uint64 * 4)()
        capacity = min(max(depth, 0), self._width * self._height) + 1
        by_length = (ctypes.c_uint64 * capacity)()
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_perft(
            self._h(), depth, table_bytes, counts, by_length, capacity,
            ctypes.byref(length)))
        return Counts(*counts), list(by_length[:length.value])

    def count_positions(self, depth: int, table_bytes: int = 0) -> Counts:
        """Counts the distinct positions within depth plies, by state."""
        counts = (ctypes.c_uint64 * 4)()
        _check(self._lib, self._lib.ttt_count_positions(
            self._h(), _c_int(depth, "depth"),
            _unsigned(table_bytes, _SIZE_BITS, "table_bytes"), counts))
        return Counts(*counts)

    def solve(self, node_budget: int = 0, table_bytes: int = 0,
              value_only: bool = False) -> Solution:
        """Solves the position for the player to move: a Solution. If the
        budget runs out, the Solution has complete=False (no exception)."""
        node_budget = _unsigned(node_budget, 64, "node_budget")
        table_bytes = _unsigned(table_bytes, _SIZE_BITS, "table_bytes")
        out = _Solution(size=ctypes.sizeof(_Solution))
        w = self._width
        capacity = w * self._height
        best = (ctypes.c_int32 * capacity)()
        best_len = ctypes.c_size_t()
        status = self._lib.ttt_solve(
            self._h(), node_budget, table_bytes,
            SOLVE_VALUE_ONLY if value_only else 0, ctypes.byref(out), best,
            capacity, ctypes.byref(best_len))
        if status != E_BUDGET:
            _check(self._lib, status)
        return Solution(Value(out.value), out.plies, out.nodes, out.value_min,
                        out.value_max,
                        [divmod(cell, w) for cell in best[:best_len.value]],
                        status == OK, Method(out.method))

    def best_move(self, level: int = BOT_STRONG, node_budget: int = 0,
                  seed: Optional[Seed] = None) -> Tuple[int, int]:
        """The bot's move (row, col) for the player to move; does not play it.
        level is a BotLevel; seed (a Seed) breaks ties and is required for
        BotLevel.RANDOM."""
        row, col = ctypes.c_int(), ctypes.c_int()
        _check(self._lib, self._lib.ttt_best_move(
            self._h(), _c_int(level, "level"),
            _unsigned(node_budget, 64, "node_budget"), _seed_ref(seed, True),
            ctypes.byref(row), ctypes.byref(col)))
        return row.value, col.value

    # -- events --

    def set_listener(self, callback: Optional[Listener]) -> None:
        """callback(event: Event) after every applied play, undo, redo and
        reset, in the thread that made the change; None removes it. It may
        read the game but must not change it. An exception it raises cannot
        cross the C library: it is reported through sys.unraisablehook
        (printed to stderr by default) and the game stays as the change left
        it."""
        h = self._h()
        if callback is None:
            _check(self._lib, self._lib.ttt_set_listener(h, _LISTENER(), None))
        else:
            if not callable(callback):
                raise TypeError("a listener must be callable or None")
            # The list, not the game: a closure over self would be a cycle
            # that keeps the game from being freed when it is dropped.
            listening = self._listening

            def trampoline(user, event):
                e = event.contents
                me = threading.get_ident()
                listening.append(me)
                try:
                    callback(Event(EventKind(e.kind), _MARK_OF[e.mark], e.row,
                                   e.col, e.ply, _STATE_OF[e.state]))
                finally:
                    listening.remove(me)

            function = _LISTENER(trampoline)
            _check(self._lib, self._lib.ttt_set_listener(h, function, None))
        if self._listener is not None:
            # Another thread may still be inside the old callback: keep its
            # C thunk alive until the game is freed.
            self._old_listeners.append(self._listener)
        self._listener = None if callback is None else function

    # -- display --

    def __str__(self) -> str:
        """The board as text: column letters, then one numbered line per row."""
        letters = [_column_letters(c) for c in range(self._width)]
        width = max(len(s) for s in letters)
        label = len(str(self._height))
        lines = [" " * label + "  " + " ".join(s.rjust(width) for s in letters)]
        for r, row in enumerate(self.board()):
            marks = " ".join(MARK_CHARS[m].rjust(width) for m in row)
            lines.append(str(r + 1).rjust(label) + "  " + marks)
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.closed:
            return "<ttt.Game closed>"
        state, ply = self.state, self.ply
        status = ("%s to move" % ("X" if ply % 2 == 0 else "O")
                  if state == IN_PROGRESS else STATE_NAMES[state])
        return "<ttt.Game %dx%d k=%d ply=%d %s>" % (
            self._width, self._height, self._win_length, ply, status)



def __getattr__(name: str):
    """ttt.VectorEnv and ttt.Env (ttt/env.py) load on first use: they need
    numpy, which `import ttt` alone does not."""
    if name in ("VectorEnv", "Env"):
        from . import env
        return getattr(env, name)
    raise AttributeError("module 'ttt' has no attribute %r" % (name,))
