"""vector.py - VectorEnv: a batch of games in one C batch with Gymnasium's vector API."""

from __future__ import annotations

import ctypes
import enum
import threading
from typing import Any, Optional, Sequence

import numpy as np

from . import BOT_PERFECT, BOT_RANDOM, BOT_STRONG, load_library
from ._errors import _INT_MAX, _INT_MIN, _c_int, _error, _index, _unsigned
from ._library import _SIZE_BITS
from ._spaces import (_gymnasium, _ply_limit, _render, _shape, Box, Dict, Discrete,
                      MultiDiscrete)

__all__ = ["VectorEnv", "AutoresetMode"]

SELF_PLAY = -1
ILLEGAL_MODES = {"reject": 0, "lose": 1}
OPPONENTS = {None: SELF_PLAY, "random": BOT_RANDOM, "strong": BOT_STRONG,
             "perfect": BOT_PERFECT}
AGENTS = {"x": 1, "o": -1, "alternate": 0}


class _AutoresetMode(enum.Enum):
    """When a finished game of a VectorEnv starts anew, as
    gymnasium.vector.AutoresetMode (the same values)."""

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


if _gymnasium is not None:
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _GymVectorEnv
else:
    AutoresetMode = _AutoresetMode  # type: ignore[misc]
    _GymVectorEnv = object  # type: ignore[misc, assignment]


# ---------------------------------------------------------------------------
# The C batch (ttt.h, "Batches of games, for learning", since 1.4)


class _BatchConfig(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("width", ctypes.c_int32),
                ("height", ctypes.c_int32), ("win_length", ctypes.c_int32),
                ("misere", ctypes.c_int32), ("early_draw", ctypes.c_int32),
                ("gravity", ctypes.c_int32), ("ply_limit", ctypes.c_int32),
                ("opponent", ctypes.c_int32), ("agent", ctypes.c_int32),
                ("illegal", ctypes.c_int32), ("opponent_budget", ctypes.c_uint64)]


class _BatchOutputs(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("rewards", ctypes.c_void_p),
                ("terminated", ctypes.c_void_p), ("truncated", ctypes.c_void_p),
                ("status", ctypes.c_void_p), ("outcome", ctypes.c_void_p)]


_vp, _size = ctypes.c_void_p, ctypes.c_size_t
_BATCH_PROTOTYPES = {
    "ttt_batch_new": (ctypes.c_int, [ctypes.POINTER(_BatchConfig), _size, _vp,
                                     ctypes.POINTER(_vp)]),
    "ttt_batch_free": (None, [_vp]),
    "ttt_batch_action_count": (ctypes.c_int, [_vp]),
    "ttt_batch_seed": (ctypes.c_int, [_vp, ctypes.c_uint64]),
    "ttt_batch_reset": (ctypes.c_int, [_vp]),
    "ttt_batch_set_moves": (ctypes.c_int, [_vp, _size, _vp, _size]),
    "ttt_batch_step": (ctypes.c_int, [_vp, _vp, ctypes.POINTER(_BatchOutputs)]),
    "ttt_batch_observe_u8": (ctypes.c_int, [_vp, _vp, _size]),
    "ttt_batch_observe_f32": (ctypes.c_int, [_vp, _vp, _size]),
    "ttt_batch_legal_mask": (ctypes.c_int, [_vp, _vp, _size]),
    "ttt_batch_game": (ctypes.c_int, [_vp, _size, ctypes.POINTER(_vp)]),
    "ttt_batch_step_final": (ctypes.c_int, [_vp, _vp, _vp,
                                            ctypes.POINTER(_BatchOutputs),
                                            _vp, _size]),
}


def _batch_library(lib_path: Optional[str]):
    lib = load_library(lib_path)
    missing = [name for name in _BATCH_PROTOTYPES if not hasattr(lib, name)]
    if missing:
        raise OSError("libttt 1.5 or later is needed for batches: it lacks %s"
                      % ", ".join(missing))
    for name, (restype, argtypes) in _BATCH_PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def _lookup(table: Dict, key, what: str) -> int:
    """A name from table (any case), or one of its values as an int."""
    if isinstance(key, str):
        if key.lower() in table:
            return table[key.lower()]
    elif key is None or isinstance(key, (bool, np.bool_)):
        if key is None and None in table:
            return table[None]
    elif isinstance(key, (int, np.integer)) and int(key) in table.values():
        return int(key)
    raise ValueError("unknown %s %r: one of %s" % (
        what, key, ", ".join(repr(name) for name in table)))


def _actions_into(out: np.ndarray, actions, what: str = "actions") -> None:
    """Copies integer actions into out (int32) without wrapping: a value
    outside C int range becomes the nearest int32, an action off the board
    as the real one would be. Floats, bools, strings: TypeError."""
    actions = np.asarray(actions)
    if actions.dtype.kind not in "iu":
        raise TypeError("%s must be integers, not %s" % (what, actions.dtype))
    if actions.shape != out.shape:
        raise ValueError("%s must have shape %s, not %s"
                         % (what, out.shape, actions.shape))
    if actions.dtype.itemsize < 4 or actions.dtype == np.int32:
        np.copyto(out, actions)
    elif actions.dtype.kind == "u":
        np.minimum(actions, _INT_MAX, out=out, casting="unsafe")
    else:
        np.clip(actions, _INT_MIN, _INT_MAX, out=out, casting="unsafe")


def _autoreset_mode(mode) -> "AutoresetMode":
    """"next-step", "same-step" or an AutoresetMode (Gymnasium's or ours)."""
    names = {"next-step": "NEXT_STEP", "same-step": "SAME_STEP"}
    name = getattr(mode, "name", None) if isinstance(mode, enum.Enum) else names.get(mode)
    if name not in ("NEXT_STEP", "SAME_STEP"):
        raise ValueError("autoreset_mode must be 'next-step' (Gymnasium's default), "
                         "'same-step' or an AutoresetMode of those two, not %r"
                         % (mode,))
    return AutoresetMode[name]


class VectorEnv(_GymVectorEnv):  # type: ignore[misc, valid-type]
    """num_envs games of one shape and rules in one C batch, with
    Gymnasium's vector API (a gymnasium.vector.VectorEnv when gymnasium is
    importable):

        env = ttt.VectorEnv(4096, game="connect4")      # or width=, height=, k=, gravity=
        obs, infos = env.reset(seed=1)                  # obs: (num_envs, 2, H, W)
        obs, rewards, terminated, truncated, infos = env.step(actions)

    Actions are cells (row * width + col), or columns under gravity. The
    opponent (None for self-play, "random", "strong" with opponent_budget
    nodes, "perfect") answers inside step, so every game is the agent's turn;
    agent is "x", "o" or "alternate" (side changes after every game).
    Rewards are +1/-1/0 for the side that acted (under misère completing a
    line loses). infos["outcome"] holds the state a game ended in this step
    (1 X won, 2 O won, 3 draw; 0 for games still going).

    autoreset_mode (metadata["autoreset_mode"], an AutoresetMode) says when
    a finished game starts anew. "next-step" (the default, as Gymnasium's):
    the step that ends a game returns its last position (mask all False);
    the next step ignores that game's action, starts it anew and returns
    reward 0, both flags False, status 0. "same-step": the game starts anew
    in the step that ends it, whose observation is the new game's; the last
    position is infos["final_obs"][i] where infos["_final_obs"][i] is True
    (a (num_envs, 2, H, W) uint8 array, in the observation space of either
    obs_dtype; other rows are stale), and
    infos["final_info"] holds that step's "status" and "outcome" with its
    own "_status"/"_outcome" masks. The last position is seen from the side
    that would move next (with an opponent, the agent).
    An illegal action is reported in infos["status"] (a negative TTT_E_*
    code) and, with illegal="reject", changes nothing; with illegal="lose"
    it loses the game (reward -1).

    The arrays step and reset return, and infos' arrays, are this object's
    own buffers, which the C library writes in place: no copy per step. They
    hold the latest step's values; copy them to keep older ones. The infos
    dict itself is new at each call (wrappers add keys to it).
    obs_dtype is np.float32 (default) or np.uint8. infos["action_mask"] is a
    bool array (num_envs, actions) viewing the C mask.

    One thread at a time: a call made while another thread's call on the
    same VectorEnv runs raises RuntimeError, and close() waits for it. A
    VectorEnv cannot be copied or pickled (TypeError).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP,
                                "render_modes": ["ansi"]}
    spec = None

    def __init__(self, num_envs: int, width: int = 3, height: int = 3,
                 k: int = 3, gravity: bool = False, opponent=None,
                 seed: Optional[int] = None, *, game: Optional[str] = None,
                 misere: bool = False, early_draw: bool = False,
                 ply_limit: int = 0, agent: str = "x", illegal: str = "reject",
                 opponent_budget: int = 0, obs_dtype=np.float32,
                 autoreset_mode="next-step", render_mode: Optional[str] = None,
                 lib_path: Optional[str] = None):
        self._batch = None  # so close() and __del__ work on a half-built env
        self._lock = threading.Lock()
        self._closing = False
        width, height, k, gravity = _shape(game, width, height, k, gravity)
        # The package's argument rule (Game's): ints through operator.index,
        # never bool or float; C int fields clamped, so the library refuses
        # the clamped value as it would the real one; counts range-checked.
        width, height, k = (_c_int(width, "width"), _c_int(height, "height"),
                            _c_int(k, "k"))
        num_envs = _unsigned(num_envs, _SIZE_BITS, "num_envs")
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1, not 0")
        ply_limit = _ply_limit(ply_limit)
        opponent_budget = _unsigned(opponent_budget, 64, "opponent_budget")
        if seed is not None:
            seed = _unsigned(seed, 64, "seed")
        mode = _autoreset_mode(autoreset_mode)
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi' (render() "
                             "returns a board as text), not %r" % (render_mode,))
        self.render_mode = render_mode
        self.metadata = dict(type(self).metadata, autoreset_mode=mode)
        self._next_step = mode == AutoresetMode.NEXT_STEP
        self._np_random, self._np_random_seed = None, None
        self._lib = lib = _batch_library(lib_path)
        config = _BatchConfig(ctypes.sizeof(_BatchConfig), width, height, k,
                              int(bool(misere)), int(bool(early_draw)),
                              int(bool(gravity)),
                              ply_limit, _lookup(OPPONENTS, opponent, "opponent"),
                              _lookup(AGENTS, agent, "agent"),
                              _lookup(ILLEGAL_MODES, illegal, "illegal mode"),
                              opponent_budget)
        batch = ctypes.c_void_p()
        status = lib.ttt_batch_new(ctypes.byref(config), num_envs, None,
                                   ctypes.byref(batch))
        if status != 0:
            raise _error(lib, status)
        self._batch = batch
        self.num_envs = num_envs
        self.width, self.height, self.k, self.gravity = width, height, k, bool(gravity)
        self.num_actions = lib.ttt_batch_action_count(batch)
        self._obs = np.zeros((num_envs, 2, height, width), dtype=obs_dtype)
        if self._obs.dtype == np.float32:
            self._observe = lib.ttt_batch_observe_f32
        elif self._obs.dtype == np.uint8:
            self._observe = lib.ttt_batch_observe_u8
        else:
            raise ValueError("obs_dtype must be np.float32 or np.uint8")
        self._mask_u8 = np.zeros((num_envs, self.num_actions), dtype=np.uint8)
        self._mask = self._mask_u8.view(np.bool_)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._terminated_u8 = np.zeros(num_envs, dtype=np.uint8)
        self._truncated_u8 = np.zeros(num_envs, dtype=np.uint8)
        self._status = np.zeros(num_envs, dtype=np.int32)
        self._outcome = np.zeros(num_envs, dtype=np.int32)
        self._actions = np.zeros(num_envs, dtype=np.int32)
        self._outputs = _BatchOutputs(
            ctypes.sizeof(_BatchOutputs), self._rewards.ctypes.data,
            self._terminated_u8.ctypes.data, self._truncated_u8.ctypes.data,
            self._status.ctypes.data, self._outcome.ctypes.data)
        self._outputs_ref = ctypes.byref(self._outputs)
        # The step's arguments made once: each call then converts nothing.
        self._actions_ptr = ctypes.c_void_p(self._actions.ctypes.data)
        self._obs_ptr = ctypes.c_void_p(self._obs.ctypes.data)
        self._obs_len = ctypes.c_size_t(self._obs.size)
        self._mask_ptr = ctypes.c_void_p(self._mask_u8.ctypes.data)
        self._mask_len = ctypes.c_size_t(self._mask_u8.size)
        self._step = lib.ttt_batch_step_final
        # The last positions of the games that ended (the C library's
        # planes), and in obs_dtype for final_obs; the games whose next
        # step is their reset (next-step autoreset).
        self._final_u8 = np.zeros((num_envs, 2, height, width), dtype=np.uint8)
        self._final_ptr = ctypes.c_void_p(self._final_u8.ctypes.data)
        self._final_len = ctypes.c_size_t(self._final_u8.size)
        self._ended_u8 = np.zeros(num_envs, dtype=np.uint8)
        self._pending = np.zeros(num_envs, dtype=np.bool_)
        self._pending_ptr = ctypes.c_void_p(self._pending.ctypes.data)
        self._any_pending = False
        self._legal_mask = lib.ttt_batch_legal_mask
        self._terminated = self._terminated_u8.view(np.bool_)
        self._truncated = self._truncated_u8.view(np.bool_)
        self._infos = {"action_mask": self._mask, "status": self._status,
                       "outcome": self._outcome}
        self.single_action_space = Discrete(self.num_actions, seed=seed)
        self.action_space = MultiDiscrete([self.num_actions] * num_envs, seed=seed)
        self.single_observation_space = Box(0, 1, (2, height, width), self._obs.dtype)
        self.observation_space = Box(0, 1, (num_envs, 2, height, width), self._obs.dtype)
        if seed is not None:
            lib.ttt_batch_seed(batch, seed)
            lib.ttt_batch_reset(batch)
            self._np_random = np.random.default_rng(seed)
            self._np_random_seed = seed
        self._write()

    @property
    def np_random(self) -> np.random.Generator:
        """A generator for the caller's randomness, seeded by reset(seed=)
        (the games' own opponents draw from the C batch's seeds)."""
        if self._np_random is None:
            self._np_random_seed = int(
                np.random.SeedSequence().generate_state(1, np.uint64)[0]) >> 1
            self._np_random = np.random.default_rng(self._np_random_seed)
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random, self._np_random_seed = value, -1

    @property
    def np_random_seed(self) -> int:
        """The seed of np_random (-1 if it was set directly)."""
        self.np_random
        return self._np_random_seed

    @property
    def unwrapped(self) -> "VectorEnv":
        return self

    def _write(self) -> None:
        self._observe(self._batch, self._obs_ptr, self._obs_len)
        self._legal_mask(self._batch, self._mask_ptr, self._mask_len)

    # Threads: a VectorEnv is used by one thread at a time (the C batch's
    # rule). Each call that touches the batch holds self._lock: a call made
    # while another thread's call runs raises RuntimeError instead of racing
    # it, and close() waits for the running call, so the batch is never
    # freed under a step.
    def _enter(self):
        if not self._lock.acquire(False):
            if self._closing:
                raise ValueError("operation on a closed VectorEnv")
            raise RuntimeError(
                "this VectorEnv is in use by another thread: a VectorEnv is "
                "used by one thread at a time (close() waits for the call)")
        if self._batch is None:
            self._lock.release()
            raise ValueError("operation on a closed VectorEnv")
        return self._batch

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[dict[str, Any]] = None):
        """Starts every game anew; seed (if given) reseeds the opponents
        (game i from seed + i * 0x9E3779B97F4A7C15). Returns (obs, infos)."""
        if seed is not None:
            seed = _unsigned(seed, 64, "seed")
        batch = self._enter()
        try:
            return self._reset(batch, seed)
        finally:
            self._lock.release()

    def _reset(self, batch, seed):
        if seed is not None:
            self._lib.ttt_batch_seed(batch, seed)
            self.single_action_space.seed(seed)
            self.action_space.seed(seed)
            self._np_random = np.random.default_rng(seed)
            self._np_random_seed = seed
        self._lib.ttt_batch_reset(batch)
        self._status.fill(0)
        self._outcome.fill(0)
        self._pending.fill(False)
        self._any_pending = False
        self._infos.pop("final_obs", None)
        self._infos.pop("_final_obs", None)
        self._infos.pop("final_info", None)
        self._infos.pop("_final_info", None)
        self._write()
        return self._obs, dict(self._infos)

    def step(self, actions):
        """Plays actions (num_envs ints) and the opponent's answers; returns
        (obs, rewards, terminated, truncated, infos). Actions must be
        integers (TypeError for floats, bools, strings); one off the board
        is that game's illegal action (infos["status"])."""
        batch = self._enter()
        try:
            # Into the array whose address the call already holds: a copy
            # of 4 bytes a game, cheaper than taking a new array's address.
            _actions_into(self._actions, actions)
            # Next-step autoreset: the pending games started anew in the C
            # batch when they ended; this step skips them (their actions
            # ignored) and shows the new game.
            self._step(batch, self._actions_ptr,
                       self._pending_ptr if self._any_pending else None,
                       self._outputs_ref, self._final_ptr, self._final_len)
            self._observe(batch, self._obs_ptr, self._obs_len)
            self._legal_mask(batch, self._mask_ptr, self._mask_len)
            self._finish()
        finally:
            self._lock.release()
        # A new infos dict each step (its arrays are the buffers): wrappers
        # add keys to the dict they get.
        return (self._obs, self._rewards, self._terminated, self._truncated,
                dict(self._infos))

    def _finish(self) -> None:
        """The games that ended this step: their last position, shown now
        (next-step) or in infos["final_obs"] (same-step). A few microseconds
        beside the step: the ended rows only, and no conversion of the last
        positions in same-step (uint8 planes are in the observation space
        of either obs_dtype)."""
        ended = np.bitwise_or(self._terminated_u8, self._truncated_u8,
                              out=self._ended_u8).view(np.bool_)
        if self._next_step:
            np.copyto(self._pending, ended)
            rows = ended.nonzero()[0]
            self._any_pending = rows.size > 0
            if self._any_pending:
                self._obs[rows] = self._final_u8[rows]
                self._mask_u8[rows] = 0
            return
        infos = self._infos
        if not ended.any():
            if "final_obs" in infos:
                for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
                    del infos[key]
            return
        # Buffers, as every array of infos (the next step rewrites them).
        infos["final_obs"] = self._final_u8
        infos["_final_obs"] = infos["_final_info"] = ended
        infos["final_info"] = {"status": self._status, "outcome": self._outcome,
                               "_status": ended, "_outcome": ended}

    def set_moves(self, index: int, moves: Sequence[int]) -> None:
        """Sets game index to the position after moves (actions from the
        empty board, X first), for curricula; with an opponent the agent
        plays the side to move there. Raises the move's TttError if a move is
        illegal or the moves end the game; then nothing changes."""
        index = self._index(index)
        moves = np.asarray(moves)
        if moves.ndim != 1 and moves.size:
            raise ValueError("moves must be a sequence of actions, not an "
                             "array of shape %s" % (moves.shape,))
        array = np.zeros(moves.size, dtype=np.int32)
        if moves.size:
            _actions_into(array, moves, "moves")
        batch = self._enter()
        try:
            status = self._lib.ttt_batch_set_moves(batch, index,
                                                   array.ctypes.data, array.size)
            if status != 0:
                raise _error(self._lib, status)
            self._pending[index] = False  # its next step plays
            self._any_pending = bool(self._pending.any())
            self._write()
            if self._any_pending:  # the other games' last positions stay shown
                rows = np.flatnonzero(self._pending)
                self._obs[rows] = self._final_u8[rows]
                self._mask_u8[rows] = 0
        finally:
            self._lock.release()

    def _index(self, index) -> int:
        """A game's index: an int in 0 .. num_envs - 1 (IndexError)."""
        index = _index(index, "index")
        if not 0 <= index < self.num_envs:
            raise IndexError("index %d is out of range: the games are 0 .. %d"
                             % (index, self.num_envs - 1))
        return index

    def render(self, index: int = 0) -> str:
        """Game index's board as text, as str(ttt.Game) draws it."""
        return _render(self._board(self._index(index)), self.width)

    def _board(self, index: int) -> np.ndarray:
        planes = self._obs[index]
        mover = 1 if int((planes != 0).sum()) % 2 == 0 else -1
        return (planes[0] != 0) * mover - (planes[1] != 0) * mover

    def close(self) -> None:
        """Frees the batch; safe to call more than once. A call running in
        another thread finishes first (close waits for it)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return  # never built
        self._closing = True  # calls from now on: closed, not busy
        with lock:
            batch, self._batch = self._batch, None
            if batch is not None:
                self._lib.ttt_batch_free(batch)

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return self._batch is None

    # The C batch has no clone (its opponents' seeds and sides are inside
    # it), and two Python objects must never own one batch: copies and
    # pickles are refused.
    def __copy__(self):
        raise TypeError("a VectorEnv cannot be copied: make a new one with "
                        "the same arguments (and reset(seed=...))")

    def __deepcopy__(self, memo):
        self.__copy__()

    def __reduce__(self):
        raise TypeError("a VectorEnv cannot be pickled: make a new one with "
                        "the same arguments (and reset(seed=...))")

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<ttt.VectorEnv %d games %dx%d k=%d%s>" % (
            self.num_envs, self.width, self.height, self.k,
            " gravity" if self.gravity else "")
