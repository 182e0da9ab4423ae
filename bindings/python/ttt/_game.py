"""_game.py - the Game class (one C game: moves, records, rules, engine, listener) and the Seed it draws random moves from."""

from __future__ import annotations

import ctypes
import threading
from typing import Callable, List, Optional, Tuple, Union

from ._errors import (ListenerError, TttError, _c_int, _check, _encode_record,
                      _error, _text, _unsigned)
from ._library import (_LISTENER, _SIZE_BITS, _GameP, _lib, _Solution,
                       load_library)
from ._notation import (_COLUMN_NAME, _column_letters, _parse_column,
                        _parse_name)
from ._types import (BOT_STRONG, E_BUDGET, E_BUFFER, E_COLUMN_FULL,
                     E_FLOATING, E_GAME_OVER, E_IN_LISTENER, E_INVALID, E_MARK,
                     E_NAME, E_NO_LINE, E_NO_REDO, E_NO_UNDO, E_OCCUPIED, E_OFF_BOARD, E_PARSE,
                     E_RANGE, E_RULE, E_RULES_LOCKED, E_SIZE, E_STALE,
                     E_WRONG_TURN, IN_PROGRESS, MARK_CHARS, MAX_SIZE, MIN_SIZE,
                     BotLevel,
                     NAME_MAX, OK, RULE_EARLY_DRAW, RULE_GRAVITY, RULE_MISERE,
                     SOLVE_VALUE_ONLY, STATE_NAMES, _MARK_OF, _STATE_OF, Counts,
                     Ending, Event, EventKind, Mark, Method, Solution, State,
                     Value)


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

    # A copy is a new Seed with the same value: two Seeds never share the
    # C integer the engine advances.
    def __copy__(self) -> "Seed":
        return Seed(self.value)

    def __deepcopy__(self, memo) -> "Seed":
        return Seed(self.value)

    def __reduce__(self):
        return (Seed, (self.value,))


def _seed_ref(seed: Union[Seed, int, None], optional: bool = False):
    """A Seed's C integer, which the call advances; an int seed is a fresh
    Seed(value) for this call alone (pass a Seed to carry it on)."""
    if seed is None and optional:
        return None
    if not isinstance(seed, Seed):
        if seed is None or isinstance(seed, (str, bytes, float)):
            raise TypeError("seed must be an int or a ttt.Seed, not %s"
                            % type(seed).__name__)
        seed = Seed(seed)
    return ctypes.byref(seed._c)


class WinningLine(tuple):
    """Game.winning_line: ((row0, col0), (row1, col1)), the line that ended
    the game, or an empty (false) tuple when there is none. Calling it, as
    the method it was before 1.5, gives the same line, or None."""

    __slots__ = ()

    def __call__(self):
        return self if self else None


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
        if status == E_SIZE:
            w = size if width is None else width
            h = size if height is None else height
            raise _error(lib, status, None, (
                "%dx%d, k=%d (need %d <= width, height <= %d, and k = 0 for "
                "the shorter side or %d <= k <= the longer side)"
                % (w, h, win_length, MIN_SIZE, MAX_SIZE, MIN_SIZE)))
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

    def _fail(self, status: int, row: Optional[int] = None,
              col: Optional[int] = None, mark: Optional[int] = None) -> TttError:
        """The exception for a failed move at (row, col), or into column col
        (row None), with what was wrong and what is allowed (a closed game's
        NULL handle is why a call returns TTT_E_INVALID on the fast paths)."""
        if not self._handle:
            return ValueError("operation on a closed game")  # type: ignore
        w, h = self._width, self._height
        if row is None and col is not None:
            where = "column %s (%d)" % (_column_letters(col), col) if 0 <= col < w \
                else "column %d" % col
        elif row is not None and 0 <= row < h and 0 <= col < w:
            where = "%s (row %d, column %d)" % (
                _column_letters(col) + str(row + 1), row, col)
        else:
            where = "row %s, column %s" % (row, col)
        detail = None
        if status == E_OFF_BOARD:
            detail = ("%s is not on this %dx%d board: rows 0..%d, columns "
                      "0..%d (names a1..%s%d)" % (
                          where, w, h, h - 1, w - 1, _column_letters(w - 1), h))
        elif status == E_OCCUPIED:
            detail = "%s already holds %s" % (
                where, MARK_CHARS[self.cell(row, col)])
        elif status == E_FLOATING:
            detail = ("%s; under gravity play a column: drop(%d) or play(%r)"
                      % (where, col, _column_letters(col)))
        elif status == E_COLUMN_FULL:
            detail = "%s; the open columns are %s" % (
                where, ", ".join(_column_letters(c) for c in sorted(
                    {c for _, c in self.legal_moves()})) or "none")
        elif status == E_GAME_OVER:
            detail = "the game has ended (%s); undo() reopens it" % (
                STATE_NAMES[self.state],)
        elif status == E_WRONG_TURN:
            detail = "%s is to move, not %s" % (
                MARK_CHARS[self.to_move], MARK_CHARS.get(mark, mark))
        elif status == E_MARK:
            detail = "a mark is X (1) or O (-1), not %r" % (mark,)
        elif status == E_NO_UNDO:
            detail = "the board is empty (a resignation or agreed draw is undone too)"
        elif status == E_NO_REDO:
            detail = "redo() replays a move undo() took back, before any new move"
        return _error(self._lib, status, None, detail)

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
        handle = self._h()
        rule, value = _c_int(rule, "rule"), _c_int(value, "value")
        status = self._lib.ttt_game_set_rule(handle, rule, value)
        if status == E_RULE:
            raise _error(self._lib, status, None, (
                "rule %d, value %d (a Rule: MISERE 1, EARLY_DRAW 2 and "
                "GRAVITY 4 take 0 or 1, PLY_LIMIT 3 a count of moves, 0 for "
                "none)"
                % (rule, value)))
        if status == E_RULES_LOCKED:
            raise _error(self._lib, status, None,
                         "%d moves are on the board; reset() first" % self.ply)
        _check(self._lib, status)

    def get_rule(self, rule: int) -> int:
        """A Rule's value (0 or 1; a count of moves for Rule.PLY_LIMIT)."""
        value = ctypes.c_int()
        handle, rule = self._h(), _c_int(rule, "rule")
        _check(self._lib, self._lib.ttt_game_get_rule(
            handle, rule, ctypes.byref(value)), None, (
                "rule %d (a Rule: MISERE 1, EARLY_DRAW 2, PLY_LIMIT 3, "
                "GRAVITY 4)" % rule))
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
                raise self._fail(status, row, col)
            return _STATE_OF[state.value]
        if isinstance(row, str):
            if col is not None:
                raise TypeError("play(name) takes no column")
            if _COLUMN_NAME.match(row):
                # A column alone: the move under gravity (as the CLI takes it).
                if mark is None and self.gravity:
                    return self.drop(row)[1]
                raise _error(self._lib, E_PARSE, 0, (
                    "%r is a column, not a cell: name a cell, e.g. %s1; a "
                    "column alone is a move only under gravity (drop())"
                    % (row, row.lower())))
            row, col = _parse_name(self._lib, row)
        if col is None:
            raise TypeError("play() needs a row and a column, or a cell name "
                            "such as \"b2\"; drop(col) plays by column")
        state = ctypes.c_int()
        handle = self._h()
        row, col = _c_int(row, "row"), _c_int(col, "col")
        if mark is None:
            status = self._lib.ttt_play_next(handle, row, col,
                                             ctypes.byref(state))
        else:
            mark = _c_int(mark, "mark")
            status = self._lib.ttt_play(handle, mark, row, col,
                                        ctypes.byref(state))
        if status:
            raise self._fail(status, row, col, mark)
        return _STATE_OF[state.value]

    def play_at(self, ply: int, row: int, col: int, mark: int) -> State:
        """ttt_play_at: plays only if the game is at ply; a retried identical
        request is accepted and changes nothing. Returns the State."""
        state = ctypes.c_int()
        handle = self._h()
        ply, mark = _c_int(ply, "ply"), _c_int(mark, "mark")
        row, col = _c_int(row, "row"), _c_int(col, "col")
        status = self._lib.ttt_play_at(handle, ply, mark, row, col,
                                       ctypes.byref(state))
        if status == E_STALE:
            raise _error(self._lib, status, None, (
                "the request is for ply %d, the game is at ply %d" % (ply, self.ply)))
        if status:
            raise self._fail(status, row, col, mark)
        return _STATE_OF[state.value]

    def undo(self) -> None:
        """Takes back the last move (also after a win or a draw)."""
        status = self._undo(self._handle)
        if status:
            raise self._fail(status)

    def redo(self) -> None:
        """Replays the most recently undone move."""
        status = self._lib.ttt_redo(self._h())
        if status:
            raise self._fail(status)

    def drop(self, col: Union[int, str]) -> Tuple[int, State]:
        """Drops a mark for the side to move into column col (an index, or
        its letters: "d" is 3): it lands on the lowest empty cell (row
        height - 1 is the bottom), with gravity or without. Returns (row,
        State). OffBoardError for a bad column, ColumnFullError for a full
        one, GameOverError once the game ended."""
        row, state = ctypes.c_int(), ctypes.c_int()
        if col.__class__ is int and -0x80000000 <= col <= 0x7FFFFFFF:
            # The move path, as in play(): one untyped foreign call.
            status = self._drop(self._handle, col, ctypes.byref(row),
                                ctypes.byref(state))
        else:
            handle = self._h()
            col = _parse_column(self._lib, col) if isinstance(col, str) \
                else _c_int(col, "col")
            status = self._lib.ttt_drop(handle, col, ctypes.byref(row),
                                        ctypes.byref(state))
        if status:
            raise self._fail(status, None, col)
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

    def cell(self, row: Union[int, str], col: Optional[int] = None) -> Mark:
        """The Mark at (row, col), or at a cell name: cell("b2")."""
        if isinstance(row, str):
            if col is not None:
                raise TypeError("cell(name) takes no column")
            row, col = _parse_name(self._lib, row)
        elif col is None:
            raise TypeError("cell() needs a row and a column, or a cell name "
                            "such as \"b2\"")
        mark = ctypes.c_int()
        handle = self._h()
        row, col = _c_int(row, "row"), _c_int(col, "col")
        status = self._lib.ttt_cell(handle, row, col, ctypes.byref(mark))
        if status:
            raise self._fail(status, row, col)
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

    @property
    def winning_line(self) -> WinningLine:
        """((row0, col0), (row1, col1)), the line that ended the game, or an
        empty (false) WinningLine; a property, as state and ending are.
        winning_line() still works: the line, or None."""
        ends = [ctypes.c_int() for _ in range(4)]
        status = self._lib.ttt_winning_line(self._h(), *map(ctypes.byref, ends))
        if status == E_NO_LINE:
            return WinningLine()
        _check(self._lib, status)
        return WinningLine(((ends[0].value, ends[1].value),
                            (ends[2].value, ends[3].value)))

    # -- engine: random player, perft, solver and bots --

    def random_move(self, seed: Union[Seed, int]) -> Tuple[int, int]:
        """A uniformly random legal cell (row, col); a Seed advances, an int
        seed is Seed(seed) for this call."""
        row, col = ctypes.c_int(), ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_move(
            self._h(), _seed_ref(seed), ctypes.byref(row), ctypes.byref(col)))
        return row.value, col.value

    def random_playout(self, seed: Union[Seed, int]) -> State:
        """Plays random moves to the end of the game; returns the final
        State (seed: a Seed, which advances, or an int)."""
        state = ctypes.c_int()
        _check(self._lib, self._lib.ttt_random_playout(
            self._h(), _seed_ref(seed), ctypes.byref(state)))
        return _STATE_OF[state.value]

    def random_playouts(self, games, seed) -> Counts:
        """Plays that many random games from here, each the one random_playout
        would play on a clone (seed: a Seed, which carries through, or an
        int): random_playouts(1000, seed=1). Returns the Counts of how they
        ended; the game is unchanged. One call: the count is the caller's
        time budget. The order of 1.4, random_playouts(Seed(1), 1000), still
        works."""
        if isinstance(games, Seed):
            games, seed = seed, games  # the documented order of 1.4
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
        # An incomplete solve proves only its bounds: the value is unknown
        # (None) unless they meet.
        if status == OK or out.value_min == out.value_max:
            value = Value(out.value_min if status != OK else out.value)
        else:
            value = None
        return Solution(value, out.plies, out.nodes, Value(out.value_min),
                        Value(out.value_max),
                        [divmod(cell, w) for cell in best[:best_len.value]],
                        status == OK, Method(out.method))

    def best_move(self, level: int = BOT_STRONG, node_budget: int = 0,
                  seed: Optional[Seed] = None) -> Tuple[int, int]:
        """The bot's move (row, col) for the player to move; does not play it.
        level is a BotLevel; seed (a Seed, which advances, or an int) breaks
        ties and is required for BotLevel.RANDOM."""
        row, col = ctypes.c_int(), ctypes.c_int()
        handle, level = self._h(), _c_int(level, "level")
        status = self._lib.ttt_best_move(
            handle, level, _unsigned(node_budget, 64, "node_budget"),
            _seed_ref(seed, True), ctypes.byref(row), ctypes.byref(col))
        if status == E_INVALID and level not in tuple(BotLevel):
            raise _error(self._lib, status, None, (
                "level %d is not a BotLevel (RANDOM 0, STRONG 1, PERFECT 2)" % level))
        if status == E_INVALID and level == BotLevel.RANDOM and seed is None:
            raise _error(self._lib, status, None,
                         "BotLevel.RANDOM needs a seed (an int or a ttt.Seed)")
        _check(self._lib, status)
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
