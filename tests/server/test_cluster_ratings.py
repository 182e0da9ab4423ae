"""test_cluster_ratings.py - three ttt-servers on one PostgreSQL rate every game once, whichever node it ended on: rated games finished on different nodes, some at once, show the same ratings on every node, and a node restarted, or down while games ended, shows them too."""
import concurrent.futures
import time

import httpx
import pytest

import glicko2ref
from cluster import for_tests
from conftest import FAST_ARGON2
from test_ratings import finish

NAMES = ("Ana", "Bob", "Cyd", "Dia", "Eda", "Fay")
KINDS = ("tictactoe", "connect4")
WIN_BY_MOVES = [("x", "b2"), ("o", "a1"), ("x", "a3"), ("o", "b1"), ("x", "c1")]


@pytest.fixture(scope="module")
def deployment():
    yield from for_tests(nodes=3, extra=FAST_ARGON2)


def login(c, name):
    """name's session on c's node, as headers. The account is made there
    unless it exists already (accounts may be each node's own, or shared
    by every node)."""
    body = {"name": name, "password": "pass words"}
    r = c.post("/api/accounts", json=body)
    assert r.status_code in (201, 409), r.text
    r = c.post("/api/sessions", json=body)
    assert r.status_code == 201, r.text
    c.cookies.clear()  # the token goes as a header only
    return {"Authorization": "Bearer " + r.json()["token"]}


def play(url, kind, x, o, score_x, by_moves=False):
    """A rated game of kind between x and o on the node at url, ended by x's
    winning move (by_moves, tictactoe), a resignation or an agreed draw."""
    with httpx.Client(base_url=url, timeout=60) as c:
        who = {x: login(c, x), o: login(c, o)}
        if not by_moves:
            finish(c, who, kind, x, o, score_x)
            return
        r = c.post("/api/games", json={"game": kind, "rated": True}, headers=who[x])
        assert r.status_code == 201, r.text
        game = f"/api/games/{r.json()['id']}"
        assert c.post(game + "/join", headers=who[o]).status_code == 200
        for ply, (seat, cell) in enumerate(WIN_BY_MOVES):
            r = c.post(game + "/moves", json={"ply": ply, "cell": cell},
                       headers=who[x if seat == "x" else o])
            assert r.status_code == 200, r.text
        assert r.json()["state"] == "x_won", r.text


def snapshot(url):
    """What a node shows of the ratings: every kind's leaderboard and every
    player's page."""
    with httpx.Client(base_url=url, timeout=60) as c:
        boards = {k: c.get("/api/players", params={"game": k, "limit": 1000}) for k in KINDS}
        people = {n: c.get(f"/api/players/{n}") for n in NAMES}
        return ({k: (r.status_code, r.json()) for k, r in boards.items()},
                {n: (r.status_code, r.json()) for n, r in people.items()})


def agreed(nodes, played, seconds=120):
    """The one snapshot every node shows once each has counted the games
    played ([(kind, x, o, score_x)]); a node that does not within seconds
    (a bound for a busy machine, not a timing check) fails the test."""
    games = {}
    for kind, x, o, _ in played:
        for name in (x, o):
            games[(kind, name)] = games.get((kind, name), 0) + 1

    def counted(snap):
        boards = snap[0]
        shown = {(k, p["name"]): p["games"] for k, (status, body) in boards.items()
                 if status == 200 for p in body["players"]}
        return shown == games

    deadline = time.monotonic() + seconds
    while True:
        snaps = [snapshot(n.url) for n in nodes]
        if all(counted(s) for s in snaps) and all(s == snaps[0] for s in snaps):
            return snaps[0]
        if time.monotonic() > deadline:
            pytest.fail("the nodes do not agree on the games played:\n"
                        + "\n".join(repr(s[0]) for s in snaps))
        time.sleep(0.2)


def check_counts(snap, played):
    """Each player's wins, losses and draws per kind are the games played."""
    want = {}
    for kind, x, o, s in played:
        for name, score in ((x, s), (o, 1 - s)):
            row = want.setdefault((kind, name), {"games": 0, "wins": 0, "losses": 0, "draws": 0})
            row["games"] += 1
            row[{1: "wins", 0: "losses", 0.5: "draws"}[score]] += 1
    boards, people = snap
    for kind, (status, body) in boards.items():
        assert status == 200 and body["total"] == len([k for k, _ in want if k == kind])
        for p in body["players"]:
            assert {k: p[k] for k in ("games", "wins", "losses", "draws")} == \
                want[(kind, p["name"])]
    for name, (status, body) in people.items():
        kinds = {k for k, n in want if n == name}
        assert status == (200 if kinds else 404)
        if kinds:
            assert set(body["ratings"]) == kinds
            assert sum(len(body["ratings"][k]["history"]) for k in kinds) == \
                sum(want[(k, name)]["games"] for k in kinds)


def test_every_node_rates_every_game_once(deployment):
    a, b, c = nodes = deployment.nodes
    # One after another, each on another node: the order they finished in
    # is known, so the ratings are the reference's.
    played = [("tictactoe", "Ana", "Bob", 1), ("tictactoe", "Bob", "Cyd", 0.5),
              ("tictactoe", "Cyd", "Ana", 0), ("connect4", "Ana", "Cyd", 1)]
    for i, (kind, x, o, s) in enumerate(played):
        play(nodes[i % 3].url, kind, x, o, s, by_moves=i == 0)
    snap = agreed(nodes, played)
    check_counts(snap, played)
    want = glicko2ref.replay([(x, o, s) for k, x, o, s in played if k == "tictactoe"])
    rows = {p["name"]: p for p in snap[0]["tictactoe"][1]["players"]}
    assert {n: (r["rating"], r["deviation"]) for n, r in rows.items()} == \
        {n: tuple(glicko2ref.shown(p).values()) for n, p in want.items()}

    # Nine at once, three on each node, the same players on several nodes.
    together = [("tictactoe", x, o, s) for x, o, s in [
        ("Ana", "Dia", 1), ("Bob", "Eda", 0), ("Cyd", "Fay", 0.5),
        ("Dia", "Bob", 1), ("Eda", "Ana", 0.5), ("Fay", "Cyd", 0),
        ("Ana", "Fay", 0), ("Bob", "Cyd", 1), ("Dia", "Eda", 0.5)]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(together)) as pool:
        done = [pool.submit(play, nodes[i % 3].url, *g, by_moves=g[3] == 1 and i % 2 == 0)
                for i, g in enumerate(together)]
        for f in done:
            f.result()
    played += together
    snap = agreed(nodes, played)
    check_counts(snap, played)

    # A node restarted shows the same; so does one that was down while a
    # game ended on another.
    assert b.stop() == 0
    b.start()
    assert agreed(nodes, played) == snap
    assert c.stop() == 0
    more = [("connect4", "Bob", "Eda", 0), ("tictactoe", "Fay", "Dia", 1)]
    for g in more:
        play(a.url, *g)
    c.start()
    played += more
    snap = agreed(nodes, played)
    check_counts(snap, played)


# Two rated games finished under one number, as two servers could number
# them before the store numbered them itself (added to a version 1 schema).
SAME_NUMBER = """
INSERT INTO ttt_games (id, width, height, k, gravity, misere, early_draw, ply_limit, rated,
 x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token, o_token) VALUES
 ('r2', 3, 3, 3, 0, 0, 0, 0, 1, 'human', 'human', 0, 0, 'Bob', 'Cyd', '', ''),
 ('r1', 3, 3, 3, 0, 0, 0, 0, 1, 'human', 'human', 0, 0, 'Ana', 'Bob', '', '');
INSERT INTO ttt_moves (game_id, seq, kind, mark, cell, finish_order) VALUES
 ('r2', 0, 1, -1, -1, 1), ('r1', 0, 1, -1, -1, 1);
INSERT INTO ttt_finished VALUES ('r2', 1, 1, '1 -1 -1'), ('r1', 1, 1, '1 -1 -1');
"""


def test_the_migration_numbers_old_results_once_and_the_store_goes_on(deployment):
    from test_pgstore import PG_SCHEMA_V1
    pg = deployment.cluster
    url = pg.create_db("ttt_numbered")
    pg.psql("ttt_numbered", PG_SCHEMA_V1 + SAME_NUMBER)
    srv = deployment.node(3)  # as the deployment starts its nodes, on this database
    srv.db = url
    srv.start()
    try:
        # 'done' (unrated), 'r1' and 'r2' all had 1: numbered again by id.
        assert pg.psql("ttt_numbered", "SELECT string_agg(id || '=' || finish_order, ' '"
                       " ORDER BY id) FROM ttt_finished").split() == ["done=1", "r1=2", "r2=3"]
        assert pg.psql("ttt_numbered", "SELECT string_agg(game_id || '=' || finish_order, ' '"
                       " ORDER BY game_id) FROM ttt_moves WHERE finish_order > 0").split() \
            == ["done=1", "r1=2", "r2=3"]
        assert pg.psql("ttt_numbered", "SELECT last FROM ttt_finish_counter").strip() == "3"
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            rows = {p["name"]: p for p in c.get("/api/players").json()["players"]}
            want = glicko2ref.replay([("Ana", "Bob", 1), ("Bob", "Cyd", 1)])
            assert {n: (r["rating"], r["deviation"]) for n, r in rows.items()} == \
                {n: tuple(glicko2ref.shown(p).values()) for n, p in want.items()}
            # The next game to end takes the next number, on its rows and the counter.
            g = c.post("/api/games", json={"x": {"name": "Ana"}, "o": {"name": "Bo"}}).json()
            r = c.post(f"/api/games/{g['id']}/resign",
                       headers={"Authorization": "Bearer " + g["tokens"]["o"]})
            assert r.status_code == 200 and r.json()["state"] == "x_won", r.text
        assert pg.psql("ttt_numbered", "SELECT f.finish_order || ' ' || m.finish_order FROM"
                       " ttt_finished f JOIN ttt_moves m ON m.game_id = f.id WHERE f.id = '%s'"
                       % g["id"]).strip() == "4 4"
        assert pg.psql("ttt_numbered", "SELECT last FROM ttt_finish_counter").strip() == "4"
        assert srv.stop() == 0
    finally:
        srv.kill()
