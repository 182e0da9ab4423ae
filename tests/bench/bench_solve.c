/* bench_solve.c - ttt-bench-solve: the engine's goals: solve times, nodes and memory; perft; bot matches. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>

#include "ttt.h"

/*
 * Benchmarks of the engine, each printing one table:
 *   solve    the exact solver from the empty board of each goal game:
 *            value, nodes, time and peak memory of the value alone (what
 *            the goals measure) and of the full solve (plies and every
 *            optimal move);
 *   perft    whole-game counts through transpositions;
 *   match    bots against each other over seeded games;
 *   connect4 gravity boards: the published small boards, random 7x6
 *            positions of a few stones solved in full, 7x6 perft, and
 *            (connect4-empty) the empty 7x6 board; (connect4-boards) the
 *            K = 4 boards of John Tromp's table, against it.
 * Memory is measured exactly: the game is built with a counting allocator
 * and the engine allocates through it, so the peak is the engine's own.
 * Times are wall-clock (CLOCK_MONOTONIC) and processor time (clock(), the
 * steadier of the two on a shared machine) around one call; the engine is
 * deterministic, so nodes and results repeat exactly from run to run.
 *
 * The functions bench_solve, bench_perft and bench_match can be called from
 * another benchmark program (define TTT_BENCH_SOLVE_NO_MAIN before
 * including this file); main parses options and runs the chosen ones.
 */

/* ------------------------------------------------------------------------ */
/* Counting allocator and clock                                              */

typedef struct counting {
    size_t live;
    size_t peak;
} counting;

/* Each block carries its size in a header of max_align_t alignment. */
typedef union block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *counting_alloc(void *user, size_t size)
{
    counting *count = user;
    block_header *block = malloc(sizeof *block + size);
    if (!block)
        return NULL;
    block->size = size;
    count->live += size;
    if (count->live > count->peak)
        count->peak = count->live;
    return block + 1;
}

static void counting_dealloc(void *user, void *ptr)
{
    counting *count = user;
    if (!ptr)
        return;
    block_header *block = (block_header *)ptr - 1;
    count->live -= block->size;
    free(block);
}

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static double cpu_seconds_now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static ttt_game *counted_game(int n, int k, counting *count)
{
    ttt_allocator alloc = {counting_alloc, counting_dealloc, count};
    ttt_game *game = NULL;
    if (ttt_game_new_with(n, k, &alloc, &game) != TTT_OK) {
        fprintf(stderr, "ttt-bench-solve: cannot create a %dx%d game\n", n, n);
        exit(1);
    }
    return game;
}

static const char *value_name(int value)
{
    return value > 0 ? "win" : value < 0 ? "loss" : "draw";
}

/* ------------------------------------------------------------------------ */
/* solve                                                                     */

typedef struct solve_goal {
    int width, height, k; /* the (m,n,k) game: m columns, n rows */
    int expect; /* the published value for the first player */
    int value_only; /* the full solve is left out: too long to repeat */
    const char *goal;
} solve_goal;

/* solve_goal.expect for a board whose value is not published. */
#define NO_PUBLISHED_VALUE (-2)

static const solve_goal solve_goals[] = {
    {3, 3, 3, TTT_VALUE_DRAW, 0, "well under 1 ms"},
    {4, 4, 4, TTT_VALUE_DRAW, 0, "under 0.1 s"},
    {4, 4, 3, TTT_VALUE_WIN, 0, "-"},
    {5, 5, 4, TTT_VALUE_DRAW, 0, "under 10 s"},
    /* Rectangles: three in a row is a first-player win from 4 x 3 on,
     * and (6,5,4) is one too (its full solve is left out: too long). */
    {4, 3, 3, TTT_VALUE_WIN, 0, "-"},
    {6, 5, 4, TTT_VALUE_WIN, 1, "as measured"},
};

/* One solve from the empty board; returns 0 if the value is not the
 * published one. */
static int solve_row(FILE *out, const solve_goal *goal, int flags,
                     uint64_t budget)
{
    counting count = {0, 0};
    ttt_allocator alloc = {counting_alloc, counting_dealloc, &count};
    ttt_game *game = NULL;
    if (ttt_game_new_rect_with(goal->width, goal->height, goal->k, &alloc, &game) != TTT_OK) {
        fprintf(stderr, "ttt-bench-solve: cannot create a %dx%d game\n", goal->width,
                goal->height);
        exit(1);
    }
    size_t game_bytes = count.live;
    count.peak = count.live;
    ttt_solution solution;
    memset(&solution, 0, sizeof solution);
    solution.size = sizeof solution;
    int32_t best[64];
    size_t best_len = 0;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    int status = ttt_solve(game, budget, 0, flags, &solution, best, 64, &best_len);
    double elapsed = seconds_now() - start, cpu = cpu_seconds_now() - cpu_start;
    char board[16];
    snprintf(board, sizeof board, "(%d,%d,%d)", goal->width, goal->height, goal->k);
    if (status != TTT_OK) {
        fprintf(out, "%-9s %-10s %s\n", board, flags ? "value" : "full",
                ttt_strerror(status));
        ttt_game_free(game);
        return status == TTT_E_BUDGET;
    }
    char plies[16];
    snprintf(plies, sizeof plies, "%d", solution.plies);
    fprintf(out, "%-9s %-6s %-5s %5s %5zu %11llu %11.3f %11.3f %10.1f   %s\n", board,
            flags ? "value" : "full", value_name(solution.value),
            solution.plies < 0 ? "-" : plies, best_len,
            (unsigned long long)solution.nodes, elapsed * 1e3, cpu * 1e3,
            (double)(count.peak - game_bytes) / 1024.0, flags ? goal->goal : "");
    ttt_game_free(game);
    return solution.value == goal->expect;
}

/* The goal boards, value only and then full. quick skips those of 20
 * cells or more. */
int bench_solve(FILE *out, int quick, uint64_t budget)
{
    int ok = 1;
    fprintf(out, "solve: from the empty board (value for X; best = optimal first moves)\n");
    fprintf(out, "%-9s %-6s %-5s %5s %5s %11s %11s %11s %10s   %s\n", "game", "pass",
            "value", "plies", "best", "nodes", "wall_ms", "cpu_ms", "peak_KiB", "goal");
    size_t goals = sizeof solve_goals / sizeof solve_goals[0];
    for (int flags = TTT_SOLVE_VALUE_ONLY; flags >= 0; flags--) {
        for (size_t i = 0; i < goals; i++) {
            if ((quick && solve_goals[i].width * solve_goals[i].height >= 20) ||
                (flags == 0 && solve_goals[i].value_only))
                continue;
            ok &= solve_row(out, &solve_goals[i], flags, budget);
        }
    }
    return ok;
}

/* ------------------------------------------------------------------------ */
/* perft                                                                     */

int bench_perft(FILE *out, int n, int k, int depth)
{
    counting count = {0, 0};
    ttt_game *game = counted_game(n, k, &count);
    size_t game_bytes = count.live;
    count.peak = count.live;
    uint64_t counts[4], lengths[64];
    size_t len = 0;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    int status = ttt_perft(game, depth, 0, counts, lengths, 64, &len);
    double elapsed = seconds_now() - start, cpu = cpu_seconds_now() - cpu_start;
    ttt_game_free(game);
    fprintf(out, "perft %d %d %d:", n, k, depth);
    if (status != TTT_OK) {
        fprintf(out, " %s\n", ttt_strerror(status));
        return 0;
    }
    unsigned long long total = (unsigned long long)counts[0] + counts[1] +
                               counts[2] + counts[3];
    fprintf(out, " x_won=%llu o_won=%llu draw=%llu open=%llu (%llu games) %.2f s "
                 "(cpu %.2f s), peak %.1f MiB\n",
            (unsigned long long)counts[TTT_X_WON], (unsigned long long)counts[TTT_O_WON],
            (unsigned long long)counts[TTT_DRAW],
            (unsigned long long)counts[TTT_IN_PROGRESS], total, elapsed, cpu,
            (double)(count.peak - game_bytes) / (1024.0 * 1024.0));
    return 1;
}

/* ------------------------------------------------------------------------ */
/* connect4: gravity boards                                                  */

static ttt_game *counted_gravity_game(int width, int height, int k,
                                      counting *count)
{
    ttt_allocator alloc = {counting_alloc, counting_dealloc, count};
    ttt_game *game = NULL;
    if (ttt_game_new_rect_with(width, height, k, &alloc, &game) != TTT_OK ||
        ttt_game_set_rule(game, TTT_RULE_GRAVITY, 1) != TTT_OK) {
        fprintf(stderr, "ttt-bench-solve: cannot create a %dx%d gravity game\n",
                width, height);
        exit(1);
    }
    return game;
}

typedef struct solve_timing {
    int status;
    ttt_solution solution;
    size_t best_len;
    int32_t best[64];
    double wall, cpu;
} solve_timing;

static solve_timing timed_solve_capped(const ttt_game *game, int flags, uint64_t budget,
                                       size_t table_bytes)
{
    solve_timing t;
    memset(&t, 0, sizeof t);
    t.solution.size = sizeof t.solution;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    t.status = ttt_solve(game, budget, table_bytes, flags, &t.solution, t.best, 64,
                         &t.best_len);
    t.wall = seconds_now() - start;
    t.cpu = cpu_seconds_now() - cpu_start;
    return t;
}

static solve_timing timed_solve(const ttt_game *game, int flags, uint64_t budget)
{
    return timed_solve_capped(game, flags, budget, 0);
}

static void gravity_row(FILE *out, const char *board, const char *pass,
                        const solve_timing *t, const char *note)
{
    if (t->status != TTT_OK) {
        fprintf(out, "%-14s %-6s %s\n", board, pass, ttt_strerror(t->status));
        return;
    }
    char plies[16];
    snprintf(plies, sizeof plies, "%d", t->solution.plies);
    fprintf(out, "%-14s %-6s %-5s %5s %5zu %13llu %11.3f %11.3f   %s\n", board,
            pass, value_name(t->solution.value),
            t->solution.plies < 0 ? "-" : plies, t->best_len,
            (unsigned long long)t->solution.nodes, t->wall, t->cpu, note);
}

static const struct gravity_goal {
    int width, height, k;
    int expect; /* the published value for the first player */
} gravity_goals[] = {
    {4, 4, 3, TTT_VALUE_WIN},
    {4, 4, 4, TTT_VALUE_DRAW},
};

/*
 * Connect Four and small gravity boards through ttt_solve: the published
 * small boards, then `positions` random positions of `stones` stones on
 * the 7x6 board (each solved exactly: value, plies and every optimal
 * move), and with empty the empty 7x6 board, value only (the first
 * player wins) and then in full (41 plies). Returns 0 if a value is not
 * the published one.
 */
int bench_connect4(FILE *out, int positions, int stones, uint64_t seed,
                   int empty, uint64_t budget)
{
    int ok = 1;
    fprintf(out, "connect4: gravity boards through ttt_solve (value for the side to move)\n");
    fprintf(out, "%-14s %-6s %-5s %5s %5s %13s %11s %11s   %s\n", "board", "pass",
            "value", "plies", "best", "nodes", "wall_s", "cpu_s", "note");
    for (size_t i = 0; i < sizeof gravity_goals / sizeof gravity_goals[0]; i++) {
        const struct gravity_goal *g = &gravity_goals[i];
        counting count = {0, 0};
        ttt_game *game = counted_gravity_game(g->width, g->height, g->k, &count);
        char board[32];
        snprintf(board, sizeof board, "%dx%d K=%d", g->width, g->height, g->k);
        solve_timing t = timed_solve(game, 0, budget);
        gravity_row(out, board, "full", &t,
                    g->expect > 0 ? "published: first player wins"
                                  : "published: draw");
        ok &= t.status == TTT_OK && t.solution.value == g->expect;
        ttt_game_free(game);
    }

    /* Random positions: random columns from the empty board, kept if the
     * game is still on after `stones` of them. */
    double wall = 0, cpu = 0, worst = 0;
    uint64_t nodes = 0;
    int solved = 0, wins = 0, draws = 0, losses = 0, failed = 0;
    uint64_t rng = seed;
    while (solved + failed < positions) {
        counting count = {0, 0};
        ttt_game *game = counted_gravity_game(7, 6, 4, &count);
        int state = TTT_IN_PROGRESS;
        for (int i = 0; i < stones && state == TTT_IN_PROGRESS; i++) {
            int row, col;
            if (ttt_random_move(game, &rng, &row, &col) != TTT_OK ||
                ttt_play(game, ttt_to_move(game), row, col, &state) != TTT_OK)
                state = -1;
        }
        if (state == TTT_IN_PROGRESS) {
            solve_timing t = timed_solve(game, 0, budget);
            if (t.status != TTT_OK) {
                failed++;
            } else {
                solved++;
                wall += t.wall;
                cpu += t.cpu;
                nodes += t.solution.nodes;
                if (t.wall > worst)
                    worst = t.wall;
                wins += t.solution.value > 0;
                draws += t.solution.value == 0;
                losses += t.solution.value < 0;
            }
        }
        ttt_game_free(game);
    }
    fprintf(out, "7x6 K=4, %d random positions of %d stones (seed %llu), full solves: "
                 "%d solved (%d win, %d draw, %d loss), %d stopped\n",
            positions, stones, (unsigned long long)seed, solved, wins, draws, losses,
            failed);
    if (solved > 0)
        fprintf(out, "  average %.3f s wall, %.3f s cpu, %.0f nodes; slowest %.3f s wall"
                     "   goal: under 1 s on average\n",
                wall / solved, cpu / solved, (double)nodes / solved, worst);
    ok &= failed == 0;

    if (empty) {
        for (int flags = TTT_SOLVE_VALUE_ONLY; flags >= 0; flags--) {
            counting count = {0, 0};
            ttt_game *game = counted_gravity_game(7, 6, 4, &count);
            solve_timing t = timed_solve(game, flags, budget);
            gravity_row(out, "7x6 K=4 empty", flags ? "value" : "full", &t,
                        flags ? "published: first player wins"
                              : "published: win on ply 41, centre column only");
            ok &= t.status == TTT_OK && t.solution.value == TTT_VALUE_WIN;
            ttt_game_free(game);
        }
    }
    return ok;
}

/*
 * connect4-set: a file of 7x6 positions, one a line as Pascal Pons' Connect
 * Four solver reads and writes them: the moves as 1-based columns from the
 * empty board, then the score; a line starting with # is a comment. His
 * score is ours (solve.c's distance score): a win with d plies to go from
 * E empty cells scores (E - d) / 2 + 1, a loss the negative, a draw 0, so
 * value and plies agree exactly when the scores do. Each position is
 * solved in full (value, plies, every optimal move) and checked against
 * the file's score.
 * With `peer`, a command reading move lines on its standard input (his
 * c4solver; with -a it prints the score of every column, -1000 for a full
 * one), that command first solves the same file in the same run: its
 * scores are checked against the file as well, its optimal columns (with
 * -a) against ours, and its processor time (its children's, from
 * getrusage) is printed beside ours.
 */
#define SET_LINE_MAX 128

typedef struct set_line {
    char moves[SET_LINE_MAX];
    int score;
    int peer_score;      /* or SET_NONE */
    int peer_best;       /* bit c: column c optimal by the peer (-a only) */
} set_line;

#define SET_NONE (-10000)

static int read_set(const char *path, set_line **lines_out, int *count_out)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "ttt-bench-solve: cannot read %s\n", path);
        return 0;
    }
    set_line *lines = NULL;
    int count = 0, cap = 0;
    char buf[256];
    while (fgets(buf, sizeof buf, in)) {
        char moves[SET_LINE_MAX];
        int score;
        if (sscanf(buf, "%127s %d", moves, &score) != 2)
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            set_line *grown = realloc(lines, (size_t)cap * sizeof *lines);
            if (!grown) {
                free(lines);
                fclose(in);
                return 0;
            }
            lines = grown;
        }
        snprintf(lines[count].moves, SET_LINE_MAX, "%s", moves);
        lines[count].score = score;
        lines[count].peer_score = SET_NONE;
        lines[count].peer_best = 0;
        count++;
    }
    fclose(in);
    *lines_out = lines;
    *count_out = count;
    return 1;
}

static double children_cpu_seconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
}

/* Runs peer on the moves of path's lines, reading its lines in the file's
 * order; returns its processor time, or -1 if it could not be run or
 * answered out of order. */
static double run_peer(const char *peer, const char *path, set_line *lines, int count)
{
    char command[1024];
    /* The peer reads the moves alone: the comment lines are left out and
     * the scores cut off. */
    snprintf(command, sizeof command, "grep -v '^#' '%s' | cut -d ' ' -f 1 | %s", path,
             peer);
    double before = children_cpu_seconds();
    FILE *from = popen(command, "r");
    if (!from)
        return -1;
    char buf[512];
    int at = 0, in_order = 1;
    while (fgets(buf, sizeof buf, from)) {
        char moves[SET_LINE_MAX];
        int s[8], n = 0;
        if (sscanf(buf, "%127s%n", moves, &n) != 1 || at >= count)
            continue;
        if (strcmp(moves, lines[at].moves) != 0) {
            in_order = 0;
            continue;
        }
        int got = sscanf(buf + n, "%d %d %d %d %d %d %d", &s[0], &s[1], &s[2],
                         &s[3], &s[4], &s[5], &s[6]);
        if (got == 1) {
            lines[at].peer_score = s[0];
        } else if (got == 7) {
            int best = SET_NONE;
            for (int c = 0; c < 7; c++)
                if (s[c] > best)
                    best = s[c];
            lines[at].peer_score = best;
            for (int c = 0; c < 7; c++)
                if (s[c] == best)
                    lines[at].peer_best |= 1 << c;
        }
        at++;
    }
    int status = pclose(from);
    double cpu = children_cpu_seconds() - before;
    return status == 0 && in_order && at == count ? cpu : -1;
}

/* Our score in Pons' terms for a full solution from `empty` empty cells. */
static int pons_score(const ttt_solution *s, int empty)
{
    if (s->value == TTT_VALUE_DRAW)
        return 0;
    int score = (empty - s->plies) / 2 + 1;
    return s->value == TTT_VALUE_WIN ? score : -score;
}

int bench_connect4_set(FILE *out, const char *path, const char *peer,
                       uint64_t budget, size_t table_bytes)
{
    set_line *lines;
    int count;
    if (!read_set(path, &lines, &count))
        return 0;
    int ok = 1;
    double peer_cpu = -1;
    if (peer) {
        peer_cpu = run_peer(peer, path, lines, count);
        if (peer_cpu < 0) {
            fprintf(stderr, "ttt-bench-solve: %s did not answer every line of %s\n",
                    peer, path);
            ok = 0;
        }
    }
    double cpu = 0, wall = 0, worst = 0;
    uint64_t nodes = 0;
    int agree = 0, peer_agree = 0, best_agree = 0, best_checked = 0;
    for (int i = 0; i < count; i++) {
        counting counter = {0, 0};
        ttt_game *game = counted_gravity_game(7, 6, 4, &counter);
        int state = TTT_IN_PROGRESS, played = 0;
        for (const char *m = lines[i].moves; *m && state == TTT_IN_PROGRESS; m++) {
            int row;
            if (*m < '1' || *m > '7' ||
                ttt_drop(game, *m - '1', &row, &state) != TTT_OK)
                break;
            played++;
        }
        if (state != TTT_IN_PROGRESS || played != (int)strlen(lines[i].moves)) {
            fprintf(out, "  line %d (%s): not a position in progress\n", i + 1,
                    lines[i].moves);
            ok = 0;
            ttt_game_free(game);
            continue;
        }
        solve_timing t = timed_solve_capped(game, 0, budget, table_bytes);
        int best_columns = 0;
        for (size_t b = 0; t.status == TTT_OK && b < t.best_len; b++)
            best_columns |= 1 << (t.best[b] % 7);
        ttt_game_free(game);
        if (t.status != TTT_OK) {
            fprintf(out, "  line %d (%s): %s\n", i + 1, lines[i].moves,
                    ttt_strerror(t.status));
            ok = 0;
            continue;
        }
        cpu += t.cpu;
        wall += t.wall;
        nodes += t.solution.nodes;
        if (t.cpu > worst)
            worst = t.cpu;
        int ours = pons_score(&t.solution, 42 - played);
        if (ours == lines[i].score)
            agree++;
        else
            fprintf(out, "  line %d (%s): ours %d, the file's %d\n", i + 1,
                    lines[i].moves, ours, lines[i].score);
        if (lines[i].peer_score != SET_NONE) {
            if (lines[i].peer_score == lines[i].score)
                peer_agree++;
            else
                fprintf(out, "  line %d (%s): the peer's %d, the file's %d\n", i + 1,
                        lines[i].moves, lines[i].peer_score, lines[i].score);
        }
        if (lines[i].peer_best) {
            best_checked++;
            if (lines[i].peer_best == best_columns)
                best_agree++;
            else
                fprintf(out, "  line %d (%s): optimal columns ours %#x, the peer's %#x\n",
                        i + 1, lines[i].moves, (unsigned)best_columns,
                        (unsigned)lines[i].peer_best);
        }
    }
    fprintf(out, "connect4-set %s: %d positions, full solves (value, plies, every optimal move)\n",
            path, count);
    fprintf(out, "  ours: %d/%d scores agree with the file; %.3f s cpu, %.3f s wall, "
                 "%llu nodes; slowest %.3f s cpu\n",
            agree, count, cpu, wall, (unsigned long long)nodes, worst);
    ok &= agree == count;
    if (peer) {
        fprintf(out, "  peer (%s): %d/%d scores agree with the file; %.3f s cpu\n", peer,
                peer_agree, count, peer_cpu);
        ok &= peer_agree == count;
        if (best_checked) {
            fprintf(out, "  optimal columns: %d/%d agree with the peer's\n", best_agree,
                    best_checked);
            ok &= best_agree == best_checked;
        }
        if (peer_cpu > 0)
            fprintf(out, "  ours / peer processor time: %.2f\n", cpu / peer_cpu);
    }
    free(lines);
    return ok;
}

/*
 * connect4-boards: gravity boards with K = 4 from John Tromp's table of
 * results (every board with width + height <= 15), with the ply each game
 * ends on and the boards with width + height = 16 as Christophe
 * Steininger's solver reproduced and extended it; here the boards whose
 * columns fit the bitboard solver (width * (height + 1) <= 64). Each is
 * solved in full from the empty board (value, plies, every optimal move)
 * and checked against the table; the peak is the engine's memory (the
 * table is capped at table_bytes, 0 for the solver's 64 MiB). By
 * default the boards solved here within about a minute and a half; a
 * comma-separated list of WxH names others.
 */
static const struct published_board {
    int width, height;
    int value;    /* for the first player */
    int plies;    /* the ply the game ends on under perfect play */
    int default_run;
} published_boards[] = {
    {4, 4, TTT_VALUE_DRAW, 16, 1},  {5, 4, TTT_VALUE_DRAW, 20, 1},
    {6, 4, TTT_VALUE_LOSS, 24, 1},  {7, 4, TTT_VALUE_DRAW, 28, 1},
    {8, 4, TTT_VALUE_LOSS, 32, 1},  {9, 4, TTT_VALUE_LOSS, 36, 1},
    {10, 4, TTT_VALUE_LOSS, 40, 0}, {11, 4, TTT_VALUE_LOSS, 44, 0},
    {12, 4, TTT_VALUE_LOSS, 48, 0},
    {4, 5, TTT_VALUE_DRAW, 20, 1},  {5, 5, TTT_VALUE_DRAW, 25, 1},
    {6, 5, TTT_VALUE_DRAW, 30, 1},  {7, 5, TTT_VALUE_DRAW, 35, 1},
    {8, 5, TTT_VALUE_WIN, 39, 1},   {9, 5, TTT_VALUE_WIN, 41, 0},
    {10, 5, TTT_VALUE_WIN, 47, 0},
    {4, 6, TTT_VALUE_DRAW, 24, 1},  {5, 6, TTT_VALUE_DRAW, 30, 1},
    {6, 6, TTT_VALUE_LOSS, 36, 1},  {7, 6, TTT_VALUE_WIN, 41, 1},
    {8, 6, TTT_VALUE_LOSS, 48, 0},  {9, 6, TTT_VALUE_LOSS, 52, 0},
    {4, 7, TTT_VALUE_DRAW, 28, 1},  {5, 7, TTT_VALUE_DRAW, 35, 1},
    {6, 7, TTT_VALUE_WIN, 41, 0},   {7, 7, TTT_VALUE_DRAW, 49, 0},
    {8, 7, TTT_VALUE_WIN, 53, 0},
    {4, 8, TTT_VALUE_DRAW, 32, 1},  {5, 8, TTT_VALUE_DRAW, 40, 1},
    {6, 8, TTT_VALUE_LOSS, 48, 0},  {7, 8, TTT_VALUE_WIN, 55, 0},
    {4, 9, TTT_VALUE_DRAW, 36, 1},  {5, 9, TTT_VALUE_DRAW, 45, 1},
    {6, 9, TTT_VALUE_WIN, 53, 0},
    {4, 10, TTT_VALUE_DRAW, 40, 1}, {5, 10, TTT_VALUE_DRAW, 50, 0},
    {4, 11, TTT_VALUE_DRAW, 44, 1}, {5, 11, TTT_VALUE_DRAW, 55, 0},
    {4, 12, TTT_VALUE_DRAW, 48, 0}, {4, 13, TTT_VALUE_DRAW, 52, 0},
};

/* Whether the board width x height is named in list ("7x7,9x6"). */
static int board_listed(const char *list, int width, int height)
{
    for (const char *at = list; at && *at;) {
        int w = 0, h = 0, used = 0;
        if (sscanf(at, "%dx%d%n", &w, &h, &used) != 2)
            return 0;
        if (w == width && h == height)
            return 1;
        at += used;
        if (*at == ',')
            at++;
    }
    return 0;
}

int bench_connect4_boards(FILE *out, const char *list, uint64_t budget,
                          size_t table_bytes)
{
    int ok = 1, listed = 0;
    fprintf(out, "connect4-boards: K = 4 gravity boards from the empty board, full solves,\n"
                 "against John Tromp's table (value; the last ply as Christophe Steininger's\n"
                 "solver reproduced it)\n");
    fprintf(out, "%-6s %-5s %5s %5s %13s %11s %11s %9s   %s\n", "board", "value",
            "plies", "best", "nodes", "wall_s", "cpu_s", "peak_MiB", "published");
    for (size_t i = 0; i < sizeof published_boards / sizeof published_boards[0]; i++) {
        const struct published_board *b = &published_boards[i];
        if (list ? !board_listed(list, b->width, b->height) : !b->default_run)
            continue;
        listed++;
        counting count = {0, 0};
        ttt_game *game = counted_gravity_game(b->width, b->height, 4, &count);
        solve_timing t = timed_solve_capped(game, 0, budget, table_bytes);
        ttt_game_free(game);
        char board[16], published[48], plies[16];
        snprintf(board, sizeof board, "%dx%d", b->width, b->height);
        snprintf(published, sizeof published, "%s on ply %d",
                 b->value == TTT_VALUE_WIN    ? "first player wins"
                 : b->value == TTT_VALUE_LOSS ? "second player wins"
                                              : "draw",
                 b->plies);
        if (t.status != TTT_OK) {
            fprintf(out, "%-6s %-5s %5s %5s %13llu %11.3f %11.3f %9.1f   %s (%s)\n",
                    board, "-", "-", "-", (unsigned long long)t.solution.nodes, t.wall,
                    t.cpu, (double)count.peak / (1 << 20), published,
                    ttt_strerror(t.status));
            ok = 0;
            continue;
        }
        int agree = t.solution.value == b->value && t.solution.plies == b->plies;
        snprintf(plies, sizeof plies, "%d", t.solution.plies);
        fprintf(out, "%-6s %-5s %5s %5zu %13llu %11.3f %11.3f %9.1f   %s%s\n", board,
                value_name(t.solution.value), plies, t.best_len,
                (unsigned long long)t.solution.nodes, t.wall, t.cpu,
                (double)count.peak / (1 << 20), published, agree ? "" : ": DIFFERS");
        ok &= agree;
    }
    if (listed == 0) {
        fprintf(out, "  no board of the table matches \"%s\"\n", list ? list : "");
        ok = 0;
    }
    return ok;
}

/* Perft on a gravity board (ttt perft W x H K depth --gravity). */
int bench_perft_gravity(FILE *out, int width, int height, int k, int depth)
{
    counting count = {0, 0};
    ttt_game *game = counted_gravity_game(width, height, k, &count);
    uint64_t counts[4], lengths[64];
    size_t len = 0;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    int status = ttt_perft(game, depth, 0, counts, lengths, 64, &len);
    double elapsed = seconds_now() - start, cpu = cpu_seconds_now() - cpu_start;
    ttt_game_free(game);
    fprintf(out, "perft %dx%d %d %d gravity:", width, height, k, depth);
    if (status != TTT_OK) {
        fprintf(out, " %s\n", ttt_strerror(status));
        return 0;
    }
    fprintf(out, " x_won=%llu o_won=%llu draw=%llu open=%llu (%llu games of %d plies) "
                 "%.2f s (cpu %.2f s)\n",
            (unsigned long long)counts[TTT_X_WON], (unsigned long long)counts[TTT_O_WON],
            (unsigned long long)counts[TTT_DRAW],
            (unsigned long long)counts[TTT_IN_PROGRESS],
            (unsigned long long)lengths[len - 1], depth, elapsed, cpu);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* match                                                                     */

static const char *level_name(int level)
{
    return level == TTT_BOT_PERFECT ? "perfect" : level == TTT_BOT_STRONG ? "strong" : "random";
}

/* Plays games between two levels with one running seed; prints one line.
 * Returns the counts by state in results[4]. */
void bench_match(FILE *out, int n, int k, int x_level, int o_level, int games,
                 uint64_t seed, uint64_t budget, int results[4])
{
    memset(results, 0, 4 * sizeof *results);
    long moves = 0;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    for (int i = 0; i < games; i++) {
        ttt_game *game = NULL;
        if (ttt_game_new(n, k, &game) != TTT_OK)
            exit(1);
        while (ttt_state(game) == TTT_IN_PROGRESS) {
            int level = ttt_to_move(game) == TTT_X ? x_level : o_level;
            int row, col;
            int status = ttt_best_move(game, level, level == TTT_BOT_PERFECT ? 0 : budget,
                                       &seed, &row, &col);
            if (status == TTT_OK)
                status = ttt_play(game, ttt_to_move(game), row, col, NULL);
            if (status != TTT_OK) {
                fprintf(stderr, "ttt-bench-solve: %s\n", ttt_strerror(status));
                exit(1);
            }
            moves++;
        }
        results[ttt_state(game)]++;
        ttt_game_free(game);
    }
    double elapsed = seconds_now() - start, cpu = cpu_seconds_now() - cpu_start;
    fprintf(out, "%2dx%-2d K=%d  X=%-7s O=%-7s games=%-5d x_won=%-5d o_won=%-5d "
                 "draw=%-5d %6.1f s (cpu %6.1f s)  %.2f ms/move\n",
            n, n, k, level_name(x_level), level_name(o_level), games,
            results[TTT_X_WON], results[TTT_O_WON], results[TTT_DRAW], elapsed, cpu,
            moves ? cpu * 1e3 / (double)moves : 0.0);
}

/* The goal matches: strong must win 99% against random on 7x7 K=4 and
 * 15x15 K=5 as either colour, and never lose to perfect on 3x3. */
int bench_matches(FILE *out, int games, uint64_t seed, uint64_t budget)
{
    int r[4], ok = 1;
    fprintf(out, "match: seed %llu, strong budget %llu positions a move\n",
            (unsigned long long)seed, (unsigned long long)budget);
    bench_match(out, 7, 4, TTT_BOT_STRONG, TTT_BOT_RANDOM, games, seed, budget, r);
    ok &= r[TTT_X_WON] * 100 >= games * 99;
    bench_match(out, 7, 4, TTT_BOT_RANDOM, TTT_BOT_STRONG, games, seed, budget, r);
    ok &= r[TTT_O_WON] * 100 >= games * 99;
    bench_match(out, 15, 5, TTT_BOT_STRONG, TTT_BOT_RANDOM, games, seed, budget, r);
    ok &= r[TTT_X_WON] * 100 >= games * 99;
    bench_match(out, 15, 5, TTT_BOT_RANDOM, TTT_BOT_STRONG, games, seed, budget, r);
    ok &= r[TTT_O_WON] * 100 >= games * 99;
    int perfect_games = games < 100 ? games : 100;
    bench_match(out, 3, 3, TTT_BOT_STRONG, TTT_BOT_PERFECT, perfect_games, seed, budget, r);
    ok &= r[TTT_O_WON] == 0;
    bench_match(out, 3, 3, TTT_BOT_PERFECT, TTT_BOT_STRONG, perfect_games, seed, budget, r);
    ok &= r[TTT_X_WON] == 0;
    return ok;
}

/* ------------------------------------------------------------------------ */
/* bounds                                                                    */

/*
 * What one engine call costs on every board size: one strong move at the
 * default budget from a board holding one mark in its centre (the second
 * move of a game), and one ttt_solve with a node budget of 1 from the
 * empty board. Both should take work near their budget plus a few passes
 * over the board, and memory near the table plus O(N*N).
 */
static const int bound_boards[][2] = {
    {3, 3}, {15, 5}, {256, 5}, {1024, 5}, {1024, 1024},
};

static void bounds_row(FILE *out, int n, int k)
{
    counting count = {0, 0};
    ttt_game *game = counted_game(n, k, &count);
    if (ttt_play(game, TTT_X, n / 2, n / 2, NULL) != TTT_OK)
        exit(1);
    size_t game_bytes = count.live;
    count.peak = count.live;
    uint64_t seed = 1;
    int row = -1, col = -1;
    double start = seconds_now(), cpu_start = cpu_seconds_now();
    int status = ttt_best_move(game, TTT_BOT_STRONG, 0, &seed, &row, &col);
    double move_wall = seconds_now() - start, move_cpu = cpu_seconds_now() - cpu_start;
    size_t move_peak = count.peak - game_bytes;
    ttt_game_free(game);

    game = counted_game(n, k, &count);
    game_bytes = count.live;
    count.peak = count.live;
    ttt_solution solution;
    memset(&solution, 0, sizeof solution);
    solution.size = sizeof solution;
    start = seconds_now();
    cpu_start = cpu_seconds_now();
    int solve_status = ttt_solve(game, 1, 0, 0, &solution, NULL, 0, NULL);
    double solve_wall = seconds_now() - start, solve_cpu = cpu_seconds_now() - cpu_start;
    size_t solve_peak = count.peak - game_bytes;
    ttt_game_free(game);

    char board[32];
    snprintf(board, sizeof board, "%dx%d K=%d", n, n, k);
    fprintf(out, "%-16s %-8s %9.1f %9.1f %10.1f   %-8s %9.1f %9.1f %10.1f\n", board,
            status == TTT_OK ? "ok" : ttt_strerror(status), move_wall * 1e3,
            move_cpu * 1e3, (double)move_peak / 1048576.0,
            solve_status == TTT_E_BUDGET ? "budget" : ttt_strerror(solve_status),
            solve_wall * 1e3, solve_cpu * 1e3, (double)solve_peak / 1048576.0);
}

int bench_bounds(FILE *out)
{
    fprintf(out, "bounds: one strong move (default budget, after a centre mark) and one\n"
                 "ttt_solve with node budget 1 (empty board); peak = engine memory\n");
    fprintf(out, "%-16s %-8s %9s %9s %10s   %-8s %9s %9s %10s\n", "board", "move",
            "wall_ms", "cpu_ms", "peak_MiB", "solve", "wall_ms", "cpu_ms", "peak_MiB");
    size_t boards = sizeof bound_boards / sizeof bound_boards[0];
    for (size_t i = 0; i < boards; i++)
        bounds_row(out, bound_boards[i][0], bound_boards[i][1]);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* pairing                                                                   */

/* (n,n,n) boards a pairing strategy settles from the empty board (issue
 * 16: (6,6,6) and (7,7,7) under a second), full solve (plies and every
 * move), timed over many calls since one takes microseconds. Exit status
 * 1 if one is not a pairing draw. */
int bench_pairing(FILE *out)
{
    static const int sides[] = {5, 6, 7, 8, 10, 16};
    enum { CALLS = 1000 };
    fprintf(out, "pairing: full ttt_solve from the empty board, mean of %d calls\n", CALLS);
    fprintf(out, "%-12s %-5s %5s %5s %9s %-8s %12s %12s\n", "game", "value", "plies",
            "best", "nodes", "method", "wall_us", "cpu_us");
    int ok = 1;
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        int n = sides[i];
        counting count = {0, 0};
        ttt_game *game = counted_game(n, n, &count);
        ttt_solution solution;
        int32_t best[256];
        size_t best_len = 0;
        int status = TTT_OK;
        double start = seconds_now(), cpu_start = cpu_seconds_now();
        for (int call = 0; call < CALLS && status == TTT_OK; call++) {
            memset(&solution, 0, sizeof solution);
            solution.size = sizeof solution;
            status = ttt_solve(game, 0, 0, 0, &solution, best, 256, &best_len);
        }
        double wall = (seconds_now() - start) / CALLS, cpu = (cpu_seconds_now() - cpu_start) / CALLS;
        ttt_game_free(game);
        char board[16];
        snprintf(board, sizeof board, "(%d,%d,%d)", n, n, n);
        if (status != TTT_OK) {
            fprintf(out, "%-12s %s\n", board, ttt_strerror(status));
            ok = 0;
            continue;
        }
        int pairing = solution.method == TTT_METHOD_PAIRING;
        fprintf(out, "%-12s %-5s %5d %5zu %9llu %-8s %12.2f %12.2f\n", board,
                value_name(solution.value), solution.plies, best_len,
                (unsigned long long)solution.nodes, pairing ? "pairing" : "search",
                wall * 1e6, cpu * 1e6);
        ok &= pairing && solution.value == TTT_VALUE_DRAW;
    }
    return ok;
}

/* ------------------------------------------------------------------------ */
/* proof                                                                     */

/* The boards of the proof-number search (a value-only ttt_solve on a board
 * above 25 cells), each with the processor time it must settle within.
 * A budget (0: none) keeps an unsettled board from running forever; such a
 * board prints "budget" with the bounds proven and counts as a miss. */
typedef struct proof_goal {
    int n, k;
    int expect; /* the published value, or NO_PUBLISHED_VALUE */
    double cpu_limit;
    const char *goal;
} proof_goal;

int bench_proof(FILE *out, uint64_t budget, size_t table_bytes)
{
    static const proof_goal goals[] = {
        {6, 4, TTT_VALUE_WIN, 60.0, "under 60 s"},
        {6, 5, TTT_VALUE_DRAW, 60.0, "under 60 s"},
        {7, 5, TTT_VALUE_DRAW, 60.0, "under 60 s (published: 2.5 s)"},
        {7, 6, NO_PUBLISHED_VALUE, 600.0, "under 10 min"},
        {8, 6, NO_PUBLISHED_VALUE, 600.0, "under 10 min"},
        {9, 6, NO_PUBLISHED_VALUE, 600.0, "under 10 min"},
        {10, 7, NO_PUBLISHED_VALUE, 600.0, "under 10 min"},
        {8, 5, TTT_VALUE_DRAW, 3600.0, "under 1 hour (published: 17.4 hours)"},
    };
    fprintf(out, "proof: value-only ttt_solve from the empty board (df-pn), budget %llu nodes, "
                 "table %zu MiB\n",
            (unsigned long long)budget, (table_bytes ? table_bytes : (size_t)64 << 20) >> 20);
    fprintf(out, "%-9s %-7s %-10s %12s %10s %10s %10s   %s\n", "game", "value", "bounds",
            "nodes", "wall_s", "cpu_s", "peak_MiB", "goal");
    int ok = 1;
    for (size_t i = 0; i < sizeof goals / sizeof goals[0]; i++) {
        const proof_goal *goal = &goals[i];
        counting count = {0, 0};
        ttt_game *game = counted_game(goal->n, goal->k, &count);
        size_t game_bytes = count.live;
        count.peak = count.live;
        ttt_solution solution;
        memset(&solution, 0, sizeof solution);
        solution.size = sizeof solution;
        double start = seconds_now(), cpu_start = cpu_seconds_now();
        int status = ttt_solve(game, budget, table_bytes, TTT_SOLVE_VALUE_ONLY, &solution,
                               NULL, 0, NULL);
        double wall = seconds_now() - start, cpu = cpu_seconds_now() - cpu_start;
        ttt_game_free(game);
        char board[16], bounds[24];
        snprintf(board, sizeof board, "(%d,%d,%d)", goal->n, goal->n, goal->k);
        snprintf(bounds, sizeof bounds, "[%s,%s]", value_name(solution.value_min),
                 value_name(solution.value_max));
        if (status != TTT_OK && status != TTT_E_BUDGET) {
            fprintf(out, "%-9s %s\n", board, ttt_strerror(status));
            ok = 0;
            continue;
        }
        fprintf(out, "%-9s %-7s %-10s %12llu %10.2f %10.2f %10.1f   %s\n", board,
                status == TTT_OK ? value_name(solution.value) : "budget", bounds,
                (unsigned long long)solution.nodes, wall, cpu,
                (double)(count.peak - game_bytes) / 1048576.0, goal->goal);
        fflush(out);
        ok &= status == TTT_OK && cpu < goal->cpu_limit &&
              (goal->expect == NO_PUBLISHED_VALUE || solution.value == goal->expect);
    }
    return ok;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */

#ifndef TTT_BENCH_SOLVE_NO_MAIN
static void usage(void)
{
    fputs("usage: ttt-bench-solve [--quick] [solve] [perft] [match] [bounds] [pairing]\n"
          "         [proof] [connect4] [connect4-empty] [--positions N] [--stones S]\n"
          "         [--games N] [--seed S] [--budget B] [--solve-budget B]\n"
          "         [--table-mib M] [connect4-set FILE [--peer COMMAND]]\n"
          "         [connect4-boards [WxH,...]]\n"
          "  solve   the exact solver on (3,3,3), (4,4,4), (4,4,3), (5,5,4)\n"
          "  perft   whole-game counts of 3x3 and 4x4\n"
          "  match   strong against random (7x7 K=4, 15x15 K=5) and perfect (3x3)\n"
          "  bounds  one strong move and one budget-1 solve, 3x3 to 1024x1024\n"
          "  pairing (n,n,n) draws by pairing strategies, n = 5 .. 16 (run\n"
          "          only when named)\n"
          "  proof   (6,6,4), (6,6,5), (7,7,5), then (7,7,6), (8,8,6), (9,9,6),\n"
          "          (10,10,7), then (8,8,5) (minutes) by the proof-number search,\n"
          "          value only (run only when named; --solve-budget defaults to\n"
          "          500000000 nodes here, --table-mib to 64)\n"
          "  connect4  gravity: 4x4 K=3 and K=4, N random 7x6 positions of S\n"
          "          stones solved in full (default 100 of 8), perft 7x6 4 8\n"
          "  connect4-empty  the same, then the empty 7x6 board, value only and\n"
          "          full (minutes; named only, never part of the default run)\n"
          "  connect4-set FILE  7x6 positions as Pascal Pons' solver reads and\n"
          "          writes them (\"moves score\" a line), solved in full and checked\n"
          "          against the scores; --peer COMMAND (e.g. his c4solver, or\n"
          "          \"c4solver -a\" to check every optimal move) solves the file\n"
          "          first in the same run, its processor time printed beside ours\n"
          "  connect4-boards  K = 4 gravity boards of John Tromp's table solved in\n"
          "          full and checked against it: those taking up to about a\n"
          "          minute and a half, or the WxH boards listed (e.g. 7x7,9x6;\n"
          "          --solve-budget stops each after so many nodes, --table-mib\n"
          "          caps the table, 64 by default)\n"
          "  with no benchmark named, the first four run. --quick: small boards,\n"
          "  20 games. Defaults: --games 1000 --seed 1 --budget 20000.\n"
          "  Exit status 1 if a result misses its goal value or win rate.\n",
          stderr);
}

int main(int argc, char **argv)
{
    int quick = 0, run_solve = 0, run_perft = 0, run_match = 0, run_bounds = 0;
    int run_pairing = 0, run_proof = 0;
    size_t table_mib = 0;
    int run_connect4 = 0, run_empty = 0, positions = 100, stones = 8;
    const char *set_path = NULL, *peer = NULL, *boards = NULL;
    int run_boards = 0;
    int games = 1000;
    uint64_t seed = 1, budget = 20000, solve_budget = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(arg, "solve") == 0) {
            run_solve = 1;
        } else if (strcmp(arg, "perft") == 0) {
            run_perft = 1;
        } else if (strcmp(arg, "match") == 0) {
            run_match = 1;
        } else if (strcmp(arg, "bounds") == 0) {
            run_bounds = 1;
        } else if (strcmp(arg, "pairing") == 0) {
            run_pairing = 1;
        } else if (strcmp(arg, "proof") == 0) {
            run_proof = 1;
        } else if (i + 1 < argc && strcmp(arg, "--table-mib") == 0) {
            table_mib = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(arg, "connect4") == 0) {
            run_connect4 = 1;
        } else if (i + 1 < argc && strcmp(arg, "connect4-set") == 0) {
            set_path = argv[++i];
        } else if (i + 1 < argc && strcmp(arg, "--peer") == 0) {
            peer = argv[++i];
        } else if (strcmp(arg, "connect4-boards") == 0) {
            run_boards = 1;
            if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
                boards = argv[++i];
        } else if (strcmp(arg, "connect4-empty") == 0) {
            run_connect4 = run_empty = 1;
        } else if (i + 1 < argc && strcmp(arg, "--positions") == 0) {
            positions = atoi(argv[++i]);
        } else if (i + 1 < argc && strcmp(arg, "--stones") == 0) {
            stones = atoi(argv[++i]);
        } else if (i + 1 < argc && strcmp(arg, "--games") == 0) {
            games = atoi(argv[++i]);
        } else if (i + 1 < argc && strcmp(arg, "--seed") == 0) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (i + 1 < argc && strcmp(arg, "--budget") == 0) {
            budget = strtoull(argv[++i], NULL, 10);
        } else if (i + 1 < argc && strcmp(arg, "--solve-budget") == 0) {
            solve_budget = strtoull(argv[++i], NULL, 10);
        } else {
            usage();
            return 2;
        }
    }
    if (!run_solve && !run_perft && !run_match && !run_bounds && !run_pairing &&
        !run_proof && !run_connect4 && !set_path && !run_boards)
        run_solve = run_perft = run_match = run_bounds = 1;
    if (quick && positions > 10)
        positions = 10;
    if (quick && games > 20)
        games = 20;
    int ok = 1;
    if (run_solve)
        ok &= bench_solve(stdout, quick, solve_budget);
    if (run_perft) {
        ok &= bench_perft(stdout, 3, 3, 9);
        if (!quick)
            ok &= bench_perft(stdout, 4, 4, 16);
    }
    if (run_match)
        ok &= bench_matches(stdout, games, seed, budget);
    if (run_bounds)
        ok &= bench_bounds(stdout);
    if (run_pairing)
        ok &= bench_pairing(stdout);
    if (run_proof)
        ok &= bench_proof(stdout, solve_budget ? solve_budget : 500000000, table_mib << 20);
    if (run_connect4) {
        ok &= bench_connect4(stdout, positions, stones, seed, run_empty, solve_budget);
        ok &= bench_perft_gravity(stdout, 7, 6, 4, 8);
    }
    if (run_boards)
        ok &= bench_connect4_boards(stdout, boards, solve_budget, table_mib << 20);
    if (set_path)
        ok &= bench_connect4_set(stdout, set_path, peer, solve_budget,
                                 table_mib << 20);
    return ok ? 0 : 1;
}
#endif
