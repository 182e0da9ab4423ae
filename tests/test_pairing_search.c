/* test_pairing_search.c - pairings checked cell by cell, and every draw they claim checked against the plain search (a library built without the pairing shortcut). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pairing.h"
#include "ttt.h"

#ifndef TTT_NO_SHORTCUTS
#error "this suite links the library built with TTT_NO_SHORTCUTS: its ttt_solve is the plain search"
#endif

#define MAXCELLS 144

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    return g;
}

static void read_board(const ttt_game *g, int8_t *cells)
{
    size_t len = 0;
    assert_int_equal(ttt_board(g, cells, MAXCELLS, &len), TTT_OK);
    assert_int_equal((int)len, ttt_size(g) * ttt_size(g));
}

/* Whether (row, col) lies on the board. */
static int on_board(int n, int row, int col)
{
    return row >= 0 && row < n && col >= 0 && col < n;
}

/*
 * Finds the pairing against attacker and checks it from first principles:
 * every window of the board (enumerated here independently) that holds no
 * mark of the defender has exactly one pair; each pair's two cells are
 * distinct, empty and inside its window; no cell serves two pairs. Returns
 * whether a pairing was found (-1 from the finder).
 */
static int verified_pairing(const ttt_game *g, int attacker)
{
    int n = ttt_size(g), k = ttt_win_length(g);
    int8_t cells[MAXCELLS];
    read_board(g, cells);
    pairing_board board = {n, n, k, cells};
    int32_t open = ttt__pairing_open(&board, attacker);
    if (open < 0)
        return 0;
    size_t bytes = ttt__pairing_scratch_bytes((size_t)open, (size_t)(n * n));
    assert_true(bytes > 0);
    void *scratch = malloc(bytes);
    pairing_pair *pairs = malloc(((size_t)open + 1) * sizeof *pairs);
    assert_non_null(scratch);
    assert_non_null(pairs);
    int32_t count = ttt__pairing_find(&board, attacker, open, scratch, pairs);
    free(scratch);
    if (count < 0) {
        free(pairs);
        return 0;
    }
    assert_int_equal(count, open);

    int used[MAXCELLS] = {0};
    for (int32_t i = 0; i < count; i++) {
        for (int j = 0; j < 2; j++) {
            int32_t cell = pairs[i].cells[j];
            assert_true(cell >= 0 && cell < n * n);
            assert_int_equal(cells[cell], TTT_EMPTY);
            assert_int_equal(used[cell], 0);
            used[cell] = 1;
        }
    }
    /* Every open window, found by walking the board here, has its pair. */
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    int32_t windows = 0;
    for (int d = 0; d < 4; d++) {
        for (int row = 0; row < n; row++) {
            for (int col = 0; col < n; col++) {
                if (!on_board(n, row + (k - 1) * dr[d], col + (k - 1) * dc[d]))
                    continue;
                int blocked = 0, holds[2] = {0, 0};
                for (int i = 0; i < k; i++) {
                    int cell = (row + i * dr[d]) * n + col + i * dc[d];
                    blocked |= cells[cell] == -attacker;
                    for (int32_t p = 0; p < count; p++) {
                        if (pairs[p].start == row * n + col && pairs[p].direction == d) {
                            holds[0] |= pairs[p].cells[0] == cell;
                            holds[1] |= pairs[p].cells[1] == cell;
                        }
                    }
                }
                if (blocked)
                    continue;
                windows++;
                assert_true(holds[0] && holds[1]);
            }
        }
    }
    assert_int_equal(windows, count);
    free(pairs);
    return 1;
}

static void solve_plain(const ttt_game *g, int flags, ttt_solution *s,
                        int32_t *best, size_t *len)
{
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    assert_int_equal(ttt_solve(g, 0, 0, flags, s, best, best ? MAXCELLS : 0, best ? len : NULL), TTT_OK);
    assert_int_equal(s->method, TTT_METHOD_SEARCH);
}

/* The empty boards the pairing settles: (n,n,n) from 5 on, not 3 or 4. */
static void test_pairings_of_empty_boards(void **state)
{
    (void)state;
    for (int n = 3; n <= 11; n++) {
        ttt_game *g = new_game(n, n);
        int expect = n >= 5;
        assert_int_equal(verified_pairing(g, TTT_X), expect);
        assert_int_equal(verified_pairing(g, TTT_O), expect);
        ttt_game_free(g);
    }
    /* K below the side: too many windows for two cells each. */
    ttt_game *g = new_game(6, 5);
    assert_int_equal(verified_pairing(g, TTT_X), 0);
    ttt_game_free(g);
    /* The plain search agrees that (5,5,5) is a draw. */
    g = new_game(5, 5);
    ttt_solution s;
    solve_plain(g, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    ttt_game_free(g);
}

/* A window with K - 1 marks of the attacker and one empty cell cannot get
 * a pair: no pairing against that side, though the other may have one. */
static void test_no_pairing_against_a_threat(void **state)
{
    (void)state;
    ttt_game *g = new_game(5, 5);
    /* X on the first row's four cells, O below them. */
    for (int col = 0; col < 4; col++) {
        assert_int_equal(ttt_play(g, TTT_X, 0, col, NULL), TTT_OK);
        assert_int_equal(ttt_play(g, TTT_O, 1, col, NULL), TTT_OK);
    }
    assert_int_equal(verified_pairing(g, TTT_X), 0);
    ttt_game_free(g);
}

/*
 * Random positions on boards small enough for the plain search: wherever
 * both sides have a pairing, the plain search finds a draw, with every
 * empty cell keeping it and the plies to the full board, as ttt_solve
 * answers without search.
 */
static void test_pairing_draws_agree_with_search(void **state)
{
    (void)state;
    static const int shapes[][3] = {
        /* n, k, empty cells left */
        {4, 4, 10}, {4, 4, 12}, {5, 5, 14}, {5, 5, 12}, {5, 4, 10}, {6, 6, 13},
        {4, 3, 9}, {6, 5, 11},
    };
    uint64_t seed = 1616;
    int claimed = 0, positions = 0;
    for (size_t shape = 0; shape < sizeof shapes / sizeof shapes[0]; shape++) {
        const int *sh = shapes[shape];
        for (int trial = 0; trial < 16; trial++) {
            ttt_game *g = new_game(sh[0], sh[1]);
            while (ttt_state(g) == TTT_IN_PROGRESS && sh[0] * sh[0] - ttt_ply(g) > sh[2]) {
                int row, col;
                assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
                assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
            }
            if (ttt_state(g) != TTT_IN_PROGRESS) {
                ttt_game_free(g);
                continue;
            }
            positions++;
            int x_safe = verified_pairing(g, TTT_O); /* X keeps O from winning */
            int o_safe = verified_pairing(g, TTT_X);
            int mover = ttt_to_move(g);
            int mover_safe = mover == TTT_X ? x_safe : o_safe;
            int other_safe = mover == TTT_X ? o_safe : x_safe;
            if (!mover_safe && !other_safe) {
                ttt_game_free(g);
                continue;
            }
            ttt_solution s;
            int32_t best[MAXCELLS];
            size_t len = 0;
            solve_plain(g, mover_safe && other_safe ? 0 : TTT_SOLVE_VALUE_ONLY, &s, best, &len);
            /* One side's pairing bounds the value on its side. */
            if (mover_safe)
                assert_true(s.value >= TTT_VALUE_DRAW);
            if (other_safe)
                assert_true(s.value <= TTT_VALUE_DRAW);
            if (mover_safe && other_safe) {
                claimed++;
                int empty = sh[0] * sh[0] - ttt_ply(g);
                assert_int_equal(s.value, TTT_VALUE_DRAW);
                assert_int_equal(s.plies, empty);
                assert_int_equal((int)len, empty);
            }
            ttt_game_free(g);
        }
    }
    /* The random positions reach the case often enough to mean something. */
    assert_true(positions >= 64);
    assert_true(claimed >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairings_of_empty_boards),
        cmocka_unit_test(test_no_pairing_against_a_threat),
        cmocka_unit_test(test_pairing_draws_agree_with_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
