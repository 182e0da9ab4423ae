"""test_api.py - the HTTP API's contract, against the real ttt-server process."""
import os
import shutil
import subprocess
import threading
import time

import httpx

import glicko2ref
from conftest import auth, new_game
from serverproc import STATIC, Server, server_path

STATE_KEYS = {"id", "width", "height", "k", "gravity", "ply", "to_move", "state", "ending",
              "names", "board", "moves", "legal", "record"}


def move(client, game, seat, ply, **where):
    return client.post(f"/api/games/{game['id']}/moves", headers=auth(game["tokens"][seat]),
                       json={"ply": ply, **where})


def test_create_answers_id_and_a_token_per_human_seat(client):
    r = client.post("/api/games", json={
        "width": 3, "height": 3, "k": 3, "gravity": False,
        "rules": {"misere": False, "early_draw": False, "ply_limit": 0}, "rated": False,
        "x": {"name": "Ana", "kind": "human"},
        "o": {"name": "bot", "kind": "strong", "budget": 100000}})
    assert r.status_code == 201
    body = r.json()
    assert set(body["tokens"]) == {"x"}
    assert len(body["tokens"]["x"]) == 32
    g = client.get(f"/api/games/{body['id']}").json()
    assert STATE_KEYS <= set(g)
    assert g["names"] == {"x": "Ana", "o": "bot"}
    assert g["board"] == ["...", "...", "..."]
    assert g["to_move"] == "x" and g["state"] == "in_progress" and g["ending"] is None
    assert g["record"] == 'ttt/1 n=3 k=3 rules=classic moves=- x="Ana" o="bot"\n'
    assert "tokens" not in g and body["tokens"]["x"] not in r.text.replace(body["tokens"]["x"], "", 1)


def test_presets(client):
    shapes = {"tictactoe": (3, 3, 3, False), "connect4": (7, 6, 4, True),
              "gomoku": (15, 15, 5, False)}
    for name, (w, h, k, gravity) in shapes.items():
        g = new_game(client, game=name)
        got = client.get(f"/api/games/{g['id']}").json()
        assert (got["width"], got["height"], got["k"], got["gravity"]) == (w, h, k, gravity)
        assert len(got["board"]) == h and len(got["board"][0]) == w


def test_move_then_the_same_request_again_answers_the_same(client):
    g = new_game(client)
    first = move(client, g, "x", 0, cell="b2")
    assert first.status_code == 200
    body = first.json()
    assert body["move"] == {"ply": 0, "cell": "b2", "mark": "x"}
    assert body["ply"] == 1 and body["to_move"] == "o" and body["board"][1] == ".x."
    assert move(client, g, "o", 1, cell="a1").status_code == 200
    again = move(client, g, "x", 0, cell="b2")
    assert again.status_code == 200
    assert again.json() == body
    assert client.get(f"/api/games/{g['id']}").json()["moves"] == ["b2", "a1"]


def test_conflicts_name_the_move_that_stands(client):
    g = new_game(client)
    assert move(client, g, "x", 0, cell="b2").status_code == 200
    other = move(client, g, "x", 0, cell="c3")
    assert other.status_code == 409
    body = other.json()
    assert body["status"] == "TTT_E_STALE" and body["code"] == -17
    assert body["move"] == {"ply": 0, "cell": "b2", "mark": "x"}
    assert "b2" in body["error"]
    ahead = move(client, g, "o", 5, cell="c3")
    assert ahead.status_code == 409 and ahead.json()["status"] == "TTT_E_STALE"


def test_out_of_turn_occupied_and_game_over(client):
    g = new_game(client)
    turn = move(client, g, "o", 0, cell="a1")
    assert turn.status_code == 409
    assert turn.json() == {"error": "it is the other player's turn", "status": "TTT_E_WRONG_TURN",
                           "code": -7} or turn.json()["status"] == "TTT_E_WRONG_TURN"
    assert move(client, g, "x", 0, cell="a1").status_code == 200
    occupied = move(client, g, "o", 1, cell="a1")
    assert occupied.status_code == 422
    assert occupied.json()["status"] == "TTT_E_OCCUPIED" and occupied.json()["code"] == -6
    for ply, (seat, cell) in enumerate([("o", "a2"), ("x", "b1"), ("o", "b2"), ("x", "c1")], 1):
        assert move(client, g, seat, ply, cell=cell).status_code == 200
    got = client.get(f"/api/games/{g['id']}").json()
    assert got["state"] == "x_won" and got["ending"] == "line" and got["to_move"] is None
    assert got["winning_line"] == ["a1", "c1"]
    over = move(client, g, "o", 5, cell="c3")
    assert over.status_code == 409 and over.json()["status"] == "TTT_E_GAME_OVER"
    assert over.json()["code"] == -8


def test_tokens_401_403_and_unknown_game_404(client):
    g = new_game(client)
    h = new_game(client)
    url = f"/api/games/{g['id']}/moves"
    none = client.post(url, json={"ply": 0, "cell": "a1"})
    assert none.status_code == 401 and set(none.json()) >= {"error", "status", "code"}
    wrong = client.post(url, headers=auth("0" * 32), json={"ply": 0, "cell": "a1"})
    assert wrong.status_code == 403
    other_game = client.post(url, headers=auth(h["tokens"]["x"]), json={"ply": 0, "cell": "a1"})
    assert other_game.status_code == 403
    assert client.post(url, headers={"Authorization": "Basic abc"},
                       json={"ply": 0, "cell": "a1"}).status_code == 401
    assert client.get("/api/games/doesnotexist").status_code == 404
    assert client.post("/api/games/doesnotexist/moves", headers=auth(g["tokens"]["x"]),
                       json={"ply": 0, "cell": "a1"}).status_code == 404
    assert client.get(f"/api/games/{g['id']}").json()["ply"] == 0


def test_gravity_moves_by_column(client):
    g = new_game(client, game="connect4")
    r = move(client, g, "x", 0, column="d")
    assert r.status_code == 200 and r.json()["move"]["cell"] == "d6"
    r = move(client, g, "o", 1, column="d")
    assert r.json()["move"]["cell"] == "d5"
    assert move(client, g, "o", 1, column="d").json() == r.json()
    floating = move(client, g, "x", 2, cell="a1")
    assert floating.status_code == 422 and floating.json()["status"] == "TTT_E_FLOATING"
    assert move(client, g, "x", 2, column="h").status_code == 422
    for ply in range(2, 6):
        assert move(client, g, "xo"[ply % 2], ply, column="d").status_code == 200
    full = move(client, g, "x", 6, column="d")
    assert full.status_code == 422 and full.json()["status"] == "TTT_E_COLUMN_FULL"
    assert full.json()["code"] == -23
    assert client.get(f"/api/games/{g['id']}").json()["board"][0] == "...o..."


def test_resign_and_draw_offer_accept(client):
    g = new_game(client)
    url = f"/api/games/{g['id']}"
    assert client.post(url + "/resign").status_code == 401
    r = client.post(url + "/resign", headers=auth(g["tokens"]["o"]))
    assert r.status_code == 200 and r.json()["state"] == "x_won" and r.json()["ending"] == "resign"
    assert client.post(url + "/resign", headers=auth(g["tokens"]["x"])).status_code == 409
    retried = client.post(url + "/resign", headers=auth(g["tokens"]["o"]))
    assert retried.status_code == 200 and retried.json() == r.json()

    d = new_game(client)
    url = f"/api/games/{d['id']}"
    offer = client.post(url + "/draw", headers=auth(d["tokens"]["x"]))
    assert offer.status_code == 200 and offer.json()["draw"] == "offered"
    assert client.get(url).json()["draw_offer"] == "x"
    again = client.post(url + "/draw", headers=auth(d["tokens"]["x"]))
    assert again.json()["draw"] == "offered" and client.get(url).json()["state"] == "in_progress"
    accept = client.post(url + "/draw", headers=auth(d["tokens"]["o"]))
    assert accept.status_code == 200 and accept.json()["draw"] == "agreed"
    assert client.get(url).json()["state"] == "draw" and client.get(url).json()["ending"] == "agreed"
    retried = client.post(url + "/draw", headers=auth(d["tokens"]["o"]))
    assert retried.status_code == 200 and retried.json() == accept.json()


def test_a_move_withdraws_a_draw_offer(client):
    g = new_game(client)
    url = f"/api/games/{g['id']}"
    client.post(url + "/draw", headers=auth(g["tokens"]["o"]))
    assert move(client, g, "x", 0, cell="a1").status_code == 200
    assert client.get(url).json()["draw_offer"] is None
    r = client.post(url + "/draw", headers=auth(g["tokens"]["x"]))
    assert r.json()["draw"] == "offered"


def read_events(server, game_id, last=None, count=10, timeout=60.0):
    """The first count events of the game's stream (fewer if it ends)."""
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    events, current, pending = [], {}, b""
    with httpx.stream("GET", f"{server.url}/api/games/{game_id}/events", headers=headers,
                      timeout=timeout) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        for chunk in r.iter_raw():
            pending += chunk
            while b"\n" in pending and len(events) < count:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode()
                if line == "":
                    if current:
                        events.append(current)
                    current = {}
                elif not line.startswith(":"):
                    key, _, value = line.partition(": ")
                    current[key] = value
            if len(events) >= count:
                break
    return events


def test_events_replay_from_last_event_id(server, client):
    g = new_game(client)
    for ply, (seat, cell) in enumerate([("x", "a1"), ("o", "b1"), ("x", "a2"), ("o", "b2")]):
        assert move(client, g, seat, ply, cell=cell).status_code == 200
    events = read_events(server, g["id"], count=4)
    assert [e["id"] for e in events] == ["1", "2", "3", "4"]
    assert [e["event"] for e in events] == ["move"] * 4
    assert '"cell":"b2"' in events[3]["data"]
    later = read_events(server, g["id"], last=2, count=2)
    assert [e["id"] for e in later] == ["3", "4"]

    got = []
    reader = threading.Thread(target=lambda: got.extend(read_events(server, g["id"], last=4,
                                                                    count=2)))
    reader.start()
    time.sleep(0.3)
    assert move(client, g, "x", 4, cell="a3").status_code == 200
    reader.join(60)
    assert [e["event"] for e in got] == ["move", "end"]
    assert got[0]["id"] == "5" and '"state":"x_won"' in got[0]["data"]
    assert '"ending":"line"' in got[1]["data"]


def test_ratings_from_rated_games(client):
    """Rated games are between accounts (test_rated.py); here, the Glicko-2 ratings."""
    sessions = {}
    for name in ("Ana", "Bob", "Cyd"):
        body = {"name": name, "password": "pass words"}
        assert client.post("/api/accounts", json=body).status_code == 201
        sessions[name] = auth(client.post("/api/sessions", json=body).json()["token"])
        client.cookies.clear()
    for winner, loser in [("Ana", "Bob"), ("Ana", "Cyd")]:
        r = client.post("/api/games", json={"rated": True}, headers=sessions[winner])
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        assert client.post(f"/api/games/{gid}/join", headers=sessions[loser]).status_code == 200
        assert client.post(f"/api/games/{gid}/resign",
                           headers=sessions[loser]).status_code == 200
    unrated = new_game(client, x={"name": "Zed"}, o={"name": "Ana"})
    client.post(f"/api/games/{unrated['id']}/resign", headers=auth(unrated["tokens"]["o"]))
    body = client.get("/api/players").json()
    assert body["game"] == "tictactoe" and body["system"]["tau"] == 0.75
    assert body["system"]["initial_rating"] == 1500 and body["system"]["provisional_deviation"] == 110
    rows = {p["name"]: p for p in body["players"]}
    assert set(rows) == {"Ana", "Bob", "Cyd"}
    assert body["players"][0]["name"] == "Ana"
    # Glicko-2 from 1500/500/0.09, one game a rating period, computed here
    # by the reference in glicko2ref.py.
    want = glicko2ref.replay([("Ana", "Bob", 1), ("Ana", "Cyd", 1)])
    for name, p in want.items():
        assert {k: rows[name][k] for k in ("rating", "deviation")} == glicko2ref.shown(p)
        assert rows[name]["provisional"] is True  # RD above 110 after one or two games
    assert rows["Ana"]["rating"] > 1500 > rows["Cyd"]["rating"] > rows["Bob"]["rating"]
    assert rows["Ana"]["wins"] == 2 and rows["Bob"]["losses"] == 1


def test_health(server, client):
    g = new_game(client)
    move(client, g, "x", 0, cell="a1")
    assert client.get("/api/health").json()["status"] == "ok"
    # Each server counts what it did itself, so on several nodes each is
    # asked directly: the move is acknowledged once, by a node holding the game.
    each = [httpx.get(n.url + "/api/health", timeout=10).json()
            for n in getattr(server, "nodes", [server])]
    assert sum(h["moves_acknowledged"] for h in each) == 1
    assert [h["games"] for h in each if h["moves_acknowledged"]] == [1]
    assert all(h["games"] <= 1 for h in each)
    # One commit at least: how the writer groups the game and the move into
    # transactions is its own business, never the test's.
    assert sum(h["store"]["commits"] for h in each) >= 1
    assert all(h["store"]["mean_commit_ms"] >= 0 for h in each)


def test_bot_answers_and_bot_games_finish(client):
    g = new_game(client, o={"name": "bot", "kind": "strong", "budget": 1000})
    assert move(client, g, "x", 0, cell="b2").status_code == 200
    # A bound on the wait, not a speed check: a busy machine may take long.
    deadline = time.monotonic() + 120
    while client.get(f"/api/games/{g['id']}").json()["ply"] < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/games/{g['id']}").json()["to_move"] == "x"
    bots = client.post("/api/games", json={"x": {"kind": "perfect"}, "o": {"kind": "random"}})
    assert bots.status_code == 201 and bots.json()["tokens"] == {}
    bid = bots.json()["id"]
    while client.get(f"/api/games/{bid}").json()["state"] == "in_progress" \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/games/{bid}").json()["state"] in ("x_won", "draw")


def test_restart_serves_every_game_as_before(server, client):
    # Rated games across a restart: test_rated.py.
    g = new_game(client)
    for ply, (seat, cell) in enumerate([("x", "a1"), ("o", "b1"), ("x", "c3")]):
        move(client, g, seat, ply, cell=cell)
    r = new_game(client)
    client.post(f"/api/games/{r['id']}/resign", headers=auth(r["tokens"]["x"]))
    before = [client.get(f"/api/games/{i}").json() for i in (g["id"], r["id"])]
    players = client.get("/api/players").json()
    assert server.stop() == 0
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as c2:
        after = [c2.get(f"/api/games/{i}").json() for i in (g["id"], r["id"])]
        assert after == before
        assert c2.get("/api/players").json() == players
        assert move(c2, g, "o", 3, cell="b2").status_code == 200
        assert move(c2, g, "x", 0, cell="a1").status_code == 200


def test_record_export_route_and_flag(server, client):
    g = new_game(client)
    move(client, g, "x", 0, cell="b2")
    record = client.get(f"/api/games/{g['id']}/record")
    assert record.status_code == 200 and record.headers["content-type"].startswith("text/plain")
    assert record.text == 'ttt/1 n=3 k=3 rules=classic moves=b2 x="Ana" o="Bo"\n'
    server.stop()
    out = subprocess.run([server_path(), "--db", server.db, "--export", g["id"]],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout == record.text
    server.start()


def test_help_names_every_flag():
    out = subprocess.run([server_path(), "--help"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0
    for flag in ("--listen", "--port", "--db", "--max-games", "--max-size", "--max-body",
                 "--max-header", "--export", "--help"):
        assert flag in out.stdout
    bad = subprocess.run([server_path(), "--port", "x"], capture_output=True, timeout=10)
    assert bad.returncode == 2


def test_accounts_db_of_1_5_is_refused_by_name(tmp_path):
    # 1.5.0's --accounts-db: an upgraded server says why it will not start
    # rather than starting without the accounts that file holds.
    old = tmp_path / "accounts.db"
    out = subprocess.run([server_path(), "--db", str(tmp_path / "g.db"), "--accounts-db", str(old)],
                         capture_output=True, text=True, timeout=10)
    assert out.returncode == 2
    assert "--accounts-db is gone" in out.stderr and str(old) in out.stderr
    assert not (tmp_path / "g.db").exists() and not old.exists()


def test_limits_on_board_size_and_game_count(tmp_path):
    from serverproc import Server
    srv = Server(tmp_path / "small.db", "--max-size", "5", "--max-games", "2").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            big = c.post("/api/games", json={"width": 6, "height": 6})
            assert big.status_code == 422 and big.json()["status"] == "TTT_E_SIZE"
            assert c.post("/api/games", json={"game": "gomoku"}).status_code == 422
            assert c.post("/api/games", json={"width": 5}).status_code == 201
            assert c.post("/api/games", json={}).status_code == 201
            full = c.post("/api/games", json={})
            assert full.status_code == 503 and set(full.json()) >= {"error", "status", "code"}
    finally:
        assert srv.stop() == 0


def client_source(name):
    with open(os.path.join(STATIC, name), "rb") as f:
        return f.read()


def test_browser_client_is_served_from_a_fixed_set(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.content == client_source("index.html")
    app = client.get("/app.js")
    assert app.headers["content-type"].startswith("text/javascript")
    assert app.content == client_source("app.js")
    assert client.get("/style.css").content == client_source("style.css")
    for path in ("/meson.build", "/static/app.js", "/index.htm", "/api"):
        assert client.get(path).status_code == 404


def test_a_copy_of_the_program_elsewhere_serves_the_built_in_client(tmp_path):
    """As installed: no source tree to read from, no flag."""
    program = tmp_path / "bin" / "ttt-server"
    program.parent.mkdir()
    shutil.copy(server_path(), program)
    srv = Server(tmp_path / "games.db", program=str(program))
    srv.start()
    try:
        assert httpx.get(srv.url + "/").content == client_source("index.html")
    finally:
        assert srv.stop() == 0


def test_static_dir_serves_the_client_from_a_directory(tmp_path):
    client_dir = tmp_path / "client"
    shutil.copytree(STATIC, client_dir)
    (client_dir / "index.html").write_text("<!doctype html><title>working copy</title>\n")
    srv = Server(tmp_path / "games.db", "--static", client_dir)
    srv.start()
    try:
        assert "working copy" in httpx.get(srv.url + "/").text
        assert httpx.get(srv.url + "/app.js").content == client_source("app.js")
    finally:
        assert srv.stop() == 0
    (client_dir / "app.js").unlink()
    missing = subprocess.run([server_path(), "--port", "0", "--db", str(tmp_path / "games.db"),
                              "--static", str(client_dir)], capture_output=True, text=True,
                             timeout=30)
    assert missing.returncode == 1 and "app.js" in missing.stderr


def test_record_loads_with_ttt_replay(client, tmp_path):
    cli = os.environ.get("TTT_CLI") or os.path.join(os.path.dirname(server_path()), "..", "ttt")
    assert os.path.exists(cli), "the ttt program is built beside the server"
    g = new_game(client, game="connect4")
    for ply, column in enumerate("ddce"):
        assert move(client, g, "xo"[ply % 2], ply, column=column).status_code == 200
    client.post(f"/api/games/{g['id']}/resign", headers=auth(g["tokens"]["o"]))
    path = tmp_path / "game.txt"
    path.write_text(client.get(f"/api/games/{g['id']}").json()["record"])
    out = subprocess.run([cli, "replay", str(path)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert "7x6 board, 4 in a row, rules gravity, 4 moves" in out.stdout
    assert "O resigned" in out.stdout or "resign" in out.stdout


def test_sigterm_ends_open_event_streams(server, client):
    g = new_game(client)
    move(client, g, "x", 0, cell="a1")
    opened = threading.Event()

    def watch():
        try:
            with httpx.stream("GET", f"{server.url}/api/games/{g['id']}/events",
                              timeout=30) as r:
                for _ in r.iter_raw():
                    opened.set()
        except httpx.HTTPError:
            pass

    watchers = [threading.Thread(target=watch) for _ in range(3)]
    for w in watchers:
        w.start()
    assert opened.wait(60)
    # Open streams would hold the stop forever (a comment every 15 s);
    # the bound is only there so that a hang fails instead of waiting.
    assert server.stop(timeout=120) == 0
    for w in watchers:
        w.join(60)
        assert not w.is_alive()


def test_a_19x19_game_is_served_whole(client):
    g = new_game(client, width=19, height=19, k=5, x={"name": "\u00c9milie \u6f22\u5b57 " + "z" * 40})
    for ply, cell in enumerate(["j10", "k10", "s19", "a1"]):
        assert move(client, g, "xo"[ply % 2], ply, cell=cell).status_code == 200
    got = client.get(f"/api/games/{g['id']}").json()
    assert len(got["board"]) == 19 and got["board"][0][0] == "o" and got["board"][18][18] == "x"
    assert got["board"][9][9] == "x" and got["board"][9][10] == "o"
    assert len(got["legal"]) == 361 - 4 and got["names"]["x"].startswith("\u00c9milie \u6f22\u5b57")
    assert got["record"].startswith("ttt/1 n=19 k=5 rules=classic moves=j10,k10,s19,a1 x=")


SCHEMA_V1 = """
CREATE TABLE games (id TEXT PRIMARY KEY, width INTEGER NOT NULL, height INTEGER NOT NULL,
 k INTEGER NOT NULL, gravity INTEGER NOT NULL, misere INTEGER NOT NULL,
 early_draw INTEGER NOT NULL, ply_limit INTEGER NOT NULL, rated INTEGER NOT NULL,
 x_kind TEXT NOT NULL, o_kind TEXT NOT NULL, x_budget INTEGER NOT NULL,
 o_budget INTEGER NOT NULL, x_name TEXT NOT NULL, o_name TEXT NOT NULL,
 x_token TEXT NOT NULL, o_token TEXT NOT NULL, finish_order INTEGER NOT NULL DEFAULT 0);
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
 kind INTEGER NOT NULL, mark INTEGER NOT NULL, cell INTEGER NOT NULL,
 PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
PRAGMA user_version = 1;
"""


def test_a_version_1_database_is_migrated(tmp_path):
    import sqlite3
    db = tmp_path / "v1.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_V1)
    # Stored first but finished second: the ratings follow the finish order.
    # A log entry is (kind, mark, cell): kind 1 is a resignation.
    games = [("bbbb", "Bo", "Cy", 2, [(0, 1, 4), (0, -1, 0), (1, -1, -1)]),
             ("aaaa", "Ana", "Bo", 1, [(0, 1, 0), (0, -1, 3), (0, 1, 1), (0, -1, 4), (0, 1, 2)]),
             ("cccc", "Di", "Ed", 0, [(0, 1, 8)])]
    with con:
        for gid, x, o, order, log in games:
            con.execute("INSERT INTO games VALUES (?,3,3,3,0,0,0,0,1,'human','human',0,0,?,?,?,?,?)",
                        (gid, x, o, "q" * 32, "p" * 32, order))
            con.executemany("INSERT INTO moves VALUES (?,?,?,?,?)",
                            [(gid, seq, kind, mark, cell)
                             for seq, (kind, mark, cell) in enumerate(log)])
    con.close()
    srv = Server(db).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            a, b, cg = (c.get(f"/api/games/{i}").json() for i in ("aaaa", "bbbb", "cccc"))
            assert (a["state"], a["ply"], a["ending"]) == ("x_won", 5, "line")
            assert (b["state"], b["ply"], b["ending"]) == ("x_won", 2, "resign")
            assert (cg["state"], cg["ply"], cg["board"]) == ("in_progress", 1, ["...", "...", "..x"])
            rows = {p["name"]: p["rating"] for p in c.get("/api/players").json()["players"]}
            # Ana beat Bo first, then Bo beat Cy from his lower rating.
            want = glicko2ref.replay([("Ana", "Bo", 1), ("Bo", "Cy", 1)])
            assert rows == {n: round(p[0]) for n, p in want.items()}
            assert c.post("/api/games/cccc/moves", headers=auth("p" * 32),
                          json={"ply": 1, "cell": "a1"}).status_code == 200
        assert srv.stop() == 0
        con = sqlite3.connect(db)
        assert con.execute("PRAGMA user_version").fetchone() == (5,)
        assert con.execute("SELECT count(*) FROM moves").fetchone() == (10,)
        con.close()
    finally:
        srv.kill()
