"""ttt.py - a ctypes binding for libttt: no compile step, only the shared library.

    import ttt
    with ttt.Game(3) as game:
        game.play("b2")          # or game.play(1, 1)
        game.play(0, 0)
        print(game)

The library is looked up in this order: the path passed to Game() or
load_library(), the LIBTTT_PATH environment variable, then
ctypes.util.find_library("ttt").
"""

import collections
import ctypes
import ctypes.util
import os

# Marks, states, rules and events: the values written out in ttt.h.
EMPTY, X, O = 0, 1, -1
IN_PROGRESS, X_WON, O_WON, DRAW = 0, 1, 2, 3
RULE_MISERE, RULE_EARLY_DRAW = 1, 2
EVENT_PLAY, EVENT_UNDO, EVENT_REDO, EVENT_RESET = 1, 2, 3, 4
VALUE_LOSS, VALUE_DRAW, VALUE_WIN = -1, 0, 1
BOT_RANDOM, BOT_STRONG, BOT_PERFECT = 0, 1, 2
SOLVE_VALUE_ONLY = 1

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

_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1

MARK_CHARS = {EMPTY: ".", X: "X", O: "O"}
STATE_NAMES = {IN_PROGRESS: "in progress", X_WON: "X won", O_WON: "O won",
               DRAW: "draw"}

Event = collections.namedtuple("Event", "kind mark row col ply state")
# Games or positions by the state they end in (perft, count_positions).
Counts = collections.namedtuple("Counts", "in_progress x_won o_won draw")
# ttt_solve's result; best is a list of (row, col). complete is False when
# the node budget ran out: then value_min <= value <= value_max bounds the
# true value, plies is -1 and best holds at most one move.
Solution = collections.namedtuple(
    "Solution", "value plies nodes value_min value_max best complete")


# ---------------------------------------------------------------------------
# Errors


class TttError(Exception):
    """A libttt status code: .code is the TTT_E_* value, str() its message."""

    code = None

    def __init__(self, code, message, offset=None):
        super().__init__(message)
        self.code = code
        self.offset = offset  # byte offset of a load failure, else None

    def __repr__(self):
        return "%s(%d, %r)" % (type(self).__name__, self.code, str(self))


class IllegalMoveError(TttError):
    """A move the rules refuse; the game is unchanged."""


class MarkError(IllegalMoveError):
    """TTT_E_MARK: the mark is neither X nor O."""


class OffBoardError(IllegalMoveError):
    """TTT_E_OFF_BOARD."""


class OccupiedError(IllegalMoveError):
    """TTT_E_OCCUPIED."""


class WrongTurnError(IllegalMoveError):
    """TTT_E_WRONG_TURN."""


class GameOverError(IllegalMoveError):
    """TTT_E_GAME_OVER: undo to reopen the game."""


class NoUndoError(TttError):
    """TTT_E_NO_UNDO."""


class NoRedoError(TttError):
    """TTT_E_NO_REDO."""


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
}


def _check(lib, status, offset=None):
    """Returns status if it is not an error, else raises the matching TttError."""
    if status >= 0:
        return status
    message = lib.ttt_strerror(status).decode("utf-8", "replace")
    raise _ERRORS.get(status, TttError)(status, message, offset)


def _c_int(value):
    """Clamps a Python int into C int range (ctypes would silently wrap it)."""
    return max(_INT_MIN, min(_INT_MAX, int(value)))


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
                ("value_min", ctypes.c_int32), ("value_max", ctypes.c_int32)]


_GameP = ctypes.POINTER(_Game)
_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Event))

_int, _size, _char_p = ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p
_int_p = ctypes.POINTER(ctypes.c_int)
_size_p = ctypes.POINTER(ctypes.c_size_t)
_buf = ctypes.POINTER(ctypes.c_char)  # a writable char buffer
_u64, _u64_p = ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)

# name: (restype, argtypes)
_PROTOTYPES = {
    "ttt_version": (_int, []),
    "ttt_version_string": (_char_p, []),
    "ttt_strerror": (_char_p, [_int]),
    "ttt_game_new": (_int, [_int, _int, ctypes.POINTER(_GameP)]),
    "ttt_game_free": (None, [_GameP]),
    "ttt_game_clone": (_int, [_GameP, ctypes.POINTER(_GameP)]),
    "ttt_game_reset": (_int, [_GameP]),
    "ttt_game_set_rule": (_int, [_GameP, _int, _int]),
    "ttt_game_get_rule": (_int, [_GameP, _int, _int_p]),
    "ttt_play": (_int, [_GameP, _int, _int, _int, _int_p]),
    "ttt_play_at": (_int, [_GameP, _int, _int, _int, _int, _int_p]),
    "ttt_undo": (_int, [_GameP]),
    "ttt_redo": (_int, [_GameP]),
    "ttt_state": (_int, [_GameP]),
    "ttt_size": (_int, [_GameP]),
    "ttt_win_length": (_int, [_GameP]),
    "ttt_ply": (_int, [_GameP]),
    "ttt_redo_count": (_int, [_GameP]),
    "ttt_to_move": (_int, [_GameP]),
    "ttt_cell": (_int, [_GameP, _int, _int, _int_p]),
    "ttt_move_at": (_int, [_GameP, _int, _int_p, _int_p, _int_p]),
    "ttt_winning_line": (_int, [_GameP, _int_p, _int_p, _int_p, _int_p]),
    "ttt_board": (_int, [_GameP, ctypes.POINTER(ctypes.c_int8), _size, _size_p]),
    "ttt_set_listener": (_int, [_GameP, _LISTENER, ctypes.c_void_p]),
    "ttt_cell_name": (_int, [_int, _int, _buf, _size, _size_p]),
    "ttt_parse_cell": (_int, [_char_p, _size, _int_p, _int_p, _size_p]),
    "ttt_game_save": (_int, [_GameP, _buf, _size, _size_p]),
    "ttt_game_load": (_int, [_char_p, _size, ctypes.c_void_p,
                             ctypes.POINTER(_GameP), _size_p]),
}

# The engine: declared only where the library has it (see has_engine).
_ENGINE_PROTOTYPES = {
    "ttt_random_move": (_int, [_GameP, _u64_p, _int_p, _int_p]),
    "ttt_random_playout": (_int, [_GameP, _u64_p, _int_p]),
    "ttt_perft": (_int, [_GameP, _int, _size, _u64_p, _u64_p, _size, _size_p]),
    "ttt_count_positions": (_int, [_GameP, _int, _size, _u64_p]),
    "ttt_solve": (_int, [_GameP, _u64, _size, _int, ctypes.POINTER(_Solution),
                         ctypes.POINTER(ctypes.c_int32), _size, _size_p]),
    "ttt_best_move": (_int, [_GameP, _int, _u64, _u64_p, _int_p, _int_p]),
}

# Added in 1.1: declared only where the library has it, so a 1.0 library loads.
_PROTOTYPES_1_1 = {
    "ttt_random_playouts": (_int, [_GameP, _u64_p, _u64, _u64_p]),
}

_libraries = {}


def load_library(path=None):
    """Loads libttt (cached per path) and declares every function's types."""
    path = path or os.environ.get("LIBTTT_PATH") or ctypes.util.find_library("ttt")
    if not path:
        raise OSError("libttt not found: set LIBTTT_PATH to the shared library")
    lib = _libraries.get(path)
    if lib is None:
        lib = ctypes.CDLL(path)
        prototypes = dict(_PROTOTYPES)
        if hasattr(lib, "ttt_solve"):
            prototypes.update(_ENGINE_PROTOTYPES)
        if hasattr(lib, "ttt_random_playouts"):
            prototypes.update(_PROTOTYPES_1_1)
        for name, (restype, argtypes) in prototypes.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        _libraries[path] = lib
    return lib


def has_engine(lib_path=None):
    """True if the library has the engine (solve, best_move, perft, ...)."""
    return hasattr(load_library(lib_path), "ttt_solve")


def version(lib_path=None):
    """The linked library's version string, e.g. "1.0.0"."""
    return load_library(lib_path).ttt_version_string().decode()


def cell_name(row, col, lib_path=None):
    """(1, 1) -> "b2"."""
    return _cell_name(load_library(lib_path), row, col)


def parse_cell(name, lib_path=None):
    """"b2" -> (1, 1). The whole string must be one cell name."""
    return _parse_cell(load_library(lib_path), name)


def _cell_name(lib, row, col):
    buf = ctypes.create_string_buffer(16)
    length = ctypes.c_size_t()
    _check(lib, lib.ttt_cell_name(_c_int(row), _c_int(col), buf, len(buf),
                                  ctypes.byref(length)))
    return buf.value.decode()


def _parse_cell(lib, name):
    data = name.encode()
    row, col, used = ctypes.c_int(), ctypes.c_int(), ctypes.c_size_t()
    _check(lib, lib.ttt_parse_cell(data, len(data), ctypes.byref(row),
                                   ctypes.byref(col), ctypes.byref(used)))
    if used.value != len(data):
        _check(lib, E_PARSE, used.value)
    return row.value, col.value


class Seed:
    """A caller-owned 64-bit random seed; the engine advances it in place."""

    def __init__(self, value=0):
        self._c = ctypes.c_uint64(value % 2 ** 64)

    @property
    def value(self):
        return self._c.value

    def __repr__(self):
        return "Seed(%d)" % self.value


def _seed_ref(seed):
    return None if seed is None else ctypes.byref(seed._c)


# ---------------------------------------------------------------------------
# Games


class Game:
    """One game: Game(size=3, win_length=0, misere=False, early_draw=False).

    Methods raise TttError subclasses and, like the C calls, a call that
    raises changes nothing. Use it as a context manager or call close();
    the game is also freed when garbage collected.
    """

    _handle = None  # so close() and __del__ work on a half-built object
    _listener = None

    def __init__(self, size=3, win_length=0, misere=False, early_draw=False,
                 lib_path=None):
        self._lib = load_library(lib_path)
        handle = _GameP()
        _check(self._lib, self._lib.ttt_game_new(_c_int(size), _c_int(win_length),
                                                 ctypes.byref(handle)))
        self._handle = handle
        if misere:
            self.set_rule(RULE_MISERE, 1)
        if early_draw:
            self.set_rule(RULE_EARLY_DRAW, 1)

    # -- lifetime --

    def close(self):
        """Frees the game; safe to call more than once."""
        handle, self._handle = self._handle, None
        if handle:
            self._lib.ttt_game_free(handle)
        self._listener = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def closed(self):
        return not self._handle

    def _h(self):
        if not self._handle:
            raise ValueError("operation on a closed game")
        return self._handle

    def clone(self):
        """An independent copy (board, rules, history, redo stack; no listener)."""
        out = _GameP()
        _check(self._lib, self._lib.ttt_game_clone(self._h(), ctypes.byref(out)))
        return type(self)._from_handle(self._lib, out)

    @classmethod
    def _from_handle(cls, lib, handle):
        game = cls.__new__(cls)
        game._lib = lib
        game._handle = handle
        return game

    @classmethod
    def load(cls, record, lib_path=None):
        """A game from a saved record (str or bytes); ParseError has .offset."""
        lib = load_library(lib_path)
        data = record.encode() if isinstance(record, str) else bytes(record)
        out, offset = _GameP(), ctypes.c_size_t()
        status = lib.ttt_game_load(data, len(data), None, ctypes.byref(out),
                                   ctypes.byref(offset))
        _check(lib, status, offset.value)
        return cls._from_handle(lib, out)

    def save(self):
        """The game's one-line record, e.g. "ttt/1 n=3 k=3 rules=classic moves=b2\\n"."""
        length = ctypes.c_size_t()
        while True:
            buf = ctypes.create_string_buffer(length.value + 1)
            status = self._lib.ttt_game_save(self._h(), buf, len(buf),
                                             ctypes.byref(length))
            if status != E_BUFFER:  # else: a move landed in between; retry
                _check(self._lib, status)
                return buf.value.decode()

    # -- rules --

    def set_rule(self, rule, value):
        _check(self._lib, self._lib.ttt_game_set_rule(self._h(), _c_int(rule),
                                                      _c_int(value)))

    def get_rule(self, rule):
        value = ctypes.c_int()
        _check(self._lib, self._lib.ttt_game_get_rule(self._h(), _c_int(rule),
                                                      ctypes.byref(value)))
        return value.value

    # -- playing --

    def play(self, row, col=None, mark=None):
        """Plays at (row, col) or at a cell name ("b2"); mark defaults to the
        side to move. Returns the new state."""
        if isinstance(row, str):
            if col is not None:
                raise TypeError("play(name) takes no column")
            row, col = _parse_cell(self._lib, row)
        if mark is None:
            mark = self.to_move
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_play(self._h(), _c_int(mark), _c_int(row),
                                             _c_int(col), ctypes.byref(state)))
        return state.value

    def play_at(self, ply, row, col, mark):
        """ttt_play_at: plays only if the game is at ply; a retried identical
        request is accepted and changes nothing. Returns the state."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_play_at(
            self._h(), _c_int(ply), _c_int(mark), _c_int(row), _c_int(col),
            ctypes.byref(state)))
        return state.value

    def undo(self):
        _check(self._lib, self._lib.ttt_undo(self._h()))

    def redo(self):
        _check(self._lib, self._lib.ttt_redo(self._h()))

    def reset(self):
        _check(self._lib, self._lib.ttt_game_reset(self._h()))

    # -- reading --

    @property
    def state(self):
        return _check(self._lib, self._lib.ttt_state(self._h()))

    @property
    def to_move(self):
        """X or O, or EMPTY once the game is over."""
        return self._lib.ttt_to_move(self._h())

    @property
    def size(self):
        return _check(self._lib, self._lib.ttt_size(self._h()))

    @property
    def win_length(self):
        return _check(self._lib, self._lib.ttt_win_length(self._h()))

    @property
    def ply(self):
        return _check(self._lib, self._lib.ttt_ply(self._h()))

    @property
    def redo_count(self):
        return _check(self._lib, self._lib.ttt_redo_count(self._h()))

    def cell(self, row, col):
        mark = ctypes.c_int()
        _check(self._lib, self._lib.ttt_cell(self._h(), _c_int(row), _c_int(col),
                                             ctypes.byref(mark)))
        return mark.value

    def board(self):
        """The board as a tuple of row tuples of marks, read in one call."""
        n = self.size
        cells = (ctypes.c_int8 * (n * n))()
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_board(self._h(), cells, len(cells),
                                              ctypes.byref(length)))
        return tuple(tuple(cells[r * n:(r + 1) * n]) for r in range(n))

    def moves(self):
        """The history as a list of (mark, row, col), first move first."""
        result = []
        mark, row, col = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        for ply in range(self.ply):
            _check(self._lib, self._lib.ttt_move_at(
                self._h(), ply, ctypes.byref(mark), ctypes.byref(row),
                ctypes.byref(col)))
            result.append((mark.value, row.value, col.value))
        return result

    def winning_line(self):
        """((row0, col0), (row1, col1)), the line that ended the game, or None."""
        ends = [ctypes.c_int() for _ in range(4)]
        status = self._lib.ttt_winning_line(self._h(), *map(ctypes.byref, ends))
        if status == E_NO_LINE:
            return None
        _check(self._lib, status)
        return (ends[0].value, ends[1].value), (ends[2].value, ends[3].value)

    # -- engine: random player, perft, solver and bots --

    def random_move(self, seed):
        """A uniformly random empty cell (row, col); seed (a Seed) advances."""
        row, col = ctypes.c_int(), ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_move(
            self._h(), _seed_ref(seed), ctypes.byref(row), ctypes.byref(col)))
        return row.value, col.value

    def random_playout(self, seed):
        """Plays random moves to the end of the game; returns the final state."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_playout(
            self._h(), _seed_ref(seed), ctypes.byref(state)))
        return state.value

    def random_playouts(self, seed, games):
        """Plays that many random games from here, each the one random_playout
        would play on a clone (seed, a Seed, carries through). Returns the
        Counts of how they ended; the game is unchanged."""
        counts = (ctypes.c_uint64 * 4)()
        _check(self._lib, self._lib.ttt_random_playouts(
            self._h(), _seed_ref(seed), games, counts))
        return Counts(*counts)

    def perft(self, depth, table_bytes=0):
        """Counts every game from here to its end or depth plies.
        Returns (Counts, by_length): by_length[i] counts games of i plies."""
        counts = (ctypes.c_uint64 * 4)()
        capacity = min(max(depth, 0), self.size ** 2) + 1
        by_length = (ctypes.c_uint64 * capacity)()
        length = ctypes.c_size_t()
        _check(self._lib, self._lib.ttt_perft(
            self._h(), _c_int(depth), table_bytes, counts, by_length, capacity,
            ctypes.byref(length)))
        return Counts(*counts), list(by_length[:length.value])

    def count_positions(self, depth, table_bytes=0):
        """Counts the distinct positions within depth plies, by state."""
        counts = (ctypes.c_uint64 * 4)()
        _check(self._lib, self._lib.ttt_count_positions(
            self._h(), _c_int(depth), table_bytes, counts))
        return Counts(*counts)

    def solve(self, node_budget=0, table_bytes=0, value_only=False):
        """Solves the position for the player to move: a Solution. If the
        budget runs out, the Solution has complete=False (no exception)."""
        out = _Solution(size=ctypes.sizeof(_Solution))
        best = (ctypes.c_int32 * (self.size ** 2))()
        best_len = ctypes.c_size_t()
        status = self._lib.ttt_solve(
            self._h(), node_budget, table_bytes,
            SOLVE_VALUE_ONLY if value_only else 0, ctypes.byref(out), best,
            len(best), ctypes.byref(best_len))
        if status != E_BUDGET:
            _check(self._lib, status)
        n = self.size
        return Solution(out.value, out.plies, out.nodes, out.value_min,
                        out.value_max,
                        [divmod(cell, n) for cell in best[:best_len.value]],
                        status == OK)

    def best_move(self, level=BOT_STRONG, node_budget=0, seed=None):
        """The bot's move (row, col) for the player to move; does not play it.
        seed (a Seed) breaks ties and is required for BOT_RANDOM."""
        row, col = ctypes.c_int(), ctypes.c_int()
        _check(self._lib, self._lib.ttt_best_move(
            self._h(), _c_int(level), node_budget, _seed_ref(seed),
            ctypes.byref(row), ctypes.byref(col)))
        return row.value, col.value

    # -- events --

    def set_listener(self, callback):
        """callback(event: Event) after every applied play, undo, redo and
        reset; None removes it. It may read the game but must not change it.
        Exceptions it raises are printed and ignored (they cannot cross C)."""
        if callback is None:
            _check(self._lib, self._lib.ttt_set_listener(self._h(), _LISTENER(), None))
            self._listener = None
            return

        def trampoline(user, event):
            e = event.contents
            callback(Event(e.kind, e.mark, e.row, e.col, e.ply, e.state))

        function = _LISTENER(trampoline)
        _check(self._lib, self._lib.ttt_set_listener(self._h(), function, None))
        self._listener = function  # C keeps only the pointer: keep it alive

    # -- display --

    def __str__(self):
        n = self.size
        letters = [_cell_name(self._lib, 0, c)[:-1] for c in range(n)]
        width = max(len(s) for s in letters)
        label = len(str(n))
        lines = [" " * label + "  " + " ".join(s.rjust(width) for s in letters)]
        for r, row in enumerate(self.board()):
            marks = " ".join(MARK_CHARS[m].rjust(width) for m in row)
            lines.append(str(r + 1).rjust(label) + "  " + marks)
        return "\n".join(lines)

    def __repr__(self):
        if self.closed:
            return "<ttt.Game closed>"
        state = self.state
        status = ("%s to move" % MARK_CHARS[self.to_move]
                  if state == IN_PROGRESS else STATE_NAMES[state])
        return "<ttt.Game %dx%d k=%d ply=%d %s>" % (
            self.size, self.size, self.win_length, self.ply, status)
