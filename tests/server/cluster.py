"""cluster.py - several ttt-servers on one private PostgreSQL cluster behind haproxy, all on 127.0.0.1: starts them, serves until interrupted, stops each by pid.

    python3 tests/server/cluster.py --server build/examples/server/ttt-server

starts PostgreSQL (initdb and pg_ctl under /tmp, as `nobody` when run as
root; never the system's cluster), three ttt-server nodes on free ports and
haproxy on --port (default 8080), prints their addresses, and on Ctrl-C or
SIGTERM stops haproxy, the nodes and PostgreSQL. The cluster tests
(test_cluster.py) and the benchmark (load.py --nodes) use its Deployment.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgcluster import Cluster  # noqa: E402
from pgcluster import missing as pg_missing  # noqa: E402
from serverproc import Server, StopSignal, free_port  # noqa: E402

# balance: "uri" sends each game's requests to one node (the first three
# path segments, /api/games/ID, hashed); "roundrobin" spreads every request,
# which the tests use so that one game's requests hit every node.
HAPROXY_CFG = """global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # Event streams stay open for as long as a spectator watches.
    timeout tunnel 1h
    # A node that died before answering: the request goes to another one
    # (only when nothing was sent yet, so a move is never sent twice).
    retries 3
    option redispatch

frontend ttt
    bind 127.0.0.1:{port}
    # The lobby (seeks, the lobby's stream, quick pairing, each account's
    # event stream) lives in one node's memory: its routes all go to one
    # node, the next one up taking over when it is down.
    acl lobby path_beg /api/seeks /api/lobby/ /api/pairing /api/account/events
    use_backend lobby if lobby
    default_backend nodes

backend lobby
    option httpchk GET /api/health
    http-check expect status 200
{lobby_servers}

backend nodes
    {balance}
    option httpchk GET /api/health
    http-check expect status 200
{servers}
"""


def haproxy_missing():
    """Why haproxy cannot be run here, or None."""
    if not shutil.which("haproxy"):
        return "no haproxy (apt-get install haproxy)"
    return None


def missing():
    return pg_missing() or haproxy_missing()


class Deployment:
    """PostgreSQL, nodes ttt-servers on one database, and haproxy in front."""

    def __init__(self, nodes=3, port=None, balance="uri", fsync=False, extra=(), program=None):
        self.dir = tempfile.mkdtemp(prefix="ttt-cluster-")
        self.cluster = Cluster(fsync=fsync)
        self.count = nodes
        self.port = port or free_port()
        self.balance = balance
        self.extra = list(extra)
        self.program = program
        self.nodes = []
        self.haproxy = None
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = None

    def node(self, i):
        return Server(self.db, *self.extra, program=self.program,
                      log=os.path.join(self.dir, f"node-{i}.log"))

    def start(self):
        try:
            self.cluster.start()
            self.db = self.cluster.create_db("ttt")
            # One node first, which creates the schema; then the others.
            for i in range(self.count):
                self.nodes.append(self.node(i).start())
            self.start_haproxy()
        except BaseException:
            self.stop()
            raise
        return self

    def start_haproxy(self):
        balance = "balance roundrobin" if self.balance == "roundrobin" else \
            "balance uri path-only depth 3\n    hash-type consistent"
        servers = "\n".join(f"    server node{i} 127.0.0.1:{n.port} check inter 1s fall 2 rise 1"
                            for i, n in enumerate(self.nodes))
        lobby = "\n".join(f"    server node{i} 127.0.0.1:{n.port} check inter 1s fall 2 rise 1"
                          + (" backup" if i else "") for i, n in enumerate(self.nodes))
        cfg = os.path.join(self.dir, "haproxy.cfg")
        with open(cfg, "w") as f:
            f.write(HAPROXY_CFG.format(port=self.port, balance=balance, servers=servers,
                                       lobby_servers=lobby))
        self.haproxy_log = open(os.path.join(self.dir, "haproxy.log"), "a")
        # -db: in the foreground, not a daemon, so its pid is the one to stop.
        self.haproxy = subprocess.Popen(["haproxy", "-db", "-f", cfg], stdout=self.haproxy_log,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.haproxy.poll() is not None:
                raise RuntimeError("haproxy exited: " + self.output("haproxy.log"))
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("haproxy did not answer within 30 s")

    def output(self, name):
        try:
            with open(os.path.join(self.dir, name), errors="backslashreplace") as f:
                return f.read()
        except OSError:
            return ""

    def stop_haproxy(self):
        """SIGTERM to haproxy by pid (SIGKILL if it does not end)."""
        if self.haproxy and self.haproxy.poll() is None:
            self.haproxy.send_signal(signal.SIGTERM)
            try:
                self.haproxy.wait(10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait(10)
        if self.haproxy:
            self.haproxy_log.close()
            self.haproxy = None

    def stop(self):
        """Stops haproxy, every node and PostgreSQL by pid; True if every node
        stopped cleanly."""
        clean = True
        self.stop_haproxy()
        for n in self.nodes:
            try:
                if n.proc and n.stop() != 0:
                    clean = False
            finally:
                n.kill()
        self.cluster.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        return clean


def for_tests(**options):
    """A pytest fixture's body: a started Deployment(**options), yielded,
    then stopped (every node must stop cleanly); a skip naming the package
    where PostgreSQL or haproxy is missing."""
    import pytest
    why = missing()
    if why:
        pytest.skip(why)
    d = Deployment(**options)
    try:
        d.start()
        yield d
    finally:
        assert d.stop(), "a node did not stop cleanly:\n" + "\n".join(
            d.output(f"node-{i}.log") for i in range(d.count))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=os.environ.get("TTT_SERVER"), help="the ttt-server")
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--port", type=int, default=8080, help="haproxy's port on 127.0.0.1")
    ap.add_argument("--balance", default="uri", choices=["uri", "roundrobin"])
    args = ap.parse_args()
    if not args.server:
        sys.exit("cluster.py: give --server PATH/TO/ttt-server")
    why = missing()
    if why:
        sys.exit("cluster.py: " + why)
    stop = StopSignal()
    d = Deployment(args.nodes, args.port, args.balance, program=args.server)
    d.start()
    try:
        print(f"cluster: haproxy on {d.url}/ ({args.balance}) in front of "
              + ", ".join(n.url for n in d.nodes), flush=True)
        print(f"cluster: PostgreSQL on 127.0.0.1:{d.cluster.port} in {d.cluster.dir};"
              " Ctrl-C stops everything", flush=True)
        while not stop.is_set():
            time.sleep(0.2)
    finally:
        d.stop()
    print("cluster: stopped", flush=True)


if __name__ == "__main__":
    main()
