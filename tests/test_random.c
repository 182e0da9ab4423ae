/* test_random.c - randomized differential test: seeded random games (squares, W x H rectangles, gravity) checked call by call against a naive model. */
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

#define MAXN 9
#define MAXCELLS (MAXN * MAXN)
/* Games per board size; TTT_RANDOM_GAMES in the environment overrides it. */
#define DEFAULT_GAMES 1000

/* ------------------------------------------------------------------------ */
/* A seeded xorshift64* generator                                            */
/* ------------------------------------------------------------------------ */

typedef struct rng {
    uint64_t s;
} rng;

static void rng_seed(rng *r, uint64_t seed)
{
    /* splitmix64 of the seed, so nearby seeds give unrelated streams */
    uint64_t z = seed + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    r->s = z ? z : 1;
}

static uint64_t rng_next(rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1du;
}

/* Uniform-enough integer in 0..n-1 (n small). */
static int rng_below(rng *r, int n)
{
    return (int)((rng_next(r) >> 33) % (uint64_t)n);
}

/* ------------------------------------------------------------------------ */
/* The naive model                                                           */
/* ------------------------------------------------------------------------ */

typedef struct model {
    int w, h, k, misere, early, gravity; /* w columns, h rows */
    int8_t b[MAXCELLS];
    int hist[MAXCELLS][2];
    int ply;
    int redo[MAXCELLS][2]; /* redo[nredo - 1] is the most recently undone */
    int nredo;
    int state;
} model;

static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

/* How many cells of the k-cell window from (r, c) in direction d hold mark;
 * the window must fit on the board (window_fits). */
static int count_window(const model *m, int r, int c, int d, int mark)
{
    int count = 0;
    for (int i = 0; i < m->k; i++) {
        int rr = r + i * dirs[d][0], cc = c + i * dirs[d][1];
        if (m->b[rr * m->w + cc] == mark) {
            count++;
        }
    }
    return count;
}

static int window_fits(const model *m, int r, int c, int d)
{
    int r1 = r + (m->k - 1) * dirs[d][0], c1 = c + (m->k - 1) * dirs[d][1];
    return r1 >= 0 && r1 < m->h && c1 >= 0 && c1 < m->w;
}

/* Does mark fill some window of k cells? Full rescan. */
static int model_has_line(const model *m, int mark)
{
    for (int r = 0; r < m->h; r++) {
        for (int c = 0; c < m->w; c++) {
            for (int d = 0; d < 4; d++) {
                if (window_fits(m, r, c, d) && count_window(m, r, c, d, mark) == m->k) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Does every window hold both marks? Full rescan. */
static int model_all_blocked(const model *m)
{
    for (int r = 0; r < m->h; r++) {
        for (int c = 0; c < m->w; c++) {
            for (int d = 0; d < 4; d++) {
                if (window_fits(m, r, c, d) &&
                    (count_window(m, r, c, d, TTT_X) == 0 ||
                     count_window(m, r, c, d, TTT_O) == 0)) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

/* The state of the position, from scratch. */
static int model_eval(const model *m)
{
    int x = model_has_line(m, TTT_X), o = model_has_line(m, TTT_O);
    assert_false(x && o); /* unreachable: play stops at the first line */
    if (x) {
        return m->misere ? TTT_O_WON : TTT_X_WON;
    }
    if (o) {
        return m->misere ? TTT_X_WON : TTT_O_WON;
    }
    if (m->ply == m->w * m->h) {
        return TTT_DRAW;
    }
    if (m->early && model_all_blocked(m)) {
        return TTT_DRAW;
    }
    return TTT_IN_PROGRESS;
}

static int mover_at(int ply)
{
    return ply % 2 == 0 ? TTT_X : TTT_O;
}

static int model_to_move(const model *m)
{
    return m->state == TTT_IN_PROGRESS ? mover_at(m->ply) : TTT_EMPTY;
}

static int model_play_code(const model *m, int mark, int r, int c)
{
    if (m->state != TTT_IN_PROGRESS) {
        return TTT_E_GAME_OVER;
    }
    if (mark != TTT_X && mark != TTT_O) {
        return TTT_E_MARK;
    }
    if (mark != mover_at(m->ply)) {
        return TTT_E_WRONG_TURN;
    }
    if (r < 0 || r >= m->h || c < 0 || c >= m->w) {
        return TTT_E_OFF_BOARD;
    }
    if (m->b[r * m->w + c] != TTT_EMPTY) {
        return TTT_E_OCCUPIED;
    }
    /* Gravity, read off the board: an empty cell over an empty cell floats. */
    if (m->gravity && r + 1 < m->h && m->b[(r + 1) * m->w + c] == TTT_EMPTY) {
        return TTT_E_FLOATING;
    }
    return TTT_OK;
}

/* The row a mark dropped into column c lands in, by a walk up the column
 * from the bottom, or -1 if it is full. */
static int model_drop_row(const model *m, int c)
{
    int r = m->h - 1;
    while (r >= 0 && m->b[r * m->w + c] != TTT_EMPTY) {
        r--;
    }
    return r;
}

static void model_place(model *m, int r, int c)
{
    m->b[r * m->w + c] = (int8_t)mover_at(m->ply);
    m->hist[m->ply][0] = r;
    m->hist[m->ply][1] = c;
    m->ply++;
    m->state = model_eval(m);
}

static void model_reset(model *m)
{
    memset(m->b, 0, sizeof m->b);
    m->ply = 0;
    m->nredo = 0;
    m->state = TTT_IN_PROGRESS;
}

/* ------------------------------------------------------------------------ */
/* Harness: the game under test, its listener and the comparison             */
/* ------------------------------------------------------------------------ */

typedef struct harness {
    ttt_game *g;
    model m;
    rng r;
    uint64_t seed;
    int step;
    const char *call;
    int events;
    ttt_event last;
    int allocs, frees;
} harness;

/* The games alive right now, freed by the teardown if a check fails. */
static ttt_game *live_game, *live_copy;

static int free_live_games(void **state)
{
    (void)state;
    ttt_game_free(live_copy);
    ttt_game_free(live_game);
    live_copy = NULL;
    live_game = NULL;
    return 0;
}

/* Fails with the seed and step, so any failure can be replayed alone. */
#define CHECK_EQ(h, got, want)                                                        \
    do {                                                                              \
        long long got_ = (long long)(got), want_ = (long long)(want);                 \
        if (got_ != want_) {                                                          \
            print_error("seed %llu step %d after %s: %s = %lld, model says %lld\n",   \
                        (unsigned long long)(h)->seed, (h)->step, (h)->call, #got,    \
                        got_, want_);                                                 \
            fail();                                                                   \
        }                                                                             \
    } while (0)

static void on_event(void *user, const ttt_event *event)
{
    harness *h = user;
    h->events++;
    h->last = *event;
}

static void *count_alloc(void *user, size_t size)
{
    harness *h = user;
    h->allocs++;
    return malloc(size);
}

static void count_dealloc(void *user, void *ptr)
{
    harness *h = user;
    h->frees++;
    free(ptr);
}

/* Compares everything observable about game g with the model. */
static void compare(harness *h, const ttt_game *g)
{
    const model *m = &h->m;
    CHECK_EQ(h, ttt_state(g), m->state);
    CHECK_EQ(h, ttt_to_move(g), model_to_move(m));
    CHECK_EQ(h, ttt_ply(g), m->ply);
    CHECK_EQ(h, ttt_redo_count(g), m->nredo);
    CHECK_EQ(h, ttt_size(g), m->w == m->h ? m->w : TTT_E_SIZE);
    CHECK_EQ(h, ttt_width(g), m->w);
    CHECK_EQ(h, ttt_height(g), m->h);
    CHECK_EQ(h, ttt_win_length(g), m->k);

    int8_t cells[MAXCELLS];
    size_t len = 0;
    CHECK_EQ(h, ttt_board(g, cells, sizeof cells, &len), TTT_OK);
    CHECK_EQ(h, len, (size_t)(m->w * m->h));
    for (int i = 0; i < m->w * m->h; i++) {
        CHECK_EQ(h, cells[i], m->b[i]);
    }

    /* The legal moves: every cell ttt_play would take, ascending. */
    int32_t legal[MAXCELLS];
    size_t legal_len = 0, want_len = 0;
    CHECK_EQ(h, ttt_legal_moves(g, legal, sizeof legal / sizeof legal[0], &legal_len),
             TTT_OK);
    for (int i = 0; i < m->w * m->h; i++) {
        if (model_play_code(m, model_to_move(m), i / m->w, i % m->w) == TTT_OK) {
            CHECK_EQ(h, want_len < legal_len, 1);
            CHECK_EQ(h, legal[want_len], i);
            want_len++;
        }
    }
    CHECK_EQ(h, legal_len, want_len);

    /* The reported line: in the first direction (row, column, diagonal,
     * anti-diagonal) where the last move makes a run of at least k, a
     * segment of at least k of that run, through the last move. */
    int r0 = -9, c0 = -9, r1 = -9, c1 = -9;
    int status = ttt_winning_line(g, &r0, &c0, &r1, &c1);
    if (m->state != TTT_X_WON && m->state != TTT_O_WON) {
        CHECK_EQ(h, status, TTT_E_NO_LINE);
        CHECK_EQ(h, r0, -9);
        return;
    }
    CHECK_EQ(h, status, TTT_OK);
    int lr = m->hist[m->ply - 1][0], lc = m->hist[m->ply - 1][1];
    int mark = m->b[lr * m->w + lc];
    int d = 0, lo = 0, hi = 0;
    for (; d < 4; d++) {
        lo = 0;
        hi = 0;
        for (;;) {
            int rr = lr - (lo + 1) * dirs[d][0], cc = lc - (lo + 1) * dirs[d][1];
            if (rr < 0 || rr >= m->h || cc < 0 || cc >= m->w || m->b[rr * m->w + cc] != mark) {
                break;
            }
            lo++;
        }
        for (;;) {
            int rr = lr + (hi + 1) * dirs[d][0], cc = lc + (hi + 1) * dirs[d][1];
            if (rr < 0 || rr >= m->h || cc < 0 || cc >= m->w || m->b[rr * m->w + cc] != mark) {
                break;
            }
            hi++;
        }
        if (lo + hi + 1 >= m->k) {
            break;
        }
    }
    CHECK_EQ(h, d < 4, 1);
    /* Express both ends as offsets t along direction d from the last move. */
    int t0 = 0, t1 = 0, found0 = 0, found1 = 0;
    for (int t = -lo; t <= hi; t++) {
        int rr = lr + t * dirs[d][0], cc = lc + t * dirs[d][1];
        if (rr == r0 && cc == c0) {
            t0 = t;
            found0 = 1;
        }
        if (rr == r1 && cc == c1) {
            t1 = t;
            found1 = 1;
        }
    }
    CHECK_EQ(h, found0, 1);
    CHECK_EQ(h, found1, 1);
    if (t0 > t1) {
        int t = t0;
        t0 = t1;
        t1 = t;
    }
    CHECK_EQ(h, t0 <= 0 && t1 >= 0, 1);
    CHECK_EQ(h, t1 - t0 + 1 >= m->k, 1);
}

/* Checks the event count moved by `events` and, for one event, its fields. */
static void check_event(harness *h, int before, int kind, int mark, int r, int c)
{
    if (kind == 0) {
        CHECK_EQ(h, h->events, before);
        return;
    }
    CHECK_EQ(h, h->events, before + 1);
    CHECK_EQ(h, h->last.kind, kind);
    CHECK_EQ(h, h->last.mark, mark);
    CHECK_EQ(h, h->last.row, r);
    CHECK_EQ(h, h->last.col, c);
    CHECK_EQ(h, h->last.ply, h->m.ply);
    CHECK_EQ(h, h->last.state, h->m.state);
}

/* ------------------------------------------------------------------------ */
/* The random actions                                                        */
/* ------------------------------------------------------------------------ */

static int random_empty(harness *h, int *r, int *c)
{
    const model *m = &h->m;
    int nn = m->w * m->h;
    if (m->ply == nn) {
        return 0;
    }
    /* Under gravity, the landing cell of a random open column. */
    if (m->gravity) {
        int open = 0;
        for (int col = 0; col < m->w; col++) {
            open += model_drop_row(m, col) >= 0;
        }
        int pick = rng_below(&h->r, open);
        for (int col = 0; col < m->w; col++) {
            if (model_drop_row(m, col) >= 0 && pick-- == 0) {
                *r = model_drop_row(m, col);
                *c = col;
                return 1;
            }
        }
        return 0;
    }
    /* Half the time, near one of the mover's own marks, so lines form. */
    if (m->ply >= 2 && rng_below(&h->r, 2) == 0) {
        int own = m->ply - 2 - 2 * rng_below(&h->r, (m->ply) / 2);
        int d = rng_below(&h->r, 4);
        int dist = rng_below(&h->r, 2) + 1;
        if (rng_below(&h->r, 2)) {
            dist = -dist;
        }
        int rr = m->hist[own][0] + dist * dirs[d][0], cc = m->hist[own][1] + dist * dirs[d][1];
        if (rr >= 0 && rr < m->h && cc >= 0 && cc < m->w && m->b[rr * m->w + cc] == TTT_EMPTY) {
            *r = rr;
            *c = cc;
            return 1;
        }
    }
    int pick = rng_below(&h->r, nn - m->ply);
    for (int i = 0; i < nn; i++) {
        if (m->b[i] == TTT_EMPTY && pick-- == 0) {
            *r = i / m->w;
            *c = i % m->w;
            return 1;
        }
    }
    return 0;
}

/* A row (below h->m.h) or column (below h->m.w) index, now and then off
 * the board. */
static int random_index(harness *h, int n)
{
    static const int odd[] = {-1, INT_MIN, INT_MAX, -2};
    switch (rng_below(&h->r, 8)) {
    case 0:
        return odd[rng_below(&h->r, 4)];
    case 1:
        return n + rng_below(&h->r, 2);
    default:
        return rng_below(&h->r, n);
    }
}

static int random_row(harness *h)
{
    return random_index(h, h->m.h);
}

static int random_col(harness *h)
{
    return random_index(h, h->m.w);
}

static int random_mark(harness *h)
{
    static const int marks[] = {TTT_X, TTT_O, TTT_X, TTT_O, 0, 2, -2, INT_MIN, INT_MAX};
    return marks[rng_below(&h->r, 9)];
}

/* Calls ttt_play and checks it against the model. */
static void do_play(harness *h, int mark, int r, int c)
{
    model *m = &h->m;
    int want = model_play_code(m, mark, r, c);
    int st = -99, before = h->events;
    h->call = "ttt_play";
    CHECK_EQ(h, ttt_play(h->g, mark, r, c, rng_below(&h->r, 4) ? &st : NULL), want);
    if (want == TTT_OK) {
        m->nredo = 0;
        model_place(m, r, c);
        if (st != -99) {
            CHECK_EQ(h, st, m->state);
        }
        check_event(h, before, TTT_EVENT_PLAY, mark, r, c);
    } else {
        CHECK_EQ(h, st, -99);
        check_event(h, before, 0, 0, 0, 0);
    }
}

/* ttt_play_at with a valid mark: at the current ply it is ttt_play; at an
 * earlier ply it accepts exactly the move played there and changes nothing. */
static void do_play_at(harness *h)
{
    model *m = &h->m;
    int ply, mark, r, c;
    int kind = rng_below(&h->r, 4);
    if (kind == 0 && m->ply > 0) {
        /* A retry of an earlier move, or a different move at that ply. */
        ply = rng_below(&h->r, m->ply);
        mark = mover_at(ply);
        r = m->hist[ply][0];
        c = m->hist[ply][1];
        if (rng_below(&h->r, 3) == 0) {
            c = (c + 1) % m->w;
        }
        if (rng_below(&h->r, 5) == 0) {
            mark = -mark;
        }
    } else {
        ply = m->ply + (kind == 1 ? rng_below(&h->r, 3) - 1 : 0);
        if (kind == 2) {
            ply = rng_below(&h->r, 4) == 0 ? INT_MIN : -1 - rng_below(&h->r, 3);
        }
        mark = rng_below(&h->r, 5) ? mover_at(m->ply) : -mover_at(m->ply);
        r = random_row(h);
        c = random_col(h);
        if (rng_below(&h->r, 2) && random_empty(h, &r, &c)) {
            /* r, c now an empty cell */
        }
    }
    int want;
    if (ply < 0) {
        want = TTT_E_RANGE;
    } else if (ply == m->ply) {
        want = model_play_code(m, mark, r, c);
    } else if (ply < m->ply) {
        want = mark == mover_at(ply) && m->hist[ply][0] == r && m->hist[ply][1] == c
                   ? TTT_OK
                   : TTT_E_STALE;
    } else {
        want = TTT_E_STALE;
    }
    int st = -99, before = h->events;
    h->call = "ttt_play_at";
    CHECK_EQ(h, ttt_play_at(h->g, ply, mark, r, c, &st), want);
    if (want == TTT_OK && ply == m->ply) {
        m->nredo = 0;
        model_place(m, r, c);
        CHECK_EQ(h, st, m->state);
        check_event(h, before, TTT_EVENT_PLAY, mark, r, c);
    } else if (want == TTT_OK) {
        /* A retried request: the current state, nothing else. */
        CHECK_EQ(h, st, m->state);
        check_event(h, before, 0, 0, 0, 0);
    } else {
        check_event(h, before, 0, 0, 0, 0);
    }
}

static void do_undo(harness *h)
{
    model *m = &h->m;
    int before = h->events;
    h->call = "ttt_undo";
    if (m->ply == 0) {
        CHECK_EQ(h, ttt_undo(h->g), TTT_E_NO_UNDO);
        check_event(h, before, 0, 0, 0, 0);
        return;
    }
    CHECK_EQ(h, ttt_undo(h->g), TTT_OK);
    m->ply--;
    int r = m->hist[m->ply][0], c = m->hist[m->ply][1];
    int mark = m->b[r * m->w + c];
    CHECK_EQ(h, mark, mover_at(m->ply));
    m->b[r * m->w + c] = TTT_EMPTY;
    m->redo[m->nredo][0] = r;
    m->redo[m->nredo][1] = c;
    m->nredo++;
    m->state = model_eval(m);
    CHECK_EQ(h, m->state, TTT_IN_PROGRESS);
    check_event(h, before, TTT_EVENT_UNDO, mark, r, c);
}

static void do_redo(harness *h)
{
    model *m = &h->m;
    int before = h->events;
    h->call = "ttt_redo";
    if (m->nredo == 0) {
        CHECK_EQ(h, ttt_redo(h->g), TTT_E_NO_REDO);
        check_event(h, before, 0, 0, 0, 0);
        return;
    }
    CHECK_EQ(h, ttt_redo(h->g), TTT_OK);
    m->nredo--;
    int r = m->redo[m->nredo][0], c = m->redo[m->nredo][1];
    int mark = mover_at(m->ply);
    CHECK_EQ(h, m->b[r * m->w + c], TTT_EMPTY);
    /* The move redone is legal again: under gravity its cell is again the
     * landing cell of its column. */
    CHECK_EQ(h, model_play_code(m, mark, r, c), TTT_OK);
    model_place(m, r, c);
    check_event(h, before, TTT_EVENT_REDO, mark, r, c);
}

/* Reads that must not change anything: cells (on and off the board) and
 * the history. */
static void do_reads(harness *h)
{
    model *m = &h->m;
    h->call = "reads";
    for (int i = 0; i < 4; i++) {
        int r = random_row(h), c = random_col(h), got = -99;
        int on = r >= 0 && r < m->h && c >= 0 && c < m->w;
        CHECK_EQ(h, ttt_cell(h->g, r, c, &got), on ? TTT_OK : TTT_E_OFF_BOARD);
        CHECK_EQ(h, got, on ? m->b[r * m->w + c] : -99);
    }
    for (int p = 0; p < m->ply; p++) {
        int mark = -99, r = -99, c = -99;
        CHECK_EQ(h, ttt_move_at(h->g, p, &mark, &r, &c), TTT_OK);
        CHECK_EQ(h, mark, mover_at(p));
        CHECK_EQ(h, r, m->hist[p][0]);
        CHECK_EQ(h, c, m->hist[p][1]);
    }
    CHECK_EQ(h, ttt_move_at(h->g, m->ply, NULL, NULL, NULL), TTT_E_RANGE);
    CHECK_EQ(h, ttt_move_at(h->g, -1, NULL, NULL, NULL), TTT_E_RANGE);
}

/* A clone matches the model, and playing on it leaves the original alone. */
static void do_clone(harness *h)
{
    ttt_game *copy = NULL;
    int allocs = h->allocs, before = h->events;
    h->call = "ttt_game_clone";
    CHECK_EQ(h, ttt_game_clone(h->g, &copy), TTT_OK);
    live_copy = copy;
    CHECK_EQ(h, h->allocs, allocs + 1);
    compare(h, copy);
    int r, c;
    if (h->m.state == TTT_IN_PROGRESS && random_empty(h, &r, &c)) {
        CHECK_EQ(h, ttt_play(copy, ttt_to_move(copy), r, c, NULL), TTT_OK);
    } else if (h->m.ply > 0) {
        CHECK_EQ(h, ttt_undo(copy), TTT_OK);
    }
    CHECK_EQ(h, ttt_game_reset(copy), TTT_OK);
    ttt_game_free(copy);
    live_copy = NULL;
    CHECK_EQ(h, h->events, before); /* the listener is not cloned */
    compare(h, h->g);
}

/* ttt_drop into a column (now and then off the board), with or without
 * gravity: the model's landing row, or the model's refusal. */
static void do_drop(harness *h)
{
    model *m = &h->m;
    int c = random_col(h);
    int r = c >= 0 && c < m->w ? model_drop_row(m, c) : -1;
    int want = m->state != TTT_IN_PROGRESS ? TTT_E_GAME_OVER
               : c < 0 || c >= m->w       ? TTT_E_OFF_BOARD
               : r < 0                    ? TTT_E_COLUMN_FULL
                                          : TTT_OK;
    int row = -99, st = -99, before = h->events, mark = model_to_move(m);
    h->call = "ttt_drop";
    CHECK_EQ(h, ttt_drop(h->g, c, rng_below(&h->r, 4) ? &row : NULL, &st), want);
    if (want == TTT_OK) {
        m->nredo = 0;
        model_place(m, r, c);
        CHECK_EQ(h, row == -99 || row == r, 1);
        CHECK_EQ(h, st, m->state);
        check_event(h, before, TTT_EVENT_PLAY, mark, r, c);
    } else {
        CHECK_EQ(h, row, -99);
        CHECK_EQ(h, st, -99);
        check_event(h, before, 0, 0, 0, 0);
    }
}

/* ttt_random_move picks a move ttt_play takes (under gravity a landing
 * cell), advances the seed, and changes nothing. */
static void do_random_move(harness *h)
{
    model *m = &h->m;
    uint64_t seed = rng_next(&h->r), before_seed = seed;
    int r = -99, c = -99, before = h->events;
    h->call = "ttt_random_move";
    if (m->state != TTT_IN_PROGRESS) {
        CHECK_EQ(h, ttt_random_move(h->g, &seed, &r, &c), TTT_E_GAME_OVER);
        CHECK_EQ(h, seed == before_seed, 1);
        CHECK_EQ(h, r, -99);
        return;
    }
    CHECK_EQ(h, ttt_random_move(h->g, &seed, &r, &c), TTT_OK);
    CHECK_EQ(h, seed != before_seed, 1);
    CHECK_EQ(h, model_play_code(m, model_to_move(m), r, c), TTT_OK);
    check_event(h, before, 0, 0, 0, 0);
}

/* The saved record loads into a game equal to the model (without the redo
 * stack, which records do not keep) and saves back byte for byte. */
static void do_save_load(harness *h)
{
    model *m = &h->m;
    static char record[4096], again[4096];
    size_t len = 0, again_len = 0;
    ttt_game *loaded = NULL;
    h->call = "ttt_game_save/ttt_game_load";
    CHECK_EQ(h, ttt_game_save(h->g, record, sizeof record, &len), TTT_OK);
    CHECK_EQ(h, ttt_game_load(record, len, NULL, &loaded, NULL), TTT_OK);
    live_copy = loaded;
    int redo = m->nredo;
    m->nredo = 0;
    compare(h, loaded);
    m->nredo = redo;
    int value = -1;
    CHECK_EQ(h, ttt_game_get_rule(loaded, TTT_RULE_GRAVITY, &value), TTT_OK);
    CHECK_EQ(h, value, m->gravity);
    CHECK_EQ(h, ttt_game_save(loaded, again, sizeof again, &again_len), TTT_OK);
    CHECK_EQ(h, again_len, len);
    CHECK_EQ(h, memcmp(again, record, len), 0);
    ttt_game_free(loaded);
    live_copy = NULL;
}

static void run_game(int w, int hgt, int k, int misere, int early, int gravity,
                     uint64_t seed)
{
    harness h;
    memset(&h, 0, sizeof h);
    h.seed = seed;
    rng_seed(&h.r, seed);
    h.m.w = w;
    h.m.h = hgt;
    h.m.k = k;
    h.m.misere = misere;
    h.m.early = early;
    h.m.gravity = gravity;
    model_reset(&h.m);

    ttt_allocator al = {count_alloc, count_dealloc, &h};
    h.call = "ttt_game_new_rect_with";
    if (w == hgt && rng_below(&h.r, 2)) {
        CHECK_EQ(&h, ttt_game_new_with(w, k, &al, &h.g), TTT_OK);
    } else {
        CHECK_EQ(&h, ttt_game_new_rect_with(w, hgt, k, &al, &h.g), TTT_OK);
    }
    live_game = h.g;
    CHECK_EQ(&h, h.allocs, 1);
    CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_MISERE, misere), TTT_OK);
    CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_EARLY_DRAW, early), TTT_OK);
    CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_GRAVITY, gravity), TTT_OK);
    CHECK_EQ(&h, ttt_set_listener(h.g, on_event, &h), TTT_OK);
    compare(&h, h.g);

    int nn = w * hgt;
    int steps = 3 * nn + rng_below(&h.r, 2 * nn);
    for (h.step = 0; h.step < steps; h.step++) {
        int roll = rng_below(&h.r, 104);
        int r, c;
        if (roll >= 100) {
            /* The calls 1.3 added or changed: drop, random move, records. */
            if (roll < 102) {
                do_drop(&h);
            } else if (roll < 103) {
                do_random_move(&h);
            } else {
                do_save_load(&h);
            }
        } else if (roll < 50) {
            if (h.m.state == TTT_IN_PROGRESS && random_empty(&h, &r, &c)) {
                do_play(&h, mover_at(h.m.ply), r, c);
            } else {
                do_play(&h, random_mark(&h), random_row(&h), random_col(&h));
            }
        } else if (roll < 62) {
            /* Often right, often wrong: mark, turn, cell. */
            int mark = rng_below(&h.r, 2) ? mover_at(h.m.ply) : random_mark(&h);
            if (rng_below(&h.r, 2) && h.m.ply > 0) {
                int p = rng_below(&h.r, h.m.ply);
                do_play(&h, mark, h.m.hist[p][0], h.m.hist[p][1]);
            } else {
                do_play(&h, mark, random_row(&h), random_col(&h));
            }
        } else if (roll < 76) {
            do_undo(&h);
        } else if (roll < 88) {
            do_redo(&h);
        } else if (roll < 94) {
            do_play_at(&h);
        } else if (roll < 96) {
            do_reads(&h);
        } else if (roll < 98) {
            do_clone(&h);
        } else if (roll < 99) {
            int before = h.events;
            h.call = "ttt_game_reset";
            CHECK_EQ(&h, ttt_game_reset(h.g), TTT_OK);
            model_reset(&h.m);
            check_event(&h, before, TTT_EVENT_RESET, 0, -1, -1);
        } else {
            /* Rules are locked once a move is on the board. */
            h.call = "ttt_game_set_rule";
            if (h.m.ply > 0) {
                int before = h.events;
                CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_MISERE, !misere),
                         TTT_E_RULES_LOCKED);
                CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_EARLY_DRAW, !early),
                         TTT_E_RULES_LOCKED);
                CHECK_EQ(&h, ttt_game_set_rule(h.g, TTT_RULE_GRAVITY, !gravity),
                         TTT_E_RULES_LOCKED);
                check_event(&h, before, 0, 0, 0, 0);
            }
        }
        compare(&h, h.g);
    }
    /* The game never allocated after creation (clones came and went). */
    CHECK_EQ(&h, h.allocs - h.frees, 1);
    ttt_game_free(h.g);
    live_game = NULL;
    CHECK_EQ(&h, h.frees, h.allocs);
}

static int games_per_size(void)
{
    const char *env = getenv("TTT_RANDOM_GAMES");
    if (env && *env) {
        long v = strtol(env, NULL, 10);
        if (v > 0 && v < 10000000) {
            return (int)v;
        }
    }
    return DEFAULT_GAMES;
}

/* Games on w x h: every K from 3 to the longer side in turn, and every mix
 * of the three rules (classic, misère, early draw, gravity). */
static void run_rect(int w, int hgt)
{
    int games = games_per_size();
    int longest = w > hgt ? w : hgt;
    for (int i = 0; i < games; i++) {
        int k = 3 + i % (longest - 2);
        int rules = (i / (longest - 2)) % 8;
        uint64_t seed = ((uint64_t)w * 1000003u + (uint64_t)hgt) * 1000003u + (uint64_t)i;
        run_game(w, hgt, k, rules & 1, (rules >> 1) & 1, (rules >> 2) & 1, seed);
    }
}

static void run_size(int n)
{
    run_rect(n, n);
}

static void test_random_3x3(void **state)
{
    (void)state;
    run_size(3);
}

static void test_random_4x4(void **state)
{
    (void)state;
    run_size(4);
}

static void test_random_5x5(void **state)
{
    (void)state;
    run_size(5);
}

static void test_random_6x6(void **state)
{
    (void)state;
    run_size(6);
}

static void test_random_7x7(void **state)
{
    (void)state;
    run_size(7);
}

static void test_random_8x8(void **state)
{
    (void)state;
    run_size(8);
}

static void test_random_9x9(void **state)
{
    (void)state;
    run_size(9);
}

/* Rectangles wider than tall and taller than wide, Connect Four's among
 * them; K runs past the shorter side, where that side's lines never win. */
static void test_random_wide(void **state)
{
    (void)state;
    run_rect(5, 3);
    run_rect(7, 6);
    run_rect(9, 4);
}

static void test_random_tall(void **state)
{
    (void)state;
    run_rect(3, 5);
    run_rect(6, 7);
    run_rect(4, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_random_3x3, free_live_games),
        cmocka_unit_test_teardown(test_random_4x4, free_live_games),
        cmocka_unit_test_teardown(test_random_5x5, free_live_games),
        cmocka_unit_test_teardown(test_random_6x6, free_live_games),
        cmocka_unit_test_teardown(test_random_7x7, free_live_games),
        cmocka_unit_test_teardown(test_random_8x8, free_live_games),
        cmocka_unit_test_teardown(test_random_9x9, free_live_games),
        cmocka_unit_test_teardown(test_random_wide, free_live_games),
        cmocka_unit_test_teardown(test_random_tall, free_live_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
