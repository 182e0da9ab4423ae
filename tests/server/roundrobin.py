"""roundrobin.py - the API suites' `server` as three ttt-servers on one PostgreSQL database behind haproxy balancing round-robin, so one game's consecutive requests reach different nodes (conftest.py uses it under TTT_TEST_NODES=3)."""
import os

import httpx

from cluster import Deployment
from serverproc import Server, free_port


class RoundRobinServer(Deployment):
    """What the tests use of serverproc.Server, for a deployment: url and
    port are haproxy's, db is the database's URL (for --export), start()
    and stop() act on every node and haproxy, output() is every node's log.
    The PostgreSQL cluster is the caller's, shared by many of these."""

    def __init__(self, db, folder, *extra, nodes=3):
        # Not Deployment.__init__: that one makes a PostgreSQL cluster of its own.
        self.db = db
        self.dir = str(folder)
        self.count = nodes
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.balance = "roundrobin"
        self.extra = [str(e) for e in extra]
        self.program = None
        self.nodes = [self.node(i) for i in range(nodes)]
        self.haproxy = None

    @property
    def proc(self):
        """Something still runs (as Server.proc is set while it runs)."""
        if self.haproxy and self.haproxy.poll() is None:
            return self.haproxy
        return next((n.proc for n in self.nodes if n.proc), None)

    def start(self, timeout=15.0):
        try:
            # One node first, which creates or migrates the schema; then the others.
            for n in self.nodes:
                n.start(timeout)
            # haproxy starts with every node up (they all answer by now).
            self.start_haproxy()
        except BaseException:
            self.kill()
            raise
        return self

    def stop(self, timeout=10.0):
        """SIGTERM to every node, then to haproxy: the nodes end their open
        streams themselves, not haproxy for them. Returns the first non-zero
        exit status of a node, else 0 (None if nothing ran)."""
        if not self.proc:
            return None
        statuses = []
        try:
            for n in self.nodes:
                statuses.append(n.stop(timeout))
        finally:
            self.stop_haproxy()
            for n in self.nodes:
                n.kill()  # only the ones a time-out left running
        return next((s for s in statuses if s), 0)

    def kill(self):
        for n in self.nodes:
            n.kill()
        self.stop_haproxy()

    def output(self, name=None):
        if name:
            return Deployment.output(self, name)
        return "\n".join(f"--- node {i}:\n" + n.output() for i, n in enumerate(self.nodes)
                         if os.path.exists(n.logpath))

    def healths(self):
        """Each node's /api/health, asked of the node itself."""
        return [httpx.get(n.url + "/api/health", timeout=10).json() for n in self.nodes]


def check_spread(srv):
    """Round-robin per request, not per connection: three reads of one game
    on one kept-alive connection through haproxy reach all three nodes, so
    each node then holds the game (health's "games": those a node holds)."""
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        r = c.post("/api/games", json={})
        assert r.status_code == 201, r.text
        for _ in range(srv.count):
            assert c.get(f"/api/games/{r.json()['id']}").status_code == 200
    held = [h["games"] for h in srv.healths()]
    assert held == [1] * srv.count, f"haproxy did not spread one game's requests: {held}"
