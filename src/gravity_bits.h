/* gravity_bits.h - the gravity solver's bitboard: its search state and the line questions the search inlines (private to gravity.c). */
#ifndef TTT_GRAVITY_BITS_H
#define TTT_GRAVITY_BITS_H

#include <stdint.h>

#include "compiler.h"
#include "ttt.h"

/*
 * The board. Column c takes bits c * (height + 1) .. c * (height + 1) +
 * height - 1, bottom first, and one spare bit above that stays empty. Two
 * words describe a position: `current`, the stones of the side to move, and
 * `mask`, all stones. Then:
 *   - the landing cells are (mask + bottom) & board: adding a column's
 *     bottom bit carries through its stones to the first empty cell;
 *   - a line of K stones along a direction is a run of K bits at a stride:
 *     1 (vertical), height + 1 (horizontal), height and height + 2 (the
 *     diagonals). The spare bit stops a run from wrapping from one column
 *     into the next;
 *   - position + mask is an exact key: per column it is (stones of the
 *     mover) + 2^h - 1 for h stones, and these ranges are disjoint for
 *     different h and never carry into the next column.
 */

#define MAX_COLUMNS 16 /* width * 4 <= 64 */

typedef struct gsearch {
    uint64_t current;   /* the side to move's stones */
    uint64_t mask;      /* all stones */
    uint64_t bottom;    /* each column's bottom bit */
    uint64_t board;     /* every cell */
    uint64_t top_rows;  /* the top row, and every second row below it */
    int32_t moves;      /* stones on the board */
    int32_t cells;      /* width * height */
    int32_t width, height, k, stride;
    int32_t vertical;   /* 1 if a column can hold K */
    int32_t dir_count;  /* other directions that can hold K */
    int32_t dirs[3];    /* their bit strides */
    int32_t order[MAX_COLUMNS];   /* columns, centre first */
    uint64_t column[MAX_COLUMNS]; /* each column's cells */
    uint64_t *table;    /* 2 << bucket_bits entries */
    int32_t bucket_bits;
    int32_t key_bits;   /* width * stride */
    uint64_t key_mask;
    int32_t weight[64]; /* per bit: the K-windows through the cell */
    uint64_t nodes;
    uint64_t budget;
    int stopped;
} gsearch;

/* ------------------------------------------------------------------------ */
/* Bitboard questions                                                        */

/* The cells that complete a line of k along stride s for stones p: cells
 * with j stones of p before them and k - 1 - j after, for some j. The
 * strides and k keep every shift below 64 (see gravity_setup). */
static TTT__ALWAYS_INLINE uint64_t line_threats(uint64_t p, int32_t s, int k)
{
    uint64_t after[TTT_MAX_SIZE < 64 ? TTT_MAX_SIZE : 64];
    after[0] = ~UINT64_C(0);
    for (int m = 1; m < k; m++)
        after[m] = after[m - 1] & (p >> (m * s));
    uint64_t before = ~UINT64_C(0), found = 0;
    for (int j = 0; j < k; j++) {
        found |= before & after[k - 1 - j];
        if (j + 1 < k)
            before &= p << ((j + 1) * s);
    }
    return found;
}

/* Every cell (empty or not) where a stone of p would complete a line.
 * Where this is inlined with k and stride constants (stride > 0: a board
 * at least k wide and k high, so all four directions count, at strides 1,
 * stride - 1, stride and stride + 1), every shift is an immediate; stride
 * 0 reads the directions from g. */
static TTT__ALWAYS_INLINE uint64_t threats_k(const gsearch *g, uint64_t p, int k,
                                         int32_t stride)
{
    if (stride > 0) {
        uint64_t below = ~UINT64_C(0);
        for (int m = 1; m < k; m++)
            below &= p << m;
        return below | line_threats(p, stride, k) |
               line_threats(p, stride - 1, k) | line_threats(p, stride + 1, k);
    }
    uint64_t found = 0;
    if (g->vertical) {
        uint64_t below = ~UINT64_C(0);
        for (int m = 1; m < k; m++)
            below &= p << m;
        found = below;
    }
    for (int32_t d = 0; d < g->dir_count; d++)
        found |= line_threats(p, g->dirs[d], k);
    return found;
}

/* Whether stones p hold a line of k; inlined like threats_k. */
static TTT__ALWAYS_INLINE int has_line_k(const gsearch *g, uint64_t p, int k,
                                     int32_t stride)
{
    int32_t strides[4] = {1, 0, 0, 0};
    int32_t count = 0;
    if (stride > 0) {
        strides[0] = 1;
        strides[1] = stride;
        strides[2] = stride - 1;
        strides[3] = stride + 1;
        count = 4;
    } else {
        if (g->vertical)
            count = 1;
        for (int32_t d = 0; d < g->dir_count; d++)
            strides[count++] = g->dirs[d];
    }
    uint64_t any = 0;
    for (int32_t d = 0; d < count; d++) {
        uint64_t run = p;
        for (int m = 1; m < k; m++)
            run &= p >> (m * strides[d]);
        any |= run;
    }
    return any != 0;
}

static uint64_t lowest_bit(uint64_t x)
{
    return x & (~x + 1);
}

/* The moves that do not lose at once (see above), or 0 if there are none. */
static TTT__ALWAYS_INLINE uint64_t safe_moves(const gsearch *g, int k,
                                          int32_t stride,
                                          uint64_t *opponent_wins)
{
    uint64_t possible = (g->mask + g->bottom) & g->board;
    uint64_t wins = threats_k(g, g->current ^ g->mask, k, stride) &
                    (g->board & ~g->mask);
    uint64_t forced = possible & wins;
    *opponent_wins = wins;
    if (forced) {
        if (forced & (forced - 1))
            return 0;
        possible = forced;
    }
    return possible & ~(wins >> 1);
}

/* An upper bound of the mover's score from the opponent's follow-up
 * strategy, or `hi` if it gives none. With an even number of empty cells,
 * the opponent can answer every move so that it gets every empty cell of
 * top_rows (the top row, and every second row below it) that is not
 * playable now. A column with an even number of empty cells has the
 * top_rows parity on every second cell from the one above its playable
 * cell: a move there is answered on the cell above it. A column with an
 * odd number has it on every second cell from two above its playable
 * cell, which is left free: a move on that free cell is answered on the
 * free cell of another such column (they come in pairs, as the empty
 * cells are even), and both columns are even again. The mover then gets
 * at most the other cells: if they hold no line the mover cannot win (a
 * draw at best), and if the opponent's cells hold one the opponent wins
 * (a loss, at best the slowest). On an even height this is Allis'
 * claimeven, with which Christophe Steininger's solver bounds its
 * searches. */
static TTT__ALWAYS_INLINE int32_t follow_up_bound(const gsearch *g, int k,
                                              int32_t stride, int32_t empty,
                                              int32_t hi)
{
    if ((empty & 1) || hi <= -1)
        return hi;
    uint64_t playable = (g->mask + g->bottom) & g->board;
    uint64_t theirs = (g->current ^ g->mask) |
                      (g->top_rows & ~g->mask & ~playable);
    if (has_line_k(g, g->board & ~theirs, k, stride))
        return hi;
    if (hi > 0)
        hi = 0;
    return has_line_k(g, theirs, k, stride) ? -1 : hi;
}

#endif
