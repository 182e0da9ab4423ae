/* solve.c - ttt_solve, and the solver set-up it shares with the perfect bot. */
#include <stddef.h>
#include <string.h>

#include "gravity.h"
#include "pairing.h"
#include "proof.h"
#include "solver.h"
#include "threat.h"

/* ------------------------------------------------------------------------ */
/* Solver set-up                                                             */

#define DEFAULT_TABLE_BYTES ((size_t)64 << 20)
#define MOVE_LIST_MIN_BYTES ((size_t)1 << 20)

/* The table size: the caller's bytes (or the default), cut down to what a
 * position with this many empty cells or this node budget could fill, as
 * a power of two number of buckets. */
static size_t table_buckets(size_t table_bytes, int32_t empty, uint64_t budget)
{
    size_t bytes = table_bytes ? table_bytes : DEFAULT_TABLE_BYTES;
    size_t entries = bytes / TT_ENTRY_BYTES;
    size_t useful = (size_t)1 << min32(empty + 3, 30);
    if (useful < entries)
        entries = useful;
    if (budget < (uint64_t)entries / 2)
        entries = (size_t)budget * 2;
    size_t buckets = 1;
    while (buckets * 2 * TT_WAYS <= entries)
        buckets *= 2;
    return buckets;
}

typedef struct search_memory {
    const ttt_game *game;
    void *block;
} search_memory;

/* Allocates and initialises a solver for snap (whose cells are already
 * taken). */
static int solver_start(solver *s, search_memory *memory, const snapshot *snap,
                        uint64_t budget, size_t table_bytes)
{
    memset(s, 0, sizeof *s);
    int32_t empty = snap->nn - snap->ply;
    s->budget = budget ? budget : UINT64_MAX;
    size_t buckets = table_buckets(table_bytes, empty, s->budget);
    carver sizes = {NULL, 0, 0};
    ttt__sboard_size(&sizes, &s->b, snap, 1);
    carve(&sizes, (size_t)snap->nn, sizeof(int64_t));
    carve(&sizes, 4 * (size_t)snap->k + 4, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(uint32_t));
    carve(&sizes, PAIR_WINDOWS_MAX, sizeof(int32_t));
    if (sizes.overflow)
        return TTT_E_NOMEM;
    memory->block = engine_alloc(memory->game, sizes.used);
    if (!memory->block)
        return TTT_E_NOMEM;
    carver parts = {memory->block, 0, 0};
    ttt__sboard_size(&parts, &s->b, snap, 1);
    s->history = carve(&parts, (size_t)snap->nn, sizeof(int64_t));
    s->future = carve(&parts, 4 * (size_t)snap->k + 4, sizeof(int32_t));
    s->relevance = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->doubles = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->pair_hits = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->stamp = carve(&parts, (size_t)snap->nn, sizeof(uint32_t));
    s->fillable = carve(&parts, PAIR_WINDOWS_MAX, sizeof(int32_t));
    memset(s->relevance, 0, (size_t)snap->nn * sizeof(int32_t));
    memset(s->pair_hits, 0, (size_t)snap->nn * sizeof(int32_t));
    memset(s->stamp, 0, (size_t)snap->nn * sizeof(uint32_t));
    memset(s->history, 0, (size_t)snap->nn * sizeof(int64_t));
    s->tt.game = memory->game;
    s->tt.max_buckets = buckets;
    if (ttt__tt_resize(&s->tt, buckets < TT_START_BUCKETS ? buckets : TT_START_BUCKETS) != TTT_OK)
        return TTT_E_NOMEM;
    s->use_tt = 1;
    s->moves.game = memory->game;
    /* Move lists share the table's byte cap (at least 1 MiB). */
    size_t list_bytes = table_bytes ? table_bytes : DEFAULT_TABLE_BYTES;
    s->moves.limit = (list_bytes < MOVE_LIST_MIN_BYTES ? MOVE_LIST_MIN_BYTES : list_bytes) /
                     sizeof(int64_t);
    s->status = TTT_OK;
    ttt__sboard_init(&s->b, snap, 1);
    return TTT_OK;
}

static void solver_finish(solver *s, search_memory *memory)
{
    ttt__tt_release(&s->tt);
    engine_free(memory->game, s->moves.keys);
    engine_free(memory->game, memory->block);
}

/* The value, a move that achieves it, and with all_moves the plies and
 * every optimal move. The position is in progress. */
static int solve_position(solver *s, int all_moves, solve_result *r)
{
    sboard *b = &s->b;
    TTT_ASSERT(b->completed == 0 && b->empty > 0);
    int32_t move = -1;
    r->value_min = -1;
    r->value_max = 1;
    r->plies = -1;
    r->best_count = 0;

    /* Value: "can I win?", then if not "can I avoid losing?". */
    s->dtm = 0;
    int32_t v = ttt__solve_node(s, 0, 1, 0, &move);
    if (!s->stopped) {
        if (v >= 1) {
            r->value_min = 1;
        } else {
            r->value_max = 0;
            int32_t draw_move = -1;
            v = ttt__solve_node(s, -1, 0, 0, &draw_move);
            if (!s->stopped) {
                if (v >= 0)
                    r->value_min = 0;
                else
                    r->value_max = -1;
                move = draw_move;
            }
        }
    }
    r->value = r->value_min;
    if (move >= 0) {
        r->best[0] = move;
        r->best_count = 1;
    }
    if (s->stopped || !all_moves)
        return s->stopped ? s->status : TTT_OK;

    /* Plies and optimal moves. A draw keeps its score of 0 in both modes;
     * a win or loss is searched again for its distance. */
    int32_t target = 0;
    if (r->value == 0) {
        int32_t plies = plies_left(b);
        if (b->early_draw) {
            int found;
            plies = 1;
            while ((found = ttt__draw_within(s, plies)) == 0 && plies < plies_left(b))
                plies++;
            if (found < 0)
                return s->status; /* plies stays unknown (-1) */
        }
        r->plies = plies;
    } else {
        s->dtm = 1;
        s->base = ttt__distance_base(b->nn);
        ttt__tt_clear(&s->tt);
        target = r->value > 0 ? ttt__solve_node(s, 0, SCORE_INF, 0, NULL)
                              : ttt__solve_node(s, -SCORE_INF, 0, 0, NULL);
        if (s->stopped)
            return s->status;
        r->plies = s->base - (target > 0 ? target : -target);
    }

    /* Every move whose child keeps the target. Dead cells are
     * interchangeable: one answer serves them all, but under gravity,
     * where each opens a different cell above it. */
    int32_t count = 0;
    int dead_answer = -2;
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY || !sboard_playable(b, cell))
            continue;
        int keeps;
        int shared = b->sums[cell].live == 0 && !b->gravity;
        if (shared && dead_answer != -2) {
            keeps = dead_answer;
        } else {
            keeps = ttt__move_reaches(s, cell, target);
            if (keeps < 0)
                return s->status;
            if (shared)
                dead_answer = keeps;
        }
        if (keeps)
            r->best[count++] = cell;
    }
    r->best_count = count;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* ttt_solve                                                                 */

#define SOLUTION_V1_SIZE (offsetof(ttt_solution, value_max) + sizeof(int32_t))

/* Copies the fields that fit in the caller's struct. */
static void write_solution(ttt_solution *out, const ttt_solution *found)
{
    size_t size = out->size < sizeof *found ? out->size : sizeof *found;
    memcpy((char *)out + sizeof(size_t), (const char *)found + sizeof(size_t),
           size - sizeof(size_t));
}

/* The value of a finished game for the player whose turn it would be. */
static int32_t finished_value(const snapshot *snap)
{
    if (snap->state == TTT_DRAW)
        return TTT_VALUE_DRAW;
    int winner = snap->state == TTT_X_WON ? TTT_X : TTT_O;
    return winner == ttt__mover_at(snap->ply) ? TTT_VALUE_WIN : TTT_VALUE_LOSS;
}

int ttt_solve(const ttt_game *game, uint64_t node_budget, size_t table_bytes,
              int flags, ttt_solution *out, int32_t *best,
              size_t best_capacity, size_t *best_len)
{
    if (!game || !out || out->size < SOLUTION_V1_SIZE ||
        (flags & ~TTT_SOLVE_VALUE_ONLY) != 0 ||
        (!best && best_capacity > 0) || (best && !best_len))
        return TTT_E_INVALID;
    snapshot snap;
    solve_result r;
    void *block = ttt__start_solve(game, &snap, &r);
    if (!block)
        return TTT_E_NOMEM;

    ttt_solution found;
    memset(&found, 0, sizeof found);
    found.size = sizeof found;
    int status = ttt__run_solve(game, &snap, node_budget, table_bytes,
                           !(flags & TTT_SOLVE_VALUE_ONLY), &r, &found);
    if (status == TTT_OK || status == TTT_E_BUDGET) {
        size_t needed = (size_t)r.best_count;
        if (best_len)
            *best_len = needed;
        if (best_len && best_capacity < needed) {
            status = TTT_E_BUFFER;
        } else {
            if (best)
                memcpy(best, r.best, needed * sizeof(int32_t));
            write_solution(out, &found);
        }
    }
    engine_free(game, block);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Dedicated solvers                                                         */

/*
 * A solver built for one family of boards (Connect Four's bitboard solver,
 * gravity.h, for gravity boards whose columns fit a word under the classic
 * rules) takes the positions it fits: it fills r and found as the general
 * search would and returns TTT_OK, TTT_E_BUDGET or TTT_E_NOMEM. Every other
 * board and rule set comes back GRAVITY_NOT_HANDLED with nothing written,
 * and the general search runs: the fallback, and the reference the
 * dedicated solver is tested against. The position is in progress.
 */
static int run_dedicated_solver(const ttt_game *game, const snapshot *snap,
                                uint64_t budget, size_t table_bytes,
                                int all_moves, solve_result *r,
                                ttt_solution *found)
{
    if (!snap->gravity)
        return GRAVITY_NOT_HANDLED;
    return ttt__gravity_run_solve(game, snap, budget, table_bytes, all_moves,
                                  r, found);
}

int ttt__run_solve(const ttt_game *game, const snapshot *snap,
                     uint64_t budget, size_t table_bytes, int all_moves,
                     solve_result *r, ttt_solution *found)
{
    found->nodes = 0;
    r->value = TTT_VALUE_DRAW;
    r->value_min = TTT_VALUE_LOSS;
    r->value_max = TTT_VALUE_WIN;
    r->plies = -1;
    r->best_count = 0;
    if (snap->state != TTT_IN_PROGRESS) {
        r->value = r->value_min = r->value_max = finished_value(snap);
        r->plies = 0;
        r->best_count = 0;
        found->value = found->value_min = found->value_max = r->value;
        found->plies = 0;
        return TTT_OK;
    }
    found->method = TTT_METHOD_SEARCH;
    int dedicated = run_dedicated_solver(game, snap, budget, table_bytes,
                                         all_moves, r, found);
    if (dedicated != GRAVITY_NOT_HANDLED)
        return dedicated;
#ifndef TTT_NO_SHORTCUTS
    /* A pairing for each side proves a draw, a VCF a win, with no search
     * (pairing.h, threat.h): 1 answered, 0 not, or TTT_E_NOMEM. Both rest
     * on the defender taking any cell it likes, which gravity forbids. */
    if (!snap->gravity) {
        int shortcut = ttt__pairing_answer(game, snap->width, snap->height,
                                           snap, all_moves, r, found);
        if (shortcut == 0)
            shortcut = ttt__threat_answer(game, snap->width, snap->height,
                                          snap, all_moves, &budget, r, found);
        if (shortcut != 0)
            return shortcut > 0 ? TTT_OK : shortcut;
    }
#endif
    /* Past 25 cells a value alone is found faster by proof numbers
     * (proof.h), which spend their nodes where a win is closest. */
    if (ttt__proof_wanted(snap, all_moves))
        return ttt__proof_solve(game, snap, budget, table_bytes, r, found);
    solver s;
    search_memory memory = {game, NULL};
    int status = solver_start(&s, &memory, snap, budget, table_bytes);
    if (status == TTT_OK) {
        status = solve_position(&s, all_moves, r);
        found->nodes += s.nodes;
    }
    solver_finish(&s, &memory);
    found->value = r->value;
    found->value_min = r->value_min;
    found->value_max = r->value_max;
    found->plies = r->plies;
    return status;
}

void *ttt__start_solve(const ttt_game *game, snapshot *snap, solve_result *r)
{
    int32_t nn = game->board.nn;
    carver sizes = {NULL, 0, 0};
    carve(&sizes, (size_t)nn, 1);
    carve(&sizes, (size_t)nn, sizeof(int32_t));
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return NULL;
    carver parts = {block, 0, 0};
    snap->cells = carve(&parts, (size_t)nn, 1);
    r->best = carve(&parts, (size_t)nn, sizeof(int32_t));
    take_snapshot(game, snap);
    return block;
}
