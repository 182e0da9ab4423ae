"""test_ttt.py - the binding's API as the first ctypes binding had it: play, errors, history, save/load, listeners, engine (pytest runs these TestCases)."""

import gc
import unittest

import ttt
from ttt import EMPTY, X, O


def play_all(game, cells):
    state = None
    for cell in cells:
        state = game.play(cell)
    return state


class PlayTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(ttt.version(), r"^\d+\.\d+\.\d+$")

    def test_x_wins_a_row(self):
        with ttt.Game() as game:
            self.assertEqual(game.to_move, X)
            state = play_all(game, ["a1", "a2", "b1", "b2", "c1"])
            self.assertEqual(state, ttt.X_WON)
            self.assertEqual(game.state, ttt.X_WON)
            self.assertEqual(game.to_move, EMPTY)
            self.assertEqual(game.winning_line(), ((0, 0), (0, 2)))
            self.assertEqual(game.ply, 5)

    def test_o_wins_a_diagonal_by_coordinates(self):
        game = ttt.Game(3)
        for row, col in [(0, 1), (0, 0), (0, 2), (1, 1), (1, 0)]:
            self.assertEqual(game.play(row, col), ttt.IN_PROGRESS)
        self.assertEqual(game.play(2, 2), ttt.O_WON)
        self.assertEqual(game.winning_line(), ((0, 0), (2, 2)))

    def test_draw(self):
        game = ttt.Game()
        state = play_all(game, ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3"])
        self.assertEqual(state, ttt.DRAW)
        self.assertIsNone(game.winning_line())

    def test_larger_board_with_k_in_a_row(self):
        game = ttt.Game(5, 4)
        self.assertEqual((game.size, game.win_length), (5, 4))
        state = play_all(game, ["b2", "a1", "c3", "a2", "d4", "a3", "e5"])
        self.assertEqual(state, ttt.X_WON)
        self.assertEqual(game.winning_line(), ((1, 1), (4, 4)))

    def test_board_and_cell(self):
        game = ttt.Game(4, 3)
        play_all(game, ["a1", "d4"])
        board = game.board()
        self.assertEqual(len(board), 4)
        self.assertEqual(board[0], (X, EMPTY, EMPTY, EMPTY))
        self.assertEqual(board[3], (EMPTY, EMPTY, EMPTY, O))
        self.assertEqual(game.cell(3, 3), O)
        self.assertEqual(game.cell(1, 1), EMPTY)
        self.assertEqual(game.moves(), [(X, 0, 0), (O, 3, 3)])

    def test_str_renders_the_board(self):
        game = ttt.Game()
        play_all(game, ["b2", "a1"])
        self.assertEqual(str(game), "   a b c\n1  O . .\n2  . X .\n3  . . .")
        self.assertIn("X to move", repr(game))

    def test_misere(self):
        game = ttt.Game(misere=True)
        self.assertEqual(game.get_rule(ttt.RULE_MISERE), 1)
        self.assertEqual(play_all(game, ["a1", "a2", "b1", "b2", "c1"]), ttt.O_WON)

    def test_cell_names(self):
        self.assertEqual(ttt.cell_name(1, 1), "b2")
        self.assertEqual(ttt.cell_name(0, 26), "aa1")
        self.assertEqual(ttt.parse_cell("C3"), (2, 2))
        with self.assertRaises(ttt.ParseError):
            ttt.parse_cell("b2x")


class ErrorTest(unittest.TestCase):
    def setUp(self):
        self.game = ttt.Game()
        play_all(self.game, ["b2", "a1"])
        self.before = self.snapshot()

    def tearDown(self):
        self.game.close()

    def snapshot(self):
        g = self.game
        return (g.board(), g.ply, g.state, g.to_move, g.redo_count, g.save())

    def assertRefused(self, error, code, call, *args, **kwargs):
        with self.assertRaises(error) as caught:
            call(*args, **kwargs)
        e = caught.exception
        self.assertIsInstance(e, ttt.TttError)
        self.assertEqual(e.code, code)
        lib = ttt.load_library()
        # The library's message, then what was wrong and what is allowed.
        self.assertTrue(str(e).startswith(lib.ttt_strerror(code).decode() + ": "), str(e))
        self.assertEqual(self.snapshot(), self.before, "a failed call changed the game")
        return e

    def test_occupied(self):
        e = self.assertRefused(ttt.OccupiedError, ttt.E_OCCUPIED, self.game.play, "b2")
        self.assertIsInstance(e, ttt.IllegalMoveError)

    def test_off_board(self):
        self.assertRefused(ttt.OffBoardError, ttt.E_OFF_BOARD, self.game.play, 3, 0)
        self.assertRefused(ttt.OffBoardError, ttt.E_OFF_BOARD, self.game.play, 0, -1)
        # Values outside C int range are not wrapped onto the board.
        self.assertRefused(ttt.OffBoardError, ttt.E_OFF_BOARD, self.game.play, 2 ** 32, 0)
        self.assertRefused(ttt.OffBoardError, ttt.E_OFF_BOARD, self.game.cell, 0, 3)

    def test_wrong_turn_and_bad_mark(self):
        self.assertRefused(ttt.WrongTurnError, ttt.E_WRONG_TURN, self.game.play, 2, 2, mark=O)
        self.assertRefused(ttt.MarkError, ttt.E_MARK, self.game.play, 2, 2, mark=7)

    def test_game_over(self):
        play_all(self.game, ["c1", "a3", "a2", "c3", "c2"])  # X: b2 c1 a2 c2 -> row 2
        self.assertEqual(self.game.state, ttt.X_WON)
        self.before = self.snapshot()
        self.assertRefused(ttt.GameOverError, ttt.E_GAME_OVER, self.game.play, "b3")

    def test_no_undo_no_redo(self):
        self.assertRefused(ttt.NoRedoError, ttt.E_NO_REDO, self.game.redo)
        fresh = ttt.Game()
        with self.assertRaises(ttt.NoUndoError) as caught:
            fresh.undo()
        self.assertEqual(caught.exception.code, ttt.E_NO_UNDO)

    def test_rules_locked(self):
        self.assertRefused(ttt.RuleError, ttt.E_RULES_LOCKED, self.game.set_rule,
                           ttt.RULE_MISERE, 1)
        self.assertRefused(ttt.RuleError, ttt.E_RULE, self.game.get_rule, 99)

    def test_stale_play_at(self):
        self.assertRefused(ttt.StaleError, ttt.E_STALE, self.game.play_at, 1, 2, 2, X)
        self.assertRefused(ttt.StaleError, ttt.E_STALE, self.game.play_at, 1, 2, 2, O)
        self.game.play_at(1, 0, 0, O)  # the retried request is accepted
        self.assertEqual(self.snapshot(), self.before)
        self.assertEqual(self.game.play_at(2, 2, 2, X), ttt.IN_PROGRESS)

    def test_bad_size(self):
        for size, k in [(2, 0), (3, 4), (ttt.E_INVALID, 0), (4, 2)]:
            with self.assertRaises(ttt.SizeError) as caught:
                ttt.Game(size, k)
            self.assertEqual(caught.exception.code, ttt.E_SIZE)

    def test_unknown_code(self):
        with self.assertRaises(ttt.TttError) as caught:
            ttt._check(ttt.load_library(), -1000)
        self.assertEqual((caught.exception.code, str(caught.exception)),
                         (-1000, "unknown error"))


class HistoryTest(unittest.TestCase):
    def test_undo_redo(self):
        game = ttt.Game()
        play_all(game, ["a1", "a2", "b1", "b2", "c1"])
        game.undo()
        self.assertEqual((game.state, game.to_move, game.cell(0, 2)),
                         (ttt.IN_PROGRESS, X, EMPTY))
        self.assertEqual(game.redo_count, 1)
        game.redo()
        self.assertEqual(game.state, ttt.X_WON)
        while game.ply:
            game.undo()
        self.assertEqual(game.board(), ((EMPTY,) * 3,) * 3)
        self.assertEqual(game.redo_count, 5)
        game.play("c3")  # a new move empties the redo stack
        self.assertEqual(game.redo_count, 0)

    def test_reset(self):
        game = ttt.Game(4, misere=True)
        play_all(game, ["a1", "b2"])
        game.reset()
        self.assertEqual((game.ply, game.size, game.get_rule(ttt.RULE_MISERE)), (0, 4, 1))

    def test_save_load_round_trip(self):
        game = ttt.Game(5, 4, early_draw=True)
        play_all(game, ["c3", "a1", "e5", "b4"])
        record = game.save()
        self.assertEqual(record, "ttt/1 n=5 k=4 rules=early-draw moves=c3,a1,e5,b4\n")
        loaded = ttt.Game.load(record)
        self.assertEqual(loaded.save(), record)
        self.assertEqual(loaded.board(), game.board())
        self.assertEqual(loaded.get_rule(ttt.RULE_EARLY_DRAW), 1)
        self.assertEqual(ttt.Game.load(record.encode()).moves(), game.moves())

    def test_save_a_large_record(self):
        game = ttt.Game(40)
        for i in range(200):
            game.play(i // 40, i % 40)
        self.assertEqual(ttt.Game.load(game.save()).ply, 200)

    def test_load_errors(self):
        with self.assertRaises(ttt.ParseError) as caught:
            ttt.Game.load("ttt/1 n=3 k=3 rules=classic moves=b2,zz\n")
        self.assertEqual(caught.exception.code, ttt.E_PARSE)
        self.assertGreater(caught.exception.offset, 0)
        with self.assertRaises(ttt.OccupiedError):
            ttt.Game.load("ttt/1 n=3 k=3 rules=classic moves=b2,b2\n")

    def test_clone_is_independent(self):
        game = ttt.Game()
        play_all(game, ["b2"])
        copy = game.clone()
        copy.play("a1")
        self.assertEqual((game.ply, copy.ply), (1, 2))
        game.close()
        self.assertEqual(copy.cell(1, 1), X)


class ListenerTest(unittest.TestCase):
    def test_events(self):
        game = ttt.Game()
        events = []

        def listener(event):
            events.append(event)
            self.assertEqual(game.ply, event.ply)  # reading the game is allowed

        game.set_listener(listener)
        del listener
        gc.collect()  # the binding keeps the callback alive
        play_all(game, ["a1", "a2", "b1", "b2", "c1"])
        with self.assertRaises(ttt.GameOverError):
            game.play("c3")  # rejected: no event
        game.undo()
        game.redo()
        game.reset()
        kinds = [e.kind for e in events]
        self.assertEqual(kinds, [ttt.EVENT_PLAY] * 5 + [ttt.EVENT_UNDO, ttt.EVENT_REDO,
                                                        ttt.EVENT_RESET])
        self.assertEqual(events[4], ttt.Event(ttt.EVENT_PLAY, X, 0, 2, 5, ttt.X_WON))
        self.assertEqual(events[5], ttt.Event(ttt.EVENT_UNDO, X, 0, 2, 4, ttt.IN_PROGRESS))
        self.assertEqual(events[7], ttt.Event(ttt.EVENT_RESET, 0, -1, -1, 0, ttt.IN_PROGRESS))

        game.set_listener(None)
        game.play("b2")
        self.assertEqual(len(events), 8)

    def test_clone_has_no_listener(self):
        game = ttt.Game()
        events = []
        game.set_listener(events.append)
        copy = game.clone()
        copy.play("a1")
        self.assertEqual(events, [])


class EngineTest(unittest.TestCase):
    def test_random_move_is_seeded_and_changes_nothing(self):
        game = ttt.Game()
        play_all(game, ["b2"])
        record = game.save()
        first, second = ttt.Seed(42), ttt.Seed(42)
        move = game.random_move(first)
        self.assertEqual(game.random_move(second), move)
        self.assertEqual(first.value, second.value)
        self.assertNotEqual(first.value, 42)
        self.assertEqual(game.cell(*move), EMPTY)
        self.assertEqual(game.save(), record)

    def test_random_playout(self):
        game = ttt.Game()
        state = game.random_playout(ttt.Seed(7))
        self.assertNotEqual(state, ttt.IN_PROGRESS)
        self.assertEqual(game.state, state)
        self.assertIn(game.ply, range(5, 10))
        with self.assertRaises(ttt.GameOverError):
            game.random_move(ttt.Seed(1))

    def test_random_playouts_equal_single_playouts(self):
        # 3x3 plays in registers; 4x4 with k=3 plays on copies of the game.
        for size, k in [(3, 0), (4, 3)]:
            game = ttt.Game(size, k)
            play_all(game, ["b2", "a1"])
            seed, single = ttt.Seed(99), ttt.Seed(99)
            counts = game.random_playouts(seed, 200)
            tally = [0] * 4
            for _ in range(200):
                copy = game.clone()
                tally[copy.random_playout(single)] += 1
                copy.close()
            self.assertEqual(counts, ttt.Counts(*tally))
            self.assertEqual(sum(counts), 200)
            self.assertEqual(counts.in_progress, 0)
            self.assertEqual(seed.value, single.value)
            self.assertEqual(game.random_playouts(seed, 0), ttt.Counts(0, 0, 0, 0))

    def test_random_playouts_change_nothing(self):
        game = ttt.Game()
        play_all(game, ["b2"])
        events = []
        game.set_listener(events.append)
        record, board = game.save(), game.board()
        counts = game.random_playouts(ttt.Seed(5), 500)
        self.assertGreater(min(counts.x_won, counts.o_won, counts.draw), 0)
        self.assertEqual((game.save(), game.board(), game.ply, game.state,
                          game.redo_count), (record, board, 1, ttt.IN_PROGRESS, 0))
        self.assertEqual(events, [])

    def test_random_playouts_of_a_finished_game(self):
        game = ttt.Game()
        play_all(game, ["a1", "a2", "b1", "b2", "c1"])
        seed = ttt.Seed(11)
        with self.assertRaises(ttt.GameOverError) as caught:
            game.random_playouts(seed, 10)
        self.assertEqual(caught.exception.code, ttt.E_GAME_OVER)
        self.assertEqual(seed.value, 11)

    def test_perft_and_positions_of_the_classic_game(self):
        game = ttt.Game()
        counts, by_length = game.perft(9)
        self.assertEqual(counts, ttt.Counts(0, 131184, 77904, 46080))
        self.assertEqual(by_length, [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872])
        counts, by_length = game.perft(2)
        self.assertEqual((counts.in_progress, by_length), (72, [0, 0, 72]))
        self.assertEqual(game.count_positions(9), ttt.Counts(4520, 626, 316, 16))

    def test_solve(self):
        game = ttt.Game()
        solution = game.solve()
        self.assertTrue(solution.complete)
        self.assertEqual((solution.value, solution.plies), (ttt.VALUE_DRAW, 9))
        self.assertEqual(len(solution.best), 9)  # every opening keeps the draw
        play_all(game, ["a1", "a2", "b1", "b2"])
        solution = game.solve()
        self.assertEqual((solution.value, solution.plies, solution.best),
                         (ttt.VALUE_WIN, 1, [(0, 2)]))
        self.assertEqual(game.ply, 4)

    def test_solve_says_how_the_value_was_proven(self):
        # (6,6,6): each side has two cells of its own in every line.
        solution = ttt.Game(6).solve()
        self.assertEqual((solution.value, solution.method, solution.nodes),
                         (ttt.VALUE_DRAW, ttt.METHOD_PAIRING, 0))
        self.assertEqual(solution.plies, 36)
        solution = ttt.Game().solve()  # 3x3: no pairing, the search
        self.assertEqual(solution.method, ttt.Method.SEARCH)
        self.assertGreater(solution.nodes, 0)

    def test_solve_within_a_budget(self):
        solution = ttt.Game(4).solve(node_budget=50)
        self.assertFalse(solution.complete)
        self.assertEqual(solution.plies, -1)
        self.assertLessEqual(solution.value_min, solution.value_max)
        self.assertLessEqual(len(solution.best), 1)

    def test_bots(self):
        game = ttt.Game()
        play_all(game, ["a1", "a2", "b1"])  # O must block c1
        self.assertEqual(game.best_move(ttt.BOT_STRONG), (0, 2))
        self.assertEqual(game.best_move(ttt.BOT_PERFECT, seed=ttt.Seed(3)), (0, 2))
        row, col = game.best_move(ttt.BOT_RANDOM, seed=ttt.Seed(3))
        self.assertEqual(game.cell(row, col), EMPTY)
        with self.assertRaises(ttt.TttError) as caught:
            game.best_move(ttt.BOT_RANDOM)  # the random bot needs a seed
        self.assertEqual(caught.exception.code, ttt.E_INVALID)
        with self.assertRaises(ttt.TttError) as caught:
            game.best_move(99)
        self.assertEqual(caught.exception.code, ttt.E_INVALID)


class LifetimeTest(unittest.TestCase):
    def test_close_twice(self):
        game = ttt.Game()
        game.close()
        game.close()
        self.assertTrue(game.closed)
        self.assertEqual(repr(game), "<ttt.Game closed>")

    def test_use_after_close_raises(self):
        with ttt.Game() as game:
            pass
        self.assertTrue(game.closed)
        for call in (lambda: game.play(0, 0), game.undo, lambda: game.state,
                     game.board, game.save, game.clone):
            with self.assertRaises(ValueError):
                call()

    def test_half_built_game_is_safe_to_collect(self):
        with self.assertRaises(ttt.SizeError):
            ttt.Game(2)
        gc.collect()

    def test_close_with_listener_installed(self):
        game = ttt.Game()
        game.set_listener(lambda event: None)
        game.play("a1")
        game.close()
        del game
        gc.collect()


if __name__ == "__main__":
    unittest.main()
