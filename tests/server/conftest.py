"""conftest.py - pytest fixtures: a real ttt-server on a temporary database (or one with cheap password hashes) and a client for it; under CI=true a skipped test fails; SIGTERM ends the run as Ctrl-C does; a server a test left running is killed."""
import os
import signal

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


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "games.db", "--max-size", "19", "--max-games", "1000")
    srv.start()
    yield srv
    if srv.proc:
        assert srv.stop() == 0, "the server did not stop cleanly"


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
