"""test_store.py - the SQLite store's integrity: one server per database, damaged files refused (or salvaged and reported), bad rows named, failed commits shown by /api/health."""
import contextlib
import os
import random
import sqlite3
import subprocess

import httpx

from conftest import auth, new_game
from restart import write_db
from serverproc import Server, free_port, server_path


def run_server(db, *extra, timeout=60):
    """Runs a server that is expected to exit by itself (a refused start)."""
    return subprocess.run([server_path(), "--listen", "127.0.0.1", "--port", str(free_port()),
                           "--db", str(db), *extra], capture_output=True, text=True,
                          timeout=timeout)


def stored_db(tmp_path, games=2000):
    """A database in the server's schema holding games 3x3 games, kept by a
    server once; their plies by id, and how many are in progress."""
    db = tmp_path / "games.db"
    srv = Server(db).start()
    assert srv.stop() == 0
    written = write_db(str(db), games, 7)
    srv.start()
    assert srv.stop() == 0
    return db, {gid: ply for gid, (ply, _) in written.items()}, \
        sum(1 for _, over in written.values() if not over)


def page_of(db, table):
    """A leaf page of table, from the middle of it."""
    con = sqlite3.connect(db)
    pages = [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = ?"
                                       " AND pagetype = 'leaf' ORDER BY pageno", (table,))]
    con.close()
    return pages[len(pages) // 2]


def health(srv):
    return httpx.get(srv.url + "/api/health", timeout=30)


def test_a_second_server_on_the_same_database_is_refused(tmp_path):
    db = tmp_path / "games.db"
    first = Server(db).start()
    try:
        second = run_server(db)
        assert second.returncode == 1
        assert str(db) in second.stderr and str(first.proc.pid) in second.stderr, second.stderr
        assert "in use" in second.stderr
        with httpx.Client(base_url=first.url, timeout=30) as c:
            g = new_game(c)
            assert c.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"]["x"]),
                          json={"ply": 0, "cell": "b2"}).status_code == 200
        # A kill -9 releases the database with the process.
        first.kill()
        again = Server(db).start()
        with httpx.Client(base_url=again.url, timeout=30) as c:
            assert c.get(f"/api/games/{g['id']}").json()["moves"] == ["b2"]
        assert again.stop() == 0
    finally:
        first.kill()


def zero_page(db, pageno):
    with open(db, "r+b") as f:
        f.seek(4096 * (pageno - 1))
        f.write(bytes(4096))


def served_as_stored(srv, plies):
    """How many of the stored games the server serves, each at its stored ply
    or (its last rows lost) before it, never past it."""
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        return sum(1 for gid, ply in plies.items()
                   if (r := c.get(f"/api/games/{gid}")).status_code == 200
                   and r.json()["ply"] <= ply)


def test_a_zeroed_page_stops_the_start(tmp_path):
    # The reproducer: dd if=/dev/zero of=games.db bs=4096 seek=3 count=1
    # conv=notrunc. It used to start serving no game, without a word.
    db, plies, live = stored_db(tmp_path)
    zero_page(db, 4)
    refused = run_server(db)
    assert refused.returncode == 1
    assert str(db) in refused.stderr and "quick_check" in refused.stderr, refused.stderr


@contextlib.contextmanager
def salvaged(tmp_path, table):
    """Stored games with a zeroed page of table: the start is refused, then a
    --salvage start reports what it skipped. Yields that server, the stored
    plies, the games in progress and the games the server holds."""
    db, plies, live = stored_db(tmp_path)
    zero_page(db, page_of(db, table))
    refused = run_server(db)
    assert refused.returncode == 1
    assert str(db) in refused.stderr and "quick_check" in refused.stderr, refused.stderr
    srv = Server(db, "--salvage").start()
    try:
        log = srv.output()
        assert "rows up to" in log and "--salvage:" in log, log
        yield srv, plies, live, health(srv).json()["games"]
    finally:
        assert srv.stop() == 0


def test_a_zeroed_page_of_the_games_skips_them_under_salvage(tmp_path):
    with salvaged(tmp_path, "games") as (srv, plies, live, held):
        assert 0 < held < live, (held, live, srv.output())
        assert served_as_stored(srv, plies) < len(plies)


def test_a_zeroed_page_of_the_log_skips_its_games(tmp_path):
    with salvaged(tmp_path, "moves") as (srv, plies, live, held):
        assert 0 < held <= live, (held, live, srv.output())
        # Finished games are kept whole elsewhere; a game in progress whose
        # log lost a row in its middle is dropped; the others are served as
        # far as their logs read, never past them.
        assert served_as_stored(srv, plies) == len(plies) - live + held


def test_flipped_bits_stop_the_start(tmp_path):
    db, plies, live = stored_db(tmp_path)
    size = os.path.getsize(db)
    rng = random.Random(5)
    with open(db, "r+b") as f:
        for _ in range(1000):
            pos = rng.randrange(4096, size)  # the header page left whole
            f.seek(pos)
            byte = f.read(1)[0]
            f.seek(pos)
            f.write(bytes([byte ^ (1 << rng.randrange(8))]))
    refused = run_server(db)
    assert refused.returncode == 1
    assert str(db) in refused.stderr and "quick_check" in refused.stderr, refused.stderr
    srv = Server(db, "--salvage").start()
    try:
        assert health(srv).json()["games"] < live
        assert "skipped" in srv.output()
    finally:
        assert srv.stop() == 0


def set_schema(db, table, sql):
    con = sqlite3.connect(db)
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_schema SET sql = ? WHERE name = ?", (sql, table))
    con.commit()
    con.close()


def test_a_null_game_id_is_reported_with_its_rowid(tmp_path):
    db, plies, live = stored_db(tmp_path, 50)
    con = sqlite3.connect(db)
    (moves_sql,) = con.execute("SELECT sql FROM sqlite_schema WHERE name = 'moves'").fetchone()
    con.close()
    # What one flipped byte of a record header does: a NULL where NOT NULL
    # holds (the constraint is lifted to write it, then put back).
    set_schema(db, "moves", moves_sql.replace("game_id TEXT NOT NULL", "game_id TEXT"))
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO moves (game_id, seq, kind, mark, cell) VALUES (NULL, 0, 0, 1, 4)")
        (rowid,) = con.execute("SELECT max(rowid) FROM moves").fetchone()
    con.close()
    set_schema(db, "moves", moves_sql)
    refused = run_server(db)
    assert refused.returncode == 1, refused.stderr
    assert str(db) in refused.stderr and "game_id" in refused.stderr, refused.stderr
    srv = Server(db, "--salvage").start()
    try:
        assert f"moves row {rowid}: game_id is null" in srv.output()
        assert health(srv).json()["games"] == live
    finally:
        assert srv.stop() == 0


def test_a_column_of_the_wrong_type_is_reported_with_its_rowid(tmp_path):
    db, plies, live = stored_db(tmp_path, 50)
    con = sqlite3.connect(db)
    with con:
        # An unfinished game's row: the start reads it.
        (rowid, gid) = con.execute("SELECT rowid, id FROM games WHERE id NOT IN"
                                   " (SELECT id FROM finished) ORDER BY rowid").fetchone()
        con.execute("UPDATE games SET width = 'wide' WHERE rowid = ?", (rowid,))
    con.close()
    refused = run_server(db)
    assert refused.returncode == 1
    assert f"games row {rowid}: width is text" in refused.stderr and str(db) in refused.stderr
    srv = Server(db, "--salvage").start()
    try:
        assert f"games row {rowid}: width is text" in srv.output()
        assert health(srv).json()["games"] == live - 1
        assert httpx.get(f"{srv.url}/api/games/{gid}", timeout=30).status_code == 404
    finally:
        assert srv.stop() == 0


def test_health_is_degraded_while_commits_fail(tmp_path):
    db = tmp_path / "games.db"
    srv = Server(db).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = new_game(c)
            url, h = f"/api/games/{g['id']}/moves", auth(g["tokens"]["x"])
            assert c.get("/api/health").json()["status"] == "ok"
            # A trigger in the file refuses every move: each commit of one
            # fails for real, as on a full disk or a read-only file (which
            # root, as CI runs, could write anyway).
            con = sqlite3.connect(db, timeout=30)
            with con:
                con.execute("CREATE TRIGGER refuse BEFORE INSERT ON moves"
                            " BEGIN SELECT RAISE(ABORT, 'the disk refuses'); END")
            failed = c.post(url, headers=h, json={"ply": 0, "cell": "b2"})
            assert failed.status_code == 503 and failed.json()["status"] == "store_failed"
            sick = c.get("/api/health")
            assert sick.status_code == 503
            body = sick.json()
            assert body["status"] == "degraded"
            assert "the disk refuses" in body["store"]["last_error"]
            assert body["store"]["failed_writes"] >= 1
            assert c.get(f"/api/games/{g['id']}").json()["ply"] == 0
            with con:
                con.execute("DROP TRIGGER refuse")
            con.close()
            assert c.post(url, headers=h, json={"ply": 0, "cell": "b2"}).status_code == 200
            well = c.get("/api/health")
            assert well.status_code == 200 and well.json()["status"] == "ok"
            assert well.json()["store"]["last_error"] is None
    finally:
        assert srv.stop() == 0


def resign(c, g, seat="o"):
    r = c.post(f"/api/games/{g['id']}/resign", headers=auth(g["tokens"][seat]))
    assert r.status_code == 200, r.text
    return r.json()


def test_max_games_bounds_games_in_progress_and_finished_games_leave_memory(tmp_path):
    db = tmp_path / "games.db"
    srv = Server(db, "--max-games", "5").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            done = []
            for i in range(5):
                g = new_game(c)
                assert c.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"]["x"]),
                              json={"ply": 0, "cell": "b2"}).status_code == 200
                done.append((g, resign(c, g)))
            assert c.get("/api/health").json()["games"] == 0
            live = [new_game(c) for _ in range(5)]
            full = c.post("/api/games", json={})
            assert full.status_code == 503 and full.json()["status"] == "too_many_games"
            assert c.get("/api/health").json()["games"] == 5
            # Finished games still answer, from the store.
            for g, ended in done:
                url = f"/api/games/{g['id']}"
                got = c.get(url).json()
                assert got == {**ended, "draw_offer": None}
                assert got["state"] == "x_won" and got["moves"] == ["b2"]
                assert c.get(url + "/record").text.startswith("ttt/1 n=3 k=3")
                events = list(read_stream(srv, g["id"]))
                assert events[0].startswith("id: 1\nevent: move") and "event: end" in events[-1]
                again = c.post(url + "/resign", headers=auth(g["tokens"]["o"]))
                assert again.status_code == 200 and again.json()["state"] == "x_won"
                late = c.post(url + "/moves", headers=auth(g["tokens"]["o"]),
                              json={"ply": 1, "cell": "a1"})
                assert late.status_code == 409
            resign(c, live[0])
            assert c.post("/api/games", json={}).status_code == 201
            assert c.get("/api/games/" + "0" * 16).status_code == 404
        assert srv.stop() == 0
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            assert c.get("/api/health").json()["games"] == 5
            assert c.get(f"/api/games/{done[0][0]['id']}").json()["state"] == "x_won"
    finally:
        srv.kill()


def read_stream(srv, gid):
    """Every event of a finished game's stream (it ends after the end event)."""
    text = b""
    with httpx.stream("GET", f"{srv.url}/api/games/{gid}/events", timeout=60) as r:
        for chunk in r.iter_raw():
            text += chunk
    return [e for e in text.decode().split("\n\n") if e and not e.startswith(":")]


def test_players_are_paginated_and_rated_as_games_end(tmp_path):
    db = tmp_path / "games.db"
    srv = Server(db, "--argon2-memory", "1024", "--argon2-time", "1").start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            # Rated games are between accounts (test_rated.py).
            sessions = {}
            for name in ["Ana", "Bob", "Cyd", "Dee", "Eve"]:
                body = {"name": name, "password": "pass words"}
                assert c.post("/api/accounts", json=body).status_code == 201
                sessions[name] = auth(c.post("/api/sessions", json=body).json()["token"])
                c.cookies.clear()
            # Ana beats each of the others once: Ana first, then the
            # others, all at 1484 give or take, by name among equals.
            for other in ["Bob", "Cyd", "Dee", "Eve"]:
                gid = c.post("/api/games", json={"rated": True},
                             headers=sessions["Ana"]).json()["id"]
                assert c.post(f"/api/games/{gid}/join",
                              headers=sessions[other]).status_code == 200
                assert c.post(f"/api/games/{gid}/resign",
                              headers=sessions[other]).status_code == 200
            whole = c.get("/api/players").json()
            assert whole["total"] == 5 and whole["next"] is None
            names = [p["name"] for p in whole["players"]]
            assert names[0] == "Ana" and sorted(names[1:]) == ["Bob", "Cyd", "Dee", "Eve"]
            first = c.get("/api/players", params={"limit": 2}).json()
            assert [p["name"] for p in first["players"]] == names[:2]
            assert first["next"] == names[1]
            second = c.get("/api/players", params={"limit": 2, "after": first["next"]}).json()
            assert [p["name"] for p in second["players"]] == names[2:4]
            last = c.get("/api/players", params={"limit": 2, "after": second["next"]}).json()
            assert [p["name"] for p in last["players"]] == names[4:] and last["next"] is None
            assert c.get("/api/players", params={"limit": 0}).status_code == 422
            assert c.get("/api/players", params={"limit": "x"}).status_code == 422
            assert c.get("/api/players", params={"after": "Nobody"}).status_code == 404
        assert srv.stop() == 0
        srv.start()
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            assert c.get("/api/players").json() == whole
    finally:
        srv.kill()


def test_finished_games_loaded_by_many_requests_at_once(tmp_path):
    """Finished games come and go from memory while requests and streams
    hold them: every answer whole, and a clean stop (under the sanitizers,
    no use after free and no leak)."""
    import threading
    db = tmp_path / "games.db"
    srv = Server(db).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            games = [new_game(c) for _ in range(4)]
            for g in games:
                resign(c, g)
        failures = []

        def reader(i):
            try:
                with httpx.Client(base_url=srv.url, timeout=60) as c:
                    for n in range(20):
                        g = games[(i + n) % len(games)]
                        got = c.get(f"/api/games/{g['id']}")
                        if got.status_code != 200 or got.json()["state"] != "x_won":
                            failures.append(got.text)
                        if n % 5 == 0 and "event: end" not in read_stream(srv, g["id"])[-1]:
                            failures.append("a stream without its end")
            except Exception as e:  # noqa: BLE001 - reported below
                failures.append(repr(e))

        threads = [threading.Thread(target=reader, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not failures, failures[:3]
        assert not any(t.is_alive() for t in threads)
    finally:
        assert srv.stop() == 0
