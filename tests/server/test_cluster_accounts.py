"""test_cluster_accounts.py - three ttt-servers on one PostgreSQL share accounts, sessions and rated seats: an account made on one node logs in on another, its session works and ends on every node, its account stream ends with it, a name or a seat raced from two nodes goes to one, a rated game is made, joined and played across nodes; the lobby and quick pairing through haproxy are one lobby; while PostgreSQL is down sessions answer 503, and after it the nodes reconnect."""
import concurrent.futures
import time

import httpx
import pytest

from cluster import for_tests
from conftest import FAST_ARGON2, auth
from test_lobby import Events, stream_ends
from test_pgstore import retried

PASSWORD = "pass words"


@pytest.fixture(scope="module")
def deployment():
    yield from for_tests(nodes=3, balance="roundrobin", extra=FAST_ARGON2)


# Each request on a client of its own: no cookie is carried from one node's
# answer to another's request, so only the token sent decides.
def post(url, path, body=None, headers=None):
    return httpx.post(url + path, json=body, headers=headers, timeout=30)


def register(url, name):
    r = post(url, "/api/accounts", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def login(url, name):
    """The session's Authorization header, from a login on url."""
    r = post(url, "/api/sessions", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return auth(r.json()["token"])


def current(url, who):
    return httpx.get(url + "/api/sessions/current", headers=who, timeout=30)


def test_a_session_made_on_one_node_works_and_ends_on_every_node(deployment):
    a, b, c = deployment.nodes
    register(a.url, "Ana")
    ana = login(b.url, "Ana")
    r = current(c.url, ana)
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ana"
    # The name is taken on every node, in any case.
    r = post(c.url, "/api/accounts", {"name": "ANA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["status"] == "name_taken"
    # A wrong password is wrong on every node too.
    r = post(c.url, "/api/sessions", {"name": "Ana", "password": "not the one"})
    assert r.status_code == 401
    # Logged out on one node: the token is nothing on every node.
    r = httpx.delete(c.url + "/api/sessions/current", headers=ana, timeout=30)
    assert r.status_code == 200, r.text
    for n in (a, b, c):
        r = current(n.url, ana)
        assert r.status_code == 401, (n.url, r.text)
    # A second login, anywhere, is a new session that works everywhere.
    again = login(a.url, "ana")
    assert again != ana
    assert all(current(n.url, again).status_code == 200 for n in (a, b, c))


def test_a_logout_on_one_node_ends_the_account_stream_on_another(deployment):
    a, b, c = deployment.nodes
    register(a.url, "Ivy")
    ivy, ivy_too = login(a.url, "Ivy"), login(c.url, "Ivy")
    with Events(a.url + "/api/account/events", ivy) as mine:
        r = httpx.delete(b.url + "/api/sessions/current", headers=ivy, timeout=30)
        assert r.status_code == 200, r.text
        # Node a learns of it from the database at its next keep-alive.
        assert stream_ends(mine)
    # The account's other session lasts.
    assert current(a.url, ivy_too).status_code == 200


def test_a_name_raced_from_two_nodes_makes_one_account(deployment):
    a, b, c = deployment.nodes
    for i in range(4):
        names = [(a.url, f"Racer{i}"), (b.url, f"rACER{i}")]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(
                lambda t: post(t[0], "/api/accounts", {"name": t[1], "password": PASSWORD}),
                names))
        codes = sorted(r.status_code for r in answers)
        assert codes == [201, 409], [r.text for r in answers]
        lost = next(r for r in answers if r.status_code == 409)
        assert lost.json()["status"] == "name_taken"
        won = next(r for r in answers if r.status_code == 201).json()["name"]
        # The name that won is the account's, as any node shows it.
        assert current(c.url, login(c.url, f"racer{i}")).json()["name"] == won
        stored = deployment.cluster.psql(
            "ttt", f"SELECT count(*) FROM ttt_accounts WHERE name_key = 'racer{i}'")
        assert stored.strip() == "1"


def rated(url, who):
    r = post(url, "/api/games", {"game": "tictactoe", "rated": True}, who)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_rated_game_is_made_joined_and_played_across_nodes(deployment):
    a, b, c = deployment.nodes
    for name, node in (("Xena", a), ("Olga", b), ("Yuri", c)):
        register(node.url, name)
    xena, olga, yuri = login(a.url, "Xena"), login(b.url, "Olga"), login(c.url, "Yuri")
    gid = rated(a.url, xena)
    # Nobody moves before o is taken, on any node.
    r = post(b.url, f"/api/games/{gid}/moves", {"ply": 0, "cell": "b2"}, xena)
    assert r.status_code == 409 and r.json()["status"] == "no_opponent"
    r = post(c.url, f"/api/games/{gid}/join", None, xena)
    assert r.status_code == 409 and r.json()["status"] == "same_account", r.text
    r = post(b.url, f"/api/games/{gid}/join", None, olga)
    assert r.status_code == 200, r.text
    assert r.json()["players"]["o"]["name"] == "Olga"
    r = post(c.url, f"/api/games/{gid}/join", None, yuri)
    assert r.status_code == 409 and r.json()["status"] == "seat_taken", r.text
    # Each account plays its own seat, whatever node each move reaches.
    plays = [(xena, "b2"), (olga, "a1"), (xena, "a3"), (olga, "b1"), (xena, "c1")]
    for ply, (who, cell) in enumerate(plays):
        node = deployment.nodes[(ply + 2) % 3]
        r = post(node.url, f"/api/games/{gid}/moves", {"ply": ply, "cell": cell}, who)
        assert r.status_code == 200, (node.url, r.text)
        if ply == 1:
            r = post(a.url, f"/api/games/{gid}/moves", {"ply": 2, "cell": "c3"}, yuri)
            assert r.status_code == 403, r.text
    views = [httpx.get(f"{n.url}/api/games/{gid}", timeout=30).json() for n in (a, b, c)]
    for v in views:
        assert v["state"] == "x_won" and v["moves"] == [cell for _, cell in plays]
        assert v["players"]["x"]["name"] == "Xena" and v["players"]["o"]["name"] == "Olga"


def test_a_join_on_another_node_starts_x_first_move_window_at_the_join(deployment):
    a, b, c = deployment.nodes
    for name, node in (("Clockx", a), ("Clocko", b)):
        register(node.url, name)
    x, o = login(a.url, "Clockx"), login(b.url, "Clocko")
    r = post(a.url, "/api/games", {"game": "tictactoe", "rated": True,
                                   "clock": {"initial_s": 60, "increment_s": 0}}, x)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    # Node a holds the game, its o seat open, when node b seats o.
    assert "first_move_ms" not in httpx.get(f"{a.url}/api/games/{gid}", timeout=30).json()
    r = post(b.url, f"/api/games/{gid}/join", None, o)
    assert r.status_code == 200, r.text
    window = 30000  # the smaller of x's 60 s and 30 s
    waited = 1.5
    time.sleep(waited)
    # At least `waited` seconds of the window have gone on every node,
    # node a included, which learns of the join only now.
    for n in (a, b, c):
        left = httpx.get(f"{n.url}/api/games/{gid}", timeout=30).json()["first_move_ms"]
        assert 0 < left <= window - waited * 1000, (n.url, left)


def test_a_seat_raced_from_two_nodes_goes_to_one_account(deployment):
    a, b, c = deployment.nodes
    for name, node in (("Host", a), ("Left", b), ("Right", c)):
        register(node.url, name)
    host, left, right = login(a.url, "Host"), login(b.url, "Left"), login(c.url, "Right")
    for _ in range(3):
        gid = rated(a.url, host)
        tries = [(b.url, left), (c.url, right)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(
                lambda t: post(t[0], f"/api/games/{gid}/join", None, t[1]), tries))
        codes = [r.status_code for r in answers]
        assert sorted(codes) == [200, 409], [r.text for r in answers]
        assert next(r for r in answers if r.status_code == 409).json()["status"] == "seat_taken"
        winner = "Left" if codes[0] == 200 else "Right"
        seated = deployment.cluster.psql(
            "ttt", "SELECT a.name FROM ttt_rated_seats s JOIN ttt_accounts a"
                   f" ON a.id = s.o_account WHERE s.game_id = '{gid}'")
        assert seated.strip() == winner
        # The loser holds no seat: its move is refused on every node; the
        # winner's is taken.
        loser = right if winner == "Left" else left
        for n in (a, b, c):
            r = post(n.url, f"/api/games/{gid}/moves", {"ply": 0, "cell": "b2"}, loser)
            assert r.status_code == 403, r.text
        assert post(b.url, f"/api/games/{gid}/moves", {"ply": 0, "cell": "b2"},
                    host).status_code == 200


def test_the_lobby_through_haproxy_is_one_lobby(deployment):
    # haproxy balances round-robin, but sends the lobby's routes to one node:
    # a seek made through it is listed, streamed and accepted through it,
    # and the game it starts is played on every node.
    a, b, c = deployment.nodes
    lb = deployment.url
    register(a.url, "Lara")
    register(b.url, "Lobo")
    lara, lobo = login(a.url, "Lara"), login(b.url, "Lobo")
    with Events(lb + "/api/lobby/events") as lobby, \
            Events(lb + "/api/account/events", lara) as lara_events:
        assert lobby.next("seeks") == {"seeks": []}
        r = post(lb, "/api/seeks", {"game": "tictactoe", "rated": True}, lara)
        assert r.status_code == 201, r.text
        seek = r.json()["id"]
        assert lobby.next("seek_added")["id"] == seek
        for _ in range(3):  # without the lobby's backend, each would reach another node
            listed = httpx.get(lb + "/api/seeks", timeout=30).json()["seeks"]
            assert [s["id"] for s in listed] == [seek]
        r = post(lb, f"/api/seeks/{seek}/accept", None, lobo)
        assert r.status_code == 201, r.text
        started = r.json()
        told = lara_events.next("game_started")
        assert told["game"] == started["game"] and told["opponent"] == "Lobo"
    gid = started["game"]
    x = lara if told["seat"] == "x" else lobo
    o = lobo if x is lara else lara
    plays = [(x, "b2"), (o, "a1"), (x, "a3"), (o, "b1"), (x, "c1")]
    for ply, (who, cell) in enumerate(plays):
        r = post(lb, f"/api/games/{gid}/moves", {"ply": ply, "cell": cell}, who)
        assert r.status_code == 200, r.text
    for n in (a, b, c):
        assert httpx.get(f"{n.url}/api/games/{gid}", timeout=30).json()["state"] == "x_won"


def test_quick_pairing_through_haproxy_pairs_accounts_of_any_node(deployment):
    a, b, c = deployment.nodes
    lb = deployment.url
    register(b.url, "Pia")
    register(c.url, "Pol")
    pia, pol = login(b.url, "Pia"), login(c.url, "Pol")
    with Events(lb + "/api/account/events", pia) as pia_events, \
            Events(lb + "/api/account/events", pol) as pol_events:
        for who in (pia, pol):
            r = post(lb, "/api/pairing", {"game": "connect4"}, who)
            assert r.status_code == 201, r.text
        p, q = pia_events.next("game_started"), pol_events.next("game_started")
    assert p["game"] == q["game"] and p["opponent"] == "Pol" and q["opponent"] == "Pia"
    assert {p["seat"], q["seat"]} == {"x", "o"}
    for n in (a, b, c):
        assert httpx.get(f"{n.url}/api/games/{p['game']}", timeout=30).json()["rated"] is True


def test_sessions_answer_503_while_postgresql_is_down_then_recover(deployment):
    """Run last: it stops the deployment's PostgreSQL for a while. A session
    that cannot be read is not taken for a logout (503, not 401), and each
    node's account connection comes back by itself."""
    a, b, c = deployment.nodes
    register(a.url, "Dora")
    dora = login(b.url, "Dora")
    assert all(current(n.url, dora).status_code == 200 for n in (a, b, c))
    deployment.cluster.stop_server()
    try:
        for n in (a, b, c):
            r = current(n.url, dora)
            assert r.status_code == 503 and r.json()["status"] == "store_failed", r.text
        r = post(a.url, "/api/accounts", {"name": "Edna", "password": PASSWORD})
        assert r.status_code == 503, r.text
        r = post(b.url, "/api/sessions", {"name": "Dora", "password": PASSWORD})
        assert r.status_code == 503, r.text
        # Through haproxy too: 503, whether a node or haproxy answers it.
        r = post(deployment.url, "/api/games", {"x": {"name": "A"}, "o": {"name": "B"}})
        assert r.status_code == 503, r.text
    finally:
        deployment.cluster.start_server()
    # Every node took itself out of haproxy (health 503, its writes failed)
    # and puts itself back: haproxy sends no request to show it that
    # PostgreSQL is back, so each node's own probe write has to.
    guests = {"x": {"name": "A"}, "o": {"name": "B"}}
    r = retried(lambda: post(deployment.url, "/api/games", guests), tries=600)
    assert r.status_code == 201, r.text
    for n in (a, b, c):
        r = retried(lambda: httpx.get(n.url + "/api/health", timeout=30), tries=600)
        assert r.status_code == 200, (n.url, r.text)
    for n in (a, b, c):
        r = retried(lambda: current(n.url, dora))
        assert r.status_code == 200 and r.json()["name"] == "Dora", r.text
    r = retried(lambda: post(c.url, "/api/accounts", {"name": "Edna", "password": PASSWORD}))
    assert r.status_code == 201, r.text
    assert current(a.url, login(a.url, "Edna")).status_code == 200

