"""env.py - learning environments on libttt: VectorEnv (a batch of games, Gymnasium's vector API) and Env (one game, PettingZoo's AEC API); the only module that imports numpy."""

from __future__ import annotations

import copy
import ctypes
import enum
import threading
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import (BOT_PERFECT, BOT_RANDOM, BOT_STRONG, DRAW,
               O_WON, X_WON, Game, IllegalMoveError, load_library)
from ._errors import _INT_MAX, _INT_MIN, _c_int, _error, _index, _unsigned
from ._library import _SIZE_BITS

__all__ = ["VectorEnv", "Env", "Discrete", "MultiDiscrete", "Box", "Dict",
           "AutoresetMode", "PRESETS"]

# Named games: (width, height, k, gravity).
PRESETS = {
    "tictactoe": (3, 3, 3, False),
    "connect4": (7, 6, 4, True),
    "connect_four": (7, 6, 4, True),
    "gomoku": (15, 15, 5, False),
}

SELF_PLAY = -1
ILLEGAL_MODES = {"reject": 0, "lose": 1}
OPPONENTS = {None: SELF_PLAY, "random": BOT_RANDOM, "strong": BOT_STRONG,
             "perfect": BOT_PERFECT}
AGENTS = {"x": 1, "o": -1, "alternate": 0}


# ---------------------------------------------------------------------------
# Spaces. With gymnasium importable they are gymnasium.spaces' own classes
# (Discrete, MultiDiscrete, Box, Dict), so code that checks isinstance or
# calls any of their methods sees Gymnasium's. Without it, small stand-ins
# behave the same way for what agents and the PettingZoo and Gymnasium
# checks use (Gymnasium 1.x): n/shape/dtype/low/high, seed(seed) -> the
# seed used (a Dict: {key: seed}),
# sample(mask=None), contains(x) (also `x in space`), np_random, equality,
# and a Dict's subscripting, keys and items.

try:
    import gymnasium as _gymnasium
    from gymnasium import spaces as _gym_spaces
except ImportError:
    _gymnasium = None

try:
    from pettingzoo import AECEnv as _AECEnv
except ImportError:
    _AECEnv = object


class _Space:
    """What every stand-in space has: a seedable generator."""

    shape: Tuple[int, ...] = ()
    dtype = None

    def __init__(self, seed: Optional[int] = None):
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed: Optional[int] = None) -> int:
        """Seeds the space's generator (None: a seed drawn from the
        operating system); returns the seed used, as gymnasium's spaces do."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) >> 1
        seed = _unsigned(seed, 64, "seed")
        self._np_random = np.random.default_rng(seed)
        return seed

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)


def _check_mask(mask: Any, n: int) -> np.ndarray:
    """A Discrete-style mask: an int8 array of n zeros and ones."""
    if not isinstance(mask, np.ndarray) or mask.dtype != np.int8:
        raise TypeError("a mask must be an np.int8 array, not %s"
                        % getattr(mask, "dtype", type(mask).__name__))
    if mask.shape != (n,):
        raise ValueError("a mask must have shape (%d,), not %s" % (n, mask.shape))
    if ((mask != 0) & (mask != 1)).any():
        raise ValueError("a mask holds only 0 and 1")
    return mask


class _Discrete(_Space):
    """Integers start .. start + n - 1, as gymnasium.spaces.Discrete."""

    def __init__(self, n: int, seed: Optional[int] = None, start: int = 0):
        self.n = np.int64(_index(n, "n"))
        if self.n < 1:
            raise ValueError("n must be positive, not %d" % self.n)
        self.start = np.int64(_index(start, "start"))
        self.shape, self.dtype = (), np.dtype(np.int64)
        super().__init__(seed)

    def sample(self, mask: Optional[np.ndarray] = None) -> np.int64:
        """A uniform integer; with mask (int8, shape (n,)), a uniform one
        among the places that hold 1, or start if there are none."""
        if mask is None:
            return self.start + self.np_random.integers(self.n)
        legal = np.flatnonzero(_check_mask(mask, int(self.n)))
        if not legal.size:
            return self.start
        return self.start + np.int64(self.np_random.choice(legal))

    def contains(self, x: Any) -> bool:
        if isinstance(x, (bool, np.bool_)):
            return False
        if isinstance(x, (np.generic, np.ndarray)):
            if x.shape != () or not np.issubdtype(x.dtype, np.integer):
                return False
        elif not isinstance(x, int):
            return False
        return bool(self.start <= int(x) < self.start + self.n)

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, _Discrete) and self.n == other.n
                and self.start == other.start)

    def __repr__(self) -> str:
        return ("Discrete(%d)" % self.n if not self.start
                else "Discrete(%d, start=%d)" % (self.n, self.start))


class _MultiDiscrete(_Space):
    """An array of integers, place i in 0 .. nvec[i] - 1, as
    gymnasium.spaces.MultiDiscrete."""

    def __init__(self, nvec: Sequence[int], dtype=np.int64,
                 seed: Optional[int] = None):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        self.shape, self.dtype = self.nvec.shape, np.dtype(dtype)
        super().__init__(seed)

    def sample(self, mask: Optional[Sequence[np.ndarray]] = None) -> np.ndarray:
        """One uniform integer a place; mask: one Discrete mask a place."""
        if mask is None:
            return (self.np_random.random(self.shape) * self.nvec).astype(self.dtype)
        out = np.empty(self.shape, dtype=self.dtype)
        for i, n in enumerate(self.nvec.flat):
            legal = np.flatnonzero(_check_mask(mask[i], int(n)))
            out.flat[i] = self.np_random.choice(legal) if legal.size else 0
        return out

    def contains(self, x: Any) -> bool:
        x = np.asarray(x) if isinstance(x, (list, tuple)) else x
        return (isinstance(x, np.ndarray) and x.shape == self.shape
                and x.dtype != object and np.can_cast(x.dtype, self.dtype)
                and bool(((x >= 0) & (x < self.nvec)).all()))

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, _MultiDiscrete)
                and np.array_equal(self.nvec, other.nvec))

    def __repr__(self) -> str:
        return "MultiDiscrete(%s)" % (self.nvec,)


class _Box(_Space):
    """Arrays of a shape and dtype with values in [low, high], as
    gymnasium.spaces.Box (bounds given as scalars)."""

    def __init__(self, low: float, high: float, shape: Tuple[int, ...], dtype,
                 seed: Optional[int] = None):
        self.shape, self.dtype = tuple(int(s) for s in shape), np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)
        super().__init__(seed)

    def sample(self, mask: None = None) -> np.ndarray:
        if mask is not None:
            raise ValueError("a Box takes no mask")
        if self.dtype.kind in "iu":
            return self.np_random.integers(self.low, self.high, endpoint=True,
                                           dtype=self.dtype)
        return self.np_random.uniform(self.low, self.high).astype(self.dtype)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (TypeError, ValueError, OverflowError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape
                    and (x >= self.low).all() and (x <= self.high).all())

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, _Box) and self.shape == other.shape
                and self.dtype == other.dtype
                and np.array_equal(self.low, other.low)
                and np.array_equal(self.high, other.high))

    def __repr__(self) -> str:
        return "Box(%s, %s, %s, %s)" % (self.low.flat[0], self.high.flat[0],
                                        self.shape, self.dtype)


class _Dict(_Space):
    """Named subspaces, as gymnasium.spaces.Dict: space["observation"]
    (the keys of a plain dict sorted, as gymnasium sorts them)."""

    def __init__(self, spaces: dict[str, Any], seed: Optional[int] = None):
        self.spaces = dict(sorted(spaces.items()))
        self.shape, self.dtype = None, None
        super().__init__(None)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed: Optional[int] = None) -> dict[str, int]:
        """Seeds each subspace, from seeds drawn by a generator seeded with
        seed; returns {key: the subspace's seed}."""
        super().seed(seed)
        return {key: space.seed(int(self._np_random.integers(2 ** 63)))
                for key, space in self.spaces.items()}

    def sample(self, mask: None = None) -> dict[str, Any]:
        return {key: space.sample() for key, space in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(space.contains(x[key]) for key, space in self.spaces.items()))

    def __getitem__(self, key: str):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def values(self):
        return self.spaces.values()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _Dict) and self.spaces == other.spaces

    def __repr__(self) -> str:
        return "Dict(%s)" % ", ".join("%r: %r" % item for item in self.spaces.items())


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

if _gymnasium is not None:
    Discrete, MultiDiscrete = _gym_spaces.Discrete, _gym_spaces.MultiDiscrete
    Box, Dict = _gym_spaces.Box, _gym_spaces.Dict
else:
    Discrete, MultiDiscrete, Box, Dict = _Discrete, _MultiDiscrete, _Box, _Dict  # type: ignore


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


def _shape(game, width, height, k, gravity):
    if game is None:
        return width, height, k, gravity
    try:
        return PRESETS[game]
    except KeyError:
        raise ValueError("unknown game %r: one of %s" % (game, ", ".join(PRESETS))) from None


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


def _ply_limit(value) -> int:
    """Rule.PLY_LIMIT's value: 0 (no limit) or a count of moves in C int
    range (ValueError if negative, OverflowError if too large)."""
    value = _index(value, "ply_limit")
    if value < 0:
        raise ValueError("ply_limit must be 0 (no limit) or a positive count "
                         "of moves, not %d" % value)
    if value > _INT_MAX:
        raise OverflowError("ply_limit must be at most 2**31 - 1, not %d" % value)
    return value


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


def _render(board: np.ndarray, width: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    chars = {1: "X", -1: "O", 0: "."}
    label = len(str(board.shape[0]))
    lines = [" " * label + "  " + " ".join(letters[c % 26] for c in range(width))]
    for r in range(board.shape[0]):
        lines.append(str(r + 1).rjust(label) + "  " +
                     " ".join(chars[int(v)] for v in board[r]))
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# One game as PettingZoo's AEC environment


class Env(_AECEnv):  # type: ignore[misc, valid-type]
    """One game with PettingZoo's AEC interface, as tictactoe_v3 and
    connect_four_v3 have it:

        env = ttt.Env(game="connect4")        # or width=, height=, k=, gravity=
        env.reset(seed=42)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            action = None if termination or truncation else policy(observation)
            env.step(action)

    With pettingzoo importable it is a pettingzoo.AECEnv, and its spaces
    are gymnasium's (see the spaces above). Agents are "player_0" and
    "player_1" for connect4 (as connect_four_v3) and "player_1" and
    "player_2" otherwise (as tictactoe_v3); the first plays X.
    observe(agent) gives {"observation": int8 (height, width, 2): channel 0
    the agent's marks, channel 1 the other's; "action_mask": int8
    (actions,), all zeros for an agent whose turn it is not}, an element of
    observation_space(agent), a Dict of those two Boxes. A win gives +1 to
    the winner and -1 to the loser, a draw 0; an illegal action ends the game
    with -1 for its player and 0 for the other (as PettingZoo's
    TerminateIllegalWrapper), infos[agent]["illegal_move"] True. A ply-limit
    draw sets truncations instead of terminations. A finished agent's
    step(None) removes it and clears every reward, so summing env.rewards
    after each step counts each reward once.

    Differences from PettingZoo's games: actions number cells row-major
    (row * width + col; tictactoe_v3 numbers them column-major), or columns
    under gravity as connect_four_v3 does; there is no randomness, so reset's
    seed only seeds the action spaces; render_mode is None, "human" (step
    prints the board) or "ansi", and render() returns the board as text
    ("rgb_array" is refused: there are no images).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "ttt_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: Optional[str] = None, width: int = 3,
                 height: int = 3, k: int = 3, gravity: bool = False, *,
                 misere: bool = False, early_draw: bool = False,
                 ply_limit: int = 0, render_mode: Optional[str] = None,
                 lib_path: Optional[str] = None):
        if _AECEnv is not object:
            super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None, 'human' or 'ansi', not "
                             "%r (the board is drawn as text)" % (render_mode,))
        width, height, k, gravity = _shape(game, width, height, k, gravity)
        ply_limit = _ply_limit(ply_limit)
        self.render_mode = render_mode
        self._game = Game(width=width, height=height, k=k, misere=misere,
                          early_draw=early_draw, gravity=gravity, lib_path=lib_path)
        if ply_limit:
            from . import RULE_PLY_LIMIT
            self._game.set_rule(RULE_PLY_LIMIT, ply_limit)
        self.width, self.height, self.gravity = width, height, bool(gravity)
        self._ply_limit = ply_limit
        self.num_actions = width if gravity else width * height
        first = 0 if game in ("connect4", "connect_four") else 1
        self.possible_agents = ["player_%d" % first, "player_%d" % (first + 1)]
        self._marks = {self.possible_agents[0]: 1, self.possible_agents[1]: -1}
        # One space object per agent, the same one on every call.
        self.action_spaces = {a: Discrete(self.num_actions)
                              for a in self.possible_agents}
        self.observation_spaces = {
            a: Dict({"observation": Box(0, 1, (height, width, 2), np.int8),
                     "action_mask": Box(0, 1, (self.num_actions,), np.int8)})
            for a in self.possible_agents}
        self.reset()

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def unwrapped(self) -> "Env":
        return self

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def reset(self, seed: Optional[int] = None,
              options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            seed = _unsigned(seed, 63, "seed")
        self._game.reset()
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.agents: List[str] = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        board = np.array(self._game.board(), dtype=np.int8)
        mark = self._marks[agent]
        observation = np.stack([board == mark, board == -mark], axis=2).astype(np.int8)
        # Only the agent to move has legal moves (as PettingZoo's games).
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if agent == self.agent_selection and agent in self.agents:
            for row, col in self._game.legal_moves():
                mask[col if self.gravity else row * self.width + col] = 1
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2 ** 63) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def _other(self, agent: str) -> str:
        return self.possible_agents[1 - self.possible_agents.index(agent)]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("when an agent is done, the only valid action is None")
            # The dead step: the agent leaves, the next one plays, and the
            # rewards are spent (each was counted after the step that gave it).
            self.agents.remove(agent)
            del self.rewards[agent], self._cumulative_rewards[agent]
            del self.terminations[agent], self.truncations[agent], self.infos[agent]
            for a in self.agents:
                self.rewards[a] = 0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        # An action is an int (operator.index: numpy's integers too), never
        # a bool, a float or a str (TypeError, nothing changed); an int off
        # the board is an illegal move.
        action = _index(action, "an action")
        self._cumulative_rewards[agent] = 0
        other = self._other(agent)
        self.rewards = {a: 0 for a in self.agents}
        try:
            if self.gravity:
                self._game.drop(action)
            elif 0 <= action < self.num_actions:
                self._game.play(action // self.width, action % self.width)
            else:
                raise IllegalMoveError(-5, "the action is off the board")
            state = self._game.state
        except IllegalMoveError:
            self.rewards[agent], self.rewards[other] = -1, 0
            self.infos[agent]["illegal_move"] = True
            for a in self.agents:
                self.terminations[a] = True
            state = None
        if state in (X_WON, O_WON):
            winner = 1 if state == X_WON else -1
            for a in self.agents:
                self.rewards[a] = 1 if self._marks[a] == winner else -1
                self.terminations[a] = True
        elif state == DRAW:
            by_limit = (self._ply_limit and self._game.ply == self._ply_limit
                        and self._game.ending.name == "PLY_LIMIT")
            for a in self.agents:
                if by_limit:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        self.agent_selection = other
        for a, reward in self.rewards.items():
            self._cumulative_rewards[a] += reward
        if self.render_mode == "human":
            self.render()

    # A copy owns its own Game (Game's copies are clones): copy.copy is
    # deepcopy, so two environments never share one C game.
    def __copy__(self) -> "Env":
        return copy.deepcopy(self)

    def render(self) -> Optional[str]:
        """The board as text (render_mode None or "ansi"); printed, and None
        returned, in "human" mode."""
        board = np.array(self._game.board(), dtype=np.int8)
        text = _render(board, self.width)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game.close()

    def __repr__(self) -> str:
        return "<ttt.Env %dx%d%s>" % (self.width, self.height,
                                      " gravity" if self.gravity else "")
