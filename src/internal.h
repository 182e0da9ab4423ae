/* internal.h - private layout of the board and the game, shared by the library's source files. */
#ifndef TTT_INTERNAL_H
#define TTT_INTERNAL_H

#include "ttt.h"
#include "board.h"

/* TTT_THREADS gives every game its own lock. It is on unless a build says
 * otherwise (-DTTT_THREADS=0, or the meson option threads=false), so
 * compiling the sources by hand keeps the header's thread-safety promise.
 * The lock needs C11 <stdatomic.h> only; a waiter yields the CPU through the
 * platform's call: SwitchToThread on Windows, sched_yield on POSIX, C11
 * thrd_yield elsewhere where <threads.h> exists, else it spins. <threads.h>
 * is never required: macOS, MSVC, mingw and older Android lack it. */
#ifndef TTT_THREADS
#define TTT_THREADS 1
#endif

#if TTT_THREADS
#if defined(__STDC_NO_ATOMICS__)
#error "libttt's per-game lock needs C11 <stdatomic.h>; build with -DTTT_THREADS=0 for one thread per game"
#endif
#include <stdatomic.h>
#if defined(_WIN32)
/* Declared here rather than through <windows.h>, whose macros (near, far,
 * min, max) would leak into every source file. kernel32 is always linked. */
__declspec(dllimport) int __stdcall SwitchToThread(void);
#define TTT__YIELD() ((void)SwitchToThread())
#elif defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#define TTT__YIELD() ((void)sched_yield())
#elif !defined(__STDC_NO_THREADS__) && defined(__has_include)
#if __has_include(<threads.h>)
#include <threads.h>
#define TTT__YIELD() thrd_yield()
#endif
#endif
#ifndef TTT__YIELD
#define TTT__YIELD() ((void)0) /* no yield call known here: spin */
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
    /* The redo stack: in its low 24 bits the lifted cells just below
     * board.empty_count; in the bits above, an undone ending
     * (TTT__ENDING_*) at its bottom, re-applied after those cells. Every
     * path that empties the stack stores 0 and so drops both. */
    int32_t redo_count;
    /* The ply limit rule as the empty-cell count at which the game is
     * drawn: board.nn - limit, or 0 without a limit, so that one compare
     * judges both the full board and the limit (see apply_move). A limit
     * of board.nn is the full board: it is no limit, and stored as none. */
    int32_t limit_empty;
    int8_t misere;
    int8_t early_draw;
    int8_t owns_memory;  /* 1 if alloc made this block */
    int8_t ending;       /* an ending that is not on the board: TTT__ENDING_* */
    ttt_listener listener;
    void *listener_user;
    /* The players' names, allocated from alloc the first time a name is
     * set and kept until the game is freed; NULL while no name was ever
     * set, so an unnamed game costs one pointer. */
    struct ttt__names *names;
    /* Listener calls go out one at a time, without the lock: `delivering`
     * names the thread inside one (NULL when none is), and every change
     * waits until it is NULL, so events arrive in the order of the changes.
     * `deliveries` counts finished calls, for ttt_set_listener to wait on. */
    const void *delivering;
    uint32_t deliveries;
    ttt_allocator alloc;
};

/* Endings that are not on the board, as stored in ttt_game.ending. */
#define TTT__ENDING_NONE 0
#define TTT__ENDING_X_RESIGNED 1
#define TTT__ENDING_O_RESIGNED 2
#define TTT__ENDING_AGREED 3

/* redo_count's two parts (cells number at most TTT_MAX_SIZE squared, 2^20). */
#define TTT__REDO_CELLS(count) ((count) & 0xFFFFFF)
#define TTT__REDO_ENDING(count) ((count) >> 24)
#define TTT__REDO_ENDING_ONLY(ending) ((int32_t)(ending) << 24)

/* Both players' names: valid UTF-8 without control characters, each
 * len[i] bytes long (0: no name), not NUL-terminated. Index 0 is X. */
typedef struct ttt__names {
    uint8_t len[2];
    char text[2][TTT_NAME_MAX];
} ttt__names;

static inline int ttt__name_index(int mark)
{
    return mark == TTT_X ? 0 : 1;
}

/* Checks that the len bytes at text are a name ttt_game_set_name takes:
 * TTT_OK, or TTT_E_NAME with *bad set to the offset of the first byte that
 * makes it invalid (TTT_NAME_MAX for a name too long). */
int ttt__check_name(const char *text, size_t len, size_t *bad);

/* The mark that moves at ply (from 0): X on even plies, O on odd ones. */
static inline int ttt__mover_at(int32_t ply)
{
    return (ply & 1) ? TTT_O : TTT_X;
}

/* The state after a line of mark was completed: in misère its player
 * loses. */
static inline int ttt__won_state(int misere, int mark)
{
    int winner = misere ? -mark : mark;
    return winner == TTT_X ? TTT_X_WON : TTT_O_WON;
}

/* Whether a position no line was completed in is drawn: the ply limit
 * reached (limit_empty, the empty-cell count at the limit, is 0 without a
 * limit, so a full board is the same compare), or under the early-draw rule
 * no live line (or window) left. The live count comes by address because it
 * is read only under that rule: the move path then loads nothing more than
 * the empty count and the limit. */
static inline int ttt__drawn(int early_draw, int32_t empty, int32_t limit_empty,
                             const int32_t *live)
{
    return empty <= limit_empty || (early_draw && *live == 0);
}

/* The state after mark was placed, leaving empty cells and live lines (or
 * windows) free of one of the marks; completed says whether it completed a
 * line. The one statement of the rules' order, for the game and the engine
 * alike: a completed line is judged before a full board or the ply limit,
 * and under the early-draw rule a position with no live line left is a
 * draw. */
static inline int ttt__state_after(int completed, int mark, int misere,
                                   int early_draw, int32_t empty,
                                   int32_t limit_empty, const int32_t *live)
{
    if (completed)
        return ttt__won_state(misere, mark);
    return ttt__drawn(early_draw, empty, limit_empty, live) ? TTT_DRAW
                                                            : TTT_IN_PROGRESS;
}

#if TTT_THREADS
/* The lock of a game reached through a const pointer. Writing it is
 * defined, as no game is ever defined const (games live in allocated or
 * caller-supplied memory); the round trip through uintptr_t says so to
 * -Wcast-qual. */
static inline atomic_flag *ttt__lock_flag(const ttt_game *game)
{
    return (atomic_flag *)(uintptr_t)&game->lock;
}
#endif

/* The per-game lock. A spin lock because a move, an undo and every small
 * read hold it for a handful of instructions, and because it costs one byte
 * where a mutex would double a 3x3 game's footprint. Some holds are longer:
 * save, clone, ttt_board, ttt_legal_moves and the engine's snapshot copy the
 * board (O(N * N)), and a playout holds it for a whole game; waiters yield
 * the CPU meanwhile rather than spin on it.
 * Reading functions take it too, through a const pointer: the lock is the
 * one field that may change under a const game. */
static inline void ttt__lock(const ttt_game *game)
{
#if TTT_THREADS
    atomic_flag *lock = ttt__lock_flag(game);
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
        TTT__YIELD();
#else
    (void)game;
#endif
}

static inline void ttt__unlock(const ttt_game *game)
{
#if TTT_THREADS
    atomic_flag_clear_explicit(ttt__lock_flag(game), memory_order_release);
#else
    (void)game;
#endif
}

/* Lets other threads run while this one waits for something that is not
 * the lock (a listener call in progress on another thread). */
static inline void ttt__yield(void)
{
#if TTT_THREADS
    TTT__YIELD();
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

/* ------------------------------------------------------------------------ */
/* Changes and their events, shared by game.c and playout.c (game.c tells   */
/* why events go out this way).                                             */

#if TTT_THREADS && defined(_MSC_VER) && !defined(__clang__)
extern __declspec(thread) char ttt__thread_name;
#elif TTT_THREADS
extern _Thread_local char ttt__thread_name;
#else
extern const char ttt__thread_name;
#endif

static inline const void *this_thread(void)
{
    return &ttt__thread_name;
}

typedef struct pending_event {
    ttt_listener listener; /* NULL: nothing to deliver */
    void *user;
    ttt_event event;
} pending_event;

static inline int ply_of(const ttt_game *game)
{
    return game->board.nn - game->board.empty_count;
}

int ttt__wait_for_delivery(ttt_game *game);

/* Takes the lock for a change, once no listener call is in progress.
 * TTT_E_IN_LISTENER, without the lock, if the caller is the thread inside
 * this game's listener. Inline: on the move path it is the lock and one
 * test. */
static inline int lock_for_change(ttt_game *game)
{
    ttt__lock(game);
    if (!game->delivering)
        return TTT_OK;
    return ttt__wait_for_delivery(game);
}

/* Under the lock, right after a change: the event for the listener, if
 * there is one, and the game marked as delivering it. */
static inline void capture(ttt_game *game, pending_event *pending, int kind,
                    int mark, int row, int col)
{
    pending->listener = game->listener;
    if (!pending->listener)
        return;
    pending->user = game->listener_user;
    pending->event.kind = kind;
    pending->event.mark = mark;
    pending->event.row = row;
    pending->event.col = col;
    pending->event.ply = ply_of(game);
    pending->event.state = game->state;
    game->delivering = this_thread();
}

/* Calls the captured listener, the caller having let the lock go, then
 * takes the lock back and lets the next change in. Returns holding it. */
static inline void deliver_and_lock(ttt_game *game, const pending_event *pending)
{
    pending->listener(pending->user, &pending->event);
    ttt__lock(game);
    game->delivering = NULL;
    game->deliveries++;
}

/* The state after mark completes a line: in misère its player loses. */
static inline int state_won_by(const ttt_game *game, int mark)
{
    return ttt__won_state(game->misere, mark);
}

/* Places mark, already checked legal, and settles the state as
 * ttt__state_after does (keep the two alike); written out because calling
 * it costs the move path an instruction: the common case, the game going
 * on, then stores nothing and loads only the empty count and the limit. */
static inline void apply_move(ttt_game *game, int mark, int row, int col)
{
    ttt__board *board = &game->board;
    if (ttt__board_place(board, row, col, mark))
        game->state = ttt__won_state(game->misere, mark);
    else if (board->empty_count <= game->limit_empty ||
             (game->early_draw && board->live == 0))
        game->state = TTT_DRAW; /* limit_empty is 0 without a ply limit */
}

/* The bytes of game's block: its footprint, from its own geometry (use this
 * rather than ttt_game_footprint, which takes a square's size). Size and
 * win length never change, so no lock is needed. */
size_t ttt__game_bytes(const ttt_game *game);

/* Copies game, which the caller holds locked, into mem (ttt__game_bytes
 * bytes): a game of its own, with a free lock and no listener. */
ttt_game *ttt__game_copy(void *mem, const ttt_game *game);

#endif /* TTT_INTERNAL_H */
