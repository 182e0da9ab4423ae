/* test_search.c - the engine: random player, perft, solver and bots, checked against plain walks and minimax written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "quick.h"
#include "ttt.h"

#define MAXN 16
#define MAXCELLS (MAXN * MAXN)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static ttt_game *new_game(int n, int k, int misere, int early)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_MISERE, misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_EARLY_DRAW, early), TTT_OK);
    return g;
}

/* Plays the side to move at a cell name such as "b2"; returns the state. */
static int play_name(ttt_game *g, const char *name)
{
    int row, col, state = -1;
    assert_int_equal(ttt_parse_cell(name, strlen(name), &row, &col, NULL), TTT_OK);
    assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, &state), TTT_OK);
    return state;
}

/* A game of size n, win length k, with the given moves played. */
static ttt_game *game_with(int n, int k, const char *const *moves, int count)
{
    ttt_game *g = new_game(n, k, 0, 0);
    for (int i = 0; i < count; i++)
        play_name(g, moves[i]);
    return g;
}

static int cell_of(const ttt_game *g, const char *name)
{
    int row, col;
    assert_int_equal(ttt_parse_cell(name, strlen(name), &row, &col, NULL), TTT_OK);
    return row * ttt_size(g) + col;
}

/* Everything an engine call must leave exactly as it was. */
typedef struct game_picture {
    int8_t cells[MAXCELLS];
    int ply, state, redo, to_move, misere, early;
    int history[MAXCELLS][3];
} game_picture;

static void take_picture(const ttt_game *g, game_picture *p)
{
    size_t len = 0;
    memset(p, 0, sizeof *p);
    assert_int_equal(ttt_board(g, p->cells, sizeof p->cells, &len), TTT_OK);
    p->ply = ttt_ply(g);
    p->state = ttt_state(g);
    p->redo = ttt_redo_count(g);
    p->to_move = ttt_to_move(g);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_MISERE, &p->misere), TTT_OK);
    assert_int_equal(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &p->early), TTT_OK);
    for (int i = 0; i < p->ply; i++)
        assert_int_equal(ttt_move_at(g, i, &p->history[i][0], &p->history[i][1],
                                     &p->history[i][2]),
                         TTT_OK);
}

static void assert_unchanged(const ttt_game *g, const game_picture *before)
{
    game_picture after;
    take_picture(g, &after);
    assert_memory_equal(before, &after, sizeof after);
}

/* The value of a finished or open move for its mover: +1 won, 0 drawn or
 * open, -1 lost. */
static int outcome_for(int state, int mover)
{
    if (state == TTT_X_WON)
        return mover == TTT_X ? 1 : -1;
    if (state == TTT_O_WON)
        return mover == TTT_O ? 1 : -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Reference: plain walks and minimax over the public API                    */

/* Every game from here to its end or `depth` more plies, move by move. */
static void walk_games(ttt_game *g, int depth, int ply, uint64_t counts[4],
                       uint64_t *by_length)
{
    int state = ttt_state(g);
    if (state != TTT_IN_PROGRESS || ply == depth) {
        counts[state]++;
        by_length[ply]++;
        return;
    }
    int n = ttt_size(g);
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            int mark;
            assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
            if (mark != TTT_EMPTY)
                continue;
            assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
            walk_games(g, depth, ply + 1, counts, by_length);
            assert_int_equal(ttt_undo(g), TTT_OK);
        }
    }
}

/* Plain negamax with alpha-beta and nothing else: the value for the side to
 * move, -1, 0 or 1. */
static int plain_value(ttt_game *g, int alpha, int beta)
{
    int n = ttt_size(g), best = -2;
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            int mark, state;
            assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
            if (mark != TTT_EMPTY)
                continue;
            int mover = ttt_to_move(g);
            assert_int_equal(ttt_play(g, mover, row, col, &state), TTT_OK);
            int v = state == TTT_IN_PROGRESS ? -plain_value(g, -beta, -alpha)
                                             : outcome_for(state, mover);
            assert_int_equal(ttt_undo(g), TTT_OK);
            if (v > best) {
                best = v;
                if (v > alpha)
                    alpha = v;
                if (alpha >= beta)
                    return best;
            }
        }
    }
    return best;
}

/*
 * Exact minimax with distances for boards of at most 16 cells, memoised by
 * the position's base-3 number. Score for the side to move: a win in p plies
 * is 100 - p, a loss -(100 - p), a draw 0 (draws tie regardless of length).
 */
#define DTM_UNKNOWN 1000

typedef struct dtm_memo {
    int16_t *score; /* 3^cells entries */
} dtm_memo;

static uint32_t position_index(const ttt_game *g)
{
    int8_t cells[MAXCELLS];
    size_t len;
    assert_int_equal(ttt_board(g, cells, sizeof cells, &len), TTT_OK);
    uint32_t index = 0;
    for (size_t i = len; i-- > 0;)
        index = index * 3 + (uint32_t)(cells[i] == TTT_X ? 1 : cells[i] == TTT_O ? 2 : 0);
    return index;
}

static int backed_up(int child)
{
    int v = -child;
    return v > 0 ? v - 1 : v < 0 ? v + 1 : 0;
}

static int dtm_score(ttt_game *g, dtm_memo *memo)
{
    uint32_t index = position_index(g);
    if (memo->score[index] != DTM_UNKNOWN)
        return memo->score[index];
    int n = ttt_size(g), best = -1000;
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            int mark, state;
            assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
            if (mark != TTT_EMPTY)
                continue;
            int mover = ttt_to_move(g);
            assert_int_equal(ttt_play(g, mover, row, col, &state), TTT_OK);
            int v;
            if (state == TTT_IN_PROGRESS)
                v = backed_up(dtm_score(g, memo));
            else
                v = outcome_for(state, mover) * 99;
            assert_int_equal(ttt_undo(g), TTT_OK);
            if (v > best)
                best = v;
        }
    }
    memo->score[index] = (int16_t)best;
    return best;
}

static dtm_memo new_memo(int cells)
{
    size_t entries = 1;
    for (int i = 0; i < cells; i++)
        entries *= 3;
    dtm_memo memo;
    memo.score = malloc(entries * sizeof *memo.score);
    assert_non_null(memo.score);
    for (size_t i = 0; i < entries; i++)
        memo.score[i] = DTM_UNKNOWN;
    return memo;
}

static int value_of_score(int score)
{
    return score > 0 ? TTT_VALUE_WIN : score < 0 ? TTT_VALUE_LOSS : TTT_VALUE_DRAW;
}

static int solve(const ttt_game *g, int flags, ttt_solution *s, int32_t *best,
                 size_t *best_len)
{
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    return ttt_solve(g, 0, 0, flags, s, best, best ? MAXCELLS : 0, best_len);
}

/* ------------------------------------------------------------------------ */
/* Random player                                                             */

static void test_random_move_is_legal_and_reproducible(void **state)
{
    (void)state;
    ttt_game *g = new_game(5, 4, 0, 0);
    uint64_t seed = 7, again = 7;
    int first[10][2];
    for (int i = 0; i < 10; i++) {
        game_picture before;
        take_picture(g, &before);
        int row, col, mark;
        assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
        assert_unchanged(g, &before);
        assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
        assert_int_equal(mark, TTT_EMPTY);
        first[i][0] = row;
        first[i][1] = col;
        assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
        if (ttt_state(g) != TTT_IN_PROGRESS)
            break;
    }
    /* The same seed and the same calls give the same moves. */
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    for (int i = 0; i < 10 && ttt_state(g) == TTT_IN_PROGRESS; i++) {
        int row, col;
        assert_int_equal(ttt_random_move(g, &again, &row, &col), TTT_OK);
        assert_int_equal(row, first[i][0]);
        assert_int_equal(col, first[i][1]);
        assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
    }
    assert_true(seed == again);
    ttt_game_free(g);
}

static void test_random_move_is_uniform(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3, 0, 0);
    enum { DRAWS = 90000 };
    long hits[9] = {0};
    uint64_t seed = 2024;
    for (int i = 0; i < DRAWS; i++) {
        int row, col;
        assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
        hits[row * 3 + col]++;
    }
    /* Chi-square with 8 degrees of freedom: above 40 happens with
     * probability below 1e-5 for a uniform choice. */
    double expected = DRAWS / 9.0, chi = 0;
    for (int i = 0; i < 9; i++)
        chi += (hits[i] - expected) * (hits[i] - expected) / expected;
    assert_true(chi < 40.0);
    ttt_game_free(g);
}

/* The generator as ttt.h spells it out, written here from the header's
 * text (the 128-bit product from four 32-bit halves), so the library's
 * arithmetic on any compiler is held to the documented numbers. */
static uint64_t documented_next(uint64_t *seed)
{
    uint64_t z = (*seed += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t documented_below(uint64_t *seed, uint64_t bound)
{
    for (;;) {
        uint64_t x = documented_next(seed);
        uint64_t x_lo = x & 0xffffffffu, x_hi = x >> 32;
        uint64_t lo_lo = x_lo * bound, hi_lo = x_hi * bound; /* bound < 2^32 */
        uint64_t high = (hi_lo + (lo_lo >> 32)) >> 32;
        uint64_t low = x * bound;
        uint64_t threshold = (0 - bound) % bound;
        if (low >= threshold)
            return high;
    }
}

/* On a new game the list of empty cells is in cell order, so the first
 * random move is cell documented_below(seed, size * size). */
static void test_random_move_follows_the_header(void **state)
{
    (void)state;
    static const int sizes[] = {3, 4, 7, 15, 100, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i];
        ttt_game *g = new_game(n, n == 1000 ? 5 : 0, 0, 0);
        for (uint64_t s = 0; s < 2000; s++) {
            uint64_t seed = s * UINT64_C(0x9E3779B97F4A7C15) ^ (s << 7);
            uint64_t expected_seed = seed;
            uint64_t cell = documented_below(&expected_seed, (uint64_t)n * (uint64_t)n);
            int row, col;
            assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
            assert_true((uint64_t)row * (uint64_t)n + (uint64_t)col == cell);
            assert_true(seed == expected_seed);
        }
        ttt_game_free(g);
    }
}

static void test_random_move_errors(void **state)
{
    (void)state;
    ttt_game *g = game_with(3, 3, (const char *const[]){"a1", "b1", "a2", "b2", "a3"}, 5);
    uint64_t seed = 1;
    int row = -7, col = -7;
    assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_E_GAME_OVER);
    assert_true(seed == 1 && row == -7 && col == -7);
    assert_int_equal(ttt_random_move(NULL, &seed, &row, &col), TTT_E_INVALID);
    assert_int_equal(ttt_random_move(g, NULL, &row, &col), TTT_E_INVALID);
    assert_int_equal(ttt_random_playout(g, &seed, NULL), TTT_E_GAME_OVER);
    ttt_game_free(g);
}

static int events_seen;

static void count_events(void *user, const ttt_event *event)
{
    (void)user;
    if (event->kind == TTT_EVENT_PLAY)
        events_seen++;
}

static void test_random_playout(void **state)
{
    (void)state;
    ttt_game *g = new_game(4, 3, 0, 0);
    assert_int_equal(ttt_set_listener(g, count_events, NULL), TTT_OK);
    uint64_t seed = 99, replay = 99;
    int final = -1;
    events_seen = 0;
    assert_int_equal(ttt_random_playout(g, &seed, &final), TTT_OK);
    assert_int_equal(final, ttt_state(g));
    assert_int_not_equal(final, TTT_IN_PROGRESS);
    assert_int_equal(events_seen, ttt_ply(g)); /* every move went through ttt_play */
    int moves[16][3], plies = ttt_ply(g);
    for (int i = 0; i < plies; i++)
        assert_int_equal(ttt_move_at(g, i, &moves[i][0], &moves[i][1], &moves[i][2]), TTT_OK);
    assert_int_equal(ttt_game_reset(g), TTT_OK);
    assert_int_equal(ttt_random_playout(g, &replay, NULL), TTT_OK);
    assert_int_equal(ttt_ply(g), plies);
    for (int i = 0; i < plies; i++) {
        int m[3];
        assert_int_equal(ttt_move_at(g, i, &m[0], &m[1], &m[2]), TTT_OK);
        assert_memory_equal(m, moves[i], sizeof m);
    }
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Perft                                                                     */

/* ttt_perft agrees with the plain walk, counts and lengths. */
static void check_perft_against_walk(ttt_game *g, int depth)
{
    uint64_t want[4] = {0}, want_length[MAXCELLS + 1] = {0};
    walk_games(g, depth, 0, want, want_length);
    uint64_t got[4], got_length[MAXCELLS + 1];
    size_t len = 0;
    game_picture before;
    take_picture(g, &before);
    assert_int_equal(ttt_perft(g, depth, 0, got, got_length, MAXCELLS + 1, &len), TTT_OK);
    assert_unchanged(g, &before);
    assert_memory_equal(got, want, sizeof want);
    int empty = ttt_size(g) * ttt_size(g) - ttt_ply(g);
    size_t expect_len = (size_t)(depth < empty ? depth : empty) + 1;
    if (ttt_state(g) != TTT_IN_PROGRESS)
        expect_len = 1;
    assert_int_equal(len, expect_len);
    assert_memory_equal(got_length, want_length, len * sizeof(uint64_t));
}

static void test_perft_classic_numbers(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3, 0, 0);
    uint64_t counts[4], lengths[10];
    size_t len;
    assert_int_equal(ttt_perft(g, 9, 0, counts, lengths, 10, &len), TTT_OK);
    assert_true(counts[TTT_X_WON] == 131184);
    assert_true(counts[TTT_O_WON] == 77904);
    assert_true(counts[TTT_DRAW] == 46080);
    assert_true(counts[TTT_IN_PROGRESS] == 0);
    assert_int_equal(len, 10);
    assert_true(lengths[5] == 1440 && lengths[9] == 127872);
    check_perft_against_walk(g, 9);
    /* Depth beyond the game changes nothing; a shallow depth leaves games
     * open. */
    uint64_t more[4];
    assert_int_equal(ttt_perft(g, 50, 0, more, NULL, 0, NULL), TTT_OK);
    assert_memory_equal(more, counts, sizeof counts);
    check_perft_against_walk(g, 4);
    ttt_game_free(g);
}

/* Quick mode (quick.h) walks all but the 3x3 games less deep: these
 * plain walks are most of this suite's time. */
static void test_perft_matches_walk(void **state)
{
    (void)state;
    int quick = quick_mode();
    ttt_game *g = new_game(4, 4, 0, 0);
    check_perft_against_walk(g, quick ? 4 : 6);
    ttt_game_free(g);

    g = new_game(5, 4, 0, 0);
    check_perft_against_walk(g, quick ? 3 : 4);
    ttt_game_free(g);

    /* A lopsided start: only some symmetries fix it. */
    g = game_with(4, 3, (const char *const[]){"a1", "b3", "d4", "c1", "a4"}, 5);
    check_perft_against_walk(g, quick ? 6 : 11);
    ttt_game_free(g);

    g = game_with(4, 4, (const char *const[]){"b2", "c3", "a1", "d4", "b3", "a2"}, 6);
    check_perft_against_walk(g, quick ? 6 : 10);
    ttt_game_free(g);

    for (int rules = 1; rules < 4; rules++) {
        g = new_game(3, 3, rules & 1, rules >> 1);
        check_perft_against_walk(g, 9);
        ttt_game_free(g);
        g = new_game(4, 3, rules & 1, rules >> 1);
        check_perft_against_walk(g, quick ? 4 : 5);
        ttt_game_free(g);
    }
    /* Early draw on 4x4: games stop once every line holds both marks. */
    g = new_game(4, 4, 0, 1);
    const char *early[] = {"a1", "b2", "d1", "c3", "b4", "a3"};
    for (int i = 0; i < 6; i++)
        play_name(g, early[i]);
    check_perft_against_walk(g, quick ? 6 : 10);
    ttt_game_free(g);
}

static void test_perft_edges(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3, 0, 0);
    uint64_t counts[4], lengths[10];
    size_t len = 0;
    assert_int_equal(ttt_perft(g, 9, 0, counts, lengths, 5, &len), TTT_E_BUFFER);
    assert_int_equal(len, 10);
    assert_int_equal(ttt_perft(g, -1, 0, counts, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_perft(NULL, 1, 0, counts, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_perft(g, 1, 0, NULL, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_perft(g, 0, 0, counts, lengths, 1, &len), TTT_OK);
    assert_true(counts[TTT_IN_PROGRESS] == 1 && lengths[0] == 1 && len == 1);
    /* A finished game is one game of length 0. */
    ttt_game_free(g);
    g = game_with(3, 3, (const char *const[]){"a1", "b1", "a2", "b2", "a3"}, 5);
    assert_int_equal(ttt_perft(g, 4, 0, counts, lengths, 10, &len), TTT_OK);
    assert_true(counts[TTT_X_WON] == 1 && counts[TTT_O_WON] == 0 && len == 1 &&
                lengths[0] == 1);
    ttt_game_free(g);
    /* A table too small for the layers is out of memory, not a crash. */
    g = new_game(4, 4, 0, 0);
    assert_int_equal(ttt_perft(g, 16, 4096, counts, NULL, 0, NULL), TTT_E_NOMEM);
    ttt_game_free(g);
}

/* Distinct boards by a plain walk: a set of base-3 numbers. */
static void collect_positions(ttt_game *g, int depth, uint8_t *seen,
                              uint64_t counts[4])
{
    uint32_t index = position_index(g);
    if (seen[index])
        return;
    seen[index] = 1;
    counts[ttt_state(g)]++;
    if (ttt_state(g) != TTT_IN_PROGRESS || depth == 0)
        return;
    int n = ttt_size(g);
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            int mark;
            assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
            if (mark != TTT_EMPTY)
                continue;
            assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
            collect_positions(g, depth - 1, seen, counts);
            assert_int_equal(ttt_undo(g), TTT_OK);
        }
    }
}

static void check_positions_against_walk(ttt_game *g, int depth)
{
    int cells = ttt_size(g) * ttt_size(g);
    size_t entries = 1;
    for (int i = 0; i < cells; i++)
        entries *= 3;
    uint8_t *seen = calloc(entries, 1);
    assert_non_null(seen);
    uint64_t want[4] = {0}, got[4];
    collect_positions(g, depth, seen, want);
    free(seen);
    assert_int_equal(ttt_count_positions(g, depth, 0, got), TTT_OK);
    assert_memory_equal(got, want, sizeof want);
}

static void test_count_positions(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3, 0, 0);
    uint64_t counts[4];
    assert_int_equal(ttt_count_positions(g, 9, 0, counts), TTT_OK);
    assert_true(counts[TTT_X_WON] == 626 && counts[TTT_O_WON] == 316 &&
                counts[TTT_DRAW] == 16);
    assert_true(counts[0] + counts[1] + counts[2] + counts[3] == 5478);
    check_positions_against_walk(g, 9);
    check_positions_against_walk(g, 5);
    play_name(g, "a1");
    check_positions_against_walk(g, 8);
    play_name(g, "b1");
    check_positions_against_walk(g, 7);
    ttt_game_free(g);
    g = new_game(3, 3, 1, 1);
    check_positions_against_walk(g, 9);
    ttt_game_free(g);
    /* Quick mode (quick.h) walks the first 6 plies of 13 here. */
    g = game_with(4, 3, (const char *const[]){"b2", "a1", "c4"}, 3);
    check_positions_against_walk(g, quick_mode() ? 6 : 13);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Solver                                                                    */

static void test_solve_classic_boards(void **state)
{
    (void)state;
    ttt_solution s;
    int32_t best[MAXCELLS];
    size_t len;

    ttt_game *g = new_game(3, 3, 0, 0);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.value_min, TTT_VALUE_DRAW);
    assert_int_equal(s.value_max, TTT_VALUE_DRAW);
    assert_int_equal(s.plies, 9);
    assert_int_equal(len, 9); /* every first move draws */
    assert_true(s.nodes > 0);
    assert_int_equal(solve(g, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.plies, -1);
    assert_int_equal(len, 1);
    ttt_game_free(g);

    g = new_game(4, 3, 0, 0);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN);
    assert_true(s.plies % 2 == 1 && s.plies >= 5);
    assert_true(len >= 1);
    ttt_game_free(g);

    g = new_game(4, 4, 0, 0);
    assert_int_equal(solve(g, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    ttt_game_free(g);

    g = new_game(3, 3, 1, 0); /* misère 3x3: a draw too */
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    ttt_game_free(g);
}

static void test_solve_hand_made_positions(void **state)
{
    (void)state;
    ttt_solution s;
    int32_t best[MAXCELLS];
    size_t len;

    /* X (a1 a2) to move: a3 wins at once, and nothing else does. */
    ttt_game *g = game_with(3, 3, (const char *const[]){"a1", "c1", "a2", "c3"}, 4);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN);
    assert_int_equal(s.plies, 1);
    assert_int_equal(len, 1);
    assert_int_equal(best[0], cell_of(g, "a3"));
    ttt_game_free(g);

    /* O to move must block a3 (X has a1 a2); the block holds the draw and
     * every other move loses. */
    g = game_with(3, 3, (const char *const[]){"a1", "b2", "a2"}, 3);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(len, 1);
    assert_int_equal(best[0], cell_of(g, "a3"));
    ttt_game_free(g);

    /* O to move against X's corners a1 c1 c3: three completion cells (b1,
     * c2, b2), one block each: a loss in 2, whatever O does. */
    g = game_with(3, 3, (const char *const[]){"a1", "a3", "c1", "b3", "c3"}, 5);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_LOSS);
    assert_int_equal(s.plies, 2);
    assert_int_equal(len, 4); /* every empty cell loses equally fast */
    ttt_game_free(g);

    /* A finished game is valued for the player who would move next. */
    g = game_with(3, 3, (const char *const[]){"a1", "b1", "a2", "b2", "a3"}, 5);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_LOSS);
    assert_int_equal(s.plies, 0);
    assert_int_equal(len, 0);
    ttt_game_free(g);
    g = new_game(3, 3, 1, 0);
    const char *misere_line[] = {"a1", "b1", "a2", "b2", "a3"};
    for (int i = 0; i < 5; i++)
        play_name(g, misere_line[i]);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN); /* X completed a line: O won */
    ttt_game_free(g);
}

/*
 * For every reachable 3x3 position with the player to move: the solver's
 * value and plies equal the memoised minimax; its optimal moves are exactly
 * the moves that keep the minimax score; the perfect bot picks one of them;
 * and the value equals a plain alpha-beta without any table.
 */
typedef struct every_position {
    dtm_memo memo;
    uint8_t *visited;
    int8_t *draw_plies; /* memo of shortest_draw, -1 unknown */
    long reached;       /* the in-progress positions walked */
    long stride;        /* every stride-th of them is checked */
} every_position;

/* A drawn position's plies: the shortest drawn ending reachable with
 * value-keeping moves only (the board filling up, or an early draw). */
static int shortest_draw(ttt_game *g, every_position *all)
{
    uint32_t index = position_index(g);
    if (all->draw_plies[index] >= 0)
        return all->draw_plies[index];
    int n = ttt_size(g), best = 1000;
    for (int cell = 0; cell < n * n; cell++) {
        int mark, state, mover = ttt_to_move(g);
        assert_int_equal(ttt_cell(g, cell / n, cell % n, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        assert_int_equal(ttt_play(g, mover, cell / n, cell % n, &state), TTT_OK);
        int plies = 1000;
        if (state == TTT_DRAW)
            plies = 1;
        else if (state == TTT_IN_PROGRESS && dtm_score(g, &all->memo) == 0)
            plies = 1 + shortest_draw(g, all);
        assert_int_equal(ttt_undo(g), TTT_OK);
        if (plies < best)
            best = plies;
    }
    all->draw_plies[index] = (int8_t)best;
    return best;
}

static void check_one_position(ttt_game *g, every_position *all)
{
    int score = dtm_score(g, &all->memo);
    ttt_solution s;
    int32_t best[MAXCELLS];
    size_t len;
    game_picture before;
    take_picture(g, &before);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_unchanged(g, &before);
    assert_int_equal(s.value, value_of_score(score));
    assert_int_equal(s.value, plain_value(g, -2, 2));
    if (score != 0)
        assert_int_equal(s.plies, 100 - abs(score));
    else
        assert_int_equal(s.plies, shortest_draw(g, all));
    int n = ttt_size(g);
    int optimal[MAXCELLS] = {0};
    size_t optimal_count = 0;
    for (int cell = 0; cell < n * n; cell++) {
        int mark, state, mover = ttt_to_move(g);
        assert_int_equal(ttt_cell(g, cell / n, cell % n, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        assert_int_equal(ttt_play(g, mover, cell / n, cell % n, &state), TTT_OK);
        int v = state == TTT_IN_PROGRESS ? backed_up(dtm_score(g, &all->memo))
                                         : outcome_for(state, mover) * 99;
        assert_int_equal(ttt_undo(g), TTT_OK);
        if (v == score) {
            optimal[cell] = 1;
            optimal_count++;
        }
    }
    assert_int_equal(len, optimal_count);
    for (size_t i = 0; i < len; i++)
        assert_true(optimal[best[i]]);
    take_picture(g, &before); /* the walk above moved the redo count */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint64_t state = seed * 977;
        int row, col;
        assert_int_equal(ttt_best_move(g, TTT_BOT_PERFECT, 0, &state, &row, &col), TTT_OK);
        assert_true(optimal[row * n + col]);
    }
    assert_unchanged(g, &before);
}

static void check_position(ttt_game *g, every_position *all)
{
    uint32_t index = position_index(g);
    if (all->visited[index] || ttt_state(g) != TTT_IN_PROGRESS)
        return;
    all->visited[index] = 1;
    if (all->reached++ % all->stride == 0)
        check_one_position(g, all);
    int n = ttt_size(g);
    for (int cell = 0; cell < n * n; cell++) {
        int mark;
        assert_int_equal(ttt_cell(g, cell / n, cell % n, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        assert_int_equal(ttt_play(g, ttt_to_move(g), cell / n, cell % n, NULL), TTT_OK);
        check_position(g, all);
        assert_int_equal(ttt_undo(g), TTT_OK);
    }
}

static void check_every_position(int n, int misere, int early, long stride)
{
    ttt_game *g = new_game(n, n, misere, early);
    every_position all;
    all.memo = new_memo(n * n);
    all.visited = calloc(19683, 1);
    all.draw_plies = malloc(19683);
    assert_non_null(all.visited);
    assert_non_null(all.draw_plies);
    memset(all.draw_plies, -1, 19683);
    all.reached = 0;
    all.stride = stride;
    check_position(g, &all);
    assert_true(all.reached > 0);
    if (!misere && !early)
        assert_int_equal(all.reached, 4520); /* the in-progress positions */
    free(all.visited);
    free(all.draw_plies);
    free(all.memo.score);
    ttt_game_free(g);
}

static void test_perfect_from_every_3x3_position(void **state)
{
    (void)state;
    check_every_position(3, 0, 0, 1);
}

/* Quick mode (quick.h) still walks every position of the variants but
 * checks every fourth one. */
static void test_perfect_from_every_3x3_position_variants(void **state)
{
    (void)state;
    long stride = quick_mode() ? 4 : 1;
    check_every_position(3, 1, 0, stride);
    check_every_position(3, 0, 1, stride);
    check_every_position(3, 1, 1, stride);
}

/* Random positions of several shapes: the solver's value equals the plain
 * alpha-beta, and equals the best backed-up value of its children solved
 * one by one (consistency where no plain search reaches). */
static void test_solve_random_positions(void **state)
{
    (void)state;
    static const int shapes[][5] = {
        /* n, k, empty cells left, misere, early draw */
        {4, 3, 10, 0, 0}, {4, 4, 11, 0, 0}, {5, 4, 10, 0, 0}, {5, 3, 9, 0, 0},
        {4, 4, 10, 1, 0}, {4, 4, 11, 0, 1}, {4, 3, 10, 1, 1}, {6, 4, 9, 0, 0},
    };
    /* Quick mode (quick.h) solves a quarter (a third) of the positions. */
    int quick = quick_mode();
    uint64_t seed = 31337;
    for (size_t shape = 0; shape < sizeof shapes / sizeof shapes[0]; shape++) {
        const int *sh = shapes[shape];
        for (int trial = 0; trial < (quick ? 3 : 12); trial++) {
            ttt_game *g = new_game(sh[0], sh[0] == sh[1] ? 0 : sh[1], sh[3], sh[4]);
            while (ttt_state(g) == TTT_IN_PROGRESS &&
                   sh[0] * sh[0] - ttt_ply(g) > sh[2]) {
                int row, col;
                assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
                assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
            }
            if (ttt_state(g) == TTT_IN_PROGRESS) {
                ttt_solution s;
                int32_t best[MAXCELLS];
                size_t len;
                assert_int_equal(solve(g, TTT_SOLVE_VALUE_ONLY, &s, best, &len), TTT_OK);
                assert_int_equal(s.value, plain_value(g, -2, 2));
            }
            ttt_game_free(g);
        }
    }

    /* Larger: 5x5 K=4 with 15 empty cells, too many for the plain search. */
    for (int trial = 0; trial < (quick ? 2 : 6); trial++) {
        ttt_game *g = new_game(5, 4, 0, 0);
        while (ttt_state(g) == TTT_IN_PROGRESS && 25 - ttt_ply(g) > 15) {
            int row, col;
            assert_int_equal(ttt_random_move(g, &seed, &row, &col), TTT_OK);
            assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
        }
        if (ttt_state(g) != TTT_IN_PROGRESS) {
            ttt_game_free(g);
            continue;
        }
        ttt_solution s, child;
        int32_t best[MAXCELLS];
        size_t len;
        assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
        int children_best = -2;
        int keeps[MAXCELLS] = {0};
        for (int cell = 0; cell < 25; cell++) {
            int mark, st, mover = ttt_to_move(g);
            assert_int_equal(ttt_cell(g, cell / 5, cell % 5, &mark), TTT_OK);
            if (mark != TTT_EMPTY)
                continue;
            assert_int_equal(ttt_play(g, mover, cell / 5, cell % 5, &st), TTT_OK);
            int v = outcome_for(st, mover);
            if (st == TTT_IN_PROGRESS) {
                assert_int_equal(solve(g, TTT_SOLVE_VALUE_ONLY, &child, NULL, NULL), TTT_OK);
                v = -child.value;
            }
            assert_int_equal(ttt_undo(g), TTT_OK);
            keeps[cell] = v == s.value;
            if (v > children_best)
                children_best = v;
        }
        assert_int_equal(s.value, children_best);
        for (size_t i = 0; i < len; i++)
            assert_true(keeps[best[i]]);
        if (s.value == TTT_VALUE_DRAW) {
            /* For a draw every value-keeping move is listed. */
            size_t keeping = 0;
            for (int cell = 0; cell < 25; cell++)
                keeping += (size_t)keeps[cell];
            assert_int_equal(len, keeping);
        }
        ttt_game_free(g);
    }
}

static void test_solve_budget_and_buffers(void **state)
{
    (void)state;
    ttt_game *g = new_game(5, 4, 0, 0);
    game_picture before;
    take_picture(g, &before);
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    int32_t best[MAXCELLS];
    size_t len = 0;
    assert_int_equal(ttt_solve(g, 500, 0, 0, &s, best, MAXCELLS, &len), TTT_E_BUDGET);
    assert_unchanged(g, &before);
    assert_true(s.nodes <= 500);
    assert_true(s.value_min <= s.value_max);
    assert_int_equal(s.value, s.value_min);
    assert_int_equal(s.plies, -1);
    assert_true(len <= 1);

    /* A budget that only reaches the value: the second pass stops. */
    ttt_game_free(g);
    g = new_game(3, 3, 0, 0);
    assert_int_equal(ttt_solve(g, 0, 0, TTT_SOLVE_VALUE_ONLY, &s, best, MAXCELLS, &len), TTT_OK);
    uint64_t value_nodes = s.nodes;
    assert_int_equal(ttt_solve(g, value_nodes + 1, 0, 0, &s, best, MAXCELLS, &len), TTT_E_BUDGET);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(s.value_min, s.value_max);

    /* Too small a buffer: the needed length, nothing else. */
    ttt_solution untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    untouched.size = sizeof untouched;
    ttt_solution copy = untouched;
    assert_int_equal(ttt_solve(g, 0, 0, 0, &copy, best, 3, &len), TTT_E_BUFFER);
    assert_int_equal(len, 9);
    assert_memory_equal(&copy, &untouched, sizeof copy);

    /* A struct from an older caller is refused if too small; fields past
     * size are never written. */
    copy.size = sizeof(size_t);
    assert_int_equal(ttt_solve(g, 0, 0, 0, &copy, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_solve(g, 0, 0, 2, &s, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_solve(g, 0, 0, 0, &s, NULL, 4, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_solve(g, 0, 0, 0, &s, best, 9, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_solve(NULL, 0, 0, 0, &s, NULL, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_solve(g, 0, 0, 0, NULL, NULL, 0, NULL), TTT_E_INVALID);
    /* A tiny table still gives the right answer. */
    assert_int_equal(ttt_solve(g, 0, 64, 0, &s, best, MAXCELLS, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_DRAW);
    assert_int_equal(len, 9);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Bots                                                                      */

static void assert_bot_plays(const ttt_game *g, int level, const char *cell)
{
    int row, col;
    uint64_t seed = 5;
    game_picture before;
    take_picture(g, &before);
    assert_int_equal(ttt_best_move(g, level, 0, &seed, &row, &col), TTT_OK);
    assert_unchanged(g, &before);
    assert_int_equal(row * ttt_size(g) + col, cell_of(g, cell));
}

static void test_strong_bot_tactics(void **state)
{
    (void)state;
    int row, col, st;
    uint64_t seed = 3;
    /* 7x7 K=4. X to move wins at d1 (a1 b1 c1). */
    ttt_game *g = game_with(7, 4, (const char *const[]){"a1", "g7", "b1", "f7", "c1", "a7"}, 6);
    play_name(g, "e4"); /* X elsewhere */
    play_name(g, "e7"); /* O now threatens d7 (d7 e7 f7 g7) */
    /* X to move: win at d1 beats blocking. */
    assert_bot_plays(g, TTT_BOT_STRONG, "d1");
    ttt_game_free(g);

    /* 7x7 K=4: O to move must block d1. */
    g = game_with(7, 4, (const char *const[]){"a1", "g7", "b1", "f6", "c1"}, 5);
    assert_bot_plays(g, TTT_BOT_STRONG, "d1");
    ttt_game_free(g);

    /* 15x15 K=5: X (d8 e8 f8 g8) to move wins at c8 or h8. */
    g = game_with(15, 5, (const char *const[]){"d8", "a1", "e8", "o15", "f8", "a15", "g8", "o1"}, 8);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_OK);
    assert_int_equal(ttt_play(g, TTT_X, row, col, &st), TTT_OK);
    assert_int_equal(st, TTT_X_WON);
    ttt_game_free(g);

    /* 15x15 K=5: O blocks the closed four (c8 is taken by O, so only h8). */
    g = game_with(15, 5, (const char *const[]){"d8", "c8", "e8", "a1", "f8", "o15", "g8"}, 7);
    assert_bot_plays(g, TTT_BOT_STRONG, "h8");
    ttt_game_free(g);

    /* 15x15 K=5: O faces the open three e8 f8 g8. Only d8 or h8 stop it:
     * after c8 or i8, or anything else, X makes an open four (two
     * completion cells). */
    g = game_with(15, 5, (const char *const[]){"e8", "a1", "f8", "o15", "g8"}, 5);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_OK);
    int chosen = row * 15 + col;
    assert_true(chosen == cell_of(g, "d8") || chosen == cell_of(g, "h8"));
    ttt_game_free(g);

    /* 7x7 K=4: X (b2 c2 d3 d4) to move, O (g7 g6 a7 f7) with no threat.
     * d2 makes a2, e2, d1 and d5 completion cells at once: a double threat
     * that wins; the bot must play a move after which O is lost at once. */
    g = game_with(7, 4, (const char *const[]){"b2", "g7", "c2", "g6", "d3", "a7", "d4", "f7"}, 8);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_OK);
    assert_int_equal(ttt_play(g, TTT_X, row, col, NULL), TTT_OK);
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    assert_int_equal(ttt_solve(g, 10000, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_LOSS); /* for O */
    ttt_game_free(g);
}

/* Plays a game between two levels; returns the final state. */
static int play_match(int n, int k, int x_level, int o_level, uint64_t seed,
                      uint64_t budget)
{
    ttt_game *g = new_game(n, k, 0, 0);
    while (ttt_state(g) == TTT_IN_PROGRESS) {
        int level = ttt_to_move(g) == TTT_X ? x_level : o_level;
        int row, col;
        assert_int_equal(ttt_best_move(g, level, level == TTT_BOT_PERFECT ? 0 : budget,
                                       &seed, &row, &col),
                         TTT_OK);
        assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
    }
    int state = ttt_state(g);
    ttt_game_free(g);
    return state;
}

static void test_bot_matches(void **state)
{
    (void)state;
    /* Strong never loses to perfect on 3x3, as either colour. */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        assert_int_not_equal(play_match(3, 3, TTT_BOT_STRONG, TTT_BOT_PERFECT, seed, 0),
                             TTT_O_WON);
        assert_int_not_equal(play_match(3, 3, TTT_BOT_PERFECT, TTT_BOT_STRONG, seed, 0),
                             TTT_X_WON);
        /* Perfect against perfect: always a draw. */
        assert_int_equal(play_match(3, 3, TTT_BOT_PERFECT, TTT_BOT_PERFECT, seed, 0),
                         TTT_DRAW);
    }
    /* Strong against random on 7x7 K=4: a handful of games (the benchmark
     * plays a thousand). */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        assert_int_equal(play_match(7, 4, TTT_BOT_STRONG, TTT_BOT_RANDOM, seed, 2000),
                         TTT_X_WON);
        assert_int_equal(play_match(7, 4, TTT_BOT_RANDOM, TTT_BOT_STRONG, seed, 2000),
                         TTT_O_WON);
    }
}

static void test_best_move_errors(void **state)
{
    (void)state;
    ttt_game *g = new_game(3, 3, 0, 0);
    int row = -3, col = -3;
    uint64_t seed = 1;
    assert_int_equal(ttt_best_move(g, 7, 0, &seed, &row, &col), TTT_E_INVALID);
    assert_int_equal(ttt_best_move(g, TTT_BOT_RANDOM, 0, NULL, &row, &col), TTT_E_INVALID);
    assert_int_equal(ttt_best_move(NULL, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_E_INVALID);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, NULL, &col), TTT_E_INVALID);
    /* Seedless strong and perfect are deterministic. */
    int r1, c1, r2, c2;
    assert_int_equal(ttt_best_move(g, TTT_BOT_PERFECT, 0, NULL, &r1, &c1), TTT_OK);
    assert_int_equal(ttt_best_move(g, TTT_BOT_PERFECT, 0, NULL, &r2, &c2), TTT_OK);
    assert_true(r1 == r2 && c1 == c2);
    /* Perfect with a budget too small for 5x5 says so. */
    ttt_game *big = new_game(5, 4, 0, 0);
    assert_int_equal(ttt_best_move(big, TTT_BOT_PERFECT, 100, &seed, &row, &col), TTT_E_BUDGET);
    assert_true(seed == 1 && row == -3 && col == -3);
    ttt_game_free(big);
    for (const char *const *m = (const char *const[]){"a1", "b1", "a2", "b2", "a3", NULL}; *m; m++)
        play_name(g, *m);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_E_GAME_OVER);
    assert_int_equal(ttt_best_move(g, TTT_BOT_PERFECT, 0, &seed, &row, &col), TTT_E_GAME_OVER);
    assert_int_equal(ttt_best_move(g, TTT_BOT_RANDOM, 0, &seed, &row, &col), TTT_E_GAME_OVER);
    ttt_game_free(g);
}

/* Undone moves waiting on the redo stack survive every engine call. */
static void test_engine_keeps_redo_stack(void **state)
{
    (void)state;
    ttt_game *g = game_with(4, 3, (const char *const[]){"b2", "c3", "a1", "d4", "b3"}, 5);
    assert_int_equal(ttt_undo(g), TTT_OK);
    assert_int_equal(ttt_undo(g), TTT_OK);
    game_picture before;
    take_picture(g, &before);
    uint64_t counts[4], lengths[20], seed = 11;
    size_t len;
    ttt_solution s;
    int32_t best[MAXCELLS];
    int row, col;
    assert_int_equal(ttt_perft(g, 5, 0, counts, lengths, 20, &len), TTT_OK);
    assert_unchanged(g, &before);
    assert_int_equal(ttt_count_positions(g, 5, 0, counts), TTT_OK);
    assert_unchanged(g, &before);
    assert_int_equal(solve(g, 0, &s, best, &len), TTT_OK);
    assert_unchanged(g, &before);
    for (int level = TTT_BOT_RANDOM; level <= TTT_BOT_PERFECT; level++) {
        assert_int_equal(ttt_best_move(g, level, 0, &seed, &row, &col), TTT_OK);
        assert_unchanged(g, &before);
    }
    assert_int_equal(ttt_redo(g), TTT_OK);
    assert_int_equal(ttt_redo(g), TTT_OK);
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_move_is_legal_and_reproducible),
        cmocka_unit_test(test_random_move_is_uniform),
        cmocka_unit_test(test_random_move_follows_the_header),
        cmocka_unit_test(test_random_move_errors),
        cmocka_unit_test(test_random_playout),
        cmocka_unit_test(test_perft_classic_numbers),
        cmocka_unit_test(test_perft_matches_walk),
        cmocka_unit_test(test_perft_edges),
        cmocka_unit_test(test_count_positions),
        cmocka_unit_test(test_solve_classic_boards),
        cmocka_unit_test(test_solve_hand_made_positions),
        cmocka_unit_test(test_perfect_from_every_3x3_position),
        cmocka_unit_test(test_perfect_from_every_3x3_position_variants),
        cmocka_unit_test(test_solve_random_positions),
        cmocka_unit_test(test_solve_budget_and_buffers),
        cmocka_unit_test(test_strong_bot_tactics),
        cmocka_unit_test(test_bot_matches),
        cmocka_unit_test(test_best_move_errors),
        cmocka_unit_test(test_engine_keeps_redo_stack),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
