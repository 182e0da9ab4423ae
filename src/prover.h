/* prover.h - the proof search's own board (windows, marks, hashes, scratch) and its position evaluation, shared by proof.c (df-pn) and proof_eval.c (settled positions, pairings, move cuts). */
#ifndef TTT_PROVER_H
#define TTT_PROVER_H

#include <stddef.h>
#include <stdint.h>

#include "pairing.h"
#include "proof.h"

/* The longest window: K <= N and N * N <= PROOF_MAX_CELLS. */
#define PROOF_MAX_K 10

/* A set of cells as bits: PROOF_MAX_CELLS fit. */
typedef struct cell_set {
    uint64_t bits[2];
} cell_set;
_Static_assert(PROOF_MAX_CELLS <= 128, "a cell_set holds 128 cells");

/* A disproof's zone is a cell_set: cells such that the attacker still
 * cannot win with marks of its own added on every empty cell outside them
 * (an extra mark never hurts its owner). The zone of every cell proves
 * nothing more. */
static const cell_set every_cell = {{~UINT64_C(0), ~UINT64_C(0)}};
static const cell_set no_cell = {{0, 0}};

static inline int set_has(cell_set set, int32_t cell)
{
    return (int)(set.bits[cell >> 6] >> (cell & 63) & 1);
}

static inline void set_add(cell_set *set, int32_t cell)
{
    set->bits[cell >> 6] |= UINT64_C(1) << (cell & 63);
}

static inline cell_set set_union(cell_set a, cell_set b)
{
    cell_set u = {{a.bits[0] | b.bits[0], a.bits[1] | b.bits[1]}};
    return u;
}

static inline cell_set set_common(cell_set a, cell_set b)
{
    cell_set c = {{a.bits[0] & b.bits[0], a.bits[1] & b.bits[1]}};
    return c;
}

static inline int set_is_every_cell(cell_set set)
{
    return set.bits[0] == ~UINT64_C(0) && set.bits[1] == ~UINT64_C(0);
}

/* What evaluating a position found. */
enum { NODE_OPEN, NODE_PROVEN, NODE_DISPROVEN };


typedef struct prover {
    const ttt_game *game;
    int32_t n, k, nn, windows;
    int32_t ply, empty;
    int attacker;          /* player index (0: X, 1: O) trying to win */
    int8_t *cells;         /* TTT_X, TTT_O or TTT_EMPTY */
    int32_t *window_cells; /* k per window */
    int32_t *cell_first;   /* nn + 1: each cell's windows in cell_windows */
    int32_t *cell_windows;
    uint8_t *marks;        /* 2 per window: each player's marks in it */
    uint64_t *zobrist;     /* 2 per cell */
    int32_t *symmetric;    /* 8 x nn: each cell's image under each symmetry */
    uint64_t hash[8];      /* the position's hash under each symmetry */
    struct child *children; /* (nn + 1) x nn: each depth's moves */
    int32_t *moves;        /* (nn + 1) x nn: scratch move lists */
    int32_t *first_completion;  /* per cell, evaluate's scratch */
    int32_t *second_completion;
    int32_t *completions;
    int32_t *stops;
    int32_t *scores;
    uint8_t *own_threat;
    void *pair_scratch;
    uint8_t *covered;      /* per window: pairs of the shared pairing in it */
    uint8_t *paired;       /* per cell: taken by the shared pairing */
    int8_t *free_cells;    /* per window: its empty cells not yet paired */
    int32_t *open_windows; /* the shared pairing's windows */
    uint64_t *window_mask; /* 2 per window: its cells as bits */
    uint32_t pair_steps;   /* the shared pairing's tries at this node */
    int32_t shortfall;     /* the fewest open windows a pairing try left uncovered */
    pairing_pair *pairs;   /* a private pairing's pairs */
    int32_t defender_limit; /* the defender's moves searched at a node (0: all) */
    int rule_cut;          /* evaluate's: a rule cut the mover's moves */
    cell_set leaf_zone;    /* evaluate's: a settled node's disproof zone */
    cell_set dead_cells;   /* evaluate's: the empty cells in no open window */
    struct proof_entry *table;
    size_t bucket_mask;
    uint64_t nodes, budget;
    int stopped;
    int32_t root_best;     /* the root's chosen move after a search */
    int64_t potential[2];  /* evaluate's: each player's open windows, weighted */
} prover;

static inline int player_at(int32_t ply)
{
    return (int)(ply & 1);
}

static inline int8_t mark_of_player(int p)
{
    return p == 0 ? (int8_t)TTT_X : (int8_t)TTT_O;
}

/*
 * Settles the prover's position or lists its moves (best first) into
 * moves, their number into *count, and returns NODE_*; counts one node.
 * Sets pv->leaf_zone for a disproof, pv->rule_cut and pv->dead_cells for
 * the move list, pv->potential and pv->shortfall for the starting numbers.
 * The rules are proof.h's; each cut keeps only moves that do not lose by
 * force.
 */
int ttt__proof_evaluate(prover *pv, int32_t *moves, int32_t *count);

#endif /* TTT_PROVER_H */
