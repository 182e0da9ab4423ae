#!/usr/bin/env python3
"""gomocup_match.py - plays two Gomocup (piskvork protocol) brains against each other: freestyle five in a row, colours alternating, seeded openings, results by colour."""
import argparse
import random
import shlex
import subprocess
import sys
import time


class Brain:
    """One engine process spoken to line by line on its stdin and stdout."""

    def __init__(self, command, name):
        self.name = name
        self.last_move = 0.0
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)

    trace = None  # a file that sees every line both ways (--trace)
    # Some brains (Rapfi) print their move before their search has wound
    # down and drop a command that arrives meanwhile: the next command to a
    # brain waits this long after its last move.
    SETTLE_SECONDS = 0.05

    def send(self, line):
        wait = self.last_move + Brain.SETTLE_SECONDS - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if Brain.trace:
            Brain.trace.write("-> %s: %s\n" % (self.name, line))
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self):
        """The next line that is not MESSAGE, DEBUG or empty; None at EOF."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if Brain.trace:
                Brain.trace.write("<- %s: %s\n" % (self.name, line))
            word = line.split(" ", 1)[0].upper() if line else ""
            if word in ("", "MESSAGE", "DEBUG", "SUGGEST"):
                continue
            return line

    def move(self):
        """Waits for an "x,y" answer: (x, y, seconds) or (None, reply, seconds)."""
        start = time.monotonic()
        line = self.answer()
        self.last_move = time.monotonic()
        spent = self.last_move - start
        try:
            x, y = (int(v) for v in line.split(","))
            return x, y, spent
        except (AttributeError, ValueError):
            return None, line, spent

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def five(board, size, x, y):
    """Whether the stone at (x, y) makes five or more in a row (freestyle)."""
    who = board[y][x]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == who:
                run += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if run >= 5:
            return True
    return False


def opening(rng, size, stones):
    """stones distinct cells near the centre, black first (one per side in turn)."""
    centre, cells = size // 2, []
    while len(cells) < stones:
        cell = (centre + rng.randint(-2, 2), centre + rng.randint(-2, 2))
        if cell not in cells:
            cells.append(cell)
    return cells


def play_game(commands, size, timeouts_ms, rule, start_stones, log):
    """commands[0] plays black (moves first). Returns (winner index or None
    for a draw, plies, reason, each brain's move times in seconds)."""
    brains = [Brain(commands[0], "black"), Brain(commands[1], "white")]
    board = [[0] * size for _ in range(size)]
    longest = [[], []]
    try:
        for brain, timeout_ms in zip(brains, timeouts_ms):
            brain.send("START %d" % size)
            if brain.answer() != "OK":
                return None, 0, "START refused by " + brain.name, longest
            brain.send("INFO timeout_turn %d" % timeout_ms)
            brain.send("INFO timeout_match 100000000")
            brain.send("INFO time_left 100000000")
            brain.send("INFO rule %d" % rule)
        for i, (x, y) in enumerate(start_stones):
            board[y][x] = 1 + i % 2
        to_move = len(start_stones) % 2
        if start_stones:
            # Each brain is told the opening, its own stones as 1.
            for side, brain in enumerate(brains):
                if side != to_move:
                    continue
                brain.send("BOARD")
                for i, (x, y) in enumerate(start_stones):
                    brain.send("%d,%d,%d" % (x, y, 1 if i % 2 == side else 2))
                brain.send("DONE")
            waiting = brains[1 - to_move]
            waiting_told = False
        else:
            brains[0].send("BEGIN")
            waiting_told = True
        plies = len(start_stones)
        while plies < size * size:
            mover = brains[to_move]
            x, y, spent = mover.move()
            if x is None:
                return 1 - to_move, plies, "%s answered %r" % (mover.name, y), longest
            longest[to_move].append(spent)
            if not (0 <= x < size and 0 <= y < size) or board[y][x]:
                return 1 - to_move, plies, "%s played illegal %d,%d" % (mover.name, x, y), longest
            board[y][x] = 1 + to_move
            plies += 1
            log.append((x, y))
            if five(board, size, x, y):
                return to_move, plies, "five", longest
            other = brains[1 - to_move]
            if start_stones and not waiting_told and other is waiting:
                # The side that did not move first hears the whole position.
                other.send("BOARD")
                for i, (sx, sy) in enumerate(start_stones):
                    other.send("%d,%d,%d" % (sx, sy, 1 if i % 2 == 1 - to_move else 2))
                other.send("%d,%d,2" % (x, y))
                other.send("DONE")
                waiting_told = True
            else:
                other.send("TURN %d,%d" % (x, y))
            to_move = 1 - to_move
        return None, plies, "full board", longest
    finally:
        for brain in brains:
            brain.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--first", required=True, help="command of the brain under test")
    parser.add_argument("--second", required=True, help="command of the opponent")
    parser.add_argument("--games", type=int, default=40, help="games (pairs of colours)")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--timeout-turn", type=int, default=100, help="ms per move")
    parser.add_argument("--first-timeout-turn", type=int,
                        help="the INFO timeout_turn told to the first brain (default: "
                             "--timeout-turn), for a brain that spends only part of it")
    parser.add_argument("--rule", type=int, default=0, help="INFO rule (0: freestyle)")
    parser.add_argument("--opening-stones", type=int, default=2,
                        help="random stones near the centre; each opening is played twice, colours swapped")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trace", help="write every protocol line to this file")
    parser.add_argument("--moves", action="store_true",
                        help="print each game's moves (x,y from the first after the opening)")
    args = parser.parse_args()
    if args.trace:
        Brain.trace = open(args.trace, "w", encoding="utf-8")

    rng = random.Random(args.seed)
    # results[colour of the first brain][win, draw, loss]
    results = {"black": [0, 0, 0], "white": [0, 0, 0]}
    times = [[], []]  # move times of the first brain, of the second
    stones = []
    for game in range(args.games):
        if game % 2 == 0:
            stones = opening(rng, args.size, args.opening_stones)
        first_black = game % 2 == 0
        commands = [args.first, args.second] if first_black else [args.second, args.first]
        first_timeout = args.first_timeout_turn or args.timeout_turn
        timeouts = [first_timeout, args.timeout_turn]
        if not first_black:
            timeouts.reverse()
        log = []
        winner, plies, reason, longest = play_game(commands, args.size, timeouts,
                                                   args.rule, stones, log)
        first_index = 0 if first_black else 1
        colour = "black" if first_black else "white"
        if winner is None:
            outcome = 1
        else:
            outcome = 0 if winner == first_index else 2
        results[colour][outcome] += 1
        times[0] += longest[first_index]
        times[1] += longest[1 - first_index]
        print("game %2d: first brain %s, %s after %d plies (%s); opening %s" % (
            game + 1, colour, ("wins", "draws", "loses")[outcome], plies, reason,
            " ".join("%d,%d" % s for s in stones)), flush=True)
        if args.moves:
            print("  moves: " + " ".join("%d,%d" % m for m in log), flush=True)
    points = 0.0
    for colour in ("black", "white"):
        w, d, l = results[colour]
        points += w + 0.5 * d
        print("first brain as %s: %d wins, %d draws, %d losses" % (colour, w, d, l))
    total = sum(sum(r) for r in results.values())
    slowest = [max(t, default=0.0) for t in times]
    print("first brain: %.1f points of %d (%.1f%%); slowest move %.0f ms, opponent %.0f ms" % (
        points, total, 100.0 * points / max(total, 1), slowest[0] * 1e3, slowest[1] * 1e3))
    limits = [args.first_timeout_turn or args.timeout_turn, args.timeout_turn]
    for name, spent, limit in zip(("first brain", "opponent"), times, limits):
        over = sum(1 for t in spent if t * 1e3 > limit)
        mean = 1e3 * sum(spent) / max(len(spent), 1)
        print("%s: %d moves, mean %.0f ms, %d over %d ms" % (name, len(spent), mean, over, limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
