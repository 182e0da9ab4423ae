/* test_rules.c - the rules of the game: wins on every line, K < N runs, draws, early draw and misère. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

#define MAXN 16

typedef struct cell {
    int r;
    int c;
} cell;

static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    assert_non_null(g);
    return g;
}

static ttt_game *new_game_rules(int n, int k, int misere, int early)
{
    ttt_game *g = new_game(n, k);
    int v = -1;
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, early), TTT_OK);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &v), TTT_OK);
    assert_int_equal(v, misere);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &v), TTT_OK);
    assert_int_equal(v, early);
    return g;
}

/* Plays the side to move at (r, c); checks the status and that the state
 * written back matches ttt_state. Returns the new state. */
static int play(ttt_game *g, int r, int c)
{
    int st = -100;
    int mark = ttt_to_move(g);
    int ply = ttt_ply(g);
    int got = -100;
    assert_true(mark == TTT_X || mark == TTT_O);
    assert_int_equal(ttt_play(g, mark, r, c, &st), TTT_OK);
    assert_int_equal(st, ttt_state(g));
    assert_int_equal(ttt_ply(g), ply + 1);
    assert_int_equal(ttt_cell(g, r, c, &got), TTT_OK);
    assert_int_equal(got, mark);
    return st;
}

/* Plays cells in order; every move but the last must leave the game in
 * progress. Returns the state after the last move. */
static int play_seq(ttt_game *g, const cell *seq, int count)
{
    int st = TTT_IN_PROGRESS;
    for (int i = 0; i < count; i++) {
        assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
        st = play(g, seq[i].r, seq[i].c);
        if (i + 1 < count) {
            assert_int_equal(st, TTT_IN_PROGRESS);
        }
    }
    return st;
}

/* Naive check: does mark hold k in a row anywhere on the n x n board b? */
static int has_line(const int8_t *b, int n, int k, int mark)
{
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            for (int d = 0; d < 4; d++) {
                int i = 0;
                for (; i < k; i++) {
                    int rr = r + i * dirs[d][0];
                    int cc = c + i * dirs[d][1];
                    if (rr < 0 || rr >= n || cc < 0 || cc >= n ||
                        b[rr * n + cc] != mark) {
                        break;
                    }
                }
                if (i == k) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

static int cell_less(int r0, int c0, int r1, int c1)
{
    return r0 < r1 || (r0 == r1 && c0 < c1);
}

/* Checks that the winning line's ends are exactly {a, b} (either order). */
static void assert_line_ends(const ttt_game *g, cell a, cell b)
{
    int r0 = -7, c0 = -7, r1 = -7, c1 = -7;
    assert_int_equal(ttt_winning_line(g, &r0, &c0, &r1, &c1), TTT_OK);
    if (cell_less(r1, c1, r0, c0)) {
        int t = r0;
        r0 = r1;
        r1 = t;
        t = c0;
        c0 = c1;
        c1 = t;
    }
    if (cell_less(b.r, b.c, a.r, a.c)) {
        cell t = a;
        a = b;
        b = t;
    }
    assert_int_equal(r0, a.r);
    assert_int_equal(c0, a.c);
    assert_int_equal(r1, b.r);
    assert_int_equal(c1, b.c);
}

/* Checks the reported line is a run of at least k marks in direction d
 * (0 row, 1 column, 2 diagonal, 3 anti-diagonal) through last, all of the
 * given mark. */
static void assert_line_through(const ttt_game *g, int d, cell last, int mark)
{
    int r0 = -7, c0 = -7, r1 = -7, c1 = -7;
    int k = ttt_win_length(g);
    assert_int_equal(ttt_winning_line(g, &r0, &c0, &r1, &c1), TTT_OK);
    /* orient so that (r1, c1) = (r0, c0) + len * dir */
    int dr = r1 - r0, dc = c1 - c0;
    if (dr < 0 || (dr == 0 && dc < 0)) {
        int t = r0;
        r0 = r1;
        r1 = t;
        t = c0;
        c0 = c1;
        c1 = t;
        dr = -dr;
        dc = -dc;
    }
    int len = (dr > (dc < 0 ? -dc : dc) ? dr : (dc < 0 ? -dc : dc)) + 1;
    assert_true(len >= k);
    assert_int_equal(dr, (len - 1) * dirs[d][0]);
    assert_int_equal(dc, (len - 1) * dirs[d][1]);
    int through = 0;
    for (int i = 0; i < len; i++) {
        int r = r0 + i * dirs[d][0], c = c0 + i * dirs[d][1];
        int m = -100;
        assert_int_equal(ttt_cell(g, r, c, &m), TTT_OK);
        assert_int_equal(m, mark);
        if (r == last.r && c == last.c) {
            through = 1;
        }
    }
    assert_true(through);
}

/*
 * Plays a game where `winner` places exactly the cells of `mine` in order
 * (the last one completes the line) and the other side fills in with cells
 * chosen greedily in row-major order, off `mine`, never giving it k in a
 * row. Every move before the last must leave the game in progress. Returns
 * the final state.
 */
static int play_with_filler(ttt_game *g, int winner, const cell *mine, int count)
{
    int n = ttt_size(g), k = ttt_win_length(g);
    int8_t reserved[MAXN * MAXN];
    int8_t other[MAXN * MAXN];
    int loser = -winner;
    int next_mine = 0;
    int scan = 0;
    int st = TTT_IN_PROGRESS;

    assert_true(n <= MAXN);
    memset(reserved, 0, sizeof reserved);
    memset(other, 0, sizeof other);
    for (int i = 0; i < count; i++) {
        reserved[mine[i].r * n + mine[i].c] = 1;
    }
    while (next_mine < count) {
        assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
        if (ttt_to_move(g) == winner) {
            st = play(g, mine[next_mine].r, mine[next_mine].c);
            next_mine++;
        } else {
            assert_int_equal(ttt_to_move(g), loser);
            int chosen = -1;
            for (; scan < n * n; scan++) {
                if (reserved[scan]) {
                    continue;
                }
                other[scan] = (int8_t)loser;
                if (has_line(other, n, k, loser)) {
                    other[scan] = 0;
                    continue;
                }
                chosen = scan++;
                break;
            }
            assert_true(chosen >= 0);
            reserved[chosen] = 1;
            st = play(g, chosen / n, chosen % n);
        }
        if (next_mine < count) {
            assert_int_equal(st, TTT_IN_PROGRESS);
        }
    }
    return st;
}

static int won_state(int mark)
{
    return mark == TTT_X ? TTT_X_WON : TTT_O_WON;
}

/* Builds line number `idx` of an n x n board with k = n: rows 0..n-1, then
 * columns, then the diagonal and the anti-diagonal. */
static int full_line(int n, int idx, cell *out)
{
    for (int i = 0; i < n; i++) {
        if (idx < n) {
            out[i].r = idx;
            out[i].c = i;
        } else if (idx < 2 * n) {
            out[i].r = i;
            out[i].c = idx - n;
        } else if (idx == 2 * n) {
            out[i].r = i;
            out[i].c = i;
        } else {
            out[i].r = i;
            out[i].c = n - 1 - i;
        }
    }
    return n;
}

/* Every row, column and both diagonals win for X and for O, whichever cell
 * of the line is placed last. */
static void check_full_lines(int n)
{
    cell line[MAXN], order[MAXN];
    for (int idx = 0; idx < 2 * n + 2; idx++) {
        full_line(n, idx, line);
        for (int w = 0; w < 2; w++) {
            int winner = w == 0 ? TTT_X : TTT_O;
            for (int last = 0; last < n; last++) {
                int j = 0;
                for (int i = 0; i < n; i++) {
                    if (i != last) {
                        order[j++] = line[i];
                    }
                }
                order[j] = line[last];
                ttt_game *g = new_game(n, 0);
                assert_int_equal(ttt_win_length(g), n);
                int st = play_with_filler(g, winner, order, n);
                assert_int_equal(st, won_state(winner));
                assert_int_equal(ttt_state(g), won_state(winner));
                assert_int_equal(ttt_to_move(g), TTT_EMPTY);
                assert_int_equal(ttt_ply(g), winner == TTT_X ? 2 * n - 1 : 2 * n);
                assert_line_ends(g, line[0], line[n - 1]);
                ttt_game_free(g);
            }
        }
    }
}

static void test_full_lines_3x3(void **state)
{
    (void)state;
    check_full_lines(3);
}

static void test_full_lines_4x4(void **state)
{
    (void)state;
    check_full_lines(4);
}

static void test_full_lines_5x5(void **state)
{
    (void)state;
    check_full_lines(5);
}

static void test_full_lines_6x6(void **state)
{
    (void)state;
    check_full_lines(6);
}

/* The centre of an odd board is on both diagonals. */
static void test_centre_completes_diagonal(void **state)
{
    (void)state;
    for (int n = 3; n <= 7; n += 2) {
        int m = n / 2;
        cell diag[MAXN], anti[MAXN];
        int j = 0;
        for (int i = 0; i < n; i++) {
            if (i != m) {
                diag[j].r = i;
                diag[j].c = i;
                anti[j].r = i;
                anti[j].c = n - 1 - i;
                j++;
            }
        }
        diag[j].r = diag[j].c = m;
        anti[j].r = anti[j].c = m;
        for (int w = 0; w < 2; w++) {
            int winner = w == 0 ? TTT_X : TTT_O;
            ttt_game *g = new_game(n, n);
            assert_int_equal(play_with_filler(g, winner, diag, n), won_state(winner));
            assert_line_ends(g, (cell){0, 0}, (cell){n - 1, n - 1});
            ttt_game_free(g);

            g = new_game(n, n);
            assert_int_equal(play_with_filler(g, winner, anti, n), won_state(winner));
            assert_line_ends(g, (cell){0, n - 1}, (cell){n - 1, 0});
            ttt_game_free(g);
        }
    }
}

/* The centre completes both diagonals at once on the last free cell: X wins
 * (not a draw) and the diagonal is reported before the anti-diagonal. */
static void test_centre_completes_both_on_last_cell(void **state)
{
    (void)state;
    static const cell seq[] = {
        {0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 0}, {1, 2}, {2, 2}, {2, 1}, {1, 1},
    };
    ttt_game *g = new_game(3, 3);
    assert_int_equal(play_seq(g, seq, 9), TTT_X_WON);
    assert_int_equal(ttt_ply(g), 9);
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    assert_line_ends(g, (cell){0, 0}, (cell){2, 2});
    ttt_game_free(g);
}

/* When a move completes a row and a column, the row is reported; column
 * before diagonal; diagonal before anti-diagonal. */
static void test_line_report_order(void **state)
{
    (void)state;
    /* 3x3: X's fifth move completes row 1 and column 1 on the last cell. */
    static const cell rowcol[] = {
        {1, 0}, {0, 0}, {1, 2}, {0, 2}, {0, 1}, {2, 0}, {2, 1}, {2, 2}, {1, 1},
    };
    ttt_game *g = new_game(3, 0);
    assert_int_equal(play_seq(g, rowcol, 9), TTT_X_WON);
    assert_line_ends(g, (cell){1, 0}, (cell){1, 2});
    ttt_game_free(g);

    /* 7x7, K=4: row and column through (3,3). */
    static const cell rc[] = {{3, 0}, {3, 1}, {3, 2}, {0, 3}, {1, 3}, {2, 3}, {3, 3}};
    g = new_game(7, 4);
    assert_int_equal(play_with_filler(g, TTT_X, rc, 7), TTT_X_WON);
    assert_line_ends(g, (cell){3, 0}, (cell){3, 3});
    ttt_game_free(g);

    /* 7x7, K=4: column, diagonal and anti-diagonal through (3,3). */
    static const cell cda[] = {{0, 3}, {1, 3}, {2, 3}, {0, 0}, {1, 1}, {2, 2},
                               {0, 6}, {1, 5}, {2, 4}, {3, 3}};
    g = new_game(7, 4);
    assert_int_equal(play_with_filler(g, TTT_O, cda, 10), TTT_O_WON);
    assert_line_ends(g, (cell){0, 3}, (cell){3, 3});
    ttt_game_free(g);

    /* 7x7, K=4: diagonal and anti-diagonal through (3,3). */
    static const cell da[] = {{0, 0}, {1, 1}, {2, 2}, {0, 6}, {1, 5}, {2, 4}, {3, 3}};
    g = new_game(7, 4);
    assert_int_equal(play_with_filler(g, TTT_X, da, 7), TTT_X_WON);
    assert_line_ends(g, (cell){0, 0}, (cell){3, 3});
    ttt_game_free(g);
}

/* K < N: a gap in the run does not win; filling it does. */
static void test_gap_does_not_win(void **state)
{
    (void)state;
    /* 9x9, K=5: X at c5 d5 f5 g5, then e5. */
    static const cell seq[] = {{4, 2}, {4, 3}, {4, 5}, {4, 6}, {4, 4}};
    ttt_game *g = new_game(9, 5);
    int st = play_with_filler(g, TTT_X, seq, 4);
    assert_int_equal(st, TTT_IN_PROGRESS);
    /* O replies somewhere harmless; still no win. */
    assert_int_equal(play(g, 8, 8), TTT_IN_PROGRESS);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    assert_int_equal(play(g, 4, 4), TTT_X_WON);
    assert_line_ends(g, seq[0], seq[3]);
    ttt_game_free(g);

    /* The gap held by the other mark never wins: X X O X X. */
    g = new_game(9, 5);
    static const cell xs[] = {{2, 0}, {2, 1}, {2, 3}, {2, 4}, {2, 5}};
    assert_int_equal(play(g, 2, 0), TTT_IN_PROGRESS);
    assert_int_equal(play(g, 2, 2), TTT_IN_PROGRESS); /* O in the gap */
    for (int i = 1; i < 5; i++) {
        assert_int_equal(play(g, xs[i].r, xs[i].c), TTT_IN_PROGRESS);
        assert_int_equal(play(g, 8, 2 * i), TTT_IN_PROGRESS);
    }
    ttt_game_free(g);
}

/* K < N: K in a row wins in all four directions, in the middle and at the
 * edges, for X and for O, whichever cell comes last. */
static void test_k_runs_all_directions(void **state)
{
    (void)state;
    static const struct {
        int n, k, r, c, d;
    } runs[] = {
        {9, 5, 2, 2, 0}, {9, 5, 3, 1, 1}, {9, 5, 1, 2, 2}, {9, 5, 1, 7, 3},
        {9, 5, 0, 0, 0}, {9, 5, 8, 4, 0}, {9, 5, 0, 0, 1}, {9, 5, 4, 8, 1},
        {9, 5, 0, 0, 2}, {9, 5, 4, 4, 2}, {9, 5, 0, 8, 3}, {9, 5, 4, 4, 3},
        {9, 5, 4, 0, 2}, {9, 5, 0, 4, 3}, {4, 3, 1, 3, 3}, {5, 3, 2, 2, 2},
        {6, 4, 2, 5, 1}, {8, 3, 7, 5, 0}, {7, 6, 1, 0, 2}, {7, 6, 0, 6, 3},
    };
    for (size_t t = 0; t < sizeof runs / sizeof runs[0]; t++) {
        int n = runs[t].n, k = runs[t].k, d = runs[t].d;
        cell line[MAXN], order[MAXN];
        for (int i = 0; i < k; i++) {
            line[i].r = runs[t].r + i * dirs[d][0];
            line[i].c = runs[t].c + i * dirs[d][1];
        }
        for (int w = 0; w < 2; w++) {
            int winner = w == 0 ? TTT_X : TTT_O;
            for (int last = 0; last < k; last++) {
                int j = 0;
                for (int i = 0; i < k; i++) {
                    if (i != last) {
                        order[j++] = line[i];
                    }
                }
                order[j] = line[last];
                ttt_game *g = new_game(n, k);
                assert_int_equal(play_with_filler(g, winner, order, k), won_state(winner));
                assert_int_equal(ttt_to_move(g), TTT_EMPTY);
                assert_line_ends(g, line[0], line[k - 1]);
                ttt_game_free(g);
            }
        }
    }
}

/* K < N: an overline (more than K) wins too; the reported line runs through
 * the last move, holds only the winner's marks and is at least K long. */
static void test_overline_wins(void **state)
{
    (void)state;
    /* 9x9, K=5: X X X _ X X then the gap: six in a row. */
    static const cell row6[] = {{4, 0}, {4, 1}, {4, 2}, {4, 4}, {4, 5}, {4, 3}};
    ttt_game *g = new_game(9, 5);
    assert_int_equal(play_with_filler(g, TTT_X, row6, 6), TTT_X_WON);
    assert_line_through(g, 0, row6[5], TTT_X);
    ttt_game_free(g);

    /* The whole main diagonal of 9x9 with the centre last: nine in a row. */
    cell diag[9];
    int j = 0;
    for (int i = 0; i < 9; i++) {
        if (i != 4) {
            diag[j].r = diag[j].c = i;
            j++;
        }
    }
    /* Play it as two runs of four that meet at the centre. */
    diag[8].r = diag[8].c = 4;
    g = new_game(9, 5);
    assert_int_equal(play_with_filler(g, TTT_O, diag, 9), TTT_O_WON);
    assert_line_through(g, 2, diag[8], TTT_O);
    ttt_game_free(g);

    /* An anti-diagonal six on 8x8, K=5, closed in its middle. */
    static const cell anti6[] = {{1, 6}, {2, 5}, {4, 3}, {5, 2}, {6, 1}, {3, 4}};
    g = new_game(8, 5);
    assert_int_equal(play_with_filler(g, TTT_X, anti6, 6), TTT_X_WON);
    assert_line_through(g, 3, anti6[5], TTT_X);
    ttt_game_free(g);
}

/* A full 3x3 board with no line is a draw; 4x4 as well. */
static void test_draw(void **state)
{
    (void)state;
    /* X O X / X O O / O X X */
    static const cell seq[] = {
        {0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {2, 2},
    };
    ttt_game *g = new_game(3, 3);
    assert_int_equal(play_seq(g, seq, 9), TTT_DRAW);
    assert_int_equal(ttt_state(g), TTT_DRAW);
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    assert_int_equal(ttt_ply(g), 9);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    ttt_game_free(g);

    /* 4x4, K=4: rows X X O O / O O X X / X X O O / O O X X with no line. */
    static const cell seq4[] = {
        {0, 0}, {0, 2}, {0, 1}, {0, 3}, {1, 2}, {1, 0}, {1, 3}, {1, 1},
        {2, 0}, {2, 2}, {2, 1}, {2, 3}, {3, 2}, {3, 0}, {3, 3}, {3, 1},
    };
    g = new_game(4, 0);
    assert_int_equal(play_seq(g, seq4, 16), TTT_DRAW);
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    ttt_game_free(g);
}

/* The move that fills the last cell and completes a line wins. */
static void test_win_on_last_cell(void **state)
{
    (void)state;
    /* O X O / X X X / X O O: X's row 1 on move nine. */
    static const cell seq[] = {
        {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 0}, {2, 1}, {1, 0}, {0, 0}, {1, 1},
    };
    ttt_game *g = new_game(3, 3);
    int st = play_seq(g, seq, 9);
    assert_int_equal(st, TTT_X_WON);
    assert_int_equal(ttt_state(g), TTT_X_WON);
    assert_int_equal(ttt_ply(g), 9);
    assert_line_ends(g, (cell){1, 0}, (cell){1, 2});
    ttt_game_free(g);
}

/* Undo after a win or a draw reopens the game with the right side to move;
 * replaying the move ends it the same way. */
static void test_undo_after_end(void **state)
{
    (void)state;
    static const cell win[] = {
        {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 0}, {2, 1}, {1, 0}, {0, 0}, {1, 1},
    };
    ttt_game *g = new_game(3, 3);
    assert_int_equal(play_seq(g, win, 9), TTT_X_WON);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_X);
    assert_int_equal(ttt_ply(g), 8);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    int m = -100;
    assert_int_equal(ttt_cell(g, 1, 1, &m), TTT_OK);
    assert_int_equal(m, TTT_EMPTY);
    assert_int_equal(play(g, 1, 1), TTT_X_WON);
    assert_line_ends(g, (cell){1, 0}, (cell){1, 2});
    ttt_game_free(g);

    /* O wins, undo: O to move again. */
    static const cell owin[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 2}, {1, 2}};
    g = new_game(3, 3);
    assert_int_equal(play_seq(g, owin, 6), TTT_O_WON);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_O);
    assert_int_equal(play(g, 1, 2), TTT_O_WON);
    ttt_game_free(g);

    static const cell draw[] = {
        {0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {2, 2},
    };
    g = new_game(3, 3);
    assert_int_equal(play_seq(g, draw, 9), TTT_DRAW);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_X);
    assert_int_equal(ttt_ply(g), 8);
    assert_int_equal(play(g, 2, 2), TTT_DRAW);
    ttt_game_free(g);
}

/* Misère: completing a line loses; the losing line is reported. */
static void test_misere(void **state)
{
    (void)state;
    /* X completes row 0. */
    static const cell xrow[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
    ttt_game *g = new_game_rules(3, 3, 1, 0);
    assert_int_equal(play_seq(g, xrow, 5), TTT_O_WON);
    assert_int_equal(ttt_state(g), TTT_O_WON);
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    assert_line_ends(g, (cell){0, 0}, (cell){0, 2});
    ttt_game_free(g);

    /* O completes column 2. */
    static const cell ocol[] = {{0, 0}, {0, 2}, {1, 0}, {1, 2}, {2, 1}, {2, 2}};
    g = new_game_rules(3, 3, 1, 0);
    assert_int_equal(play_seq(g, ocol, 6), TTT_X_WON);
    assert_line_ends(g, (cell){0, 2}, (cell){2, 2});
    ttt_game_free(g);

    /* On the last cell: X completes row 1 with move nine and loses. */
    static const cell last[] = {
        {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 0}, {2, 1}, {1, 0}, {0, 0}, {1, 1},
    };
    g = new_game_rules(3, 3, 1, 0);
    assert_int_equal(play_seq(g, last, 9), TTT_O_WON);
    assert_line_ends(g, (cell){1, 0}, (cell){1, 2});
    ttt_game_free(g);

    /* A full board with no line is still a draw. */
    static const cell draw[] = {
        {0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {2, 2},
    };
    g = new_game_rules(3, 3, 1, 0);
    assert_int_equal(play_seq(g, draw, 9), TTT_DRAW);
    ttt_game_free(g);

    /* K < N: X's four on 7x7 K=4 loses; undo reopens. */
    static const cell diag4[] = {{1, 2}, {2, 3}, {4, 5}, {3, 4}};
    g = new_game_rules(7, 4, 1, 0);
    assert_int_equal(play_with_filler(g, TTT_X, diag4, 4), TTT_O_WON);
    assert_line_ends(g, (cell){1, 2}, (cell){4, 5});
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), TTT_X);
    ttt_game_free(g);
}

/* Early draw, 3x3: every line holds both marks after move eight. */
static const cell early3[] = {
    {1, 0}, {2, 0}, {1, 1}, {0, 0}, {0, 2}, {1, 2}, {2, 1}, {0, 1},
};
/* Early draw, 4x4 K=4, after move eight. */
static const cell early4[] = {
    {1, 2}, {1, 0}, {2, 3}, {2, 1}, {0, 0}, {3, 3}, {3, 1}, {0, 2},
};
/* Early draw, 5x5 K=4, after move twenty (five cells still empty). */
static const cell early5[] = {
    {3, 2}, {1, 1}, {0, 4}, {1, 2}, {4, 2}, {2, 3}, {2, 1}, {2, 2}, {3, 4}, {1, 4},
    {4, 4}, {4, 3}, {2, 0}, {3, 1}, {3, 3}, {0, 2}, {0, 0}, {0, 1}, {1, 3}, {3, 0},
};

static void check_early_draw(int n, int k, const cell *seq, int count)
{
    /* With the rule: drawn at exactly this ply. */
    ttt_game *g = new_game_rules(n, k, 0, 1);
    assert_int_equal(play_seq(g, seq, count), TTT_DRAW);
    assert_int_equal(ttt_ply(g), count);
    assert_true(count < n * n);
    assert_int_equal(ttt_to_move(g), TTT_EMPTY);
    assert_int_equal(ttt_winning_line(g, NULL, NULL, NULL, NULL), TTT_E_NO_LINE);
    int st = -100;
    int mover = count % 2 == 0 ? TTT_X : TTT_O;
    int r = -1, c = -1;
    for (int i = 0; i < n * n && r < 0; i++) {
        int m = -100;
        assert_int_equal(ttt_cell(g, i / n, i % n, &m), TTT_OK);
        if (m == TTT_EMPTY) {
            r = i / n;
            c = i % n;
        }
    }
    assert_true(r >= 0);
    assert_int_equal(ttt_play(g, mover, r, c, &st), TTT_E_GAME_OVER);
    assert_int_equal(st, -100);

    /* Undo reopens the game; redo draws it again. */
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), count % 2 == 0 ? TTT_O : TTT_X);
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_int_equal(ttt_state(g), TTT_DRAW);
    assert_int_equal(ttt_ply(g), count);
    ttt_game_free(g);

    /* Without the rule: still in progress. */
    g = new_game_rules(n, k, 0, 0);
    assert_int_equal(play_seq(g, seq, count), TTT_IN_PROGRESS);
    assert_int_equal(ttt_to_move(g), mover);
    assert_int_equal(play(g, r, c), count + 1 == n * n ? TTT_DRAW : TTT_IN_PROGRESS);
    ttt_game_free(g);
}

static void test_early_draw_3x3(void **state)
{
    (void)state;
    check_early_draw(3, 3, early3, 8);
}

static void test_early_draw_4x4(void **state)
{
    (void)state;
    check_early_draw(4, 4, early4, 8);
}

static void test_early_draw_k_less_than_n(void **state)
{
    (void)state;
    check_early_draw(5, 4, early5, 20);
}

/* The early-draw rule leaves wins alone: a line that is still open can be
 * completed, on the last cell too. */
static void test_early_draw_win_first(void **state)
{
    (void)state;
    static const cell seq[] = {
        {0, 1}, {0, 2}, {1, 2}, {2, 2}, {2, 0}, {2, 1}, {1, 0}, {0, 0}, {1, 1},
    };
    ttt_game *g = new_game_rules(3, 3, 0, 1);
    /* After eight moves row 1 (X . X) and the diagonal (O . O) are open. */
    assert_int_equal(play_seq(g, seq, 9), TTT_X_WON);
    ttt_game_free(g);
}

/* Rules are read back and a reset game keeps them. */
static void test_rules_kept_by_reset(void **state)
{
    (void)state;
    ttt_game *g = new_game_rules(3, 3, 1, 1);
    assert_int_equal(play(g, 0, 0), TTT_IN_PROGRESS);
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    int v = -1;
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &v), TTT_OK);
    assert_int_equal(v, 1);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &v), TTT_OK);
    assert_int_equal(v, 1);
    static const cell xrow[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
    assert_int_equal(play_seq(g, xrow, 5), TTT_O_WON);
    /* After reset the rules may change again. */
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, 0), TTT_OK);
    assert_int_equal(play_seq(g, xrow, 5), TTT_X_WON);
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_lines_3x3),
        cmocka_unit_test(test_full_lines_4x4),
        cmocka_unit_test(test_full_lines_5x5),
        cmocka_unit_test(test_full_lines_6x6),
        cmocka_unit_test(test_centre_completes_diagonal),
        cmocka_unit_test(test_centre_completes_both_on_last_cell),
        cmocka_unit_test(test_line_report_order),
        cmocka_unit_test(test_gap_does_not_win),
        cmocka_unit_test(test_k_runs_all_directions),
        cmocka_unit_test(test_overline_wins),
        cmocka_unit_test(test_draw),
        cmocka_unit_test(test_win_on_last_cell),
        cmocka_unit_test(test_undo_after_end),
        cmocka_unit_test(test_misere),
        cmocka_unit_test(test_early_draw_3x3),
        cmocka_unit_test(test_early_draw_4x4),
        cmocka_unit_test(test_early_draw_k_less_than_n),
        cmocka_unit_test(test_early_draw_win_first),
        cmocka_unit_test(test_rules_kept_by_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
