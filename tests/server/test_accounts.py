"""test_accounts.py - accounts and sessions: creation rules, logins, rate limits, expiry, logout, hash parameters."""
import re
import sqlite3
import time

import httpx
import pytest

from conftest import FAST_ARGON2
from serverproc import Server


def start(tmp_path, *extra):
    return Server(tmp_path / "games.db", *FAST_ARGON2, *extra).start()


def client_from(server, address="127.0.0.1"):
    """A client whose connections come from address (any of 127.0.0.0/8)."""
    return httpx.Client(base_url=server.url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address))


def signup(c, name, password="correct horse"):
    return c.post("/api/accounts", json={"name": name, "password": password})


def login(c, name, password="correct horse"):
    return c.post("/api/sessions", json={"name": name, "password": password})


def bearer(token, scheme="Bearer"):
    return {"Authorization": f"{scheme} {token}"}


def test_create_login_use_and_logout(account_server):
    with client_from(account_server) as c:
        r = signup(c, "Ana_1")
        assert r.status_code == 201 and r.json() == {"name": "Ana_1"}
        # Unique ignoring case.
        r = signup(c, "ana_1", "another password")
        assert r.status_code == 409 and r.json()["status"] == "name_taken"
        r = login(c, "ANA_1")
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["name"] == "Ana_1" and re.fullmatch(r"[0-9a-f]{32}", body["token"])
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("ttt_session=" + body["token"] + ";")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        token = body["token"]
        # The scheme's name in any case, or the cookie alone.
        for scheme in ("Bearer", "bearer", "BEARER"):
            me = c.get("/api/sessions/current", headers=bearer(token, scheme))
            assert me.status_code == 200 and me.json()["name"] == "Ana_1"
            assert me.json()["expires"] == body["expires"]
        with httpx.Client(base_url=account_server.url, timeout=30,
                          cookies={"ttt_session": token}) as jar:
            assert jar.get("/api/sessions/current").json()["name"] == "Ana_1"
        # No password, hash or token in what the account routes show later.
        assert "token" not in me.json() and "hash" not in me.json()
        r = c.delete("/api/sessions/current", headers=bearer(token))
        assert r.status_code == 200 and r.json() == {"status": "logged_out"}
        assert "Max-Age=0" in r.headers["set-cookie"]
        assert c.get("/api/sessions/current", headers=bearer(token)).status_code == 401
        assert c.delete("/api/sessions/current", headers=bearer(token)).status_code == 401
        # Another login still works after a logout.
        assert login(c, "ana_1").status_code == 201


@pytest.mark.parametrize("name", ["ab", "a" * 25, "a b", "Ana!", "Åsa", "ana\u202e",
                                  "", 5, None, ["ana"]])
def test_names_outside_the_documented_set_are_refused(account_server, name):
    with client_from(account_server) as c:
        r = signup(c, name)
        assert r.status_code == 422, r.text
        assert r.json()["field"] == "name"


def test_name_edges_and_password_rules(account_server):
    with client_from(account_server) as c:
        assert signup(c, "abc").status_code == 201
        assert signup(c, "Z" * 24).status_code == 201
        assert signup(c, "a-b_c-9").status_code == 201
        for pw in ["short", "x" * 1025, 12345678, None]:
            r = signup(c, "pwtest", pw)
            assert r.status_code == 422 and r.json()["field"] == "password", (pw, r.text)
        assert signup(c, "pwtest", "x" * 1024).status_code == 201
        # A NUL byte anywhere: the JSON parser refuses the body.
        assert signup(c, "a\u0000bc").status_code == 400
        assert signup(c, "nulpw", "abc\u0000defgh").status_code == 400
        r = c.post("/api/accounts", json={"name": "extra1", "password": "long enough",
                                          "admin": True})
        assert r.status_code == 422 and "admin" in r.json()["error"]
        assert c.post("/api/accounts", json={"name": "only"}).status_code == 422
        assert c.post("/api/accounts", content=b'{"name":"plain1","password":"long enough"}',
                      headers={"Content-Type": "text/plain"}).status_code == 415
        assert c.post("/api/accounts", content=b'{"name":',
                      headers={"Content-Type": "application/json"}).status_code == 400
        assert c.get("/api/accounts").status_code == 405
        # A 10,000-character password: over the body cap here, refused whole.
        r = signup(c, "tenk", "p" * 10000)
        assert r.status_code == 413
        assert login(c, "abc", "p" * 10000).status_code == 413
        assert c.get("/api/health").status_code == 200


def test_ten_thousand_character_password_within_a_larger_body_cap(tmp_path):
    s = start(tmp_path, "--max-body", "65536")
    try:
        with client_from(s) as c:
            r = signup(c, "tenk", "p" * 10000)
            assert r.status_code == 422 and r.json()["field"] == "password"
            assert signup(c, "tenk").status_code == 201
            r = login(c, "tenk", "p" * 10000)
            assert r.status_code == 422 and "token" not in r.text
            assert login(c, "tenk").status_code == 201
    finally:
        assert s.stop() == 0


def test_wrong_passwords_and_unknown_names_answer_alike(account_server):
    with client_from(account_server) as c:
        assert signup(c, "Bo123").status_code == 201
        wrong = login(c, "Bo123", "not the password")
        unknown = login(c, "Nobody", "not the password")
        odd = login(c, "no such name!", "not the password")
        for r in (wrong, unknown, odd):
            assert r.status_code == 401 and r.json()["status"] == "wrong_login", r.text
            assert "token" not in r.json() and "set-cookie" not in r.headers
        assert wrong.json() == unknown.json() == odd.json()
        assert login(c, "bo123").status_code == 201


def test_login_floods_are_delayed_per_account_and_per_address(tmp_path):
    s = start(tmp_path, "--login-free-failures", "3", "--login-delay", "60",
              "--login-max-delay", "600")
    try:
        with client_from(s, "127.0.0.1") as flood, client_from(s, "127.0.0.2") as other:
            for name in ("target", "bystander"):
                assert signup(flood, name).status_code == 201
            # Three free failures, then the fourth starts the documented delay.
            for _ in range(3):
                r = login(flood, "target", "guessing wrong")
                assert r.status_code == 401 and "retry-after" not in r.headers
            r = login(flood, "target", "guessing wrong")
            assert r.status_code == 401 and r.headers["retry-after"] == "60"
            # While it lasts every try is refused, the right password too,
            # from the flooding address and for the flooded account.
            for _ in range(20):
                r = login(flood, "target", "guessing wrong")
                assert r.status_code == 429, r.text
                assert 0 < int(r.headers["retry-after"]) <= 60
                assert r.json()["retry_after"] == int(r.headers["retry-after"])
            assert login(flood, "target").status_code == 429
            assert login(other, "target").status_code == 429
            assert login(flood, "bystander").status_code == 429
            # Another account from another address logs in as usual.
            r = login(other, "bystander")
            assert r.status_code == 201, r.text
            assert other.get("/api/sessions/current",
                             headers=bearer(r.json()["token"])).status_code == 200
    finally:
        assert s.stop() == 0


def test_login_delays_grow(tmp_path):
    s = start(tmp_path, "--login-free-failures", "0", "--login-delay", "1",
              "--login-max-delay", "4")
    try:
        with client_from(s) as c:
            assert signup(c, "grower").status_code == 201
            seen = []
            for _ in range(4):
                r = login(c, "grower", "guessing wrong")
                assert r.status_code == 401
                seen.append(int(r.headers["retry-after"]))
                # Past the delay (a bound, not a measurement), then refused
                # no longer.
                time.sleep(seen[-1] + 1.2)
            assert seen == [1, 2, 4, 4]
            assert login(c, "grower").status_code == 201
    finally:
        assert s.stop() == 0


def test_sessions_expire(tmp_path):
    s = start(tmp_path, "--session-lifetime", "5")
    try:
        with client_from(s) as c:
            assert signup(c, "brief").status_code == 201
            r = login(c, "brief")
            token = r.json()["token"]
            assert 0 <= r.json()["expires"] - time.time() <= 6
            assert "Max-Age=5" in r.headers["set-cookie"]
            time.sleep(6.5)
            assert c.get("/api/sessions/current", headers=bearer(token)).status_code == 401
            assert c.delete("/api/sessions/current", headers=bearer(token)).status_code == 401
            # One more, ended and never used again: the next login sweeps it.
            login(c, "brief")
            time.sleep(6.5)
            assert login(c, "brief").status_code == 201
    finally:
        assert s.stop() == 0
    con = sqlite3.connect(s.db)
    (left,) = con.execute("SELECT count(*) FROM sessions").fetchone()
    con.close()
    assert left == 1


def test_tokens_name_their_own_account_only(account_server):
    with client_from(account_server) as c:
        for name in ("first", "second"):
            assert signup(c, name).status_code == 201
        a = login(c, "first").json()["token"]
        b = login(c, "second").json()["token"]
        assert c.get("/api/sessions/current", headers=bearer(a)).json()["name"] == "first"
        assert c.get("/api/sessions/current", headers=bearer(b)).json()["name"] == "second"
        # Logging one out leaves the other.
        assert c.delete("/api/sessions/current", headers=bearer(b)).status_code == 200
        assert c.get("/api/sessions/current", headers=bearer(b)).status_code == 401
        assert c.get("/api/sessions/current", headers=bearer(a)).status_code == 200
        for forged in ("0" * 32, a[:-1] + ("0" if a[-1] != "0" else "1"), a.upper(), a + "0", "-",
                       "x" * 5000):
            assert c.get("/api/sessions/current", headers=bearer(forged)).status_code == 401
        assert c.get("/api/sessions/current").status_code == 401
        # A logout from a page of another origin is refused.
        r = c.delete("/api/sessions/current",
                     headers={**bearer(a), "Origin": "http://elsewhere.example"})
        assert r.status_code == 403
        assert c.get("/api/sessions/current", headers=bearer(a)).status_code == 200


def test_hash_parameters_are_stored_and_raised_at_login(tmp_path):
    db = tmp_path / "games.db"
    s = Server(db).start()  # the default parameters
    try:
        with client_from(s) as c:
            assert signup(c, "keeper", "my secret words").status_code == 201
            token = login(c, "keeper", "my secret words").json()["token"]
    finally:
        assert s.stop() == 0
    con = sqlite3.connect(db)
    (hash_,) = con.execute("SELECT hash FROM accounts").fetchone()
    stored = [row[0] for row in con.execute("SELECT token_hash FROM sessions")]
    con.close()
    assert hash_.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert token not in stored and len(stored) == 1
    raw = open(db, "rb").read() + open(str(db) + "-wal", "rb").read() \
        if (tmp_path / "games.db-wal").exists() else open(db, "rb").read()
    assert b"my secret words" not in raw and token.encode() not in raw

    s = Server(db, "--argon2-memory", "20480", "--argon2-time", "3").start()
    try:
        with client_from(s) as c:
            assert c.get("/api/sessions/current", headers=bearer(token)).status_code == 200
            assert login(c, "keeper", "my secret words").status_code == 201
    finally:
        assert s.stop() == 0
    con = sqlite3.connect(db)
    (hash_,) = con.execute("SELECT hash FROM accounts").fetchone()
    con.close()
    assert hash_.startswith("$argon2id$v=19$m=20480,t=3,p=1$")
    log = open(str(db) + ".log").read()
    assert "my secret words" not in log and token not in log and "argon2id$" not in log
