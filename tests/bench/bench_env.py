"""bench_env.py - random-action steps a second on 3x3, Connect Four and 15x15 K=5: the C batch (ttt-bench-batch), ttt.VectorEnv with 4,096 games, and a pure-Python environment in the seeds' design, side by side with their ratios.

Usage: python3 tests/bench/bench_env.py [--quick] [--c-bench PATH/TO/ttt-bench-batch]

Every figure counts moves (one game's step) a second of this thread's CPU
time (time.thread_time, as ttt-bench-batch counts its own), so a machine
shared with other work gives the figures of one core; observations and
legal masks are written after every step; the actions are random legal
ones, drawn outside the timed call. The pure-Python
environment follows the seeds' Python design (a Board of rows of Marks
with line counters, or a K-in-a-row walk when K < N and on rectangles, a
Game with a lock, Players, a history of Move objects, InvalidMoveError),
wrapped as an environment that resets finished games and builds an
observation (two planes as lists) and a mask each step.
It prints figures and never fails on speed; it fails only on a wrong answer.
"""

import argparse
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from enum import Enum

import numpy as np

import ttt

SHAPES = [("3x3", 3, 3, 3, False), ("connect4", 7, 6, 4, True),
          ("15x15k5", 15, 15, 5, False)]


# ---------------------------------------------------------------------------
# The pure-Python environment, as the seeds write the game


class Mark(Enum):
    X = 1
    O = -1


class InvalidMoveError(Exception):
    pass


@dataclass(frozen=True)
class Player:
    name: str
    mark: Mark


@dataclass(frozen=True)
class Move:
    player: Player
    row: int
    col: int


class Board:
    def __init__(self, width, height, k):
        self.width, self.height, self.k = width, height, k
        self.grid = [[None] * width for _ in range(height)]
        self.filled = 0
        self.counters = width == height == k
        self.rows, self.cols = [0] * height, [0] * width
        self.diag = self.anti_diag = 0

    def is_full(self):
        return self.filled == self.width * self.height

    def place(self, row, col, mark):
        """Places a mark; True if it completes a line."""
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise InvalidMoveError("off the board")
        if self.grid[row][col] is not None:
            raise InvalidMoveError("taken")
        self.grid[row][col] = mark
        self.filled += 1
        if self.counters:
            s, n = mark.value, self.width
            self.rows[row] += s
            self.cols[col] += s
            touched = [self.rows[row], self.cols[col]]
            if row == col:
                self.diag += s
                touched.append(self.diag)
            if row + col == n - 1:
                self.anti_diag += s
                touched.append(self.anti_diag)
            return any(abs(t) == n for t in touched)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while (0 <= r < self.height and 0 <= c < self.width
                       and self.grid[r][c] is mark):
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count >= self.k:
                return True
        return False


class Game:
    def __init__(self, width, height, k, gravity):
        self.player_x, self.player_o = Player("x", Mark.X), Player("o", Mark.O)
        self.board = Board(width, height, k)
        self.gravity = gravity
        self.state = "in_progress"
        self.history = []
        self.turn = self.player_x
        self.lock = threading.Lock()

    def play(self, player, row, col):
        with self.lock:
            if self.state != "in_progress":
                raise InvalidMoveError("the game is over")
            if player != self.turn:
                raise InvalidMoveError("not your turn")
            won = self.board.place(row, col, player.mark)
            self.history.append(Move(player, row, col))
            if won:
                self.state = "x_won" if player.mark is Mark.X else "o_won"
            elif self.board.is_full():
                self.state = "draw"
            else:
                self.turn = self.player_o if self.turn is self.player_x else self.player_x
            return self.state


class PythonEnv:
    """One game as an environment: step(action) plays, rewards, resets and
    writes the observation planes and the mask."""

    def __init__(self, width, height, k, gravity):
        self.shape = (width, height, k, gravity)
        self.reset()

    def reset(self):
        self.game = Game(*self.shape)
        self.observe()

    def observe(self):
        board, game = self.game.board, self.game
        mover = game.turn.mark
        self.obs = [[[1 if m is mover else 0 for m in row] for row in board.grid],
                    [[1 if m is not None and m is not mover else 0 for m in row]
                     for row in board.grid]]
        if game.gravity:
            self.mask = [1 if board.grid[0][c] is None else 0 for c in range(board.width)]
        else:
            self.mask = [1 if m is None else 0 for row in board.grid for m in row]

    def step(self, action):
        game = self.game
        board = game.board
        player = game.turn
        if game.gravity:
            row = board.height - 1
            while board.grid[row][action] is not None:
                row -= 1
            col = action
        else:
            row, col = divmod(action, board.width)
        state = game.play(player, row, col)
        reward = 0.0
        if state != "in_progress":
            reward = 0.0 if state == "draw" else 1.0
            self.reset()
        else:
            self.observe()
        return reward


def python_rate(shape, seconds):
    width, height, k, gravity = shape
    envs = [PythonEnv(width, height, k, gravity) for _ in range(64)]
    rng = random.Random(1)
    steps = 0
    spent = 0.0
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        actions = [rng.choice([a for a, ok in enumerate(env.mask) if ok]) for env in envs]
        t0 = time.thread_time()
        for env, action in zip(envs, actions):
            env.step(action)
        spent += time.thread_time() - t0
        steps += len(envs)
    return steps / spent


def vector_rate(shape, seconds, num_envs, obs_dtype=np.float32,
                autoreset_mode="same-step"):
    width, height, k, gravity = shape
    env = ttt.VectorEnv(num_envs, width=width, height=height, k=k, gravity=gravity,
                        obs_dtype=obs_dtype, autoreset_mode=autoreset_mode)
    _, infos = env.reset(seed=1)
    mask = infos["action_mask"]
    rng = np.random.default_rng(1)
    # Drawn in place in one float32 buffer: no temporaries to push the
    # environment's arrays out of the cache between steps.
    noise = np.empty(mask.shape, dtype=np.float32)
    steps = 0
    spent = 0.0
    ended = 0
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        rng.random(dtype=np.float32, out=noise)
        np.multiply(noise, mask, out=noise)
        actions = noise.argmax(axis=1).astype(np.int32)
        t0 = time.thread_time()
        _, _, terminated, truncated, infos = env.step(actions)
        spent += time.thread_time() - t0
        if (infos["status"] != 0).any():
            sys.exit("bench_env: an illegal action was drawn from the mask")
        ended += int(terminated.sum() + truncated.sum())
        steps += num_envs
    env.close()
    if ended == 0 and steps > 50 * num_envs:
        sys.exit("bench_env: no game ended")
    return steps / spent


def c_rates(path, quick):
    """ttt-bench-batch's step+obs+mask/s per board."""
    out = subprocess.run([path] + (["--quick"] if quick else []), check=True,
                         capture_output=True, text=True).stdout
    rates = {}
    for line in out.splitlines():
        m = re.match(r"(\S+)\s+(\d+)\s+(\d+)\s+\d+\s", line)
        if m:
            rates[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, for CI")
    parser.add_argument("--c-bench", help="path to ttt-bench-batch")
    parser.add_argument("--num-envs", type=int, default=4096)
    args = parser.parse_args()
    seconds = 0.1 if args.quick else 2.0
    c = c_rates(args.c_bench, args.quick) if args.c_bench else {}
    print("random-action steps a second of CPU time, one core, with observations and masks")
    print("(C step: ttt_batch_step alone; C batch adds float32 observations and masks;")
    print(" VectorEnv: %d games, float32 observations (the default) or uint8 ones)"
          % args.num_envs)
    print("%-10s %12s %12s %12s %12s %12s %10s %10s %10s" % (
        "board", "C step", "C batch", "VectorEnv", "Vector u8", "pure Python",
        "C/Python", "Vector/Py", "u8/Py"))
    for name, *shape in SHAPES:
        vector = vector_rate(shape, seconds, args.num_envs)
        vector_u8 = vector_rate(shape, seconds, args.num_envs, np.uint8)
        python = python_rate(shape, seconds)
        c_step, c_rate = c.get(name, (0.0, 0.0))
        print("%-10s %12s %12s %12.0f %12.0f %12.0f %10s %9.0fx %9.0fx" % (
            name, "%.0f" % c_step if c_step else "-", "%.0f" % c_rate if c_rate else "-",
            vector, vector_u8, python, "%.0fx" % (c_rate / python) if c_rate else "-",
            vector / python, vector_u8 / python))


if __name__ == "__main__":
    main()
