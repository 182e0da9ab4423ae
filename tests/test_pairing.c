/* test_pairing.c - ttt_solve's shortcuts through the public API: pairing draws (method, plies, every move, the rules it leaves to the search, old callers' struct size) and VCF wins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "quick.h"
#include "ttt.h"

#define MAXCELLS 256

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    return g;
}

static int solve(const ttt_game *g, uint64_t budget, int flags, ttt_solution *s,
                 int32_t *best, size_t *len)
{
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    s->method = -7; /* must be overwritten */
    return ttt_solve(g, budget, 0, flags, s, best, best ? MAXCELLS : 0, best ? len : NULL);
}

/* (n,n,n) from 5 on: a draw with no search, every cell optimal, the board
 * filled. A node budget of 1 would stop any search at once. */
static void test_empty_boards_draw_by_pairing(void **state)
{
    (void)state;
    for (int n = 5; n <= 16; n++) {
        ttt_game *g = new_game(n, 0);
        ttt_solution s;
        int32_t best[MAXCELLS];
        size_t len = 0;
        assert_int_equal(solve(g, 1, 0, &s, best, &len), TTT_OK);
        assert_int_equal(s.value, TTT_VALUE_DRAW);
        assert_int_equal(s.value_min, TTT_VALUE_DRAW);
        assert_int_equal(s.value_max, TTT_VALUE_DRAW);
        assert_int_equal(s.method, TTT_METHOD_PAIRING);
        assert_int_equal(s.nodes, 0);
        assert_int_equal(s.plies, n * n);
        assert_int_equal((int)len, n * n);
        for (int i = 0; i < n * n; i++)
            assert_int_equal(best[i], i);

        assert_int_equal(solve(g, 1, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
        assert_int_equal(s.value, TTT_VALUE_DRAW);
        assert_int_equal(s.method, TTT_METHOD_PAIRING);
        assert_int_equal(s.plies, -1);
        assert_int_equal((int)len, 1);
        ttt_game_free(g);
    }
}

/* Boards without a pairing go to the search, and say so. */
static void test_search_where_no_pairing(void **state)
{
    (void)state;
    ttt_game *g = new_game(4, 0);
    ttt_solution s;
    assert_int_equal(solve(g, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    assert_true(s.nodes > 0);
    ttt_game_free(g);

    g = new_game(6, 5);
    assert_int_equal(solve(g, 10, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_E_BUDGET);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    ttt_game_free(g);

    /* Misère: a pairing proves nothing. */
    g = new_game(6, 0);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_OK);
    assert_int_equal(solve(g, 100, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_E_BUDGET);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    ttt_game_free(g);

    /* Four of X in a row of (5,5,5), O to block: no pairing against X. */
    g = new_game(5, 0);
    for (int col = 0; col < 4; col++) {
        assert_int_equal(ttt_play(g, TTT_X, 0, col, NULL), TTT_OK);
        if (col < 3)
            assert_int_equal(ttt_play(g, TTT_O, 4, col, NULL), TTT_OK);
    }
    assert_int_equal(solve(g, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_OK);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    ttt_game_free(g);
}

/* A position in progress: the plies count the empty cells, every empty
 * cell is listed. */
static void test_position_in_progress(void **state)
{
    (void)state;
    ttt_game *g = new_game(7, 0);
    assert_int_equal(ttt_play(g, TTT_X, 3, 3, NULL), TTT_OK);
    assert_int_equal(ttt_play(g, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play(g, TTT_X, 3, 4, NULL), TTT_OK);
    ttt_solution s;
    int32_t best[MAXCELLS];
    size_t len = 0;
    assert_int_equal(solve(g, 1, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.method, TTT_METHOD_PAIRING);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.plies, 49 - 3);
    assert_int_equal((int)len, 49 - 3);
    for (size_t i = 0; i < len; i++) {
        int mark;
        assert_int_equal(ttt_cell(g, best[i] / 7, best[i] % 7, &mark), TTT_OK);
        assert_int_equal(mark, TTT_EMPTY);
        if (i > 0)
            assert_true(best[i] > best[i - 1]);
    }
    ttt_game_free(g);
}

/* The ply limit ends the game early: the plies stop there. Early draw:
 * the value comes from the pairing, the plies of a full solve from the
 * search. */
static void test_rules(void **state)
{
    (void)state;
    ttt_game *g = new_game(6, 0);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_PLY_LIMIT, 20), TTT_OK);
    assert_int_equal(ttt_play(g, TTT_X, 2, 2, NULL), TTT_OK);
    ttt_solution s;
    int32_t best[MAXCELLS];
    size_t len = 0;
    assert_int_equal(solve(g, 1, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.method, TTT_METHOD_PAIRING);
    assert_int_equal(s.plies, 19);
    assert_int_equal((int)len, 35);
    ttt_game_free(g);

    g = new_game(6, 0);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    assert_int_equal(solve(g, 1, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
    assert_int_equal(s.method, TTT_METHOD_PAIRING);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(solve(g, 1, 0, &s, best, &len), TTT_E_BUDGET);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    ttt_game_free(g);
}

/* A caller built against 1.2 passes the old size: the field beyond it is
 * never written. */
static void test_old_struct_size(void **state)
{
    (void)state;
    ttt_game *g = new_game(6, 0);
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = offsetof(ttt_solution, value_max) + sizeof s.value_max;
    s.method = 77;
    assert_int_equal(ttt_solve(g, 1, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.method, 77);
    ttt_game_free(g);
}

/* The perfect bot plays (7,7,7) at once: any cell keeps the draw. */
static void test_perfect_bot(void **state)
{
    (void)state;
    ttt_game *g = new_game(7, 0);
    uint64_t seed = 7;
    int row = -1, col = -1;
    assert_int_equal(ttt_best_move(g, TTT_BOT_PERFECT, 1, &seed, &row, &col), TTT_OK);
    assert_true(row >= 0 && row < 7 && col >= 0 && col < 7);
    ttt_game_free(g);
}

/* Random 7x7 K=5 positions: where a value-only solve answers by a VCF,
 * the full solve (a search) agrees that the side to move wins, and after
 * the VCF's first move the opponent loses. Never with a ply limit. Quick
 * mode (quick.h) tries a quarter of the positions. */
static void test_vcf_wins(void **state)
{
    (void)state;
    uint64_t seed = 99;
    int by_vcf = 0, trials = quick_mode() ? 50 : 200;
    for (int trial = 0; trial < trials; trial++) {
        ttt_game *g = new_game(7, 5);
        while (ttt_state(g) == TTT_IN_PROGRESS && 49 - ttt_ply(g) > 14 + trial % 6) {
            int row, col;
            assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
            assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
        }
        if (ttt_state(g) != TTT_IN_PROGRESS) {
            ttt_game_free(g);
            continue;
        }
        ttt_solution s, full;
        int32_t best[MAXCELLS];
        size_t len = 0;
        assert_int_equal(solve(g, 0, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
        if (s.method != TTT_METHOD_THREATS) {
            ttt_game_free(g);
            continue;
        }
        by_vcf++;
        assert_int_equal(s.value, TTT_VALUE_WIN);
        assert_int_equal(s.value_min, TTT_VALUE_WIN);
        assert_int_equal(s.plies, -1);
        assert_true(s.nodes > 0);
        assert_int_equal((int)len, 1);
        int32_t full_best[MAXCELLS];
        size_t full_len = 0;
        assert_int_equal(solve(g, 0, 0, &full, full_best, &full_len), TTT_OK);
        assert_int_equal(full.method, TTT_METHOD_SEARCH);
        assert_int_equal(full.value, TTT_VALUE_WIN);
        int mover = ttt_to_move(g), st;
        assert_int_equal(ttt_play(g, mover, best[0] / 7, best[0] % 7, &st), TTT_OK);
        if (st == TTT_IN_PROGRESS) {
            assert_int_equal(solve(g, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_OK);
            assert_int_equal(s.value, TTT_VALUE_LOSS);
        } else {
            assert_int_equal(st, mover == TTT_X ? TTT_X_WON : TTT_O_WON);
        }
        ttt_game_free(g);
    }
    assert_true(by_vcf >= trials / 10);

    /* A ply limit may come before the VCF's end: the search decides. */
    ttt_game *g = new_game(7, 5);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_PLY_LIMIT, 40), TTT_OK);
    static const int moves[][2] = {{3, 1}, {0, 0}, {3, 2}, {0, 6}, {3, 3}, {6, 0}};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_int_equal(ttt_play(g, ttt_to_move(g), moves[i][0], moves[i][1], NULL), TTT_OK);
    ttt_solution s;
    assert_int_equal(solve(g, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, NULL), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN);
    assert_int_equal(s.method, TTT_METHOD_SEARCH);
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_boards_draw_by_pairing),
        cmocka_unit_test(test_search_where_no_pairing),
        cmocka_unit_test(test_position_in_progress),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_old_struct_size),
        cmocka_unit_test(test_perfect_bot),
        cmocka_unit_test(test_vcf_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
