/* test_gravity.c - the bitboard gravity solver against published small-board values and a plain negamax, and its budget, table cap, refusals and allocation failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gravity.h"
#include "quick.h"
#include "ttt.h"

#define MAX_CELLS 64

/* ------------------------------------------------------------------------ */
/* A plain model: cells, gravity and a scan for K in a row                   */

typedef struct model {
    int width, height, k;
    int8_t cells[MAX_CELLS];
    int heights[MAX_CELLS]; /* stones per column */
    int stones;
} model;

static void model_init(model *m, int width, int height, int k)
{
    memset(m, 0, sizeof *m);
    m->width = width;
    m->height = height;
    m->k = k;
}

static int model_mover(const model *m)
{
    return m->stones % 2 == 0 ? TTT_X : TTT_O;
}

/* Drops the mover's stone into col; returns the cell. */
static int model_drop(model *m, int col)
{
    int row = m->height - 1 - m->heights[col]++;
    int cell = row * m->width + col;
    m->cells[cell] = (int8_t)model_mover(m);
    m->stones++;
    return cell;
}

static void model_lift(model *m, int col)
{
    int row = m->height - m->heights[col]--;
    m->cells[row * m->width + col] = TTT_EMPTY;
    m->stones--;
}

/* Whether the stone on cell is in a line of K, by walking both ways along
 * each of the four directions. */
static int model_wins_at(const model *m, int cell)
{
    static const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int row = cell / m->width, col = cell % m->width;
    int mark = m->cells[cell];
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            int r = row + sign * steps[d][0], c = col + sign * steps[d][1];
            while (r >= 0 && r < m->height && c >= 0 && c < m->width &&
                   m->cells[r * m->width + c] == mark) {
                run++;
                r += sign * steps[d][0];
                c += sign * steps[d][1];
            }
        }
        if (run >= m->k)
            return 1;
    }
    return 0;
}

/* The plain negamax: every move, no pruning. A score of 1000 - p is a win
 * on ply p, -(1000 - p) a loss on ply p, 0 a draw (a full board). */
static int plain_score(model *m, int ply)
{
    if (m->stones == m->width * m->height)
        return 0;
    int best = -100000;
    for (int col = 0; col < m->width; col++) {
        if (m->heights[col] == m->height)
            continue;
        int cell = model_drop(m, col);
        int score = model_wins_at(m, cell) ? 1000 - (ply + 1)
                                           : -plain_score(m, ply + 1);
        model_lift(m, col);
        if (score > best)
            best = score;
    }
    return best;
}

typedef struct plain_answer {
    int value, plies;
    int best_count;
    int best[MAX_CELLS];
} plain_answer;

static void plain_solve(model *m, plain_answer *out)
{
    int scores[MAX_CELLS];
    int best = -100000;
    for (int col = 0; col < m->width; col++) {
        scores[col] = -100000;
        if (m->heights[col] == m->height)
            continue;
        int cell = model_drop(m, col);
        scores[col] = model_wins_at(m, cell) ? 1000 - 1 : -plain_score(m, 1);
        model_lift(m, col);
        if (scores[col] > best)
            best = scores[col];
    }
    out->value = best > 0 ? TTT_VALUE_WIN : best < 0 ? TTT_VALUE_LOSS : TTT_VALUE_DRAW;
    out->plies = best > 0 ? 1000 - best
                 : best < 0 ? 1000 + best
                            : m->width * m->height - m->stones;
    /* Cells ascending: rows from the top, so a column's landing cell
     * orders by its row first. */
    out->best_count = 0;
    for (int cell = 0; cell < m->width * m->height; cell++) {
        int col = cell % m->width, row = cell / m->width;
        if (m->heights[col] < m->height &&
            row == m->height - 1 - m->heights[col] && scores[col] == best)
            out->best[out->best_count++] = cell;
    }
}

/* ------------------------------------------------------------------------ */
/* The solver under test                                                     */

static void *plain_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void plain_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static const ttt_allocator heap = {plain_alloc, plain_free, NULL};

static int solve_model(const model *m, uint64_t budget, size_t table_bytes,
                       int all_moves, gravity_answer *out, int32_t *best)
{
    gravity_position pos = {m->width, m->height, m->k, m->cells, model_mover(m)};
    out->best = best;
    return ttt__gravity_solve(&heap, &pos, budget, table_bytes, all_moves, out);
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A random position of `stones` stones where nobody has won yet; 0 if the
 * random game ended first. */
static int random_position(model *m, int stones, uint64_t *seed)
{
    while (m->stones < stones) {
        int col = (int)(next_random(seed) % (uint64_t)m->width);
        if (m->heights[col] == m->height)
            continue;
        if (model_wins_at(m, model_drop(m, col)))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

/* Published values of small gravity boards from the empty board. */
static void test_published_small_boards(void **state)
{
    (void)state;
    static const struct {
        int width, height, k, value;
    } boards[] = {
        {4, 4, 3, TTT_VALUE_WIN},  /* 4x4, three in a row: first player wins */
        {4, 4, 4, TTT_VALUE_DRAW}, /* 4x4, four in a row: a draw */
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        model m;
        model_init(&m, boards[i].width, boards[i].height, boards[i].k);
        gravity_answer answer;
        int32_t best[MAX_CELLS];
        assert_int_equal(solve_model(&m, 0, 0, 1, &answer, best), TTT_OK);
        assert_int_equal(answer.value, boards[i].value);
        assert_int_equal(answer.value_min, boards[i].value);
        assert_int_equal(answer.value_max, boards[i].value);
        assert_true(answer.best_count > 0);
        assert_true(answer.nodes > 0);
    }
}

static void assert_same_as_plain(model *m, size_t table_bytes)
{
    plain_answer expected;
    plain_solve(m, &expected);
    gravity_answer answer;
    int32_t best[MAX_CELLS];
    assert_int_equal(solve_model(m, 0, table_bytes, 1, &answer, best), TTT_OK);
    assert_int_equal(answer.value, expected.value);
    assert_int_equal(answer.value_min, expected.value);
    assert_int_equal(answer.value_max, expected.value);
    assert_int_equal(answer.plies, expected.plies);
    assert_int_equal(answer.best_count, expected.best_count);
    for (int i = 0; i < expected.best_count; i++)
        assert_int_equal(best[i], expected.best[i]);

    /* Value only: the value, and one move that keeps it. */
    gravity_answer quick;
    int32_t quick_best[MAX_CELLS];
    assert_int_equal(solve_model(m, 0, table_bytes, 0, &quick, quick_best), TTT_OK);
    assert_int_equal(quick.value, expected.value);
    assert_int_equal(quick.plies, -1);
    assert_int_equal(quick.best_count, 1);
    int col = quick_best[0] % m->width;
    int cell = model_drop(m, col);
    assert_int_equal(cell, quick_best[0]);
    int score = model_wins_at(m, cell) ? 999 : -plain_score(m, 1);
    model_lift(m, col);
    int value = score > 0 ? TTT_VALUE_WIN : score < 0 ? TTT_VALUE_LOSS : TTT_VALUE_DRAW;
    assert_int_equal(value, expected.value);
}

/* Shapes wider than tall and taller than wide, K larger than one side
 * (only some directions can hold a line), K = 3 .. 5. */
static const struct shape {
    int width, height, k, stones;
} shapes[] = {
    {4, 4, 3, 7}, {4, 4, 4, 6}, {5, 4, 4, 10}, {4, 5, 3, 11}, {5, 3, 4, 6},
    {3, 5, 4, 5}, {6, 3, 5, 9}, {3, 6, 3, 9},  {5, 5, 4, 15}, {7, 3, 3, 12},
    {6, 4, 5, 15}, {3, 3, 3, 0},
};

static void test_random_positions_match_plain_negamax(void **state)
{
    (void)state;
    uint64_t seed = 14;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int checked = 0;
        for (int attempt = 0; checked < 12 && attempt < 200; attempt++) {
            model m;
            model_init(&m, shapes[s].width, shapes[s].height, shapes[s].k);
            if (!random_position(&m, shapes[s].stones, &seed))
                continue;
            /* The default table, and one so small that most entries are
             * overwritten: the answers must not change. */
            assert_same_as_plain(&m, 0);
            assert_same_as_plain(&m, 64);
            checked++;
        }
        assert_true(checked > 0);
    }
}

/* Positions with an even number of empty cells, where the opponent's
 * follow-up strategy bounds the mover's score (follow_up_bound in
 * gravity.c), on even and odd heights and widths: many positions, since
 * a bound that also claimed the playable cells went wrong in only a few.
 * Quick mode (quick.h) checks a sixth of them. */
static void test_follow_up_bound_matches_plain_negamax(void **state)
{
    (void)state;
    int positions = quick_mode() ? 10 : 60;
    static const struct shape even_shapes[] = {
        {4, 4, 4, 6}, {5, 4, 4, 10}, {4, 6, 4, 14}, {6, 4, 4, 14},
        {4, 5, 4, 10}, {5, 5, 4, 13}, {6, 5, 4, 18}, {5, 3, 4, 5},
    };
    uint64_t seed = 29;
    for (size_t s = 0; s < sizeof even_shapes / sizeof even_shapes[0]; s++) {
        int checked = 0;
        for (int attempt = 0; checked < positions && attempt < 1000; attempt++) {
            model m;
            model_init(&m, even_shapes[s].width, even_shapes[s].height,
                       even_shapes[s].k);
            if (!random_position(&m, even_shapes[s].stones, &seed))
                continue;
            assert_same_as_plain(&m, 0);
            checked++;
        }
        assert_int_equal(checked, positions);
    }
}

/* Positions where the side to move must block, or has lost at once, or
 * wins at once with several moves. */
static void test_forced_and_immediate_positions(void **state)
{
    (void)state;
    static const char *const games[] = {
        "",     /* the empty board */
        "12",   /* X to move */
        "121",  /* O to move, X has two in a column */
        "1122", /* X wins at once on the bottom row */
        "2233", /* X wins at once in either of two columns */
        "1231", /* O must block column 1 */
        "2132",
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        model m;
        model_init(&m, 4, 4, 3);
        for (const char *c = games[i]; *c; c++)
            assert_false(model_wins_at(&m, model_drop(&m, *c - '1')));
        assert_same_as_plain(&m, 0);
    }
}

/* Quick mode (quick.h) starts from 10 stones instead of 6: the plain
 * solve of the position is most of this test's time. */
static void test_budget_bounds(void **state)
{
    (void)state;
    model m;
    model_init(&m, 5, 4, 4);
    plain_answer expected;
    uint64_t seed = 7;
    int stones = quick_mode() ? 10 : 6;
    while (!random_position(&m, stones, &seed))
        model_init(&m, 5, 4, 4);
    plain_solve(&m, &expected);
    for (uint64_t budget = 1; budget < 4096; budget *= 3) {
        gravity_answer answer;
        int32_t best[MAX_CELLS];
        int status = solve_model(&m, budget, 0, 1, &answer, best);
        assert_true(answer.nodes <= budget + 1 || status == TTT_OK);
        if (status == TTT_OK) {
            assert_int_equal(answer.value, expected.value);
            assert_int_equal(answer.plies, expected.plies);
            continue;
        }
        assert_int_equal(status, TTT_E_BUDGET);
        assert_true(answer.value_min <= expected.value);
        assert_true(expected.value <= answer.value_max);
        assert_int_equal(answer.value, answer.value_min);
        assert_int_equal(answer.plies, -1);
        assert_true(answer.best_count <= 1);
    }
    /* A budget of one node stops before anything is proven. */
    gravity_answer answer;
    int32_t best[MAX_CELLS];
    model_init(&m, 4, 4, 4);
    assert_int_equal(solve_model(&m, 1, 0, 1, &answer, best), TTT_E_BUDGET);
    assert_int_equal(answer.value_min, TTT_VALUE_LOSS);
    assert_int_equal(answer.value_max, TTT_VALUE_WIN);
}

static void test_refusals(void **state)
{
    (void)state;
    gravity_answer answer;
    int32_t best[MAX_CELLS];
    memset(&answer, 0x5a, sizeof answer);
    answer.best = best;
    model m;

    /* Too big for one word: 8 columns of 8 + 1 bits. */
    int8_t big[64] = {0};
    gravity_position pos = {8, 8, 4, big, TTT_X};
    assert_int_equal(ttt__gravity_solve(&heap, &pos, 0, 0, 1, &answer),
                     GRAVITY_NOT_HANDLED);
    /* A stone above an empty cell. */
    model_init(&m, 4, 4, 3);
    m.cells[0] = TTT_X;
    m.stones = 1;
    assert_int_equal(solve_model(&m, 0, 0, 1, &answer, best), GRAVITY_NOT_HANDLED);
    /* A finished game. */
    model_init(&m, 4, 4, 3);
    for (const char *c = "11223"; *c; c++)
        model_drop(&m, *c - '1');
    assert_true(model_wins_at(&m, 12 + 2));
    assert_int_equal(solve_model(&m, 0, 0, 1, &answer, best), GRAVITY_NOT_HANDLED);
    /* A full board without a line. */
    static const int8_t full[9] = {TTT_X, TTT_X, TTT_O, TTT_O, TTT_O,
                                   TTT_X, TTT_X, TTT_X, TTT_O};
    gravity_position full_pos = {3, 3, 3, full, TTT_O};
    assert_int_equal(ttt__gravity_solve(&heap, &full_pos, 0, 0, 1, &answer),
                     GRAVITY_NOT_HANDLED);
    /* The caller's answer is untouched by a refusal. */
    assert_int_equal(answer.nodes, UINT64_C(0x5a5a5a5a5a5a5a5a));
    /* The rules the solver does not play. */
    assert_false(ttt__gravity_fits(7, 6, 4, 0, 0, 0, 0));
    assert_false(ttt__gravity_fits(7, 6, 4, 1, 1, 0, 0));
    assert_false(ttt__gravity_fits(7, 6, 4, 1, 0, 1, 0));
    assert_false(ttt__gravity_fits(7, 6, 4, 1, 0, 0, 10));
    assert_false(ttt__gravity_fits(7, 6, 8, 1, 0, 0, 0));
    assert_true(ttt__gravity_fits(7, 6, 4, 1, 0, 0, 0));
    assert_true(ttt__gravity_fits(8, 7, 8, 1, 0, 0, 0));
    assert_true(ttt__gravity_fits(3, 20, 20, 1, 0, 0, 0));
    assert_false(ttt__gravity_fits(3, 21, 4, 1, 0, 0, 0));
    /* 8 x 7 needs 2^21 entries (16 MiB) for exact keys: a smaller cap is
     * refused. */
    int8_t wide[56] = {0};
    gravity_position wide_pos = {8, 7, 4, wide, TTT_X};
    assert_int_equal(ttt__gravity_solve(&heap, &wide_pos, 1, 8 << 20, 1, &answer),
                     GRAVITY_NOT_HANDLED);
    assert_int_equal(ttt__gravity_solve(&heap, &wide_pos, 1, 16 << 20, 1, &answer),
                     TTT_E_BUDGET);
}

static void *failing_alloc(void *user, size_t size)
{
    (void)user;
    (void)size;
    return NULL;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    static const ttt_allocator failing = {failing_alloc, plain_free, NULL};
    model m;
    model_init(&m, 4, 4, 4);
    gravity_position pos = {4, 4, 4, m.cells, TTT_X};
    gravity_answer answer;
    int32_t best[MAX_CELLS];
    answer.best = best;
    assert_int_equal(ttt__gravity_solve(&failing, &pos, 0, 0, 1, &answer), TTT_E_NOMEM);
    /* An immediate win needs no table. */
    for (const char *c = "1122"; *c; c++)
        model_drop(&m, *c - '1');
    m.k = 3;
    pos.k = 3;
    assert_int_equal(ttt__gravity_solve(&failing, &pos, 0, 0, 1, &answer), TTT_OK);
    assert_int_equal(answer.value, TTT_VALUE_WIN);
    assert_int_equal(answer.plies, 1);
}

/* The largest block a game's allocator was asked for. */
static size_t largest_alloc;
static void *recording_alloc(void *user, size_t size)
{
    (void)user;
    if (size > largest_alloc)
        largest_alloc = size;
    return malloc(size);
}

/* The perfect bot's table is sized by its node budget: a move with a
 * budget of 10 on the empty 7x6 board asked for a 64 MiB table (0.26 s a
 * move, 83 s for one step of a 64-game batch). A search stores at most an
 * entry a node, so twice the budget's entries, at least what exact keys
 * need (2^6 on 7x6), are all it can use. */
static void test_table_follows_the_budget(void **state)
{
    (void)state;
    static const ttt_allocator recording = {recording_alloc, plain_free, NULL};
    static const struct {
        uint64_t budget;
        size_t most;
    } cases[] = {{1, 64 * 1024}, {10, 64 * 1024}, {1000, 64 * 1024},
                 {100000, 4 << 20}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ttt_game *game = NULL;
        assert_int_equal(ttt_game_new_rect_with(7, 6, 4, &recording, &game), TTT_OK);
        assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 1), TTT_OK);
        assert_int_equal(ttt_drop(game, 3, NULL, NULL), TTT_OK);
        largest_alloc = 0;
        uint64_t seed = 1;
        int row = -1, col = -1;
        int status = ttt_best_move(game, TTT_BOT_PERFECT, cases[i].budget,
                                   &seed, &row, &col);
        assert_true(status == TTT_OK || status == TTT_E_BUDGET);
        if (largest_alloc > cases[i].most)
            fail_msg("budget %llu: a block of %zu bytes",
                     (unsigned long long)cases[i].budget, largest_alloc);
        ttt_game_free(game);
    }
}

/* ------------------------------------------------------------------------ */
/* Perft and position counts on rectangles and under gravity                 */

static ttt_game *new_board(int width, int height, int k, int gravity)
{
    ttt_game *game;
    assert_int_equal(ttt_game_new_rect(width, height, k, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, gravity), TTT_OK);
    return game;
}

/* Every game by ttt_legal_moves, ttt_play and ttt_undo, one at a time. */
static void plain_walk(ttt_game *game, int depth, int ply, uint64_t counts[4],
                       uint64_t *by_length)
{
    int state = ttt_state(game);
    if (state != TTT_IN_PROGRESS || ply == depth) {
        counts[state]++;
        by_length[ply]++;
        return;
    }
    int32_t moves[MAX_CELLS];
    size_t count;
    assert_int_equal(ttt_legal_moves(game, moves, MAX_CELLS, &count), TTT_OK);
    int width = ttt_width(game);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(ttt_play(game, ttt_to_move(game), moves[i] / width,
                                  moves[i] % width, NULL),
                         TTT_OK);
        plain_walk(game, depth, ply + 1, counts, by_length);
        assert_int_equal(ttt_undo(game), TTT_OK);
    }
}

/* A board as one number: base 3 over the cells (up to 40 cells). */
static uint64_t board_code(const ttt_game *game)
{
    int8_t cells[MAX_CELLS];
    size_t count = (size_t)(ttt_width(game) * ttt_height(game));
    size_t written;
    assert_int_equal(ttt_board(game, cells, MAX_CELLS, &written), TTT_OK);
    assert_int_equal(written, count);
    uint64_t code = 0;
    for (size_t i = 0; i < count; i++)
        code = code * 3 + (uint64_t)(cells[i] == TTT_X ? 1 : cells[i] == TTT_O ? 2 : 0);
    return code;
}

typedef struct code_set {
    uint64_t *codes;
    int *states;
    size_t count, capacity;
} code_set;

/* Every board reachable within depth plies, by a plain walk (duplicates
 * and all). */
static void collect_boards(ttt_game *game, int depth, code_set *set)
{
    if (set->count == set->capacity) {
        set->capacity = set->capacity ? 2 * set->capacity : 1024;
        set->codes = realloc(set->codes, set->capacity * sizeof *set->codes);
        set->states = realloc(set->states, set->capacity * sizeof *set->states);
        assert_non_null(set->codes);
        assert_non_null(set->states);
    }
    set->codes[set->count] = board_code(game);
    set->states[set->count++] = ttt_state(game);
    if (ttt_state(game) != TTT_IN_PROGRESS || depth == 0)
        return;
    int32_t moves[MAX_CELLS];
    size_t count;
    assert_int_equal(ttt_legal_moves(game, moves, MAX_CELLS, &count), TTT_OK);
    int width = ttt_width(game);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(ttt_play(game, ttt_to_move(game), moves[i] / width,
                                  moves[i] % width, NULL),
                         TTT_OK);
        collect_boards(game, depth - 1, set);
        assert_int_equal(ttt_undo(game), TTT_OK);
    }
}

static int compare_codes(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct boards of a plain walk, by state. */
static void plain_positions(ttt_game *game, int depth, uint64_t counts[4])
{
    code_set set = {NULL, NULL, 0, 0};
    collect_boards(game, depth, &set);
    /* A board's state follows from its marks: sort codes with the state in
     * the low bits, then count the distinct ones. */
    for (size_t i = 0; i < set.count; i++)
        set.codes[i] = set.codes[i] * 4 + (uint64_t)set.states[i];
    qsort(set.codes, set.count, sizeof *set.codes, compare_codes);
    memset(counts, 0, 4 * sizeof *counts);
    for (size_t i = 0; i < set.count; i++) {
        if (i == 0 || set.codes[i] != set.codes[i - 1])
            counts[set.codes[i] % 4]++;
    }
    free(set.codes);
    free(set.states);
}

/* The published Connect Four counts, 8 plies from the empty 7x6 board. */
static void test_perft_connect_four(void **state)
{
    (void)state;
    ttt_game *game = new_board(7, 6, 4, 1);
    uint64_t counts[4], by_length[9];
    size_t len;
    assert_int_equal(ttt_perft(game, 8, 0, counts, by_length, 9, &len), TTT_OK);
    assert_int_equal(len, 9);
    assert_int_equal(counts[TTT_X_WON], 13032);
    assert_int_equal(counts[TTT_O_WON], 44430);
    assert_int_equal(counts[TTT_DRAW], 0);
    assert_int_equal(counts[TTT_IN_PROGRESS], 5628804);
    assert_int_equal(by_length[7], 13032);
    assert_int_equal(by_length[8], 5673234); /* the games of 8 plies */
    for (int i = 0; i < 7; i++)
        assert_int_equal(by_length[i], 0);
    ttt_game_free(game);
}

static const struct perft_case {
    int width, height, k, gravity, depth;
} perft_cases[] = {
    /* Depths keep each plain walk near a million games. Full games (with
     * draws) on the smaller gravity boards. */
    {4, 3, 3, 0, 6}, {3, 4, 3, 0, 6}, {5, 3, 3, 0, 5}, {4, 4, 3, 1, 10},
    {5, 3, 3, 1, 8}, {3, 5, 3, 1, 10}, {4, 4, 4, 1, 10}, {5, 4, 4, 1, 8},
    {4, 3, 4, 0, 6}, {3, 4, 4, 1, 12}, {4, 4, 4, 0, 5}, {3, 3, 3, 1, 9},
};

/* Quick mode (quick.h) walks each case 2 plies less deep. */
static void test_perft_matches_plain_walk(void **state)
{
    (void)state;
    int shallower = quick_mode() ? 2 : 0;
    for (size_t i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
        const struct perft_case *c = &perft_cases[i];
        int walk_depth = c->depth - shallower;
        ttt_game *game = new_board(c->width, c->height, c->k, c->gravity);
        /* From the empty board and from one move in (fewer symmetries). */
        for (int opening = 0; opening < 2; opening++) {
            if (opening)
                assert_int_equal(ttt_drop(game, 0, NULL, NULL), TTT_OK);
            uint64_t counts[4], by_length[64], plain[4] = {0, 0, 0, 0};
            uint64_t plain_length[64] = {0};
            size_t len;
            assert_int_equal(ttt_perft(game, walk_depth, 0, counts, by_length, 64, &len),
                             TTT_OK);
            plain_walk(game, walk_depth, 0, plain, plain_length);
            for (int s = 0; s < 4; s++)
                assert_int_equal(counts[s], plain[s]);
            for (size_t p = 0; p < len; p++)
                assert_int_equal(by_length[p], plain_length[p]);

            int depth = walk_depth < 8 ? walk_depth : 8;
            assert_int_equal(ttt_count_positions(game, depth, 0, counts), TTT_OK);
            plain_positions(game, depth, plain);
            for (int s = 0; s < 4; s++)
                assert_int_equal(counts[s], plain[s]);
        }
        ttt_game_free(game);
    }
}

/* ------------------------------------------------------------------------ */
/* Random playouts under gravity                                             */

static const struct playout_case {
    int width, height, k, misere;
    const char *opening; /* columns, '1' for the first */
} playout_cases[] = {
    {7, 6, 4, 0, ""},        /* Connect Four: the unrolled line check */
    {7, 6, 4, 1, "4444"},    /* misere */
    {6, 7, 4, 0, "111111"},  /* a full column from the start */
    {8, 7, 5, 0, "12"},      /* 64 bits exactly, K = 5 */
    {4, 4, 3, 0, "1"},
    {5, 3, 4, 0, ""},        /* K taller than the board: rows only */
    {3, 12, 4, 0, "2"},      /* K wider than the board: columns only */
    {9, 5, 4, 0, ""},        /* K = 4 on another height */
    {9, 7, 4, 0, ""},        /* too big for a word: the general path */
    {5, 5, 5, 1, "3"},
};

/* ttt_random_playouts plays, game for game, what ttt_random_playout plays
 * on copies: the same counts and the same seed afterwards. */
static void test_playouts_match_single_games(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof playout_cases / sizeof playout_cases[0]; i++) {
        const struct playout_case *c = &playout_cases[i];
        ttt_game *game = new_board(c->width, c->height, c->k, 1);
        assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, c->misere), TTT_OK);
        for (const char *col = c->opening; *col; col++)
            assert_int_equal(ttt_drop(game, *col - '1', NULL, NULL), TTT_OK);
        const uint64_t games = 3000;
        uint64_t batch_seed = 1400 + i, results[4] = {7, 7, 7, 7};
        assert_int_equal(ttt_random_playouts(game, &batch_seed, games, results), TTT_OK);
        uint64_t seed = 1400 + i, expected[4] = {0, 0, 0, 0};
        for (uint64_t g = 0; g < games; g++) {
            ttt_game *copy;
            int end;
            assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
            assert_int_equal(ttt_random_playout(copy, &seed, &end), TTT_OK);
            expected[end]++;
            ttt_game_free(copy);
        }
        for (int st = 0; st < 4; st++)
            assert_int_equal(results[st], expected[st]);
        assert_int_equal(batch_seed, seed);
        /* Both sides win some games: the counts are not all one kind. */
        assert_true(results[TTT_X_WON] > 0 && results[TTT_O_WON] > 0);
        ttt_game_free(game);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_small_boards),
        cmocka_unit_test(test_random_positions_match_plain_negamax),
        cmocka_unit_test(test_follow_up_bound_matches_plain_negamax),
        cmocka_unit_test(test_forced_and_immediate_positions),
        cmocka_unit_test(test_budget_bounds),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_table_follows_the_budget),
        cmocka_unit_test(test_perft_connect_four),
        cmocka_unit_test(test_perft_matches_plain_walk),
        cmocka_unit_test(test_playouts_match_single_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
