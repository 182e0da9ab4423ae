"""test_pgstore.py - ttt-server on PostgreSQL: games survive restarts and kill -9, two servers on one database store each ply once, a conflict fails only its own write, any server serves any game, two servers timing one clock store one flag, a clock loaded from another server runs there, idle games leave memory and load again, streams follow moves made on another server, PostgreSQL down answers 503, a server stops while PostgreSQL does not answer, the password is never shown, a draw offer is stored."""
import concurrent.futures
import itertools
import subprocess
import threading
import time

import httpx
import pytest

from conftest import FAST_ARGON2, auth
from pgcluster import PASSWORD, Cluster, Relay, missing
from serverproc import Server, free_port, server_path

_names = itertools.count()


@pytest.fixture(scope="module")
def cluster():
    why = missing()
    if why:
        pytest.skip(why)
    c = Cluster()
    try:
        c.start()
        yield c
    finally:
        c.stop()


@pytest.fixture
def db(cluster):
    """A fresh database of the cluster, as a URL with the password in it."""
    return cluster.create_db("ttt_test_%d" % next(_names))


def node(tmp_path, url, name):
    return Server(url, log=tmp_path / (name + ".log"))


@pytest.fixture
def two(tmp_path, db):
    """Two servers on one database, both started: (a, b); each must stop
    cleanly at the end."""
    a = node(tmp_path, db, "a").start()
    b = None
    try:
        b = node(tmp_path, db, "b").start()
        yield a, b
        assert a.stop() == 0 and b.stop() == 0
    finally:
        a.kill()
        if b:
            b.kill()


def new_game(c):
    r = c.post("/api/games", json={"x": {"name": "Ana", "kind": "human"},
                                   "o": {"name": "Bo", "kind": "human"}})
    assert r.status_code == 201, r.text
    return r.json()


def move(c, g, seat, ply, cell):
    return c.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"][seat]),
                  json={"ply": ply, "cell": cell})


def rated_session(c, name):
    """A new account's session, as the Authorization header."""
    body = {"name": name, "password": "pass words"}
    assert c.post("/api/accounts", json=body).status_code == 201
    r = c.post("/api/sessions", json=body)
    assert r.status_code == 201
    c.cookies.clear()
    return auth(r.json()["token"])


def test_games_survive_restarts_and_kill_9(tmp_path, db):
    srv = node(tmp_path, db, "a").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            live, done = new_game(c), new_game(c)
            assert move(c, live, "x", 0, "b2").status_code == 200
            assert move(c, live, "o", 1, "a1").status_code == 200
            for ply, (seat, cell) in enumerate([("x", "b2"), ("o", "a1"), ("x", "a3"),
                                                ("o", "b1"), ("x", "c1")]):
                assert move(c, done, seat, ply, cell).status_code == 200
            assert c.get(f"/api/games/{done['id']}").json()["state"] == "x_won"
        srv.kill()  # SIGKILL: every answered move must be in the database
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            assert c.get(f"/api/games/{live['id']}").json()["moves"] == ["b2", "a1"]
            back = c.get(f"/api/games/{done['id']}").json()  # finished: loaded on demand
            assert back["state"] == "x_won" and back["moves"] == ["b2", "a1", "a3", "b1", "c1"]
            assert move(c, live, "x", 2, "c3").status_code == 200
        assert srv.stop() == 0
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            assert c.get(f"/api/games/{live['id']}").json()["moves"] == ["b2", "a1", "c3"]
            assert c.get("/api/players").status_code == 200
    finally:
        srv.kill()
    assert PASSWORD not in srv.output()


def test_two_servers_store_each_ply_once(tmp_path, db, cluster):
    a = node(tmp_path, db, "a").start()
    b = None
    try:
        with httpx.Client(base_url=a.url, timeout=10) as ca:
            games = [new_game(ca) for _ in range(6)]
            # B starts after the games exist: it loads them in progress.
            b = node(tmp_path, db, "b").start()
            with httpx.Client(base_url=b.url, timeout=10) as cb:
                g = games[0]
                first = move(ca, g, "x", 0, "b2")
                assert first.status_code == 200
                lost = move(cb, g, "x", 0, "c3")  # B's copy is behind: the store refuses
                assert lost.status_code == 409, lost.text
                assert lost.json()["status"] == "TTT_E_STALE"
                assert lost.json()["move"] == {"ply": 0, "cell": "b2", "mark": "x"}
                again = move(cb, g, "x", 0, "b2")  # the same move through B: the same 200
                assert again.status_code == 200 and again.json() == first.json()
                assert move(cb, g, "o", 1, "a1").status_code == 200  # B is caught up
                behind = move(ca, g, "o", 1, "c1")
                assert behind.status_code == 409
                assert behind.json()["move"] == {"ply": 1, "cell": "a1", "mark": "o"}

                # The same ply sent to both at once, for each other game.
                def send(args):
                    client, game, cell = args
                    return cell, move(client, game, "x", 0, cell)

                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                    for game in games[1:]:
                        answers = list(pool.map(send, [(ca, game, "a1"), (cb, game, "c3")]))
                        codes = sorted(r.status_code for _, r in answers)
                        assert codes == [200, 409], [r.text for _, r in answers]
                        won = next(cell for cell, r in answers if r.status_code == 200)
                        loser = next(r for _, r in answers if r.status_code == 409)
                        assert loser.json()["move"] == {"ply": 0, "cell": won, "mark": "x"}
                        stored = cluster.psql(db.rsplit("/", 1)[1],
                                              "SELECT count(*) FROM ttt_moves WHERE game_id = '%s'"
                                              % game["id"])
                        assert stored.strip() == "1"
        assert a.stop() == 0 and b.stop() == 0
    finally:
        a.kill()
        if b:
            b.kill()
    assert PASSWORD not in a.output() and PASSWORD not in b.output()


def test_the_password_is_never_shown(tmp_path, cluster, db):
    name = db.rsplit("/", 1)[1]
    schema = cluster.psql(name, "SELECT 1")  # the database exists
    assert schema.strip() == "1"
    wrong = cluster.url(name, password="not-" + PASSWORD)
    srv = node(tmp_path, wrong, "wrong")
    with pytest.raises(RuntimeError) as failed:
        srv.start()
    out = srv.output()
    assert "password authentication failed" in out and "***" in out
    assert "not-" + PASSWORD not in out and PASSWORD not in str(failed.value)
    # A password with an unescaped '@', which libpq reads as a host and a
    # port and quotes back: no piece of it is shown either.
    odd = node(tmp_path, "postgresql://ttt:pw@x:Piece0fSecret@127.0.0.1:%d/%s"
               % (cluster.port, name), "odd")
    with pytest.raises(RuntimeError):
        odd.start()
    assert "Piece0fSecret" not in odd.output() and "***" in odd.output()
    # A database that is not there: its name is said, the password is not.
    gone = node(tmp_path, cluster.url("no_such_db"), "gone")
    with pytest.raises(RuntimeError):
        gone.start()
    assert "no_such_db" in gone.output() and PASSWORD not in gone.output()
    # The schema carries its version and (game_id, seq) is the log's key.
    ok = node(tmp_path, db, "ok").start()
    assert ok.stop() == 0
    assert cluster.psql(name, "SELECT version FROM ttt_schema").strip() == "4"
    key = cluster.psql(name, "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
                             " WHERE conrelid = 'ttt_moves'::regclass AND contype = 'p'")
    assert key.strip() == "PRIMARY KEY (game_id, seq)"
    assert PASSWORD not in ok.output()


def test_a_conflict_fails_only_its_own_write(tmp_path, db, cluster):
    """Moves sent together through one server share its transactions; the
    plies another server stored first are refused one by one (409 naming
    the move that stands), the others are stored."""
    a = node(tmp_path, db, "a").start()
    b = None
    try:
        with httpx.Client(base_url=a.url, timeout=10) as ca:
            games = [new_game(ca) for _ in range(24)]
            b = node(tmp_path, db, "b").start()  # loads the 24 games at ply 0
            taken = games[:12]
            for g in taken:  # B does not know of these moves
                assert move(ca, g, "x", 0, "a1").status_code == 200
            sends = [(g, "c3") for g in games]  # through B: half conflict, half not
            with httpx.Client(base_url=b.url, timeout=10) as cb, \
                    concurrent.futures.ThreadPoolExecutor(max_workers=24) as pool:
                answers = list(pool.map(lambda s: move(cb, s[0], "x", 0, s[1]), sends))
            for g, r in zip(games, answers):
                if g in taken:
                    assert r.status_code == 409, r.text
                    assert r.json()["move"] == {"ply": 0, "cell": "a1", "mark": "x"}
                else:
                    assert r.status_code == 200, r.text
            name = db.rsplit("/", 1)[1]
            rows = cluster.psql(name, "SELECT count(*), count(DISTINCT game_id) FROM ttt_moves")
            assert rows.strip() == "24|24"
        assert a.stop() == 0 and b.stop() == 0
    finally:
        a.kill()
        if b:
            b.kill()


PG_SCHEMA_V1 = """
CREATE TABLE ttt_schema (version integer NOT NULL);
INSERT INTO ttt_schema VALUES (1);
CREATE TABLE ttt_games (id text PRIMARY KEY, pos bigserial NOT NULL,
 width integer NOT NULL, height integer NOT NULL, k integer NOT NULL,
 gravity integer NOT NULL, misere integer NOT NULL, early_draw integer NOT NULL,
 ply_limit integer NOT NULL, rated integer NOT NULL, x_kind text NOT NULL,
 o_kind text NOT NULL, x_budget bigint NOT NULL, o_budget bigint NOT NULL,
 x_name text NOT NULL, o_name text NOT NULL, x_token text NOT NULL, o_token text NOT NULL);
CREATE TABLE ttt_moves (game_id text NOT NULL REFERENCES ttt_games (id), seq integer NOT NULL,
 pos bigserial NOT NULL, kind integer NOT NULL, mark integer NOT NULL,
 cell integer NOT NULL, finish_order bigint NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seq));
CREATE TABLE ttt_finished (id text PRIMARY KEY REFERENCES ttt_games (id),
 finish_order bigint NOT NULL, state integer NOT NULL, log text NOT NULL);
CREATE INDEX ttt_finished_order ON ttt_finished (finish_order);
INSERT INTO ttt_games (id, width, height, k, gravity, misere, early_draw, ply_limit, rated,
 x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token, o_token) VALUES
 ('live', 3, 3, 3, 0, 0, 0, 0, 0, 'human', 'human', 0, 0, 'Ana', 'Bo', '%s', '%s'),
 ('done', 3, 3, 3, 0, 0, 0, 0, 0, 'human', 'human', 0, 0, 'Ana', 'Bo', '%s', '%s');
INSERT INTO ttt_moves (game_id, seq, kind, mark, cell, finish_order) VALUES
 ('live', 0, 0, 1, 4, 0), ('done', 0, 0, 1, 4, 0), ('done', 1, 1, -1, -1, 1);
INSERT INTO ttt_finished VALUES ('done', 1, 1, '0 1 4;1 -1 -1');
""" % ("x" * 32, "o" * 32, "x" * 32, "o" * 32)


def test_a_version_1_schema_is_migrated_to_clocks(tmp_path, cluster, db):
    name = db.rsplit("/", 1)[1]
    cluster.psql(name, PG_SCHEMA_V1)
    srv = node(tmp_path, db, "v1").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            live = c.get("/api/games/live").json()
            assert live["moves"] == ["b2"] and live["state"] == "in_progress"
            assert "clock" not in live  # no clock: the state as before clocks
            done = c.get("/api/games/done").json()  # its log text from before clocks
            assert (done["state"], done["ending"]) == ("x_won", "resign")
            assert c.post("/api/games/live/moves", headers=auth("o" * 32),
                          json={"ply": 1, "cell": "a1"}).status_code == 200
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert cluster.psql(name, "SELECT version FROM ttt_schema").strip() == "4"
    row = cluster.psql(name, "SELECT at_ms > 0, x_clock_ms, o_clock_ms FROM ttt_moves"
                             " WHERE game_id = 'live' AND seq = 1")
    assert row.strip() == "t|-1|-1"


def test_a_rated_game_joined_keeps_its_o_account_over_a_restart(tmp_path, db):
    srv = Server(db, *FAST_ARGON2, log=tmp_path / "rated.log").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            ana, bo = rated_session(c, "Ana"), rated_session(c, "Bob")
            r = c.post("/api/games", json={"game": "tictactoe", "rated": True}, headers=ana)
            gid = r.json()["id"]
            r = c.post(f"/api/games/{gid}/join", headers=bo)
            assert r.status_code == 200, r.text
            assert r.json()["players"]["o"]["name"] == "Bob"
        assert srv.stop() == 0
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            game = c.get(f"/api/games/{gid}").json()
            assert game["players"]["o"] == {"name": "Bob", "kind": "human"}
            assert c.post(f"/api/games/{gid}/moves", headers=ana,
                          json={"ply": 0, "cell": "b2"}).status_code == 200
            assert c.post(f"/api/games/{gid}/moves", headers=bo,
                          json={"ply": 1, "cell": "a1"}).status_code == 200
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_any_server_serves_any_game(two):
    """A game created on one server after the other started is played on
    both in turn, each answer as one server gives it; a game ended on one
    is over on the other."""
    a, b = two
    with httpx.Client(base_url=a.url, timeout=10) as ca, \
            httpx.Client(base_url=b.url, timeout=10) as cb:
        g = new_game(ca)
        assert cb.get(f"/api/games/{g['id']}").json()["moves"] == []
        plays = [("x", "b2"), ("o", "a1"), ("x", "a3"), ("o", "b1"), ("x", "c1")]
        for ply, (seat, cell) in enumerate(plays):
            r = move(cb if ply % 2 == 0 else ca, g, seat, ply, cell)
            assert r.status_code == 200, r.text
            assert r.json()["move"] == {"ply": ply, "cell": cell, "mark": seat}
            other = ca if ply % 2 == 0 else cb
            seen = other.get(f"/api/games/{g['id']}").json()
            assert seen["moves"] == [c for _, c in plays[:ply + 1]]
        assert ca.get(f"/api/games/{g['id']}").json()["state"] == "x_won"
        assert cb.get(f"/api/games/{g['id']}").json()["state"] == "x_won"
        late = move(ca, g, "o", 5, "c3")
        assert late.status_code == 409 and late.json()["status"] == "TTT_E_GAME_OVER"
        assert cb.get("/api/games/0123456789abcdef00").status_code == 404
        assert ca.get("/api/health").json()["games"] == 0
        assert cb.get("/api/health").json()["games"] == 0


def test_endings_racing_on_two_servers(two, db, cluster):
    """The same resignation through both servers at once: both answer 200
    with the same state, one row stored; a resignation racing a move: no
    503, and the log replays."""
    a, b = two
    name = db.rsplit("/", 1)[1]
    with httpx.Client(base_url=a.url, timeout=10) as ca, \
            httpx.Client(base_url=b.url, timeout=10) as cb, \
            concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(4):
            g = new_game(ca)
            assert cb.get(f"/api/games/{g['id']}").status_code == 200  # B holds it too
            resign = lambda c: c.post(f"/api/games/{g['id']}/resign",  # noqa: E731
                                      headers=auth(g["tokens"]["x"]))
            answers = list(pool.map(resign, [ca, cb]))
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            assert answers[0].json() == answers[1].json()
            assert answers[0].json()["state"] == "o_won"
            rows = cluster.psql(name, "SELECT count(*) FROM ttt_moves WHERE game_id = '%s'"
                                % g["id"])
            assert rows.strip() == "1"
        for _ in range(4):
            g = new_game(ca)
            assert cb.get(f"/api/games/{g['id']}").status_code == 200
            sends = [lambda: ca.post(f"/api/games/{g['id']}/resign",
                                     headers=auth(g["tokens"]["x"])),
                     lambda: move(cb, g, "x", 0, "b2")]
            answers = list(pool.map(lambda f: f(), sends))
            codes = [r.status_code for r in answers]
            assert 503 not in codes and codes[0] == 200, [r.text for r in answers]
            final = ca.get(f"/api/games/{g['id']}").json()
            assert final["state"] == "o_won"
            assert final == cb.get(f"/api/games/{g['id']}").json()
            assert final["moves"] == (["b2"] if codes[1] == 200 else [])


class Spectator:
    """An event stream read on a thread of its own: the first count events."""

    def __init__(self, url, game_id, count, last=None):
        self.events, self.error = [], None
        self.thread = threading.Thread(target=self._read, args=(url, game_id, count, last),
                                       daemon=True)
        self.opened = threading.Event()
        self.thread.start()
        assert self.opened.wait(30), "the stream did not open"

    def _read(self, url, game_id, count, last):
        headers = {"Last-Event-ID": str(last)} if last is not None else {}
        try:
            with httpx.stream("GET", f"{url}/api/games/{game_id}/events", headers=headers,
                              timeout=60) as r:
                self.opened.set()
                current, pending = {}, b""
                for chunk in r.iter_raw():  # as it comes (iter_lines may wait for more)
                    pending += chunk
                    while b"\n" in pending:
                        raw, pending = pending.split(b"\n", 1)
                        line = raw.decode()
                        if line == "":
                            if current:
                                self.events.append(current)
                            current = {}
                            if len(self.events) >= count:
                                return
                        elif not line.startswith(":"):
                            key, _, value = line.partition(": ")
                            current[key] = value
        except Exception as e:  # noqa: BLE001 - reported by the test
            self.error = e
            self.opened.set()

    def wait(self, timeout=60):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the stream did not get its events: %r" % self.events
        assert self.error is None, self.error
        return self.events


def retried(send, tries=100):
    """send() until it is not a 503 (the store reconnecting), bounded."""
    for _ in range(tries):
        r = send()
        if r.status_code != 503:
            return r
        time.sleep(0.1)
    return r


def test_streams_follow_moves_made_on_another_server(two, db, cluster):
    a, b = two
    with httpx.Client(base_url=a.url, timeout=10) as ca, \
            httpx.Client(base_url=b.url, timeout=10) as cb:
        g = new_game(ca)
        plays = [("x", "b2"), ("o", "a1"), ("x", "a3"), ("o", "b1"), ("x", "c1")]
        watch = Spectator(a.url, g["id"], count=3)  # on A
        for ply, (seat, cell) in enumerate(plays[:3]):
            assert move(cb, g, seat, ply, cell).status_code == 200  # on B
        events = watch.wait()
        assert [e["id"] for e in events] == ["1", "2", "3"]
        assert ['"cell":"%s"' % c in e["data"] for e, (_, c) in zip(events, plays)] == \
            [True] * 3
        # A reconnect with Last-Event-ID replays what followed event 1.
        again = Spectator(a.url, g["id"], count=2, last=1).wait()
        assert [e["id"] for e in again] == ["2", "3"]

        # PostgreSQL goes down and comes back: A listens again and reads
        # the log, so its stream misses nothing made on B meanwhile.
        watch = Spectator(a.url, g["id"], count=3, last=3)
        cluster.stop_server()
        cluster.start_server()
        r = retried(lambda: move(cb, g, "o", 3, "b1"))
        assert r.status_code == 200, r.text
        assert retried(lambda: move(cb, g, "x", 4, "c1")).status_code == 200
        events = watch.wait()
        assert [e.get("id") for e in events] == ["4", "5", "5"]
        assert [e["event"] for e in events] == ["move", "move", "end"]
        assert '"state":"x_won"' in events[2]["data"]
    assert "listening again" in a.output()


def test_postgresql_down_answers_503_then_recovers(two, db, cluster):
    """While PostgreSQL is down a move is refused (503, never 200) and
    nothing is stored; once it is back both servers store again by
    themselves, and every acknowledged move is there once."""
    a, b = two
    with httpx.Client(base_url=a.url, timeout=10) as ca, \
            httpx.Client(base_url=b.url, timeout=10) as cb:
        games = [new_game(ca) for _ in range(4)]
        for g in games:
            assert move(cb, g, "x", 0, "b2").status_code == 200
        cluster.stop_server()
        try:
            for g in games:
                for c in (ca, cb):
                    r = move(c, g, "o", 1, "a1")
                    assert r.status_code == 503, r.text
            # B's writes failed (A's moves failed to read what B stored).
            assert cb.get("/api/health").status_code == 503
            # A game A does not hold cannot be read: 503, not "no such game".
            assert ca.get("/api/games/0123456789abcdef00").status_code == 503
            assert cb.get(f"/api/games/{games[0]['id']}").status_code == 200  # held: its copy
        finally:
            cluster.start_server()
        for g in games:
            r = retried(lambda: move(ca, g, "o", 1, "a1"))
            assert r.status_code == 200, r.text
            r = retried(lambda: move(cb, g, "x", 2, "c3"))
            assert r.status_code == 200, r.text
        name = db.rsplit("/", 1)[1]
        rows = cluster.psql(name, "SELECT count(*), count(DISTINCT (game_id, seq)) FROM ttt_moves")
        assert rows.strip() == "12|12"
        assert cb.get("/api/health").status_code == 200  # a commit in which all succeeded


def test_two_servers_timing_one_clock_store_one_flag(tmp_path, db, cluster):
    a = node(tmp_path, db, "ca").start()
    b = None
    try:
        with httpx.Client(base_url=a.url, timeout=10) as ca:
            # x's first move is due within the clock's 2 s of the start: on a
            # busy machine it may come late (x then loses on time at ply 0),
            # so a longer clock is tried next.
            for initial in (2, 10, 30):
                g = ca.post("/api/games", json={"clock": {"initial_s": initial}}).json()
                if move(ca, g, "x", 0, "b2").status_code == 200:  # o's clock runs
                    break
            else:
                pytest.fail("x's first move came late three times")
            # B starts after it: it loads the game in progress and times it too.
            b = node(tmp_path, db, "cb").start()
            with httpx.Client(base_url=b.url, timeout=10) as cb:
                got = None
                for _ in range(600):  # bounded: at most about 60 s; B's copy is not asked
                    got = ca.get(f"/api/games/{g['id']}").json()
                    if got["state"] != "in_progress":
                        break
                    time.sleep(0.1)
                assert (got["state"], got["ending"]) == ("x_won", "time")
                # B's timer flags too: the store keeps one flag, and B, told
                # so by the conflict, catches up once instead of retrying
                # (a retry would be a commit a second from then on).
                commits = cb.get("/api/health").json()["store"]["commits"]
                time.sleep(3)
                assert cb.get("/api/health").json()["store"]["commits"] <= commits + 1
                flags = cluster.psql(db.rsplit("/", 1)[1], "SELECT count(*) FROM ttt_moves"
                                     " WHERE game_id = '%s' AND kind = 3" % g["id"])
                assert flags.strip() == "1"
                got = cb.get(f"/api/games/{g['id']}").json()
                assert (got["state"], got["ending"]) == ("x_won", "time")
        assert a.stop() == 0 and b.stop() == 0
    finally:
        a.kill()
        if b:
            b.kill()


def test_a_server_stops_while_postgresql_does_not_answer(tmp_path, db, cluster):
    """PostgreSQL's address accepts connections and never answers: a
    server cannot start on it (a bounded connect, a clear error), and one
    running stops cleanly on SIGTERM while its listening connection is
    trying to reconnect."""
    relay = Relay(cluster.port)
    try:
        url = db.replace(":%d/" % cluster.port, ":%d/" % relay.port)
        srv = node(tmp_path, url, "silent").start()
        try:
            with httpx.Client(base_url=srv.url, timeout=30) as c:
                g = new_game(c)
                assert move(c, g, "x", 0, "b2").status_code == 200
            relay.silence()
            # The listening connection was cut: it reconnects into the silence.
            for _ in range(600):  # bounded: at most about 60 s
                if relay.silent_accepts > 0:
                    break
                time.sleep(0.1)
            assert relay.silent_accepts > 0
            assert srv.stop(timeout=60) == 0, srv.output()
        finally:
            srv.kill()
        # A start on the silent address gives up with the reason.
        log = tmp_path / "start.log"
        with open(log, "w") as out:
            proc = subprocess.Popen([server_path(), "--listen", "127.0.0.1", "--port",
                                     str(free_port()), "--db", url], stdout=out,
                                    stderr=subprocess.STDOUT)
            try:
                status = proc.wait(60)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
        text = log.read_text()
        assert status != 0, text
        assert "no answer within" in text and PASSWORD not in text, text
    finally:
        relay.close()


def test_a_clock_loaded_from_another_server_runs_there(tmp_path, db, cluster):
    """A clocked game that B only loaded (A created it and took x's move)
    is timed on B too: A stops, and B decides o's flag fall."""
    a = node(tmp_path, db, "la").start()
    b = node(tmp_path, db, "lb").start()
    name = db.rsplit("/", 1)[1]
    try:
        with httpx.Client(base_url=a.url, timeout=10) as ca, \
                httpx.Client(base_url=b.url, timeout=10) as cb:
            # On a busy machine x's first move, or B's load, may come after
            # A decided the flag: a longer clock is tried next.
            for initial in (3, 10, 30):
                g = ca.post("/api/games", json={"clock": {"initial_s": initial}}).json()
                if move(ca, g, "x", 0, "b2").status_code != 200:
                    continue
                if cb.get(f"/api/games/{g['id']}").json()["state"] != "in_progress":
                    continue  # B loaded it over already
                assert a.stop(timeout=60) == 0
                flags = cluster.psql(name, "SELECT count(*) FROM ttt_moves"
                                     " WHERE game_id = '%s' AND kind = 3" % g["id"])
                if flags.strip() == "0":  # A stopped before o's flag fell: B's to decide
                    break
                a.start()
            else:
                pytest.fail("the game ended before A stopped three times")
            got = None
            for _ in range(900):  # bounded: at most about 90 s
                got = cb.get(f"/api/games/{g['id']}").json()
                if got["state"] != "in_progress":
                    break
                time.sleep(0.1)
            assert (got["state"], got["ending"]) == ("x_won", "time"), got
            flags = cluster.psql(name, "SELECT count(*) FROM ttt_moves"
                                 " WHERE game_id = '%s' AND kind = 3" % g["id"])
            assert flags.strip() == "1"
        assert b.stop() == 0
    finally:
        a.kill()
        b.kill()


def test_idle_games_leave_memory_and_load_again(tmp_path, db):
    """A game B loaded from the database stays in B's memory while
    something uses it (here an event stream), leaves it once idle
    (--unload-idle 1; /api/health counts the games held), and is loaded
    again, current, by B's next request."""
    a = node(tmp_path, db, "ia").start()
    # --idle-timeout 4: B notices the closed stream at its next keep-alive,
    # every 2 s (not 15).
    b = Server(db, "--unload-idle", "1", "--idle-timeout", "4",
               log=tmp_path / "ib.log").start()
    try:
        with httpx.Client(base_url=a.url, timeout=10) as ca, \
                httpx.Client(base_url=b.url, timeout=10) as cb:
            g = new_game(ca)
            assert move(ca, g, "x", 0, "b2").status_code == 200
            watch = Spectator(b.url, g["id"], count=2)
            for _ in range(300):  # bounded: at most about 30 s
                if watch.events:
                    break
                time.sleep(0.1)
            assert watch.events, "the stream sent nothing"
            assert cb.get("/api/health").json()["games"] == 1  # held by its stream
            assert move(ca, g, "o", 1, "a1").status_code == 200
            assert [e["event"] for e in watch.wait()] == ["move", "move"]
            held = None
            for _ in range(1200):  # bounded: at most about 120 s
                held = cb.get("/api/health").json()["games"]
                if held == 0:
                    break
                time.sleep(0.1)
            assert held == 0
            got = cb.get(f"/api/games/{g['id']}").json()
            assert (got["state"], got["moves"]) == ("in_progress", ["b2", "a1"])
            r = move(cb, g, "o", 1, "a1")  # a retry of o's move, answered as the first time
            assert r.status_code == 200, r.text
            assert move(cb, g, "x", 2, "c3").status_code == 200
            assert ca.get(f"/api/games/{g['id']}").json()["moves"] == ["b2", "a1", "c3"]
        assert a.stop() == 0 and b.stop() == 0
    finally:
        a.kill()
        b.kill()


def test_a_draw_offer_is_stored_and_survives_a_restart(tmp_path, db, cluster):
    """A draw offer is in the database: a restarted server shows it and the
    other side's draw agrees to it."""
    srv = node(tmp_path, db, "offer").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            g = new_game(c)
            r = c.post(f"/api/games/{g['id']}/draw", headers=auth(g["tokens"]["x"]))
            assert r.status_code == 200 and r.json()["draw"] == "offered"
        name = db.rsplit("/", 1)[1].split("?")[0]
        stored = cluster.psql(name, "SELECT mark, ply FROM ttt_draw_offers WHERE game_id = '%s'"
                              % g["id"])
        assert stored.strip() == "1|0"
        srv.kill()  # SIGKILL: the answered offer must be in the database
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            assert c.get(f"/api/games/{g['id']}").json()["draw_offer"] == "x"
            r = c.post(f"/api/games/{g['id']}/draw", headers=auth(g["tokens"]["o"]))
            assert r.status_code == 200 and r.json()["draw"] == "agreed", r.text
        assert srv.stop() == 0
    finally:
        srv.kill()
