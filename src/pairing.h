/* pairing.h - pairing strategies: two private cells for every winning window, found as a bipartite matching, proving that one side (or both) can never lose. */
#ifndef TTT_PAIRING_H
#define TTT_PAIRING_H

#include <stddef.h>
#include <stdint.h>

#include "solver.h"

/*
 * A pairing strategy (Hales and Jewett) for a defender D against an
 * attacker A: every window A could still complete (one holding no mark of
 * D) gets two of its empty cells, and no cell serves two windows. D answers
 * every move of A on a paired cell with the other cell of its pair, and
 * plays anywhere otherwise (on the first move, after an unpaired move of A,
 * or when the partner is gone). Each pair then ends with at least one mark
 * of D, so A never fills a window: A cannot win, whoever moves first, and
 * extra marks of D never hurt D (normal rules only: in misère completing a
 * window loses, and under gravity D cannot always take the partner).
 *
 * Finding one is a bipartite matching: each open window stands twice on the
 * left, the empty cells on the right, an edge where the cell lies in the
 * window; a pairing exists exactly when every left node is matched. The
 * matching is found by augmenting paths (Kuhn) after a greedy start, with
 * an explicit stack, so nothing recurses. A quick count comes first: two
 * cells per open window must fit in the empty cells, which rules out
 * almost every board with K well below its side at once.
 *
 * The board here is plain: width x height cells, row-major, marks TTT_X,
 * TTT_O or TTT_EMPTY, win length k; windows longer than a side do not
 * exist, so a board with none is trivially a draw.
 */

/* One pair: the window (its first cell, and the step to its next cell as
 * a direction index: 0 along a row, 1 down a column, 2 down-right, 3
 * down-left) and its two private cells. */
typedef struct pairing_pair {
    int32_t start;
    int32_t direction;
    int32_t cells[2];
} pairing_pair;

typedef struct pairing_board {
    int32_t width, height, k;
    const int8_t *cells;
} pairing_board;

/* The windows of the board, all directions: an upper bound on the pairs. */
size_t ttt__pairing_windows(int32_t width, int32_t height, int32_t k);

/* The windows attacker (TTT_X or TTT_O) could still complete: those with
 * no mark of the other side. -1 if the count alone rules a pairing out
 * (such a window with fewer than two empty cells, or more than half as
 * many windows as empty cells). No memory, one pass over the windows. */
int32_t ttt__pairing_open(const pairing_board *board, int attacker);

/* The scratch bytes ttt__pairing_find needs for that many open windows on a
 * board of that many cells; 0 if the sizes overflow a size_t. */
size_t ttt__pairing_scratch_bytes(size_t windows, size_t cells);

/*
 * Looks for a pairing that keeps attacker from ever completing a window of
 * board; open is ttt__pairing_open's count (not -1), scratch holds
 * ttt__pairing_scratch_bytes(open, cells) bytes, 8-byte aligned. Returns the
 * number of pairs (open: one per open window, in the order of
 * ttt__pairing_open's pass) and writes them to pairs if not NULL (room for
 * open), or -1 if no pairing exists.
 */
int32_t ttt__pairing_find(const pairing_board *board, int attacker,
                          int32_t open, void *scratch, pairing_pair *pairs);

/* The cell at offset i of a pair's window. */
int32_t ttt__pairing_window_cell(int32_t width, const pairing_pair *pair,
                                 int32_t i);

/*
 * ttt_solve's shortcut: if each side has a pairing against the other in the
 * snapshot's position (in progress, normal rules, no gravity), the value is
 * a draw, proven with no search, and every empty cell keeps it (a move of
 * the side to move cannot spoil its own pairing, and the opponent's answers
 * any move). Then fills r and the solution's value fields (plies: to the
 * full board or the ply limit; nodes 0) and returns 1. Returns TTT_E_NOMEM
 * if its memory runs out, 0 when it proves nothing, or when it cannot give
 * what was asked: the plies of a
 * draw under the early-draw rule need a search (its shortest drawn ending),
 * so a full solve under that rule goes to the search. width and height are
 * the board's; the snapshot gives the cells, ply and rules.
 */
int ttt__pairing_answer(const ttt_game *game, int32_t width, int32_t height,
                        const snapshot *snap, int all_moves, solve_result *r,
                        ttt_solution *found);

#endif /* TTT_PAIRING_H */
