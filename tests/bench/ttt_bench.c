/* ttt_bench.c - ttt-bench: times libttt's move path (against a naive full-rescan baseline), random playouts and memory use. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "ttt.h"

/*
 * Method. Every timed benchmark is a body that repeats one unit of work
 * (a play/undo cycle over a fixed move sequence, one random game, ...) reps
 * times and returns how many operations it did. The harness first grows
 * reps until one run lasts the target time (that run also warms caches and
 * branch predictors), then times `samples` runs of that size and reports the
 * median cost per operation, plus the spread (max - min) / median so an
 * unstable machine shows itself. Timing is CLOCK_MONOTONIC around the whole
 * run, so the clock is read twice per sample, never per operation.
 *
 * Every body checks the library's answers (status codes, game states) as a
 * real caller would; a wrong answer stops the program with exit status 1,
 * because a fast wrong answer is not a result.
 */

/* ------------------------------------------------------------------------ */
/* Failure and output                                                        */

static void die(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("ttt-bench: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

typedef struct options {
    int csv;            /* print benchmark,param,value,unit rows */
    int quick;          /* short smoke run for CI */
    const char *filter; /* run only benchmarks whose name contains this */
    int samples;        /* timed runs per measurement; the median is kept */
    int64_t target_ns;  /* minimum length of one timed run */
    uint64_t reps;      /* nonzero: one run of exactly this many reps */
} options;

static void print_row(const options *opt, const char *bench,
                      const char *param, double value, int decimals,
                      const char *unit, double spread)
{
    if (opt->csv) {
        printf("%s,%s,%.*f,%s\n", bench, param, decimals, value, unit);
    } else if (spread >= 0) {
        printf("%-10s %-22s %14.*f  %-20s %5.1f%%\n", bench, param, decimals,
               value, unit, spread * 100.0);
    } else {
        printf("%-10s %-22s %14.*f  %s\n", bench, param, decimals, value,
               unit);
    }
    fflush(stdout);
}

static int wanted(const options *opt, const char *bench)
{
    return !opt->filter || strstr(bench, opt->filter) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Timing                                                                    */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Does reps units of work, returns the operations done. */
typedef uint64_t (*bench_body)(void *ctx, uint64_t reps);

/* Bodies stay out of line so a profiler can attribute and select them by
 * name (callgrind --toggle-collect=body_play_undo) with either compiler. */
#if defined(__GNUC__)
#define BENCH_BODY __attribute__((noinline)) static uint64_t
#else
#define BENCH_BODY static uint64_t
#endif

/*
 * One timed benchmark case: a body and its context, calibrated once, then
 * sampled. All cases are sampled in rounds (one sample of every case per
 * round), so a burst of load from other processes spoils one sample of
 * each case, which the median discards, instead of every sample of the one
 * case that was running; the ratios between cases come from the same
 * stretches of time.
 */
#define MAX_SAMPLES 16

typedef struct bench_case {
    const char *bench; /* benchmark name */
    int n, k;          /* board; k is 0 when it does not apply */
    int height;        /* rows of a Connect Four board (gravity), else 0 */
    int shown;         /* 0: measured only for another benchmark's ratio */
    bench_body body;
    void *ctx;
    void (*release)(void *ctx);
    uint64_t reps;     /* per sample, from calibration */
    uint64_t ops;      /* operations in one sample */
    double per_op[MAX_SAMPLES];   /* ns per operation, sorted at the end */
    double in_round[MAX_SAMPLES]; /* the same, in the order taken */
    int samples;
    double median;     /* ns per operation */
    double spread;     /* (max - min) / median, or -1 for one sample */
} bench_case;

typedef struct case_list {
    bench_case *items;
    int count, capacity;
} case_list;

static bench_case *add_case(case_list *list, const char *bench, int n, int k,
                            bench_body body, void *ctx,
                            void (*release)(void *ctx))
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? 2 * list->capacity : 32;
        list->items = realloc(list->items,
                              (size_t)list->capacity * sizeof *list->items);
        if (!list->items)
            die("out of memory");
    }
    bench_case *c = &list->items[list->count++];
    memset(c, 0, sizeof *c);
    c->bench = bench;
    c->n = n;
    c->k = k;
    c->shown = 1;
    c->body = body;
    c->ctx = ctx;
    c->release = release;
    return c;
}

static void free_cases(case_list *list)
{
    for (int i = 0; i < list->count; i++)
        list->items[i].release(list->items[i].ctx);
    free(list->items);
}

/* The square (no gravity) case of bench on n x n with win length k. */
static bench_case *find_case(const case_list *list, const char *bench, int n,
                             int k)
{
    for (int i = 0; i < list->count; i++) {
        bench_case *c = &list->items[i];
        if (strcmp(c->bench, bench) == 0 && c->n == n && c->k == k &&
            c->height == 0)
            return c;
    }
    return NULL;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Grows reps until one run of the body lasts the target time; that run
 * also warms the case's caches and branch predictors. */
static void calibrate(const options *opt, bench_case *c)
{
    uint64_t reps = 1;
    for (;;) {
        int64_t start = now_ns();
        c->body(c->ctx, reps);
        int64_t elapsed = now_ns() - start;
        if (elapsed >= opt->target_ns)
            break;
        /* Aim 20% past the target so the timed runs do not fall short;
         * grow at most 100x a step in case the first run hit a cold cache. */
        double scale = elapsed > 0 ? 1.2 * (double)opt->target_ns / (double)elapsed
                                   : 100.0;
        if (scale < 2.0)
            scale = 2.0;
        if (scale > 100.0)
            scale = 100.0;
        reps = (uint64_t)((double)reps * scale);
    }
    c->reps = reps;
}

static void sample(bench_case *c, int s, int warm)
{
    /* The case before this one left its own data in the caches; a short
     * untimed run brings this case's back, where a unit of work is small
     * enough for that to be cheap. */
    if (warm && c->reps >= 16)
        c->body(c->ctx, c->reps / 16);
    int64_t start = now_ns();
    c->ops = c->body(c->ctx, c->reps);
    c->per_op[s] = (double)(now_ns() - start) / (double)c->ops;
    c->in_round[s] = c->per_op[s];
    c->samples = s + 1;
}

static void run_cases(const options *opt, case_list *list)
{
    if (opt->reps) {
        /* Fixed work for a profiler: the same instructions on every run. */
        for (int i = 0; i < list->count; i++) {
            bench_case *c = &list->items[i];
            c->reps = opt->reps;
            sample(c, 0, 0);
            c->median = c->per_op[0];
            c->spread = -1; /* one sample: no spread to show */
        }
        return;
    }
    for (int i = 0; i < list->count; i++)
        calibrate(opt, &list->items[i]);
    for (int s = 0; s < opt->samples; s++)
        for (int i = 0; i < list->count; i++)
            sample(&list->items[i], s, 1);
    for (int i = 0; i < list->count; i++) {
        bench_case *c = &list->items[i];
        qsort(c->per_op, (size_t)opt->samples, sizeof c->per_op[0],
              compare_double);
        c->median = c->per_op[opt->samples / 2];
        c->spread = (c->per_op[opt->samples - 1] - c->per_op[0]) / c->median;
    }
}

/* The ratio of two cases' costs, num / den: the median over rounds of the
 * ratio within each round. The two samples of a round ran within a second
 * of each other, so a slow stretch of the shared machine slows both and
 * cancels out, which a ratio of the two medians would not do. */
static double paired_ratio(const bench_case *num, const bench_case *den)
{
    double ratios[MAX_SAMPLES];
    int samples = num->samples < den->samples ? num->samples : den->samples;
    for (int s = 0; s < samples; s++)
        ratios[s] = num->in_round[s] / den->in_round[s];
    qsort(ratios, (size_t)samples, sizeof ratios[0], compare_double);
    return ratios[samples / 2];
}

/* ------------------------------------------------------------------------ */
/* A move sequence that never ends the game early                            */

/* splitmix64: a tiny, well-mixed generator for the benchmark's own
 * shuffles, so every run plays the same sequences. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A random index below bound without a division: the high half of a
 * 32 x 32 bit product (Lemire), uniform enough for a benchmark. */
static uint32_t random_below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(((next_random(state) >> 32) * bound) >> 32);
}

typedef struct move {
    int32_t row, col, mark;
} move;

typedef struct sequence {
    int n, k;
    int len;        /* moves in the sequence */
    int last_state; /* state after the last move: draw if it fills the board */
    move *moves;
} sequence;

/*
 * Colour (row, col) by (col + row / 2) mod 2. Along a row the colour
 * alternates; down a column it changes every second cell; along either
 * diagonal the step adds 1 and then 0 or 2 alternately (mod 2), so it too
 * changes at least every second cell. No run of one colour is longer than 2
 * in any direction, so a game whose X marks and O marks follow the two
 * colours never completes a line of K >= 3, at any N, whatever the order.
 */
static int colour_of(int row, int col)
{
    return (col + (row >> 1)) & 1;
}

/* The first len moves of a full-board game (capped at max_len), X on one
 * colour and O on the other, each colour's cells in a seeded random order
 * so the moves land all over the board as in a real game. */
static sequence make_sequence(int n, int k, int max_len, uint64_t seed)
{
    size_t nn = (size_t)n * (size_t)n;
    int32_t *cells[2];
    size_t count[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        cells[c] = malloc(nn * sizeof *cells[c]);
        if (!cells[c])
            die("out of memory");
    }
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            int c = colour_of(row, col);
            cells[c][count[c]++] = (row << 16) | col;
        }
    /* X moves first, so it takes the larger colour class. */
    int x_colour = count[0] >= count[1] ? 0 : 1;
    size_t x_count = count[x_colour], o_count = count[1 - x_colour];
    if (x_count - o_count > 1)
        die("sequence %dx%d: colour classes %zu and %zu cannot alternate", n,
            n, x_count, o_count);
    for (int c = 0; c < 2; c++)
        for (size_t i = count[c]; i > 1; i--) {
            size_t j = random_below(&seed, (uint32_t)i);
            int32_t t = cells[c][i - 1];
            cells[c][i - 1] = cells[c][j];
            cells[c][j] = t;
        }

    sequence s;
    s.n = n;
    s.k = k;
    s.len = nn < (size_t)max_len ? (int)nn : max_len;
    s.last_state = (size_t)s.len == nn ? TTT_DRAW : TTT_IN_PROGRESS;
    s.moves = malloc((size_t)s.len * sizeof *s.moves);
    if (!s.moves)
        die("out of memory");
    for (int i = 0; i < s.len; i++) {
        int c = (i & 1) ? 1 - x_colour : x_colour;
        int32_t packed = cells[c][i >> 1];
        s.moves[i].row = packed >> 16;
        s.moves[i].col = packed & 0xffff;
        s.moves[i].mark = (i & 1) ? TTT_O : TTT_X;
    }
    free(cells[0]);
    free(cells[1]);
    return s;
}

static ttt_game *new_game(int n, int k)
{
    ttt_game *game;
    int rc = ttt_game_new(n, k, &game);
    if (rc != TTT_OK)
        die("ttt_game_new(%d, %d): %s", n, k, ttt_strerror(rc));
    return game;
}

/* ------------------------------------------------------------------------ */
/* play_undo and scan_k: the library's move path                             */

typedef struct play_ctx {
    ttt_game *game;
    const sequence *seq;
} play_ctx;

/* Plays the whole sequence, then undoes it all; one operation is one
 * ttt_play plus one ttt_undo. */
BENCH_BODY body_play_undo(void *ctx_, uint64_t reps)
{
    play_ctx *ctx = ctx_;
    ttt_game *game = ctx->game;
    const move *moves = ctx->seq->moves;
    int len = ctx->seq->len;
    for (uint64_t r = 0; r < reps; r++) {
        int state;
        for (int i = 0; i < len - 1; i++) {
            int rc = ttt_play(game, moves[i].mark, moves[i].row, moves[i].col,
                              &state);
            /* Both are 0 on success: one test covers the status and that
             * the game is still in progress. */
            if ((rc | state) != 0)
                die("ply %d of %dx%d K=%d: status %d, state %d", i,
                    ctx->seq->n, ctx->seq->n, ctx->seq->k, rc, state);
        }
        int rc = ttt_play(game, moves[len - 1].mark, moves[len - 1].row,
                          moves[len - 1].col, &state);
        if (rc != TTT_OK || state != ctx->seq->last_state)
            die("last ply of %dx%d K=%d: status %d, state %d", ctx->seq->n,
                ctx->seq->n, ctx->seq->k, rc, state);
        for (int i = 0; i < len; i++)
            if (ttt_undo(game) != TTT_OK)
                die("undo %d of %dx%d failed", i, ctx->seq->n, ctx->seq->n);
    }
    return reps * (uint64_t)len;
}

/* One play/undo cycle fills the board, up to this many moves on big
 * boards: enough to spread over the whole board, small enough to repeat
 * many times a sample. */
#define MAX_SEQUENCE 4096

/* A sequence that lives as long as the program, seeded by the board. */
static sequence *board_sequence(int n, int k)
{
    sequence *seq = malloc(sizeof *seq);
    if (!seq)
        die("out of memory");
    *seq = make_sequence(n, k, MAX_SEQUENCE, 0x5eed0000u + (uint64_t)n);
    return seq;
}

static void free_sequence(const sequence *seq)
{
    free(seq->moves);
    free((sequence *)seq);
}

static void free_play(void *ctx_)
{
    play_ctx *ctx = ctx_;
    ttt_game_free(ctx->game);
    free_sequence(ctx->seq);
    free(ctx);
}

/* Adds a play/undo case on an N x N board with K in a row. */
static bench_case *add_play_undo(case_list *list, const char *bench, int n,
                                 int k)
{
    play_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        die("out of memory");
    ctx->game = new_game(n, k);
    ctx->seq = board_sequence(n, k);
    return add_case(list, bench, n, k, body_play_undo, ctx, free_play);
}

/* ------------------------------------------------------------------------ */
/* rescan: the baseline the counters replace                                 */

/*
 * The design the line counters replace: after each move, judge the board
 * from scratch by summing every row, every column and both diagonals of an
 * int8 board (X = +1, O = -1); a line is complete when its sum is +N or -N.
 * It is the counter design recomputed each move, so it costs O(N^2) per
 * move on every board. (A version that stops a line at its first
 * mismatching cell would cost anything from O(N) to O(N^2) depending on
 * where the marks lie, which makes a poor fixed baseline.) Written plainly,
 * as a first version would be: row-major sums, then column sums one column
 * at a time.
 */
static int rescan_winner(const int8_t *cells, int n)
{
    for (int row = 0; row < n; row++) {
        int sum = 0;
        for (int col = 0; col < n; col++)
            sum += cells[row * n + col];
        if (sum == n || sum == -n)
            return sum > 0 ? TTT_X : TTT_O;
    }
    for (int col = 0; col < n; col++) {
        int sum = 0;
        for (int row = 0; row < n; row++)
            sum += cells[row * n + col];
        if (sum == n || sum == -n)
            return sum > 0 ? TTT_X : TTT_O;
    }
    int diag = 0, anti = 0;
    for (int i = 0; i < n; i++) {
        diag += cells[i * n + i];
        anti += cells[i * n + (n - 1 - i)];
    }
    if (diag == n || diag == -n)
        return diag > 0 ? TTT_X : TTT_O;
    if (anti == n || anti == -n)
        return anti > 0 ? TTT_X : TTT_O;
    return TTT_EMPTY;
}

typedef struct rescan_ctx {
    int8_t *cells;
    const sequence *seq;
    int len; /* moves timed: a prefix of the sequence on big boards */
} rescan_ctx;

/* Places each move with the baseline's own checks (on the board, empty
 * cell), rescans, then undoes by clearing the cells. One operation is one
 * place + rescan + clear. */
BENCH_BODY body_rescan(void *ctx_, uint64_t reps)
{
    rescan_ctx *ctx = ctx_;
    int n = ctx->seq->n;
    const move *moves = ctx->seq->moves;
    for (uint64_t r = 0; r < reps; r++) {
        for (int i = 0; i < ctx->len; i++) {
            int row = moves[i].row, col = moves[i].col;
            if ((unsigned)row >= (unsigned)n || (unsigned)col >= (unsigned)n ||
                ctx->cells[row * n + col] != TTT_EMPTY)
                die("rescan: illegal move %d", i);
            ctx->cells[row * n + col] = (int8_t)moves[i].mark;
            if (rescan_winner(ctx->cells, n) != TTT_EMPTY)
                die("rescan: %dx%d won at ply %d", n, n, i);
        }
        for (int i = ctx->len - 1; i >= 0; i--)
            ctx->cells[moves[i].row * n + moves[i].col] = TTT_EMPTY;
    }
    return reps * (uint64_t)ctx->len;
}

static void free_rescan(void *ctx_)
{
    rescan_ctx *ctx = ctx_;
    free(ctx->cells);
    free_sequence(ctx->seq);
    free(ctx);
}

/* Adds the baseline on the play_undo sequence of an N x N board. */
static void add_rescan(case_list *list, const options *opt, int n)
{
    const sequence *seq = board_sequence(n, n);
    size_t nn = (size_t)n * (size_t)n;
    /* Each move reads about 2 N^2 + 2 N cells; cap one pass at about 2^25
     * reads (fewer with --quick) so N = 1000 finishes. The cost per move
     * does not depend on the marks, so a prefix measures the same thing. */
    int64_t budget = opt->quick ? (int64_t)1 << 22 : (int64_t)1 << 25;
    int64_t len = budget / (int64_t)(2 * nn + 2 * (size_t)n);
    if (len < 4)
        len = 4;
    if (len > seq->len)
        len = seq->len;
    rescan_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        die("out of memory");
    ctx->cells = calloc(nn, 1);
    ctx->seq = seq;
    ctx->len = (int)len;
    if (!ctx->cells)
        die("out of memory");
    add_case(list, "rescan", n, n, body_rescan, ctx, free_rescan);
}

/* ------------------------------------------------------------------------ */
/* playout: complete random games, one a call                               */

typedef struct playout_ctx {
    ttt_game *game;
    uint64_t seed;
    uint64_t plies;    /* total plies over all games, for plies per game */
    uint64_t games;
} playout_ctx;

/* One game: reset, then the library's seeded random player to the end. */
BENCH_BODY body_playout(void *ctx_, uint64_t reps)
{
    playout_ctx *ctx = ctx_;
    ttt_game *game = ctx->game;
    uint64_t plies = 0;
    for (uint64_t r = 0; r < reps; r++) {
        int state;
        if (ttt_game_reset(game) != TTT_OK)
            die("ttt_game_reset failed");
        int rc = ttt_random_playout(game, &ctx->seed, &state);
        if (rc != TTT_OK || state == TTT_IN_PROGRESS)
            die("ttt_random_playout: status %d, state %d", rc, state);
        plies += (uint64_t)ttt_ply(game);
    }
    ctx->plies += plies;
    ctx->games += reps;
    return reps;
}

static void free_playout(void *ctx_)
{
    playout_ctx *ctx = ctx_;
    ttt_game_free(ctx->game);
    free(ctx);
}

/* A playout or playouts case (bench and body) on a new N x N game. */
static void add_playout(case_list *list, const char *bench, bench_body body,
                        int n, int k)
{
    playout_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        die("out of memory");
    ctx->game = new_game(n, k);
    ctx->seed = 0x0123456789abcdefu;
    ctx->plies = ctx->games = 0;
    add_case(list, bench, n, k, body, ctx, free_playout);
}

/* Connect Four: n columns, height rows, K = k, gravity. */
static bench_case *add_gravity_playout(case_list *list, const char *bench,
                                       bench_body body, int width, int height,
                                       int k)
{
    playout_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        die("out of memory");
    int rc = ttt_game_new_rect(width, height, k, &ctx->game);
    if (rc == TTT_OK)
        rc = ttt_game_set_rule(ctx->game, TTT_RULE_GRAVITY, 1);
    if (rc != TTT_OK)
        die("a %dx%d gravity game: %s", width, height, ttt_strerror(rc));
    ctx->seed = 0x0123456789abcdefu;
    ctx->plies = ctx->games = 0;
    bench_case *c = add_case(list, bench, width, k, body, ctx, free_playout);
    c->height = height;
    return c;
}

static void playout_param(const bench_case *c, char *param, size_t size)
{
    if (c->height)
        snprintf(param, size, "%dx%d K=%d gravity", c->n, c->height, c->k);
    else
        snprintf(param, size, "N=%d K=%d", c->n, c->k);
}

static void report_playout(const options *opt, const bench_case *c)
{
    const playout_ctx *ctx = c->ctx;
    char param[64];
    playout_param(c, param, sizeof param);
    print_row(opt, "playout", param, 1e9 / c->median, 0, "games/s",
              c->spread);
    print_row(opt, "playout", param, c->median, 1, "ns/game", -1);
    double plies = (double)ctx->plies / (double)ctx->games;
    print_row(opt, "playout", param, plies, 2, "plies/game", -1);
    print_row(opt, "playout", param, c->median / plies, 2, "ns/ply", -1);
}

/* playouts: many random games from one position in one call               */

/* reps games in one ttt_random_playouts call from the empty board. */
BENCH_BODY body_playouts(void *ctx_, uint64_t reps)
{
    playout_ctx *ctx = ctx_;
    uint64_t results[4];
    int rc = ttt_random_playouts(ctx->game, &ctx->seed, reps, results);
    if (rc != TTT_OK || results[TTT_IN_PROGRESS] != 0 ||
        results[TTT_X_WON] + results[TTT_O_WON] + results[TTT_DRAW] != reps)
        die("ttt_random_playouts: status %d", rc);
    ctx->games += reps;
    return reps;
}

static void report_playouts(const options *opt, const bench_case *c)
{
    char param[64];
    playout_param(c, param, sizeof param);
    print_row(opt, "playouts", param, 1e9 / c->median, 0, "games/s",
              c->spread);
    print_row(opt, "playouts", param, c->median, 1, "ns/game", -1);
}

/* ------------------------------------------------------------------------ */
/* memory: footprint and allocations on the move path                        */

typedef struct counting {
    uint64_t allocs, frees, bytes; /* calls and bytes asked for */
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *c = user;
    c->allocs++;
    c->bytes += size;
    return malloc(size);
}

static void counting_dealloc(void *user, void *ptr)
{
    counting *c = user;
    c->frees++;
    free(ptr);
}

/* Runs play, undo, redo and reset on a game made by a counting allocator
 * and returns the allocations seen per move; bytes go to *bytes_per_move,
 * the moves made (plays, undos and redos) to *moves_run. */
static double allocations_per_move(int n, int k, double *bytes_per_move,
                                   double *moves_run)
{
    counting count = {0, 0, 0};
    ttt_allocator alloc = {counting_alloc, counting_dealloc, &count};
    ttt_game *game;
    int rc = ttt_game_new_with(n, k, &alloc, &game);
    if (rc != TTT_OK)
        die("ttt_game_new_with(%d, %d): %s", n, k, ttt_strerror(rc));
    if (count.allocs != 1 || count.bytes != ttt_game_footprint(n, k))
        die("ttt_game_new_with(%d, %d): %llu allocations of %llu bytes, "
            "expected 1 of %zu", n, k, (unsigned long long)count.allocs,
            (unsigned long long)count.bytes, ttt_game_footprint(n, k));
    count = (counting){0, 0, 0};

    sequence seq = make_sequence(n, k, 4096, 0xa110c000u + (uint64_t)n);
    uint64_t moves = 0;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < seq.len; i++)
            if (ttt_play(game, seq.moves[i].mark, seq.moves[i].row,
                         seq.moves[i].col, NULL) != TTT_OK)
                die("memory: play failed");
        for (int i = 0; i < seq.len; i++)
            if (ttt_undo(game) != TTT_OK)
                die("memory: undo failed");
        for (int i = 0; i < seq.len; i++)
            if (ttt_redo(game) != TTT_OK)
                die("memory: redo failed");
        if (ttt_game_reset(game) != TTT_OK)
            die("memory: reset failed");
        moves += 3 * (uint64_t)seq.len;
    }
    /* Random games too, about 10^5 of their moves; skipped on boards whose
     * one game alone (up to N^2 moves) would be longer than that. */
    uint64_t seed = 42, random_moves = 0;
    while (n * n <= 100000 && random_moves < 100000) {
        int state;
        if (ttt_game_reset(game) != TTT_OK ||
            ttt_random_playout(game, &seed, &state) != TTT_OK)
            die("memory: random playout failed");
        random_moves += (uint64_t)ttt_ply(game);
    }
    moves += random_moves;
    ttt_game_free(game);
    free(seq.moves);
    if (count.frees != 1)
        die("memory: %llu frees, expected the game's one",
            (unsigned long long)count.frees);
    *bytes_per_move = (double)count.bytes / (double)moves;
    *moves_run = (double)moves;
    return (double)count.allocs / (double)moves;
}

/* Adds the allocations and moves of every run to *allocs and *moves. */
static void run_memory(const options *opt, double *allocs_total,
                       double *moves_total)
{
    static const int sizes[][2] = {
        {3, 3}, {4, 4}, {8, 8}, {19, 19}, {100, 100}, {1000, 1000},
        {7, 4}, {15, 5}, {19, 5}, {100, 5}, {1000, 5},
    };
    char param[64];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i][0], k = sizes[i][1];
        snprintf(param, sizeof param, "footprint N=%d K=%d", n, k);
        print_row(opt, "memory", param, (double)ttt_game_footprint(n, k), 0,
                  "bytes", -1);
    }
    static const int runs[][2] = {{3, 3}, {19, 19}, {1000, 1000}, {15, 5}, {100, 5}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        int n = runs[i][0], k = runs[i][1];
        double bytes, moves;
        double allocs = allocations_per_move(n, k, &bytes, &moves);
        snprintf(param, sizeof param, "moves N=%d K=%d", n, k);
        print_row(opt, "memory", param, moves, 0, "moves run", -1);
        print_row(opt, "memory", param, allocs, 0, "allocs/move", -1);
        print_row(opt, "memory", param, bytes, 0, "bytes/move", -1);
        *allocs_total += allocs * moves;
        *moves_total += moves;
    }
}

/* ------------------------------------------------------------------------ */
/* The machine and the goals                                                 */

static void print_machine(void)
{
    char model[256] = "unknown cpu";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    colon++;
                    while (*colon == ' ' || *colon == '\t')
                        colon++;
                    colon[strcspn(colon, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", colon);
                }
                break;
            }
        }
        fclose(f);
    }
    struct utsname u;
    if (uname(&u) == 0)
        printf("machine:  %s; %s %s %s\n", model, u.sysname, u.release,
               u.machine);
    else
        printf("machine:  %s\n", model);
#ifdef __VERSION__
    printf("compiler: %s\n", __VERSION__);
#endif
    printf("library:  libttt %s\n", ttt_version_string());
}

static const int play_sizes[6] = {3, 4, 8, 19, 100, 1000};

static void print_goal(const char *what, int met, const char *fmt, double v)
{
    printf("  [%s] %-48s ", met ? "met" : "NOT MET", what);
    printf(fmt, v);
    putchar('\n');
}

/* allocs and moves: what the memory check saw, or moves < 0 if it did
 * not run. */
static void print_goals(const case_list *list, double allocs, double moves)
{
    if (!find_case(list, "play_undo", 3, 3) && !find_case(list, "playout", 3, 3) &&
        !find_case(list, "playouts", 3, 3) && moves < 0)
        return; /* no benchmark with a goal ran */
    printf("\ngoals (ratios from this run):\n");
    bench_case *small = find_case(list, "play_undo", 3, 3);
    bench_case *big = find_case(list, "play_undo", 1000, 1000);
    if (small && big) {
        double ratio = paired_ratio(big, small);
        print_goal("play+undo N=1000 within 1.5x of N=3", ratio <= 1.5,
                   "%.2fx", ratio);
    }
    if (find_case(list, "rescan", 3, 3)) {
        double at100 = paired_ratio(find_case(list, "rescan", 100, 100),
                                    find_case(list, "play_undo", 100, 100));
        print_goal(">= 100x faster than rescan at N=100", at100 >= 100,
                   "%.0fx", at100);
        double worst = 1e300;
        for (int i = 0; i < 6; i++) {
            int n = play_sizes[i];
            double ratio = paired_ratio(find_case(list, "rescan", n, n),
                                        find_case(list, "play_undo", n, n));
            if (ratio < worst)
                worst = ratio;
        }
        print_goal("faster than rescan at every N (lowest ratio)", worst > 1,
                   "%.2fx", worst);
    }
    /* Many games a call is how a Monte Carlo user plays them; the figure
     * for one game a call (reset, then a playout) follows it. */
    bench_case *playouts = find_case(list, "playouts", 3, 3);
    if (playouts) {
        double per_second = 1e9 / playouts->median;
        print_goal(">= 20 million random 3x3 games/s on one core",
                   per_second >= 20e6, "%.1f million/s", per_second / 1e6);
    }
    for (int i = 0; i < list->count; i++) {
        const bench_case *c = &list->items[i];
        if (c->height && strcmp(c->bench, "playouts") == 0) {
            double per_second = 1e9 / c->median;
            double ratio = playouts ? paired_ratio(c, playouts) : 0;
            print_goal(">= 20 million random Connect Four games/s", per_second >= 20e6,
                       "%.1f million/s", per_second / 1e6);
            if (playouts)
                printf("  %-56s %.2fx\n", "       (Connect Four time per game / 3x3's)",
                       ratio);
        }
    }
    bench_case *playout = find_case(list, "playout", 3, 3);
    if (playout)
        printf("  %-56s %.1f million/s\n",
               "       (one game a call: reset + ttt_random_playout)",
               1e9 / playout->median / 1e6);
    if (moves >= 0) {
        char what[96];
        snprintf(what, sizeof what, "0 bytes allocated per move (%.0f moves)",
                 moves);
        print_goal(what, allocs == 0, "%.0f allocations", allocs);
        double fp = (double)ttt_game_footprint(3, 0);
        print_goal("3x3 game footprint <= 256 bytes", fp <= 256, "%.0f bytes",
                   fp);
    }
}

/* Prints the shown cases of one benchmark, in the order they were added. */
static void report_bench(const options *opt, const case_list *list,
                         const char *bench)
{
    char param[64];
    for (int i = 0; i < list->count; i++) {
        const bench_case *c = &list->items[i];
        if (!c->shown || strcmp(c->bench, bench) != 0)
            continue;
        if (strcmp(bench, "playout") == 0) {
            report_playout(opt, c);
            continue;
        }
        if (strcmp(bench, "playouts") == 0) {
            report_playouts(opt, c);
            continue;
        }
        if (c->k == c->n)
            snprintf(param, sizeof param, "N=%d", c->n);
        else
            snprintf(param, sizeof param, "N=%d K=%d", c->n, c->k);
        print_row(opt, bench, param, c->median, 2,
                  strcmp(bench, "rescan") == 0 ? "ns/move" : "ns/play+undo",
                  c->spread);
    }
}

/* Every benchmark's rows, each followed by the ratios built on it. */
static void report(const options *opt, const case_list *list)
{
    char param[64];
    report_bench(opt, list, "play_undo");
    bench_case *small = find_case(list, "play_undo", 3, 3);
    bench_case *big = find_case(list, "play_undo", 1000, 1000);
    if (small && small->shown)
        print_row(opt, "play_undo", "N=1000/N=3", paired_ratio(big, small),
                  2, "ratio", -1);

    report_bench(opt, list, "rescan");
    if (find_case(list, "rescan", 3, 3)) {
        for (int i = 0; i < 6; i++) {
            int n = play_sizes[i];
            snprintf(param, sizeof param, "N=%d rescan/ours", n);
            print_row(opt, "rescan", param,
                      paired_ratio(find_case(list, "rescan", n, n),
                                   find_case(list, "play_undo", n, n)),
                      1, "ratio", -1);
        }
    }

    report_bench(opt, list, "scan_k");
    small = find_case(list, "scan_k", 15, 5);
    big = find_case(list, "scan_k", 1000, 5);
    if (small)
        print_row(opt, "scan_k", "N=1000/N=15 K=5", paired_ratio(big, small),
                  2, "ratio", -1);

    report_bench(opt, list, "playout");
    report_bench(opt, list, "playouts");
}

/* ------------------------------------------------------------------------ */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ttt-bench [--csv] [--quick] [--reps R] [NAME]\n"
            "  Times libttt and prints a table (median of several runs).\n"
            "  --csv    print benchmark,param,value,unit rows instead\n"
            "  --quick  short smoke run (3 samples of >= 10 ms each)\n"
            "  --reps R no calibration: one run of exactly R repetitions\n"
            "           per benchmark (fixed work, for callgrind or perf)\n"
            "  NAME     run only benchmarks whose name contains NAME:\n"
            "           play_undo rescan scan_k playout playouts memory\n"
            "The solver's times and nodes are ttt-bench-solve's.\n"
            "Exit status 1 if the library gave a wrong answer or allocated "
            "on the move path;\nperformance goals are reported, not "
            "enforced.\n");
}

int main(int argc, char **argv)
{
    options opt = {0, 0, NULL, 11, 100000000, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0) {
            opt.csv = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            opt.quick = 1;
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            char *end;
            opt.reps = strtoull(argv[++i], &end, 10);
            if (*end != '\0' || opt.reps == 0) {
                usage(stderr);
                return 2;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' || opt.filter) {
            usage(stderr);
            return 2;
        } else {
            opt.filter = argv[i];
        }
    }
    if (opt.quick) {
        opt.samples = 3;
        opt.target_ns = 10000000;
    }

    if (opt.csv) {
        printf("benchmark,param,value,unit\n");
    } else {
        print_machine();
        printf("method:   median of %d runs of >= %lld ms each; spread = "
               "(max - min) / median;\n"
               "          each round runs every case once, and a ratio is the "
               "median of its\n          per-round ratios\n\n",
               opt.samples, (long long)(opt.target_ns / 1000000));
        printf("%-10s %-22s %14s  %-20s %6s\n", "benchmark", "param", "value",
               "unit", "spread");
    }

    case_list list = {NULL, 0, 0};
    /* rescan's ratios need the library's figures for the same boards. */
    if (wanted(&opt, "play_undo") || wanted(&opt, "rescan"))
        for (int i = 0; i < 6; i++)
            add_play_undo(&list, "play_undo", play_sizes[i], play_sizes[i])
                ->shown = wanted(&opt, "play_undo");
    if (wanted(&opt, "rescan"))
        for (int i = 0; i < 6; i++)
            add_rescan(&list, &opt, play_sizes[i]);
    if (wanted(&opt, "scan_k")) {
        add_play_undo(&list, "scan_k", 15, 5);
        add_play_undo(&list, "scan_k", 100, 5);
        add_play_undo(&list, "scan_k", 1000, 5);
    }
    if (wanted(&opt, "playout")) {
        add_playout(&list, "playout", body_playout, 3, 3);
        add_playout(&list, "playout", body_playout, 7, 4);
        add_playout(&list, "playout", body_playout, 15, 5);
        add_gravity_playout(&list, "playout", body_playout, 7, 6, 4);
    }
    if (wanted(&opt, "playouts")) {
        add_playout(&list, "playouts", body_playouts, 3, 3);
        add_playout(&list, "playouts", body_playouts, 4, 4);
        add_playout(&list, "playouts", body_playouts, 7, 4);
        add_playout(&list, "playouts", body_playouts, 15, 5);
        add_gravity_playout(&list, "playouts", body_playouts, 7, 6, 4);
    }
    run_cases(&opt, &list);
    report(&opt, &list);

    double allocs = 0, moves = -1;
    if (wanted(&opt, "memory")) {
        moves = 0;
        run_memory(&opt, &allocs, &moves);
    }
    if (!opt.csv)
        print_goals(&list, allocs, moves);
    free_cases(&list);
    if (allocs != 0) {
        fprintf(stderr, "ttt-bench: the move path allocated memory\n");
        return 1;
    }
    return 0;
}
