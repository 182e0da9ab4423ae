"""restart.py - measures ttt-server's start on a database of many stored games, and the memory each held game costs.

Writes N games (3x3, each with a random legal prefix of moves) straight into a
database the server created (so in its schema), starts the server on it twice,
and prints the time until it answers and its resident memory per game held
(against the same server on an empty database): only games in progress are
held; a finished game is loaded from the store when asked for. CI mode
(--ci): 5,000 games, and every game is checked to be served at its stored ply."""
import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import cpu_seconds  # noqa: E402
from serverproc import Server, run_stoppable  # noqa: E402

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def random_game(rng):
    """A legal 3x3 move list that stops at a random ply or at the game's end."""
    cells, board, moves = list(range(9)), {}, []
    rng.shuffle(cells)
    for ply, cell in enumerate(cells[:rng.randint(0, 9)]):
        mark = 1 if ply % 2 == 0 else -1
        board[cell] = mark
        moves.append((mark, cell))
        if any(all(board.get(c) == mark for c in line) for line in LINES):
            break
    return moves


def won(moves):
    board = dict((cell, mark) for mark, cell in moves)
    return any(all(board.get(c) == mark for c in line) for line in LINES for mark in (1, -1))


def write_db(path, n, seed, stop=None):
    """n games written as an older server left them (logs only): {id: (ply, over)}."""
    rng = random.Random(seed)
    con = sqlite3.connect(path)  # created by the server, in its schema
    expected, order = {}, 0
    with con:
        for i in range(n):
            if stop:  # a StopSignal, in the script; none in test_store.py
                stop.check()
            gid = "%016x" % rng.getrandbits(64)
            con.execute("INSERT INTO games (id, width, height, k, gravity, misere, early_draw,"
                        " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name,"
                        " x_token, o_token) VALUES (?,3,3,3,0,0,0,0,0,'human','human',0,0,"
                        "'Ana','Bo',?,?)", (gid, "%032x" % rng.getrandbits(128),
                                            "%032x" % rng.getrandbits(128)))
            moves = random_game(rng)
            over = len(moves) == 9 or won(moves)
            order += over
            # The entry that ends a game carries its finish order.
            con.executemany("INSERT INTO moves (game_id, seq, kind, mark, cell, finish_order) "
                            "VALUES (?,?,0,?,?,?)",
                            [(gid, seq, mark, cell, order if over and seq == len(moves) - 1
                              else 0) for seq, (mark, cell) in enumerate(moves)])
            expected[gid] = (len(moves), over)
    con.close()
    return expected


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"))
    ap.add_argument("--games", type=int, default=100000)
    ap.add_argument("--dir")
    ap.add_argument("--ci", action="store_true")
    args = ap.parse_args()
    if args.ci:
        args.games = 5000
    if args.server:
        os.environ["TTT_SERVER"] = args.server
    run_stoppable("restart", lambda stop: measure(args, stop))


def measure(args, stop):
    """The two starts and the check: a failure message, or None."""
    limit = str(max(args.games, 1000))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = os.path.join(tmp, "many.db")
        empty = Server(db, "--max-games", limit)
        srv = Server(db, "--max-games", limit)
        try:
            return starts(args, stop, db, empty, srv)
        finally:
            empty.kill()  # both are stopped already unless the run broke off
            srv.kill()


def starts(args, stop, db, empty, srv):
    """Writes the games, then starts srv twice on them and checks what it serves."""
    empty.start()
    base = rss_kib(empty.proc.pid)
    empty.stop()
    t = time.monotonic()
    expected = write_db(db, args.games, 1, stop)
    live = sum(1 for _, over in expected.values() if not over)
    print(f"restart: wrote {args.games} games ({live} in progress), "
          f"{sum(ply for ply, _ in expected.values())} moves in {time.monotonic() - t:.1f} s")
    # The first start finds the finished games as logs only (as a file
    # from before the store kept them whole) and keeps them whole; the
    # restart after it is the one every later start makes.
    t = time.monotonic()
    srv.start(timeout=120)
    first = time.monotonic() - t
    srv.stop()
    stop.check()
    t = time.monotonic()
    srv.start(timeout=120)
    ready = time.monotonic() - t
    # On a shared machine the wall time says more about the others' load
    # than about the start: its CPU time is printed too.
    cpu = cpu_seconds(srv.proc.pid)
    per_game = (rss_kib(srv.proc.pid) - base) * 1024 / max(live, 1)
    problems = 0
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        health = c.get("/api/health").json()
        if health["games"] != live:
            print(f"restart: {health['games']} games held, {live} in progress")
            problems += 1
        sample = list(expected.items())
        if not args.ci:
            sample = random.Random(2).sample(sample, 1000)
        for gid, (ply, over) in sample:
            stop.check()
            got = c.get(f"/api/games/{gid}").json()
            if got["ply"] != ply or (got["state"] != "in_progress") != over:
                problems += 1
    status = srv.stop()
    print(f"restart: {args.games} stored games, {live} in progress held in memory: the first "
          f"start (keeping {args.games - live} finished games whole) took {first:.2f} s, "
          f"a restart {ready:.2f} s ({cpu:.2f} s of CPU; load average "
          f"{os.getloadavg()[0]:.1f}); {per_game:.0f} bytes of resident memory per game held; "
          f"{len(sample)} games checked (finished ones loaded on demand), {problems} problems")
    if problems or status != 0:
        return "restart: FAILED"
    return None


if __name__ == "__main__":
    main()
