"""_types.py - the enumerations and constants of ttt.h as Python values, and the result tuples Game methods return."""

from __future__ import annotations

import enum
from typing import List, NamedTuple, Tuple

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
