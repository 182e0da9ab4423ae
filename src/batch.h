/* batch.h - the batch's block, shared by batch.c (the calls and the general path) and batch_bits.c (the bit path, for boards of up to 64 cells). */
#ifndef TTT_BATCH_H
#define TTT_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/*
 * The block: this header, then count + 1 game slots of `stride` bytes each
 * (the last is scratch for ttt_batch_set_moves, so that a rejected move
 * list leaves its game as it was), then count seeds, then count agent
 * marks, then (on the bit path) count bit games of bit_stride bytes.
 *
 * Two ways to keep the games, with the same results:
 *
 * The general path: every slot is an ordinary game made by
 * ttt_game_init_rect and moved through the game's own move path
 * (apply_move), so the rules live in game.c alone.
 *
 * The bit path, for boards with height * (width + 1) <= 64 cells (3x3,
 * 4x4, Connect Four's 7x6, up to 7x8) and self-play or the random
 * opponent: each game is a bit_game, one 64-bit word per side with cell
 * (row, col) at bit row * pitch + col, pitch = width + 1 so that a spare
 * column of zeros ends every row. A line of K is then K shifted copies of a
 * side's word ANDed together, in each of the four directions (shifts 1,
 * pitch, pitch + 1, pitch - 1), with no call per step into the game.
 * A bit game also keeps its moves, and with the random opponent off
 * gravity the board's order[] permutation (see board.h) with the same
 * swaps, because the random player draws its cell from it. The slots
 * then serve only
 * ttt_batch_game, which replays a bit game's moves into its slot, and
 * ttt_batch_set_moves, which checks a move list on the scratch slot.
 * tests/test_batch.c plays both paths against single games.
 */

/* A game on the bit path. */
typedef struct bit_game {
    uint64_t marks[2]; /* X's cells, O's cells: bit row * pitch + col */
    uint8_t ply;       /* marks placed */
    /* nn bytes: the moves, row-major cells in the order played; then, if
     * the batch tracks order, nn bytes of order[] (the empty cells first,
     * then the placed ones most recent first, as ttt__board's) and nn
     * bytes of each cell's index in order[]. */
    uint8_t moves[];
} bit_game;

#define BIT_CELLS 64

struct ttt_batch {
    size_t count;
    size_t stride;
    char *slots;
    uint64_t *seeds;
    int8_t *agent;       /* with an opponent: the agent's mark per game */
    int32_t width;
    int32_t height;
    int32_t actions;
    int32_t gravity;
    int32_t ply_limit;
    int32_t opponent;
    int32_t agent_rule;  /* ttt_batch_config.agent */
    int32_t illegal;
    uint64_t opponent_budget;
    int32_t owns_memory;
    ttt_allocator alloc;
    /* The bit path (bit_games NULL: the general path). */
    char *bit_games;
    size_t bit_stride;
    int32_t nn;          /* width * height */
    int32_t pitch;       /* width + 1: bits from one row to the next */
    int32_t k;
    int32_t draw_ply;    /* the ply the game is drawn at: the limit, or nn */
    int32_t misere;
    int32_t early_draw;
    int32_t track_order; /* keep order[]: the random opponent off gravity */
    int32_t line_shift[4]; /* the bit steps of the four directions */
    uint64_t line_any;   /* 0 if no line of K fits on the board */
    uint64_t cells_mask; /* every cell of the board */
    uint64_t row_mask;   /* row 0's cells; row r's shifted by r * pitch */
    uint64_t column_mask; /* column 0's cells; column c's shifted by c */
    uint8_t cell_bit[BIT_CELLS]; /* row-major cell -> bit */
    uint8_t bit_cell[BIT_CELLS]; /* bit -> row-major cell */
    uint8_t fresh[2 * BIT_CELLS]; /* an empty board's order[] and slots */
    /* On 3x3 with K = 3, bit m of wins_3x3 (a set of cells in the board's
     * 11 bits) tells whether m holds a line: one load, not eight shifts. */
    uint64_t wins_3x3[32];
};

static inline ttt_game *ttt__batch_game_at(const ttt_batch *batch, size_t index)
{
    return (ttt_game *)(void *)(batch->slots + index * batch->stride);
}

/* In batch.c: with an opponent, the agent's side in game index's new
 * game, recorded (the first side on a first game, else per the agent
 * rule). */
int ttt__batch_take_agent_side(ttt_batch *batch, size_t index, int first);

/* In batch_bits.c, the bit path (batch->bit_games not NULL). */
/* The bit path's geometry and rules, from a checked config. */
void ttt__batch_bits_setup(ttt_batch *batch, const ttt_batch_config *config);
/* Empties game index for a new game; the agent takes its side for it and
 * the opponent opens when the agent is O. */
void ttt__batch_bits_start(ttt_batch *batch, size_t index, int first);
/* Game index's slot made the game its bit game is (for ttt_batch_game). */
void ttt__batch_bits_sync(const ttt_batch *batch, size_t index);
/* Game index set to the first len moves of board (checked on it). */
void ttt__batch_bits_set_moves(const ttt_batch *batch, size_t index,
                               const ttt__board *board, int32_t len);
/* ttt_batch_step on the bit path, out holding every output or NULL;
 * skip and final: ttt_batch_step_final's flags and planes, or NULL. */
void ttt__batch_bits_step(ttt_batch *batch, const int32_t *actions,
                          const uint8_t *skip, const ttt_batch_outputs *out,
                          uint8_t *final);
/* Game index's planes into dst (2 * nn values), side's marks (0 X, 1 O)
 * in plane 0. */
void ttt__batch_bits_final(const ttt_batch *batch, size_t index, int side,
                           uint8_t *dst);
/* The observation planes and the legal masks, into buffers big enough. */
void ttt__batch_bits_planes_u8(const ttt_batch *batch, uint8_t *planes);
void ttt__batch_bits_planes_f32(const ttt_batch *batch, float *planes);
void ttt__batch_bits_legal_mask(const ttt_batch *batch, uint8_t *mask);

#endif
