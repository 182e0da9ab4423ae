"""conftest.py - pytest fixtures: a real ttt-server on a temporary database (or one with cheap password hashes, or under TTT_TEST_NODES=3 three on PostgreSQL behind haproxy) and a client for it; under CI=true a skipped test fails; SIGTERM ends the run as Ctrl-C does; a server a test left running is killed."""
import os
import shutil
import signal
import tempfile

import httpx
import pytest

from serverproc import Server


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true nothing may pass by not running: a skip is a failure."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") == "true":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = "CI=true counts a skip as a failure: %s" % (reason,)


def pytest_configure(config):
    """SIGTERM (meson's time-out, passed on by ci.sh) ends the run as Ctrl-C
    does, so the running test's finally blocks and every fixture's teardown
    still stop their servers; a second one is ignored, not to break into them."""
    def interrupt(signum, frame):
        signal.signal(signum, signal.SIG_IGN)
        raise KeyboardInterrupt("stopped by SIGTERM")

    signal.signal(signal.SIGTERM, interrupt)


@pytest.fixture(autouse=True)
def no_server_left():
    """A test that fails half-way leaves none of its servers running: each
    one it started that still runs at teardown is killed by pid. Servers of
    wider-scoped fixtures (set up before this one) are theirs to stop."""
    first = len(Server.started)
    yield
    for srv in Server.started[first:]:
        srv.kill()
    del Server.started[first:]


# TTT_TEST_NODES=3 (tests/server/ci.sh sets it for the API suites): the
# `server` fixture is three nodes on one PostgreSQL behind haproxy balancing
# round-robin (roundrobin.py), each test on a database of its own in one
# PostgreSQL cluster for the whole run. Tests that start servers of their own
# (not `server`) are not run again that way: they are named in the summary.
NODES = int(os.environ.get("TTT_TEST_NODES", "1"))
SERVER_ARGS = ("--max-size", "19", "--max-games", "1000")


def pytest_collection_modifyitems(config, items):
    if NODES == 1:
        return
    others = [item for item in items if "server" not in item.fixturenames]
    if others:
        config.hook.pytest_deselected(items=others)
        items[:] = [item for item in items if "server" in item.fixturenames]
        config.not_on_nodes = [item.nodeid for item in others]


def pytest_terminal_summary(terminalreporter, config):
    for nodeid in getattr(config, "not_on_nodes", []):
        terminalreporter.write_line(f"not run on {NODES} nodes (no `server` fixture: no server "
                                    f"or one of its own on SQLite, run with one server): {nodeid}")


@pytest.fixture(scope="session")
def postgresql():
    """One PostgreSQL cluster for the run, under TTT_TEST_NODES."""
    from cluster import missing
    from pgcluster import Cluster
    why = missing()
    if why:
        pytest.skip(why)
    pg = Cluster()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def databases(postgresql):
    """Makes a fresh database for each test, its URL returned; first checks,
    on a database of its own, that haproxy spreads one game's requests."""
    from roundrobin import RoundRobinServer, check_spread
    count = iter(range(1, 100000))
    folder = tempfile.mkdtemp(prefix="ttt-rr-")
    probe = RoundRobinServer(postgresql.create_db("spread"), folder, *SERVER_ARGS, nodes=NODES)
    try:
        check_spread(probe.start())
        assert probe.stop() == 0, probe.output()
    finally:
        probe.kill()
        shutil.rmtree(folder, ignore_errors=True)
    return lambda: postgresql.create_db("t%d" % next(count))


@pytest.fixture
def server(request, tmp_path):
    if NODES == 1:
        srv = Server(tmp_path / "games.db", *SERVER_ARGS)
    else:
        from roundrobin import RoundRobinServer
        srv = RoundRobinServer(request.getfixturevalue("databases")(), tmp_path, *SERVER_ARGS,
                               nodes=NODES)
    srv.start()
    try:
        yield srv
        if srv.proc:
            assert srv.stop() == 0, "the server did not stop cleanly"
    finally:
        if NODES != 1:
            srv.kill()  # haproxy, which no_server_left does not know


# Argon2 at its cheapest keeps the tests that make accounts quick;
# test_accounts.py checks the defaults.
FAST_ARGON2 = ("--argon2-memory", "1024", "--argon2-time", "1")


@pytest.fixture
def account_server(tmp_path):
    """A server whose password hashes are cheap, for tests that make accounts."""
    srv = Server(tmp_path / "games.db", *FAST_ARGON2).start()
    yield srv
    if srv.proc:
        assert srv.stop() == 0, "the server did not stop cleanly"


@pytest.fixture
def client(server):
    with httpx.Client(base_url=server.url, timeout=10.0) as c:
        yield c


def auth(token):
    return {"Authorization": "Bearer " + token}


def new_game(client, **body):
    body.setdefault("x", {"name": "Ana", "kind": "human"})
    body.setdefault("o", {"name": "Bo", "kind": "human"})
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()
