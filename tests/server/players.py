"""players.py - benchmark of GET /api/players: a page of the ratings against the full recomputation from every rated game, in one run.

Writes N finished rated games between distinct players (2N names) straight
into a database the server created, as the server keeps finished games;
starts the server twice, on an empty database and on this one (the second
start rebuilds every rating from the N results: the full recomputation the
route used to make at every request), then times GET /api/players?limit=100
from the top and from the middle (--requests times each, 50 by default).
CI mode (--ci): 2,000 games, and the pages are checked against ratings
computed here."""
import argparse
import os
import sqlite3
import sys
import tempfile
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glicko2ref  # noqa: E402
from serverproc import Server, run_stoppable  # noqa: E402


def write_db(path, n):
    """n rated games, game i: p{2i} (x) beat p{2i+1} (o) on a1-b1-c1."""
    con = sqlite3.connect(path)
    with con:
        con.executemany(
            "INSERT INTO finished (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
            " o_token, finish_order, state, log) VALUES (?,3,3,3,0,0,0,0,1,'human','human',"
            "0,0,?,?,'','',?,1,'0 1 0;0 -1 3;0 1 1;0 -1 4;0 1 2')",
            [("%016x" % i, f"p{2 * i}", f"p{2 * i + 1}", i + 1) for i in range(n)])
    con.close()


def started(srv):
    t = time.monotonic()
    srv.start(timeout=300)
    return time.monotonic() - t


def timed(client, params, repeat, stop):
    t = time.monotonic()
    for _ in range(repeat):
        stop.check()
        r = client.get("/api/players", params=params)
        assert r.status_code == 200, r.text
    return (time.monotonic() - t) / repeat, r.json()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"))
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--requests", type=int, default=50, help="requests timed for each page")
    ap.add_argument("--dir")
    ap.add_argument("--ci", action="store_true")
    args = ap.parse_args()
    if args.ci:
        args.games = 2000
    if args.server:
        os.environ["TTT_SERVER"] = args.server
    run_stoppable("players", lambda stop: measure(args, stop))


def measure(args, stop):
    """The two starts and the timed pages: a failure message, or None."""
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = os.path.join(tmp, "players.db")
        srv = Server(db)
        try:
            empty = started(srv)
            srv.stop()
            stop.check()
            write_db(db, args.games)
            full = started(srv)
            stop.check()
            with httpx.Client(base_url=srv.url, timeout=60) as c:
                top, first = timed(c, {"limit": 100}, args.requests, stop)
                middle_name = f"p{args.games}"  # a loser, in the middle of the ranking
                middle, page = timed(c, {"limit": 100, "after": middle_name}, args.requests,
                                     stop)
            status = srv.stop()
        finally:
            srv.kill()  # stopped already unless the run broke off
        problems = []
        # Every winner and every loser have played one game between two new
        # players: all winners are equal, so are all losers; equals by name.
        win, _ = glicko2ref.game(glicko2ref.INITIAL, glicko2ref.INITIAL, 1)
        winners = sorted(f"p{2 * i}" for i in range(args.games))
        losers = sorted(f"p{2 * i + 1}" for i in range(args.games))
        ranking = winners + losers
        if first["total"] != 2 * args.games:
            problems.append(f"total {first['total']}")
        if [p["name"] for p in first["players"]] != ranking[:100] or \
                {p["rating"] for p in first["players"]} != {round(win[0])}:
            problems.append("the first page is not the best 100")
        at = ranking.index(middle_name) + 1
        if [p["name"] for p in page["players"]] != ranking[at:at + 100]:
            problems.append("the page after %s is not the next 100" % middle_name)
        if status != 0:
            problems.append(f"the server stopped with status {status}")
        print(f"players: {args.games} rated games, {2 * args.games} players: a page of 100 takes "
              f"{top * 1000:.2f} ms from the top, {middle * 1000:.2f} ms from the middle (mean "
              f"of {args.requests} requests); the full recomputation (the start, {full:.2f} s, "
              f"less an empty start, {empty:.2f} s) takes {max(full - empty, 0):.2f} s; "
              f"{len(problems)} problems")
        for p in problems:
            print("  " + p)
    return "players: FAILED" if problems else None


if __name__ == "__main__":
    main()
