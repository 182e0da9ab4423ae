/* test_game.c - the game API: play, undo, redo, errors, listener, board reads, clone, allocators and init. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

#define SNAP_MAXN 16
#define SENTINEL (-12345)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* Everything observable about a game through the read-only API. */
typedef struct snapshot {
    int size, win_length, state, to_move, ply, redo_count;
    int misere, early_draw;
    size_t len;
    int8_t board[SNAP_MAXN * SNAP_MAXN];
    int moves[SNAP_MAXN * SNAP_MAXN][3];
    int line_status;
    int line[4];
} snapshot;

static void take(const ttt_game *g, snapshot *s)
{
    memset(s, 0, sizeof *s);
    s->size = ttt_size(g);
    s->win_length = ttt_win_length(g);
    s->state = ttt_state(g);
    s->to_move = ttt_to_move(g);
    s->ply = ttt_ply(g);
    s->redo_count = ttt_redo_count(g);
    assert_true(s->size >= 3 && s->size <= SNAP_MAXN);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &s->misere), TTT_OK);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &s->early_draw), TTT_OK);
    assert_int_equal(ttt_board(g, s->board, sizeof s->board, &s->len), TTT_OK);
    assert_int_equal(s->len, (size_t)s->size * (size_t)s->size);
    for (int i = 0; i < s->ply; i++) {
        assert_int_equal(ttt_move_at(g, i, &s->moves[i][0], &s->moves[i][1],
                                     &s->moves[i][2]),
                         TTT_OK);
    }
    s->line_status = ttt_winning_line(g, &s->line[0], &s->line[1], &s->line[2],
                                      &s->line[3]);
}

static void assert_same(const snapshot *a, const snapshot *b)
{
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->win_length, b->win_length);
    assert_int_equal(a->state, b->state);
    assert_int_equal(a->to_move, b->to_move);
    assert_int_equal(a->ply, b->ply);
    assert_int_equal(a->redo_count, b->redo_count);
    assert_int_equal(a->misere, b->misere);
    assert_int_equal(a->early_draw, b->early_draw);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->board, b->board, a->len);
    assert_memory_equal(a->moves, b->moves, sizeof a->moves);
    assert_int_equal(a->line_status, b->line_status);
    assert_memory_equal(a->line, b->line, sizeof a->line);
}

/* Checks that the game is unchanged since *before. */
static void assert_unchanged(const ttt_game *g, const snapshot *before)
{
    snapshot now;
    take(g, &now);
    assert_same(before, &now);
}

/* Like assert_int_equal, reported at the caller's line. */
static void check_status(int got, int want, int line)
{
    if (got != want) {
        print_error("status %d (%s), expected %d (%s)\n", got, ttt_strerror(got), want,
                    ttt_strerror(want));
    }
    _assert_int_equal(cast_to_largest_integral_type(got),
                      cast_to_largest_integral_type(want), __FILE__, line);
}

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    assert_non_null(g);
    return g;
}

static int play(ttt_game *g, int r, int c)
{
    int st = SENTINEL;
    assert_int_equal(ttt_play(g, ttt_to_move(g), r, c, &st), TTT_OK);
    assert_int_equal(st, ttt_state(g));
    return st;
}

/* Plays count moves given as {row, col} pairs, alternating from the side to
 * move. */
static void play_moves(ttt_game *g, const int (*moves)[2], int count)
{
    for (int i = 0; i < count; i++) {
        play(g, moves[i][0], moves[i][1]);
    }
}

/* X wins on 3x3 with row 0 at ply 5. */
static const int x_wins[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
/* A 3x3 draw: X O X / X O O / O X X. */
static const int draw9[][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0},
                               {1, 2}, {2, 1}, {2, 0}, {2, 2}};

/* ------------------------------------------------------------------------ */
/* Version and messages                                                      */
/* ------------------------------------------------------------------------ */

static void test_version(void **state)
{
    (void)state;
    char expect[32];
    assert_int_equal(ttt_version(), TTT_VERSION_NUMBER);
    assert_int_equal(TTT_VERSION_NUMBER, 10500);
    snprintf(expect, sizeof expect, "%d.%d.%d", TTT_VERSION_MAJOR,
             TTT_VERSION_MINOR, TTT_VERSION_PATCH);
    assert_non_null(ttt_version_string());
    assert_string_equal(ttt_version_string(), expect);
}

static void test_strerror(void **state)
{
    (void)state;
    static const int codes[] = {
        TTT_OK,         TTT_E_INVALID,     TTT_E_NOMEM,      TTT_E_SIZE,
        TTT_E_MARK,     TTT_E_OFF_BOARD,   TTT_E_OCCUPIED,   TTT_E_WRONG_TURN,
        TTT_E_GAME_OVER, TTT_E_NO_UNDO,    TTT_E_NO_REDO,    TTT_E_RULE,
        TTT_E_RULES_LOCKED, TTT_E_PARSE,   TTT_E_BUFFER,     TTT_E_NO_LINE,
        TTT_E_RANGE,    TTT_E_STALE,       TTT_E_BUDGET,     TTT_E_OVERFLOW,
        TTT_E_IN_LISTENER, TTT_E_NAME,     TTT_E_FLOATING,   TTT_E_COLUMN_FULL,
    };
    const size_t n = sizeof codes / sizeof codes[0];
    /* The codes themselves are fixed values 0, -1, ..., -23. */
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(codes[i], -(int)i);
    }
    for (size_t i = 0; i < n; i++) {
        const char *m = ttt_strerror(codes[i]);
        assert_non_null(m);
        assert_true(strlen(m) > 0);
        assert_string_not_equal(m, "unknown error");
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(m, ttt_strerror(codes[j]));
        }
    }
    static const int unknown[] = {INT_MIN, 1, 12345, -1000, INT_MAX, 4, 100, -24};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *m = ttt_strerror(unknown[i]);
        assert_non_null(m);
        assert_string_equal(m, "unknown error");
    }
}

/* ------------------------------------------------------------------------ */
/* Creating games                                                            */
/* ------------------------------------------------------------------------ */

static void test_new_defaults(void **state)
{
    (void)state;
    for (int n = 3; n <= 9; n++) {
        for (int k = 0; k <= n; k++) {
            if (k == 1 || k == 2) {
                continue;
            }
            ttt_game *g = new_game(n, k);
            snapshot s;
            take(g, &s);
            assert_int_equal(s.size, n);
            assert_int_equal(s.win_length, k == 0 ? n : k);
            assert_int_equal(s.state, TTT_IN_PROGRESS);
            assert_int_equal(s.to_move, TTT_X);
            assert_int_equal(s.ply, 0);
            assert_int_equal(s.redo_count, 0);
            assert_int_equal(s.misere, 0);
            assert_int_equal(s.early_draw, 0);
            assert_int_equal(s.line_status, TTT_E_NO_LINE);
            for (size_t i = 0; i < s.len; i++) {
                assert_int_equal(s.board[i], TTT_EMPTY);
            }
            ttt_game_free(g);
        }
    }
}

static void test_new_bad_size(void **state)
{
    (void)state;
    static const int sizes[] = {2, 0, -1, 1, INT_MIN, TTT_MAX_SIZE + 1, INT_MAX};
    ttt_game *const marker = (ttt_game *)(uintptr_t)0x1234;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ttt_game *g = marker;
        assert_int_equal(ttt_game_new(sizes[i], 0, &g), TTT_E_SIZE);
        assert_ptr_equal(g, marker);
        assert_int_equal(ttt_game_new(sizes[i], 3, &g), TTT_E_SIZE);
        assert_ptr_equal(g, marker);
        assert_int_equal(ttt_game_new_with(sizes[i], 0, NULL, &g), TTT_E_SIZE);
        assert_ptr_equal(g, marker);
        assert_int_equal(ttt_game_footprint(sizes[i], 0), 0);
        assert_int_equal(ttt_game_footprint(sizes[i], 3), 0);
    }
    for (int n = 3; n <= 6; n++) {
        const int ks[] = {1, 2, n + 1, -1, INT_MIN, INT_MAX};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            ttt_game *g = marker;
            assert_int_equal(ttt_game_new(n, ks[i], &g), TTT_E_SIZE);
            assert_ptr_equal(g, marker);
            assert_int_equal(ttt_game_new_with(n, ks[i], NULL, &g), TTT_E_SIZE);
            assert_ptr_equal(g, marker);
            assert_int_equal(ttt_game_footprint(n, ks[i]), 0);
        }
    }
    assert_int_equal(ttt_game_new(3, 3, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_game_new_with(3, 3, NULL, NULL), TTT_E_INVALID);
}

/* The largest board works and its counters do not overflow: X fills the
 * whole top row of 1024 cells. */
static void test_max_size_board(void **state)
{
    (void)state;
    const int n = TTT_MAX_SIZE;
    ttt_game *g = new_game(n, 0);
    assert_true(ttt_game_footprint(n, 0) > 0);
    assert_int_equal(ttt_size(g), n);
    assert_int_equal(ttt_win_length(g), n);
    for (int c = 0; c < n; c++) {
        int st = play(g, 0, c);
        if (c == n - 1) {
            assert_int_equal(st, TTT_X_WON);
        } else {
            assert_int_equal(st, TTT_IN_PROGRESS);
            assert_int_equal(play(g, 1, c), TTT_IN_PROGRESS);
        }
    }
    int r0, c0, r1, c1;
    assert_int_equal(ttt_winning_line(g, &r0, &c0, &r1, &c1), TTT_OK);
    assert_int_equal(r0, 0);
    assert_int_equal(r1, 0);
    assert_true((c0 == 0 && c1 == n - 1) || (c0 == n - 1 && c1 == 0));
    assert_int_equal(ttt_ply(g), 2 * n - 1);

    int8_t *cells = malloc((size_t)n * (size_t)n);
    size_t len = 0;
    assert_non_null(cells);
    assert_int_equal(ttt_board(g, cells, (size_t)n * (size_t)n, &len), TTT_OK);
    assert_int_equal(len, (size_t)n * (size_t)n);
    assert_int_equal(cells[n - 1], TTT_X);
    assert_int_equal(cells[n + 5], TTT_O);
    assert_int_equal(cells[(size_t)n * (size_t)n - 1], TTT_EMPTY);
    free(cells);

    /* The far corner and an anti-diagonal on the largest board, K=5. */
    ttt_game_free(g);
    g = new_game(n, 5);
    for (int i = 0; i < 5; i++) {
        int st = play(g, n - 5 + i, n - 1 - i);
        if (i < 4) {
            assert_int_equal(st, TTT_IN_PROGRESS);
            assert_int_equal(play(g, 0, 2 * i), TTT_IN_PROGRESS);
        } else {
            assert_int_equal(st, TTT_X_WON);
        }
    }
    int m = SENTINEL;
    assert_int_equal(ttt_cell(g, n - 1, n - 5, &m), TTT_OK);
    assert_int_equal(m, TTT_X);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Rejected calls change nothing                                             */
/* ------------------------------------------------------------------------ */

/* A 3x3 game at ply 2 with one undone move on the redo stack, X to move. */
static ttt_game *mid_game(void)
{
    static const int m[][2] = {{1, 1}, {0, 0}, {2, 2}};
    ttt_game *g = new_game(3, 3);
    play_moves(g, m, 3);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_redo_count(g), 1);
    assert_int_equal(ttt_to_move(g), TTT_X);
    return g;
}

#define expect_play(...) expect_play_(__LINE__, __VA_ARGS__)
static void expect_play_(int line, ttt_game *g, int mark, int r, int c, int code)
{
    snapshot before;
    int st = SENTINEL;
    take(g, &before);
    check_status(ttt_play(g, mark, r, c, &st), code, line);
    assert_int_equal(st, SENTINEL);
    assert_unchanged(g, &before);
    /* The state pointer is optional, and the answer does not depend on it. */
    assert_int_equal(ttt_play(g, mark, r, c, NULL), code);
    assert_unchanged(g, &before);
}

static void test_play_rejections(void **state)
{
    (void)state;
    ttt_game *g = mid_game();
    int st = SENTINEL;

    assert_int_equal(ttt_play(NULL, TTT_X, 0, 1, &st), TTT_E_INVALID);
    assert_int_equal(st, SENTINEL);

    static const int bad_marks[] = {0, 2, -2, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad_marks / sizeof bad_marks[0]; i++) {
        expect_play(g, bad_marks[i], 0, 1, TTT_E_MARK);
        /* The mark is checked before the cell. */
        expect_play(g, bad_marks[i], -1, 7, TTT_E_MARK);
        expect_play(g, bad_marks[i], 1, 1, TTT_E_MARK);
    }

    expect_play(g, TTT_O, 0, 1, TTT_E_WRONG_TURN);
    /* The turn is checked before the cell. */
    expect_play(g, TTT_O, -1, 0, TTT_E_WRONG_TURN);
    expect_play(g, TTT_O, 1, 1, TTT_E_WRONG_TURN);

    static const int off[] = {-1, 3, INT_MIN, INT_MAX, 4, -4};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        expect_play(g, TTT_X, off[i], 0, TTT_E_OFF_BOARD);
        expect_play(g, TTT_X, 0, off[i], TTT_E_OFF_BOARD);
        expect_play(g, TTT_X, off[i], off[i], TTT_E_OFF_BOARD);
    }
    /* A column past the end is not the next row's first cell. */
    expect_play(g, TTT_X, 0, 3, TTT_E_OFF_BOARD);

    expect_play(g, TTT_X, 1, 1, TTT_E_OCCUPIED); /* X's own mark */
    expect_play(g, TTT_X, 0, 0, TTT_E_OCCUPIED); /* O's mark */

    /* After all that the redo stack is still there and replays (2,2). */
    assert_int_equal(ttt_redo(g), TTT_OK);
    int m = SENTINEL;
    assert_int_equal(ttt_cell(g, 2, 2, &m), TTT_OK);
    assert_int_equal(m, TTT_X);
    ttt_game_free(g);
}

/* ttt_play_next plays for the side to move: the same game, move for move,
 * as ttt_play with ttt_to_move, and the same rejections minus mark and turn. */
static void test_play_next(void **state)
{
    (void)state;
    int st = SENTINEL;
    assert_int_equal(ttt_play_next(NULL, 0, 0, &st), TTT_E_INVALID);
    assert_int_equal(st, SENTINEL);

    ttt_game *g = mid_game();
    static const int off[] = {-1, 3, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        snapshot before;
        take(g, &before);
        assert_int_equal(ttt_play_next(g, off[i], 0, &st), TTT_E_OFF_BOARD);
        assert_int_equal(ttt_play_next(g, 0, off[i], NULL), TTT_E_OFF_BOARD);
        assert_int_equal(ttt_play_next(g, 1, 1, &st), TTT_E_OCCUPIED);
        assert_int_equal(st, SENTINEL);
        assert_unchanged(g, &before);
    }
    ttt_game_free(g);

    ttt_game *a = new_game(3, 3);
    ttt_game *b = new_game(3, 3);
    for (size_t i = 0; i < 5; i++) {
        int sa = SENTINEL, sb = SENTINEL;
        assert_int_equal(ttt_play(a, ttt_to_move(a), x_wins[i][0], x_wins[i][1], &sa),
                         TTT_OK);
        assert_int_equal(ttt_play_next(b, x_wins[i][0], x_wins[i][1], &sb), TTT_OK);
        assert_int_equal(sa, sb);
    }
    assert_int_equal(ttt_state(b), TTT_X_WON);
    int m = SENTINEL;
    assert_int_equal(ttt_cell(b, 1, 0, &m), TTT_OK);
    assert_int_equal(m, TTT_O);
    snapshot before;
    take(b, &before);
    assert_int_equal(ttt_play_next(b, 2, 2, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_play_next(b, -1, INT_MAX, &st), TTT_E_GAME_OVER);
    assert_unchanged(b, &before);
    /* Undo reopens the game and the next call plays for X again. */
    assert_int_equal(ttt_undo(b), TTT_OK);
    assert_int_equal(ttt_play_next(b, 2, 2, &st), TTT_OK);
    assert_int_equal(ttt_cell(b, 2, 2, &m), TTT_OK);
    assert_int_equal(m, TTT_X);
    ttt_game_free(a);
    ttt_game_free(b);
}

static void test_game_over_rejections(void **state)
{
    (void)state;
    for (int which = 0; which < 2; which++) {
        ttt_game *g = new_game(3, 3);
        if (which == 0) {
            play_moves(g, x_wins, 5);
            assert_int_equal(ttt_state(g), TTT_X_WON);
        } else {
            play_moves(g, draw9, 9);
            assert_int_equal(ttt_state(g), TTT_DRAW);
        }
        assert_int_equal(ttt_to_move(g), TTT_EMPTY);
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                expect_play(g, TTT_X, r, c, TTT_E_GAME_OVER);
                expect_play(g, TTT_O, r, c, TTT_E_GAME_OVER);
            }
        }
        /* Game over comes before the mark, the turn and the cell. */
        expect_play(g, 0, 2, 2, TTT_E_GAME_OVER);
        expect_play(g, 5, -1, -1, TTT_E_GAME_OVER);
        expect_play(g, INT_MIN, 1, 1, TTT_E_GAME_OVER);
        expect_play(g, TTT_O, -1, 0, TTT_E_GAME_OVER);
        expect_play(g, TTT_X, 0, INT_MAX, TTT_E_GAME_OVER);
        /* Nothing to redo after a finished game. */
        snapshot before;
        take(g, &before);
        assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
        assert_unchanged(g, &before);
        ttt_game_free(g);
    }
}

static void test_undo_redo_empty(void **state)
{
    (void)state;
    ttt_game *g = new_game(4, 3);
    snapshot before;
    take(g, &before);
    assert_int_equal(ttt_undo(g), TTT_E_NO_UNDO);
    assert_unchanged(g, &before);
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    assert_unchanged(g, &before);

    play(g, 2, 3);
    take(g, &before);
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    assert_unchanged(g, &before);

    assert_int_equal(ttt_undo(g), TTT_OK);
    take(g, &before);
    assert_int_equal(before.ply, 0);
    assert_int_equal(before.redo_count, 1);
    assert_int_equal(ttt_undo(g), TTT_E_NO_UNDO);
    assert_unchanged(g, &before);

    assert_int_equal(ttt_undo(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_redo(NULL), TTT_E_INVALID);
    ttt_game_free(g);
}

static void test_rules_api(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3);
    snapshot before;
    int v = SENTINEL;

    take(g, &before);
    static const int unknown_rules[] = {0, 5, -1, 6, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown_rules / sizeof unknown_rules[0]; i++) {
        assert_int_equal(ttt_game_set_rule(g, unknown_rules[i], 0), TTT_E_RULE);
        assert_int_equal(ttt_game_set_rule(g, unknown_rules[i], 1), TTT_E_RULE);
        assert_int_equal(ttt_game_get_rule(g, unknown_rules[i], &v), TTT_E_RULE);
        assert_int_equal(v, SENTINEL);
        assert_unchanged(g, &before);
    }
    static const int bad_values[] = {2, -1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, bad_values[i]), TTT_E_RULE);
        assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, bad_values[i]),
                         TTT_E_RULE);
        assert_unchanged(g, &before);
    }
    assert_int_equal(ttt_game_set_rule(NULL, TTT_RULE_MISERE, 1), TTT_E_INVALID);
    assert_int_equal(ttt_game_get_rule(NULL, TTT_RULE_MISERE, &v), TTT_E_INVALID);
    assert_int_equal(v, SENTINEL);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, NULL), TTT_E_INVALID);

    /* Set, read back, set back. */
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_OK);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &v), TTT_OK);
    assert_int_equal(v, 1);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &v), TTT_OK);
    assert_int_equal(v, 0);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 0), TTT_OK);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &v), TTT_OK);
    assert_int_equal(v, 0);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &v), TTT_OK);
    assert_int_equal(v, 1);

    /* Locked after the first move, whatever the value. */
    play(g, 1, 1);
    take(g, &before);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 0), TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 0), TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 1), TTT_E_RULES_LOCKED);
    assert_unchanged(g, &before);
    assert_int_equal(before.misere, 0);
    assert_int_equal(before.early_draw, 1);
    ttt_game_free(g);
}

static void test_null_arguments(void **state)
{
    (void)state;
    int a = SENTINEL, b = SENTINEL, c = SENTINEL, d = SENTINEL;
    size_t len = 777;
    int8_t cells[9];
    ttt_game *out = NULL;

    assert_int_equal(ttt_state(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_size(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_win_length(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_ply(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_redo_count(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_to_move(NULL), TTT_EMPTY);
    assert_int_equal(ttt_cell(NULL, 0, 0, &a), TTT_E_INVALID);
    assert_int_equal(ttt_move_at(NULL, 0, &a, &b, &c), TTT_E_INVALID);
    assert_int_equal(ttt_winning_line(NULL, &a, &b, &c, &d), TTT_E_INVALID);
    assert_int_equal(ttt_board(NULL, cells, sizeof cells, &len), TTT_E_INVALID);
    assert_int_equal(len, 777);
    assert_int_equal(ttt_game_reset(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_set_listener(NULL, NULL, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_game_clone(NULL, &out), TTT_E_INVALID);
    assert_null(out);
    assert_int_equal(a, SENTINEL);
    assert_int_equal(b, SENTINEL);
    assert_int_equal(c, SENTINEL);
    assert_int_equal(d, SENTINEL);
    ttt_game_free(NULL);

    ttt_game *g = new_game(3, 3);
    snapshot before;
    play(g, 0, 1);
    take(g, &before);
    assert_int_equal(ttt_cell(g, 0, 1, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_board(g, NULL, 9, &len), TTT_E_INVALID);
    assert_int_equal(len, 777);
    assert_int_equal(ttt_board(g, cells, sizeof cells, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_game_clone(g, NULL), TTT_E_INVALID);
    assert_unchanged(g, &before);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Undo and redo                                                             */
/* ------------------------------------------------------------------------ */

static void test_undo_is_exact(void **state)
{
    (void)state;
    static const int m[][2] = {{1, 1}, {0, 2}, {2, 0}, {0, 0}, {0, 1}, {2, 1}};
    ttt_game *g = new_game(3, 3);
    snapshot at[7];
    take(g, &at[0]);
    for (int i = 0; i < 6; i++) {
        play(g, m[i][0], m[i][1]);
        take(g, &at[i + 1]);
        int mark = SENTINEL, r = SENTINEL, c = SENTINEL;
        assert_int_equal(ttt_move_at(g, i, &mark, &r, &c), TTT_OK);
        assert_int_equal(mark, i % 2 == 0 ? TTT_X : TTT_O);
        assert_int_equal(r, m[i][0]);
        assert_int_equal(c, m[i][1]);
    }
    /* Undo walks back through every earlier position exactly, apart from
     * the growing redo stack. */
    for (int i = 6; i > 0; i--) {
        assert_int_equal(ttt_undo(g), TTT_OK);
        snapshot s;
        take(g, &s);
        s.redo_count -= 6 - (i - 1);
        assert_same(&s, &at[i - 1]);
    }
    /* Redo walks forward again. */
    for (int i = 1; i <= 6; i++) {
        assert_int_equal(ttt_redo(g), TTT_OK);
        snapshot s;
        take(g, &s);
        assert_int_equal(s.redo_count, 6 - i);
        s.redo_count = 0;
        assert_same(&s, &at[i]);
    }
    ttt_game_free(g);
}

static void test_redo(void **state)
{
    (void)state;
    static const int m[][2] = {{0, 0}, {1, 1}, {0, 2}, {0, 1}, {2, 1}};
    ttt_game *g = new_game(3, 3);
    play_moves(g, m, 5);
    snapshot five;
    take(g, &five);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ttt_undo(g), TTT_OK);
    }
    assert_int_equal(ttt_ply(g), 2);
    assert_int_equal(ttt_redo_count(g), 3);
    assert_int_equal(ttt_to_move(g), TTT_X);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ttt_redo(g), TTT_OK);
        assert_int_equal(ttt_redo_count(g), 2 - i);
    }
    assert_unchanged(g, &five);

    /* A new move clears the redo stack, even the same move as undone. */
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_redo_count(g), 2);
    play(g, 0, 1);
    assert_int_equal(ttt_redo_count(g), 0);
    snapshot s;
    take(g, &s);
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    assert_unchanged(g, &s);

    assert_int_equal(ttt_undo(g), TTT_OK);
    play(g, 2, 2);
    assert_int_equal(ttt_redo_count(g), 0);
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    ttt_game_free(g);
}

static void test_redo_restores_win(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3);
    play_moves(g, x_wins, 5);
    snapshot won;
    take(g, &won);
    assert_int_equal(won.state, TTT_X_WON);
    assert_int_equal(won.line_status, TTT_OK);

    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_O);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_unchanged(g, &won);

    /* Redo of a drawing move restores the draw. */
    ttt_game_free(g);
    g = new_game(3, 3);
    play_moves(g, draw9, 9);
    take(g, &won);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_to_move(g), TTT_X);
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_unchanged(g, &won);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Retried requests                                                          */
/* ------------------------------------------------------------------------ */

#define expect_play_at(...) expect_play_at_(__LINE__, __VA_ARGS__)
static void expect_play_at_(int line, ttt_game *g, int ply, int mark, int r, int c,
                            int code)
{
    snapshot before;
    int st = SENTINEL;
    take(g, &before);
    check_status(ttt_play_at(g, ply, mark, r, c, &st), code, line);
    assert_unchanged(g, &before);
    if (code == TTT_OK) {
        assert_int_equal(st, before.state);
    }
}

static void count_events(void *user, const ttt_event *event)
{
    (void)event;
    ++*(int *)user;
}

static void test_play_at(void **state)
{
    (void)state;
    int events = 0, st = SENTINEL;
    ttt_game *g = new_game(3, 3);
    assert_int_equal(ttt_set_listener(g, count_events, &events), TTT_OK);

    /* At the game's ply it is ttt_play. */
    expect_play_at(g, 0, TTT_EMPTY, 1, 1, TTT_E_MARK);
    expect_play_at(g, 0, 2, 1, 1, TTT_E_MARK);
    assert_int_equal(ttt_play_at(g, 0, TTT_X, 1, 1, &st), TTT_OK);
    assert_int_equal(st, TTT_IN_PROGRESS);
    assert_int_equal(ttt_ply(g), 1);
    assert_int_equal(events, 1);
    assert_int_equal(ttt_play_at(g, 1, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(events, 2);
    expect_play_at(g, 2, TTT_O, 2, 2, TTT_E_WRONG_TURN);
    expect_play_at(g, 2, TTT_X, 0, 0, TTT_E_OCCUPIED);
    expect_play_at(g, 2, TTT_X, 3, 0, TTT_E_OFF_BOARD);

    /* A retried request: OK, nothing changes, no event. */
    expect_play_at(g, 0, TTT_X, 1, 1, TTT_OK);
    expect_play_at(g, 1, TTT_O, 0, 0, TTT_OK);
    assert_int_equal(ttt_play_at(g, 0, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(events, 2);

    /* Another move at a past ply, or any future ply, is stale. */
    expect_play_at(g, 0, TTT_X, 2, 2, TTT_E_STALE);
    expect_play_at(g, 0, TTT_O, 1, 1, TTT_E_STALE);
    expect_play_at(g, 1, TTT_O, 0, 1, TTT_E_STALE);
    expect_play_at(g, 3, TTT_O, 2, 2, TTT_E_STALE);
    expect_play_at(g, INT_MAX, TTT_X, 2, 2, TTT_E_STALE);
    expect_play_at(g, -1, TTT_X, 2, 2, TTT_E_RANGE);
    expect_play_at(g, INT_MIN, TTT_X, 2, 2, TTT_E_RANGE);
    assert_int_equal(ttt_play_at(NULL, 0, TTT_X, 1, 1, NULL), TTT_E_INVALID);

    /* A retried winning move reports the finished game. */
    assert_int_equal(ttt_play_at(g, 2, TTT_X, 0, 2, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(g, 3, TTT_O, 1, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(g, 4, TTT_X, 2, 0, &st), TTT_OK);
    assert_int_equal(st, TTT_X_WON);
    st = SENTINEL;
    expect_play_at(g, 4, TTT_X, 2, 0, TTT_OK);
    assert_int_equal(ttt_play_at(g, 4, TTT_X, 2, 0, &st), TTT_OK);
    assert_int_equal(st, TTT_X_WON);
    expect_play_at(g, 5, TTT_O, 2, 2, TTT_E_GAME_OVER);
    /* At the current ply it is ttt_play, checks and order included: a
     * finished game is over whatever the mark, even the TTT_EMPTY that
     * ttt_to_move now gives. */
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    assert_int_equal(ttt_play(g, TTT_EMPTY, 2, 2, NULL), TTT_E_GAME_OVER);
    expect_play_at(g, 5, ttt_to_move(g), 2, 2, TTT_E_GAME_OVER);
    expect_play_at(g, 5, 7, 2, 2, TTT_E_GAME_OVER);
    expect_play_at(g, 5, TTT_X, 9, 9, TTT_E_GAME_OVER);
    /* At any other ply a mark that is no mark is refused first. */
    expect_play_at(g, 4, TTT_EMPTY, 2, 0, TTT_E_MARK);
    expect_play_at(g, 6, TTT_EMPTY, 2, 2, TTT_E_MARK);
    expect_play_at(g, -1, TTT_EMPTY, 2, 2, TTT_E_MARK);
    assert_int_equal(events, 5);

    /* At the current ply it clears the redo stack like ttt_play; a retry of
     * a move still in the history keeps it. */
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_redo_count(g), 2);
    expect_play_at(g, 2, TTT_X, 0, 2, TTT_OK);
    assert_int_equal(ttt_redo_count(g), 2);
    assert_int_equal(ttt_play_at(g, 3, TTT_O, 2, 2, NULL), TTT_OK);
    assert_int_equal(ttt_redo_count(g), 0);
    ttt_game_free(g);
}

/* A retry names the very cell played at that ply: a cell off the board is
 * never that cell, whatever its bits. */
static int setup_game(void **state)
{
    ttt_game *g = NULL;
    if (ttt_game_new(3, 3, &g) != TTT_OK) {
        return -1;
    }
    *state = g;
    return 0;
}

static int teardown_game(void **state)
{
    ttt_game_free(*state);
    return 0;
}

static void test_play_at_off_board(void **state)
{
    ttt_game *g = *state;
    play(g, 1, 1);
    play(g, 0, 0);
    static const int cells[][2] = {
        {1, 65537}, {65537, 1}, {1, INT_MIN + 1}, {INT_MIN + 1, 1}, {1, -65535},
        {-1, 1},    {1, 3},     {3, 1},           {INT_MAX, 1},     {1, INT_MAX},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        expect_play_at(g, 0, TTT_X, cells[i][0], cells[i][1], TTT_E_STALE);
    }
    static const int cells0[][2] = {
        {0, 65536}, {65536, 0}, {INT_MIN, 0}, {0, INT_MIN}, {0, -65536}, {-65536, 0},
    };
    for (size_t i = 0; i < sizeof cells0 / sizeof cells0[0]; i++) {
        expect_play_at(g, 1, TTT_O, cells0[i][0], cells0[i][1], TTT_E_STALE);
    }
}

/* ------------------------------------------------------------------------ */
/* Reads                                                                     */
/* ------------------------------------------------------------------------ */

static void test_move_at(void **state)
{
    (void)state;
    static const int m[][2] = {{2, 3}, {0, 0}, {3, 3}};
    ttt_game *g = new_game(4, 3);
    play_moves(g, m, 3);
    for (int i = 0; i < 3; i++) {
        int mark = SENTINEL, r = SENTINEL, c = SENTINEL;
        assert_int_equal(ttt_move_at(g, i, &mark, &r, &c), TTT_OK);
        assert_int_equal(mark, i % 2 == 0 ? TTT_X : TTT_O);
        assert_int_equal(r, m[i][0]);
        assert_int_equal(c, m[i][1]);
        /* Any out-pointer may be NULL. */
        assert_int_equal(ttt_move_at(g, i, NULL, NULL, NULL), TTT_OK);
        r = SENTINEL;
        assert_int_equal(ttt_move_at(g, i, NULL, &r, NULL), TTT_OK);
        assert_int_equal(r, m[i][0]);
    }
    static const int bad[] = {-1, 3, 4, INT_MIN, INT_MAX, 16};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int mark = SENTINEL, r = SENTINEL, c = SENTINEL;
        assert_int_equal(ttt_move_at(g, bad[i], &mark, &r, &c), TTT_E_RANGE);
        assert_int_equal(mark, SENTINEL);
        assert_int_equal(r, SENTINEL);
        assert_int_equal(c, SENTINEL);
    }
    /* An undone move is no longer in the history. */
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_move_at(g, 2, NULL, NULL, NULL), TTT_E_RANGE);
    assert_int_equal(ttt_move_at(g, 1, NULL, NULL, NULL), TTT_OK);
    ttt_game_free(g);

    g = new_game(3, 3);
    assert_int_equal(ttt_move_at(g, 0, NULL, NULL, NULL), TTT_E_RANGE);
    ttt_game_free(g);
}

static void test_cell(void **state)
{
    (void)state;
    ttt_game *g = new_game(5, 4);
    play(g, 4, 0);
    play(g, 0, 4);
    int m = SENTINEL;
    assert_int_equal(ttt_cell(g, 4, 0, &m), TTT_OK);
    assert_int_equal(m, TTT_X);
    assert_int_equal(ttt_cell(g, 0, 4, &m), TTT_OK);
    assert_int_equal(m, TTT_O);
    assert_int_equal(ttt_cell(g, 0, 0, &m), TTT_OK);
    assert_int_equal(m, TTT_EMPTY);
    static const int off[] = {-1, 5, INT_MIN, INT_MAX, 6};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        m = SENTINEL;
        assert_int_equal(ttt_cell(g, off[i], 0, &m), TTT_E_OFF_BOARD);
        assert_int_equal(ttt_cell(g, 0, off[i], &m), TTT_E_OFF_BOARD);
        assert_int_equal(ttt_cell(g, off[i], off[i], &m), TTT_E_OFF_BOARD);
        assert_int_equal(m, SENTINEL);
    }
    ttt_game_free(g);
}

static void test_board(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3);
    play(g, 0, 1); /* X at index 1 */
    play(g, 1, 0); /* O at index 3 */
    play(g, 2, 2); /* X at index 8 */
    int8_t buf[16];
    int8_t fresh[16];
    size_t len;
    memset(fresh, 0x5a, sizeof fresh);

    /* Too small: only *len is written. */
    static const size_t small[] = {0, 1, 8};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        memcpy(buf, fresh, sizeof buf);
        len = 0;
        assert_int_equal(ttt_board(g, buf, small[i], &len), TTT_E_BUFFER);
        assert_int_equal(len, 9);
        assert_memory_equal(buf, fresh, sizeof buf);
    }

    /* Exactly big enough, and bigger: row-major, nothing past N*N. */
    static const int8_t expect[9] = {0, TTT_X, 0, TTT_O, 0, 0, 0, 0, TTT_X};
    static const size_t caps[] = {9, 10, 16};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        memcpy(buf, fresh, sizeof buf);
        len = 0;
        assert_int_equal(ttt_board(g, buf, caps[i], &len), TTT_OK);
        assert_int_equal(len, 9);
        assert_memory_equal(buf, expect, 9);
        assert_memory_equal(buf + 9, fresh + 9, sizeof buf - 9);
    }
    ttt_game_free(g);
}

static void test_winning_line_absent(void **state)
{
    (void)state;
    int a = SENTINEL, b = SENTINEL, c = SENTINEL, d = SENTINEL;
    ttt_game *g = new_game(3, 3);
    assert_int_equal(ttt_winning_line(g, &a, &b, &c, &d), TTT_E_NO_LINE);
    play_moves(g, draw9, 8);
    assert_int_equal(ttt_winning_line(g, &a, &b, &c, &d), TTT_E_NO_LINE);
    play(g, draw9[8][0], draw9[8][1]);
    assert_int_equal(ttt_state(g), TTT_DRAW);
    assert_int_equal(ttt_winning_line(g, &a, &b, &c, &d), TTT_E_NO_LINE);
    assert_int_equal(a, SENTINEL);
    assert_int_equal(b, SENTINEL);
    assert_int_equal(c, SENTINEL);
    assert_int_equal(d, SENTINEL);
    ttt_game_free(g);

    g = new_game(3, 3);
    play_moves(g, x_wins, 5);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_OK);
    assert_int_equal(ttt_winning_line(g, &a, NULL, NULL, &d), TTT_OK);
    assert_int_equal(a, 0);
    assert_true(d == 0 || d == 2);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Reset and independence                                                    */
/* ------------------------------------------------------------------------ */

static void test_reset(void **state)
{
    (void)state;
    ttt_game *g = new_game(4, 3);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_OK);
    static const int m[][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    play_moves(g, m, 4);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_game_reset(g), TTT_OK);

    snapshot s;
    take(g, &s);
    assert_int_equal(s.size, 4);
    assert_int_equal(s.win_length, 3);
    assert_int_equal(s.state, TTT_IN_PROGRESS);
    assert_int_equal(s.to_move, TTT_X);
    assert_int_equal(s.ply, 0);
    assert_int_equal(s.redo_count, 0);
    assert_int_equal(s.misere, 1);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(s.board[i], TTT_EMPTY);
    }
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    assert_int_equal(ttt_undo(g), TTT_E_NO_UNDO);

    /* A finished game is reopened by a reset. */
    ttt_game_free(g);
    g = new_game(3, 3);
    play_moves(g, x_wins, 5);
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_X);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    play_moves(g, x_wins, 5);
    assert_int_equal(ttt_state(g), TTT_X_WON);
    ttt_game_free(g);
}

static void test_games_are_independent(void **state)
{
    (void)state;
    ttt_game *a = new_game(3, 3);
    ttt_game *b = new_game(3, 3);
    play(a, 0, 0);
    play(b, 2, 2);
    play(b, 0, 0);
    int m = SENTINEL;
    assert_int_equal(ttt_cell(a, 2, 2, &m), TTT_OK);
    assert_int_equal(m, TTT_EMPTY);
    assert_int_equal(ttt_cell(a, 0, 0, &m), TTT_OK);
    assert_int_equal(m, TTT_X);
    assert_int_equal(ttt_cell(b, 0, 0, &m), TTT_OK);
    assert_int_equal(m, TTT_O);
    assert_int_equal(ttt_ply(a), 1);
    assert_int_equal(ttt_ply(b), 2);
    assert_int_equal(ttt_game_set_rule(a, TTT_RULE_MISERE, 1), TTT_E_RULES_LOCKED);
    ttt_game *c = new_game(3, 3);
    assert_int_equal(ttt_game_set_rule(c, TTT_RULE_MISERE, 1), TTT_OK);
    int v = SENTINEL;
    assert_int_equal(ttt_game_get_rule(a, TTT_RULE_MISERE, &v), TTT_OK);
    assert_int_equal(v, 0);
    ttt_game_free(a);
    ttt_game_free(b);
    ttt_game_free(c);
}

/* ------------------------------------------------------------------------ */
/* Listener                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct seen {
    ttt_event ev;
    int state, ply, to_move, cell, redo_count;
} seen;

typedef struct recorder {
    const ttt_game *game;
    int count;
    seen log[32];
} recorder;

static void record(void *user, const ttt_event *event)
{
    recorder *rec = user;
    assert_true(rec->count < 32);
    seen *s = &rec->log[rec->count++];
    s->ev = *event;
    /* Read-only calls on the same game see the state after the change. */
    s->state = ttt_state(rec->game);
    s->ply = ttt_ply(rec->game);
    s->to_move = ttt_to_move(rec->game);
    s->redo_count = ttt_redo_count(rec->game);
    s->cell = SENTINEL;
    if (event->row >= 0) {
        assert_int_equal(ttt_cell(rec->game, event->row, event->col, &s->cell), TTT_OK);
    }
}

static void assert_event(const recorder *rec, int i, int kind, int mark, int row,
                         int col, int ply, int state)
{
    assert_true(i < rec->count);
    const ttt_event *e = &rec->log[i].ev;
    assert_int_equal(e->kind, kind);
    assert_int_equal(e->mark, mark);
    assert_int_equal(e->row, row);
    assert_int_equal(e->col, col);
    assert_int_equal(e->ply, ply);
    assert_int_equal(e->state, state);
    /* What the listener read back agrees with the event. */
    assert_int_equal(rec->log[i].state, state);
    assert_int_equal(rec->log[i].ply, ply);
}

static void test_listener(void **state)
{
    (void)state;
    recorder rec;
    memset(&rec, 0, sizeof rec);
    ttt_game *g = new_game(3, 3);
    rec.game = g;
    assert_int_equal(ttt_set_listener(g, record, &rec), TTT_OK);

    play(g, 0, 0);
    assert_event(&rec, 0, TTT_EVENT_PLAY, TTT_X, 0, 0, 1, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[0].cell, TTT_X);
    assert_int_equal(rec.log[0].to_move, TTT_O);

    play(g, 1, 0);
    assert_event(&rec, 1, TTT_EVENT_PLAY, TTT_O, 1, 0, 2, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[1].cell, TTT_O);

    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_event(&rec, 2, TTT_EVENT_UNDO, TTT_O, 1, 0, 1, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[2].cell, TTT_EMPTY);
    assert_int_equal(rec.log[2].to_move, TTT_O);
    assert_int_equal(rec.log[2].redo_count, 1);

    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_event(&rec, 3, TTT_EVENT_REDO, TTT_O, 1, 0, 2, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[3].cell, TTT_O);
    assert_int_equal(rec.log[3].redo_count, 0);
    assert_int_equal(rec.count, 4);

    /* Rejected calls send nothing. */
    assert_int_equal(ttt_play(g, TTT_O, 2, 2, NULL), TTT_E_WRONG_TURN);
    assert_int_equal(ttt_play(g, TTT_X, 0, 0, NULL), TTT_E_OCCUPIED);
    assert_int_equal(ttt_play(g, TTT_X, 3, 0, NULL), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_play(g, 7, 2, 2, NULL), TTT_E_MARK);
    assert_int_equal(ttt_redo(g), TTT_E_NO_REDO);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_E_RULES_LOCKED);
    assert_int_equal(rec.count, 4);

    /* The winning move reports the final state. */
    play(g, 0, 1);
    play(g, 1, 1);
    play(g, 0, 2);
    assert_int_equal(rec.count, 7);
    assert_event(&rec, 6, TTT_EVENT_PLAY, TTT_X, 0, 2, 5, TTT_X_WON);
    assert_int_equal(rec.log[6].to_move, TTT_EMPTY);
    assert_int_equal(ttt_play(g, TTT_O, 2, 2, NULL), TTT_E_GAME_OVER);
    assert_int_equal(rec.count, 7);

    /* Undo of the winning move. */
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_event(&rec, 7, TTT_EVENT_UNDO, TTT_X, 0, 2, 4, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[7].to_move, TTT_X);

    /* Reset. */
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_event(&rec, 8, TTT_EVENT_RESET, 0, -1, -1, 0, TTT_IN_PROGRESS);
    assert_int_equal(rec.log[8].to_move, TTT_X);
    assert_int_equal(rec.log[8].redo_count, 0);
    assert_int_equal(ttt_undo(g), TTT_E_NO_UNDO);
    assert_int_equal(rec.count, 9);

    /* The listener survives the reset. */
    play(g, 2, 2);
    assert_int_equal(rec.count, 10);
    assert_event(&rec, 9, TTT_EVENT_PLAY, TTT_X, 2, 2, 1, TTT_IN_PROGRESS);

    /* A clone does not take the listener. */
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    play(copy, 0, 0);
    assert_int_equal(ttt_undo(copy), TTT_OK);
    assert_int_equal(ttt_redo(copy), TTT_OK);
    assert_int_equal(ttt_game_reset(copy), TTT_OK);
    assert_int_equal(rec.count, 10);
    ttt_game_free(copy);

    /* Replaced, then removed. */
    recorder other;
    memset(&other, 0, sizeof other);
    other.game = g;
    assert_int_equal(ttt_set_listener(g, record, &other), TTT_OK);
    play(g, 1, 1);
    assert_int_equal(rec.count, 10);
    assert_int_equal(other.count, 1);
    assert_event(&other, 0, TTT_EVENT_PLAY, TTT_O, 1, 1, 2, TTT_IN_PROGRESS);
    assert_int_equal(ttt_set_listener(g, NULL, NULL), TTT_OK);
    play(g, 0, 0);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_int_equal(rec.count, 10);
    assert_int_equal(other.count, 1);
    ttt_game_free(g);
}

/* The listener sees draws and misère results too. */
static void test_listener_draw_and_misere(void **state)
{
    (void)state;
    recorder rec;
    memset(&rec, 0, sizeof rec);
    ttt_game *g = new_game(3, 3);
    rec.game = g;
    assert_int_equal(ttt_set_listener(g, record, &rec), TTT_OK);
    play_moves(g, draw9, 9);
    assert_int_equal(rec.count, 9);
    for (int i = 0; i < 9; i++) {
        assert_event(&rec, i, TTT_EVENT_PLAY, i % 2 == 0 ? TTT_X : TTT_O, draw9[i][0],
                     draw9[i][1], i + 1, i == 8 ? TTT_DRAW : TTT_IN_PROGRESS);
    }
    ttt_game_free(g);

    memset(&rec, 0, sizeof rec);
    g = new_game(3, 3);
    rec.game = g;
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_OK);
    assert_int_equal(ttt_set_listener(g, record, &rec), TTT_OK);
    play_moves(g, x_wins, 5);
    assert_int_equal(rec.count, 5);
    assert_event(&rec, 4, TTT_EVENT_PLAY, TTT_X, 0, 2, 5, TTT_O_WON);
    ttt_game_free(g);
}

/* A listener that tries every change on its own game. */
typedef struct meddler {
    ttt_game *game;
    ttt_game *other; /* another game, which it may change */
    int calls;
    int refused;     /* changes answered TTT_E_IN_LISTENER */
    int other_events;
} meddler;

static void meddle(void *user, const ttt_event *event)
{
    meddler *m = user;
    ttt_game *g = m->game;
    uint64_t seed = 1;
    int st = SENTINEL;
    snapshot before;
    (void)event;
    m->calls++;
    take(g, &before);
    const int codes[] = {
        ttt_play(g, TTT_X, 2, 2, &st),
        ttt_play(g, TTT_O, 2, 2, &st),
        ttt_play_next(g, 2, 2, &st),
        ttt_play_at(g, ttt_ply(g), ttt_to_move(g), 2, 2, &st),
        ttt_play_at(g, 0, TTT_X, 0, 0, &st),
        ttt_undo(g),
        ttt_redo(g),
        ttt_game_reset(g),
        ttt_random_playout(g, &seed, &st),
        ttt_game_set_rule(g, TTT_RULE_MISERE, 0),
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        m->refused += codes[i] == TTT_E_IN_LISTENER;
    assert_int_equal(st, SENTINEL);
    assert_int_equal(seed, 1);
    assert_unchanged(g, &before);
    /* A copy made from inside is a game like any other. */
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    if (ttt_state(copy) == TTT_IN_PROGRESS)
        assert_int_equal(ttt_random_playout(copy, &seed, NULL), TTT_OK);
    ttt_game_free(copy);
    /* Another game, and its own listener, work as usual. */
    int ply = ttt_ply(m->other);
    assert_int_equal(ttt_play_next(m->other, ply / 16, ply % 16, NULL), TTT_OK);
}

static void count_other(void *user, const ttt_event *event)
{
    (void)event;
    ((meddler *)user)->other_events++;
}

static void test_listener_cannot_change_its_game(void **state)
{
    (void)state;
    meddler m;
    memset(&m, 0, sizeof m);
    m.game = new_game(3, 3);
    m.other = new_game(16, 16);
    assert_int_equal(ttt_set_listener(m.game, meddle, &m), TTT_OK);
    assert_int_equal(ttt_set_listener(m.other, count_other, &m), TTT_OK);

    play(m.game, 1, 1);
    play(m.game, 0, 0);
    assert_int_equal(ttt_undo(m.game), TTT_OK);
    assert_int_equal(ttt_redo(m.game), TTT_OK);
    uint64_t seed = 3;
    assert_int_equal(ttt_random_playout(m.game, &seed, NULL), TTT_OK);
    int plies = ttt_ply(m.game);
    assert_int_equal(ttt_game_reset(m.game), TTT_OK);
    /* Every event saw all ten changes refused. */
    assert_int_equal(m.calls, 4 + (plies - 2) + 1);
    assert_int_equal(m.refused, 10 * m.calls);
    assert_int_equal(m.other_events, m.calls);
    assert_int_equal(ttt_ply(m.other), m.calls);

    /* Outside the listener the same calls work again. */
    assert_int_equal(ttt_set_listener(m.game, NULL, NULL), TTT_OK);
    play(m.game, 2, 2);
    assert_int_equal(ttt_undo(m.game), TTT_OK);
    assert_int_equal(ttt_game_reset(m.game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(m.game, TTT_RULE_MISERE, 1), TTT_OK);
    ttt_game_free(m.other);
    ttt_game_free(m.game);
}

/* A listener that takes itself off after `stay` calls, or hands over to
 * `next`. */
typedef struct leaver {
    ttt_game *game;
    int calls, stay;
    ttt_listener next;
    void *next_user;
} leaver;

static void leave(void *user, const ttt_event *event)
{
    leaver *l = user;
    (void)event;
    assert_true(l->calls < l->stay); /* never called after leaving */
    if (++l->calls == l->stay)
        assert_int_equal(ttt_set_listener(l->game, l->next, l->next_user), TTT_OK);
}

static void test_listener_removes_itself(void **state)
{
    (void)state;
    ttt_game *g = new_game(5, 4);
    leaver first = {g, 0, 2, NULL, NULL};
    assert_int_equal(ttt_set_listener(g, leave, &first), TTT_OK);
    play(g, 0, 0);
    play(g, 1, 1);
    play(g, 2, 2);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(first.calls, 2);

    /* Mid-playout: the rest of the game is played without events. */
    leaver quitter = {g, 0, 3, NULL, NULL};
    assert_int_equal(ttt_set_listener(g, leave, &quitter), TTT_OK);
    uint64_t seed = 11;
    int st = SENTINEL;
    assert_int_equal(ttt_random_playout(g, &seed, &st), TTT_OK);
    assert_int_not_equal(st, TTT_IN_PROGRESS);
    assert_true(ttt_ply(g) >= 2 + 7);
    assert_int_equal(quitter.calls, 3);

    /* Handing over: the next event goes to the new listener. */
    recorder rec;
    memset(&rec, 0, sizeof rec);
    rec.game = g;
    leaver handover = {g, 0, 1, record, &rec};
    assert_int_equal(ttt_set_listener(g, leave, &handover), TTT_OK);
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_int_equal(handover.calls, 1);
    assert_int_equal(rec.count, 0);
    play(g, 3, 3);
    assert_int_equal(handover.calls, 1);
    assert_int_equal(rec.count, 1);
    assert_event(&rec, 0, TTT_EVENT_PLAY, TTT_X, 3, 3, 1, TTT_IN_PROGRESS);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Clone                                                                     */
/* ------------------------------------------------------------------------ */

static void test_clone(void **state)
{
    (void)state;
    static const int m[][2] = {{1, 1}, {0, 0}, {2, 2}, {0, 2}};
    ttt_game *g = new_game(3, 3);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    play_moves(g, m, 4);
    assert_int_equal(ttt_undo(g), TTT_OK);

    snapshot orig, cl;
    take(g, &orig);
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    assert_non_null(copy);
    assert_true(copy != g);
    take(copy, &cl);
    assert_same(&orig, &cl);

    /* The clone's redo stack replays the undone move. */
    assert_int_equal(ttt_redo(copy), TTT_OK);
    int mk = SENTINEL;
    assert_int_equal(ttt_cell(copy, 0, 2, &mk), TTT_OK);
    assert_int_equal(mk, TTT_O);
    assert_unchanged(g, &orig);

    /* Playing on the clone leaves the original alone, and back. */
    play(copy, 0, 1);
    play(copy, 2, 1);
    assert_unchanged(g, &orig);
    take(copy, &cl);
    play(g, 1, 0);
    assert_unchanged(copy, &cl);
    assert_int_equal(ttt_redo_count(g), 0);
    ttt_game_free(g);
    assert_unchanged(copy, &cl);
    ttt_game_free(copy);

    /* A finished game clones finished, line and all. */
    g = new_game(3, 3);
    play_moves(g, x_wins, 5);
    take(g, &orig);
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    assert_unchanged(copy, &orig);
    assert_int_equal(ttt_undo(copy), TTT_OK);
    assert_int_equal(ttt_state(copy), TTT_IN_PROGRESS);
    assert_unchanged(g, &orig);
    ttt_game_free(copy);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Allocators                                                                */
/* ------------------------------------------------------------------------ */

typedef struct counter {
    int allocs, frees, fail;
    void *live[8];
    int nlive;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    if (c->fail) {
        return NULL;
    }
    void *p = malloc(size);
    assert_non_null(p);
    c->allocs++;
    assert_true(c->nlive < 8);
    c->live[c->nlive++] = p;
    return p;
}

static void count_dealloc(void *user, void *ptr)
{
    counter *c = user;
    int found = -1;
    for (int i = 0; i < c->nlive; i++) {
        if (c->live[i] == ptr) {
            found = i;
        }
    }
    /* Only pointers this allocator handed out come back. */
    assert_true(found >= 0);
    c->live[found] = c->live[--c->nlive];
    c->frees++;
    free(ptr);
}

static void churn(ttt_game *g, int rounds)
{
    int n = ttt_size(g);
    int stride = 7;
    while ((n * n) % stride == 0) {
        stride += 4; /* 7 or 11: coprime with n * n for n < 11 */
    }
    for (int i = 0; i < rounds; i++) {
        int placed = 0;
        for (int j = 0; j < n * n && ttt_state(g) == TTT_IN_PROGRESS; j++) {
            int cell = (j * stride + i) % (n * n);
            int m = SENTINEL;
            assert_int_equal(ttt_cell(g, cell / n, cell % n, &m), TTT_OK);
            if (m == TTT_EMPTY) {
                play(g, cell / n, cell % n);
                placed++;
            }
        }
        for (int j = 0; j < placed; j++) {
            assert_int_equal(ttt_undo(g), TTT_OK);
        }
        for (int j = 0; j < placed / 2; j++) {
            assert_int_equal(ttt_redo(g), TTT_OK);
        }
        if (i % 3 == 0) {
            assert_int_equal(ttt_game_reset(g), TTT_OK);
        } else {
            while (ttt_undo(g) == TTT_OK) {
            }
        }
    }
}

static void test_allocator(void **state)
{
    (void)state;
    counter cnt;
    memset(&cnt, 0, sizeof cnt);
    ttt_allocator al = {count_alloc, count_dealloc, &cnt};
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new_with(7, 4, &al, &g), TTT_OK);
    assert_non_null(g);
    assert_int_equal(cnt.allocs, 1);
    /* The game keeps its own copy of the allocator struct. */
    memset(&al, 0, sizeof al);

    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    churn(g, 300);
    assert_int_equal(cnt.allocs, 1);
    assert_int_equal(cnt.frees, 0);

    /* A clone is allocated like the original: one allocation. */
    play(g, 3, 3);
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    assert_int_equal(cnt.allocs, 2);
    churn(copy, 100);
    assert_int_equal(cnt.allocs, 2);

    /* A failing allocator: NOMEM and no game. */
    cnt.fail = 1;
    ttt_game *none = (ttt_game *)(uintptr_t)0x1234;
    assert_int_equal(ttt_game_clone(g, &none), TTT_E_NOMEM);
    assert_ptr_equal(none, (ttt_game *)(uintptr_t)0x1234);
    ttt_allocator failing = {count_alloc, count_dealloc, &cnt};
    assert_int_equal(ttt_game_new_with(3, 3, &failing, &none), TTT_E_NOMEM);
    assert_ptr_equal(none, (ttt_game *)(uintptr_t)0x1234);
    cnt.fail = 0;

    ttt_game_free(copy);
    assert_int_equal(cnt.frees, 1);
    ttt_game_free(g);
    assert_int_equal(cnt.frees, 2);
    assert_int_equal(cnt.nlive, 0);

    /* K = N takes the counter path; also no allocation after creation. */
    ttt_allocator al2 = {count_alloc, count_dealloc, &cnt};
    assert_int_equal(ttt_game_new_with(5, 0, &al2, &g), TTT_OK);
    assert_int_equal(cnt.allocs, 3);
    churn(g, 300);
    assert_int_equal(cnt.allocs, 3);
    ttt_game_free(g);
    assert_int_equal(cnt.frees, 3);

    /* NULL allocator means malloc. */
    assert_int_equal(ttt_game_new_with(3, 3, NULL, &g), TTT_OK);
    play_moves(g, x_wins, 5);
    assert_int_equal(ttt_state(g), TTT_X_WON);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Games in caller memory                                                    */
/* ------------------------------------------------------------------------ */

static _Alignas(max_align_t) unsigned char arena[1 << 16];

static void test_footprint(void **state)
{
    (void)state;
    assert_true(ttt_game_footprint(3, 3) > 0);
    assert_true(ttt_game_footprint(3, 0) > 0);
    assert_true(ttt_game_footprint(9, 5) > 0);
    assert_true(ttt_game_footprint(TTT_MAX_SIZE, 0) > 0);
    assert_true(ttt_game_footprint(TTT_MAX_SIZE, 3) > 0);
    /* A bigger board never needs less. */
    assert_true(ttt_game_footprint(9, 5) >= ttt_game_footprint(3, 3));
    static const int bad[][2] = {{0, 0},  {2, 0},  {1, 0},  {-1, 0},
                                 {3, 1},  {3, 2},  {3, 4},  {3, -1},
                                 {INT_MIN, 0}, {INT_MAX, 0}, {TTT_MAX_SIZE + 1, 0},
                                 {5, INT_MAX}, {5, INT_MIN}, {0, 3}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ttt_game_footprint(bad[i][0], bad[i][1]), 0);
    }
}

static void test_init(void **state)
{
    (void)state;
    size_t need = ttt_game_footprint(3, 3);
    assert_true(need > 0 && need <= sizeof arena);

    /* The memory need not be zeroed. */
    memset(arena, 0xa5, sizeof arena);
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_init(arena, need, 3, 3, &g), TTT_OK);
    assert_non_null(g);
    snapshot s;
    take(g, &s);
    assert_int_equal(s.state, TTT_IN_PROGRESS);
    assert_int_equal(s.ply, 0);
    assert_int_equal(s.to_move, TTT_X);
    assert_int_equal(s.redo_count, 0);
    assert_int_equal(s.misere, 0);
    assert_int_equal(s.early_draw, 0);
    for (int i = 0; i < 9; i++) {
        assert_int_equal(s.board[i], TTT_EMPTY);
    }
    play_moves(g, x_wins, 5);
    assert_int_equal(ttt_state(g), TTT_X_WON);

    /* Its clone lives on the heap and outlives it. */
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(g, &copy), TTT_OK);
    take(copy, &s);
    ttt_game_free(g);
    memset(arena, 0, sizeof arena);
    assert_unchanged(copy, &s);
    ttt_game_free(copy);

    /* The memory is reusable for another game, K < N, with rules. */
    need = ttt_game_footprint(9, 5);
    assert_true(need > 0 && need <= sizeof arena);
    assert_int_equal(ttt_game_init(arena, sizeof arena, 9, 5, &g), TTT_OK);
    assert_int_equal(ttt_size(g), 9);
    assert_int_equal(ttt_win_length(g), 5);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 1), TTT_OK);
    for (int i = 0; i < 5; i++) {
        play(g, 4, i);
        if (i < 4) {
            play(g, 0, 2 * i);
        }
    }
    assert_int_equal(ttt_state(g), TTT_O_WON);
    churn(g, 20);
    ttt_game_free(g);

    /* win_length 0 means size here too. */
    assert_int_equal(ttt_game_init(arena, sizeof arena, 4, 0, &g), TTT_OK);
    assert_int_equal(ttt_win_length(g), 4);
    ttt_game_free(g);
}

static void test_init_rejections(void **state)
{
    (void)state;
    size_t need = ttt_game_footprint(3, 3);
    ttt_game *const marker = (ttt_game *)(uintptr_t)0x1234;
    ttt_game *g = marker;

    assert_int_equal(ttt_game_init(arena, need - 1, 3, 3, &g), TTT_E_BUFFER);
    assert_ptr_equal(g, marker);
    assert_int_equal(ttt_game_init(arena, 0, 3, 3, &g), TTT_E_BUFFER);
    assert_ptr_equal(g, marker);
    assert_int_equal(ttt_game_init(arena, ttt_game_footprint(9, 5) - 1, 9, 5, &g),
                     TTT_E_BUFFER);
    assert_ptr_equal(g, marker);

    /* Misaligned memory, even with room to spare. */
    assert_int_equal(ttt_game_init(arena + 1, sizeof arena - 1, 3, 3, &g), TTT_E_INVALID);
    assert_ptr_equal(g, marker);

    assert_int_equal(ttt_game_init(NULL, sizeof arena, 3, 3, &g), TTT_E_INVALID);
    assert_ptr_equal(g, marker);
    assert_int_equal(ttt_game_init(arena, sizeof arena, 3, 3, NULL), TTT_E_INVALID);

    static const int bad[][2] = {{2, 0}, {0, 0}, {-1, 0}, {INT_MIN, 0},
                                 {TTT_MAX_SIZE + 1, 0}, {INT_MAX, 0}, {3, 1},
                                 {3, 2}, {3, 4}, {3, -1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ttt_game_init(arena, sizeof arena, bad[i][0], bad[i][1], &g),
                         TTT_E_SIZE);
        assert_ptr_equal(g, marker);
    }

    /* Exactly the footprint is enough. */
    assert_int_equal(ttt_game_init(arena, need, 3, 3, &g), TTT_OK);
    assert_true(g != marker);
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_strerror),
        cmocka_unit_test(test_new_defaults),
        cmocka_unit_test(test_new_bad_size),
        cmocka_unit_test(test_max_size_board),
        cmocka_unit_test(test_play_rejections),
        cmocka_unit_test(test_game_over_rejections),
        cmocka_unit_test(test_undo_redo_empty),
        cmocka_unit_test(test_rules_api),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_undo_is_exact),
        cmocka_unit_test(test_redo),
        cmocka_unit_test(test_redo_restores_win),
        cmocka_unit_test(test_play_next),
        cmocka_unit_test(test_play_at),
        cmocka_unit_test_setup_teardown(test_play_at_off_board, setup_game, teardown_game),
        cmocka_unit_test(test_move_at),
        cmocka_unit_test(test_cell),
        cmocka_unit_test(test_board),
        cmocka_unit_test(test_winning_line_absent),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_games_are_independent),
        cmocka_unit_test(test_listener),
        cmocka_unit_test(test_listener_cannot_change_its_game),
        cmocka_unit_test(test_listener_removes_itself),
        cmocka_unit_test(test_listener_draw_and_misere),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_footprint),
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_init_rejections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
