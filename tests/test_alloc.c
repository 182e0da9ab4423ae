/* test_alloc.c - fails every allocation in turn: each failure reports TTT_E_NOMEM, leaks nothing and changes no existing game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

/* An allocator that refuses its fail_at-th call (counting from 1; 0 never
 * fails) and keeps every block it handed out, so the test can tell a leak
 * from a double or foreign free. */
#define MAX_BLOCKS 64

typedef struct test_heap {
    long calls;
    long fail_at;
    long failures;
    int live;
    int bad_frees;
    void *blocks[MAX_BLOCKS];
} test_heap;

static void *heap_alloc(void *user, size_t size)
{
    test_heap *heap = user;
    heap->calls++;
    if (heap->calls == heap->fail_at) {
        heap->failures++;
        return NULL;
    }
    for (int i = 0; i < MAX_BLOCKS; i++) {
        if (heap->blocks[i] == NULL) {
            void *p = malloc(size == 0 ? 1 : size);
            heap->blocks[i] = p;
            heap->live += p != NULL;
            return p;
        }
    }
    return NULL; /* table full: the test would report the NOMEM */
}

static void heap_dealloc(void *user, void *ptr)
{
    test_heap *heap = user;
    if (ptr == NULL)
        return;
    for (int i = 0; i < MAX_BLOCKS; i++) {
        if (heap->blocks[i] == ptr) {
            heap->blocks[i] = NULL;
            heap->live--;
            free(ptr);
            return;
        }
    }
    heap->bad_frees++;
}

static ttt_allocator allocator_for(test_heap *heap)
{
    ttt_allocator a = {heap_alloc, heap_dealloc, heap};
    return a;
}

/* Arms the heap to fail its n-th call from now. */
static void fail_nth(test_heap *heap, long n)
{
    heap->calls = 0;
    heap->fail_at = n;
    heap->failures = 0;
}

/* Everything observable about a game, to prove a failed call left it alone:
 * its saved record, its board bytes and the counters the record omits. */
typedef struct snapshot {
    char record[4096];
    size_t record_len;
    int8_t cells[256];
    size_t cells_len;
    int state, ply, redo_count, to_move;
} snapshot;

static void take_snapshot(const ttt_game *game, snapshot *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(ttt_game_save(game, s->record, sizeof s->record, &s->record_len),
                     TTT_OK);
    assert_int_equal(ttt_board(game, s->cells, sizeof s->cells, &s->cells_len), TTT_OK);
    s->state = ttt_state(game);
    s->ply = ttt_ply(game);
    s->redo_count = ttt_redo_count(game);
    s->to_move = ttt_to_move(game);
}

static void assert_unchanged(const ttt_game *game, const snapshot *before)
{
    snapshot now;
    take_snapshot(game, &now);
    assert_int_equal(now.record_len, before->record_len);
    assert_memory_equal(now.record, before->record, now.record_len);
    assert_int_equal(now.cells_len, before->cells_len);
    assert_memory_equal(now.cells, before->cells, now.cells_len);
    assert_int_equal(now.state, before->state);
    assert_int_equal(now.ply, before->ply);
    assert_int_equal(now.redo_count, before->redo_count);
    assert_int_equal(now.to_move, before->to_move);
}

/* The sentinel an out-parameter holds until a call succeeds. */
static ttt_game *const untouched = (ttt_game *)(uintptr_t)0x5a5a;

/* ------------------------------------------------------------------------ */

static void test_new_with_fails_cleanly(void **unused)
{
    (void)unused;
    static const int shapes[][2] = {{3, 0}, {4, 3}, {9, 5}, {15, 15}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        test_heap heap = {0};
        ttt_allocator a = allocator_for(&heap);
        long n;
        for (n = 1;; n++) {
            ttt_game *game = untouched;
            fail_nth(&heap, n);
            int status = ttt_game_new_with(shapes[s][0], shapes[s][1], &a, &game);
            if (heap.failures == 0) {
                /* Ran out of allocations to fail: it must have worked. */
                assert_int_equal(status, TTT_OK);
                assert_int_equal(heap.live, 1);
                assert_int_equal(ttt_size(game), shapes[s][0]);
                ttt_game_free(game);
                break;
            }
            assert_int_equal(status, TTT_E_NOMEM);
            assert_ptr_equal(game, untouched);
            assert_int_equal(heap.live, 0);
        }
        assert_int_equal(heap.live, 0);
        assert_int_equal(heap.bad_frees, 0);
        /* A game is one block (DESIGN.md): one failure point. */
        assert_int_equal(n, 2);
    }
}

/* Plays a few moves, leaves one on the redo stack and installs a listener,
 * so a clone has history, redo and listener state to get wrong. */
static void noop_listener(void *user, const ttt_event *event)
{
    (void)event;
    (*(int *)user)++;
}

static ttt_game *busy_game(const ttt_allocator *a, int *events)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_with(5, 4, a, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_X, 2, 2, NULL), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_X, 1, 3, NULL), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_O, 4, 4, NULL), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_set_listener(game, noop_listener, events), TTT_OK);
    return game;
}

static void test_clone_fails_cleanly(void **unused)
{
    (void)unused;
    test_heap heap = {0};
    ttt_allocator a = allocator_for(&heap);
    int events = 0;
    ttt_game *game = busy_game(&a, &events);
    snapshot before;
    take_snapshot(game, &before);
    int live_before = heap.live;

    long n;
    for (n = 1;; n++) {
        ttt_game *copy = untouched;
        fail_nth(&heap, n);
        int status = ttt_game_clone(game, &copy);
        if (heap.failures == 0) {
            assert_int_equal(status, TTT_OK);
            assert_int_equal(heap.live, live_before + 1);
            assert_unchanged(copy, &before);
            ttt_game_free(copy);
            break;
        }
        assert_int_equal(status, TTT_E_NOMEM);
        assert_ptr_equal(copy, untouched);
        assert_int_equal(heap.live, live_before);
        assert_unchanged(game, &before);
    }
    assert_int_equal(n, 2);
    assert_int_equal(events, 0); /* a failed clone announces nothing */
    /* The original still plays normally after all those failures. */
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(events, 1);
    ttt_game_free(game);
    assert_int_equal(heap.live, 0);
    assert_int_equal(heap.bad_frees, 0);
}

/* Loads record with every allocation failing in turn; expect is the status
 * the load gives once memory suffices. */
static void load_with_failures(const char *record, int expect)
{
    test_heap heap = {0};
    ttt_allocator a = allocator_for(&heap);
    long n;
    for (n = 1;; n++) {
        ttt_game *game = untouched;
        size_t offset = 777;
        fail_nth(&heap, n);
        int status = ttt_game_load(record, strlen(record), &a, &game, &offset);
        if (heap.failures == 0) {
            assert_int_equal(status, expect);
            if (status == TTT_OK) {
                char again[4096];
                size_t len;
                assert_int_equal(heap.live, 1);
                assert_int_equal(ttt_game_save(game, again, sizeof again, &len),
                                 TTT_OK);
                assert_int_equal(len, strlen(record));
                assert_memory_equal(again, record, len);
                ttt_game_free(game);
            } else {
                assert_ptr_equal(game, untouched);
            }
            break;
        }
        assert_int_equal(status, TTT_E_NOMEM);
        assert_ptr_equal(game, untouched);
        assert_int_equal(heap.live, 0);
    }
    assert_int_equal(heap.live, 0);
    assert_int_equal(heap.bad_frees, 0);
}

static void test_load_fails_cleanly(void **unused)
{
    (void)unused;
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=-\n", TTT_OK);
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3,a2,b1,a3\n",
                       TTT_OK);
    load_with_failures("ttt/1 n=5 k=4 rules=misere+early-draw moves=c3,a1,d2\n",
                       TTT_OK);
    load_with_failures("ttt/1 n=30 k=5 rules=early-draw moves=ad30,a1\n", TTT_OK);
    /* Failures found only after the game was allocated must free it. */
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=b2,b2\n", TTT_E_OCCUPIED);
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=b2,d1\n", TTT_E_OFF_BOARD);
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=a1,b1,a2,b2,a3,b3\n",
                       TTT_E_GAME_OVER);
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=b2,a1\nx", TTT_E_PARSE);
    load_with_failures("ttt/1 n=3 k=3 rules=classic moves=b2,\n", TTT_E_PARSE);
    /* Failures found before any allocation. */
    load_with_failures("ttt/1 n=2 k=3 rules=classic moves=-\n", TTT_E_SIZE);
    load_with_failures("ttt/2", TTT_E_PARSE);
}

static void test_bad_allocators(void **unused)
{
    (void)unused;
    test_heap heap = {0};
    ttt_allocator missing_alloc = {NULL, heap_dealloc, &heap};
    ttt_allocator missing_free = {heap_alloc, NULL, &heap};
    ttt_game *game = untouched;
    assert_int_equal(ttt_game_new_with(3, 0, &missing_alloc, &game), TTT_E_INVALID);
    assert_int_equal(ttt_game_new_with(3, 0, &missing_free, &game), TTT_E_INVALID);
    assert_ptr_equal(game, untouched);
    assert_int_equal(heap.calls, 0);
    assert_int_equal(ttt_game_load("ttt/1 n=3 k=3 rules=classic moves=-\n", 36,
                                   &missing_free, &game, NULL),
                     TTT_E_INVALID);
    assert_ptr_equal(game, untouched);
    assert_int_equal(heap.calls, 0);
}

/* A game built in caller memory clones onto the heap (malloc), and its own
 * memory is never passed to any allocator. */
static void test_init_game_never_allocates(void **unused)
{
    (void)unused;
    size_t bytes = ttt_game_footprint(4, 0);
    assert_true(bytes > 0);
    void *mem = malloc(bytes);
    assert_non_null(mem);
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_init(mem, bytes, 4, 0, &game), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_X, 0, 0, NULL), TTT_OK);
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
    assert_int_equal(ttt_ply(copy), 1);
    ttt_game_free(copy);
    ttt_game_free(game); /* frees nothing: the memory is ours */
    free(mem);
}

/* ------------------------------------------------------------------------ */
/* The engine allocates its tables through the game's allocator.            */

#ifdef TTT_SOLVE_VALUE_ONLY /* declared with the engine's functions */

/* Which engine call fail_engine_call runs. */
enum engine_call {
    SOLVE, SOLVE_VALUE, PERFT, COUNT_POSITIONS, BEST_PERFECT, BEST_STRONG, PLAYOUTS
};

/* Everything one engine call writes, so a failure can be shown to write
 * nothing. */
typedef struct engine_out {
    ttt_solution solution;
    int32_t best[16];
    size_t best_len;
    uint64_t counts[4];
    uint64_t by_length[16];
    size_t by_length_len;
    uint64_t seed;
    int row, col;
} engine_out;

static int run_engine(enum engine_call call, const ttt_game *game, engine_out *o)
{
    switch (call) {
    case SOLVE:
    case SOLVE_VALUE:
        return ttt_solve(game, 0, 0, call == SOLVE ? 0 : TTT_SOLVE_VALUE_ONLY,
                         &o->solution, o->best, 16, &o->best_len);
    case PERFT:
        return ttt_perft(game, 9, 0, o->counts, o->by_length, 16, &o->by_length_len);
    case COUNT_POSITIONS:
        return ttt_count_positions(game, 9, 0, o->counts);
    case BEST_PERFECT:
        return ttt_best_move(game, TTT_BOT_PERFECT, 0, &o->seed, &o->row, &o->col);
    case BEST_STRONG:
        return ttt_best_move(game, TTT_BOT_STRONG, 0, &o->seed, &o->row, &o->col);
    case PLAYOUTS:
        return ttt_random_playouts(game, &o->seed, 20, o->counts);
    }
    return TTT_E_INVALID;
}

/* Fills an engine_out with a pattern, plus the fields the caller sets. */
static void prepare(engine_out *o)
{
    memset(o, 0x5a, sizeof *o);
    o->solution.size = sizeof o->solution;
    o->seed = 42;
}

/* Fails each allocation of one engine call in turn on a 3x3 game two moves
 * in (and on a 4x4 one for the solver, whose tables are bigger). */
static void fail_engine_call(enum engine_call call, int size)
{
    test_heap heap = {0};
    ttt_allocator a = allocator_for(&heap);
    ttt_game *game = NULL;
    int events = 0;
    assert_int_equal(ttt_game_new_with(size, 0, &a, &game), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_set_listener(game, noop_listener, &events), TTT_OK);
    snapshot before;
    take_snapshot(game, &before);

    /* The answer with memory to spare, to compare the last run against. */
    engine_out expect;
    prepare(&expect);
    assert_int_equal(run_engine(call, game, &expect), TTT_OK);
    assert_int_equal(heap.live, 1);

    long n;
    for (n = 1; n < 100000; n++) {
        engine_out got;
        prepare(&got);
        fail_nth(&heap, n);
        int status = run_engine(call, game, &got);
        if (heap.failures == 0) {
            assert_int_equal(status, TTT_OK);
            /* Deterministic: the same call gives the same answer. */
            if (call == SOLVE || call == SOLVE_VALUE) {
                assert_int_equal(got.solution.value, expect.solution.value);
                assert_int_equal(got.solution.plies, expect.solution.plies);
            } else if (call == PERFT || call == COUNT_POSITIONS || call == PLAYOUTS) {
                assert_memory_equal(got.counts, expect.counts, sizeof got.counts);
                assert_true(got.seed == expect.seed);
            } else {
                assert_int_equal(got.row, expect.row);
                assert_int_equal(got.col, expect.col);
            }
            break;
        }
        assert_int_equal(status, TTT_E_NOMEM);
        assert_int_equal(heap.live, 1); /* only the game itself */
        /* A failed call writes nothing, the seed and lengths included. */
        engine_out untouched_out;
        prepare(&untouched_out);
        assert_memory_equal(&got, &untouched_out, sizeof got);
        assert_unchanged(game, &before);
    }
    assert_true(n > 1); /* the call allocated at least once */
    assert_int_equal(events, 0);
    ttt_game_free(game);
    assert_int_equal(heap.live, 0);
    assert_int_equal(heap.bad_frees, 0);
}

static void test_solve_fails_cleanly(void **unused)
{
    (void)unused;
    fail_engine_call(SOLVE, 3);
    fail_engine_call(SOLVE_VALUE, 3);
    fail_engine_call(SOLVE_VALUE, 4);
}

static void test_perft_fails_cleanly(void **unused)
{
    (void)unused;
    fail_engine_call(PERFT, 3);
    fail_engine_call(COUNT_POSITIONS, 3);
}

static void test_best_move_fails_cleanly(void **unused)
{
    (void)unused;
    fail_engine_call(BEST_PERFECT, 3);
    fail_engine_call(BEST_STRONG, 3);
}

/* Boards past 4x4 (or with K < N, or early draw) copy the game for their
 * random games; up to 4x4 they allocate nothing. */
static void test_random_playouts_fail_cleanly(void **unused)
{
    (void)unused;
    fail_engine_call(PLAYOUTS, 5);
    for (int size = 3; size <= 4; size++) {
        test_heap heap = {0};
        ttt_allocator a = allocator_for(&heap);
        ttt_game *game = NULL;
        assert_int_equal(ttt_game_new_with(size, 0, &a, &game), TTT_OK);
        long calls = heap.calls;
        engine_out o;
        prepare(&o);
        assert_int_equal(run_engine(PLAYOUTS, game, &o), TTT_OK);
        assert_int_equal(heap.calls, calls);
        assert_true(o.counts[TTT_X_WON] + o.counts[TTT_O_WON] + o.counts[TTT_DRAW] == 20);
        ttt_game_free(game);
        assert_int_equal(heap.live, 0);
    }
}

#endif /* TTT_SOLVE_VALUE_ONLY */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_with_fails_cleanly),
        cmocka_unit_test(test_clone_fails_cleanly),
        cmocka_unit_test(test_load_fails_cleanly),
        cmocka_unit_test(test_bad_allocators),
        cmocka_unit_test(test_init_game_never_allocates),
#ifdef TTT_SOLVE_VALUE_ONLY
        cmocka_unit_test(test_solve_fails_cleanly),
        cmocka_unit_test(test_perft_fails_cleanly),
        cmocka_unit_test(test_best_move_fails_cleanly),
        cmocka_unit_test(test_random_playouts_fail_cleanly),
#endif
    };
    return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}
