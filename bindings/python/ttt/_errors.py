"""_errors.py - TttError and its subclass for each status code, and the checks that turn Python arguments into C ones."""

from __future__ import annotations

import operator
import os
from typing import Optional

from ._types import (E_BUDGET, E_COLUMN_FULL, E_FLOATING, E_GAME_OVER,
                     E_IN_LISTENER, E_MARK, E_NAME, E_NO_REDO, E_NO_UNDO,
                     E_OCCUPIED, E_OFF_BOARD, E_PARSE, E_RULE, E_RULES_LOCKED,
                     E_SIZE, E_STALE, E_WRONG_TURN)

_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1

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


def _error(lib, status: int, offset: Optional[int] = None,
           detail: Optional[str] = None) -> TttError:
    """The TttError (subclass) for a status code. Its message is the
    library's (ttt_strerror), then where ("at byte 39") and detail: what
    was wrong and what is allowed."""
    message = lib.ttt_strerror(status).decode("utf-8", "replace")
    if offset is not None:
        message += " at byte %d" % offset
    if detail:
        message += ": " + detail
    return _ERRORS.get(status, TttError)(status, message, offset)


def _check(lib, status: int, offset: Optional[int] = None,
           detail: Optional[str] = None) -> int:
    """Returns status if it is not an error, else raises the matching TttError."""
    if status >= 0:
        return status
    raise _error(lib, status, offset, detail)


def _index(value, what: str) -> int:
    """An int argument: an int or an int-like object (operator.index), never
    a bool or a float (TypeError)."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        # (numpy's bool_ too: True is not a cell, a count or an action)
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
