/* solver.h - the exact solver's state and the calls ttt_solve and ttt_best_move share. */
#ifndef TTT_SOLVER_H
#define TTT_SOLVER_H

#include <stdint.h>

#include "sboard.h"
#include "ttable.h"

/* ------------------------------------------------------------------------ */
/* Exact solver                                                              */

/*
 * Negamax with alpha-beta over the search board, in one of two score modes:
 *   value mode (dtm 0): +1 win, 0 draw, -1 loss for the side to move. The
 *     root asks two null-window questions ("can I win?", "can I avoid
 *     losing?"), each a cheap proof search;
 *   distance mode (dtm 1): a win in p plies scores base - p and a loss in p
 *     plies -(base - p), so the fastest win and the slowest loss score best.
 *     Used only once the value is known, for the plies and the optimal moves.
 * Scores are relative to the node (distance from it), so table entries are
 * valid wherever the position recurs.
 *
 * At every node, before any move is tried (normal rules):
 *   - a cell that completes a window for the mover: a win in 1;
 *   - two or more cells that complete a window for the opponent: a loss in
 *     2, since one mark blocks only one of them;
 *   - neither side able to complete a window with the moves it has left
 *     (counting only windows free of the other's marks): a draw; one side
 *     unable bounds the score on that side, often ending a null-window
 *     search at once. Near the end "able" means able to make a double
 *     threat some day (ttt__can_double), and the opponent is also unable if one
 *     mark of mine stops all its future double threats;
 *   - exactly one opponent completion cell: the only move worth trying is
 *     to block it (any other loses in 2, and the block loses no sooner than
 *     in 4);
 *   - with no completion cell on either side: a move of mine that makes two
 *     completion cells at once (a double threat) wins in 3. If instead the
 *     opponent has such moves, each can only be stopped by taking its cell
 *     or one of the cells it would threaten; so the only moves worth trying
 *     are those that stop every one of them, or that make a threat of mine
 *     (which must be answered first). With none of those left, a loss in 4.
 * Moves: the table's move first, then by the weight of the live windows
 * through the cell, leaning to building for the side that needs a win in
 * the current null-window question and to blocking for the side that only
 * needs to stop one, plus a history bonus for moves that caused cut-offs.
 * Of the dead cells (no live window through them) only one is tried: they
 * are interchangeable. Once only one side can still complete a window, the
 * cells outside that side's open windows are dummies in the same way. The
 * table key is canonical under the board's symmetries (eight on a square,
 * four on a rectangle, two under gravity), so mirrored and rotated
 * positions are searched once.
 *
 * Under gravity the moves are the landing cells, and a completion cell
 * counts (win in 1, loss in 2, forced block) only if it is one. The other
 * shortcuts assume any empty cell can be taken at any time and are off:
 * double threats (a single threat can win there, the opponent being made
 * to fill the cell below it), the pairing test, dummy cells and dead cells
 * (each mark opens the cell above it, so none is a mere pass).
 */

#define MAX_SEARCH_DEPTH 1024 /* plies; keeps the C stack small */

typedef struct solver {
    sboard b;
    ttable tt;
    int use_tt;
    move_stack moves;
    int64_t *history;   /* per cell */
    int32_t *future;    /* 4 * K + 4 cells: ttt__future_threats output */
    int32_t *relevance; /* per cell, zero between uses */
    int32_t *doubles;   /* per cell: the opponent's double-threat moves */
    int32_t *pair_hits; /* per cell, zero between uses */
    uint32_t *stamp;    /* per cell: marks of the current pair */
    uint32_t stamp_now;
    int32_t *fillable;  /* window indices, PAIR_WINDOWS_MAX */
    uint64_t nodes;
    uint64_t budget;
    int stopped;        /* budget reached, or an allocation failed */
    int status;         /* TTT_E_BUDGET or TTT_E_NOMEM once stopped */
    int dtm;
    int32_t base;       /* distance mode: a win in p plies scores base - p */
} solver;


/*
 * Whether one mark stops every double threat p could ever make. A double
 * threat comes from a pair of p's open windows through one empty cell whose
 * union p can fill but for two cells (see ttt__can_double); such pairs only ever
 * disappear, and a mark of the other side in either window removes one. So
 * if one cell lies in the empty cells of every fillable pair, the player to
 * move takes it (or must, if forced >= 0: then only that cell counts) and p
 * can never win. Listing pairs is quadratic in p's fillable windows, so with
 * more than PAIR_WINDOWS_MAX of them the answer is a cautious no.
 */
#define PAIR_WINDOWS_MAX 48

int32_t ttt__distance_base(int32_t nn);

int32_t ttt__solve_node(solver *s, int32_t alpha, int32_t beta, int depth,
                          int32_t *best_move);

/* Whether playing cell keeps at least target for the mover, with the child
 * searched in the current score mode: 1 yes, 0 no, -1 stopped. */
int ttt__move_reaches(solver *s, int32_t cell, int32_t target);

/*
 * Under the early-draw rule a drawn game may end before the board is full;
 * its plies are those of the shortest drawn ending that both players reach
 * with value-keeping moves only. Found by iterative deepening: can the game
 * end drawn within `plies`? Each step asks the value solver whether the
 * move keeps the draw.
 */
int ttt__draw_within(solver *s, int32_t plies);

/* What a solve found. */
typedef struct solve_result {
    int32_t value;      /* TTT_VALUE_* */
    int32_t value_min;  /* proven bounds on the value */
    int32_t value_max;
    int32_t plies;      /* -1 unless the second pass ran */
    int32_t best_count; /* cells in best */
    int32_t *best;      /* caller's nn cells: the optimal moves, ascending */
} solve_result;

/* Runs a solve into r (r->best must hold nn cells) and found. */
int ttt__run_solve(const ttt_game *game, const snapshot *snap,
                     uint64_t budget, size_t table_bytes, int all_moves,
                     solve_result *r, ttt_solution *found);

/* The memory ttt_solve and ttt_best_move share, in one block: the
 * snapshot's cells and the optimal moves' list. Takes the snapshot; returns
 * the block to release with engine_free, or NULL out of memory. */
void *ttt__start_solve(const ttt_game *game, snapshot *snap, solve_result *r);

#endif /* TTT_SOLVER_H */
