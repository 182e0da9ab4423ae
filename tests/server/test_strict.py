"""test_strict.py - what the API refuses: cross-site bodies, format characters in names, unknown fields; and what it takes: any case of "Bearer", HEAD."""
import json
import unicodedata

from conftest import auth, new_game

JSON = {"Content-Type": "application/json"}


def games_held(client):
    return client.get("/api/health").json()["games"]


def assert_refused(r, http, status, field=None):
    assert r.status_code == http, r.text
    body = r.json()
    assert body["status"] == status, body
    if field is not None:
        assert body["field"] == field, body
        assert field in body["error"], body


def test_a_body_needs_the_json_content_type(client):
    body = json.dumps({"game": "tictactoe"}).encode()
    held = games_held(client)
    # What a page on another site can send without a CORS preflight.
    for kind in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", None]:
        headers = {"Content-Type": kind} if kind else {}
        r = client.post("/api/games", headers=headers, content=body)
        assert_refused(r, 415, "unsupported_media_type")
    assert games_held(client) == held
    for kind in ["application/json", "application/json; charset=utf-8", "Application/JSON"]:
        assert client.post("/api/games", headers={"Content-Type": kind},
                           content=body).status_code == 201
    g = new_game(client)
    url = f"/api/games/{g['id']}"
    r = client.post(url + "/moves", headers={**auth(g["tokens"]["x"]), "Content-Type": "text/plain"},
                    content=b'{"ply": 0, "cell": "b2"}')
    assert_refused(r, 415, "unsupported_media_type")
    assert client.get(url).json()["ply"] == 0


def test_a_post_from_another_origin_is_refused(server, client):
    held = games_held(client)
    for origin in ["http://evil.example", "null", "https://127.0.0.1:1", "file://"]:
        r = client.post("/api/games", headers={"Origin": origin}, json={"game": "tictactoe"})
        assert_refused(r, 403, "cross_origin")
    assert games_held(client) == held
    g = new_game(client)
    r = client.post(f"/api/games/{g['id']}/resign",
                    headers={**auth(g["tokens"]["x"]), "Origin": "http://evil.example"})
    assert_refused(r, 403, "cross_origin")
    assert client.get(f"/api/games/{g['id']}").json()["state"] == "in_progress"
    # The page itself: same origin.
    own = f"http://127.0.0.1:{server.port}"
    assert client.post("/api/games", headers={"Origin": own},
                       json={"game": "tictactoe"}).status_code == 201


def test_names_with_format_characters_are_refused(client):
    held = games_held(client)
    format_chars = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    assert len(format_chars) > 150 and "\u202e" in format_chars and "\ufeff" in format_chars
    for i, ch in enumerate(format_chars):
        seat = "x" if i % 2 == 0 else "o"
        r = client.post("/api/games", json={seat: {"name": "Ana" + ch + "B"}})
        assert_refused(r, 422, "TTT_E_NAME", seat + ".name")
        assert "U+%04X" % ord(ch) in r.json()["error"]
    assert games_held(client) == held
    # Letters, marks, symbols and spaces of every script stay welcome.
    for name in ["Zoë", "李小龙", "Ана", "\u05e9\u05dc\u05d5\u05dd", "e\u0301", "🙂 x", "a\u00a0b"]:
        assert client.post("/api/games", json={"x": {"name": name}}).status_code == 201, name


def test_the_auth_scheme_is_case_insensitive(client):
    g = new_game(client)
    url = f"/api/games/{g['id']}/moves"
    for ply, (scheme, cell) in enumerate([("bearer ", "a1"), ("BEARER  ", "b1"),
                                          ("BeArEr ", "c1")]):
        token = g["tokens"]["x" if ply % 2 == 0 else "o"]
        r = client.post(url, headers={"Authorization": scheme + token},
                        json={"ply": ply, "cell": cell})
        assert r.status_code == 200, (scheme, r.text)
    for header in ["Basic " + g["tokens"]["x"], "Bearer" + g["tokens"]["x"], "bearer"]:
        assert client.post(url, headers={"Authorization": header},
                           json={"ply": 3, "cell": "a2"}).status_code == 401, header


def test_head_is_answered_as_get(server, client):
    for path, kind in [("/", "text/html"), ("/app.js", "text/javascript"),
                       ("/api/health", "application/json")]:
        r = client.head(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith(kind)
        assert r.content == b""
    g = new_game(client)
    assert client.head(f"/api/games/{g['id']}").status_code == 200
    assert client.head("/api/nothing").status_code == 404


def test_unknown_fields_are_named(client):
    held = games_held(client)
    for body, field in [({"widht": 4}, "widht"), ({"width": 4, "K": 3}, "K"),
                        ({"rules": {"mysere": True}}, "rules.mysere"),
                        ({"x": {"nmae": "Ana"}}, "x.nmae"),
                        ({"o": {"kind": "strong", "budjet": 5}}, "o.budjet"),
                        ({"game": "tictactoe", "width": 50}, "width"),
                        ({"game": "gomoku", "k": 3}, "k"),
                        ({"game": "connect4", "gravity": False}, "gravity")]:
        r = client.post("/api/games", json=body)
        assert_refused(r, 422, "TTT_E_INVALID", field)
    assert games_held(client) == held
    g = new_game(client)
    url = f"/api/games/{g['id']}"
    r = client.post(url + "/moves", headers=auth(g["tokens"]["x"]),
                    json={"ply": 0, "cell": "b2", "colour": "red"})
    assert_refused(r, 422, "TTT_E_INVALID", "colour")
    assert client.get(url).json()["ply"] == 0
    # A preset with the rules and seats, and null for an absent shape, still go.
    r = client.post("/api/games", json={"game": "connect4", "width": None,
                                        "rules": {"misere": True}, "x": {"name": "Ana"}})
    assert r.status_code == 201, r.text
    assert r.json()["game"]["width"] == 7

