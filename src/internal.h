/* internal.h - private layout of the board and the game, shared by the library's source files. */
#ifndef TTT_INTERNAL_H
#define TTT_INTERNAL_H

#include "ttt.h"
#include "board.h"

/* TTT_THREADS (the meson option `threads`) gives every game its own lock. */
#if TTT_THREADS
#include <stdatomic.h>
#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
#endif
#endif

struct ttt_game {
#if TTT_THREADS
    /* Held for every read or change of the fields below. It comes first and
     * alone: a copy of the game copies everything from `board` on, and
     * never the lock, which other threads may be setting meanwhile. */
    atomic_flag lock;
#endif
    ttt__board board;
    int32_t state;       /* TTT_IN_PROGRESS .. TTT_DRAW */
    int32_t redo_count;  /* lifted cells just below board.empty_count */
    int8_t misere;
    int8_t early_draw;
    int8_t owns_memory;  /* 1 if alloc made this block */
    ttt_listener listener;
    void *listener_user;
    /* Listener calls go out one at a time, without the lock: `delivering`
     * names the thread inside one (NULL when none is), and every change
     * waits until it is NULL, so events arrive in the order of the changes.
     * `deliveries` counts finished calls, for ttt_set_listener to wait on. */
    const void *delivering;
    uint32_t deliveries;
    ttt_allocator alloc;
};

/* The mark that moves at ply (from 0): X on even plies, O on odd ones. */
static inline int ttt__mover_at(int32_t ply)
{
    return (ply & 1) ? TTT_O : TTT_X;
}

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

/* Lets other threads run while this one waits for something that is not
 * the lock (a listener call in progress on another thread). */
static inline void ttt__yield(void)
{
#if TTT_THREADS && !defined(__STDC_NO_THREADS__)
    thrd_yield();
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
