/* test_playout.c - ttt_random_playout(s) play exactly the games of ttt_random_move + ttt_play, under every rule and path. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

typedef struct config {
    int size, k, misere, early_draw;
} config;

/* The first four play in registers (up to 4x4, K = N, no early draw). */
static const config configs[] = {
    {3, 3, 0, 0}, {4, 4, 0, 0}, {3, 3, 1, 0}, {4, 4, 1, 0},
    {7, 4, 0, 0}, {5, 4, 1, 0}, {5, 5, 0, 1}, {6, 4, 0, 1},
    {3, 3, 1, 1}, {9, 5, 0, 0}, {4, 3, 0, 0}, {5, 5, 0, 0},
};
#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

static ttt_game *new_game(const config *c)
{
    ttt_game *game;
    assert_int_equal(ttt_game_new(c->size, c->k, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, c->misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, c->early_draw), TTT_OK);
    return game;
}

/* The reference: one ttt_random_move and one ttt_play per ply. */
static int play_out_by_hand(ttt_game *game, uint64_t *seed)
{
    int state = ttt_state(game);
    while (state == TTT_IN_PROGRESS) {
        int row, col;
        assert_int_equal(ttt_random_move(game, seed, &row, &col), TTT_OK);
        assert_int_equal(ttt_play(game, ttt_to_move(game), row, col, &state), TTT_OK);
    }
    return state;
}

static void assert_same_game(const ttt_game *a, const ttt_game *b)
{
    char record_a[4096], record_b[4096];
    size_t len_a, len_b;
    assert_int_equal(ttt_game_save(a, record_a, sizeof record_a, &len_a), TTT_OK);
    assert_int_equal(ttt_game_save(b, record_b, sizeof record_b, &len_b), TTT_OK);
    assert_string_equal(record_a, record_b);
    assert_int_equal(ttt_state(a), ttt_state(b));
    assert_int_equal(ttt_redo_count(a), ttt_redo_count(b));
}

/* Opens with a few moves and an undo, so a redo stack is pending. */
static void open_game(ttt_game *game, uint64_t seed)
{
    for (int i = 0; i < (int)(seed % 3); i++) {
        int row, col;
        uint64_t s = seed + (uint64_t)i;
        assert_int_equal(ttt_random_move(game, &s, &row, &col), TTT_OK);
        assert_int_equal(ttt_play(game, ttt_to_move(game), row, col, NULL), TTT_OK);
    }
    if (ttt_ply(game) > 0)
        assert_int_equal(ttt_undo(game), TTT_OK);
}

static void test_same_moves_as_by_hand(void **state)
{
    (void)state;
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        for (uint64_t seed = 1; seed <= 150; seed++) {
            ttt_game *fast = new_game(&configs[c]), *slow = new_game(&configs[c]);
            open_game(fast, seed);
            open_game(slow, seed);
            uint64_t seed_fast = seed * 0x9E3779B97F4A7C15u, seed_slow = seed_fast;
            int fast_state = -100;
            assert_int_equal(ttt_random_playout(fast, &seed_fast, &fast_state), TTT_OK);
            int slow_state = play_out_by_hand(slow, &seed_slow);
            assert_int_equal(fast_state, slow_state);
            assert_int_not_equal(fast_state, TTT_IN_PROGRESS);
            assert_true(seed_fast == seed_slow);
            assert_same_game(fast, slow);
            assert_int_equal(ttt_redo_count(fast), 0);
            /* The record does not show the order of the empty-cell list or
             * the line counters: take moves back and play on, and the two
             * games must still agree move for move. */
            for (uint64_t i = 0; i < 1 + seed % 4 && ttt_ply(fast) > 0; i++) {
                assert_int_equal(ttt_undo(fast), TTT_OK);
                assert_int_equal(ttt_undo(slow), TTT_OK);
            }
            if (seed % 2)
                assert_int_equal(ttt_redo(fast), ttt_redo(slow));
            assert_int_equal(ttt_random_playout(fast, &seed_fast, &fast_state), TTT_OK);
            assert_int_equal(play_out_by_hand(slow, &seed_slow), fast_state);
            assert_same_game(fast, slow);
            ttt_game_free(fast);
            ttt_game_free(slow);
        }
    }
}

typedef struct tally {
    int events;
    int last_ply;
    int bad;
} tally;

static void count_event(void *user, const ttt_event *event)
{
    tally *t = user;
    t->events++;
    /* One PLAY event per ply, in order. */
    if (event->kind != TTT_EVENT_PLAY || event->ply != t->last_ply + 1)
        t->bad++;
    t->last_ply = event->ply;
}

static void test_listener_hears_every_move(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        const config classic = {4, 3, 0, 0};
        ttt_game *game = new_game(&classic), *reference = new_game(&classic);
        tally t = {0, 0, 0};
        assert_int_equal(ttt_set_listener(game, count_event, &t), TTT_OK);
        uint64_t s1 = seed, s2 = seed;
        int final_state;
        assert_int_equal(ttt_random_playout(game, &s1, &final_state), TTT_OK);
        play_out_by_hand(reference, &s2);
        assert_same_game(game, reference);
        assert_int_equal(t.events, ttt_ply(game));
        assert_int_equal(t.bad, 0);
        assert_int_equal(final_state, ttt_state(game));
        ttt_game_free(game);
        ttt_game_free(reference);
    }
}

static void test_rejections(void **state)
{
    (void)state;
    const config classic = {3, 3, 0, 0};
    ttt_game *game = new_game(&classic);
    uint64_t seed = 7;
    assert_int_equal(ttt_random_playout(NULL, &seed, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_random_playout(game, NULL, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_ply(game), 0);
    assert_int_equal(ttt_random_playout(game, &seed, NULL), TTT_OK);
    uint64_t after = seed;
    int ply = ttt_ply(game);
    int final_state = -100;
    assert_int_equal(ttt_random_playout(game, &seed, &final_state), TTT_E_GAME_OVER);
    assert_true(seed == after);
    assert_int_equal(final_state, -100);
    assert_int_equal(ttt_ply(game), ply);
    ttt_game_free(game);
}

/* A game's hidden state as far as the random player can see it: the next
 * random moves it would make. */
static void assert_same_future(const ttt_game *a, const ttt_game *b)
{
    assert_same_game(a, b);
    ttt_game *ca, *cb;
    assert_int_equal(ttt_game_clone(a, &ca), TTT_OK);
    assert_int_equal(ttt_game_clone(b, &cb), TTT_OK);
    uint64_t sa = 99, sb = 99;
    int state_a, state_b;
    if (ttt_state(a) == TTT_IN_PROGRESS) {
        assert_int_equal(ttt_random_playout(ca, &sa, &state_a), TTT_OK);
        assert_int_equal(ttt_random_playout(cb, &sb, &state_b), TTT_OK);
        assert_same_game(ca, cb);
    }
    ttt_game_free(ca);
    ttt_game_free(cb);
}

/* G games from one call = G single playouts on fresh copies, the seed
 * carried through; the game itself is left as it was. */
static void test_playouts_equal_single_playouts(void **state)
{
    (void)state;
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        for (uint64_t seed = 1; seed <= 12; seed++) {
            ttt_game *game = new_game(&configs[c]), *before = new_game(&configs[c]);
            open_game(game, seed);
            open_game(before, seed);
            tally t = {0, 0, 0};
            assert_int_equal(ttt_set_listener(game, count_event, &t), TTT_OK);
            uint64_t games = 1 + seed * 7;
            uint64_t batch_seed = seed * 0x2545F4914F6CDD1Du, single_seed = batch_seed;
            uint64_t results[4] = {5, 5, 5, 5};
            assert_int_equal(ttt_random_playouts(game, &batch_seed, games, results), TTT_OK);
            uint64_t expect[4] = {0, 0, 0, 0};
            for (uint64_t g = 0; g < games; g++) {
                ttt_game *copy;
                int final_state;
                assert_int_equal(ttt_game_clone(before, &copy), TTT_OK);
                assert_int_equal(ttt_random_playout(copy, &single_seed, &final_state), TTT_OK);
                expect[final_state]++;
                ttt_game_free(copy);
            }
            assert_memory_equal(results, expect, sizeof expect);
            assert_true(batch_seed == single_seed);
            assert_int_equal(t.events, 0);
            assert_same_future(game, before);
            ttt_game_free(game);
            ttt_game_free(before);
        }
    }
}

/* Exact probabilities of each outcome of uniformly random 3x3 play,
 * worked out over every game with exact integer weights: a game of plies
 * p1..pm has probability 1 / (9 * 8 * ... * (9 - m + 1)), so scaling by
 * 9! makes every weight an integer. */
static int line_done(const int *cells, int mark)
{
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int i = 0; i < 8; i++)
        if (cells[lines[i][0]] == mark && cells[lines[i][1]] == mark &&
            cells[lines[i][2]] == mark)
            return 1;
    return 0;
}

static void weigh(int *cells, int empty, int mark, uint64_t weight, uint64_t out[4])
{
    for (int cell = 0; cell < 9; cell++) {
        if (cells[cell] != TTT_EMPTY)
            continue;
        cells[cell] = mark;
        uint64_t share = weight / (uint64_t)empty;
        if (line_done(cells, mark))
            out[mark == TTT_X ? TTT_X_WON : TTT_O_WON] += share;
        else if (empty == 1)
            out[TTT_DRAW] += share;
        else
            weigh(cells, empty - 1, -mark, share, out);
        cells[cell] = TTT_EMPTY;
    }
}

/* One million random games from the empty 3x3 board land within five
 * standard deviations of the exact odds: the player is uniform. */
static void test_playouts_match_exact_odds(void **state)
{
    (void)state;
    int cells[9] = {0};
    uint64_t exact[4] = {0, 0, 0, 0};
    weigh(cells, 9, TTT_X, 362880, exact);
    assert_true(exact[TTT_X_WON] + exact[TTT_O_WON] + exact[TTT_DRAW] == 362880);
    const config classic = {3, 3, 0, 0};
    ttt_game *game = new_game(&classic);
    uint64_t seed = 2026, games = 1000000, results[4];
    assert_int_equal(ttt_random_playouts(game, &seed, games, results), TTT_OK);
    assert_true(results[TTT_IN_PROGRESS] == 0);
    for (int s = TTT_X_WON; s <= TTT_DRAW; s++) {
        double p = (double)exact[s] / 362880.0;
        double expected = p * (double)games;
        double sd = sqrt(expected * (1 - p));
        double off = fabs((double)results[s] - expected);
        if (off > 5 * sd)
            fail_msg("state %d: %llu games, expected %.0f +- %.0f", s,
                     (unsigned long long)results[s], expected, sd);
    }
    ttt_game_free(game);
}

static void test_playouts_rejections(void **state)
{
    (void)state;
    const config sizes[2] = {{3, 3, 0, 0}, {7, 4, 0, 0}};
    for (int i = 0; i < 2; i++) {
        ttt_game *game = new_game(&sizes[i]);
        uint64_t seed = 7, results[4] = {9, 9, 9, 9};
        const uint64_t untouched[4] = {9, 9, 9, 9};
        assert_int_equal(ttt_random_playouts(NULL, &seed, 1, results), TTT_E_INVALID);
        assert_int_equal(ttt_random_playouts(game, NULL, 1, results), TTT_E_INVALID);
        assert_int_equal(ttt_random_playouts(game, &seed, 1, NULL), TTT_E_INVALID);
        assert_memory_equal(results, untouched, sizeof results);
        /* No games: zero counts, the seed as it was. */
        assert_int_equal(ttt_random_playouts(game, &seed, 0, results), TTT_OK);
        assert_true(seed == 7);
        for (int s = 0; s < 4; s++)
            assert_true(results[s] == 0);
        /* A finished game has nothing to play out. */
        assert_int_equal(ttt_random_playout(game, &seed, NULL), TTT_OK);
        uint64_t after = seed;
        memcpy(results, untouched, sizeof results);
        assert_int_equal(ttt_random_playouts(game, &seed, 5, results), TTT_E_GAME_OVER);
        assert_true(seed == after);
        assert_memory_equal(results, untouched, sizeof results);
        ttt_game_free(game);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_moves_as_by_hand),
        cmocka_unit_test(test_listener_hears_every_move),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_playouts_equal_single_playouts),
        cmocka_unit_test(test_playouts_match_exact_odds),
        cmocka_unit_test(test_playouts_rejections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
