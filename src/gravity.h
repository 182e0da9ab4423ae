/* gravity.h - the exact solver for gravity boards (Connect Four and its kin) whose columns fit one 64-bit bitboard. */
#ifndef TTT_GRAVITY_H
#define TTT_GRAVITY_H

#include <stddef.h>
#include <stdint.h>

#include "ttt.h"

/*
 * A dedicated solver for gravity positions under the classic rules (no
 * misere, no early draw, no ply limit) on boards with
 * width * (height + 1) <= 64, any 3 <= K <= max(width, height). Each column
 * takes height + 1 bits (the spare bit on top keeps the columns' runs
 * apart), so a position is two words: the stones of the side to move and
 * the mask of all stones. Questions the general solver asks window by
 * window here take a few shifts of the whole board.
 *
 * The input is plain: the marks row-major with row 0 the top (the game's
 * cell numbering), and the mark to move. The answer is the same one the
 * general solver gives (ttt_solution's fields and the optimal moves as
 * cells, ascending). Positions it does not take (a board that does not fit,
 * a mark floating above an empty cell, a completed line, a full board, a
 * table cap too small for exact keys) come back as GRAVITY_NOT_HANDLED, with
 * nothing written, so the caller runs the general solver.
 */

#define GRAVITY_NOT_HANDLED 1

typedef struct gravity_position {
    int32_t width;
    int32_t height;
    int32_t k;
    const int8_t *cells; /* width * height: TTT_X, TTT_O or TTT_EMPTY */
    int32_t mover;       /* TTT_X or TTT_O */
} gravity_position;

typedef struct gravity_answer {
    int32_t value;     /* TTT_VALUE_* for the side to move */
    int32_t value_min; /* proven bounds; equal to value once it is known */
    int32_t value_max;
    int32_t plies;     /* -1 unless the exact pass finished */
    int32_t best_count;
    int32_t *best;     /* caller's width * height cells: the optimal moves */
    uint64_t nodes;
} gravity_answer;

/* Whether the solver takes boards of this shape under these rules: the
 * caller's cheap test before it builds a position. */
int ttt__gravity_fits(int32_t width, int32_t height, int32_t k, int gravity,
                      int misere, int early_draw, int32_t limit_empty);

/*
 * Solves pos: the value and one move achieving it; with all_moves also the
 * plies to the end (fastest win, slowest loss, a draw: until the board is
 * full) and every optimal move. node_budget 0 means no cap; when it runs
 * out, TTT_E_BUDGET with the bounds proven so far (as ttt_solve documents).
 * table_bytes caps the transposition table (0: 64 MiB), allocated once from
 * alloc, no bigger than the position or node_budget can fill. Returns TTT_OK, TTT_E_BUDGET, TTT_E_NOMEM or GRAVITY_NOT_HANDLED.
 */
int ttt__gravity_solve(const ttt_allocator *alloc, const gravity_position *pos,
                       uint64_t node_budget, size_t table_bytes, int all_moves,
                       gravity_answer *out);

/*
 * ttt_solve's way in (solve.c's ttt__run_solve, for a game in progress):
 * solves snap with this solver if it takes the board and the rules, filling
 * r and found as the general solver would (found->nodes its positions), and
 * returns TTT_OK, TTT_E_BUDGET or TTT_E_NOMEM; otherwise returns
 * GRAVITY_NOT_HANDLED having written nothing.
 */
struct snapshot;
struct solve_result;
int ttt__gravity_run_solve(const ttt_game *game, const struct snapshot *snap,
                           uint64_t budget, size_t table_bytes, int all_moves,
                           struct solve_result *r, ttt_solution *found);

#endif /* TTT_GRAVITY_H */
