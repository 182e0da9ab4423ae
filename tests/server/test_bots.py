"""test_bots.py - bot seats are scheduled fairly: a cheap bot move never waits behind deep searches, and every bot move ends, bounded in time as well as nodes."""
import time

import httpx
import pytest

from conftest import auth
from serverproc import Server

# Bounds that only catch a hang (a move that never comes), never a speed.
HANG = 90.0


@pytest.fixture
def busy(tmp_path):
    """One thread for deep searches, kept busy by bots whose node budget
    (4e9 positions on 15x15) would take hours a move without a time bound."""
    srv = Server(tmp_path / "games.db", "--bot-threads", "1", "--bot-time", "300",
                 "--max-budget", "4000000000").start()
    with httpx.Client(base_url=srv.url, timeout=30.0) as c:
        for _ in range(3):
            r = c.post("/api/games", json={"game": "gomoku", "x": {"kind": "perfect"},
                                           "o": {"kind": "perfect"}})
            assert r.status_code == 201, r.text
        yield srv, c
    srv.kill()  # a hung bot (the failure this catches) would not stop


def wait_for_ply(client, game_id, ply):
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game_id}").json()
        if state["ply"] >= ply:
            return state
        time.sleep(0.05)
    return None


def test_a_cheap_bot_replies_while_deep_bots_search(busy):
    _, client = busy
    g = client.post("/api/games", json={"game": "tictactoe", "x": {"name": "Ana"},
                                        "o": {"kind": "perfect"}}).json()
    token = g["tokens"]["x"]
    for ply, cell in [(0, "b2"), (2, "a1")]:
        state = client.get(f"/api/games/{g['id']}").json()
        if state["state"] != "in_progress":
            break
        if cell not in state["legal"]:
            cell = state["legal"][0]
        r = client.post(f"/api/games/{g['id']}/moves", headers=auth(token),
                        json={"ply": ply, "cell": cell})
        assert r.status_code == 200, r.text
        assert wait_for_ply(client, g["id"], ply + 2) is not None, "the 3x3 bot never replied"


def test_a_deep_bot_move_ends_by_its_time_bound(busy):
    srv, client = busy
    r = client.post("/api/games", json={"game": "gomoku", "x": {"name": "Ana"},
                                        "o": {"kind": "perfect"}})
    g = r.json()
    assert client.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"]["x"]),
                       json={"ply": 0, "cell": "h8"}).status_code == 200
    state = wait_for_ply(client, g["id"], 2)
    assert state is not None, "the deep bot never moved"
    assert state["to_move"] == "x"
    # And the server stops: no search outlives its time bound.
    assert srv.stop() == 0
