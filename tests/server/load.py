"""load.py - load generator for ttt-server: C connections playing over G games; prints acknowledged moves/s and p50/p99 latency (--clock: with clocks; --idle: G clocked games left alone, the server's CPU meanwhile; --bots N: a 3x3 bot's reply times while N deep bot games search).

CI mode (--ci) runs a small bounded load on its own server and checks every
move was acknowledged; without it, it is the benchmark (see docs/performance.md)."""
import argparse
import asyncio
import os
import random
import json
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rawhttp import Connection  # noqa: E402
from serverproc import Server, run_stoppable  # noqa: E402


class Game:
    def __init__(self, gid, tokens, width, height):
        self.id, self.tokens = gid, tokens
        self.ply = 0
        self.free = [(r, c) for r in range(height) for c in range(width)]
        random.shuffle(self.free)


def cell_name(row, col):
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(97 + rem) + letters
    return f"{letters}{row + 1}"


async def new_game(conn, args):
    status, body = await conn.request("POST", "/api/games", {
        "width": args.width, "height": args.height, "k": args.k,
        "x": {"name": "load-x"}, "o": {"name": "load-o"}})
    if status != 201:
        raise RuntimeError(f"create answered {status}: {body}")
    return Game(body["id"], body["tokens"], args.width, args.height)


async def worker(port, games, args, deadline, latencies, counts, stop):
    conn = Connection(port)
    i = 0
    while time.monotonic() < deadline:
        stop.check()
        g = games[i % len(games)]
        i += 1
        row, col = g.free.pop()
        seat = "x" if g.ply % 2 == 0 else "o"
        start = time.perf_counter()
        status, body = await conn.request("POST", f"/api/games/{g.id}/moves",
                                          {"ply": g.ply, "cell": cell_name(row, col)},
                                          g.tokens[seat])
        latencies.append(time.perf_counter() - start)
        if status != 200:
            counts["errors"] += 1
            raise RuntimeError(f"move answered {status}: {body}")
        counts["moves"] += 1
        g.ply += 1
        if body["state"] != "in_progress":
            games[(i - 1) % len(games)] = await new_game(conn, args)
            counts["games"] += 1
    await conn.close()


async def run(args, port, stop):
    setup = Connection(port)
    games = [await new_game(setup, args) for _ in range(args.games)]
    await setup.close()
    per = [games[w::args.connections] for w in range(args.connections)]
    latencies, counts = [], {"moves": 0, "games": 0, "errors": 0}
    start = time.monotonic()
    deadline = start + args.seconds
    await asyncio.gather(*(worker(port, per[w], args, deadline, latencies, counts, stop)
                           for w in range(args.connections) if per[w]))
    elapsed = time.monotonic() - start
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    print(f"load: {counts['moves']} moves acknowledged in {elapsed:.1f} s over {args.games} games "
          f"and {args.connections} connections: {counts['moves'] / elapsed:.0f} moves/s, "
          f"p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms ({counts['games']} games replaced)")
    return counts


async def sse_open(port, game_id):
    """An event stream over HTTP/1.0 (so the body is not chunked)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/games/{game_id}/events HTTP/1.0\r\n\r\n".encode())
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    return reader, writer


async def sse_next(reader):
    """The next event as (name, data), skipping comments."""
    name, data = None, None
    while True:
        line = (await reader.readline()).decode()
        if line == "":
            raise ConnectionError("the stream ended")
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and name:
            return name, data


async def bot_replies(port, args, stop):
    """--bots N: N gomoku games of two perfect bots (node budget 2,000,000)
    search on the server while a client plays 3x3 games against the strong
    bot; prints the time from sending each move to the bot's reply."""
    conn = Connection(port)

    async def call(*request):
        """A request, sent again on a new connection if the server closed an
        idle one (a move is idempotent by its ply)."""
        try:
            return await conn.request(*request)
        except ConnectionError:
            return await conn.request(*request)

    for _ in range(args.bots):
        status, body = await conn.request("POST", "/api/games", {
            "game": "gomoku", "x": {"kind": "perfect", "budget": 2000000},
            "o": {"kind": "perfect", "budget": 2000000}})
        if status != 201:
            raise RuntimeError(f"create answered {status}: {body}")
    status, before = await call("GET", "/api/health")
    replies, start = [], time.monotonic()
    while time.monotonic() < start + args.seconds:
        stop.check()
        status, g = await call("POST", "/api/games", {
            "game": "tictactoe", "x": {"name": "load"}, "o": {"kind": "strong"}})
        reader, writer = await sse_open(port, g["id"])
        free = [cell_name(r, c) for r in range(3) for c in range(3)]
        random.shuffle(free)
        ply, over = 0, False
        try:
            while not over and time.monotonic() < start + args.seconds:
                stop.check()
                cell = free.pop()
                sent = time.perf_counter()
                status, body = await call("POST", f"/api/games/{g['id']}/moves",
                                          {"ply": ply, "cell": cell}, g["tokens"]["x"])
                if status != 200:
                    raise RuntimeError(f"move answered {status}: {body}")
                if body["state"] != "in_progress":
                    break
                while True:
                    name, data = await asyncio.wait_for(sse_next(reader), 600)
                    if name == "end":
                        over = True
                        break
                    if name == "move" and data["ply"] == ply + 1:
                        replies.append(time.perf_counter() - sent)
                        free.remove(data["cell"])
                        over = data["state"] != "in_progress"
                        break
                ply += 2
        finally:
            writer.close()
    status, after = await call("GET", "/api/health")
    await conn.close()
    replies.sort()

    def pct(p):
        return replies[min(len(replies) - 1, int(p * len(replies)))] * 1000

    deep = after["moves_acknowledged"] - before["moves_acknowledged"] - 2 * len(replies)
    print(f"bots: {len(replies)} replies of the 3x3 strong bot in {args.seconds:.0f} s while "
          f"{args.bots} gomoku games of two perfect bots (budget 2,000,000) searched "
          f"(about {deep} of their moves played): p50 {pct(0.50):.1f} ms, "
          f"p99 {pct(0.99):.1f} ms, max {replies[-1] * 1000:.1f} ms; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    return {"moves": len(replies), "errors": 0}


def cpu_seconds(pid):
    """User plus system CPU time of a running process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid):
    """CPU time of pid and its children (PostgreSQL's postmaster and the
    backends it forks), from /proc."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if int(entry) == pid or ppid == pid:
                total += cpu_seconds(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return total


def run_c_client(args, port, pids, stop):
    """Runs ttt-server-load against 127.0.0.1:port, printing its lines and
    the CPU time each process in pids ({name: (pid, with_children)}: the
    server, or the nodes, haproxy and PostgreSQL) used in its timed phase:
    on a machine whose cores the client shares with the server (and with
    other work), moves/s alone says little."""
    command = [args.c_client, "--port", str(port), "--games", str(args.games),
               "--connections", str(args.connections), "--seconds", str(args.seconds),
               "--width", str(args.width), "--height", str(args.height), "--k", str(args.k)]
    if args.clock:
        command += ["--clock", args.clock]
    if args.idle:  # the server's CPU while its clocked games are left alone
        command += ["--idle", str(next(iter(pids.values()))[0])]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)

    def cpu(pid, children):
        return tree_cpu_seconds(pid) if children else cpu_seconds(pid)

    before, start, moves = None, None, 0
    try:
        for line in proc.stdout:
            stop.check()  # the client is killed below
            print(line, end="", flush=True)
            if "moving for" in line:
                before = {name: cpu(*p) for name, p in pids.items()}
                start = time.monotonic()
            if line.startswith("idle: "):
                moves = args.games  # held, untouched: the line is the figure
            found = re.match(r"load: (\d+) moves acknowledged", line)
            if found and before is not None:
                elapsed = time.monotonic() - start
                moves = int(found.group(1))
                for name, p in pids.items():
                    used = cpu(*p) - before[name]
                    per_move = f", {used / moves * 1e6:.0f} us a move" if moves else ""
                    print(f"load: {name} used {used:.1f} s of CPU "
                          f"({used / elapsed:.2f} cores{per_move})", flush=True)
                print(f"load: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
                      flush=True)
        stop.check()
        status = proc.wait(timeout=args.seconds + 120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"moves": moves, "errors": status}


def run_nodes(args, stop):
    """The C client through haproxy in front of args.nodes servers."""
    from cluster import Deployment, missing
    why = missing()
    if why or not args.c_client:
        return "load: " + (why or "--nodes needs --c-client")
    d = Deployment(args.nodes, balance="uri", fsync=args.sync == "full", program=args.server,
                   extra=["--max-games", "2000000", "--max-connections-per-address", "0"])
    try:
        d.start()
        stop.check()
        pids = {f"node {i}": (n.proc.pid, False) for i, n in enumerate(d.nodes)}
        pids["haproxy"] = (d.haproxy.pid, False)
        pids["PostgreSQL"] = (d.cluster.postmaster_pid(), True)
        counts = run_c_client(args, d.port, pids, stop)
    finally:
        clean = d.stop()
    if counts["moves"] == 0 or counts["errors"] or not clean:
        return "load: FAILED"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url-port", type=int, help="use a running server on 127.0.0.1:PORT")
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"), help="ttt-server to start")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--width", type=int, default=9)
    ap.add_argument("--height", type=int, default=9)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--sync", default="full", choices=["full", "normal"])
    ap.add_argument("--dir", help="directory for the database (default: a temporary one)")
    ap.add_argument("--c-client", help="run this ttt-server-load (the C load generator) "
                    "instead of the Python clients")
    ap.add_argument("--bots", type=int, metavar="N",
                    help="instead: the 3x3 strong bot's reply times while N gomoku games of "
                    "two perfect bots search")
    ap.add_argument("--postgresql", action="store_true",
                    help="store in a private PostgreSQL cluster (initdb under /tmp, fsync on)"
                    " instead of an SQLite file")
    ap.add_argument("--nodes", type=int, metavar="N",
                    help="with --c-client: N servers on one private PostgreSQL cluster behind"
                    " haproxy (balancing by game id), as tests/server/cluster.py starts them")
    ap.add_argument("--clock", metavar="INITIAL+INCREMENT",
                    help="with --c-client: every game has this Fischer clock (seconds)")
    ap.add_argument("--idle", action="store_true",
                    help="with --c-client and --clock: start the games (one move each), then "
                    "leave them for --seconds and print the server's CPU time meanwhile")
    ap.add_argument("--ci", action="store_true", help="small and bounded: 50 games, 8 connections, 5 s")
    args = ap.parse_args()
    if args.ci:
        args.games, args.connections, args.seconds = 50, 8, 5
    run_stoppable("load", lambda stop: measure(args, stop))


def measure(args, stop):
    """The run main() asked for: a failure message, or None."""
    if args.url_port:
        asyncio.run(run(args, args.url_port, stop))
        return None
    if args.nodes:
        return run_nodes(args, stop)
    cluster = None
    if args.postgresql:
        from pgcluster import Cluster, missing
        why = missing()
        if why:
            return "load: " + why
        cluster = Cluster(fsync=args.sync == "full")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = os.path.join(tmp, "load.db")
        extra = ["--max-games", "2000000", "--sync", args.sync]
        if args.server:
            os.environ["TTT_SERVER"] = args.server
        srv = None
        try:
            if cluster:
                cluster.start()
                db = cluster.create_db("ttt_load")
                extra = ["--max-games", "2000000"]
            stop.check()
            # Every connection comes from one address here: no per-address cap.
            srv = Server(db, *extra, "--max-connections-per-address", "0",
                         log=os.path.join(tmp, "server.log"))
            srv.start()
            stop.check()
            if args.bots:
                counts = asyncio.run(bot_replies(srv.port, args, stop))
            elif args.c_client:
                pids = {"the server": (srv.proc.pid, False)}
                if cluster:
                    pids["PostgreSQL"] = (cluster.postmaster_pid(), True)
                counts = run_c_client(args, srv.port, pids, stop)
            else:
                counts = asyncio.run(run(args, srv.port, stop))
        finally:
            try:
                status = srv.stop() if srv else None  # kills it if SIGTERM does not
            finally:
                if cluster:
                    cluster.stop()
    if counts["moves"] == 0 or counts["errors"] or status != 0:
        return "load: FAILED"
    return None


if __name__ == "__main__":
    main()
