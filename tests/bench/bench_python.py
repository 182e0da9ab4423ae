"""bench_python.py - the installed ttt package's cost per call against bare ctypes calls into the same libttt, in one process.

Usage: python3 tests/bench/bench_python.py [--quick] [--c-bench PATH/TO/ttt-bench]

1. Game.play(1, 1) + Game.undo() against ttt_play_next + ttt_undo called
   through bare ctypes on the same game, one reused byref and no checks:
   declared with argtypes (as ctypes code usually is), and without (the
   fastest ctypes calls there are). Goal: within 1.5x.
2. Game.random_playouts against ttt_random_playouts called through bare
   ctypes and, with --c-bench, against ttt-bench's own C timing of
   ttt_random_playouts (its "playouts" rows). Goal: within 1.1x of the C
   games/s.

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


# Boards as ttt-bench's playouts rows name them: (N, K, games per call).
PLAYOUT_BOARDS = [(3, 3, 50000), (4, 4, 30000), (7, 4, 1000)]


def c_bench_rates(path, quick):
    """ttt-bench's games/s for ttt_random_playouts, by (N, K), timed in C."""
    command = [path, "--csv"] + (["--quick"] if quick else []) + ["playouts"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rates = {}
    for line in out.splitlines():
        match = re.match(r"playouts,N=(\d+) K=(\d+),([0-9.e+]+),games/s$", line)
        if match:
            rates[int(match.group(1)), int(match.group(2))] = float(match.group(3))
    return rates


def playouts(args):
    c_rates = c_bench_rates(args.c_bench, args.quick) if args.c_bench else {}
    for n, k, games in PLAYOUT_BOARDS:
        if args.quick:
            games //= 10
        game = ttt.Game(n, k)
        lib, handle = ttt._lib, game._handle
        counts = (ctypes.c_uint64 * 4)()
        seed = ctypes.c_uint64(1)

        def bare():
            start = time.perf_counter()
            lib.ttt_random_playouts(handle, ctypes.byref(seed), games, counts)
            return (time.perf_counter() - start) / games

        py_seed = ttt.Seed(1)
        results = []

        def wrapped():
            start = time.perf_counter()
            results.append(game.random_playouts(py_seed, games))
            return (time.perf_counter() - start) / games

        bare_s, wrapped_s = best_of(3 if args.quick else 41, bare, wrapped)
        if any(sum(r) != games for r in results):
            sys.exit("random_playouts lost games")
        line = ("random_playouts N=%d K=%d  bare ctypes %10.0f games/s  "
                "Game.random_playouts %10.0f games/s (%.3fx the time)"
                % (n, k, 1 / bare_s, 1 / wrapped_s, wrapped_s / bare_s))
        c_rate = c_rates.get((n, k))
        if c_rate:
            line += "  C ttt-bench %10.0f games/s (%.3fx the time; goal <= 1.1x)" % (
                c_rate, c_rate * wrapped_s)
        print(line)


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
