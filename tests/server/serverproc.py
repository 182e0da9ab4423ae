"""serverproc.py - starts and stops a ttt-server process on 127.0.0.1 for the tests, by pid."""
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback

import httpx

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "..", "..", "examples", "server", "static")  # the client's sources


def server_path():
    path = os.environ.get("TTT_SERVER")
    if not path:
        raise RuntimeError("set TTT_SERVER to the built ttt-server")
    return path


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stopped(Exception):
    """SIGTERM or SIGINT reached the script."""


class StopSignal:
    """SIGTERM (as meson sends at a time-out) and SIGINT, caught for a script
    that starts servers. The handler only records the signal: an exception
    raised from it inside an asyncio callback would be swallowed there, and
    one raised half-way through a cleanup would skip the rest of it. Every
    loop of the script tests is_set() or calls check(), so the stop comes
    within a poll and the script's finally blocks stop its processes."""

    def __init__(self):
        self.event = threading.Event()
        self.name = None
        signal.signal(signal.SIGTERM, self.record)
        signal.signal(signal.SIGINT, self.record)

    def record(self, signum, frame):
        self.name = signal.Signals(signum).name
        self.event.set()

    def is_set(self):
        return self.event.is_set()

    def check(self):
        if self.event.is_set():
            raise Stopped(self.name)


def run_stoppable(name, main):
    """Runs main(stop) with a StopSignal; main returns a failure message or
    None. A signal ends the script, once main's finally blocks have run,
    with status 1 and "NAME: stopped by SIGTERM" (or SIGINT)."""
    stop = StopSignal()
    try:
        failure = main(stop)
        stop.check()
    except Stopped:
        failure = f"{name}: stopped by {stop.name}"
    except Exception:
        if not stop.is_set():
            raise
        traceback.print_exc()  # what the signal broke, on the way out
        failure = f"{name}: stopped by {stop.name}"
    if failure:
        sys.exit(failure)


class Server:
    """One server process on a database; start() again after stop() or kill()."""

    started = []  # each start(), in order: conftest.py kills what a test left running

    def __init__(self, db, *extra, port=None, program=None, log=None):
        self.program = program
        self.db = str(db)
        self.logpath = str(log) if log else self.db + ".log"  # a URL's --db needs one
        self.extra = [str(e) for e in extra]
        self.port = port or free_port()
        self.proc = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, timeout=15.0):
        self.log = open(self.logpath, "a")
        self.proc = subprocess.Popen(
            [self.program or server_path(), "--listen", "127.0.0.1", "--port", str(self.port),
             "--db", self.db, *self.extra],
            stdout=self.log, stderr=subprocess.STDOUT)
        Server.started.append(self)
        try:
            self.wait_ready(timeout)
        except BaseException:
            self.kill()  # not answering, or interrupted (Ctrl-C, SIGTERM in pytest)
            raise
        return self

    def wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                raise RuntimeError("ttt-server exited: " + self.output())
            try:
                if httpx.get(self.url + "/api/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("ttt-server did not answer within %.0f s" % timeout)

    def stop(self, timeout=10.0):
        """SIGTERM, then wait; returns the exit status."""
        if not self.proc:
            return None
        os.kill(self.proc.pid, signal.SIGTERM)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        self.log.close()
        self.proc = None
        if status != 0:
            print(self.output(), file=sys.stderr)
        return status

    def kill(self):
        if self.proc:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
            self.log.close()
            self.proc = None

    def output(self):
        """What the server printed, over all its starts (a damaged database's
        bytes that it quotes shown as escapes)."""
        with open(self.logpath, encoding="utf-8", errors="backslashreplace") as f:
            return f.read()
