"""logins.py - login cost on ttt-server: the time a login takes (one Argon2id check at the server's default parameters) over N logins one after another, then the 3x3 move load without and with a flood of concurrent logins (moves/s, p50 and p99 of moves, logins/s).

The move load is load.py's, run by the C client (ttt-server-load). The flood
is F clients, each logging in again and again as its own account, created
beforehand; every fourth login has a wrong password. All of it comes from
127.0.0.1, so the server runs with --login-free-failures 1000: with the
default 5, the address would soon be delayed and the flood answered 429
without any hash, which is cheap and not what is measured here.

CI mode (--ci) runs it small and bounded and checks behaviour only: every
right login answered 201, every wrong one 401 or 429, every move
acknowledged; without it, it is the benchmark (see docs/performance.md)."""
import argparse
import asyncio
import contextlib
import io
import os
import re
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import run_c_client  # noqa: E402
from rawhttp import Connection  # noqa: E402
from serverproc import Server, run_stoppable  # noqa: E402

PASSWORD = "correct horse battery"
WRONG_EVERY = 4  # every fourth login of a flooding client has a wrong password


def median_ms(times):
    return sorted(times)[len(times) // 2] * 1000


async def create_accounts(port, count):
    conn = Connection(port)
    names = [f"flood_{i}" for i in range(count)]
    for name in names:
        status, body = await conn.request("POST", "/api/accounts",
                                          {"name": name, "password": PASSWORD})
        if status != 201:
            raise RuntimeError(f"creating {name} answered {status}: {body}")
    await conn.close()
    return names


async def sequential_logins(port, name, count, stop):
    """Times count logins made one after another on one connection."""
    conn = Connection(port)
    times = []
    for _ in range(count):
        stop.check()
        start = time.perf_counter()
        status, body = await conn.request("POST", "/api/sessions",
                                          {"name": name, "password": PASSWORD})
        times.append(time.perf_counter() - start)
        if status != 201:
            raise RuntimeError(f"a login answered {status}: {body}")
    await conn.close()
    return times


async def flood(port, names, done, stop, statuses):
    """Each name's client logs in until done is set; statuses counts the
    answers as (right password?, status)."""
    async def client(name):
        conn = Connection(port)
        i = 0
        while not done.is_set() and not stop.is_set():
            right = i % WRONG_EVERY != WRONG_EVERY - 1
            i += 1
            status, _ = await conn.request("POST", "/api/sessions", {
                "name": name, "password": PASSWORD if right else "not the password"})
            statuses[(right, status)] = statuses.get((right, status), 0) + 1
        await conn.close()
    await asyncio.gather(*(client(name) for name in names))


def load_with(args, srv, stop, flood_names):
    """One run of the move load, with a login flood beside it when
    flood_names is not empty; its figures as a dict."""
    done, statuses, failure = threading.Event(), {}, []

    def flood_thread():
        try:
            asyncio.run(flood(srv.port, flood_names, done, stop, statuses))
        except Exception as e:  # reported by the main thread
            failure.append(e)
    thread = threading.Thread(target=flood_thread, daemon=True)
    lines = io.StringIO()

    class Tee:
        def write(self, text):
            lines.write(text)
            return sys.__stdout__.write(text)

        def flush(self):
            sys.__stdout__.flush()

    start = time.monotonic()
    if flood_names:
        thread.start()
        while not statuses and thread.is_alive() and time.monotonic() < start + 30:
            stop.check()
            time.sleep(0.05)  # until the flood is answered
    try:
        with contextlib.redirect_stdout(Tee()):
            counts = run_c_client(args, srv.port, {"the server": (srv.proc.pid, False)}, stop)
    finally:
        done.set()
        if flood_names:
            thread.join(30)
    elapsed = time.monotonic() - start
    if failure:
        raise RuntimeError(f"the login flood failed: {failure[0]}")
    found = re.search(r"load: (\d+) moves acknowledged .*: (\d+) moves/s, p50 ([\d.]+) ms, "
                      r"p99 ([\d.]+) ms", lines.getvalue())
    if not found:
        raise RuntimeError("the load client printed no figures")
    logins = sum(statuses.values())
    return {"moves": counts["moves"], "errors": counts["errors"],
            "moves_s": float(found.group(2)), "p50": float(found.group(3)),
            "p99": float(found.group(4)), "logins_s": logins / elapsed, "statuses": statuses}


def describe(figures):
    answers = ", ".join(f"{n} {'right' if right else 'wrong'} {status}"
                        for (right, status), n in sorted(figures["statuses"].items()))
    return (f"{figures['moves_s']:.0f} moves/s, p50 {figures['p50']:.2f} ms, "
            f"p99 {figures['p99']:.2f} ms, {figures['logins_s']:.1f} logins/s"
            + (f" ({answers})" if answers else ""))


def measure(args, stop):
    """The run main() asked for: a failure message, or None."""
    os.environ["TTT_SERVER"] = args.server
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        srv = Server(os.path.join(tmp, "logins.db"), "--max-games", "2000000",
                     "--max-connections-per-address", "0", "--login-free-failures", "1000",
                     log=os.path.join(tmp, "server.log"))
        try:
            srv.start()
            names = asyncio.run(create_accounts(srv.port, max(1, args.flood)))
            times = asyncio.run(sequential_logins(srv.port, names[0], args.logins, stop))
            print(f"logins: {args.logins} logins one after another (Argon2id at the server's "
                  f"defaults): median {median_ms(times):.1f} ms, mean "
                  f"{sum(times) / len(times) * 1000:.1f} ms, min {min(times) * 1000:.1f} ms; "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
            quiet = load_with(args, srv, stop, [])
            flooded = load_with(args, srv, stop, names[:args.flood])
        finally:
            status = srv.stop()
    print(f"logins: without a flood: {describe(quiet)}")
    print(f"logins: with {args.flood} clients logging in: {describe(flooded)}")
    print(f"logins: with / without the flood: moves/s "
          f"{flooded['moves_s'] / quiet['moves_s']:.2f}x, p99 "
          f"{flooded['p99'] / quiet['p99']:.2f}x; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    wrong_answers = {s for (right, s) in flooded["statuses"] if not right}
    right_answers = {s for (right, s) in flooded["statuses"] if right}
    if quiet["moves"] == 0 or flooded["moves"] == 0 or quiet["errors"] or flooded["errors"]:
        return "logins: FAILED: moves were not acknowledged"
    if args.ci and (right_answers != {201} or not wrong_answers <= {401, 429}):
        return f"logins: FAILED: the flood's answers were {sorted(flooded['statuses'].items())}"
    if status != 0:
        return f"logins: FAILED: the server exited with {status}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"), help="ttt-server to start")
    ap.add_argument("--c-client", help="ttt-server-load, the C load generator "
                    "(default: the one beside the server)")
    ap.add_argument("--logins", type=int, default=20, help="logins timed one after another")
    ap.add_argument("--flood", type=int, default=16, help="clients logging in during the load")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=20, help="each of the two load runs")
    ap.add_argument("--dir", help="directory for the database (default: a temporary one)")
    ap.add_argument("--ci", action="store_true",
                    help="small and bounded: 3 logins, 4 flooding clients, 50 games, "
                    "8 connections, 3 s")
    args = ap.parse_args()
    if args.ci:
        args.logins, args.flood, args.games, args.connections, args.seconds = 3, 4, 50, 8, 3
    if args.logins < 1 or args.flood < 1:
        ap.error("--logins and --flood take at least 1")
    if not args.server:
        ap.error("--server or TTT_SERVER names the ttt-server to start")
    args.c_client = args.c_client or os.path.join(os.path.dirname(args.server), "ttt-server-load")
    args.width = args.height = args.k = 3  # the 3x3 load of docs/performance.md
    args.clock, args.idle = None, False
    run_stoppable("logins", lambda stop: measure(args, stop))


if __name__ == "__main__":
    main()
