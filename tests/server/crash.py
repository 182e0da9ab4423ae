"""crash.py - kills ttt-server with SIGKILL under load, restarts it on the same database, and checks nothing acknowledged was lost or doubled.

With --nodes N: N servers on one PostgreSQL behind haproxy (round-robin),
as cluster.py starts them; each kill takes one node at random, and the
clients go through haproxy (a request that met the killed node, answered
502 or 503 by haproxy, is retried like a lost connection). With
--pg-stops M as well, M times among the kills PostgreSQL itself is stopped
(`pg_ctl stop -m immediate`) for a second or two and started again: while
it is down every node answers a new game 503 and no move is acknowledged,
and afterwards the nodes serve again by themselves.

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
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import cell_name  # noqa: E402
from rawhttp import Connection  # noqa: E402
from serverproc import Server, StopSignal, Stopped  # noqa: E402

WIDTH = HEIGHT = 7
K = 4


class Client:
    """One client: its games, moves made one at a time per game, each
    request retried unchanged until the server answers it. It stops once
    `done` is set (the kills are over) or at the deadline."""

    def __init__(self, port, deadline, done, acks, problems, proxied=False, acked_at=None):
        self.conn = Connection(port, timeout=5.0)
        self.acked_at = acked_at  # (sent, answered) of each acknowledgement, monotonic
        self.proxied = proxied    # behind haproxy: its 502/503/504 are retried
        self.deadline = deadline
        self.done = done
        self.acks = acks          # (game, ply) -> cell acknowledged
        self.problems = problems
        self.games = []

    def over(self):
        return self.done.is_set() or time.monotonic() >= self.deadline

    async def call(self, method, path, body=None, token=None):
        """The answer, or None once the run is over (the request may or may
        not have been applied: nothing is concluded from it)."""
        while not self.over():
            try:
                answer = await self.conn.request(method, path, body, token)
                if not (self.proxied and answer[0] in (502, 503, 504)):
                    return answer
            except ConnectionError:
                pass
            await asyncio.sleep(0.05)
        return None

    async def create(self):
        answer = await self.call("POST", "/api/games", {
            "width": WIDTH, "height": HEIGHT, "k": K, "x": {"name": "crash-x"},
            "o": {"name": "crash-o"}})
        if answer is None:
            return None
        status, body = answer
        if status != 201:
            raise RuntimeError(f"create answered {status}: {body}")
        free = [(r, c) for r in range(HEIGHT) for c in range(WIDTH)]
        random.shuffle(free)
        return {"id": body["id"], "tokens": body["tokens"], "ply": 0, "free": free}

    async def run(self, games):
        try:
            await self.play(games)
        finally:
            await self.conn.close()

    async def play(self, games):
        for _ in range(games):
            g = await self.create()
            if g is None:
                return
            self.games.append(g)
        i = 0
        while not self.over():
            g = self.games[i % len(self.games)]
            i += 1
            row, col = g["free"].pop()
            cell, ply = cell_name(row, col), g["ply"]
            seat = "x" if ply % 2 == 0 else "o"
            sent = time.monotonic()
            answer = await self.call("POST", f"/api/games/{g['id']}/moves",
                                     {"ply": ply, "cell": cell}, g["tokens"][seat])
            if answer is None:
                return
            if self.acked_at is not None and answer[0] == 200:
                # Only the last try's send counts: earlier ones were answered
                # otherwise. An answer's time comes from sent, a bound.
                self.acked_at.append((sent, time.monotonic()))
            status, body = answer
            if status != 200:
                self.problems.append(f"{g['id']} ply {ply} {cell}: {status} {body}")
                return
            acked = body["move"]["cell"]
            previous = self.acks.setdefault((g["id"], ply), acked)
            if previous != acked or acked != cell:
                self.problems.append(f"{g['id']} ply {ply}: acknowledged {previous} and {acked}")
            g["ply"] += 1
            if body["state"] != "in_progress":
                fresh = await self.create()
                if fresh is None:
                    return
                self.games[(i - 1) % len(self.games)] = fresh


def won(board, mark):
    for r in range(HEIGHT):
        for c in range(WIDTH):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + i * dr < HEIGHT and 0 <= c + i * dc < WIDTH and
                       board.get((r + i * dr, c + i * dc)) == mark for i in range(K)):
                    return True
    return False


def sqlite_rows(db):
    """The stored moves (game_id, seq, kind, mark, cell) and game ids."""
    con = sqlite3.connect(db)
    moves = list(con.execute("SELECT game_id, seq, kind, mark, cell FROM moves"
                             " ORDER BY game_id, seq"))
    games = {gid for (gid,) in con.execute("SELECT id FROM games")}
    con.close()
    return moves, games


def postgresql_rows(cluster):
    text = cluster.psql("ttt", "SELECT game_id, seq, kind, mark, cell FROM ttt_moves"
                               " ORDER BY game_id, seq")
    moves = [(f[0], *map(int, f[1:])) for f in (line.split("|") for line in text.split())]
    return moves, set(cluster.psql("ttt", "SELECT id FROM ttt_games").split())


def check_store(rows, acks):
    """Problems found in the database: gaps, illegal games, lost or changed acks."""
    problems = []
    moves, games = rows
    stored = {}
    for gid, seq, kind, mark, cell in moves:
        stored.setdefault(gid, []).append((seq, kind, mark, cell))
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


async def load(port, clients, games, deadline, done, acks, problems, proxied, acked_at):
    await asyncio.gather(*(Client(port, deadline, done, acks, problems, proxied,
                                  acked_at).run(games)
                           for _ in range(clients)))


class Owned:
    """The server under test. The killer thread kills and restarts it; close()
    kills it for good, from whichever thread gets there first, and no start
    happens after it."""

    def __init__(self, srv):
        self.srv = srv
        self.lock = threading.Lock()
        self.closed = False

    def restart(self, timeout):
        with self.lock:
            if self.closed:
                return False
            self.srv.kill()
            self.srv.start(timeout=timeout)
            return True

    def start(self, timeout):
        with self.lock:
            if self.closed:
                raise RuntimeError("closed")
            self.srv.start(timeout=timeout)

    def stop(self, timeout):
        with self.lock:
            return self.srv.stop(timeout=timeout)

    def close(self):
        self.closed = True
        with self.lock:
            self.srv.kill()

    def kill_now(self):
        """For the watchdog: the server goes, whatever holds the lock."""
        self.closed = True
        if self.srv.proc:
            self.srv.proc.kill()

    def rows(self):
        return sqlite_rows(self.srv.db)

    def check_url(self):
        return self.srv.url


class OwnedCluster(Owned):
    """The nodes under test behind haproxy (a cluster.Deployment as srv: its
    port and url are haproxy's). A restart kills one node at random and
    starts it again on its port; PostgreSQL and haproxy stay up."""

    def restart(self, timeout):
        with self.lock:
            if self.closed:
                return False
            node = random.choice(self.srv.nodes)
            node.kill()
            node.start(timeout=timeout)
            return True

    def start(self, timeout):
        with self.lock:
            if self.closed:
                raise RuntimeError("closed")
            if not self.srv.nodes:
                self.srv.start()
            for node in self.srv.nodes:
                if not node.proc:
                    node.start(timeout=timeout)

    def stop(self, timeout):
        with self.lock:
            statuses = [node.stop(timeout=timeout) for node in self.srv.nodes]
            return next((s for s in statuses if s != 0), 0)

    def close(self):
        self.closed = True
        with self.lock:
            self.srv.stop()

    def kill_now(self):
        self.closed = True
        for node in self.srv.nodes:
            if node.proc:
                node.proc.kill()

    def outage(self, seconds, timeout):
        """PostgreSQL stopped as by a crash for `seconds`, then started again:
        (down from, down until) in monotonic time, and each node's answer to
        a new game meanwhile; None once closed."""
        import httpx
        with self.lock:
            if self.closed:
                return None
            cluster = self.srv.cluster
            cluster.stop_server()
            down_from = time.monotonic()
            try:
                answers = []
                for node in self.srv.nodes:
                    r = httpx.post(node.url + "/api/games", timeout=timeout,
                                   json={"x": {"name": "crash-x"}, "o": {"name": "crash-o"}})
                    answers.append(r.status_code)
                time.sleep(seconds)
                down_until = time.monotonic()
            finally:
                cluster.start_server()
            return down_from, down_until, answers

    def rows(self):
        return postgresql_rows(self.srv.cluster)

    def check_url(self):
        # One node answers for every game: those it does not hold, it loads.
        return self.srv.nodes[0].url


# The longest a server's start (until it answers) or stop may take.
START_WAIT = 30.0
# The longest the nodes may take to serve again once PostgreSQL is back.
RECOVERY_WAIT = 60.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"))
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--games", type=int, default=8, help="games per client")
    ap.add_argument("--sync", default="full", choices=["full", "normal"])
    ap.add_argument("--dir")
    ap.add_argument("--deadline", type=float,
                    help="seconds for the whole run, every phase included, but "
                         "for the server's starts and stops after the kills, which "
                         "may take %.0f s each on a busy machine "
                         "(default 240 with --ci, else 3600)" % START_WAIT)
    ap.add_argument("--nodes", type=int, metavar="N",
                    help="N servers on one private PostgreSQL behind haproxy (cluster.py)")
    ap.add_argument("--pg-stops", type=int, default=0, metavar="M",
                    help="with --nodes: M times among the kills, PostgreSQL stopped"
                         " (pg_ctl stop -m immediate) and started again")
    ap.add_argument("--ci", action="store_true", help="20 kills, 8 clients, about a minute")
    args = ap.parse_args()
    if args.ci:
        args.kills, args.clients, args.games = 20, 8, 4
    budget = args.deadline or (240.0 if args.ci else 3600.0)
    start = time.monotonic()
    deadline = start + budget
    # The kills and the clients get two thirds of the run; the check and the
    # restart after them the rest. Every wait below ends by the deadline,
    # but for a server's start or stop: each may take START_WAIT whatever is
    # left, since a busy machine slows them most and a short wait there
    # would fail the run for the machine's load, not for the server.
    kill_deadline = start + budget * 2 / 3

    def left():
        return deadline - time.monotonic()

    if args.server:
        os.environ["TTT_SERVER"] = args.server
    owned = None
    if args.pg_stops and not args.nodes:
        sys.exit("crash: --pg-stops needs --nodes")
    if args.nodes:
        from cluster import missing
        why = missing()
        if why:
            print("crash: SKIP: " + why, file=sys.stderr)
            sys.exit(1 if os.environ.get("CI") == "true" else 77)

    stop = StopSignal()

    def past_deadline():
        # The last resort if a wait was not bounded after all: every
        # thread's stack, the server killed, and out.
        print("crash: FAILED: the run outlived its deadline; the stacks:", file=sys.stderr)
        faulthandler.dump_traceback(all_threads=True)
        if owned:
            owned.kill_now()
        os._exit(1)

    watchdog = threading.Timer(budget + 4 * START_WAIT + 30, past_deadline)
    watchdog.daemon = True
    watchdog.start()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = os.path.join(tmp, "crash.db")
        try:
            if args.nodes:
                from cluster import Deployment
                owned = OwnedCluster(Deployment(args.nodes, balance="roundrobin", extra=[
                    "--max-connections-per-address", "0"]))
            else:
                owned = Owned(Server(db, "--sync", args.sync))
            owned.start(timeout=START_WAIT)
            problems = run(args, owned, kill_deadline, left, stop)
            stop.check()
        except Stopped as e:
            problems = [f"stopped by {e}"]
        except Exception as e:  # noqa: BLE001 - reported, then the server goes
            problems = [f"{type(e).__name__}: {e}"]
        finally:
            if owned:
                owned.close()  # no server outlives the test, whatever happened
            watchdog.cancel()
    for p in problems[:20]:
        print("  " + p)
    if problems:
        sys.exit("crash: FAILED")


def run(args, owned, kill_deadline, left, stop):
    srv = owned.srv
    acks, problems = {}, []
    acked_at, outages = [], []
    kills = 0
    done = threading.Event()
    # The outages come after evenly spaced kills.
    outage_after = {args.kills * (i + 1) // (args.pg_stops + 1) for i in range(args.pg_stops)}

    def killer():
        nonlocal kills
        rng = random.Random()
        try:
            while kills < args.kills and time.monotonic() < kill_deadline \
                    and not stop.event.is_set():
                time.sleep(rng.uniform(0.1, 1.0))
                if kills in outage_after and len(outages) < args.pg_stops:
                    down = owned.outage(rng.uniform(1.0, 2.0), timeout=START_WAIT)
                    if down is None:
                        return
                    outages.append(down)
                    outage_after.discard(kills)
                    # The nodes serve again by themselves, before any of
                    # them is killed (a restarted node would be healthy).
                    until = time.monotonic() + RECOVERY_WAIT
                    while not any(sent > down[1] for sent, _ in acked_at[-200:]):
                        if time.monotonic() > until or stop.event.is_set():
                            problems.append("no move acknowledged within %.0f s after"
                                            " PostgreSQL came back" % RECOVERY_WAIT)
                            return
                        time.sleep(0.1)
                if not owned.restart(timeout=START_WAIT):
                    return
                kills += 1
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            problems.append(f"restart after kill {kills + 1}: {e}")
        finally:
            done.set()

    t = threading.Thread(target=killer, daemon=True)
    t.start()
    begun = time.monotonic()

    async def until_killed():
        # The clients stop when the kills are done, or at the kill phase's
        # deadline whatever happens.
        loop_task = asyncio.ensure_future(load(srv.port, args.clients, args.games,
                                               kill_deadline, done, acks, problems,
                                               bool(args.nodes), acked_at))
        while not done.is_set() and time.monotonic() < kill_deadline \
                and not stop.event.is_set():
            await asyncio.sleep(0.1)
        done.set()
        try:
            await asyncio.wait_for(loop_task, max(1.0, left() - 5))
        except asyncio.TimeoutError:
            problems.append("the clients did not stop by the deadline")

    asyncio.run(until_killed())
    t.join(START_WAIT + max(0.0, left()))  # a restart under way may take START_WAIT
    stop.check()
    if t.is_alive():
        problems.append("the killer thread did not stop by the deadline")
        return problems
    elapsed = time.monotonic() - begun
    for down_from, down_until, answers in outages:
        if any(a != 503 for a in answers):
            problems.append(f"while PostgreSQL was down the nodes answered a new game {answers}")
        during = sum(1 for sent, answered in acked_at
                     if sent >= down_from and answered <= down_until)
        if during:
            problems.append(f"{during} moves acknowledged while PostgreSQL was down")
    status = owned.stop(timeout=START_WAIT)
    if status != 0:
        problems.append(f"the server stopped with status {status} after the kills")
    found, stored = check_store(owned.rows(), acks)
    problems += found
    stop.check()
    owned.start(timeout=START_WAIT)
    import httpx
    with httpx.Client(base_url=owned.check_url(), timeout=10.0) as c:
        for gid, log in stored.items():
            stop.check()
            if left() <= 0:
                problems.append("the deadline came while the restarted server was checked")
                break
            got = c.get(f"/api/games/{gid}").json()
            if got["ply"] != len(log):
                problems.append(f"{gid}: served at ply {got['ply']}, stored {len(log)}")
    status = owned.stop(timeout=START_WAIT)
    if status != 0:
        problems.append(f"the server stopped with status {status}")
    moves = sum(len(log) for log in stored.values())
    stops = (f", {len(outages)} stops of PostgreSQL ("
             + ", ".join(f"{u - f:.1f} s" for f, u, _ in outages) + ")") if args.pg_stops else ""
    print(f"crash: {kills} kills{stops} in {elapsed:.0f} s; {len(acks)} moves acknowledged, "
          f"{moves} stored in {len(stored)} games, all replayed by the restarted server; "
          f"{len(problems)} problems")
    if kills < args.kills:
        problems.append(f"{kills} kills of {args.kills} by the kill phase's deadline")
    if len(outages) < args.pg_stops:
        problems.append(f"{len(outages)} stops of PostgreSQL of {args.pg_stops}")
    if not acks:
        problems.append("no move was acknowledged")
    return problems


if __name__ == "__main__":
    main()
