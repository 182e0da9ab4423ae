"""_spaces.py - what both learning environments share: their spaces (Gymnasium's own when it is importable, else stand-ins), the named games, the ply limit's check and a board as text."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ._errors import _INT_MAX, _index, _unsigned

# Named games: (width, height, k, gravity).
PRESETS = {
    "tictactoe": (3, 3, 3, False),
    "connect4": (7, 6, 4, True),
    "connect_four": (7, 6, 4, True),
    "gomoku": (15, 15, 5, False),
}


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


if _gymnasium is not None:
    Discrete, MultiDiscrete = _gym_spaces.Discrete, _gym_spaces.MultiDiscrete
    Box, Dict = _gym_spaces.Box, _gym_spaces.Dict
else:
    Discrete, MultiDiscrete, Box, Dict = _Discrete, _MultiDiscrete, _Box, _Dict  # type: ignore


def _shape(game, width, height, k, gravity):
    if game is None:
        return width, height, k, gravity
    try:
        return PRESETS[game]
    except KeyError:
        raise ValueError("unknown game %r: one of %s" % (game, ", ".join(PRESETS))) from None


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


def _render(board: np.ndarray, width: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    chars = {1: "X", -1: "O", 0: "."}
    label = len(str(board.shape[0]))
    lines = [" " * label + "  " + " ".join(letters[c % 26] for c in range(width))]
    for r in range(board.shape[0]):
        lines.append(str(r + 1).rjust(label) + "  " +
                     " ".join(chars[int(v)] for v in board[r]))
    return "\n".join(lines)
