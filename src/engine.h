/* engine.h - what the engine's files share: its use of the game's allocator, one-block scratch memory, the snapshot of a game, the symmetries of the board. */
#ifndef TTT_ENGINE_H
#define TTT_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "sizes.h"

/*
 * Everything here reads a game through a snapshot taken under the game's
 * lock and then works on memory of its own, so a search never holds the lock
 * and never changes the game. Memory comes from the game's
 * allocator and is released before each call returns. Nothing reads a clock:
 * the same arguments give the same answer on every platform.
 */

/* ------------------------------------------------------------------------ */
/* Whose move                                                                */

/*
 * The engine names a player by an index p: 0 for X, 1 for O, the index of
 * every per-player array, and the player to move is the ply's parity
 * (sboard_mover). The game's marks (TTT_X, TTT_O) appear only where the
 * engine reads a snapshot or hands back a state, through these two.
 */
static inline int ttt__player_of(int mark)
{
    return mark == TTT_X ? 0 : 1;
}

static inline int ttt__mark_of(int p)
{
    return p == 0 ? TTT_X : TTT_O;
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */

static inline void *engine_alloc(const ttt_game *game, size_t bytes)
{
    /* The allocator is fixed at creation, so reading it needs no lock. A
     * size that overflowed is never asked for. */
    if (!ttt__size_ok(bytes))
        return NULL;
    return game->alloc.alloc(game->alloc.user, bytes ? bytes : 1);
}

static inline void engine_free(const ttt_game *game, void *ptr)
{
    if (ptr)
        game->alloc.dealloc(game->alloc.user, ptr);
}

/* Hands out 8-byte aligned pieces of one block, so a search makes one
 * allocation for all of its arrays. Sizing and carving share the code: with
 * base NULL it only adds up the bytes. */
typedef struct carver {
    char *base;
    size_t used;
    int overflow;
} carver;

static inline void *carve(carver *parts, size_t count, size_t elem)
{
    size_t bytes = ttt__size_round(ttt__size_mul(count, elem), 8);
    if (!ttt__size_ok(ttt__size_add(parts->used, bytes))) {
        parts->overflow = 1;
        return NULL;
    }
    void *piece = parts->base ? parts->base + parts->used : NULL;
    parts->used += bytes;
    return piece;
}

/* ------------------------------------------------------------------------ */
/* Snapshot                                                                  */

/* What the engine needs of a game, copied under its lock. */
typedef struct snapshot {
    int32_t n;       /* the width (row stride); a square's side */
    int32_t k;
    int32_t nn;      /* width * height */
    int32_t width;   /* columns */
    int32_t height;  /* rows */
    int32_t gravity; /* 1: a mark drops to the lowest empty cell of its column */
    int32_t ply;
    int32_t state;
    int32_t misere;
    int32_t early_draw;
    int32_t limit_empty; /* the game's ply limit as an empty-cell count, 0: none */
    int8_t *cells; /* nn = width * height marks, row-major; memory owned by the caller */
} snapshot;

/* Size and win length never change after creation, so the caller can size
 * snap->cells before taking the lock. */
static inline void take_snapshot(const ttt_game *game, snapshot *snap)
{
    snap->n = game->board.n;
    snap->k = game->board.k;
    snap->nn = game->board.nn;
    snap->width = game->board.width;
    snap->height = game->board.height;
    ttt__lock(game);
    snap->gravity = game->board.gravity;
    snap->ply = game->board.nn - game->board.empty_count;
    snap->state = game->state;
    snap->misere = game->misere;
    snap->early_draw = game->early_draw;
    snap->limit_empty = game->limit_empty;
    for (int32_t cell = 0; cell < snap->nn; cell++)
        snap->cells[cell] = (int8_t)ttt__board_mark(&game->board, cell);
    ttt__unlock(game);
}

/* ------------------------------------------------------------------------ */
/* Symmetries of the square                                                  */

/* The image of (row, col) under symmetry s of the n x n square: the four
 * rotations, then the four reflections. */
static inline int32_t symmetric_cell(int32_t n, int s, int32_t row, int32_t col)
{
    int32_t m = n - 1;
    switch (s) {
    case 0: return row * n + col;
    case 1: return col * n + (m - row);
    case 2: return (m - row) * n + (m - col);
    case 3: return (m - col) * n + row;
    case 4: return row * n + (m - col);
    case 5: return (m - row) * n + col;
    case 6: return col * n + row;
    default: return (m - col) * n + (m - row);
    }
}

/* The symmetry that undoes symmetry s. */
static const int inverse_symmetry[8] = {0, 3, 2, 1, 4, 5, 6, 7};

/* ------------------------------------------------------------------------ */
/* Symmetries of a W x H board                                               */

/* The image of (row, col) under symmetry s (numbered as for the square) of
 * a board width columns wide and height rows high. The rotations by 90
 * degrees and the diagonal reflections (1, 3, 6, 7) need width == height. */
static inline int32_t symmetric_cell_wh(int32_t width, int32_t height, int s,
                                        int32_t row, int32_t col)
{
    int32_t right = width - 1, bottom = height - 1;
    switch (s) {
    case 0: return row * width + col;
    case 2: return (bottom - row) * width + (right - col);
    case 4: return row * width + (right - col);
    case 5: return (bottom - row) * width + col;
    default: return symmetric_cell(width, s, row, col);
    }
}

/* The symmetries a board keeps, written to ids (room for 8), identity
 * first; returns how many. A square has all eight; a rectangle the
 * identity, the two mirrors and the half turn; under gravity only the
 * left-right mirror keeps every column's bottom at the bottom. */
static inline int board_symmetries(int32_t width, int32_t height, int gravity,
                                   int ids[8])
{
    static const int square[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    static const int rectangle[4] = {0, 4, 5, 2};
    static const int upright[2] = {0, 4};
    const int *from = gravity ? upright : width == height ? square : rectangle;
    int count = gravity ? 2 : width == height ? 8 : 4;
    for (int i = 0; i < count; i++)
        ids[i] = from[i];
    return count;
}

#endif /* TTT_ENGINE_H */
