/* test_playout.c - ttt_random_playout plays exactly the moves of ttt_random_move + ttt_play, under every rule and path. */
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

static const config configs[] = {
    {3, 3, 0, 0}, {4, 4, 0, 0}, {7, 4, 0, 0}, {5, 4, 1, 0},
    {5, 5, 0, 1}, {6, 4, 0, 1}, {3, 3, 1, 1}, {9, 5, 0, 0},
};

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
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_moves_as_by_hand),
        cmocka_unit_test(test_listener_hears_every_move),
        cmocka_unit_test(test_rejections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
