/* test_threads.c - many threads on one game: moves stay legal and alternating, copies and searches race with them safely, listeners are called in order and never after removal, ttt_play_at is idempotent. */
/* pthread_barrier_t is POSIX, outside plain C11. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

#define WRITERS 8
#define READERS 2
#define SAVERS 1
/* Threads that copy or search the game while the writers change it: one
 * cloner, one running ttt_random_playouts, one solver. */
#define COPIERS 3
#define THREADS (WRITERS + READERS + SAVERS + COPIERS)
#define SUBMISSIONS 4000

/* A small per-thread generator: rand() would share state between threads. */
static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

/* Counts of what the listener saw, bumped from whichever thread applied the
 * change: each accepted call must produce exactly one event. */
typedef struct event_counts {
    atomic_int play;
    atomic_int undo;
    atomic_int redo;
    atomic_int reset;
} event_counts;

static void count_event(void *user, const ttt_event *event)
{
    event_counts *counts = user;
    switch (event->kind) {
    case TTT_EVENT_PLAY: atomic_fetch_add(&counts->play, 1); break;
    case TTT_EVENT_UNDO: atomic_fetch_add(&counts->undo, 1); break;
    case TTT_EVENT_REDO: atomic_fetch_add(&counts->redo, 1); break;
    case TTT_EVENT_RESET: atomic_fetch_add(&counts->reset, 1); break;
    default: break;
    }
}

typedef struct shared_game {
    ttt_game *game;
    atomic_int writers_left;
    atomic_int accepted_plays;
    atomic_int accepted_undos;
    atomic_int failures; /* impossible results seen by any thread */
    _Atomic(const char *) first_failure;
} shared_game;

/* Counts an impossible result and keeps the first one's description, so a
 * failing run says what went wrong rather than only that something did. */
static void note_failure(shared_game *shared, const char *what)
{
    const char *none = NULL;
    atomic_compare_exchange_strong(&shared->first_failure, &none, what);
    atomic_fetch_add(&shared->failures, 1);
}

typedef struct worker {
    pthread_t thread;
    shared_game *shared;
    uint32_t seed;
} worker;

/* A writer submits moves for whichever mark it believes is to move (the
 * belief may be stale by the time the call runs; the game must sort that
 * out) at random cells, and sometimes takes a move back. */
static void *writer_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;
    int n = ttt_size(game);
    uint32_t rng = w->seed;

    for (int i = 0; i < SUBMISSIONS; i++) {
        uint32_t r = next_random(&rng);
        int status;
        if (r % 8 == 0) {
            status = ttt_undo(game);
            if (status == TTT_OK)
                atomic_fetch_add(&w->shared->accepted_undos, 1);
            else if (status != TTT_E_NO_UNDO)
                note_failure(w->shared, "undo: unexpected status");
            continue;
        }
        int mark = ttt_to_move(game);
        if (mark == TTT_EMPTY)
            mark = (r & 0x100) ? TTT_X : TTT_O; /* game over: submit anyway */
        int row = (int)((r >> 9) % (uint32_t)n);
        int col = (int)((r >> 17) % (uint32_t)n);
        int state = -1;
        status = ttt_play(game, mark, row, col, &state);
        switch (status) {
        case TTT_OK:
            atomic_fetch_add(&w->shared->accepted_plays, 1);
            if (state < TTT_IN_PROGRESS || state > TTT_DRAW)
                note_failure(w->shared, "play: state out of range");
            break;
        case TTT_E_OCCUPIED:
        case TTT_E_WRONG_TURN:
        case TTT_E_GAME_OVER:
            break;
        default:
            note_failure(w->shared, "play: unexpected status");
            break;
        }
    }
    atomic_fetch_sub(&w->shared->writers_left, 1);
    return NULL;
}

/* A reader checks what a single call can promise: a board snapshot holds as
 * many X as O or one more (a half-applied move would break that), states
 * and plies are in range, and every recorded move has the mark of its ply. */
static void *reader_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;
    int n = ttt_size(game);
    int8_t cells[64];
    uint32_t rng = w->seed;

    while (atomic_load(&w->shared->writers_left) > 0) {
        size_t len = 0;
        int bad = 0;
        if (ttt_board(game, cells, sizeof cells, &len) != TTT_OK ||
            len != (size_t)(n * n)) {
            bad = 1;
        } else {
            int x = 0, o = 0;
            for (size_t i = 0; i < len; i++) {
                x += cells[i] == TTT_X;
                o += cells[i] == TTT_O;
            }
            bad = x != o && x != o + 1;
        }
        int state = ttt_state(game);
        bad |= state < TTT_IN_PROGRESS || state > TTT_DRAW;
        int ply = ttt_ply(game);
        bad |= ply < 0 || ply > n * n;
        if (ply > 0) {
            int at = (int)(next_random(&rng) % (uint32_t)ply);
            int mark = 0, row = -1, col = -1;
            int status = ttt_move_at(game, at, &mark, &row, &col);
            /* The move may have been undone since ttt_ply was read. */
            if (status == TTT_OK)
                bad |= mark != ((at & 1) ? TTT_O : TTT_X) || row < 0 ||
                       row >= n || col < 0 || col >= n;
            else
                bad |= status != TTT_E_RANGE;
        }
        if (bad)
            note_failure(w->shared, "reader: inconsistent snapshot");
    }
    return NULL;
}

/* A saver takes records while the writers play: each record must be one
 * consistent position (it loads, and saves back the same), and the bytes
 * written must stay inside a buffer sized exactly as the library asked. */
static void *saver_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;

    while (atomic_load(&w->shared->writers_left) > 0) {
        size_t need = 0, len = 0;
        int bad = 0;
        if (ttt_game_save(game, NULL, 0, &need) != TTT_E_BUFFER) {
            note_failure(w->shared, "save: measuring failed");
            continue;
        }
        /* Exactly need + 1 bytes so that AddressSanitizer sees any overrun. */
        char *buf = malloc(need + 1);
        if (buf == NULL)
            continue;
        int status = ttt_game_save(game, buf, need + 1, &len);
        if (status == TTT_OK) {
            ttt_game *copy = NULL;
            char again[512];
            size_t again_len = 0;
            bad = len > need ||
                  ttt_game_load(buf, len, NULL, &copy, NULL) != TTT_OK ||
                  ttt_game_save(copy, again, sizeof again, &again_len) != TTT_OK ||
                  again_len != len || memcmp(again, buf, len) != 0;
            ttt_game_free(copy);
        } else {
            /* The game grew between the two calls: the only honest answer is
             * the needed length. */
            bad = status != TTT_E_BUFFER || len <= need;
        }
        free(buf);
        if (bad)
            note_failure(w->shared, "save: record is not one consistent game");
    }
    return NULL;
}

/* The marks of a board: as many X as O or one more, and nothing else. */
static int marks_balanced(const int8_t *cells, size_t len, int *marks)
{
    int x = 0, o = 0;
    for (size_t i = 0; i < len; i++) {
        x += cells[i] == TTT_X;
        o += cells[i] == TTT_O;
        if (cells[i] != TTT_X && cells[i] != TTT_O && cells[i] != TTT_EMPTY)
            return 0;
    }
    *marks = x + o;
    return x == o || x == o + 1;
}

/* A cloner copies the game while the writers play and take back moves:
 * each copy must be one whole position whose history matches its board,
 * and a game of its own (a move on it leaves the original alone). The copy
 * is taken under the lock the writers are spinning on, so the lock itself
 * must not be read as plain bytes (ThreadSanitizer watches that). */
static void *cloner_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;
    int8_t cells[64];

    while (atomic_load(&w->shared->writers_left) > 0) {
        ttt_game *copy = NULL;
        size_t len = 0;
        int marks = -1;
        if (ttt_game_clone(game, &copy) != TTT_OK) {
            note_failure(w->shared, "clone failed");
            continue;
        }
        if (ttt_board(copy, cells, sizeof cells, &len) != TTT_OK ||
            !marks_balanced(cells, len, &marks) || marks != ttt_ply(copy))
            note_failure(w->shared, "clone: not one whole position");
        /* The clone is free to move on its own. */
        if (ttt_state(copy) == TTT_IN_PROGRESS) {
            uint64_t seed = w->seed;
            int state = -1;
            if (ttt_random_playout(copy, &seed, &state) != TTT_OK ||
                state == TTT_IN_PROGRESS)
                note_failure(w->shared, "clone: cannot be played out");
        }
        ttt_game_free(copy);
    }
    return NULL;
}

/* Monte Carlo on the shared game: copies of it (boards past 4x4) or its
 * cells (small ones) taken under its lock, games played without it. */
static void *playouts_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;
    uint64_t seed = w->seed;

    while (atomic_load(&w->shared->writers_left) > 0) {
        uint64_t results[4] = {9, 9, 9, 9};
        int status = ttt_random_playouts(game, &seed, 16, results);
        if (status == TTT_OK) {
            if (results[TTT_IN_PROGRESS] != 0 ||
                results[TTT_X_WON] + results[TTT_O_WON] + results[TTT_DRAW] != 16)
                note_failure(w->shared, "playouts: results do not add up");
        } else if (status != TTT_E_GAME_OVER) {
            note_failure(w->shared, "playouts: unexpected status");
        }
    }
    return NULL;
}

/* The solver snapshots the game under its lock and searches a little. */
static void *solver_main(void *arg)
{
    worker *w = arg;
    ttt_game *game = w->shared->game;
    int32_t best[64];

    while (atomic_load(&w->shared->writers_left) > 0) {
        ttt_solution solution;
        size_t best_len = 0;
        memset(&solution, 0, sizeof solution);
        solution.size = sizeof solution;
        int status = ttt_solve(game, 200, 1 << 20, 0, &solution, best,
                               sizeof best / sizeof best[0], &best_len);
        if ((status != TTT_OK && status != TTT_E_BUDGET) ||
            solution.value_min > solution.value_max ||
            solution.value_min < TTT_VALUE_LOSS || solution.value_max > TTT_VALUE_WIN)
            note_failure(w->shared, "solve: unexpected answer");
    }
    return NULL;
}

/* The history must replay, move by move, into a fresh game with the same
 * rules and reach the same board and state. */
static void check_history(const ttt_game *game)
{
    int n = ttt_size(game), k = ttt_win_length(game);
    int misere = 0, early_draw = 0;
    ttt_game *replay = NULL;
    int8_t seen[64] = {0};

    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_MISERE, &misere), TTT_OK);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &early_draw),
                     TTT_OK);
    assert_int_equal(ttt_game_new(n, k, &replay), TTT_OK);
    assert_int_equal(ttt_game_set_rule(replay, TTT_RULE_MISERE, misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(replay, TTT_RULE_EARLY_DRAW, early_draw),
                     TTT_OK);

    for (int ply = 0; ply < ttt_ply(game); ply++) {
        int mark, row, col;
        assert_int_equal(ttt_move_at(game, ply, &mark, &row, &col), TTT_OK);
        assert_int_equal(mark, (ply & 1) ? TTT_O : TTT_X);
        assert_int_equal(seen[row * n + col], 0);
        seen[row * n + col] = 1;
        assert_int_equal(ttt_state(replay), TTT_IN_PROGRESS);
        assert_int_equal(ttt_play(replay, mark, row, col, NULL), TTT_OK);
    }
    assert_int_equal(ttt_state(replay), ttt_state(game));
    assert_int_equal(ttt_ply(replay), ttt_ply(game));

    int8_t a[64], b[64];
    size_t len_a, len_b;
    assert_int_equal(ttt_board(game, a, sizeof a, &len_a), TTT_OK);
    assert_int_equal(ttt_board(replay, b, sizeof b, &len_b), TTT_OK);
    assert_int_equal(len_a, len_b);
    assert_memory_equal(a, b, len_a);
    ttt_game_free(replay);
}

static void stress(int n, int k, int misere, int early_draw, uint32_t seed)
{
    shared_game shared;
    event_counts counts;
    worker workers[THREADS];

    memset(&shared, 0, sizeof shared);
    memset(&counts, 0, sizeof counts);
    assert_true(n * n <= 64);
    assert_int_equal(ttt_game_new(n, k, &shared.game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(shared.game, TTT_RULE_MISERE, misere),
                     TTT_OK);
    assert_int_equal(
        ttt_game_set_rule(shared.game, TTT_RULE_EARLY_DRAW, early_draw), TTT_OK);
    assert_int_equal(ttt_set_listener(shared.game, count_event, &counts), TTT_OK);
    atomic_store(&shared.writers_left, WRITERS);

    for (int i = 0; i < THREADS; i++) {
        void *(*role)(void *) = i < WRITERS                    ? writer_main
                                : i < WRITERS + READERS        ? reader_main
                                : i < WRITERS + READERS + SAVERS ? saver_main
                                : i == THREADS - 3             ? cloner_main
                                : i == THREADS - 2             ? playouts_main
                                                               : solver_main;
        workers[i].shared = &shared;
        workers[i].seed = seed * 2654435761u + (uint32_t)i * 40503u + 1u;
        assert_int_equal(pthread_create(&workers[i].thread, NULL, role, &workers[i]),
                         0);
    }
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(workers[i].thread, NULL), 0);

    if (atomic_load(&shared.failures) != 0)
        fail_msg("%d failures, the first: %s", atomic_load(&shared.failures),
                 atomic_load(&shared.first_failure));
    /* Every accepted call was announced once, and nothing else was. */
    assert_int_equal(atomic_load(&counts.play), atomic_load(&shared.accepted_plays));
    assert_int_equal(atomic_load(&counts.undo), atomic_load(&shared.accepted_undos));
    assert_int_equal(atomic_load(&counts.redo), 0);
    assert_int_equal(atomic_load(&counts.reset), 0);
    /* The plies on the board are what was played minus what was taken back. */
    assert_int_equal(ttt_ply(shared.game), atomic_load(&shared.accepted_plays) -
                                               atomic_load(&shared.accepted_undos));
    assert_true(atomic_load(&shared.accepted_plays) > WRITERS);
    check_history(shared.game);
    ttt_game_free(shared.game);
}

static void test_stress_classic(void **unused)
{
    (void)unused;
    stress(3, 0, 0, 0, 1);
}

static void test_stress_gomoku_early_draw(void **unused)
{
    (void)unused;
    stress(7, 4, 0, 1, 2);
}

static void test_stress_misere_full_lines(void **unused)
{
    (void)unused;
    stress(5, 0, 1, 1, 3);
}

/* One game per thread: games share nothing, so these run without any
 * contention and ThreadSanitizer must stay silent. */
static void *own_game_main(void *arg)
{
    worker *w = arg;
    uint32_t rng = w->seed;
    ttt_game *game = NULL;
    if (ttt_game_new(4, 3, &game) != TTT_OK) {
        note_failure(w->shared, "new failed");
        return NULL;
    }
    for (int i = 0; i < SUBMISSIONS; i++) {
        uint32_t r = next_random(&rng);
        if (ttt_state(game) != TTT_IN_PROGRESS)
            ttt_game_reset(game);
        else
            ttt_play(game, ttt_to_move(game), (int)(r % 4), (int)((r >> 8) % 4),
                     NULL);
    }
    ttt_game_free(game);
    return NULL;
}

static void test_separate_games(void **unused)
{
    (void)unused;
    shared_game shared;
    worker workers[WRITERS];
    memset(&shared, 0, sizeof shared);
    for (int i = 0; i < WRITERS; i++) {
        workers[i].shared = &shared;
        workers[i].seed = 7u + (uint32_t)i * 977u;
        assert_int_equal(
            pthread_create(&workers[i].thread, NULL, own_game_main, &workers[i]), 0);
    }
    for (int i = 0; i < WRITERS; i++)
        assert_int_equal(pthread_join(workers[i].thread, NULL), 0);
    assert_int_equal(atomic_load(&shared.failures), 0);
}

/* ------------------------------------------------------------------------ */
/* Listeners while several threads change one game                          */

#define CHURNERS 4
#define CHURN_STEPS 10000
/* Fewer for the removal rounds: the main thread must get its turns. */
#define REMOVAL_CHURNERS 2
#define REMOVAL_ROUNDS 200

/* A thread that changes the game every way there is, for the side to move,
 * until it has made its steps or is told to stop. */
typedef struct churner {
    pthread_t thread;
    ttt_game *game;
    int count; /* churners in the group */
    atomic_int *stop;
    pthread_barrier_t *start; /* all churners begin together */
    int steps;                /* 0: until stopped */
    uint32_t seed;
} churner;

static void *churn_main(void *arg)
{
    churner *c = arg;
    ttt_game *game = c->game;
    int n = ttt_size(game);
    uint32_t rng = c->seed;

    pthread_barrier_wait(c->start);
    for (int i = 0; c->steps == 0 || i < c->steps; i++) {
        if (atomic_load(c->stop))
            break;
        uint32_t r = next_random(&rng);
        int row = (int)((r >> 8) % (uint32_t)n);
        int col = (int)((r >> 16) % (uint32_t)n);
        if (ttt_state(game) != TTT_IN_PROGRESS && r % 3 == 0) {
            ttt_game_reset(game);
        } else if (r % 5 == 0) {
            ttt_undo(game);
        } else if (r % 17 == 0) {
            ttt_redo(game);
        } else if (r % 61 == 0) {
            uint64_t seed = r;
            ttt_random_playout(game, &seed, NULL);
        } else if (r % 2 == 0) {
            ttt_play_at(game, ttt_ply(game), ttt_to_move(game), row, col, NULL);
        } else {
            ttt_play_next(game, row, col, NULL);
        }
    }
    return NULL;
}

static void start_churners(churner *churners, int count, pthread_barrier_t *start,
                           ttt_game *game, atomic_int *stop, int steps)
{
    assert_int_equal(pthread_barrier_init(start, NULL, (unsigned)count), 0);
    for (int i = 0; i < count; i++) {
        churners[i].game = game;
        churners[i].count = count;
        churners[i].stop = stop;
        churners[i].start = start;
        churners[i].steps = steps;
        churners[i].seed = 0x9e3779b9u * (uint32_t)(i + 1);
        assert_int_equal(
            pthread_create(&churners[i].thread, NULL, churn_main, &churners[i]), 0);
    }
}

static void join_churners(churner *churners)
{
    for (int i = 0; i < churners[0].count; i++)
        assert_int_equal(pthread_join(churners[i].thread, NULL), 0);
    assert_int_equal(pthread_barrier_destroy(churners[0].start), 0);
}

/* A listener that rebuilds the game from its events alone, on a game of its
 * own: that works only if every event arrives, one at a time, in the order
 * of the changes. */
typedef struct mirror {
    ttt_game *copy;
    atomic_int in_call;    /* listener calls running now */
    atomic_int overlaps;   /* calls that found another one running */
    atomic_int mismatches; /* events that do not follow from those before */
    atomic_int events;
} mirror;

/* The move at the top of the copy's history is (mark, row, col). */
static int last_move_is(const ttt_game *game, const ttt_event *e)
{
    int mark = 0, row = -1, col = -1;
    int ply = ttt_ply(game);
    return ply > 0 && ttt_move_at(game, ply - 1, &mark, &row, &col) == TTT_OK &&
           mark == e->mark && row == e->row && col == e->col;
}

static void mirror_event(void *user, const ttt_event *e)
{
    mirror *m = user;
    int ok = 0, state = -1;
    if (atomic_fetch_add(&m->in_call, 1) != 0)
        atomic_fetch_add(&m->overlaps, 1);
    /* Stay a moment, as a real host would, for other changes to come in. */
    sched_yield();
    switch (e->kind) {
    case TTT_EVENT_PLAY:
        ok = ttt_play(m->copy, e->mark, e->row, e->col, &state) == TTT_OK;
        break;
    case TTT_EVENT_UNDO:
        ok = last_move_is(m->copy, e) && ttt_undo(m->copy) == TTT_OK;
        break;
    case TTT_EVENT_REDO:
        ok = ttt_redo(m->copy) == TTT_OK && last_move_is(m->copy, e);
        break;
    case TTT_EVENT_RESET:
        ok = ttt_game_reset(m->copy) == TTT_OK;
        break;
    default:
        break;
    }
    if (!ok || ttt_ply(m->copy) != e->ply || ttt_state(m->copy) != e->state)
        atomic_fetch_add(&m->mismatches, 1);
    atomic_fetch_add(&m->events, 1);
    atomic_fetch_sub(&m->in_call, 1);
}

static void listener_order(int n, int k)
{
    ttt_game *game = NULL;
    mirror m;
    churner churners[CHURNERS];
    pthread_barrier_t start;
    atomic_int stop = 0;
    char record[512], rebuilt[512];
    size_t record_len = 0, rebuilt_len = 0;

    memset(&m, 0, sizeof m);
    assert_int_equal(ttt_game_new(n, k, &game), TTT_OK);
    assert_int_equal(ttt_game_new(n, k, &m.copy), TTT_OK);
    assert_int_equal(ttt_set_listener(game, mirror_event, &m), TTT_OK);
    start_churners(churners, CHURNERS, &start, game, &stop, CHURN_STEPS);
    join_churners(churners);

    assert_int_equal(atomic_load(&m.overlaps), 0);
    assert_int_equal(atomic_load(&m.mismatches), 0);
    assert_true(atomic_load(&m.events) > CHURNERS * 100);
    /* The events told the whole story: the copy is the game, redo stack
     * included. */
    assert_int_equal(ttt_game_save(game, record, sizeof record, &record_len), TTT_OK);
    assert_int_equal(ttt_game_save(m.copy, rebuilt, sizeof rebuilt, &rebuilt_len),
                     TTT_OK);
    assert_int_equal(record_len, rebuilt_len);
    assert_memory_equal(record, rebuilt, record_len);
    assert_int_equal(ttt_redo_count(game), ttt_redo_count(m.copy));
    ttt_game_free(m.copy);
    ttt_game_free(game);
}

/* Short games (many resets and wins) and a longer one (long undo runs). */
static void test_listener_order_across_threads(void **unused)
{
    (void)unused;
    for (int round = 0; round < 2; round++) {
        listener_order(3, 3);
        listener_order(5, 4);
    }
}

/* A listener's context, freed by the host right after the removal. */
typedef struct guest {
    atomic_int running; /* calls in progress */
    atomic_int removed; /* set once ttt_set_listener has returned */
    atomic_int calls;
} guest;

static atomic_int late_calls;

static void guest_event(void *user, const ttt_event *event)
{
    guest *g = user;
    (void)event;
    atomic_fetch_add(&g->running, 1);
    if (atomic_load(&g->removed))
        atomic_fetch_add(&late_calls, 1);
    /* Linger, so that a removal racing with this call lands inside it. */
    for (int i = 0; i < 100; i++)
        atomic_fetch_add(&g->calls, 0);
    atomic_fetch_add(&g->calls, 1);
    atomic_fetch_sub(&g->running, 1);
}

static void test_listener_removal_is_final(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    churner churners[CHURNERS];
    pthread_barrier_t start;
    atomic_int stop = 0;
    int still_running = 0;

    atomic_store(&late_calls, 0);
    assert_int_equal(ttt_game_new(5, 4, &game), TTT_OK);
    start_churners(churners, REMOVAL_CHURNERS, &start, game, &stop, 0);
    for (int round = 0; round < REMOVAL_ROUNDS; round++) {
        guest *g = calloc(1, sizeof *g);
        assert_non_null(g);
        assert_int_equal(ttt_set_listener(game, guest_event, g), TTT_OK);
        while (atomic_load(&g->calls) < 2)
            sched_yield();
        /* Removed outright, or replaced by another listener that stays. */
        guest *next = round % 2 ? calloc(1, sizeof *next) : NULL;
        assert_int_equal(ttt_set_listener(game, next ? guest_event : NULL, next),
                         TTT_OK);
        still_running += atomic_load(&g->running) != 0;
        atomic_store(&g->removed, 1);
        /* Give a late call its chance before the memory goes. */
        for (int i = 0; i < 2; i++)
            sched_yield();
        free(g);
        if (next) {
            assert_int_equal(ttt_set_listener(game, NULL, NULL), TTT_OK);
            still_running += atomic_load(&next->running) != 0;
            atomic_store(&next->removed, 1);
            free(next);
        }
    }
    atomic_store(&stop, 1);
    join_churners(churners);
    assert_int_equal(still_running, 0);
    assert_int_equal(atomic_load(&late_calls), 0);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* ttt_play_at: idempotent moves                                             */

static void test_play_at_plays_at_current_ply(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    int state = -1;
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 1, &state), TTT_OK);
    assert_int_equal(state, TTT_IN_PROGRESS);
    assert_int_equal(ttt_ply(game), 1);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_ply(game), 2);
    /* At the current ply the ordinary move checks apply. */
    assert_int_equal(ttt_play_at(game, 2, TTT_X, 0, 0, NULL), TTT_E_OCCUPIED);
    assert_int_equal(ttt_play_at(game, 2, TTT_O, 2, 2, NULL), TTT_E_WRONG_TURN);
    assert_int_equal(ttt_play_at(game, 2, TTT_X, 3, 0, NULL), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_play_at(NULL, 0, TTT_X, 0, 0, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_ply(game), 2);
    ttt_game_free(game);
}

static void test_play_at_retry_changes_nothing(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    event_counts counts;
    char before[128], after[128];
    size_t len_before, len_after;
    int state = -1;

    memset(&counts, 0, sizeof counts);
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    assert_int_equal(ttt_set_listener(game, count_event, &counts), TTT_OK);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 2, NULL), TTT_OK);
    assert_int_equal(atomic_load(&counts.play), 2);
    assert_int_equal(ttt_game_save(game, before, sizeof before, &len_before), TTT_OK);

    /* The client did not hear back and sends both requests again. */
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 1, &state), TTT_OK);
    assert_int_equal(state, TTT_IN_PROGRESS);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 2, NULL), TTT_OK);

    assert_int_equal(ttt_game_save(game, after, sizeof after, &len_after), TTT_OK);
    assert_int_equal(len_before, len_after);
    assert_memory_equal(before, after, len_before);
    assert_int_equal(ttt_ply(game), 2);
    assert_int_equal(atomic_load(&counts.play), 2); /* no new event */
    ttt_game_free(game);
}

static void test_play_at_retry_after_win(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    int state = -1;
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    const int moves[5][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
    for (int i = 0; i < 5; i++)
        assert_int_equal(ttt_play_at(game, i, (i & 1) ? TTT_O : TTT_X,
                                     moves[i][0], moves[i][1], &state),
                         TTT_OK);
    assert_int_equal(state, TTT_X_WON);
    /* Retrying the winning move reports success and the finished state. */
    state = -1;
    assert_int_equal(ttt_play_at(game, 4, TTT_X, 0, 2, &state), TTT_OK);
    assert_int_equal(state, TTT_X_WON);
    assert_int_equal(ttt_ply(game), 5);
    ttt_game_free(game);
}

static void test_play_at_conflict_is_stale(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    event_counts counts;
    int state = 12345;

    memset(&counts, 0, sizeof counts);
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_set_listener(game, count_event, &counts), TTT_OK);

    /* Another move at a ply already played: other cell, other mark, both. */
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 2, 2, &state), TTT_E_STALE);
    assert_int_equal(state, 12345); /* a failed call leaves out-parameters */
    assert_int_equal(ttt_play_at(game, 0, TTT_O, 1, 1, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, 1, TTT_X, 2, 0, NULL), TTT_E_STALE);
    /* A ply beyond the next one. */
    assert_int_equal(ttt_play_at(game, 3, TTT_O, 2, 2, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, 1000, TTT_X, 2, 2, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, INT32_MAX, TTT_X, 2, 2, NULL), TTT_E_STALE);
    /* No request can be for a negative ply: that is a bad argument. */
    assert_int_equal(ttt_play_at(game, -1, TTT_X, 2, 2, NULL), TTT_E_RANGE);
    assert_int_equal(ttt_play_at(game, INT32_MIN, TTT_X, 2, 2, NULL), TTT_E_RANGE);
    /* Off-board cells are never a retry of a played one, even those whose
     * (row << 16 | col) packing would equal it: b2, (1, 1), packs to 65537.
     * (An early version compared packed cells and took these for retries.) */
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 0, 65537, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 65537, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, INT32_MIN, 0, NULL), TTT_E_STALE);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, -1, -1, NULL), TTT_E_STALE);
    /* Away from the current ply, a mark that is no mark is refused first. */
    assert_int_equal(ttt_play_at(game, 0, 0, 1, 1, NULL), TTT_E_MARK);

    assert_int_equal(ttt_ply(game), 2);
    assert_int_equal(atomic_load(&counts.play), 0);
    ttt_game_free(game);
}

static void test_play_at_after_undo(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    assert_int_equal(ttt_play_at(game, 0, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 0, NULL), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    /* The undone ply is the next one again: a new move is played there and
     * the old one, no longer in the history, is not a retry. */
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 2, 2, NULL), TTT_OK);
    assert_int_equal(ttt_play_at(game, 1, TTT_O, 0, 0, NULL), TTT_E_STALE);
    assert_int_equal(ttt_ply(game), 2);
    ttt_game_free(game);
}

/* Two clients race for the same ply. */
typedef struct racer {
    pthread_t thread;
    pthread_barrier_t *start;
    ttt_game *game;
    int ply, mark, row, col;
    int status;
} racer;

static void *racer_main(void *arg)
{
    racer *r = arg;
    pthread_barrier_wait(r->start);
    r->status = ttt_play_at(r->game, r->ply, r->mark, r->row, r->col, NULL);
    return NULL;
}

static void race_once(int same_move, int round)
{
    ttt_game *game = NULL;
    pthread_barrier_t start;
    racer racers[2];
    int n = 5;

    assert_int_equal(ttt_game_new(n, 4, &game), TTT_OK);
    /* Walk the game forward a little so races happen at various plies. */
    int ply = round % 6;
    for (int i = 0; i < ply; i++)
        assert_int_equal(ttt_play_at(game, i, (i & 1) ? TTT_O : TTT_X, 4, i, NULL),
                         TTT_OK);
    int mark = (ply & 1) ? TTT_O : TTT_X;
    assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
    for (int i = 0; i < 2; i++) {
        racers[i].start = &start;
        racers[i].game = game;
        racers[i].ply = ply;
        racers[i].mark = mark;
        racers[i].row = (same_move || i == 0) ? 1 : 2;
        racers[i].col = round % n;
        racers[i].status = 1;
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(
            pthread_create(&racers[i].thread, NULL, racer_main, &racers[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(racers[i].thread, NULL), 0);
    assert_int_equal(pthread_barrier_destroy(&start), 0);

    assert_int_equal(ttt_ply(game), ply + 1);
    int mark_at, row_at, col_at;
    assert_int_equal(ttt_move_at(game, ply, &mark_at, &row_at, &col_at), TTT_OK);
    if (same_move) {
        /* One plays it, the other is a retry of the same move. */
        assert_int_equal(racers[0].status, TTT_OK);
        assert_int_equal(racers[1].status, TTT_OK);
        assert_int_equal(row_at, 1);
    } else {
        /* Exactly one wins; the loser learns its request is stale, and the
         * board holds the winner's move. */
        int wins = (racers[0].status == TTT_OK) + (racers[1].status == TTT_OK);
        assert_int_equal(wins, 1);
        const racer *winner = racers[0].status == TTT_OK ? &racers[0] : &racers[1];
        const racer *loser = racers[0].status == TTT_OK ? &racers[1] : &racers[0];
        assert_int_equal(loser->status, TTT_E_STALE);
        assert_int_equal(row_at, winner->row);
        assert_int_equal(col_at, winner->col);
    }
    assert_int_equal(mark_at, mark);
    ttt_game_free(game);
}

static void test_play_at_race(void **unused)
{
    (void)unused;
    for (int round = 0; round < 200; round++) {
        race_once(0, round);
        race_once(1, round);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_at_plays_at_current_ply),
        cmocka_unit_test(test_play_at_retry_changes_nothing),
        cmocka_unit_test(test_play_at_retry_after_win),
        cmocka_unit_test(test_play_at_conflict_is_stale),
        cmocka_unit_test(test_play_at_after_undo),
        cmocka_unit_test(test_play_at_race),
        cmocka_unit_test(test_separate_games),
        cmocka_unit_test(test_stress_classic),
        cmocka_unit_test(test_stress_gomoku_early_draw),
        cmocka_unit_test(test_stress_misere_full_lines),
        cmocka_unit_test(test_listener_order_across_threads),
        cmocka_unit_test(test_listener_removal_is_final),
    };
    return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
