/* solve.c - the ttt program: `ttt solve` on a terminal, with a progress line and an interrupt (Ctrl-C) that keeps what is known. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef _WIN32
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli.h"

#ifdef _WIN32

int solve_watched(const ttt_game *g, uint64_t budget, int flags,
                  ttt_solution *sol, int32_t *best, size_t best_capacity,
                  size_t *best_len, int *interrupted)
{
    *interrupted = 0;
    return ttt_solve(g, budget, 0, flags, sol, best, best_capacity, best_len);
}

#else

/* ttt_solve reports nothing until it returns and cannot be stopped, so on
 * a terminal the search runs in rounds, each a whole ttt_solve with twice
 * the node budget of the one before, in a child process: each round that
 * runs out tells how many positions it searched and the bounds it proved,
 * and an interrupt stops the child, keeping what the rounds found. The
 * rounds cost time (about as much again as the last round), so only a
 * terminal, where someone watches, gets them. The child never outlives
 * the parent: SIGTERM or SIGHUP to the parent stops it first, and should
 * the parent die otherwise, Linux kills it (PR_SET_PDEATHSIG) and
 * elsewhere it stops before its next round. */
#define FIRST_ROUND_BUDGET (UINT64_C(1) << 16)

/* What a round sends back: its status and result, then best_len cells. */
struct round_report {
    uint64_t cap; /* the round's node budget */
    int status;
    ttt_solution sol;
    size_t best_len;
};

static volatile sig_atomic_t interrupt_seen;
/* SIGTERM or SIGHUP, once seen: the parent stops its child, then dies of
 * that signal. */
static volatile sig_atomic_t fatal_seen;

static void note_interrupt(int signo)
{
    (void)signo;
    interrupt_seen = 1;
}

static void note_fatal(int signo)
{
    fatal_seen = signo;
}

/* Writes all of len bytes; returns 0, or -1. */
static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads exactly len bytes; returns 0, or -1 at the end of the pipe. */
static int read_all(int fd, void *data, size_t len)
{
    char *p = data;

    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The child: solves in rounds of doubling budgets, at most budget (0: no
 * cap), sending every round's report, until one finds the answer or the
 * budget is spent. */
static void solve_rounds(int fd, const ttt_game *g, uint64_t budget,
                         int flags, int32_t *best, size_t best_capacity,
                         pid_t parent)
{
    uint64_t round = FIRST_ROUND_BUDGET;

    for (;;) {
        struct round_report r;
        if (getppid() != parent)
            return; /* the parent is gone: nobody reads the rounds */
        uint64_t cap = budget != 0 && round > budget ? budget : round;
        memset(&r, 0, sizeof r);
        r.cap = cap;
        r.sol.size = sizeof r.sol;
        r.status = ttt_solve(g, cap, 0, flags, &r.sol, best, best_capacity,
                             &r.best_len);
        if (r.status != TTT_OK)
            r.best_len = 0; /* a guess at most: not sent */
        if (write_all(fd, &r, sizeof r) != 0 ||
            write_all(fd, best, r.best_len * sizeof *best) != 0)
            return;
        if (r.status != TTT_E_BUDGET || cap == budget || round > UINT64_MAX / 2)
            return;
        round *= 2;
    }
}

/* The progress line, on stderr, over the last one. */
/* The rate is that of the finished rounds, which took rounds_seconds. */
static void show_progress(uint64_t positions, double rounds_seconds,
                          double seconds, int lo, int hi)
{
    fprintf(stderr,
            "\rsolve: %" PRIu64 " positions, %.0f/s, value %s..%s, %.0f s "
            "(Ctrl-C stops)\033[K",
            positions,
            rounds_seconds > 0 ? (double)positions / rounds_seconds : 0.0,
            value_name(lo), value_name(hi), seconds);
    fflush(stderr);
}

/* As ttt_solve (no table cap), but on a terminal with a progress line at
 * most every second and an interrupt that stops the search: then
 * *interrupted is set and the status is TTT_E_BUDGET, with the bounds the
 * finished rounds proved and the positions they searched in sol. */
int solve_watched(const ttt_game *g, uint64_t budget, int flags,
                  ttt_solution *sol, int32_t *best, size_t best_capacity,
                  size_t *best_len, int *interrupted)
{
    struct sigaction on_interrupt, on_fatal, before, before_term, before_hup;
    struct round_report r;
    uint64_t positions = 0;
    int lo = TTT_VALUE_LOSS, hi = TTT_VALUE_WIN, fds[2], status = TTT_E_BUDGET;
    int finished = 0, shown = 0, child_status;
    double start = now_ms(), last_shown = start, rounds_end = start;
    pid_t child, parent = getpid();

    *interrupted = 0;
    if (!isatty(STDERR_FILENO) || pipe(fds) != 0)
        return ttt_solve(g, budget, 0, flags, sol, best, best_capacity,
                         best_len);
    memset(&on_interrupt, 0, sizeof on_interrupt);
    on_interrupt.sa_handler = note_interrupt; /* no SA_RESTART: poll stops */
    sigemptyset(&on_interrupt.sa_mask);
    on_fatal = on_interrupt;
    on_fatal.sa_handler = note_fatal;
    interrupt_seen = 0;
    fatal_seen = 0;
    sigaction(SIGINT, &on_interrupt, &before);
    /* A signal the caller ignores (nohup's SIGHUP) stays ignored. */
    sigaction(SIGTERM, NULL, &before_term);
    sigaction(SIGHUP, NULL, &before_hup);
    if (before_term.sa_handler != SIG_IGN)
        sigaction(SIGTERM, &on_fatal, NULL);
    if (before_hup.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &on_fatal, NULL);
    fflush(NULL);
    child = fork();
    if (child == 0) {
        signal(SIGINT, SIG_IGN); /* the parent answers Ctrl-C */
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
#ifdef __linux__
        /* Killed when the parent dies, however it dies; a parent gone
         * before this call is caught by solve_rounds' first check. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        close(fds[0]);
        solve_rounds(fds[1], g, budget, flags, best, best_capacity, parent);
        _exit(0);
    }
    close(fds[1]);
    if (child < 0) {
        close(fds[0]);
        sigaction(SIGINT, &before, NULL);
        sigaction(SIGTERM, &before_term, NULL);
        sigaction(SIGHUP, &before_hup, NULL);
        return ttt_solve(g, budget, 0, flags, sol, best, best_capacity,
                         best_len);
    }

    while (!finished && !interrupt_seen && !fatal_seen) {
        struct pollfd p = {fds[0], POLLIN, 0};
        double now = now_ms();
        int wait_ms = (int)(1000.0 - (now - last_shown));
        if (wait_ms <= 0) {
            show_progress(positions, (rounds_end - start) / 1000.0,
                          (now - start) / 1000.0, lo, hi);
            shown = 1;
            last_shown = now;
            continue;
        }
        if (poll(&p, 1, wait_ms) <= 0)
            continue; /* a timeout, or the interrupt: checked above */
        if (read_all(fds[0], &r, sizeof r) != 0 ||
            r.best_len > best_capacity ||
            read_all(fds[0], best, r.best_len * sizeof *best) != 0) {
            status = TTT_E_NOMEM; /* the child died: out of memory */
            break;
        }
        positions += r.sol.nodes;
        rounds_end = now_ms();
        /* Every round's bounds are proven: together they bound tighter. */
        if (r.sol.value_min > lo)
            lo = r.sol.value_min;
        if (r.sol.value_max < hi)
            hi = r.sol.value_max;
        status = r.status;
        finished = status != TTT_E_BUDGET || r.cap == budget;
        if (finished) {
            *sol = r.sol;
            sol->nodes = positions; /* every round's, as the progress said */
            if (best_len != NULL)
                *best_len = r.best_len;
        }
    }
    if (!finished) {
        kill(child, SIGTERM);
        *interrupted = interrupt_seen;
        memset(sol, 0, sizeof *sol);
        sol->size = sizeof *sol;
        sol->value = lo;
        sol->value_min = lo;
        sol->value_max = hi;
        sol->plies = -1;
        sol->nodes = positions;
        if (best_len != NULL)
            *best_len = 0;
    }
    while (waitpid(child, &child_status, 0) < 0 && errno == EINTR)
        ;
    close(fds[0]);
    sigaction(SIGINT, &before, NULL);
    sigaction(SIGTERM, &before_term, NULL);
    sigaction(SIGHUP, &before_hup, NULL);
    if (shown)
        fputs("\r\033[K", stderr); /* the result replaces the progress */
    if (fatal_seen)
        raise(fatal_seen); /* as it would have: the child is stopped now */
    return status;
}

#endif
