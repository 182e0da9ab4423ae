/* board.h - the board's layout and its O(1) move path: marks, empty cells, line counters. */
#ifndef TTT_BOARD_H
#define TTT_BOARD_H

#include <stdint.h>

#include "compiler.h"
#include "sizes.h"
#include "random.h"
#include "ttt.h"

/* One whole line (K = N on a square): X adds +1 and O adds -1 to sum; a line is complete
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
 * cells[row * n + col] (n is the width, the row stride) holds that cell's
 * index in order[] (its slot) and its
 * mark: (slot << 2) | code, code 1 for X and 3 for O. A cell is placed when
 * its slot is at or above the boundary, so the slot alone says whether it is
 * empty and the code counts only while it is placed. Lifting the last mark
 * therefore only moves the boundary, writing no cell, and lifted cells stay,
 * in lifting order, just below it: that is where the game keeps its redo
 * stack. One int32_t per cell for both keeps a big board's move to one
 * cache line per cell. Boards without line counters (K < N, and every
 * rectangle), whose moves scan neighbouring cells, also clear the code when
 * lifting, so there the code alone tells a cell's mark.
 *
 * Behind cells[] come width int16_t column fill counts (marks in each
 * column), kept only under gravity, where they make a column's landing row
 * one load: height - 1 - fill. They stay zero otherwise, so turning gravity
 * on (on an empty board) needs no pass. Then the line counters.
 */
typedef struct ttt__board {
    int32_t n;           /* the width: row stride; a square's side */
    int32_t k;           /* marks in a row that complete a line */
    int32_t nn;          /* width * height */
    int32_t empty_count; /* cells not yet marked */
    int32_t live;        /* lines (K = N) or K-windows free of one mark */
    int16_t width;       /* columns (== n) */
    int16_t height;      /* rows */
    int16_t track_live;  /* keep fill and live up to date (early draw) */
    int16_t gravity;     /* marks drop to the lowest empty cell; keep fills */
    int32_t slow_moves;  /* no line counters, track_live or gravity: moves
                            go out of line */
    int32_t *order;      /* nn packed cells, see above */
    int32_t *cells;      /* nn slots and marks, row-major, see above */
    ttt__line *lines;    /* square with K = N: n rows, n columns, diagonal,
                            anti-diagonal */
} ttt__board;

/* Whether the board keeps whole-line counters: a square with K = N. */
static inline int ttt__board_counts_lines(const ttt__board *board)
{
    return board->k == board->n && board->width == board->height;
}

/* The column fill counts (see ttt__board), width of them. */
static inline int16_t *ttt__board_fills(const ttt__board *board)
{
    return (int16_t *)(void *)(board->cells + board->nn);
}

/* The row a mark dropped into col lands in under gravity, or -1 if the
 * column is full. Valid only while gravity is on. */
static inline int ttt__board_landing_row(const ttt__board *board, int col)
{
    return board->height - 1 - ttt__board_fills(board)[col];
}

/* A cells[] entry: a slot with a mark (X or O), or with none yet. Slots
 * are below 2^20 (TTT_MAX_SIZE squared), so the product stays in range. */
#define TTT__BARE_ENTRY(slot) ((int32_t)((uint32_t)(slot) * 4u))
#define TTT__CODE(mark) ((mark) > 0 ? 1 : 3)
#define TTT__ENTRY(slot, mark) (TTT__BARE_ENTRY(slot) | TTT__CODE(mark))
#define TTT__SLOT(entry) ((entry) >> 2)

/* The mark of a cells[] entry on a board whose boundary is empty_count:
 * TTT_EMPTY below the boundary or with no code yet, else code 1 is X and
 * code 3 is O. */
static inline int ttt__entry_mark(int32_t entry, int32_t empty_count)
{
    if (TTT__SLOT(entry) < empty_count)
        return TTT_EMPTY;
    return (entry & 1) - (entry & 2);
}

/* The mark at row-major index cell. */
static inline int ttt__board_mark(const ttt__board *board, int32_t cell)
{
    return ttt__entry_mark(board->cells[cell], board->empty_count);
}

#define TTT__PACK(row, col) (((int32_t)(row) << 16) | (int32_t)(col))
#define TTT__ROW(packed) ((int)((packed) >> 16))
#define TTT__COL(packed) ((int)((packed) & 0xffff))

/* Bytes of the arrays behind a width x height board with win length k, or
 * 0 if they do not fit in size_t. */
size_t ttt__board_bytes_rect(int width, int height, int k);
/* The same for a square of side n. */
size_t ttt__board_bytes(int n, int k);
/* Points the board at its arrays in mem (ttt__board_bytes_rect bytes,
 * aligned to 4) and records its geometry, with live tracking and gravity
 * off; the arrays' contents are left as they are. */
void ttt__board_bind_rect(ttt__board *board, int width, int height, int k,
                          void *mem);
/* The same for a square of side n. */
void ttt__board_bind(ttt__board *board, int n, int k, void *mem);
/* Empties the board and resets every counter. */
void ttt__board_clear(ttt__board *board);
/* Starts or stops tracking live K-windows (K < N); call on an empty board. */
void ttt__board_track_live(ttt__board *board, int on);
/* Starts or stops gravity's column fills; call on an empty board. */
void ttt__board_set_gravity(ttt__board *board, int on);
/* Place and lift for K < N (O(K) scans) and for early draw (live counts),
 * out of line; the cell has already been moved in order[]. */
int ttt__board_place_slow(ttt__board *board, int row, int col, int mark);
void ttt__board_lift_slow(ttt__board *board, int row, int col, int mark);
/* The completed line of at least K through (row, col) holding mark, first
 * of row, column, diagonal, anti-diagonal; returns 1 and its ends, or 0. */
int ttt__board_line_through(const ttt__board *board, int row, int col,
                            int mark, int ends[4]);


/* The cell placed at ply (from 0, below the number placed), packed: the
 * history runs from the first move at order[nn - 1] downwards. */
static inline int32_t ttt__board_move_at(const ttt__board *board, int32_t ply)
{
    return board->order[board->nn - 1 - ply];
}

/* The four line directions as (row step, column step): row, column,
 * diagonal (down-right), anti-diagonal (down-left). The order is the one
 * ttt_winning_line documents; the search board walks its windows in it
 * too. */
static const int ttt__dir_row[4] = {0, 1, 1, 1};
static const int ttt__dir_col[4] = {1, 0, 1, -1};

/* Steps from (row, col) in direction d, forward (sign +1) or back (-1),
 * that stay on a width x height board, capped at limit. With limit K - 1,
 * back + ahead + 2 - K is the number of K-windows through the cell along d
 * (none when it is not positive): the count the board and the search board
 * both take from here. */
static inline int ttt__room_rect(int width, int height, int row, int col,
                                 int d, int sign, int limit)
{
    int up = row, down = height - 1 - row, left = col,
        right = width - 1 - col;
    int to_edge;
    switch (d) {
    case 0: to_edge = sign > 0 ? right : left; break;
    case 1: to_edge = sign > 0 ? down : up; break;
    case 2: to_edge = sign > 0 ? (down < right ? down : right)
                               : (up < left ? up : left); break;
    default: to_edge = sign > 0 ? (down < left ? down : left)
                                : (up < right ? up : right); break;
    }
    return to_edge < limit ? to_edge : limit;
}

/* ttt__room on an n x n square. */
static inline int ttt__room(int n, int row, int col, int d, int sign,
                            int limit)
{
    return ttt__room_rect(n, n, row, col, d, sign, limit);
}

/* The move path is inline: every move of every game goes through it, and for
 * K = N it is a swap in order[] plus at most four counter updates. */

/* Whether (row, col), on the board, is empty: its slot is below the
 * boundary. */
static inline int ttt__board_is_empty(const ttt__board *board, int row,
                                      int col)
{
    return TTT__SLOT(board->cells[row * board->n + col]) < board->empty_count;
}

/* Boards from this side up have cells[] of 16 KiB or more, past what stays
 * in the fastest cache between moves. */
#define TTT__PREFETCH_SIZE 64

/* Starts loading the cell (row, col) of a big board, if it is on the board,
 * before the game's lock is taken: the cell is then likely a cache miss,
 * and the lock's atomic exchange would otherwise make the load wait for it.
 * A prefetch reads nothing in C's sense, and the array's address and size
 * never change, so this is safe without the lock. */
static inline void ttt__board_prefetch(const ttt__board *board, int row,
                                       int col)
{
    int n = board->n;
    if (n >= TTT__PREFETCH_SIZE && (unsigned)row < (unsigned)board->height &&
        (unsigned)col < (unsigned)n)
        TTT__PREFETCH(board->cells + row * n + col, 1);
}

/* Makes the empty cell (row, col) the most recent placed cell: swap it to
 * the top of the empty region, then shrink the region over it. Returns its
 * new slot; the caller writes the cell's entry. */
static inline int32_t ttt__board_take(ttt__board *board, int row, int col)
{
    TTT_ASSERT(ttt__board_is_empty(board, row, col));
    int n = board->n;
    int32_t top = board->empty_count - 1;
    int32_t slot = TTT__SLOT(board->cells[row * n + col]);
    /* A cell already on top, as a move redone or replayed after an undo
     * is, needs no swap. */
    if (slot != top) {
        int32_t moved = board->order[top];
        board->order[slot] = moved;
        board->cells[TTT__ROW(moved) * n + TTT__COL(moved)] =
            TTT__BARE_ENTRY(slot);
        board->order[top] = TTT__PACK(row, col);
    }
    board->empty_count = top;
    return top;
}

/* Adds mark to the sums of the full lines (K = N) through (row, col) of an
 * n x n board: its row, its column, and the diagonals it lies on. Returns 1
 * if one of them is now full of mark. */
static inline int ttt__lines_add(ttt__line *lines, int n, int row, int col,
                                 int mark)
{
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

/* Puts mark on the empty cell (row, col); returns 1 if that completed a line
 * of K. The caller has checked the cell. Without early draw, K = N costs a
 * swap, a store and two to four counter updates, all inline. */
static inline int ttt__board_place(ttt__board *board, int row, int col,
                                   int mark)
{
    int32_t slot = ttt__board_take(board, row, col);
    int n = board->n;
    if (board->slow_moves) {
        /* No mark yet: the slow path reads the cell as empty. */
        board->cells[row * n + col] = TTT__BARE_ENTRY(slot);
        return ttt__board_place_slow(board, row, col, mark);
    }
    board->cells[row * n + col] = TTT__ENTRY(slot, mark);
    return ttt__lines_add(board->lines, n, row, col, mark);
}

/* Removes the most recently placed mark, which the caller names (the game
 * knows it from the turn); returns its packed cell. Moving the boundary
 * empties the cell: no cell is read or written, which on a big board is a
 * cache miss saved. The board must not be empty. */
static inline int32_t ttt__board_lift(ttt__board *board, int mark)
{
    TTT_ASSERT(board->empty_count < board->nn);
    int n = board->n;
    int32_t packed = board->order[board->empty_count];
    int row = TTT__ROW(packed), col = TTT__COL(packed);
    board->empty_count++;
    if (board->slow_moves) {
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

/* Under gravity, the random player's move on a board with an empty cell:
 * a column drawn uniformly among those that are not full (one
 * ttt__random_below over their number, counted from the left, as the
 * header documents), and the cell a mark lands on there, packed. O(width):
 * one pass to count the open columns, one to find the drawn one. */
static inline int32_t ttt__board_random_drop(const ttt__board *board,
                                             uint64_t *seed)
{
    const int16_t *fills = ttt__board_fills(board);
    int width = board->width, height = board->height;
    uint32_t open = 0;
    for (int col = 0; col < width; col++)
        open += fills[col] < height;
    uint32_t pick = ttt__random_below(seed, open);
    int col = 0;
    for (;; col++) {
        if (fills[col] < height) {
            if (pick == 0)
                break;
            pick--;
        }
    }
    return TTT__PACK(height - 1 - fills[col], col);
}

#endif /* TTT_BOARD_H */
