/* playout.h - the random player's board code: a uniformly random empty cell, whole random games on the board, 3x3 / 4x4 games in registers, and gravity games on a bitboard. */
#ifndef TTT_PLAYOUT_H
#define TTT_PLAYOUT_H

#include <stdint.h>

#include "board.h"
#include "random.h"

/* A uniformly random empty cell of a board with one, packed: the draw the
 * header documents (ttt__random_below) as an index into order[]'s empty
 * region. */
static inline int32_t ttt__board_random_cell(const ttt__board *board,
                                             uint64_t *seed)
{
    return board->order[ttt__random_below(seed, (uint32_t)board->empty_count)];
}

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

/*
 * A gravity board whose columns fit one 64-bit word (width * (height + 1)
 * <= 64, Connect Four's 7x6 among them), for random games: column c takes
 * bits c * (height + 1) up, bottom first, with a spare bit on top so lines
 * never run from one column into the next. The open columns are kept in
 * order, 4 bits each, so the draw ttt_random_move makes (the pick-th open
 * column from the left) is one shift, and each column's landing cell is a
 * bit that moves up a place per mark: a move takes no branch but when a
 * column fills.
 */
#define TTT__GRAVITY_COLUMNS 16
typedef struct ttt__gravity_board {
    uint64_t to_move;   /* stones of the side to move */
    uint64_t other;     /* stones of the side that moved last */
    uint64_t top;       /* each column's top cell */
    uint64_t columns;   /* the open columns' numbers, 4 bits each, leftmost lowest */
    uint64_t landing[TTT__GRAVITY_COLUMNS]; /* each column's landing cell */
    int32_t open;       /* columns that are not full */
    int32_t k;
    int32_t strides[4]; /* directions a line fits along: bit steps */
    int32_t directions;
} ttt__gravity_board;

/* Packs a gravity board, whose side to move plays mark, into gb; returns 0
 * (and leaves gb alone) if gravity is off or the board does not fit. */
int ttt__gravity_load(const ttt__board *board, int mark, ttt__gravity_board *gb);
/* Plays games random games from gb as ttt__board_random_drop and the board
 * would (the same draws), the seed carrying from one to the next, and
 * counts how they ended, as ttt__small_random_games does. */
void ttt__gravity_random_games(const ttt__gravity_board *gb, uint64_t *seed,
                               uint64_t games, uint64_t by_result[3]);

#endif /* TTT_PLAYOUT_H */
