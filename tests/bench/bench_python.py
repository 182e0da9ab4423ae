"""bench_python.py - the installed ttt package's cost per call against bare ctypes calls into the same libttt, in one process.

Usage: python3 tests/bench/bench_python.py [--quick] [--c-bench PATH/TO/ttt-bench]

1. Game.play(1, 1) + Game.undo() against ttt_play_next + ttt_undo called
   through bare ctypes on the same game, one reused byref and no checks:
   declared with argtypes (as ctypes code usually is), and without (the
   fastest ctypes calls there are). Goal: within 1.5x.
2. Game.random_playouts against ttt_random_playouts called through bare
   ctypes, and, with --c-bench, against ttt-bench's C figure for random 3x3
   games (one per call). Goal: within 1.1x of the C games/s.

The machine may be shared: every figure is the best of many short samples,
the two sides of a comparison taken in turn, so a busy moment hits both.
It prints figures and never fails on speed; it fails only on a wrong answer.
"""

import argparse
import ctypes
import re
import subprocess
import sys
import time

import ttt


def best_of(samples, *runs):
    """Runs each timing function in turn, samples times; the best of each."""
    best = [float("inf")] * len(runs)
    for _ in range(samples):
        for i, run in enumerate(runs):
            best[i] = min(best[i], run())
    return best


def play_undo(args):
    game = ttt.Game(3)
    lib, handle = ttt._lib, game._handle
    play_next, undo = lib.ttt_play_next, lib.ttt_undo
    state = ctypes.c_int()
    state_ref = ctypes.byref(state)
    reps = 2000 if args.quick else 20000

    def bare():
        start = time.perf_counter()
        for _ in range(reps):
            play_next(handle, 1, 1, state_ref)
            undo(handle)
        return (time.perf_counter() - start) / reps * 1e9

    # The fastest ctypes can go: function objects without argtypes (no
    # from_param per argument and no checks at all).
    fast_play_next, fast_undo = lib["ttt_play_next"], lib["ttt_undo"]

    def bare_untyped():
        start = time.perf_counter()
        for _ in range(reps):
            fast_play_next(handle, 1, 1, state_ref)
            fast_undo(handle)
        return (time.perf_counter() - start) / reps * 1e9

    play, undo_method = game.play, game.undo

    def wrapped():
        start = time.perf_counter()
        for _ in range(reps):
            play(1, 1)
            undo_method()
        return (time.perf_counter() - start) / reps * 1e9

    bare_ns, untyped_ns, wrapped_ns = best_of(5 if args.quick else 60, bare,
                                              bare_untyped, wrapped)
    if game.ply != 0 or state.value != ttt.IN_PROGRESS:
        sys.exit("play/undo left the game at ply %d" % game.ply)
    print("play+undo  bare ctypes, argtypes declared   %6.0f ns/pair" % bare_ns)
    print("play+undo  bare ctypes, no argtypes         %6.0f ns/pair" % untyped_ns)
    print("play+undo  Game.play + Game.undo            %6.0f ns/pair  "
          "(%.2fx the declared calls, %.2fx the undeclared; goal <= 1.5x)"
          % (wrapped_ns, wrapped_ns / bare_ns, wrapped_ns / untyped_ns))


def c_bench_games_per_s(path):
    """ttt-bench's figure for random 3x3 games, one ttt_random_playout a call."""
    out = subprocess.run([path, "--filter", "playout"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        match = re.match(r"\s*playout\s+n=3\b.*?([0-9.e+]+)\s+games/s", line)
        if match:
            return float(match.group(1))
    return None


def playouts(args):
    game = ttt.Game(3)
    lib, handle = ttt._lib, game._handle
    games = 20000 if args.quick else 200000
    counts = (ctypes.c_uint64 * 4)()
    seed = ctypes.c_uint64(1)

    def bare():
        start = time.perf_counter()
        lib.ttt_random_playouts(handle, ctypes.byref(seed), games, counts)
        return games / (time.perf_counter() - start)

    py_seed = ttt.Seed(1)
    results = []

    def wrapped():
        start = time.perf_counter()
        results.append(game.random_playouts(py_seed, games))
        return games / (time.perf_counter() - start)

    # Best = highest games/s: time per game, then inverted.
    bare_rate, wrapped_rate = (1 / t for t in best_of(
        3 if args.quick else 15, lambda: 1 / bare(), lambda: 1 / wrapped()))
    if any(sum(r) != games for r in results):
        sys.exit("random_playouts lost games")
    print("random_playouts 3x3  bare ctypes  %12.0f games/s" % bare_rate)
    print("random_playouts 3x3  Game method  %12.0f games/s  (%.3fx slower than bare ctypes; goal <= 1.1x)"
          % (wrapped_rate, bare_rate / wrapped_rate))
    if args.c_bench:
        c_rate = c_bench_games_per_s(args.c_bench)
        if c_rate:
            print("random playout 3x3   C ttt-bench  %12.0f games/s  (one game a call; "
                  "Game.random_playouts plays %.2fx as many)" % (c_rate, wrapped_rate / c_rate))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--c-bench", help="path of the ttt-bench program, for its C figure")
    args = parser.parse_args()
    print("ttt %s from %s" % (ttt.version(), ttt.library_path()))
    play_undo(args)
    playouts(args)


if __name__ == "__main__":
    main()
