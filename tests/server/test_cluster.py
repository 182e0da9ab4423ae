"""test_cluster.py - three ttt-servers on one PostgreSQL behind haproxy (round-robin, so one game's requests reach every node): a ply raced by 32 connections is stored once, a spectator on one node sees moves made on another, a game created on one node is played on the others."""
import concurrent.futures
import os

import httpx
import pytest

from cluster import for_tests
from conftest import auth
from test_pgstore import Spectator, move


@pytest.fixture(scope="module")
def deployment():
    yield from for_tests(nodes=3, balance="roundrobin")


def create(url, **fields):
    body = {"x": {"name": "Ana"}, "o": {"name": "Bo"}, **fields}
    r = httpx.post(url + "/api/games", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def test_32_connections_racing_one_ply_store_one(deployment):
    cells = [c + str(r) for c in "abcdefgh" for r in range(1, 5)]  # 32 cells of an 8x8 board
    for _ in range(3):
        g = create(deployment.url, width=8, height=8, k=5)

        def send(cell):
            # A connection of its own each, through haproxy: spread over the nodes.
            with httpx.Client(base_url=deployment.url, timeout=30) as c:
                return cell, move(c, g, "x", 0, cell)

        with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
            answers = list(pool.map(send, cells))
        won = [cell for cell, r in answers if r.status_code == 200]
        assert len(won) == 1, [(cell, r.status_code, r.text) for cell, r in answers]
        for cell, r in answers:
            if r.status_code != 200:
                assert r.status_code == 409, r.text
                assert r.json()["move"] == {"ply": 0, "cell": won[0], "mark": "x"}
        for n in deployment.nodes:  # every node answers from the one stored move
            assert httpx.get(f"{n.url}/api/games/{g['id']}", timeout=10).json()["moves"] == won


def test_a_spectator_on_one_node_sees_moves_made_on_another(deployment):
    a, b, c = deployment.nodes
    g = create(a.url)
    plays = [("x", "b2"), ("o", "a1"), ("x", "a3"), ("o", "b1"), ("x", "c1")]
    watch = Spectator(a.url, g["id"], count=len(plays) + 1)  # the moves, then the end
    with httpx.Client(base_url=b.url, timeout=10) as cb, \
            httpx.Client(base_url=c.url, timeout=10) as cc:
        for ply, (seat, cell) in enumerate(plays):
            r = move(cb if ply % 2 == 0 else cc, g, seat, ply, cell)
            assert r.status_code == 200, r.text
    events = watch.wait()  # bounded: fails if they do not all come
    assert [e["event"] for e in events] == ["move"] * 5 + ["end"]
    assert [e["id"] for e in events[:5]] == ["1", "2", "3", "4", "5"]
    for e, (seat, cell) in zip(events, plays):
        assert '"cell":"%s"' % cell in e["data"] and '"mark":"%s"' % seat in e["data"]
    assert '"state":"x_won"' in events[5]["data"]
    # A reconnect with Last-Event-ID, on a node and through haproxy, replays
    # what followed the event it names.
    for url in (c.url, deployment.url):
        again = Spectator(url, g["id"], count=3, last=3).wait()
        assert [e["event"] for e in again] == ["move", "move", "end"]
        assert [e.get("id") for e in again[:2]] == ["4", "5"]


def test_a_game_created_on_one_node_is_played_on_the_others(deployment):
    a, b, c = deployment.nodes
    g = create(a.url, game="connect4")
    columns = ["d", "d", "e", "e", "f", "f", "g"]  # x wins along the bottom row
    urls = [b.url, c.url, deployment.url]
    for ply, col in enumerate(columns):
        seat = "x" if ply % 2 == 0 else "o"
        r = httpx.post(f"{urls[ply % 3]}/api/games/{g['id']}/moves", timeout=10,
                       headers=auth(g["tokens"][seat]), json={"ply": ply, "column": col})
        assert r.status_code == 200, r.text
        assert r.json()["ply"] == ply + 1
    views = [httpx.get(f"{n.url}/api/games/{g['id']}", timeout=10).json()
             for n in deployment.nodes]
    assert all(v == views[0] for v in views)
    assert views[0]["state"] == "x_won" and len(views[0]["moves"]) == 7
    records = {httpx.get(f"{n.url}/api/games/{g['id']}/record", timeout=10).text
               for n in deployment.nodes}
    assert len(records) == 1


def test_the_nodes_share_one_database(deployment):
    """Each node's health names no failed write, and the store holds each
    game once whatever node created it."""
    ids = [create(n.url)["id"] for n in deployment.nodes for _ in range(3)]
    assert len(set(ids)) == 9
    stored = deployment.cluster.psql(
        "ttt", "SELECT count(*) FROM ttt_games WHERE id IN (%s)" % ",".join(
            "'%s'" % i for i in ids))
    assert stored.strip() == "9"
    for n in deployment.nodes:
        health = httpx.get(n.url + "/api/health", timeout=10).json()
        assert health["status"] == "ok" and health["store"]["failed_writes"] == 0
    assert os.path.exists(deployment.dir)
