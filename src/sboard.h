/* sboard.h - the search board of the solver and the bots: marks placed and removed in any order, with the per-window and per-cell sums a search asks for at every node. */
#ifndef TTT_SBOARD_H
#define TTT_SBOARD_H

#include <stdint.h>

#include "engine.h"

/* ------------------------------------------------------------------------ */
/* The search board                                                          */

/*
 * The solver and the bots play on a board of their own, built for placing
 * and removing marks in any order and for the questions a search asks at
 * every node: which cells win at once, which K-windows can still be won,
 * which cells no live window passes through, how promising each cell is.
 *
 * A K-window is a run of K cells along a row, column, diagonal or
 * anti-diagonal (for K = N these are the lines). Each window keeps its count
 * of X and O marks and the sum of the offsets (0 .. K-1) of its marked
 * cells. Every other field is a sum over windows of a function of that
 * state, updated only for the windows through the changed cell:
 *   live                windows not holding both marks;
 *   completed           windows full of one mark (a finished game);
 *   sums[c].live        live windows through c; 0 means c is dead: a mark
 *                       there changes no window, so it only passes the turn;
 *   sums[c].touched     windows through c holding some mark; the cells
 *                       with a nonzero count are also listed in touched
 *                       (touched_at[c] their place, -1 if absent), so the
 *                       bot finds its candidates without a pass over the
 *                       board;
 *   sums[c].weight[p]   weight[m] summed over the windows through c holding
 *                       m marks of player p and none of the other;
 *   sums[c].building[p] windows through c holding K - 2 marks of p and none
 *                       of the other: a mark of p on c turns each into a
 *                       threat, so two or more may make a double threat;
 *   open_windows[p][m]  windows holding m marks of p and none of the other;
 *   threat_hits[p][c]   windows p completes by playing c: K - 1 marks of p,
 *                       none of the other, and c their empty cell (found
 *                       from the offset sum);
 *   threat_cells[p]     cells with threat_hits[p] > 0, and threat_sum[p]
 *                       their index sum: the cell itself when there is one;
 *   eval                the weights of X's one-sided windows minus O's.
 * Players are indexed 0 for X and 1 for O.
 *
 * The board is width columns by height rows (cells row * width + col, row
 * 0 on top). Windows lie only along lines at least K long: with K greater
 * than the width there are no row or diagonal windows at all.
 *
 * For the transposition table the board also keeps, for each symmetry the
 * board has (eight for a square, four for a rectangle, two under gravity:
 * board_symmetries), the key of the transformed position: a sum of
 * per-cell terms, base-3 digits (exact) up to 40 cells and pseudo-random
 * 64-bit terms beyond. The smallest of them is the canonical key.
 *
 * Under gravity a mark may only go to the lowest empty cell of its column
 * (its landing cell): the board counts each column's marks, and a
 * completion cell wins at once only if it is a landing cell
 * (sboard_playable_threats).
 */

#define WEIGHT_SHIFT_CAP 30
#define RUNS_MAX_CELLS 65536 /* precompute window runs up to 256 x 256 */
/* Beyond this many cells the engine looks for candidates, threats and
 * double threats among the touched cells (listed by the board) instead of
 * passing over the whole board at every node. */
#define SOLVER_SCAN_CELLS 1024
/* Up to this many window cells in one direction, a placed mark updates
 * them one by one; beyond, through a difference array (touch_windows). */
#define DIRECT_CHANGE_CELLS 64

/* The windows through a cell along one direction: window index w, first
 * cell start and the cell's offset in it, then each next window one step
 * along (w + window_step, start + cell_step, offset - 1), count in all. */
typedef struct window_run {
    int32_t w;
    int32_t start;
    int32_t offset;
    int32_t count;
} window_run;

/* A cell's sums over the windows through it (see above), kept together:
 * placing a mark updates all of them for the same cells, and on a large
 * board separate arrays put each in its own page. */
struct cell_sums {
    int64_t weight[2];   /* cell_weight[p] */
    int32_t live;        /* cell_live */
    int32_t touched;     /* cell_touched */
    int32_t building[2]; /* cell_building[p] */
};

typedef struct sboard {
    int32_t width, height, k, nn;
    int32_t row_span;         /* windows along a row: width - k + 1, or 0 */
    int32_t column_span;      /* windows along a column: height - k + 1, or 0 */
    int32_t gravity;
    int32_t *column_fill;     /* per column: its marks (kept under gravity) */
    int32_t misere, early_draw;
    int32_t limit_empty;      /* empty cells at the ply limit; 0: none */
    int32_t window_count;
    int32_t window_base[4];   /* index of each direction's first window */
    int32_t window_step[4];   /* index step between neighbouring windows */
    int32_t cell_step[4];     /* cell index step along each direction */
    int32_t empty;
    int32_t live;
    int32_t completed;
    int32_t threat_cells[2];
    int64_t threat_sum[2];
    int64_t eval;
    int8_t *cells;
    int16_t *window_marks;    /* X count, O count per window */
    int32_t *window_offsets;
    int32_t *window_start;    /* first cell of each window */
    struct cell_sums *sums;   /* per cell: the sums below, side by side */
    struct cell_sums *diff;   /* 2K + 1 zeroed: touch_windows' scratch */
    int32_t *touched;         /* the cells with cell_touched > 0, any order */
    int32_t *touched_at;      /* per cell: its index in touched, or -1 */
    int32_t touched_count;
    int32_t *threat_hits[2];
    struct window_run *runs;  /* 4 per cell, or NULL on huge boards */
    int32_t *open_windows[2]; /* k + 1 counters each */
    int64_t *weight;          /* k + 1 weights */
    int64_t *eval_weight;     /* k + 1: weight[m] for m > 0, 0 for m = 0
                               * (an empty window adds nothing to eval) */
    int32_t offsets_full;     /* K(K - 1)/2: the offsets of a full window */
    int32_t use_keys;
    int32_t sym_count;        /* the board's symmetries (board_symmetries) */
    int32_t sym_inverse[8];   /* per symmetry: the one that undoes it */
    uint64_t key[8];          /* per symmetry: the key of the image */
    uint64_t *key_term[2];    /* per cell */
    int32_t *sym;             /* sym_count * nn: the image of each cell */
} sboard;

/* Carves the board's arrays for snap's geometry (width, height, k). */
void ttt__sboard_size(carver *parts, sboard *b, const snapshot *snap,
                        int use_keys);

/* Lays the board out for snap, whose arrays the caller carved, then places
 * the snapshot's marks. */
void ttt__sboard_init(sboard *b, const snapshot *snap, int use_keys);

void ttt__sboard_place(sboard *b, int32_t cell, int p);

void ttt__sboard_remove(sboard *b, int32_t cell);

/*
 * Place and remove without the cells' sums (sums[], touched, touched_at):
 * every other field is kept. A search may use them for the marks below a
 * node whose subtree reads no cell sums (the bot's leaves and the forced
 * moves under them), paired LIFO with each other: the sums a full place
 * or remove adds inside that subtree come off again before the light mark
 * is lifted, so the sums are right again once it is.
 */
void ttt__sboard_place_light(sboard *b, int32_t cell, int p);

void ttt__sboard_remove_light(sboard *b, int32_t cell);

/*
 * What a mark of p on the empty cell would leave, without placing it, for
 * a search leaf (K >= 3): 0 if the mark would complete a window or make a
 * completion cell of p's, or the cell is one of the other's completion
 * cells; else 1, with the board's eval after the mark, the other's windows
 * of K - 2 marks and none of p's (open_windows[1 - p][K - 2]) and the live
 * windows after it. The marks' counts are what they would be; every other
 * field is as before the mark.
 */
int ttt__sboard_quiet_eval(const sboard *b, int32_t cell, int p, int64_t *eval_after,
                           int32_t *other_building_after, int32_t *live_after);

/* The cells that become threats of p if p plays the empty cell: for each
 * window through it holding K - 2 marks of p and none of the other, its
 * other empty cell. Writes the distinct ones to out (room for 4 * K) and
 * returns how many. */
int32_t ttt__future_threats(const sboard *b, int p, int32_t cell,
                              int32_t *out);

/*
 * Whether p might still win against an opponent who blocks: a single
 * completion cell is always blocked, so p's win needs, some day, one move
 * that makes two completion cells at once. That move's cell lies in two of
 * p's open windows, and p must fill their union but the two last cells, then
 * complete one: |empty cells of the union| - 1 moves. Windows on different
 * lines share only that cell, so the union holds e1 + e2 - 1 empty cells
 * (e = K - marks); two on the same line are counted loosely (any two
 * fillable ones pass). Checked only near the end, where it prunes; earlier
 * it falls back to can_complete. A necessary condition, so "no" is proof.
 */
int ttt__can_double(const sboard *b, int p);

/* Some cell where p completes a window (threat_cells[p] > 0). */
int32_t ttt__some_threat_cell(const sboard *b, int p);

static inline int32_t min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

/* The cell a mark dropped into column col lands on under gravity, or -1
 * when the column is full. */
static inline int32_t landing_cell(const sboard *b, int32_t col)
{
    int32_t fill = b->column_fill[col];
    return fill < b->height ? (b->height - 1 - fill) * b->width + col : -1;
}

/* Whether the empty cell may be played now: under gravity only a landing
 * cell may. */
static inline int sboard_playable(const sboard *b, int32_t cell)
{
    return !b->gravity || landing_cell(b, cell % b->width) == cell;
}

/* Under gravity: how many of p's completion cells are landing cells, so p
 * could complete a window right now, and the leftmost of them in *first
 * (-1 if none). They lie in different columns, so one mark blocks at most
 * one of them. (Without gravity every completion cell counts:
 * threat_cells.) */
static inline int32_t sboard_playable_threats(const sboard *b, int p,
                                              int32_t *first)
{
    TTT_ASSERT(b->gravity);
    *first = -1;
    if (b->threat_cells[p] == 0)
        return 0;
    int32_t count = 0;
    for (int32_t col = 0; col < b->width; col++) {
        int32_t cell = landing_cell(b, col);
        if (cell >= 0 && b->threat_hits[p][cell] > 0) {
            if (count++ == 0)
                *first = cell;
        }
    }
    return count;
}

/* The player to move: 0 (X) on even plies. */
static inline int sboard_mover(const sboard *b)
{
    return (b->nn - b->empty) & 1;
}

/* Plies the game can still last: to a full board, or to the ply limit. */
static inline int32_t plies_left(const sboard *b)
{
    return b->empty - b->limit_empty;
}

static inline int window_direction(const sboard *b, int32_t w)
{
    int d = 3;
    while (d > 0 && w < b->window_base[d])
        d--;
    return d;
}

/* Whether player p might still complete a window: one holding none of the
 * other's marks that p can fill with the moves p has left. */
static inline int can_complete(const sboard *b, int p)
{
    int32_t moves_left = (plies_left(b) + (p == sboard_mover(b))) / 2;
    int32_t m = b->k - moves_left;
    for (m = m < 0 ? 0 : m; m < b->k; m++) {
        if (b->open_windows[p][m] > 0)
            return 1;
    }
    return 0;
}

/* The state of the game after a mark of player p (0 for X, 1 for O), as the
 * game judges it (ttt__state_after): its windows are the game's lines. */
static inline int sboard_state(const sboard *b, int p)
{
    return ttt__state_after(b->completed > 0, ttt__mark_of(p), b->misere,
                            b->early_draw, b->empty, b->limit_empty, &b->live);
}

#endif /* TTT_SBOARD_H */
