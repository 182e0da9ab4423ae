"""test_rated.py - rated games only between two accounts, each seat its own account's; guests keep seat tokens."""
import httpx
import pytest

import glicko2ref


@pytest.fixture
def c(account_server):
    with httpx.Client(base_url=account_server.url, timeout=30) as client:
        yield client


def session(c, name):
    assert c.post("/api/accounts", json={"name": name, "password": "pass words"}).status_code \
        == 201
    r = c.post("/api/sessions", json={"name": name, "password": "pass words"})
    assert r.status_code == 201
    c.cookies.clear()  # this client sends the token as a header only
    return {"Authorization": "Bearer " + r.json()["token"]}


def rated(c, who, **body):
    return c.post("/api/games", json={"game": "tictactoe", "rated": True, **body}, headers=who)


def move(c, gid, who, ply, cell):
    return c.post(f"/api/games/{gid}/moves", json={"ply": ply, "cell": cell}, headers=who)


def test_a_rated_game_between_two_accounts(c):
    ana, bo = session(c, "Ana"), session(c, "Bob")
    r = rated(c, ana)
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["seat"] == "x" and "tokens" not in g and g["game"]["rated"] is True
    gid = g["id"]
    # Nobody moves until a second account holds o.
    r = move(c, gid, ana, 0, "b2")
    assert r.status_code == 409 and r.json()["status"] == "no_opponent"
    # The creator cannot take the other seat too.
    r = c.post(f"/api/games/{gid}/join", headers=ana)
    assert r.status_code == 409 and r.json()["status"] == "same_account"
    r = c.post(f"/api/games/{gid}/join", headers=bo)
    assert r.status_code == 200, r.text
    assert "o=\"Bob\"" in r.json()["record"] and "x=\"Ana\"" in r.json()["record"]
    # Each account plays its own seat only.
    assert move(c, gid, ana, 0, "b2").status_code == 200
    r = move(c, gid, ana, 1, "a1")
    assert r.status_code == 409 and r.json()["status"] == "TTT_E_WRONG_TURN"
    assert move(c, gid, bo, 1, "a1").status_code == 200
    # A third account's session holds no seat; nor does no session.
    cy = session(c, "Cyd")
    r = move(c, gid, cy, 2, "c3")
    assert r.status_code == 403
    assert c.post(f"/api/games/{gid}/join", headers=cy).json()["status"] == "seat_taken"
    assert move(c, gid, {}, 2, "c3").status_code == 401
    assert c.post(f"/api/games/{gid}/resign", headers=cy).status_code == 403
    # The game's seat tokens play nothing: none was handed out, and a
    # forged or guest token is no session.
    guest = c.post("/api/games", json={"game": "tictactoe"}).json()
    r = move(c, gid, {"Authorization": "Bearer " + guest["tokens"]["x"]}, 2, "c3")
    assert r.status_code == 401
    # Bo resigns with his session: Ana wins, and both are rated by name.
    assert c.post(f"/api/games/{gid}/resign", headers=bo).json()["state"] == "x_won"
    rows = {p["name"]: p for p in c.get("/api/players").json()["players"]}
    assert set(rows) == {"Ana", "Bob"}
    want = glicko2ref.replay([("Ana", "Bob", 1)])
    assert {n: r["rating"] for n, r in rows.items()} == {n: round(p[0]) for n, p in want.items()}


def test_rated_games_are_refused_to_guests_bots_and_named_seats(c):
    body = {"game": "tictactoe", "rated": True}
    r = c.post("/api/games", json=body)
    assert r.status_code == 401 and "account" in r.json()["error"]
    r = c.post("/api/games", json={**body, "x": {"name": "Ana"}, "o": {"name": "Bob"}})
    assert r.status_code == 401
    ana = session(c, "Ana")
    r = rated(c, ana, o={"kind": "strong"})
    assert r.status_code == 422 and r.json()["field"] == "o.kind"
    r = rated(c, ana, x={"name": "Somebody"})
    assert r.status_code == 422 and r.json()["field"] == "x.name"
    r = c.post("/api/games", json=body, headers={"Authorization": "Bearer " + "0" * 32})
    assert r.status_code == 401
    # A logged-out session no longer creates one.
    assert c.delete("/api/sessions/current", headers=ana).status_code == 200
    assert rated(c, ana).status_code == 401
    # None of these made a game.
    assert c.get("/api/health").json()["games"] == 0
    # Guest games cannot be joined as rated ones.
    bo = session(c, "Bob")
    guest = c.post("/api/games", json={"game": "tictactoe"}).json()
    r = c.post(f"/api/games/{guest['id']}/join", headers=bo)
    assert r.status_code == 409 and r.json()["status"] == "not_joinable"
    assert c.post(f"/api/games/{guest['id']}/join").status_code == 401


def test_guest_and_unrated_games_keep_seat_tokens(c):
    g = c.post("/api/games", json={"game": "tictactoe", "x": {"name": "Ana"},
                                   "o": {"name": "Bob"}}).json()
    assert set(g["tokens"]) == {"x", "o"}
    x = {"Authorization": "Bearer " + g["tokens"]["x"]}
    assert move(c, g["id"], x, 0, "b2").status_code == 200
    # An account's session is not a seat token.
    assert move(c, g["id"], session(c, "Dee"), 1, "a1").status_code == 403


def test_the_cookie_plays_a_rated_game_too(account_server, c):
    ana = session(c, "Ana")
    gid = rated(c, ana).json()["id"]
    assert c.post("/api/accounts", json={"name": "Bob", "password": "pass words"}).status_code \
        == 201
    with httpx.Client(base_url=account_server.url, timeout=30) as page:
        assert page.post("/api/sessions", json={"name": "bob", "password": "pass words"}) \
            .status_code == 201  # the answer's cookie is kept by the client
        assert page.post(f"/api/games/{gid}/join").status_code == 200
        assert move(c, gid, ana, 0, "a1").status_code == 200
        assert page.post(f"/api/games/{gid}/moves", json={"ply": 1, "cell": "b2"}).status_code \
            == 200
        # From a page of another origin, the cookie is refused.
        r = page.post(f"/api/games/{gid}/resign", headers={"Origin": "http://elsewhere.example"})
        assert r.status_code == 403


def test_seats_and_names_survive_a_restart(account_server, c):
    ana, bo = session(c, "Ana"), session(c, "Bob")
    gid = rated(c, ana).json()["id"]
    waiting = rated(c, ana).json()["id"]
    assert c.post(f"/api/games/{gid}/join", headers=bo).status_code == 200
    assert move(c, gid, ana, 0, "a1").status_code == 200
    before = c.get(f"/api/games/{gid}").json()
    assert account_server.stop() == 0
    account_server.start()
    with httpx.Client(base_url=account_server.url, timeout=30) as c2:
        assert c2.get(f"/api/games/{gid}").json() == before
        assert move(c2, gid, ana, 1, "b2").status_code == 409
        assert move(c2, gid, bo, 1, "b2").status_code == 200
        assert c2.post(f"/api/games/{gid}/resign", headers=ana).status_code == 200
        rows = {p["name"]: p for p in c2.get("/api/players").json()["players"]}
        assert rows["Bob"]["wins"] == 1 and rows["Ana"]["losses"] == 1
        # The game still waiting for an opponent can be joined after it.
        assert move(c2, waiting, ana, 0, "a1").json()["status"] == "no_opponent"
        assert c2.post(f"/api/games/{waiting}/join", headers=bo).status_code == 200
        assert move(c2, waiting, ana, 0, "a1").status_code == 200
