/* test_proof.c - the proof-number search's values and moves checked against the plain alpha-beta search on small boards and random openings; its budget and memory contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "proof.h"
#include "quick.h"
#include "ttt.h"

#ifndef TTT_NO_SHORTCUTS
#error "this suite links the library built with TTT_NO_SHORTCUTS: its full ttt_solve is the plain search"
#endif

#define MAXCELLS 100

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

typedef struct counting {
    size_t live;
    long allocs;
    long fail_after; /* allocations that succeed before one fails; -1 never */
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *count = user;
    if (count->fail_after >= 0 && count->allocs >= count->fail_after)
        return NULL;
    size_t *block = malloc(sizeof(max_align_t) + size);
    if (!block)
        return NULL;
    *block = size;
    count->live += size;
    count->allocs++;
    return (char *)block + sizeof(max_align_t);
}

static void counting_dealloc(void *user, void *ptr)
{
    counting *count = user;
    if (!ptr)
        return;
    size_t *block = (size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    count->live -= *block;
    free(block);
}

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    return g;
}

static int mark_at(const ttt_game *g, int cell)
{
    int n = ttt_size(g), mark = 0;
    assert_int_equal(ttt_cell(g, cell / n, cell % n, &mark), TTT_OK);
    return mark;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *state >> 33;
}

/* Plays up to plies random moves; returns 0 if the game ended on the way. */
static int random_opening(ttt_game *g, int plies, uint64_t *seed)
{
    int n = ttt_size(g);
    for (int i = 0; i < plies; i++) {
        if (ttt_state(g) != TTT_IN_PROGRESS)
            return 0;
        int cell;
        do {
            cell = (int)(next_random(seed) % (uint64_t)(n * n));
        } while (mark_at(g, cell) != TTT_EMPTY);
        assert_int_equal(ttt_play(g, ttt_to_move(g), cell / n, cell % n, NULL), TTT_OK);
    }
    return ttt_state(g) == TTT_IN_PROGRESS;
}

/* The plain search's value: a full solve never takes the proof search,
 * nor does any solve of 25 cells or fewer (the cheaper value-only one
 * then). Returns 0 and leaves *value alone if the budget ran out. */
static int plain_value(const ttt_game *g, uint64_t budget, int32_t *value)
{
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    int flags = ttt_size(g) * ttt_size(g) <= 25 ? TTT_SOLVE_VALUE_ONLY : 0;
    int status = ttt_solve(g, budget, 0, flags, &s, NULL, 0, NULL);
    if (status == TTT_E_BUDGET)
        return 0;
    assert_int_equal(status, TTT_OK);
    *value = s.value;
    return 1;
}

typedef struct proof_answer {
    int status;
    int32_t value, value_min, value_max, move;
    uint64_t nodes;
} proof_answer;

/* The proof search called directly on the game's position. */
static proof_answer proof_of(const ttt_game *g, uint64_t budget, size_t table_bytes)
{
    int8_t cells[MAXCELLS];
    int32_t best[MAXCELLS];
    snapshot snap;
    snap.cells = cells;
    take_snapshot(g, &snap);
    solve_result r;
    memset(&r, 0, sizeof r);
    r.best = best;
    ttt_solution found;
    memset(&found, 0, sizeof found);
    found.size = sizeof found;
    proof_answer a;
    a.status = ttt__proof_solve(g, &snap, budget, table_bytes, &r, &found);
    a.value = found.value;
    a.value_min = found.value_min;
    a.value_max = found.value_max;
    a.move = r.best_count > 0 ? r.best[0] : -1;
    a.nodes = found.nodes;
    assert_int_equal(r.value, found.value);
    return a;
}

/* The proof search's value equals the plain search's, and its move keeps
 * that value (checked by the plain search after the move). Returns 0 if
 * the plain search ran out of its budget. */
static int check_position(ttt_game *g, uint64_t plain_budget)
{
    int32_t expected;
    if (!plain_value(g, plain_budget, &expected))
        return 0;
    proof_answer a = proof_of(g, 0, (size_t)1 << 22);
    assert_int_equal(a.status, TTT_OK);
    assert_int_equal(a.value, expected);
    assert_int_equal(a.value_min, expected);
    assert_int_equal(a.value_max, expected);
    int n = ttt_size(g);
    assert_true(a.move >= 0 && a.move < n * n);
    assert_int_equal(mark_at(g, a.move), TTT_EMPTY);

    ttt_game *child = NULL;
    assert_int_equal(ttt_game_clone(g, &child), TTT_OK);
    assert_int_equal(ttt_play(child, ttt_to_move(child), a.move / n, a.move % n, NULL), TTT_OK);
    int32_t after = 2;
    if (ttt_state(child) == TTT_IN_PROGRESS) {
        assert_true(plain_value(child, 0, &after));
        after = -after;
    } else {
        after = ttt_state(child) == TTT_DRAW ? TTT_VALUE_DRAW : TTT_VALUE_WIN;
    }
    assert_int_equal(after, expected);
    ttt_game_free(child);
    return 1;
}

/* Quick mode (quick.h; the valgrind and qemu CI stages, where a plain
 * search runs 20 to 50 times slower) checks a quarter of the random
 * positions, openings of 4 plies or more only, and leaves out the empty
 * 5x5 K=4 board: the plain searches of 5x5 K=4 from 0 to 3 plies are most
 * of this suite's time. Every other run checks them all. */

/* ------------------------------------------------------------------------ */
/* Differential tests                                                        */

static void test_empty_boards_match_plain_search(void **state)
{
    (void)state;
    static const int games[][2] = {{3, 3}, {4, 3}, {4, 4}, {5, 3}, {5, 5}, {5, 4}};
    size_t count = sizeof games / sizeof games[0] - (quick_mode() ? 1 : 0);
    for (size_t i = 0; i < count; i++) {
        ttt_game *g = new_game(games[i][0], games[i][1]);
        assert_true(check_position(g, 0));
        ttt_game_free(g);
    }
}

/* Random openings of 1 to 9 plies on 4x4 and 5x5 boards, K 3 to 5. */
static void test_random_openings_match_plain_search(void **state)
{
    (void)state;
    static const int games[][2] = {{4, 3}, {4, 4}, {5, 3}, {5, 4}, {5, 5}};
    uint64_t seed = 16;
    int trials = quick_mode() ? 10 : 40;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        int checked = 0;
        for (int trial = 0; trial < trials; trial++) {
            ttt_game *g = new_game(games[i][0], games[i][1]);
            int plies = quick_mode() ? 4 + (int)(next_random(&seed) % 6)
                                     : 1 + (int)(next_random(&seed) % 9);
            if (random_opening(g, plies, &seed))
                checked += check_position(g, 0);
            ttt_game_free(g);
        }
        assert_true(checked >= trials / 2);
    }
}

/* Through ttt_solve: on 6x6 and 7x7 boards a value-only solve takes the
 * proof search, a full solve the plain one; mid-game positions small
 * enough for the plain search must agree. */
static void test_solve_value_only_matches_full_solve(void **state)
{
    (void)state;
    static const int games[][3] = {{6, 4, 14}, {6, 5, 16}, {7, 5, 24}, {7, 4, 22}};
    uint64_t seed = 1616;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        int checked = 0;
        for (int trial = 0; trial < 40 && checked < 12; trial++) {
            ttt_game *g = new_game(games[i][0], games[i][1]);
            int plies = games[i][2] + (int)(next_random(&seed) % 4);
            if (random_opening(g, plies, &seed)) {
                int32_t expected;
                if (plain_value(g, 2000000, &expected)) {
                    ttt_solution s;
                    memset(&s, 0, sizeof s);
                    s.size = sizeof s;
                    int32_t best[MAXCELLS];
                    size_t len = 0;
                    assert_int_equal(ttt_solve(g, 0, (size_t)1 << 22, TTT_SOLVE_VALUE_ONLY, &s,
                                               best, MAXCELLS, &len),
                                     TTT_OK);
                    assert_int_equal(s.value, expected);
                    assert_int_equal((int)len, 1);
                    assert_true(check_position(g, 0));
                    checked++;
                }
            }
            ttt_game_free(g);
        }
        assert_true(checked >= 6);
    }
}

/* Mid-game positions (4 to 10 plies) on 5x5 with K = 4, where pairings and
 * their zones settle most disproofs and many siblings are refuted by a
 * zone: each value the proof search gives (and its move) must be the
 * plain search's. A pairing zone left empty fails here. */
static void test_zone_disproofs_match_plain_search(void **state)
{
    (void)state;
    uint64_t seed = 1717;
    int checked = 0, wins = 0;
    int trials = quick_mode() ? 20 : 60;
    for (int trial = 0; trial < trials; trial++) {
        ttt_game *g = new_game(5, 4);
        int32_t value;
        if (random_opening(g, 4 + (int)(next_random(&seed) % 7), &seed) &&
            plain_value(g, 3000000, &value)) {
            checked += check_position(g, 3000000);
            wins += value == TTT_VALUE_WIN;
        }
        ttt_game_free(g);
    }
    print_message("# 5x5 K=4: %d positions checked, %d of them wins\n", checked, wins);
    assert_true(checked >= trials * 2 / 3 && wins >= trials / 6);
}

/* A 6x6 K=4 position, X to move, that O wins: a disproof below it passes
 * through attacker's nodes whose moves a rule cut (a block, or the answers
 * to a double threat), whose zone must then be every cell. With the union
 * of the children's zones there, the search calls it a draw. */
static void test_rule_cut_node_zone_is_every_cell(void **state)
{
    (void)state;
    static const int moves[][2] = {{1, 0}, {0, 0}, {4, 0}, {3, 1}, {5, 5}, {4, 5},
                                   {0, 3}, {4, 2}, {3, 5}, {0, 2}, {0, 4}, {5, 4}};
    ttt_game *g = new_game(6, 4);
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_int_equal(ttt_play(g, ttt_to_move(g), moves[i][0], moves[i][1], NULL), TTT_OK);
    assert_int_equal(proof_of(g, 0, (size_t)1 << 22).value, TTT_VALUE_LOSS);
    assert_true(check_position(g, 0));
    ttt_game_free(g);
}

/* Empty boards where only shared pairings (one pair serving every window
 * through both its cells) keep the proof small: without them (6,6,5)
 * alone took 837,877 positions. (6,6,5) is a known draw; the plain
 * search cannot check boards this size, the random openings above check
 * the same disproofs mid-game against it. */
static void test_shared_pairings_settle_draws_quickly(void **state)
{
    (void)state;
    static const int games[][2] = {{6, 5}, {7, 6}, {8, 6}};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        ttt_game *g = new_game(games[i][0], games[i][1]);
        proof_answer a = proof_of(g, 20000, (size_t)1 << 22);
        assert_int_equal(a.status, TTT_OK);
        assert_int_equal(a.value, TTT_VALUE_DRAW);
        assert_true(a.nodes <= 20000);
        ttt_game_free(g);
    }
}

/* (7,7,5) from the empty board: the first pass, where the defender tries
 * only its best moves, settles the draw in 63,820 positions; every
 * defender's move searched took 272,706. */
static void test_narrow_defender_pass_settles_7_7_5(void **state)
{
    (void)state;
    ttt_game *g = new_game(7, 5);
    proof_answer a = proof_of(g, 100000, (size_t)1 << 24);
    assert_int_equal(a.status, TTT_OK);
    assert_int_equal(a.value, TTT_VALUE_DRAW);
    assert_true(a.nodes <= 100000);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Budget and memory                                                         */

static ttt_game *counted_game(int n, int k, counting *count)
{
    ttt_allocator alloc = {counting_alloc, counting_dealloc, count};
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new_with(n, k, &alloc, &g), TTT_OK);
    return g;
}

static void test_budget_one_stops_and_frees(void **state)
{
    (void)state;
    counting count = {0, 0, -1};
    ttt_game *g = counted_game(7, 5, &count);
    size_t before = count.live;
    long allocs_before = count.allocs;

    proof_answer a = proof_of(g, 1, 0);
    assert_int_equal(a.status, TTT_E_BUDGET);
    assert_int_equal(a.value_min, TTT_VALUE_LOSS);
    assert_int_equal(a.value_max, TTT_VALUE_WIN);
    assert_true(a.nodes >= 1);
    assert_true(count.allocs > allocs_before); /* it did allocate, then freed */
    assert_int_equal(count.live, before);

    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    assert_int_equal(ttt_solve(g, 1, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL), TTT_E_BUDGET);
    assert_int_equal(s.value_min, TTT_VALUE_LOSS);
    assert_int_equal(s.value_max, TTT_VALUE_WIN);
    assert_int_equal(count.live, before);

    /* A bigger budget still bounds the work. */
    assert_int_equal(ttt_solve(g, 5000, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL), TTT_E_BUDGET);
    assert_true(s.nodes >= 5000 && s.nodes < 5000 + 2 * 49);
    assert_int_equal(count.live, before);
    ttt_game_free(g);
    assert_int_equal(count.live, 0);
}

static void test_allocation_failure_reports_nomem(void **state)
{
    (void)state;
    counting count = {0, 0, -1};
    ttt_game *g = counted_game(6, 4, &count);
    size_t before = count.live;
    for (long extra = 0; extra < 2; extra++) {
        count.fail_after = count.allocs + extra;
        proof_answer a = proof_of(g, 0, 0);
        assert_int_equal(a.status, TTT_E_NOMEM);
        assert_int_equal(count.live, before);
    }
    count.fail_after = -1;
    proof_answer a = proof_of(g, 0, (size_t)1 << 20);
    assert_int_equal(a.status, TTT_OK);
    assert_int_equal(a.value, TTT_VALUE_WIN);
    assert_int_equal(count.live, before);
    ttt_game_free(g);
}

/* The proof search is chosen only where it is meant to run. */
static void test_wanted_only_for_large_value_only_solves(void **state)
{
    (void)state;
    int8_t cells[MAXCELLS];
    snapshot snap;
    snap.cells = cells;
    ttt_game *g = new_game(6, 4);
    take_snapshot(g, &snap);
    assert_true(ttt__proof_wanted(&snap, 0));
    assert_false(ttt__proof_wanted(&snap, 1));
    snap.misere = 1;
    assert_false(ttt__proof_wanted(&snap, 0));
    ttt_game_free(g);
    g = new_game(5, 4);
    take_snapshot(g, &snap);
    assert_false(ttt__proof_wanted(&snap, 0));
    ttt_game_free(g);
    g = new_game(7, 3);
    take_snapshot(g, &snap);
    assert_false(ttt__proof_wanted(&snap, 0));
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_boards_match_plain_search),
        cmocka_unit_test(test_random_openings_match_plain_search),
        cmocka_unit_test(test_solve_value_only_matches_full_solve),
        cmocka_unit_test(test_shared_pairings_settle_draws_quickly),
        cmocka_unit_test(test_zone_disproofs_match_plain_search),
        cmocka_unit_test(test_rule_cut_node_zone_is_every_cell),
        cmocka_unit_test(test_narrow_defender_pass_settles_7_7_5),
        cmocka_unit_test(test_budget_one_stops_and_frees),
        cmocka_unit_test(test_allocation_failure_reports_nomem),
        cmocka_unit_test(test_wanted_only_for_large_value_only_solves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
