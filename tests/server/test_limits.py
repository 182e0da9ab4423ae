"""test_limits.py - one client address holding every connection and stream it may does not stop another address from playing; slow headers are cut off."""
import socket
import time

import httpx
import pytest

from conftest import auth
from serverproc import Server

HOSTILE, PLAYER = "127.0.0.2", "127.0.0.1"  # both loopback: two client addresses
PER_ADDRESS, STREAMS = 6, 2
HANG = 60.0  # a bound that only catches a hang


def connect_from(address, port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5.0, source_address=(address, 0))
    s.settimeout(5.0)
    return s


def closed_by_server(s, within):
    """True once the server closes s (reads its end of the stream), waiting at most within s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            if s.recv(65536) == b"":
                return True
        except socket.timeout:
            return False
        except OSError:
            return True
    return False


def open_stream(address, port, game_id):
    """A raw event-stream request; returns (socket, status)."""
    s = connect_from(address, port)
    s.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: a\r\n\r\n".encode())
    head = b""
    deadline = time.monotonic() + 10
    while b"\r\n" not in head and time.monotonic() < deadline:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else None


def start_limited(tmp_path, header_timeout):
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=1, source_address=(HOSTILE, 0))
    except ConnectionRefusedError:
        pass
    except OSError as e:
        pytest.skip("no second loopback address to connect from: %s" % e)
    return Server(tmp_path / "games.db", "--max-connections", "40",
                  "--max-connections-per-address", PER_ADDRESS,
                  "--max-streams-per-address", STREAMS,
                  "--header-timeout", header_timeout).start()


@pytest.fixture
def limited(tmp_path):
    """Idle connections stay (a long header timeout): only the caps protect."""
    srv = start_limited(tmp_path, 600)
    yield srv
    assert srv.stop() == 0


@pytest.fixture
def impatient(tmp_path):
    srv = start_limited(tmp_path, 2)
    yield srv
    assert srv.stop() == 0


def test_a_hostile_address_at_its_caps_does_not_lock_out_another(limited):
    port = int(limited.url.rsplit(":", 1)[1])
    player = httpx.Client(base_url=limited.url, timeout=10.0,
                          transport=httpx.HTTPTransport(local_address=PLAYER))
    held = []
    try:
        g = player.post("/api/games", json={"game": "tictactoe"}).json()
        # The hostile address opens its streams, then one more, refused.
        for _ in range(STREAMS):
            s, status = open_stream(HOSTILE, port, g["id"])
            held.append(s)
            assert status == 200
        s, status = open_stream(HOSTILE, port, g["id"])
        held.append(s)
        assert status == 429
        # Then idle connections up to its cap: the next ones are closed at once.
        for _ in range(PER_ADDRESS):
            held.append(connect_from(HOSTILE, port))
        extra = connect_from(HOSTILE, port)
        held.append(extra)
        assert closed_by_server(extra, 10.0)

        # Meanwhile the other address plays a whole game and follows it.
        watcher = httpx.Client(base_url=limited.url, timeout=10.0,
                               transport=httpx.HTTPTransport(local_address=PLAYER))
        held.append(watcher)
        with watcher.stream("GET", f"/api/games/{g['id']}/events") as events:
            assert events.status_code == 200
            moves = [("x", "a1"), ("o", "b1"), ("x", "a2"), ("o", "b2"), ("x", "a3")]
            for ply, (seat, cell) in enumerate(moves):
                r = player.post(f"/api/games/{g['id']}/moves", headers=auth(g["tokens"][seat]),
                                json={"ply": ply, "cell": cell})
                assert r.status_code == 200, r.text
            seen = b""
            for chunk in events.iter_raw():
                seen += chunk
                if b"event: end" in seen:
                    break
            assert b"event: end" in seen
        assert player.get(f"/api/games/{g['id']}").json()["state"] == "x_won"
    finally:
        for s in held:
            s.close()
        player.close()


def test_a_connection_slow_to_send_its_headers_is_closed(impatient):
    port = int(impatient.url.rsplit(":", 1)[1])
    slow = connect_from(HOSTILE, port)
    try:
        # A request line and half the headers, one byte now and then (slowloris).
        slow.sendall(b"GET /api/health HTTP/1.1\r\n")
        closed = False
        deadline = time.monotonic() + 30
        while not closed and time.monotonic() < deadline:
            try:
                slow.sendall(b"X")
            except OSError:
                closed = True
                break
            closed = closed_by_server(slow, 0.5)
        assert closed, "the server kept a connection that never finished its headers"
    finally:
        slow.close()
    # A prompt client is served as before.
    assert httpx.get(impatient.url + "/api/health", timeout=10.0).status_code == 200


def test_streams_are_counted_apart_from_requests(tmp_path):
    """With every stream slot taken, one more stream answers 503 while
    requests, and a stream once one ends, are served."""
    # A short idle timeout: streams write every 2 s, so a closed one is
    # noticed soon.
    srv = Server(tmp_path / "games.db", "--max-streams", "2",
                 "--max-streams-per-address", "0", "--idle-timeout", "4").start()
    held = []
    try:
        port = int(srv.url.rsplit(":", 1)[1])
        g = httpx.post(srv.url + "/api/games", json={"game": "tictactoe"}, timeout=10).json()
        for _ in range(2):
            s, status = open_stream(PLAYER, port, g["id"])
            held.append(s)
            assert status == 200
        s, status = open_stream(PLAYER, port, g["id"])
        s.close()
        assert status == 503
        r = httpx.post(f"{srv.url}/api/games/{g['id']}/moves", headers=auth(g["tokens"]["x"]),
                       json={"ply": 0, "cell": "b2"}, timeout=10)
        assert r.status_code == 200
        held.pop().close()
        # The closed stream's slot is free again once the server notices.
        deadline, status = time.monotonic() + HANG, None
        while status != 200 and time.monotonic() < deadline:
            s, status = open_stream(PLAYER, port, g["id"])
            held.append(s)
            if status != 200:
                time.sleep(0.2)
        assert status == 200
    finally:
        for s in held:
            s.close()
        assert srv.stop() == 0
