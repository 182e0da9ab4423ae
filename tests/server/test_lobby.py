"""test_lobby.py - seeks, the lobby's and the accounts' event streams, and quick pairing by rating, over the real server."""
import json
import time

import httpx
import pytest

from serverproc import Server

from conftest import FAST_ARGON2 as FAST
from test_rated import session


def start(tmp_path, *extra):
    return Server(tmp_path / "games.db", *FAST, *extra).start()


@pytest.fixture
def srv(tmp_path):
    # No bot while these tests wait in the pool.
    s = start(tmp_path, "--pairing-bot-wait", "0")
    yield s
    if s.proc:
        assert s.stop() == 0


@pytest.fixture
def c(srv):
    with httpx.Client(base_url=srv.url, timeout=30) as client:
        yield client


class Events:
    """An event stream read line by line on its own client, bounded in time."""

    def __init__(self, url, headers=None):
        self.client = httpx.Client(timeout=httpx.Timeout(30, read=30))
        self.cm = self.client.stream("GET", url, headers=headers or {})

    def __enter__(self):
        self.resp = self.cm.__enter__()
        assert self.resp.status_code == 200
        self.lines = self.resp.iter_lines()
        return self

    def next(self, name, seconds=30):
        """The data of the next event called name (others are passed over)."""
        deadline = time.monotonic() + seconds
        event = None
        for line in self.lines:
            line = line.rstrip("\r\n")  # some httpx versions keep the line's end
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == name:
                return json.loads(line[6:])
            if time.monotonic() > deadline:
                break
        raise AssertionError(f"no {name} event within {seconds} s")

    def __exit__(self, *exc):
        self.cm.__exit__(*exc)
        self.client.close()


def wait_for(predicate, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("the condition did not hold within %d s" % seconds)


def test_seek_create_list_accept(srv, c):
    ana, bob = session(c, "Ana"), session(c, "Bob")
    with Events(srv.url + "/api/lobby/events") as lobby, \
            Events(srv.url + "/api/account/events", ana) as ana_events:
        assert lobby.next("seeks") == {"seeks": []}
        r = c.post("/api/seeks", json={"game": "tictactoe", "rated": True}, headers=ana)
        assert r.status_code == 201, r.text
        seek = r.json()
        assert seek["owner"] == "Ana" and seek["rated"] is True and seek["kind"] == "tictactoe"
        assert seek["rating"] == 1500
        assert lobby.next("seek_added")["id"] == seek["id"]
        listed = c.get("/api/seeks").json()["seeks"]
        assert [s["id"] for s in listed] == [seek["id"]]
        # Its owner cannot accept it.
        r = c.post(f"/api/seeks/{seek['id']}/accept", headers=ana)
        assert r.status_code == 409 and r.json()["status"] == "own_seek"
        r = c.post(f"/api/seeks/{seek['id']}/accept", headers=bob)
        assert r.status_code == 201, r.text
        started = r.json()
        assert started["opponent"] == "Ana" and started["rated"] is True
        assert "token" not in started  # a rated game is played with sessions
        removed = lobby.next("seek_removed")
        assert removed == {"id": seek["id"], "why": "accepted"}
        told = ana_events.next("game_started")
        assert told["game"] == started["game"] and told["opponent"] == "Bob"
        assert {told["seat"], started["seat"]} == {"x", "o"}
    assert c.get("/api/seeks").json()["seeks"] == []
    # Accepted once only.
    r = c.post(f"/api/seeks/{seek['id']}/accept", headers=bob)
    assert r.status_code == 404
    # The seats are the accounts': each plays its own with its session.
    gid = started["game"]
    x = ana if told["seat"] == "x" else bob
    o = bob if x is ana else ana
    assert c.post(f"/api/games/{gid}/moves", json={"ply": 0, "cell": "b2"},
                  headers=o).status_code == 409
    assert c.post(f"/api/games/{gid}/moves", json={"ply": 0, "cell": "b2"},
                  headers=x).status_code == 200
    game = c.get(f"/api/games/{gid}").json()
    assert game["rated"] is True


def test_unrated_seek_hands_out_seat_tokens(srv, c):
    ana, bob = session(c, "Ana"), session(c, "Bob")
    seek = c.post("/api/seeks", json={"width": 4, "k": 3}, headers=ana).json()
    assert seek["rated"] is False and seek["kind"] == "other"
    started = c.post(f"/api/seeks/{seek['id']}/accept", headers=bob).json()
    assert len(started["token"]) == 32
    # The owner's seat token waits for its account stream, read once.
    with Events(srv.url + "/api/account/events", ana) as events:
        told = events.next("game_started")
    assert told["game"] == started["game"] and told["token"] != started["token"]
    gid = started["game"]
    mover = started if started["seat"] == "x" else told
    r = c.post(f"/api/games/{gid}/moves", json={"ply": 0, "cell": "a1"},
               headers={"Authorization": "Bearer " + mover["token"]})
    assert r.status_code == 200, r.text


def test_seeks_need_an_account_and_belong_to_it(srv, c):
    # Guests play by link: a seek, rated or not, needs a session.
    for body in ({"game": "tictactoe", "rated": True}, {"game": "tictactoe"}):
        r = c.post("/api/seeks", json=body)
        assert r.status_code == 401
    ana, bob = session(c, "Ana"), session(c, "Bob")
    seek = c.post("/api/seeks", json={"game": "connect4"}, headers=ana).json()
    assert c.post(f"/api/seeks/{seek['id']}/accept").status_code == 401
    assert c.post(f"/api/seeks/{seek['id']}/accept",
                  headers={"Authorization": "Bearer " + "0" * 32}).status_code == 401
    # Another account's seek cannot be deleted; its owner's can.
    r = c.delete(f"/api/seeks/{seek['id']}", headers=bob)
    assert r.status_code == 403
    assert len(c.get("/api/seeks").json()["seeks"]) == 1
    assert c.delete(f"/api/seeks/{seek['id']}", headers=ana).status_code == 200
    assert c.get("/api/seeks").json()["seeks"] == []
    assert c.delete(f"/api/seeks/{seek['id']}", headers=ana).status_code == 404


def test_seeks_are_bounded_and_go_with_a_logout(srv, c):
    ana = session(c, "Ana")
    for _ in range(3):
        assert c.post("/api/seeks", json={"game": "gomoku"}, headers=ana).status_code == 201
    r = c.post("/api/seeks", json={"game": "gomoku"}, headers=ana)
    assert r.status_code == 429 and r.json()["status"] == "too_many_seeks"
    assert c.delete("/api/sessions/current", headers=ana).status_code == 200
    assert c.get("/api/seeks").json()["seeks"] == []


def test_seeks_expire_without_their_owners_stream(tmp_path):
    s = start(tmp_path, "--seek-grace", "1")
    try:
        with httpx.Client(base_url=s.url, timeout=30) as c:
            ana, bob = session(c, "Ana"), session(c, "Bob")
            with Events(s.url + "/api/account/events", ana):
                kept = c.post("/api/seeks", json={"game": "tictactoe"}, headers=ana).json()
                gone = c.post("/api/seeks", json={"game": "tictactoe"}, headers=bob).json()
                # Bob watches no stream: his seek goes; Ana's stays while hers is open.
                wait_for(lambda: [x["id"] for x in c.get("/api/seeks").json()["seeks"]]
                         == [kept["id"]])
                assert gone["id"] != kept["id"]
    finally:
        assert s.stop() == 0


def test_hostile_seek_bodies(srv, c):
    ana = session(c, "Ana")
    bad = [
        ({"game": "chess"}, 422),
        ({"game": "x" * 5000}, 422),
        ({"game": "tictactoe", "colour": "white"}, 422),
        ({"game": "tictactoe", "x": {"name": "Ana"}}, 422),
        ({"game": "tictactoe", "rated": "yes"}, 400),
        ({"game": "tictactoe", "width": 3}, 422),
        ({"width": 2000}, 422),
        ({"width": 5, "k": -1}, 422),
        ({"width": "5"}, 422),
        ({"game": "tictactoe", "clock": {"initial_s": 0}}, 422),
        ({"game": "tictactoe", "clock": {"increment_s": 2}}, 422),
        ({"game": "tictactoe", "days_per_move": 100000}, 422),
        ({"game": "tictactoe", "clock": {"initial_s": 60}, "days_per_move": 1}, 422),
        ([1, 2], 400),
    ]
    for body, status in bad:
        r = c.post("/api/seeks", json=body, headers=ana)
        assert r.status_code == status, (body, r.text)
    r = c.post("/api/seeks", content=b'{"game": "tictactoe"', headers={
        **ana, "Content-Type": "application/json"})
    assert r.status_code == 400
    # A state change needs a JSON body, and no page of another origin sends it.
    r = c.post("/api/seeks", content=b'{"game": "tictactoe"}',
               headers={**ana, "Content-Type": "text/plain"})
    assert r.status_code == 415
    r = c.post("/api/seeks", json={"game": "tictactoe"},
               headers={**ana, "Origin": "http://evil.example"})
    assert r.status_code == 403
    seek = c.post("/api/seeks", json={"game": "tictactoe"}, headers=ana).json()
    r = c.delete(f"/api/seeks/{seek['id']}", headers={**ana, "Origin": "http://evil.example"})
    assert r.status_code == 403
    for path in ("/api/seeks/" + "a" * 300, "/api/seeks/ZZZZ/accept",
                 f"/api/seeks/{seek['id']}/accept/more", f"/api/seeks/{seek['id']}/join"):
        assert c.post(path, headers=ana).status_code == 404, path
    assert c.get("/api/seeks").json()["seeks"][0]["id"] == seek["id"]


def test_two_accounts_paired_a_third_waits(srv, c):
    ana, bob, cy = session(c, "Ana"), session(c, "Bob"), session(c, "Cyd")
    with Events(srv.url + "/api/account/events", ana) as a_events, \
            Events(srv.url + "/api/account/events", bob) as b_events, \
            Events(srv.url + "/api/account/events", cy):
        r = c.post("/api/pairing", json={"game": "connect4"}, headers=ana)
        assert r.status_code == 201 and r.json()["status"] == "waiting"
        # Another preset is another pool.
        assert c.post("/api/pairing", json={"game": "gomoku"}, headers=cy).status_code == 201
        assert c.post("/api/pairing", json={"game": "connect4"}, headers=bob).status_code == 201
        a, b = a_events.next("game_started"), b_events.next("game_started")
        assert a["game"] == b["game"] and a["opponent"] == "Bob" and b["opponent"] == "Ana"
        assert a["rated"] is True and {a["seat"], b["seat"]} == {"x", "o"}
        assert a["pairing"] == "player"
        assert c.get("/api/pairing", headers=ana).status_code == 404
        r = c.get("/api/pairing", headers=cy)
        assert r.status_code == 200 and r.json()["status"] == "waiting"
        assert c.delete("/api/pairing", headers=cy).json()["status"] == "left"
        assert c.get("/api/pairing", headers=cy).status_code == 404
    assert c.post("/api/pairing", json={"game": "chess"}, headers=cy).status_code == 422
    assert c.post("/api/pairing", json={"width": 3}, headers=cy).status_code == 422
    assert c.post("/api/pairing", json={"game": "tictactoe"}).status_code == 401


def play_out(c, gid, x, o):
    """x wins a 3x3 game on the top row."""
    for ply, (who, cell) in enumerate([(x, "a1"), (o, "a2"), (x, "b1"), (o, "b2"), (x, "c1")]):
        r = c.post(f"/api/games/{gid}/moves", json={"ply": ply, "cell": cell}, headers=who)
        assert r.status_code == 200, r.text


def rated_game(c, winner, loser):
    r = c.post("/api/games", json={"game": "tictactoe", "rated": True}, headers=winner)
    gid = r.json()["id"]
    assert c.post(f"/api/games/{gid}/join", headers=loser).status_code == 200
    play_out(c, gid, winner, loser)


def test_pairing_by_rating_window(tmp_path):
    # A window that never widens: who pairs depends on ratings alone.
    s = start(tmp_path, "--pairing-bot-wait", "0", "--pairing-window", "100",
              "--pairing-widen", "0")
    try:
        with httpx.Client(base_url=s.url, timeout=30) as c:
            hi1, lo1, hi2, lo2 = (session(c, n) for n in ("Hia", "Loa", "Hib", "Lob"))
            rated_game(c, hi1, lo1)
            rated_game(c, hi2, lo2)
            top = wait_for(lambda: c.get("/api/players?game=tictactoe").json()["players"]
                           if len(c.get("/api/players?game=tictactoe").json()["players"]) == 4
                           else None)
            ratings = {p["name"]: p["rating"] for p in top}
            assert ratings["Hia"] - ratings["Loa"] > 100
            streams = [Events(s.url + "/api/account/events", h) for h in (hi1, lo1, hi2, lo2)]
            for e in streams:
                e.__enter__()
            try:
                # Hia and Loa are too far apart to pair; Hib then pairs with Hia.
                for who in (hi1, lo1, hi2):
                    assert c.post("/api/pairing", json={"game": "tictactoe"},
                                  headers=who).status_code == 201
                told = streams[0].next("game_started")
                assert told["opponent"] == "Hib"
                r = c.get("/api/pairing", headers=lo1)
                assert r.status_code == 200 and r.json()["window"] == 100
                assert c.post("/api/pairing", json={"game": "tictactoe"},
                              headers=lo2).status_code == 201
                assert streams[1].next("game_started")["opponent"] == "Lob"
            finally:
                for e in streams:
                    e.__exit__(None, None, None)
    finally:
        assert s.stop() == 0


def test_a_bot_after_the_wait(tmp_path):
    s = start(tmp_path, "--pairing-bot-wait", "1")
    try:
        with httpx.Client(base_url=s.url, timeout=30) as c:
            ana = session(c, "Ana")
            with Events(s.url + "/api/account/events", ana) as events:
                assert c.post("/api/pairing", json={"game": "tictactoe"},
                              headers=ana).status_code == 201
                told = events.next("game_started")
            assert told["pairing"] == "bot" and told["rated"] is False
            # 1500: the strong bot with a budget of 1000 (docs/server.md's map).
            assert told["opponent"] == "strong bot 1000"
            game = c.get(f"/api/games/{told['game']}").json()
            assert game["names"][told["seat"]] == "Ana"
    finally:
        assert s.stop() == 0


def test_a_seek_with_a_clock_starts_a_clocked_game(srv, c):
    ana, bob = session(c, "Ana"), session(c, "Bob")
    control = {"initial_s": 180, "increment_s": 2}
    seek = c.post("/api/seeks", json={"game": "connect4", "clock": control}, headers=ana).json()
    assert seek["clock"] == control
    r = c.post("/api/seeks", json={"game": "connect4", "clock": {"initial_s": 180, "bonus": 1}},
               headers=ana)
    assert r.status_code == 422 and r.json()["field"] == "clock.bonus"
    started = c.post(f"/api/seeks/{seek['id']}/accept", headers=bob).json()
    game = c.get(f"/api/games/{started['game']}").json()
    assert game["clock"] == control and game["clock_ms"] == {"x": 180000, "o": 180000}
    # Pairing matches the time control too: other controls wait apart.
    with Events(srv.url + "/api/account/events", ana) as a_events, \
            Events(srv.url + "/api/account/events", bob):
        assert c.post("/api/pairing", json={"game": "tictactoe", "clock": control},
                      headers=ana).status_code == 201
        assert c.post("/api/pairing", json={"game": "tictactoe", "days_per_move": 1},
                      headers=bob).status_code == 201
        assert c.post("/api/pairing", json={"game": "tictactoe", "clock": control},
                      headers=bob).status_code == 201
        told = a_events.next("game_started")
    game = c.get(f"/api/games/{told['game']}").json()
    assert game["clock"] == control


def stream_ends(events, seconds=60):
    """Whether the stream ends within seconds (keep-alive comments come
    meanwhile, so the check is reached)."""
    deadline = time.monotonic() + seconds
    for _ in events.lines:
        if time.monotonic() > deadline:
            return False
    return True


def test_account_streams_end_with_their_session(srv, c):
    ana, bob = session(c, "Ana"), session(c, "Bob")
    r = c.post("/api/sessions", json={"name": "Ana", "password": "pass words"})
    c.cookies.clear()
    ana_too = {"Authorization": "Bearer " + r.json()["token"]}
    with Events(srv.url + "/api/account/events", ana) as mine, \
            Events(srv.url + "/api/account/events", ana_too) as other:
        assert c.delete("/api/sessions/current", headers=ana).status_code == 200
        assert stream_ends(mine)
        # The account's other session keeps its stream.
        seek = c.post("/api/seeks", json={"game": "tictactoe"}, headers=bob).json()
        assert c.post(f"/api/seeks/{seek['id']}/accept", headers=ana_too).status_code == 201
        assert other.next("game_started")["opponent"] == "Bob"


def test_an_account_stream_ends_when_its_session_expires(tmp_path):
    s = start(tmp_path, "--session-lifetime", "2")
    try:
        with httpx.Client(base_url=s.url, timeout=30) as c:
            body = {"name": "Ana", "password": "pass words"}
            assert c.post("/api/accounts", json=body).status_code == 201
            # A session may expire before its stream opens on a slow
            # machine: a new login is tried then.
            for _ in range(20):
                r = c.post("/api/sessions", json=body)
                c.cookies.clear()
                head = {"Authorization": "Bearer " + r.json()["token"]}
                events = Events(s.url + "/api/account/events", head)
                try:
                    events.resp = events.cm.__enter__()
                    if events.resp.status_code == 200:
                        events.lines = events.resp.iter_lines()
                        assert stream_ends(events)
                        break
                    assert events.resp.status_code == 401
                finally:
                    events.__exit__(None, None, None)
            else:
                raise AssertionError("no stream opened within its session")
            assert c.get("/api/sessions/current", headers=head).status_code == 401
        assert s.stop() == 0
    finally:
        s.kill()
