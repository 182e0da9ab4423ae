"""test_threads_memory.py - 8 threads on one Game, listeners that raise, and 100,000 games created and dropped without memory growth."""

import gc
import os
import sys
import threading

import ttt

THREADS = 8


def test_eight_threads_on_one_game_keep_a_consistent_history():
    n = 32
    game = ttt.Game(n)  # K = 32: no random game of this length is won
    events = {ttt.EventKind.PLAY: 0, ttt.EventKind.UNDO: 0}
    events_lock = threading.Lock()

    def listener(event):
        with events_lock:
            events[event.kind] += 1
        assert 0 <= event.ply <= n * n

    game.set_listener(listener)
    plays = [[] for _ in range(THREADS)]
    undos = [0] * THREADS
    errors = []
    start = threading.Barrier(THREADS)

    def worker(index):
        try:
            start.wait()
            # Each thread owns the cells numbered index mod 8: no two
            # threads ever play the same cell.
            for step, cell in enumerate(range(index, n * n, THREADS)):
                row, col = divmod(cell, n)
                assert game.play(row, col) == ttt.State.IN_PROGRESS
                plays[index].append((row, col))
                if step % 3 == 2:
                    try:
                        game.undo()  # whichever move is last, any thread's
                        undos[index] += 1
                    except ttt.NoUndoError:
                        pass
        except BaseException as e:  # reported below, in the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

    played, undone = sum(map(len, plays)), sum(undos)
    assert played == n * n and undone > 0
    assert game.ply == played - undone
    assert events == {ttt.EventKind.PLAY: played, ttt.EventKind.UNDO: undone}
    history = game.moves()
    assert len(history) == game.ply
    # Marks alternate from X, every cell once, each one a thread really played.
    assert [m for m, _, _ in history] == [ttt.X if i % 2 == 0 else ttt.O
                                          for i in range(len(history))]
    cells = [(r, c) for _, r, c in history]
    assert len(set(cells)) == len(cells)
    assert set(cells) <= {cell for p in plays for cell in p}
    board = game.board()
    for mark, r, c in history:
        assert board[r][c] == mark
    assert sum(m != ttt.EMPTY for row in board for m in row) == len(history)
    assert set(game.legal_moves()) == {(r, c) for r in range(n) for c in range(n)} - set(cells)
    assert ttt.Game.load(game.save()).board() == board


def test_a_listener_that_raises_is_reported_and_the_game_goes_on(monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    game = ttt.Game()
    seen = []

    def listener(event):
        seen.append(event)
        raise ValueError("listener failed at ply %d" % event.ply)

    game.set_listener(listener)
    assert game.play("b2") == ttt.State.IN_PROGRESS
    assert game.play("a1") == ttt.State.IN_PROGRESS
    game.undo()
    assert [e.kind for e in seen] == [ttt.EVENT_PLAY, ttt.EVENT_PLAY, ttt.EVENT_UNDO]
    assert [type(r.exc_value) for r in reported] == [ValueError] * 3
    assert str(reported[0].exc_value) == "listener failed at ply 1"
    # Each change was applied whole, and the game plays on.
    assert (game.ply, game.to_move, game.moves()) == (1, ttt.O, [(ttt.X, 1, 1)])
    game.set_listener(None)
    assert game.play("c3") == ttt.State.IN_PROGRESS
    assert len(reported) == 3


def test_listener_that_raises_in_threads():
    reported = []
    hook, sys.unraisablehook = sys.unraisablehook, reported.append
    try:
        game = ttt.Game(16)

        def listener(event):
            raise RuntimeError("boom")

        game.set_listener(listener)

        def worker(index):
            for cell in range(index, 64, 4):
                game.play(*divmod(cell, 16))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.unraisablehook = hook
    assert game.ply == 64
    assert len(reported) == 64
    assert {type(r.exc_value) for r in reported} == {RuntimeError}


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def churn(count):
    for i in range(count):
        if i % 4 == 0:
            with ttt.Game(3) as game:
                game.play(1, 1)
        elif i % 4 == 1:
            game = ttt.Game(3)
            game.play(1, 1)
            game.clone().play(0, 0)
        elif i % 4 == 2:
            game = ttt.Game(3)
            game.set_listener(lambda event, game=game: game.ply)  # a cycle
            game.play(2, 2)
        else:
            ttt.Game.load("ttt/1 n=3 k=3 rules=classic moves=b2,a1\n").undo()
    gc.collect()


def test_100000_games_created_and_dropped_do_not_grow_memory():
    count = 100_000
    # A leaked game would hold at least its footprint: well above the limit.
    footprint = ttt._lib.ttt_game_footprint(3, 3)
    limit = 8 << 20
    assert footprint * count > 2 * limit
    churn(10_000)  # allocator and interpreter caches settle
    before = resident_bytes()
    churn(count)
    growth = resident_bytes() - before
    assert growth < limit, "resident memory grew by %d bytes" % growth
