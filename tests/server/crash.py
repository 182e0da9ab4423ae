"""crash.py - kills ttt-server with SIGKILL under load, restarts it on the same database, and checks nothing acknowledged was lost or doubled.

Clients retry every request that failed until it is answered. Afterwards:
every acknowledged move is stored exactly once, at its ply; every stored
game replays legally (checked here and by the restarted server, which serves
each game at its stored ply); no ply ever got two different acknowledgements."""
import argparse
import asyncio
import faulthandler
import os
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import cell_name  # noqa: E402
from rawhttp import Connection  # noqa: E402
from serverproc import Server  # noqa: E402

WIDTH = HEIGHT = 7
K = 4


class Client:
    """One client: its games, moves made one at a time per game, each
    request retried unchanged until the server answers it."""

    def __init__(self, port, deadline, acks, problems):
        self.conn = Connection(port, timeout=5.0)
        self.deadline = deadline
        self.acks = acks          # (game, ply) -> cell acknowledged
        self.problems = problems
        self.games = []

    async def call(self, method, path, body=None, token=None):
        while time.monotonic() < self.deadline + 30:
            try:
                return await self.conn.request(method, path, body, token)
            except ConnectionError:
                await asyncio.sleep(0.05)
        raise RuntimeError("the server did not come back")

    async def create(self):
        status, body = await self.call("POST", "/api/games", {
            "width": WIDTH, "height": HEIGHT, "k": K, "x": {"name": "crash-x"},
            "o": {"name": "crash-o"}})
        if status != 201:
            raise RuntimeError(f"create answered {status}: {body}")
        free = [(r, c) for r in range(HEIGHT) for c in range(WIDTH)]
        random.shuffle(free)
        return {"id": body["id"], "tokens": body["tokens"], "ply": 0, "free": free}

    async def run(self, games):
        self.games = [await self.create() for _ in range(games)]
        i = 0
        while time.monotonic() < self.deadline:
            g = self.games[i % len(self.games)]
            i += 1
            row, col = g["free"].pop()
            cell, ply = cell_name(row, col), g["ply"]
            seat = "x" if ply % 2 == 0 else "o"
            status, body = await self.call("POST", f"/api/games/{g['id']}/moves",
                                           {"ply": ply, "cell": cell}, g["tokens"][seat])
            if status != 200:
                self.problems.append(f"{g['id']} ply {ply} {cell}: {status} {body}")
                return
            acked = body["move"]["cell"]
            previous = self.acks.setdefault((g["id"], ply), acked)
            if previous != acked or acked != cell:
                self.problems.append(f"{g['id']} ply {ply}: acknowledged {previous} and {acked}")
            g["ply"] += 1
            if body["state"] != "in_progress":
                self.games[(i - 1) % len(self.games)] = await self.create()
        await self.conn.close()


def won(board, mark):
    for r in range(HEIGHT):
        for c in range(WIDTH):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + i * dr < HEIGHT and 0 <= c + i * dc < WIDTH and
                       board.get((r + i * dr, c + i * dc)) == mark for i in range(K)):
                    return True
    return False


def check_store(db, acks):
    """Problems found in the database: gaps, illegal games, lost or changed acks."""
    problems = []
    con = sqlite3.connect(db)
    stored = {}
    for gid, seq, kind, mark, cell in con.execute(
            "SELECT game_id, seq, kind, mark, cell FROM moves ORDER BY game_id, seq"):
        stored.setdefault(gid, []).append((seq, kind, mark, cell))
    games = {gid for (gid,) in con.execute("SELECT id FROM games")}
    con.close()
    for gid, log in stored.items():
        if gid not in games:
            problems.append(f"{gid}: moves of an unknown game")
        board, over = {}, False
        for i, (seq, kind, mark, cell) in enumerate(log):
            where = (cell // WIDTH, cell % WIDTH)
            if seq != i or kind != 0 or over or mark != (1 if i % 2 == 0 else -1) \
                    or where in board or not 0 <= cell < WIDTH * HEIGHT:
                problems.append(f"{gid}: entry {i} ({seq}, {kind}, {mark}, {cell}) is illegal")
                break
            board[where] = mark
            over = won(board, mark) or len(board) == WIDTH * HEIGHT
    for (gid, ply), cell in acks.items():
        log = stored.get(gid, [])
        if ply >= len(log):
            problems.append(f"{gid} ply {ply}: acknowledged {cell} but not stored")
        else:
            r, c = divmod(log[ply][3], WIDTH)
            if cell_name(r, c) != cell:
                problems.append(f"{gid} ply {ply}: acknowledged {cell}, stored {cell_name(r, c)}")
    return problems, stored


async def load(port, clients, games, deadline, acks, problems):
    await asyncio.gather(*(Client(port, deadline, acks, problems).run(games)
                           for _ in range(clients)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"))
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--games", type=int, default=8, help="games per client")
    ap.add_argument("--sync", default="full", choices=["full", "normal"])
    ap.add_argument("--dir")
    ap.add_argument("--ci", action="store_true", help="20 kills, 8 clients, about a minute")
    args = ap.parse_args()
    if args.ci:
        args.kills, args.clients, args.games = 20, 8, 4
    # Every phase is bounded; past the whole run's bound the stacks of all
    # threads are printed and the run fails, so a stuck run says where.
    kill_phase = 120 if args.ci else 1800
    faulthandler.dump_traceback_later(kill_phase + 120, exit=True)
    if args.server:
        os.environ["TTT_SERVER"] = args.server
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = os.path.join(tmp, "crash.db")
        srv = Server(db, "--sync", args.sync).start()
        try:
            acks, problems = {}, []
            kills = 0

            def killer(loop_deadline):
                nonlocal kills
                rng = random.Random()
                while kills < args.kills and time.monotonic() < loop_deadline:
                    time.sleep(rng.uniform(0.1, 1.0))
                    srv.kill()
                    kills += 1
                    srv.start()

            import threading
            start = time.monotonic()
            deadline = start + kill_phase
            t = threading.Thread(target=killer, args=(deadline,))
            t.start()

            async def until_killed():
                # The clients stop when the kills are done (below), or at the
                # kill phase's bound whatever happens.
                task = asyncio.ensure_future(load(srv.port, args.clients, args.games,
                                                  deadline, acks, problems))
                while t.is_alive():
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.5)  # some load on the last start
                for c in asyncio.all_tasks():
                    if c is not asyncio.current_task():
                        c.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass

            asyncio.run(until_killed())
            t.join()
            elapsed = time.monotonic() - start
            served = {}
            srv.stop()
            found, stored = check_store(db, acks)
            problems += found
            srv.start()
            try:
                import httpx
                with httpx.Client(base_url=srv.url, timeout=10) as c:
                    for gid, log in stored.items():
                        got = c.get(f"/api/games/{gid}").json()
                        served[gid] = got["ply"]
                        if got["ply"] != len(log):
                            problems.append(f"{gid}: served at ply {got['ply']}, stored {len(log)}")
            finally:
                status = srv.stop()
            if status != 0:
                problems.append(f"the server stopped with status {status}")
            moves = sum(len(log) for log in stored.values())
            print(f"crash: {kills} kills in {elapsed:.0f} s; {len(acks)} moves acknowledged, "
                  f"{moves} stored in {len(stored)} games, all replayed by the restarted server; "
                  f"{len(problems)} problems")
            for p in problems[:20]:
                print("  " + p)
            if problems or kills < args.kills or not acks:
                sys.exit("crash: FAILED")
        finally:
            srv.kill()  # no server outlives the test, whatever happened


if __name__ == "__main__":
    main()
