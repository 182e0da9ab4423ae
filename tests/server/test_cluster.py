"""test_cluster.py - three ttt-servers on one PostgreSQL behind haproxy (round-robin, so one game's requests reach every node): a ply raced by 32 connections is stored once, a spectator on one node sees moves made on another, a game created on one node is played on the others, a draw offered on one node is seen and agreed on the others."""
import concurrent.futures
import os
import threading
import time

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


def draw(url, g, seat):
    r = httpx.post(f"{url}/api/games/{g['id']}/draw", headers=auth(g["tokens"][seat]),
                   timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


def views(deployment, g):
    return [httpx.get(f"{n.url}/api/games/{g['id']}", timeout=10).json()
            for n in deployment.nodes]


def test_a_draw_offered_on_one_node_is_agreed_on_another(deployment):
    a, b, _ = deployment.nodes
    g = create(a.url)
    offer = draw(a.url, g, "x")
    assert offer["draw"] == "offered" and offer["draw_offer"] == "x"
    assert [v["draw_offer"] for v in views(deployment, g)] == ["x"] * 3
    accept = draw(b.url, g, "o")
    assert accept["draw"] == "agreed", accept
    for v in views(deployment, g):
        assert (v["state"], v["ending"], v["draw_offer"]) == ("draw", "agreed", None)
    # A retry of the acceptance, on any node, answers as the first time.
    assert draw(deployment.nodes[2].url, g, "o") == accept


def test_a_spectator_on_a_third_node_is_told_of_an_offer(deployment):
    a, b, c = deployment.nodes
    g = create(a.url)
    watch = Spectator(c.url, g["id"], count=2)  # the offer, then the end
    draw(a.url, g, "x")
    # The offer is accepted once the stream has it (an offer accepted at
    # once may end the game before any stream sends it, as on one node).
    deadline = time.monotonic() + 60
    while not watch.events and time.monotonic() < deadline and watch.thread.is_alive():
        time.sleep(0.05)
    assert draw(b.url, g, "o")["draw"] == "agreed"
    events = watch.wait()
    assert [e["event"] for e in events] == ["offer", "end"], events
    assert events[0]["data"] == '{"by":"x"}' and "id" not in events[0]
    assert '"ending":"agreed"' in events[1]["data"]


def test_a_move_after_an_offer_withdraws_it_on_every_node(deployment):
    a, b, c = deployment.nodes
    g = create(a.url)
    assert draw(a.url, g, "x")["draw"] == "offered"  # at ply 0, x to move
    assert [v["draw_offer"] for v in views(deployment, g)] == ["x"] * 3
    with httpx.Client(base_url=b.url, timeout=10) as cb:
        assert move(cb, g, "x", 0, "b2").status_code == 200
    assert [v["draw_offer"] for v in views(deployment, g)] == [None] * 3
    # x's offer, made at ply 0, no longer stands: o's draw is an offer.
    later = draw(c.url, g, "o")
    assert later["draw"] == "offered" and later["draw_offer"] == "o", later
    for v in views(deployment, g):
        assert (v["state"], v["draw_offer"]) == ("in_progress", "o")


def test_offers_by_both_sides_at_once_on_two_nodes_agree(deployment):
    """x offers through one node while o offers through another at the same
    ply: whichever the database takes first stands and the other agrees to
    it, never two offers that each node holds apart."""
    a, b, _ = deployment.nodes
    for _ in range(8):
        g = create(a.url)
        start = threading.Barrier(2, timeout=30)

        def offer(url, seat):
            with httpx.Client(timeout=30) as client:
                client.get(url + "/api/health")  # connected before the barrier
                start.wait()
                r = client.post(f"{url}/api/games/{g['id']}/draw",
                                headers=auth(g["tokens"][seat]))
                assert r.status_code == 200, r.text
                return r.json()

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(offer, (a.url, b.url), ("x", "o")))
        assert sorted(r["draw"] for r in answers) == ["agreed", "offered"], answers
        for v in views(deployment, g):
            assert (v["state"], v["ending"], v["draw_offer"]) == ("draw", "agreed", None)
