"""test_ratings.py - Glicko-2 ratings per game kind: the leaderboard per kind, a player's ratings, history and recent games, and a restart that changes nothing."""
import sqlite3

import httpx

import glicko2ref
from conftest import FAST_ARGON2
from serverproc import Server

# The board of each kind as POST /api/games takes it, and boards rated as "other".
KINDS = {
    "tictactoe": {"game": "tictactoe"},
    "connect4": {"game": "connect4"},
    "gomoku": {"game": "gomoku"},
    "other": {"width": 4, "height": 4, "k": 3},
}


NAMES = ("Ana", "Bob", "Cyd", "Dia", "Eda", "Fay")


def sessions(c):
    """An account for each of NAMES: {name: headers with its session}."""
    out = {}
    for name in NAMES:
        body = {"name": name, "password": "pass words"}
        assert c.post("/api/accounts", json=body).status_code == 201
        r = c.post("/api/sessions", json=body)
        assert r.status_code == 201
        c.cookies.clear()  # the token goes as a header only
        out[name] = {"Authorization": "Bearer " + r.json()["token"]}
    return out


def finish(c, who, kind, x, o, score_x, **extra):
    """A rated game of kind between the accounts x and o, ended by a
    resignation or an agreed draw; its id."""
    r = c.post("/api/games", json={"rated": True, **KINDS[kind], **extra}, headers=who[x])
    assert r.status_code == 201, r.text
    url = f"/api/games/{r.json()['id']}"
    assert c.post(url + "/join", headers=who[o]).status_code == 200
    if score_x == 0.5:
        assert c.post(url + "/draw", headers=who[x]).status_code == 200
        r = c.post(url + "/draw", headers=who[o])
    else:
        r = c.post(url + "/resign", headers=who[o if score_x == 1 else x])
    assert r.status_code == 200 and r.json()["state"] != "in_progress", r.text
    return url.rsplit("/", 1)[1]


# (kind, x, o, score of x): every kind, wins, losses and draws, a player in several kinds.
SEQUENCE = [
    ("tictactoe", "Ana", "Bob", 1), ("connect4", "Ana", "Cyd", 0), ("gomoku", "Bob", "Cyd", 0.5),
    ("tictactoe", "Bob", "Cyd", 1), ("other", "Ana", "Dia", 1), ("connect4", "Dia", "Ana", 0.5),
    ("tictactoe", "Cyd", "Ana", 0), ("gomoku", "Ana", "Bob", 1), ("connect4", "Cyd", "Dia", 1),
]


def expected(sequence):
    """{kind: {name: (r, rd, sigma)}} by the reference, kind by kind in order."""
    return {k: glicko2ref.replay([(x, o, s) for kk, x, o, s in sequence if kk == k])
            for k in KINDS}


def snapshot(c):
    boards = {k: c.get("/api/players", params={"game": k}).json() for k in KINDS}
    people = {n: c.get(f"/api/players/{n}").json() for n in ("Ana", "Bob", "Cyd", "Dia")}
    return boards, people


def test_ratings_per_kind_history_and_a_restart(account_server):
    with httpx.Client(base_url=account_server.url, timeout=30) as client:
        run_ratings_per_kind_history_and_a_restart(account_server, client)


def run_ratings_per_kind_history_and_a_restart(server, client):
    who = sessions(client)
    ids = [finish(client, who, *step) for step in SEQUENCE]
    # Boards of no preset, and presets' boards under other rules, are "other".
    ids.append(finish(client, who, "tictactoe", "Eda", "Fay", 1, rules={"misere": True}))
    sequence = SEQUENCE + [("other", "Eda", "Fay", 1)]
    want = expected(sequence)
    boards, people = snapshot(client)
    for kind, table in want.items():
        body = boards[kind]
        assert body["game"] == kind and body["total"] == len(table) and body["next"] is None
        rows = {p["name"]: p for p in body["players"]}
        assert set(rows) == set(table)
        for name, p in table.items():
            assert {k: rows[name][k] for k in ("rating", "deviation")} == glicko2ref.shown(p)
            assert abs(rows[name]["volatility"] - p[2]) < 2e-6
            assert rows[name]["provisional"] == (p[1] > glicko2ref.PROVISIONAL_RD)
        # Best first.
        assert [p["rating"] for p in body["players"]] == \
            sorted((p["rating"] for p in body["players"]), reverse=True)
    # Ana's page: a rating in each kind she played, each rated game's
    # before and after in order, and her games over all kinds, latest first.
    ana = people["Ana"]
    assert ana["name"] == "Ana" and set(ana["ratings"]) == {"tictactoe", "connect4", "gomoku",
                                                            "other"}
    for kind in KINDS:
        steps = [(x, o, s) for k, x, o, s in sequence if k == kind]
        table, history = {}, []
        for x, o, s in steps:
            px, po = table.get(x, glicko2ref.INITIAL), table.get(o, glicko2ref.INITIAL)
            table[x], table[o] = glicko2ref.game(px, po, s)
            if "Ana" in (x, o):
                history.append((px if x == "Ana" else po, table["Ana"]))
        got = ana["ratings"][kind]["history"]
        assert [(h["before"]["rating"], h["after"]["rating"]) for h in got] == \
            [(round(b[0]), round(a[0])) for b, a in history]
        assert [h["after"]["deviation"] for h in got] == [round(a[1]) for _, a in history]
    mine = [(i, k, x, o, s) for i, (k, x, o, s) in zip(ids, sequence) if "Ana" in (x, o)]
    recent = ana["recent_games"]
    assert [g["game"] for g in recent] == [i for i, *_ in reversed(mine)]
    for g, (i, k, x, o, s) in zip(recent, reversed(mine)):
        score = s if x == "Ana" else 1 - s
        assert g["kind"] == k and g["as"] == ("x" if x == "Ana" else "o")
        assert g["opponent"] == (o if x == "Ana" else x)
        assert g["result"] == {1: "win", 0.5: "draw", 0: "loss"}[score]
    assert recent[0]["rating_after"] == ana["ratings"]["gomoku"]["rating"]
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players", params={"game": "chess"}).status_code == 422
    assert client.post("/api/players/Ana", json={}).status_code == 405
    # A restart replays the stored results: nothing changes.
    assert server.stop() == 0
    server.start()
    with httpx.Client(base_url=server.url, timeout=30) as c2:
        assert snapshot(c2) == (boards, people)
        # And the ratings go on from where they stood (sessions outlive a restart).
        finish(c2, who, "connect4", "Ana", "Bob", 1)
        after = expected(sequence + [("connect4", "Ana", "Bob", 1)])["connect4"]["Ana"]
        row = c2.get("/api/players/Ana").json()["ratings"]["connect4"]
        assert (row["rating"], row["deviation"]) == (round(after[0]), round(after[1]))


def test_provisional_ends_below_rd_110_and_pages_per_kind(tmp_path):
    """Stored results written straight into the database: a start rates
    them all, as the games' ends did (names as the store keeps them)."""
    db = tmp_path / "games.db"
    srv = Server(db)
    srv.start()
    srv.stop()
    # Ana draws 20 times with Zo, then once with each of eleven new players
    # at 3x3; then Bob beats her once at connect4 (7x6, k=4, gravity).
    games = [("Ana", "Zo")] * 20 + [("Ana", f"q{i:02d}") for i in range(11)]
    rows = [("%016x" % i, 3, 3, 3, 0, x, o, i + 1, 3) for i, (x, o) in enumerate(games)]
    rows.append(("%016x" % 31, 7, 6, 4, 1, "Bob", "Ana", 32, 1))
    con = sqlite3.connect(db)
    with con:
        con.executemany(
            "INSERT INTO finished (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
            " o_token, finish_order, state, log) VALUES (?,?,?,?,?,0,0,0,1,'human','human',"
            "0,0,?,?,'','',?,?,'0 1 0')", rows)
    con.close()
    try:
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            want = glicko2ref.replay([(x, o, 0.5) for x, o in games])
            assert want["Ana"][1] <= 110  # the reference says she is established
            body = c.get("/api/players", params={"game": "tictactoe", "limit": 5}).json()
            assert body["total"] == 13 and len(body["players"]) == 5 and body["next"]
            rows = {p["name"]: p for p in body["players"]}
            ana = c.get("/api/players/Ana").json()["ratings"]
            assert ana["tictactoe"]["provisional"] is False
            assert ana["tictactoe"]["deviation"] == round(want["Ana"][1])
            assert len(c.get("/api/players/Ana").json()["recent_games"]) == 20
            assert len(ana["tictactoe"]["history"]) == 31
            assert ana["connect4"]["provisional"] is True and ana["connect4"]["losses"] == 1
            c4 = c.get("/api/players", params={"game": "connect4"}).json()
            assert [p["name"] for p in c4["players"]] == ["Bob", "Ana"]
            # Pages walk one kind's ranking; "after" names a player of it.
            names, after = [], None
            for _ in range(10):
                params = {"game": "tictactoe", "limit": 4}
                if after:
                    params["after"] = after
                page = c.get("/api/players", params=params).json()
                names += [p["name"] for p in page["players"]]
                after = page["next"]
                if after is None:
                    break
            assert len(names) == 13 and set(names) == {"Ana", "Zo"} | {f"q{i:02d}" for i in range(11)}
            assert rows.keys() <= set(names[:5])
            assert c.get("/api/players", params={"game": "connect4", "after": "q00"}) \
                .status_code == 404
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_odd_player_names_and_kinds_are_answered(tmp_path):
    """The player routes' text comes from the URL: long, odd or invalid
    bytes get a JSON error, never a crash, and the server stops cleanly."""
    srv = Server(tmp_path / "games.db", *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            for name in ["x" * 1000, "%00", "a%2Fb", "..", "%22%5C", "Ana?game=x"]:
                r = c.get("/api/players/" + name)
                assert r.status_code in (404, 414), (name, r.status_code)
                if r.status_code == 404:
                    assert isinstance(r.json()["error"], str)
            for params in [{"game": "x" * 1000}, {"game": ""}, {"game": "\xff"},
                           {"after": "\xff" * 100}, {"game": "gomoku", "after": "%00"},
                           {"limit": "-1", "game": "other"}]:
                r = c.get("/api/players", params=params)
                assert r.status_code in (404, 414, 422), (params, r.status_code)
            # Not UTF-8, or cut at 80 bytes inside a character: not quoted.
            for name in ["%FF%FE", "%C3%A9" * 60]:
                r = c.get("/api/players/" + name)
                assert r.status_code == 404 and "not shown" in r.json()["error"]
            r = c.get("/api/players", params={"after": "é" * 60})
            assert r.status_code == 404 and "not shown" in r.json()["error"]
            assert c.get("/api/players/").status_code == 404
            assert c.delete("/api/players/Ana").status_code == 405
            assert c.get("/api/players", params={"game": "other"}).json()["total"] == 0
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_a_salvaged_result_keeps_its_order_spent(tmp_path):
    """A stored result that does not read (--salvage leaves it out) still
    spent its finish order: the next game to end is rated, not held back
    for an order that never comes."""
    db = tmp_path / "games.db"
    srv = Server(db, *FAST_ARGON2)
    srv.start()
    srv.stop()
    con = sqlite3.connect(db)
    with con:
        for order, state in ((1, 1), (2, 9)):  # state 9 is no state: the row does not read
            con.execute(
                "INSERT INTO finished (id, width, height, k, gravity, misere, early_draw,"
                " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
                " o_token, finish_order, state, log) VALUES (?,3,3,3,0,0,0,0,1,'human','human',"
                "0,0,'Ana','Bob','','',?,?,'1 -1 -1')", ("%016x" % order, order, state))
    con.close()
    srv = Server(db, "--salvage", *FAST_ARGON2)
    try:
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            who = sessions(c)
            finish(c, who, "tictactoe", "Ana", "Bob", 1)
            ana = c.get("/api/players/Ana").json()["ratings"]["tictactoe"]
            assert (ana["games"], ana["wins"]) == (2, 2)
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert "holds a bad value; left out of the ratings" in srv.output()


def test_a_result_stored_with_k_0_is_rated_by_the_k_it_was_played_with(tmp_path):
    """Earlier servers stored a game created without k with k 0 (which
    plays the shorter side): its result is a 3x3 game's after a restart too,
    not "other"."""
    db = tmp_path / "games.db"
    srv = Server(db, *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            who = sessions(c)
            r = c.post("/api/games", json={"rated": True, "width": 3}, headers=who["Ana"])
            assert r.status_code == 201, r.text
            url = f"/api/games/{r.json()['id']}"
            assert c.post(url + "/join", headers=who["Bob"]).status_code == 200
            assert c.post(url + "/resign", headers=who["Bob"]).status_code == 200
        assert srv.stop() == 0
        con = sqlite3.connect(db)
        with con:  # as an older server stored it
            assert con.execute("UPDATE finished SET k = 0").rowcount == 1
            con.execute("UPDATE games SET k = 0")
        con.close()
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            board = c.get("/api/players", params={"game": "tictactoe"}).json()
            assert sorted(p["name"] for p in board["players"]) == ["Ana", "Bob"], board
            assert c.get("/api/players", params={"game": "other"}).json()["total"] == 0
        assert srv.stop() == 0
    finally:
        srv.kill()
