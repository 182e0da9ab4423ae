/* test_rect.c - W x H boards and gravity (1.3): constructors, legality, wins in every direction, K past a side, undo/redo, records, random moves. */
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

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static ttt_game *new_rect(int width, int height, int k, int gravity)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_rect(width, height, k, &game), TTT_OK);
    assert_non_null(game);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, gravity), TTT_OK);
    return game;
}

/* Plays cell names ("a6,b6,...") for the side to move; each must succeed. */
static void play_names(ttt_game *game, const char *names)
{
    const char *p = names;
    while (*p) {
        int row, col;
        size_t used;
        assert_int_equal(ttt_parse_cell(p, strlen(p), &row, &col, &used), TTT_OK);
        assert_int_equal(ttt_play_next(game, row, col, NULL), TTT_OK);
        p += used;
        if (*p == ',')
            p++;
    }
}

/* Everything a rejected call must leave alone: the record (board, rules,
 * moves), the redo count and the events sent. */
typedef struct observed {
    char record[512];
    int redo;
    int state;
} observed;

static void observe(const ttt_game *game, observed *out)
{
    size_t len = 0;
    memset(out, 0, sizeof *out);
    assert_int_equal(ttt_game_save(game, out->record, sizeof out->record, &len),
                     TTT_OK);
    out->redo = ttt_redo_count(game);
    out->state = ttt_state(game);
}

static void assert_unchanged(const ttt_game *game, const observed *before)
{
    observed now;
    observe(game, &now);
    assert_string_equal(now.record, before->record);
    assert_int_equal(now.redo, before->redo);
    assert_int_equal(now.state, before->state);
}

static int events_seen;

static void count_event(void *user, const ttt_event *event)
{
    (void)user;
    (void)event;
    events_seen++;
}

/* ------------------------------------------------------------------------ */
/* Constructors and readers                                                  */
/* ------------------------------------------------------------------------ */

static void test_constructors(void **state)
{
    (void)state;
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_rect(7, 6, 4, &game), TTT_OK);
    assert_int_equal(ttt_width(game), 7);
    assert_int_equal(ttt_height(game), 6);
    assert_int_equal(ttt_win_length(game), 4);
    assert_int_equal(ttt_size(game), TTT_E_SIZE);
    int8_t cells[42];
    size_t len = 0;
    assert_int_equal(ttt_board(game, cells, sizeof cells, &len), TTT_OK);
    assert_int_equal(len, 42);
    assert_int_equal(ttt_board(game, cells, 41, &len), TTT_E_BUFFER);
    ttt_game_free(game);

    /* win_length 0 is the shorter side. */
    assert_int_equal(ttt_game_new_rect(9, 4, 0, &game), TTT_OK);
    assert_int_equal(ttt_win_length(game), 4);
    ttt_game_free(game);
    assert_int_equal(ttt_game_new_rect(4, 9, 0, &game), TTT_OK);
    assert_int_equal(ttt_win_length(game), 4);
    ttt_game_free(game);

    /* A square made as a rectangle is the square. */
    assert_int_equal(ttt_game_new_rect(5, 5, 4, &game), TTT_OK);
    assert_int_equal(ttt_size(game), 5);
    assert_int_equal(ttt_width(game), 5);
    assert_int_equal(ttt_height(game), 5);
    char record[64];
    assert_int_equal(ttt_game_save(game, record, sizeof record, &len), TTT_OK);
    assert_string_equal(record, "ttt/1 n=5 k=4 rules=classic moves=-\n");
    ttt_game_free(game);
    assert_int_equal(ttt_game_footprint_rect(5, 5, 4), ttt_game_footprint(5, 4));
    assert_int_equal(ttt_game_footprint_rect(3, 3, 0), ttt_game_footprint(3, 0));

    /* Geometry out of range: nothing made, *out untouched. */
    static const int bad[][3] = {
        {2, 6, 3},  {7, 2, 3},    {1025, 6, 4}, {7, 1025, 4}, {7, 6, 8},
        {6, 7, 8},  {7, 6, 2},    {7, 6, -1},   {0, 0, 0},    {-3, 5, 3},
        {INT_MAX, 3, 3}, {3, INT_MIN, 3},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ttt_game *untouched = (ttt_game *)&game;
        assert_int_equal(ttt_game_new_rect(bad[i][0], bad[i][1], bad[i][2], &untouched),
                         TTT_E_SIZE);
        assert_ptr_equal(untouched, (ttt_game *)&game);
        assert_int_equal(ttt_game_footprint_rect(bad[i][0], bad[i][1], bad[i][2]), 0);
    }
    assert_int_equal(ttt_game_new_rect(7, 6, 4, NULL), TTT_E_INVALID);
    /* K up to the longer side. */
    assert_int_equal(ttt_game_new_rect(3, 10, 10, &game), TTT_OK);
    ttt_game_free(game);
    assert_int_equal(ttt_game_new_rect(1024, 3, 1024, &game), TTT_OK);
    ttt_game_free(game);

    assert_int_equal(ttt_width(NULL), TTT_E_INVALID);
    assert_int_equal(ttt_height(NULL), TTT_E_INVALID);
}

typedef struct tally {
    int allocs, frees;
} tally;

static void *tally_alloc(void *user, size_t size)
{
    ((tally *)user)->allocs++;
    return malloc(size);
}

static void tally_free(void *user, void *ptr)
{
    ((tally *)user)->frees++;
    free(ptr);
}

static void test_allocator_and_caller_memory(void **state)
{
    (void)state;
    tally t = {0, 0};
    ttt_allocator alloc = {tally_alloc, tally_free, &t};
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_rect_with(7, 6, 4, &alloc, &game), TTT_OK);
    assert_int_equal(t.allocs, 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 1), TTT_OK);
    for (int i = 0; i < 20; i++) {
        int col = i % 7;
        int row;
        if (ttt_drop(game, col, &row, NULL) != TTT_OK)
            break;
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_redo(game), TTT_OK);
    }
    assert_int_equal(t.allocs, 1); /* the move path never allocates */
    ttt_game_free(game);
    assert_int_equal(t.frees, 1);
    ttt_allocator half = {tally_alloc, NULL, &t};
    assert_int_equal(ttt_game_new_rect_with(7, 6, 4, &half, &game), TTT_E_INVALID);

    /* Caller memory: exactly the footprint works, one byte less does not. */
    size_t bytes = ttt_game_footprint_rect(9, 4, 4);
    assert_true(bytes > 0);
    /* A rectangle's block is about its cells: far below the square that
     * holds it. */
    assert_true(bytes < ttt_game_footprint(9, 4));
    void *mem = malloc(bytes);
    assert_non_null(mem);
    assert_int_equal(ttt_game_init_rect(mem, bytes - 1, 9, 4, 4, &game), TTT_E_BUFFER);
    assert_int_equal(ttt_game_init_rect(mem, bytes, 9, 4, 5, &game), TTT_OK);
    assert_int_equal(ttt_width(game), 9);
    assert_int_equal(ttt_height(game), 4);
    play_names(game, "a1,a4,b1,b4,c1,c4,d1,d4");
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_play_next(game, 0, 4, NULL), TTT_OK); /* e1: five */
    assert_int_equal(ttt_state(game), TTT_X_WON);
    ttt_game_free(game);
    assert_int_equal(ttt_game_init_rect(NULL, bytes, 9, 4, 4, &game), TTT_E_INVALID);
    assert_int_equal(ttt_game_init_rect(mem, bytes, 9, 2, 4, &game), TTT_E_SIZE);
    free(mem);
}

/* ------------------------------------------------------------------------ */
/* Wins in the four directions                                               */
/* ------------------------------------------------------------------------ */

/* X plays the four cells of line (given as row, col pairs), O plays its
 * filler cells in between; the last X move wins and the reported line has
 * the expected ends. */
static void check_line(int width, int height, int k, const int x[][2],
                       const int o[][2], int row0, int col0, int row1, int col1)
{
    ttt_game *game = new_rect(width, height, k, 0);
    for (int i = 0; i < k; i++) {
        int st = -1;
        assert_int_equal(ttt_play(game, TTT_X, x[i][0], x[i][1], &st), TTT_OK);
        if (i < k - 1) {
            assert_int_equal(st, TTT_IN_PROGRESS);
            assert_int_equal(ttt_play(game, TTT_O, o[i][0], o[i][1], &st), TTT_OK);
            assert_int_equal(st, TTT_IN_PROGRESS);
        } else {
            assert_int_equal(st, TTT_X_WON);
        }
    }
    int r0, c0, r1, c1;
    assert_int_equal(ttt_winning_line(game, &r0, &c0, &r1, &c1), TTT_OK);
    assert_int_equal(r0, row0);
    assert_int_equal(c0, col0);
    assert_int_equal(r1, row1);
    assert_int_equal(c1, col1);
    assert_int_equal(ttt_ending(game), TTT_END_LINE);
    ttt_game_free(game);
}

static void test_wins_wide(void **state)
{
    (void)state;
    /* 8 wide, 5 high, K = 4: every direction, away from the corners too. */
    static const int row_x[][2] = {{4, 7}, {4, 5}, {4, 6}, {4, 4}};
    static const int row_o[][2] = {{0, 0}, {0, 1}, {0, 2}};
    check_line(8, 5, 4, row_x, row_o, 4, 4, 4, 7);
    static const int col_x[][2] = {{1, 6}, {2, 6}, {4, 6}, {3, 6}};
    static const int col_o[][2] = {{0, 0}, {0, 1}, {0, 2}};
    check_line(8, 5, 4, col_x, col_o, 1, 6, 4, 6);
    static const int diag_x[][2] = {{1, 4}, {2, 5}, {3, 6}, {4, 7}};
    static const int diag_o[][2] = {{0, 0}, {0, 1}, {0, 2}};
    check_line(8, 5, 4, diag_x, diag_o, 1, 4, 4, 7);
    static const int anti_x[][2] = {{0, 3}, {1, 2}, {3, 0}, {2, 1}};
    static const int anti_o[][2] = {{4, 7}, {4, 6}, {4, 5}};
    check_line(8, 5, 4, anti_x, anti_o, 0, 3, 3, 0);
}

static void test_wins_tall(void **state)
{
    (void)state;
    /* 5 wide, 8 high, K = 4. */
    static const int row_x[][2] = {{7, 1}, {7, 2}, {7, 4}, {7, 3}};
    static const int row_o[][2] = {{0, 0}, {1, 0}, {2, 0}};
    check_line(5, 8, 4, row_x, row_o, 7, 1, 7, 4);
    static const int col_x[][2] = {{7, 4}, {6, 4}, {5, 4}, {4, 4}};
    static const int col_o[][2] = {{0, 0}, {1, 0}, {2, 0}};
    check_line(5, 8, 4, col_x, col_o, 4, 4, 7, 4);
    static const int diag_x[][2] = {{4, 1}, {5, 2}, {7, 4}, {6, 3}};
    static const int diag_o[][2] = {{0, 0}, {1, 0}, {2, 0}};
    check_line(5, 8, 4, diag_x, diag_o, 4, 1, 7, 4);
    static const int anti_x[][2] = {{4, 4}, {5, 3}, {6, 2}, {7, 1}};
    static const int anti_o[][2] = {{0, 0}, {1, 0}, {2, 0}};
    check_line(5, 8, 4, anti_x, anti_o, 4, 4, 7, 1);
}

/* The same four directions under gravity, on Connect Four's board, with
 * ttt_drop: each game's moves are columns. */
static void drop_columns(ttt_game *game, const char *columns, int last_state)
{
    for (const char *p = columns; *p; p++) {
        int st = -1, row = -1;
        assert_int_equal(ttt_drop(game, *p - 'a', &row, &st), TTT_OK);
        assert_int_equal(st, p[1] ? TTT_IN_PROGRESS : last_state);
    }
}

static void test_wins_gravity(void **state)
{
    (void)state;
    static const struct {
        const char *columns;
        int state, r0, c0, r1, c1;
    } games[] = {
        {"ccddeef", TTT_X_WON, 5, 2, 5, 5},     /* X's bottom row c6..f6 */
        {"aabbddgcgc", TTT_O_WON, 4, 0, 4, 3},  /* O's row a5..d5 */
        {"cdcdcdc", TTT_X_WON, 2, 2, 5, 2},     /* X's column c3..c6 */
        /* X: d3, c4, b5, a6: the anti-diagonal, reported from d3 */
        {"abbcdccdgdd", TTT_X_WON, 2, 3, 5, 0},
        /* X: d3, e4, f5, g6: the diagonal (the mirror image) */
        {"gffedeedadd", TTT_X_WON, 2, 3, 5, 6},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        ttt_game *game = new_rect(7, 6, 4, 1);
        drop_columns(game, games[i].columns, games[i].state);
        int r0, c0, r1, c1;
        assert_int_equal(ttt_winning_line(game, &r0, &c0, &r1, &c1), TTT_OK);
        assert_int_equal(r0, games[i].r0);
        assert_int_equal(c0, games[i].c0);
        assert_int_equal(r1, games[i].r1);
        assert_int_equal(c1, games[i].c1);
        ttt_game_free(game);
    }
}

/* ------------------------------------------------------------------------ */
/* K larger than one side                                                    */
/* ------------------------------------------------------------------------ */

static void test_k_past_a_side(void **state)
{
    (void)state;
    /* 7 wide, 3 high, K = 4: full columns and the longest diagonals
     * (three cells) never win; four in a row does. */
    ttt_game *game = new_rect(7, 3, 4, 0);
    play_names(game, "a1,g1,a2,g2,a3,f1"); /* X fills column a */
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    ttt_game_free(game);

    game = new_rect(7, 3, 4, 0);
    /* X: a1, b2, c3 (a whole diagonal: three cells) and column d. */
    play_names(game, "a1,g1,b2,g2,c3,f1,d1,g3,d2,f3,d3");
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_winning_line(game, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    /* Row 2 from a to d: a2 + b2 + c2 + d2 (X has b2 and d2). */
    play_names(game, "e2,a2,f2,c2"); /* O: e2, f2; X: a2, c2 */
    assert_int_equal(ttt_state(game), TTT_X_WON);
    int r0, c0, r1, c1;
    assert_int_equal(ttt_winning_line(game, &r0, &c0, &r1, &c1), TTT_OK);
    assert_int_equal(r0, 1);
    assert_int_equal(c0, 0);
    assert_int_equal(r1, 1);
    assert_int_equal(c1, 3);
    ttt_game_free(game);

    /* 3 wide, 7 high, K = 5: rows never win, a column of five does. */
    game = new_rect(3, 7, 5, 0);
    play_names(game, "a1,a7,b1,b7,c1,c7"); /* X's whole top row: no win */
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    play_names(game, "a2,c6,a3,c5,a4,c4,a5");
    assert_int_equal(ttt_state(game), TTT_X_WON);
    ttt_game_free(game);

    /* K = the longer side on a thin board: only columns of all 9 win; the
     * full board is drawn unless one column is one mark's. */
    game = new_rect(3, 9, 9, 1);
    for (int i = 0; i < 27; i++) {
        int st;
        /* Columns a, b, c in turn: every column alternates marks. */
        assert_int_equal(ttt_drop(game, i % 3, NULL, &st), TTT_OK);
        assert_int_equal(st, i == 26 ? TTT_DRAW : TTT_IN_PROGRESS);
    }
    assert_int_equal(ttt_ending(game), TTT_END_FULL_BOARD);
    ttt_game_free(game);
}

/* Early draw counts only the windows that fit: on 5 x 3 with K = 4 those
 * are two per row, none in columns or diagonals. */
static void test_early_draw_rect(void **state)
{
    (void)state;
    ttt_game *game = new_rect(5, 3, 4, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    /* A row dies once it holds both marks in both its windows (a-d and
     * b-e): b and c lie in both. */
    play_names(game, "b1,c1,b2,c2");
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    play_names(game, "b3"); /* rows 1 and 2 are dead, row 3 holds only X */
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    play_names(game, "c3"); /* the last live windows die */
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_NO_LINE);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_DRAW);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Gravity legality                                                          */
/* ------------------------------------------------------------------------ */

static void test_gravity_legality(void **state)
{
    (void)state;
    ttt_game *game = new_rect(7, 6, 4, 1);
    assert_int_equal(ttt_set_listener(game, count_event, NULL), TTT_OK);
    events_seen = 0;
    observed before;

    /* Empty board: only row 5 (the bottom) is legal. */
    observe(game, &before);
    for (int row = 0; row < 5; row++) {
        for (int col = 0; col < 7; col++) {
            int st = -7;
            assert_int_equal(ttt_play(game, TTT_X, row, col, &st), TTT_E_FLOATING);
            assert_int_equal(st, -7);
            assert_int_equal(ttt_play_next(game, row, col, &st), TTT_E_FLOATING);
            assert_int_equal(ttt_play_at(game, 0, TTT_X, row, col, &st),
                             TTT_E_FLOATING);
            assert_unchanged(game, &before);
        }
    }
    /* The order of checks: turn and board before gravity. */
    assert_int_equal(ttt_play(game, TTT_O, 0, 0, NULL), TTT_E_WRONG_TURN);
    assert_int_equal(ttt_play(game, TTT_X, 6, 0, NULL), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_play(game, TTT_X, 0, 7, NULL), TTT_E_OFF_BOARD);
    assert_unchanged(game, &before);
    assert_int_equal(events_seen, 0);

    /* Fill column d: each landing row in turn, then the column is full. */
    for (int i = 0; i < 6; i++) {
        int row = -1;
        /* The cell above the landing one floats (until the top row). */
        if (i < 5)
            assert_int_equal(ttt_play_next(game, 4 - i, 3, NULL), TTT_E_FLOATING);
        assert_int_equal(ttt_drop(game, 3, &row, NULL), TTT_OK);
        assert_int_equal(row, 5 - i);
        assert_int_equal(events_seen, i + 1);
    }
    observe(game, &before);
    int row = -9, st = -9;
    assert_int_equal(ttt_drop(game, 3, &row, &st), TTT_E_COLUMN_FULL);
    assert_int_equal(row, -9);
    assert_int_equal(st, -9);
    for (int r = 0; r < 6; r++)
        assert_int_equal(ttt_play_next(game, r, 3, NULL), TTT_E_OCCUPIED);
    assert_int_equal(ttt_drop(game, -1, &row, &st), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_drop(game, 7, &row, &st), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_drop(game, INT_MIN, &row, &st), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_drop(NULL, 0, &row, &st), TTT_E_INVALID);
    assert_int_equal(row, -9);
    assert_unchanged(game, &before);
    assert_int_equal(events_seen, 6);

    /* The landing cell of another column is fine through every call. */
    assert_int_equal(ttt_play(game, TTT_X, 5, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 7, TTT_O, 4, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 7, TTT_O, 4, 0, NULL), TTT_OK); /* retry */
    assert_int_equal(ttt_play_next(game, 5, 6, NULL), TTT_OK);
    assert_int_equal(ttt_ply(game), 9);
    assert_int_equal(events_seen, 9);

    /* Game over comes before the column checks. */
    ttt_game_free(game);
    game = new_rect(7, 6, 4, 1);
    drop_columns(game, "aabbccd", TTT_X_WON);
    observe(game, &before);
    assert_int_equal(ttt_drop(game, 0, &row, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_drop(game, 99, &row, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_play_next(game, 3, 0, NULL), TTT_E_GAME_OVER);
    assert_unchanged(game, &before);
    ttt_game_free(game);

    /* Without gravity ttt_drop still drops, and ttt_play takes any cell. */
    game = new_rect(4, 5, 3, 0);
    assert_int_equal(ttt_play_next(game, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_drop(game, 1, &row, NULL), TTT_OK);
    assert_int_equal(row, 4);
    assert_int_equal(ttt_drop(game, 0, &row, NULL), TTT_OK);
    assert_int_equal(row, 4);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ttt_drop(game, 0, &row, NULL), TTT_OK);
    assert_int_equal(row, 1);
    observe(game, &before);
    assert_int_equal(ttt_drop(game, 0, &row, NULL), TTT_E_COLUMN_FULL);
    assert_unchanged(game, &before);
    ttt_game_free(game);
}

static void test_gravity_rule(void **state)
{
    (void)state;
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(3, 3, &game), TTT_OK);
    int value = -1;
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_GRAVITY, &value), TTT_OK);
    assert_int_equal(value, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 2), TTT_E_RULE);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, -1), TTT_E_RULE);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 1), TTT_OK);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_GRAVITY, &value), TTT_OK);
    assert_int_equal(value, 1);
    /* Tic-tac-toe with gravity: the centre is not open at first. */
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_E_FLOATING);
    assert_int_equal(ttt_play_next(game, 2, 1, NULL), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 0), TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_OK);
    /* Reset keeps the rule and empties the columns. */
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_E_FLOATING);
    assert_int_equal(ttt_play_next(game, 2, 1, NULL), TTT_OK);
    /* Turned off again on an empty board, any cell is open. */
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 0), TTT_OK);
    assert_int_equal(ttt_play_next(game, 0, 0, NULL), TTT_OK);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Undo, redo, clone, misère, ply limit, early draw under gravity           */
/* ------------------------------------------------------------------------ */

static void test_gravity_undo_redo(void **state)
{
    (void)state;
    ttt_game *game = new_rect(4, 4, 4, 1);
    drop_columns(game, "aaab", TTT_IN_PROGRESS);
    /* a holds three marks: its landing row is 0. */
    int row = -1;
    assert_int_equal(ttt_undo(game), TTT_OK); /* O's b4 */
    assert_int_equal(ttt_undo(game), TTT_OK); /* X's a2 */
    assert_int_equal(ttt_redo_count(game), 2);
    /* Column a holds a4 and a3 again: a2 lands, a1 floats. */
    assert_int_equal(ttt_play_next(game, 0, 0, NULL), TTT_E_FLOATING);
    assert_int_equal(ttt_redo_count(game), 2); /* a rejected move keeps it */
    assert_int_equal(ttt_play_next(game, 3, 1, NULL), TTT_OK); /* X b4 */
    assert_int_equal(ttt_redo_count(game), 0); /* a new move empties it */
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_drop(game, 0, &row, NULL), TTT_OK);
    assert_int_equal(row, 1);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_E_NO_UNDO);
    assert_int_equal(ttt_redo_count(game), 3);
    /* On the empty board only the bottom row is open. */
    assert_int_equal(ttt_play_next(game, 2, 0, NULL), TTT_E_FLOATING);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(ttt_redo(game), TTT_E_NO_REDO);
    char record[128];
    size_t len;
    assert_int_equal(ttt_game_save(game, record, sizeof record, &len), TTT_OK);
    assert_string_equal(record, "ttt/1 n=4 k=4 rules=gravity moves=a4,a3,a2\n");
    /* Undo past a win reopens the game, redo wins again: O fills column
     * b (b4..b1) while X stacks c. */
    drop_columns(game, "bcbcbcb", TTT_O_WON);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_play_next(game, 2, 3, NULL), TTT_E_FLOATING);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_O_WON);
    ttt_game_free(game);
}

static void test_gravity_clone(void **state)
{
    (void)state;
    ttt_game *game = new_rect(5, 4, 3, 1);
    drop_columns(game, "ccb", TTT_IN_PROGRESS);
    assert_int_equal(ttt_undo(game), TTT_OK);
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
    int value = -1, row = -1;
    assert_int_equal(ttt_game_get_rule(copy, TTT_RULE_GRAVITY, &value), TTT_OK);
    assert_int_equal(value, 1);
    assert_int_equal(ttt_redo_count(copy), 1);
    assert_int_equal(ttt_drop(copy, 2, &row, NULL), TTT_OK);
    assert_int_equal(row, 1);
    assert_int_equal(ttt_play_next(copy, 2, 1, NULL), TTT_E_FLOATING);
    /* The original is untouched: its redo still replays b4. */
    assert_int_equal(ttt_redo(game), TTT_OK);
    int mark = 0;
    assert_int_equal(ttt_cell(game, 3, 1, &mark), TTT_OK);
    assert_int_equal(mark, TTT_X);
    assert_int_equal(ttt_cell(game, 1, 2, &mark), TTT_OK);
    assert_int_equal(mark, TTT_EMPTY);
    ttt_game_free(copy);
    ttt_game_free(game);
}

static void test_gravity_with_rules(void **state)
{
    (void)state;
    /* Misère: X's four in the bottom row loses. */
    ttt_game *game = new_rect(7, 6, 4, 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_OK);
    drop_columns(game, "aabbccd", TTT_O_WON);
    ttt_game_free(game);

    /* Ply limit 5. */
    game = new_rect(7, 6, 4, 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 5), TTT_OK);
    drop_columns(game, "abcde", TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_PLY_LIMIT);
    ttt_game_free(game);

    /* Early draw on 4 x 4, K = 4, gravity: on the 12th move every line
     * holds both marks (found by a separate brute-force script; the
     * random differential test checks many more against its model). */
    game = new_rect(4, 4, 4, 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    drop_columns(game, "bccaaddacacb", TTT_DRAW);
    assert_int_equal(ttt_ply(game), 12);
    assert_int_equal(ttt_ending(game), TTT_END_NO_LINE);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Legal moves, random moves and playouts under gravity                      */
/* ------------------------------------------------------------------------ */

static void test_gravity_legal_moves(void **state)
{
    (void)state;
    ttt_game *game = new_rect(5, 4, 3, 1);
    int32_t cells[20];
    size_t len = 0;
    assert_int_equal(ttt_legal_moves(game, cells, 20, &len), TTT_OK);
    assert_int_equal(len, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cells[i], 15 + i);
    /* Column e full, column a two high, b one: landing cells in ascending
     * cell order (higher rows first). */
    drop_columns(game, "eeeeaab", TTT_IN_PROGRESS);
    assert_int_equal(ttt_legal_moves(game, cells, 20, &len), TTT_OK);
    static const int32_t want[] = {1 * 5 + 0, 2 * 5 + 1, 3 * 5 + 2, 3 * 5 + 3};
    assert_int_equal(len, 4);
    assert_memory_equal(cells, want, sizeof want);
    int32_t small[3] = {-1, -1, -1};
    assert_int_equal(ttt_legal_moves(game, small, 3, &len), TTT_E_BUFFER);
    assert_int_equal(len, 4);
    assert_int_equal(small[0], -1);
    ttt_game_free(game);
}

static void test_gravity_random_move(void **state)
{
    (void)state;
    ttt_game *game = new_rect(7, 6, 4, 1);
    /* Columns a and g full, without a line. */
    drop_columns(game, "aaaaaagggggg", TTT_IN_PROGRESS);
    int counts[7] = {0};
    uint64_t seed = 12345;
    for (int i = 0; i < 5000; i++) {
        int row = -1, col = -1;
        assert_int_equal(ttt_random_move(game, &seed, &row, &col), TTT_OK);
        assert_true(col >= 1 && col <= 5);
        assert_int_equal(row, 5);
        counts[col]++;
    }
    /* Uniform among the five open columns: about 1000 each (the seed is
     * fixed, so this cannot flake). */
    assert_int_equal(counts[0] + counts[6], 0);
    for (int c = 1; c <= 5; c++)
        assert_true(counts[c] > 850 && counts[c] < 1150);
    /* The documented draw: one number below the open-column count, by
     * Lemire's method (with this seed no redraw occurs). */
    uint64_t mine = 777, theirs = 777;
    for (int i = 0; i < 100; i++) {
        int row, col;
        assert_int_equal(ttt_random_move(game, &theirs, &row, &col), TTT_OK);
        /* splitmix64 + Lemire, as the header spells out */
        uint64_t z = (mine += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        z ^= z >> 31;
        /* high 64 bits of z * 5: z * 5 / 2^64, computed in pieces */
        uint64_t hi = ((z >> 32) * 5 + (((z & 0xffffffffu) * 5) >> 32)) >> 32;
        assert_int_equal(col, 1 + (int)hi);
        assert_int_equal(mine, theirs);
    }
    ttt_game_free(game);
}

/* A playout under gravity plays only legal moves: replaying its history
 * with ttt_play on a fresh game gives the same board and state. */
static void test_gravity_random_playout(void **state)
{
    (void)state;
    for (uint64_t s = 0; s < 200; s++) {
        ttt_game *game = new_rect(7, 6, 4, 1);
        if (s % 3 == 1)
            assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
        if (s % 3 == 2)
            assert_int_equal(ttt_set_listener(game, count_event, NULL), TTT_OK);
        uint64_t seed = s;
        int st = -1;
        assert_int_equal(ttt_random_playout(game, &seed, &st), TTT_OK);
        assert_true(st != TTT_IN_PROGRESS);
        ttt_game *replay = new_rect(7, 6, 4, 1);
        if (s % 3 == 1)
            assert_int_equal(ttt_game_set_rule(replay, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
        for (int ply = 0; ply < ttt_ply(game); ply++) {
            int mark, row, col;
            assert_int_equal(ttt_move_at(game, ply, &mark, &row, &col), TTT_OK);
            assert_int_equal(ttt_play(replay, mark, row, col, NULL), TTT_OK);
        }
        assert_int_equal(ttt_state(replay), st);
        ttt_game_free(replay);

        /* The batch call agrees with one game on a copy. */
        ttt_game *fresh = new_rect(7, 6, 4, 1);
        if (s % 3 == 1)
            assert_int_equal(ttt_game_set_rule(fresh, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
        uint64_t batch_seed = s, results[4] = {9, 9, 9, 9};
        assert_int_equal(ttt_random_playouts(fresh, &batch_seed, 1, results), TTT_OK);
        assert_int_equal(results[st], 1);
        assert_int_equal(batch_seed, seed);
        assert_int_equal(ttt_ply(fresh), 0);
        ttt_game_free(fresh);
        ttt_game_free(game);
    }
}

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

static void test_records_round_trip(void **state)
{
    (void)state;
    ttt_game *game = new_rect(7, 6, 4, 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_OK);
    drop_columns(game, "dddc", TTT_IN_PROGRESS);
    assert_int_equal(ttt_game_set_name(game, TTT_X, "Ann", 3), TTT_OK);
    char record[256], again[256];
    size_t len, again_len;
    assert_int_equal(ttt_game_save(game, record, sizeof record, &len), TTT_OK);
    assert_string_equal(record,
                        "ttt/1 w=7 h=6 k=4 rules=misere+gravity moves=d6,d5,d4,c6 x=\"Ann\"\n");
    ttt_game *loaded = NULL;
    assert_int_equal(ttt_game_load(record, len, NULL, &loaded, NULL), TTT_OK);
    assert_int_equal(ttt_game_save(loaded, again, sizeof again, &again_len), TTT_OK);
    assert_string_equal(again, record);
    /* The loaded game plays on under gravity. */
    assert_int_equal(ttt_play_next(loaded, 2, 3, NULL), TTT_OK);
    assert_int_equal(ttt_play_next(loaded, 0, 3, NULL), TTT_E_FLOATING);
    ttt_game_free(loaded);
    ttt_game_free(game);

    /* A floating move in a record: TTT_E_FLOATING at its name. */
    static const char bad[] = "ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d4\n";
    size_t at = 0;
    loaded = NULL;
    assert_int_equal(ttt_game_load(bad, sizeof bad - 1, NULL, &loaded, &at),
                     TTT_E_FLOATING);
    assert_null(loaded);
    assert_int_equal(at, 41);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constructors),
        cmocka_unit_test(test_allocator_and_caller_memory),
        cmocka_unit_test(test_wins_wide),
        cmocka_unit_test(test_wins_tall),
        cmocka_unit_test(test_wins_gravity),
        cmocka_unit_test(test_k_past_a_side),
        cmocka_unit_test(test_early_draw_rect),
        cmocka_unit_test(test_gravity_legality),
        cmocka_unit_test(test_gravity_rule),
        cmocka_unit_test(test_gravity_undo_redo),
        cmocka_unit_test(test_gravity_clone),
        cmocka_unit_test(test_gravity_with_rules),
        cmocka_unit_test(test_gravity_legal_moves),
        cmocka_unit_test(test_gravity_random_move),
        cmocka_unit_test(test_gravity_random_playout),
        cmocka_unit_test(test_records_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
