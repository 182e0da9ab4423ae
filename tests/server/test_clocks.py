"""test_clocks.py - game clocks: flag falls decided by the server alone, x's first move due in time, increments, correspondence days, clocks across a restart, draws on time, hostile time controls."""
import json
import sqlite3
import time

import httpx

from conftest import FAST_ARGON2, auth, new_game
from serverproc import Server

DAY_MS = 86400 * 1000


def move(c, g, seat, ply, cell):
    return c.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"][seat]),
                  json={"ply": ply, "cell": cell})


def wait_over(c, gid, seconds=60):
    """The game's state once it is over, polled (bounded in count and time)."""
    deadline = time.monotonic() + seconds
    for _ in range(int(seconds * 10)):
        got = c.get(f"/api/games/{gid}").json()
        if got["state"] != "in_progress" or time.monotonic() > deadline:
            return got
        time.sleep(0.1)
    return got


def x_moved(c, cell, **body):
    """A game with a short Fischer clock whose x played cell at once, and
    the clock's seconds. x's first move is due within the clock's time: on
    a busy machine the move may come too late (x then lost on time at ply
    0), and a longer clock is tried."""
    for seconds in (1, 5, 30):
        g = new_game(c, clock={"initial_s": seconds}, **body)
        r = move(c, g, "x", 0, cell)
        if r.status_code == 200:
            return g, seconds
        assert r.status_code == 409, r.text
    raise AssertionError("x's first move did not come within 30 s")


def test_a_flag_falls_with_nobody_connected(client):
    s = new_game(client, clock={"initial_s": 1, "increment_s": 0})["game"]
    assert s["clock"] == {"initial_s": 1, "increment_s": 0}
    # Clocks start with the first move: nobody's runs before it.
    assert s["clock_ms"] == {"x": 1000, "o": 1000} and s["clock_running"] is None
    g, seconds = x_moved(client, "b2")
    full = seconds * 1000
    got = client.get(f"/api/games/{g['id']}").json()
    assert got["clock_ms"]["x"] == full  # x's first move took no time
    # Nobody is connected now: the server ends the game when o's time is up.
    got = wait_over(client, g["id"], seconds + 60)
    assert (got["state"], got["ending"]) == ("x_won", "time")
    assert got["clock_ms"] == {"x": full, "o": 0} and got["clock_running"] is None
    # A late move is refused; the events tell the end and the clocks.
    late = move(client, g, "o", 1, "a1")
    assert late.status_code == 409
    text = client.get(f"/api/games/{g['id']}/events").text
    data = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert data[0]["cell"] == "b2" and data[0]["clock_ms"]["x"] == full
    assert data[-1]["ending"] == "time" and data[-1]["clock_ms"] == {"x": full, "o": 0}
    # A game without a clock is as before: no clock members at all.
    plain = new_game(client)["game"]
    assert not {"clock", "clock_ms", "clock_running"} & set(plain)


def test_increments_are_added_and_the_waiting_clock_stands(client):
    g = new_game(client, clock={"initial_s": 600, "increment_s": 5})
    first = move(client, g, "x", 0, "b2").json()
    # x's first move takes no time and earns the increment.
    assert first["clock_ms"]["x"] == 605000 and first["clock_running"] == "o"
    before = client.get(f"/api/games/{g['id']}").json()["clock_ms"]
    second = move(client, g, "o", 1, "a1").json()
    # o's clock ran, then gained 5 s; x's runs now, from where it stood.
    assert 5000 <= second["clock_ms"]["o"] <= before["o"] + 5000
    assert second["clock_ms"]["x"] <= 605000 and second["clock_running"] == "x"
    third = move(client, g, "x", 2, "c3").json()
    assert 5000 <= third["clock_ms"]["x"] <= second["clock_ms"]["x"] + 5000
    assert third["clock_ms"]["o"] <= second["clock_ms"]["o"]
    assert third["clock_running"] == "o"


def test_correspondence_days_are_per_move_and_validated(client):
    g = new_game(client, days_per_move=2)
    assert g["game"]["clock"] == {"days_per_move": 2}
    assert g["game"]["clock_ms"] == {"x": 2 * DAY_MS, "o": 2 * DAY_MS}
    r = move(client, g, "x", 0, "b2").json()
    assert r["clock_ms"]["x"] == 2 * DAY_MS and r["clock_running"] == "o"
    r = move(client, g, "o", 1, "a1").json()
    assert r["clock_ms"]["o"] == 2 * DAY_MS  # each move has the whole time again
    assert new_game(client, days_per_move=14)["game"]["clock"] == {"days_per_move": 14}
    for days in (0, 15, -1, 10**12, "2", 2.5, True, [], {}):
        r = client.post("/api/games", json={"days_per_move": days})
        assert r.status_code in (400, 422), (days, r.text)


def test_a_restart_resumes_the_clocks(tmp_path):
    db = tmp_path / "games.db"
    srv = Server(db).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            g = new_game(c, clock={"initial_s": 600, "increment_s": 0})
            assert move(c, g, "x", 0, "b2").status_code == 200
            before = c.get(f"/api/games/{g['id']}").json()
            # Another game's move, after the reading above: the server ran
            # at least until then, and that time is charged.
            other = new_game(c)
            assert move(c, other, "x", 0, "a1").status_code == 200
        assert srv.stop() == 0
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            after = c.get(f"/api/games/{g['id']}").json()
            assert after["state"] == "in_progress" and after["clock_running"] == "o"
            assert after["clock_ms"]["o"] <= before["clock_ms"]["o"]
            assert after["clock_ms"]["x"] == before["clock_ms"]["x"] == 600000
            assert move(c, g, "o", 1, "a1").status_code == 200
        assert srv.stop() == 0
    finally:
        srv.kill()


# x blocks every line of a 4x4 board (four in a row) with one mark in each
# row and column and one on each diagonal; o's four marks make no line.
NO_LINE_FOR_O = ["a1", "b1", "c2", "c1", "d3", "a2", "b4", "b2"]


def test_a_flag_when_the_other_side_has_no_line_left_is_a_draw(client):
    # On a busy machine the eight moves may take longer than a short clock:
    # then the game ended on time early, and a longer clock is tried.
    for seconds in (3, 15, 60):
        g = new_game(client, width=4, height=4, k=4, clock={"initial_s": seconds})
        played = all(move(client, g, "xo"[p % 2], p, cell).status_code == 200
                     for p, cell in enumerate(NO_LINE_FOR_O))
        if played:
            break
    assert played, "eight moves did not fit in a 60 s clock"
    got = wait_over(client, g["id"], seconds + 30)
    assert (got["state"], got["ending"]) == ("draw", "time")
    assert got["clock_ms"]["x"] == 0
    # Where o still has a line, the same flag is o's win.
    g, seconds = x_moved(client, "a1", width=4, height=4, k=4)
    got = wait_over(client, g["id"], seconds + 60)
    assert (got["state"], got["ending"]) == ("x_won", "time")


def test_hostile_time_controls_are_refused_and_create_nothing(client):
    games = client.get("/api/health").json()["games"]
    bodies = [
        {"clock": {"initial_s": 0}}, {"clock": {"initial_s": -5}},
        {"clock": {"initial_s": 10801}}, {"clock": {"initial_s": 2**31}},
        {"clock": {"initial_s": 10**30}}, {"clock": {"initial_s": 1e9}},
        {"clock": {"initial_s": "180"}}, {"clock": {"initial_s": None}},
        {"clock": {"initial_s": 60, "increment_s": -1}},
        {"clock": {"initial_s": 60, "increment_s": 181}},
        {"clock": {"increment_s": 2}}, {"clock": {}}, {"clock": 180}, {"clock": [180, 2]},
        {"clock": "3+2"}, {"clock": {"initial_s": 60, "extra": 1}},
        {"clock": {"initial_s": 60}, "days_per_move": 2},
    ]
    for body in bodies:
        r = client.post("/api/games", json=body)
        assert 400 <= r.status_code < 500, (body, r.text)
        assert "error" in r.json()
    assert client.get("/api/health").json()["games"] == games


def two_accounts(c):
    """Accounts Ana and Bob, logged in: their Authorization headers."""
    heads = {}
    for name in ("Ana", "Bob"):
        assert c.post("/api/accounts", json={"name": name, "password": "pass words"}
                      ).status_code == 201
        r = c.post("/api/sessions", json={"name": name, "password": "pass words"})
        c.cookies.clear()
        heads[name] = auth(r.json()["token"])
    return heads


def test_a_rated_game_lost_on_time_is_rated(tmp_path):
    srv = Server(tmp_path / "games.db", *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            heads = two_accounts(c)
            # Ana's first move is due within the clock's time from Bob's
            # join: if she was too late (a busy machine), she lost on time
            # at ply 0, and a longer clock is tried.
            for seconds in (1, 5, 30):
                r = c.post("/api/games", headers=heads["Ana"], json={
                    "game": "tictactoe", "rated": True, "clock": {"initial_s": seconds}})
                assert r.status_code == 201, r.text
                gid = r.json()["id"]
                assert c.post(f"/api/games/{gid}/join", headers=heads["Bob"]).status_code == 200
                moved = c.post(f"/api/games/{gid}/moves", headers=heads["Ana"],
                               json={"ply": 0, "cell": "b2"}).status_code
                if moved == 200:
                    break
                assert moved == 409
            assert moved == 200, "x's first move did not come within 30 s"
            got = wait_over(c, gid, seconds + 60)
            assert (got["state"], got["ending"]) == ("x_won", "time")
            rows = {p["name"]: p["rating"] for p in c.get("/api/players").json()["players"]}
            assert rows["Ana"] > 1500 > rows["Bob"]
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_x_who_never_moves_loses_on_time_with_nobody_connected(client):
    g = new_game(client, clock={"initial_s": 1})
    # Both seats are taken at the creation: x's first move is due within
    # the smaller of x's time and 30 s. Nobody moves and nobody is connected.
    got = wait_over(client, g["id"])
    assert (got["state"], got["ending"], got["ply"]) == ("o_won", "time", 0)
    assert got["clock_ms"] == {"x": 0, "o": 1000} and got["clock_running"] is None
    assert move(client, g, "x", 0, "b2").status_code == 409
    text = client.get(f"/api/games/{g['id']}/events").text
    data = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert [d["ending"] for d in data] == ["time"]
    # Correspondence: x's first move has the days of a move.
    g = new_game(client, days_per_move=1)
    assert client.get(f"/api/games/{g['id']}").json()["state"] == "in_progress"
    assert move(client, g, "x", 0, "b2").status_code == 200


def test_x_who_moves_in_time_goes_on(client):
    g = new_game(client, clock={"initial_s": 600, "increment_s": 0})
    r = move(client, g, "x", 0, "b2")
    assert r.status_code == 200, r.text
    got = client.get(f"/api/games/{g['id']}").json()
    assert (got["state"], got["clock_running"]) == ("in_progress", "o")
    assert got["clock_ms"]["x"] == 600000
    assert move(client, g, "o", 1, "a1").status_code == 200


def test_a_rated_game_waits_for_its_second_account_then_x_must_move(tmp_path):
    srv = Server(tmp_path / "games.db", *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            heads = two_accounts(c)
            r = c.post("/api/games", headers=heads["Ana"], json={
                "game": "tictactoe", "rated": True, "clock": {"initial_s": 1}})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            # Waiting for a second account costs Ana nothing, however long.
            time.sleep(2)
            assert c.get(f"/api/games/{gid}").json()["state"] == "in_progress"
            assert c.post(f"/api/games/{gid}/join", headers=heads["Bob"]).status_code == 200
            # Ana never moves: she loses on time, and the game is rated.
            got = wait_over(c, gid)
            assert (got["state"], got["ending"], got["ply"]) == ("o_won", "time", 0)
            rows = {p["name"]: p["rating"] for p in c.get("/api/players").json()["players"]}
            assert rows["Bob"] > 1500 > rows["Ana"]
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_a_restart_resumes_the_first_move_window(tmp_path):
    """When both seats were taken is stored with the game: at start x's
    first-move window is charged from then up to the server's last stored
    write, not opened again whole."""
    db = tmp_path / "games.db"
    srv = Server(db, *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            heads = two_accounts(c)
            rated = []
            for _ in range(2):
                r = c.post("/api/games", headers=heads["Ana"], json={
                    "game": "tictactoe", "rated": True, "days_per_move": 1})
                rated.append(r.json()["id"])
                assert c.post(f"/api/games/{rated[-1]}/join",
                              headers=heads["Bob"]).status_code == 200
            guest = new_game(c, days_per_move=1)["id"]
            other = new_game(c)
            assert move(c, other, "x", 0, "a1").status_code == 200  # the last write
        assert srv.stop() == 0
        # As if the first rated game and the guest game had been seated two
        # days before that last write: their one-day windows are spent.
        con = sqlite3.connect(db)
        with con:
            changed = con.execute("UPDATE games SET seated_ms = seated_ms - ?"
                                  " WHERE id IN (?, ?) AND seated_ms > 0",
                                  (2 * DAY_MS, rated[0], guest)).rowcount
        con.close()
        assert changed == 2
        # The second rated game as if seated half a day before.
        con = sqlite3.connect(db)
        with con:
            con.execute("UPDATE games SET seated_ms = seated_ms - ? WHERE id = ?",
                        (DAY_MS // 2, rated[1]))
        con.close()
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            for gid in (rated[0], guest):
                got = wait_over(c, gid)
                assert (got["state"], got["ending"], got["ply"]) == ("o_won", "time", 0)
            kept = c.get(f"/api/games/{rated[1]}").json()
            assert kept["state"] == "in_progress"
            assert 0 < kept["first_move_ms"] <= DAY_MS // 2
            assert kept["players"]["o"] == {"name": "Bob", "kind": "human"}
            assert c.post(f"/api/games/{rated[1]}/moves", headers=heads["Ana"],
                          json={"ply": 0, "cell": "b2"}).status_code == 200
        assert srv.stop() == 0
    finally:
        srv.kill()


def test_the_state_shows_the_time_left_for_x_first_move(tmp_path):
    srv = Server(tmp_path / "games.db", *FAST_ARGON2).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = new_game(c, days_per_move=1)
            assert 0 < g["game"]["first_move_ms"] <= DAY_MS
            assert 0 < c.get(f"/api/games/{g['id']}").json()["first_move_ms"] <= DAY_MS
            r = move(c, g, "x", 0, "b2")
            assert r.status_code == 200 and "first_move_ms" not in r.json()
            assert "first_move_ms" not in c.get(f"/api/games/{g['id']}").json()
            # No window: without a clock, with a bot for x, and while a rated
            # game waits for its second account.
            assert "first_move_ms" not in new_game(c)["game"]
            bot = new_game(c, days_per_move=1, x={"kind": "random"})
            assert "first_move_ms" not in bot["game"]
            heads = two_accounts(c)
            r = c.post("/api/games", headers=heads["Ana"], json={
                "game": "tictactoe", "rated": True, "days_per_move": 1})
            assert "first_move_ms" not in r.json()["game"]
            r = c.post(f"/api/games/{r.json()['id']}/join", headers=heads["Bob"])
            assert r.status_code == 200 and 0 < r.json()["first_move_ms"] <= DAY_MS
        assert srv.stop() == 0
    finally:
        srv.kill()
