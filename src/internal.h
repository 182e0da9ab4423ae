/* internal.h - private layout of the board and the game, shared by the library's source files. */
#ifndef TTT_INTERNAL_H
#define TTT_INTERNAL_H

#include "ttt.h"

/* TTT_THREADS (the meson option `threads`) gives every game its own lock. */
#if TTT_THREADS
#include <stdatomic.h>
#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
#endif
#endif

/* One whole line (K = N): X adds +1 and O adds -1 to sum; fill counts marks.
 * The line holds a single kind of mark exactly when |sum| == fill. */
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
    int32_t live;        /* lines (K = N) or K-windows still free of one mark */
    int32_t track_live;  /* K < N only: keep live up to date (O(K) a move) */
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
/* Puts mark on the empty cell (row, col); returns 1 if that completed a line
 * of K. The caller has checked the cell. */
int ttt__board_place(ttt__board *board, int row, int col, int mark);
/* Removes the most recently placed mark; returns its packed cell. The board
 * must not be empty. */
int32_t ttt__board_lift(ttt__board *board);
/* The completed line of at least K through (row, col) holding mark, first
 * of row, column, diagonal, anti-diagonal; returns 1 and its ends, or 0. */
int ttt__board_line_through(const ttt__board *board, int row, int col,
                            int mark, int ends[4]);

struct ttt_game {
#if TTT_THREADS
    atomic_flag lock;    /* held for every read or change of the fields below */
#endif
    ttt__board board;
    int32_t state;       /* TTT_IN_PROGRESS .. TTT_DRAW */
    int32_t redo_count;  /* lifted cells just below board.empty_count */
    int8_t misere;
    int8_t early_draw;
    int8_t owns_memory;  /* 1 if alloc made this block */
    ttt_listener listener;
    void *listener_user;
    ttt_allocator alloc;
};

/* The per-game lock. A spin lock because every critical section but save,
 * load and clone is a handful of instructions, and because it costs one byte
 * where a mutex would double a 3x3 game's footprint. Waiters yield the CPU.
 * Reading functions take it too, through a const pointer: the lock is the
 * one field that may change under a const game. */
static inline void ttt__lock(const ttt_game *game)
{
#if TTT_THREADS
    atomic_flag *lock = &((ttt_game *)game)->lock;
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire)) {
#if !defined(__STDC_NO_THREADS__)
        thrd_yield();
#endif
    }
#else
    (void)game;
#endif
}

static inline void ttt__unlock(const ttt_game *game)
{
#if TTT_THREADS
    atomic_flag_clear_explicit(&((ttt_game *)game)->lock, memory_order_release);
#else
    (void)game;
#endif
}

/* A fresh, unheld lock for a game just laid out or copied. */
static inline void ttt__lock_init(ttt_game *game)
{
#if TTT_THREADS
    atomic_flag_clear(&game->lock);
#else
    (void)game;
#endif
}

#endif /* TTT_INTERNAL_H */
