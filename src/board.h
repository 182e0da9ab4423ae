/* board.h - the board's layout and its O(1) move path: marks, empty cells, line counters. */
#ifndef TTT_BOARD_H
#define TTT_BOARD_H

#include <stdint.h>

#include "ttt.h"

/* One whole line (K = N): X adds +1 and O adds -1 to sum; a line is complete
 * at +N or -N. fill counts its marks, kept only while early draw is on: the
 * line holds a single kind of mark exactly when |sum| == fill. */
typedef struct ttt__line {
    int16_t sum;
    int16_t fill;
} ttt__line;

/*
 * The board: geometry, marks and counters. It knows nothing of turns.
 *
 * order[] is a permutation of every cell, packed as (row << 16) | col:
 *   order[0 .. empty_count)  the empty cells, in no particular order, so a
 *                            random empty cell is one index away;
 *   order[empty_count .. nn) the placed cells, most recent first, so the
 *                            history needs no array of its own.
 * where[row * n + col] is that cell's index in order[]. Lifting the last mark
 * only moves the boundary, so lifted cells stay, in lifting order, just below
 * it: that is where the game keeps its redo stack.
 */
typedef struct ttt__board {
    int32_t n;           /* side length */
    int32_t k;           /* marks in a row that complete a line */
    int32_t nn;          /* n * n */
    int32_t empty_count; /* cells not yet marked */
    int32_t live;        /* lines (K = N) or K-windows free of one mark */
    int32_t track_live;  /* keep fill and live up to date (early draw) */
    int32_t *order;      /* nn packed cells, see above */
    int32_t *where;      /* nn indices into order */
    ttt__line *lines;    /* K = N: n rows, n columns, diagonal, anti-diagonal */
    int8_t *cells;       /* nn marks, row-major */
} ttt__board;

#define TTT__PACK(row, col) (((int32_t)(row) << 16) | (int32_t)(col))
#define TTT__ROW(packed) ((int)((packed) >> 16))
#define TTT__COL(packed) ((int)((packed) & 0xffff))

/* Bytes of the arrays behind a board of side n and win length k. */
size_t ttt__board_bytes(int n, int k);
/* Points the board at its arrays in mem (ttt__board_bytes bytes, aligned to
 * 4) and records its geometry; the contents are left as they are. */
void ttt__board_bind(ttt__board *board, int n, int k, void *mem);
/* Empties the board and resets every counter. */
void ttt__board_clear(ttt__board *board);
/* Starts or stops tracking live K-windows (K < N); call on an empty board. */
void ttt__board_track_live(ttt__board *board, int on);
/* Place and lift for K < N (O(K) scans) and for early draw (live counts),
 * out of line; the cell has already been moved in order[]. */
int ttt__board_place_slow(ttt__board *board, int row, int col, int mark);
void ttt__board_lift_slow(ttt__board *board, int row, int col, int mark);
/* The completed line of at least K through (row, col) holding mark, first
 * of row, column, diagonal, anti-diagonal; returns 1 and its ends, or 0. */
int ttt__board_line_through(const ttt__board *board, int row, int col,
                            int mark, int ends[4]);

/* Places marks alternately, starting with mark, on uniformly random empty
 * cells (ttt__random_below over order[], as ttt_random_move draws) until one
 * completes a line or the board is full. Returns the mark that completed a
 * line, or 0. The random playout's inner loop, kept on the board so that
 * board state stays in registers. */
int ttt__board_random_fill(ttt__board *board, uint64_t *seed, int mark);

/*
 * A 3x3 or 4x4 board with K = N and no early draw, packed into registers for
 * random games. Cells are 4-bit entries row * 4 + col; 16 of them fill a
 * uint64_t, hence 4x4. The empty region of order[] is kept upside down, so
 * that its top entry, the one a move swaps out, is always the lowest 4 bits:
 * order[i] for i < empty_count is entry empty_count - 1 - i of empty_cells.
 * Each side's line counts are 6-bit lanes, one per line of lines[].
 */
#define TTT__SMALL_MAX 4
typedef struct ttt__small_board {
    uint64_t empty_cells;
    uint64_t placed;      /* cells placed since loading, the latest lowest */
    uint64_t to_move;     /* lanes of the side to move */
    uint64_t other;       /* lanes of the side that moved last */
    int32_t empty_count;
    int32_t n;
} ttt__small_board;

/* Packs board, whose side to move plays mark, into small; returns 0 (and
 * leaves small alone) if the board is too large or K < N or early draw is on. */
int ttt__small_load(const ttt__board *board, int mark, ttt__small_board *small);
/* Plays games random games on copies of small (as ttt__board_random_fill
 * would: the same draws on the same permutation), the seed carrying from one
 * to the next, and counts how they ended: by_result[2] those the side to
 * move completed a line in, by_result[0] the other side, by_result[1] full
 * boards. */
void ttt__small_random_games(const ttt__small_board *small, uint64_t *seed,
                             uint64_t games, uint64_t by_result[3]);
/* Writes small, loaded from board with mark to move and then played on,
 * back into board. */
void ttt__small_store(const ttt__small_board *small, ttt__board *board,
                      int mark);

/* The move path is inline: every move of every game goes through it, and for
 * K = N it is a swap in order[] plus at most four counter updates. */

/* Whether (row, col), on the board, is empty: its place in order[] is below
 * the boundary. Read from where[], which placing the mark reads next, so a
 * big board pays one cache miss for both. */
static inline int ttt__board_is_empty(const ttt__board *board, int row,
                                      int col)
{
    return board->where[row * board->n + col] < board->empty_count;
}

/* Makes the empty cell (row, col) the most recent placed cell: swap it to
 * the top of the empty region, then shrink the region over it. */
static inline void ttt__board_take(ttt__board *board, int row, int col)
{
    int n = board->n;
    int32_t top = board->empty_count - 1;
    int32_t slot = board->where[row * n + col];
    int32_t moved = board->order[top];
    board->order[slot] = moved;
    board->where[TTT__ROW(moved) * n + TTT__COL(moved)] = slot;
    board->order[top] = TTT__PACK(row, col);
    board->where[row * n + col] = top;
    board->empty_count = top;
}

/* Puts mark on the empty cell (row, col); returns 1 if that completed a line
 * of K. The caller has checked the cell. Without early draw, K = N costs a
 * swap, a store and two to four counter updates, all inline. */
static inline int ttt__board_place(ttt__board *board, int row, int col,
                                   int mark)
{
    ttt__board_take(board, row, col);
    int n = board->n;
    if (board->k != n || board->track_live)
        return ttt__board_place_slow(board, row, col, mark);
    board->cells[row * n + col] = (int8_t)mark;
    ttt__line *lines = board->lines;
    int full = mark * n;
    int done = (lines[row].sum = (int16_t)(lines[row].sum + mark)) == full;
    done |= (lines[n + col].sum = (int16_t)(lines[n + col].sum + mark)) == full;
    /* The centre of an odd board lies on both diagonals: two ifs. */
    if (row == col)
        done |= (lines[2 * n].sum = (int16_t)(lines[2 * n].sum + mark)) == full;
    if (row + col == n - 1)
        done |= (lines[2 * n + 1].sum =
                     (int16_t)(lines[2 * n + 1].sum + mark)) == full;
    return done;
}

/* Removes the most recently placed mark, which the caller names (the game
 * knows it from the turn; reading it here would be one more cache miss on
 * a big board); returns its packed cell. The board must not be empty. */
static inline int32_t ttt__board_lift(ttt__board *board, int mark)
{
    int n = board->n;
    int32_t packed = board->order[board->empty_count];
    int row = TTT__ROW(packed), col = TTT__COL(packed);
    board->cells[row * n + col] = TTT_EMPTY;
    board->empty_count++;
    if (board->k != n || board->track_live) {
        ttt__board_lift_slow(board, row, col, mark);
        return packed;
    }
    ttt__line *lines = board->lines;
    lines[row].sum = (int16_t)(lines[row].sum - mark);
    lines[n + col].sum = (int16_t)(lines[n + col].sum - mark);
    if (row == col)
        lines[2 * n].sum = (int16_t)(lines[2 * n].sum - mark);
    if (row + col == n - 1)
        lines[2 * n + 1].sum = (int16_t)(lines[2 * n + 1].sum - mark);
    return packed;
}

#endif /* TTT_BOARD_H */
