/* ttt.h - the public API of libttt, an embeddable tic-tac-toe (m,n,k) engine. */
#ifndef TTT_H
#define TTT_H

/*
 * libttt plays tic-tac-toe on an N x N board with K in a row to win, and
 * (since 1.3) m,n,k games on W x H rectangles, with or without gravity
 * (Connect Four is 7 x 6, K = 4, with TTT_RULE_GRAVITY).
 *
 * Conventions (they hold for every function below):
 *   - Every function that can fail returns an int status: TTT_OK (0) or a
 *     negative TTT_E_* code. Results come back through out-parameters.
 *   - A call that fails changes nothing: not the game, not the out-parameters
 *     (except the documented "needed length" of a too-small buffer and the
 *     error offset of a parse failure).
 *   - Nothing in the library aborts, asserts on its input, prints or exits.
 *   - Rows and columns are 0-based; row 0 is the top row, column 0 the left.
 *   - There is no global state: two games never share anything.
 *   - Types at the boundary are plain integers, pointers and caller-owned
 *     buffers with an explicit capacity, so the API can be called through FFI
 *     (Python ctypes, Rust extern "C") without a C compiler.
 *
 * Every constant's value is written out here and never changes once released;
 * new constants and functions are only ever added.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Platforms and ABI. libttt is C11 with <stdatomic.h> (for the per-game
 * lock; see ttt_game) and needs nothing else: no <threads.h>, no POSIX
 * threads, no allocator but the one given. It builds and passes its tests
 * on Linux (x86_64, i386, aarch64, s390x: 32- and 64-bit, little- and
 * big-endian) and Windows (mingw-w64). Within major version 1 the ABI only
 * grows: a released function keeps its symbol (versioned LIBTTT_1.x on
 * ELF), parameters and return type, and a released struct below keeps its
 * size and field offsets; ttt_game stays opaque and may change inside.
 *
 * TTT_API marks exported functions; the shared library exports nothing else.
 * Windows: libttt's meson build defines TTT_BUILDING_DLL for the DLL's own
 * sources only. A program linking the static library needs no define; one
 * using the DLL may define TTT_USING_DLL (dllimport, one indirection less)
 * and works without it too.
 */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TTT_BUILDING_DLL)
#define TTT_API __declspec(dllexport)
#elif defined(TTT_USING_DLL)
#define TTT_API __declspec(dllimport)
#else
#define TTT_API
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define TTT_API __attribute__((visibility("default")))
#else
#define TTT_API
#endif

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */

#define TTT_VERSION_MAJOR 1
#define TTT_VERSION_MINOR 5
#define TTT_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, e.g. 10400 for 1.4.0. */
#define TTT_VERSION_NUMBER \
    (TTT_VERSION_MAJOR * 10000 + TTT_VERSION_MINOR * 100 + TTT_VERSION_PATCH)

/* The version of the library actually linked, as TTT_VERSION_NUMBER would
 * compute it. Compare it with TTT_VERSION_NUMBER at start-up to detect a
 * header/library mismatch. */
TTT_API int ttt_version(void);
/* The same version as a static string, e.g. "1.4.0". Never NULL. */
TTT_API const char *ttt_version_string(void);

/* ------------------------------------------------------------------------ */
/* Constants                                                                 */
/* ------------------------------------------------------------------------ */

/* Marks. The value of a mark is the sign it adds to the line counters. */
#define TTT_EMPTY 0
#define TTT_X 1
#define TTT_O (-1)

/* Game states, as returned by ttt_state() and ttt_play(). */
#define TTT_IN_PROGRESS 0
#define TTT_X_WON 1
#define TTT_O_WON 2
#define TTT_DRAW 3

/* Status codes. TTT_OK is success; every error is negative. */
#define TTT_OK 0
#define TTT_E_INVALID (-1)      /* NULL game or pointer, or a bad argument */
#define TTT_E_NOMEM (-2)        /* an allocation failed */
#define TTT_E_SIZE (-3)         /* board size or win length out of range */
#define TTT_E_MARK (-4)         /* mark is neither TTT_X nor TTT_O */
#define TTT_E_OFF_BOARD (-5)    /* row or column outside the board */
#define TTT_E_OCCUPIED (-6)     /* the cell already holds a mark */
#define TTT_E_WRONG_TURN (-7)   /* it is the other player's turn */
#define TTT_E_GAME_OVER (-8)    /* the game has ended; undo to reopen it */
#define TTT_E_NO_UNDO (-9)      /* no move to undo */
#define TTT_E_NO_REDO (-10)     /* no undone move to redo */
#define TTT_E_RULE (-11)        /* unknown rule, or a value it does not take */
#define TTT_E_RULES_LOCKED (-12) /* rules change only before the first move */
#define TTT_E_PARSE (-13)       /* a saved record or cell name is malformed */
#define TTT_E_BUFFER (-14)      /* the caller's buffer is too small */
#define TTT_E_NO_LINE (-15)     /* the game has no completed line */
#define TTT_E_RANGE (-16)       /* an index (such as a ply) is out of range */
#define TTT_E_STALE (-17)       /* the request was made for another ply */
#define TTT_E_BUDGET (-18)      /* a search ran out of its node budget */
#define TTT_E_OVERFLOW (-19)    /* a count does not fit in 64 bits */
#define TTT_E_IN_LISTENER (-20) /* a listener tried to change its own game (since 1.2) */
#define TTT_E_NAME (-21)        /* a player name is too long, not UTF-8 or has control characters (since 1.2) */
#define TTT_E_FLOATING (-22)    /* gravity: the cell is not the lowest empty one of its column (since 1.3) */
#define TTT_E_COLUMN_FULL (-23) /* gravity: the column has no empty cell (since 1.3) */

/* Board limits: 3 <= size <= TTT_MAX_SIZE and 3 <= win_length <= size; on
 * a rectangle (since 1.3) 3 <= width, height <= TTT_MAX_SIZE and
 * 3 <= win_length <= max(width, height). */
#define TTT_MIN_SIZE 3
#define TTT_MAX_SIZE 1024

/* A static English message for any int, never NULL. Unknown values give
 * "unknown error". */
TTT_API const char *ttt_strerror(int status);

/* ------------------------------------------------------------------------ */
/* Creating and destroying games                                             */
/* ------------------------------------------------------------------------ */

/* An opaque game: the board, its line counters, the move history and the
 * redo stack. Its layout is private and may change between releases.
 * Thread safety: every function may be called on the same game from any
 * number of threads at once; each game has its own lock, so a move is applied
 * whole or not at all and readers never see half of one. Different games
 * share nothing and never contend. The lock is a C11 atomic_flag spin lock
 * whose waiters yield the CPU (SwitchToThread on Windows, sched_yield on
 * POSIX, thrd_yield elsewhere where C11 threads exist). It is on in every
 * build, including the files of src/ compiled by hand with cc -std=c11
 * -Iinclude -c, unless the build says otherwise: the meson option threads=false
 * or -DTTT_THREADS=0 drops it, and then one thread at a time per game.
 * ttt_game_free must not race with other calls on the same game. */
typedef struct ttt_game ttt_game;

/* A caller-supplied allocator. alloc returns memory aligned for any object
 * type (as malloc does) or NULL; dealloc releases what alloc returned. Both
 * receive user unchanged. The game keeps a copy of this struct, so the
 * caller's instance need not outlive the call. This struct never changes. */
typedef struct ttt_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*dealloc)(void *user, void *ptr);
    void *user;
} ttt_allocator;

/* Creates a game on a size x size board where win_length in a row wins
 * (0 means size: full rows, columns and diagonals). Classic rules: X moves
 * first, no early draw, completing a line wins.
 * Makes exactly one allocation (malloc); the game never allocates again,
 * but for the block of the first player name set (ttt_game_set_name).
 * Returns TTT_OK and sets *out, TTT_E_INVALID if out is NULL, TTT_E_SIZE
 * for a size or win length out of range, TTT_E_NOMEM. */
TTT_API int ttt_game_new(int size, int win_length, ttt_game **out);

/* As ttt_game_new, with allocations made by alloc (NULL means malloc). */
TTT_API int ttt_game_new_with(int size, int win_length,
                              const ttt_allocator *alloc, ttt_game **out);

/* The bytes ttt_game_init needs for this size and win length, or 0 if they
 * are out of range. */
TTT_API size_t ttt_game_footprint(int size, int win_length);

/* Builds a game inside caller memory of mem_size bytes (at least
 * ttt_game_footprint(size, win_length), aligned like malloc's result), for
 * hosts without a heap. The game never allocates (unless it is given a
 * player name: see ttt_game_set_name). Release it with ttt_game_free
 * (which then frees nothing but that name block) before reusing the
 * memory.
 * Returns TTT_E_INVALID for NULL pointers or misaligned memory, TTT_E_SIZE,
 * or TTT_E_BUFFER if mem_size is too small. */
TTT_API int ttt_game_init(void *mem, size_t mem_size, int size,
                          int win_length, ttt_game **out);

/*
 * Rectangular boards (since 1.3): width columns, height rows, win_length in
 * a row to win, with 3 <= width, height <= TTT_MAX_SIZE and
 * 3 <= win_length <= max(width, height); win_length 0 means
 * min(width, height). A line (row, column or diagonal run) shorter than
 * win_length can never win: on a 7 x 3 board with K = 4 only rows and the
 * diagonals' windows of four that fit count, and no column ever wins.
 * Cells are numbered row * width + col everywhere (row 0 is the top row).
 * A square made here is the same game as ttt_game_new's, with the same
 * costs and record. On a rectangle (width != height) a move costs
 * O(win_length) (a scan of the cells around it in four directions), an
 * undo O(1) (O(win_length) under early draw); nothing allocates after
 * creation, as for squares.
 * Errors as ttt_game_new, ttt_game_new_with, ttt_game_footprint and
 * ttt_game_init, whose rectangular forms these are.
 */
TTT_API int ttt_game_new_rect(int width, int height, int win_length,
                              ttt_game **out);
TTT_API int ttt_game_new_rect_with(int width, int height, int win_length,
                                   const ttt_allocator *alloc,
                                   ttt_game **out);
/* The bytes ttt_game_init_rect needs, or 0 for a geometry out of range.
 * About 8 * width * height bytes plus 2 * width and a fixed header. */
TTT_API size_t ttt_game_footprint_rect(int width, int height, int win_length);
TTT_API int ttt_game_init_rect(void *mem, size_t mem_size, int width,
                               int height, int win_length, ttt_game **out);

/* Releases a game. NULL is a no-op. */
TTT_API void ttt_game_free(ttt_game *game);

/* Makes an independent copy of game (board, rules, history and redo stack;
 * not the listener), allocated like the original (malloc for a game built
 * with ttt_game_init). One allocation, and one more for the players' names
 * if the game has a name block (see ttt_game_set_name). */
TTT_API int ttt_game_clone(const ttt_game *game, ttt_game **out);

/* Empties the board and the history (and the redo stack) and reopens a
 * resigned or agreed game. Size, win length, rules, player names and
 * listener are kept. Notifies the listener with TTT_EVENT_RESET. */
TTT_API int ttt_game_reset(ttt_game *game);

/* ------------------------------------------------------------------------ */
/* Rules                                                                     */
/* ------------------------------------------------------------------------ */

/* Misère: completing a line loses instead of winning. Value 0 or 1. */
#define TTT_RULE_MISERE 1
/* Early draw: the game is drawn as soon as every possible line (every row,
 * column and diagonal run of win_length cells) holds both marks, so nobody
 * can complete one. Value 0 or 1. Costs O(1) per move for win_length = size
 * and O(win_length) otherwise. */
#define TTT_RULE_EARLY_DRAW 2

/* Ply limit (since 1.2): the game is drawn when this many moves have been
 * played without a result (a line, a full board or an early draw on the
 * same move takes precedence). Value 0 (no limit, the default) or
 * 1 .. width * height (size * size on a square); that many is the full
 * board, the same game as no limit, and reads back as 0. Costs nothing per move. It is a rule of
 * ttt_play, ttt_play_next, ttt_play_at, ttt_redo and ttt_game_load, and
 * of the engine below: perft, the position count, the solver and the bots
 * judge a position at the limit as drawn, and random playouts stop there. */
#define TTT_RULE_PLY_LIMIT 3

/* Gravity (since 1.3): a mark may only go to the lowest empty cell of its
 * column (row height - 1 is the bottom; rows are still counted from the
 * top), as in Connect Four. Value 0 or 1. ttt_play, ttt_play_next and
 * ttt_play_at then reject a cell above that one with TTT_E_FLOATING (and a
 * cell of a full column, which is taken, with TTT_E_OCCUPIED); ttt_drop
 * plays by column. The landing cell of a column is known in O(1); a move
 * costs O(win_length) (O(1) more than without gravity on a square with
 * K = N, which then also leaves its fastest path). Undo, redo, events,
 * records, clones, misère, early draw (still "no line can be completed",
 * which gravity cannot make possible again) and the ply limit work
 * unchanged. */
#define TTT_RULE_GRAVITY 4

/* Sets a rule. Only while the history is empty, the game open and nothing
 * to redo (a new or reset game); afterwards it returns TTT_E_RULES_LOCKED.
 * TTT_E_RULE for an unknown rule or a value outside 0..1 (0..width *
 * height for TTT_RULE_PLY_LIMIT). */
TTT_API int ttt_game_set_rule(ttt_game *game, int rule, int value);
/* Reads a rule's value into *value. TTT_E_RULE for an unknown rule. */
TTT_API int ttt_game_get_rule(const ttt_game *game, int rule, int *value);

/* ------------------------------------------------------------------------ */
/* Playing                                                                   */
/* ------------------------------------------------------------------------ */

/* Places mark at (row, col) and, if state is not NULL, stores the new game
 * state there. Checks in this order, returning the first failure:
 * TTT_E_INVALID (NULL game), TTT_E_IN_LISTENER (called from the game's own
 * listener, since 1.2), TTT_E_GAME_OVER, TTT_E_MARK, TTT_E_WRONG_TURN,
 * TTT_E_OFF_BOARD, TTT_E_OCCUPIED, and under gravity (since 1.3)
 * TTT_E_FLOATING for an empty cell above its column's lowest empty one.
 * A move that completes a line ends the game even if it also fills the
 * board. Clears the redo stack.
 * O(1) for win_length = size on a square without gravity, O(win_length)
 * otherwise; never allocates. */
TTT_API int ttt_play(ttt_game *game, int mark, int row, int col, int *state);

/* ttt_play for the side to move (since 1.2): one call where ttt_to_move
 * then ttt_play would take two, which matters through FFI. Checks in this
 * order: TTT_E_INVALID (NULL game), TTT_E_IN_LISTENER, TTT_E_GAME_OVER,
 * TTT_E_OFF_BOARD, TTT_E_OCCUPIED, TTT_E_FLOATING (gravity); otherwise exactly
 * ttt_play(game, ttt_to_move(game), row, col, state), under one lock, with
 * the same cost and the same event. */
TTT_API int ttt_play_next(ttt_game *game, int row, int col, int *state);

/* ttt_play for servers whose clients may retry: ply is the number of moves
 * the client believes were played before this one. If the game is at that
 * ply, this is ttt_play, with its checks in its order (so a finished game
 * gives TTT_E_GAME_OVER whatever the mark). At any other ply a mark other
 * than TTT_X or TTT_O gives TTT_E_MARK, then a negative ply TTT_E_RANGE; if
 * exactly this move (mark, row, col) was already played at that ply,
 * returns TTT_OK and changes nothing (no event): a retried request. Any
 * other ply or move returns TTT_E_STALE. *state (may be NULL) receives the
 * current state. */
TTT_API int ttt_play_at(ttt_game *game, int ply, int mark, int row, int col,
                        int *state);

/* Takes back the last move exactly (cell, counters, turn and state); works
 * after a win or a draw and reopens the game. The move goes on the redo
 * stack. O(1) for win_length = size. TTT_E_NO_UNDO on an empty history.
 * After a resignation or an agreed draw (since 1.2) it takes back that
 * ending instead, not a move: the game is open again at the same ply, and
 * the ending goes on the redo stack. */
TTT_API int ttt_undo(ttt_game *game);

/* Replays the most recently undone move, or the undone resignation or
 * agreed draw once the moves before it are replayed. TTT_E_NO_REDO if there
 * is none (a new move, resignation or agreement empties the redo stack). */
TTT_API int ttt_redo(ttt_game *game);

/* Drops a mark for the side to move into column col (since 1.3), with or
 * without gravity: it lands on the lowest empty cell of that column, which
 * is then played as ttt_play would (same checks after these, same event,
 * redo stack emptied). *row (may be NULL) receives the row it landed in,
 * *state (may be NULL) the state after. Checks in this order:
 * TTT_E_INVALID (NULL game), TTT_E_IN_LISTENER, TTT_E_GAME_OVER,
 * TTT_E_OFF_BOARD (col outside 0..width-1), TTT_E_COLUMN_FULL. Changes
 * nothing on error. O(1) to find the cell under gravity, O(height)
 * without it; the move costs as ttt_play's. Never allocates. */
TTT_API int ttt_drop(ttt_game *game, int col, int *row, int *state);

/* ------------------------------------------------------------------------ */
/* Players and endings (since 1.2)                                           */
/* ------------------------------------------------------------------------ */

/* The longest player name, in bytes, not counting a terminating NUL. */
#define TTT_NAME_MAX 64

/* Names side mark (TTT_X or TTT_O) with the len bytes at name: UTF-8
 * (shortest forms, no surrogates, at most U+10FFFF) without control
 * characters (U+0000..U+001F, U+007F..U+009F), at most TTT_NAME_MAX bytes.
 * len 0 (name may then be NULL) removes the name. The bytes are copied:
 * the caller's buffer need not live on. Names are kept by ttt_game_clone,
 * ttt_game_reset and the saved record; they may change at any time, even
 * after the game ended, and send no event.
 * The first name set allocates one block of about 130 bytes from the
 * game's allocator (malloc for a game built with ttt_game_init), kept
 * until ttt_game_free; no other call allocates for names, and the move
 * path never does. Errors, changing nothing: TTT_E_INVALID (NULL game, or
 * NULL name with len > 0), TTT_E_MARK, TTT_E_NAME, TTT_E_NOMEM. */
TTT_API int ttt_game_set_name(ttt_game *game, int mark, const char *name,
                              size_t len);

/* Copies the name of side mark into buf, NUL-terminated; *len receives its
 * length without the NUL (0 for no name). TTT_E_BUFFER (with *len set) if
 * capacity < *len + 1; buf may be NULL when capacity is 0. A capacity of
 * TTT_NAME_MAX + 1 always suffices. TTT_E_INVALID for a NULL game or len,
 * or a NULL buf with a capacity; TTT_E_MARK. */
TTT_API int ttt_game_get_name(const ttt_game *game, int mark, char *buf,
                              size_t capacity, size_t *len);

/* Side mark (TTT_X or TTT_O) resigns: the other side wins. Either side may
 * resign while the game is in progress, whoever is to move. *state (may be
 * NULL) receives TTT_O_WON when X resigns, TTT_X_WON when O does. Not a
 * move: the ply stays; it empties the redo stack and sends
 * TTT_EVENT_RESIGN. Checks in this order: TTT_E_INVALID, TTT_E_IN_LISTENER,
 * TTT_E_GAME_OVER, TTT_E_MARK. */
TTT_API int ttt_resign(ttt_game *game, int mark, int *state);

/* Both sides agree to a draw: the game ends drawn at its current ply. *state
 * (may be NULL) receives TTT_DRAW. Empties the redo stack and sends
 * TTT_EVENT_DRAW_AGREED. TTT_E_INVALID, TTT_E_IN_LISTENER, TTT_E_GAME_OVER. */
TTT_API int ttt_agree_draw(ttt_game *game, int *state);

/* How a game ended, as returned by ttt_ending. */
#define TTT_END_NONE 0       /* the game is in progress */
#define TTT_END_LINE 1       /* a completed line (in misère, a lost game) */
#define TTT_END_FULL_BOARD 2 /* every cell filled without a line */
#define TTT_END_NO_LINE 3    /* early draw: no line can be completed */
#define TTT_END_RESIGN 4     /* a side resigned: the loser in ttt_state */
#define TTT_END_AGREED 5     /* a draw by agreement */
#define TTT_END_PLY_LIMIT 6  /* drawn at the ply limit */

/* How the game ended: one of TTT_END_*, TTT_END_NONE while it is in
 * progress, or TTT_E_INVALID for a NULL game. A move that completes a line
 * is TTT_END_LINE even if it fills the board; a move that fills the board
 * is TTT_END_FULL_BOARD even if it also leaves no line or reaches the ply
 * limit; an early draw on the move that reaches the limit is
 * TTT_END_NO_LINE. */
TTT_API int ttt_ending(const ttt_game *game);

/* ------------------------------------------------------------------------ */
/* Reading a game                                                            */
/* ------------------------------------------------------------------------ */

/* These return their value, or TTT_E_INVALID for a NULL game. */
TTT_API int ttt_state(const ttt_game *game);      /* TTT_IN_PROGRESS .. TTT_DRAW */
/* N for a square board; TTT_E_SIZE for a rectangle (since 1.3), whose
 * sides ttt_width and ttt_height give. */
TTT_API int ttt_size(const ttt_game *game);
TTT_API int ttt_win_length(const ttt_game *game); /* K */
/* Since 1.3: the columns (width) and rows (height) of any board; a
 * square's are both its size. O(1), no lock. */
TTT_API int ttt_width(const ttt_game *game);
TTT_API int ttt_height(const ttt_game *game);
TTT_API int ttt_ply(const ttt_game *game);        /* moves played so far */
/* The steps ttt_redo can replay: moves, plus 1 for an undone resignation or
 * agreed draw (since 1.2). */
TTT_API int ttt_redo_count(const ttt_game *game);

/* TTT_X or TTT_O: whose move it is. TTT_EMPTY once the game is over, and for
 * a NULL game. */
TTT_API int ttt_to_move(const ttt_game *game);

/* The mark at (row, col) into *mark. TTT_E_OFF_BOARD off the board. */
TTT_API int ttt_cell(const ttt_game *game, int row, int col, int *mark);

/* The move played at ply (0 is the first move). TTT_E_RANGE unless
 * 0 <= ply < ttt_ply(game). Any out-pointer may be NULL. */
TTT_API int ttt_move_at(const ttt_game *game, int ply, int *mark, int *row,
                        int *col);

/* The completed line that ended the game (in misère, the losing line): its
 * two end cells, at least win_length cells apart inclusive, through the last
 * move. If that move completed several lines, the first of row, column,
 * diagonal (down-right), anti-diagonal (down-left) is reported.
 * TTT_E_NO_LINE if the game was not won. Any out-pointer may be NULL. */
TTT_API int ttt_winning_line(const ttt_game *game, int *row0, int *col0,
                             int *row1, int *col1);

/* Copies the board into cells, row-major, one int8_t mark per cell
 * (TTT_EMPTY, TTT_X or TTT_O); *len receives width * height. If capacity is
 * smaller than that, returns TTT_E_BUFFER and writes only *len. */
TTT_API int ttt_board(const ttt_game *game, int8_t *cells, size_t capacity,
                      size_t *len);

/* The cells where the side to move may play (since 1.2), as cell numbers
 * (row * width + col) in ascending order: every empty cell while the game
 * is in progress (under gravity, since 1.3, the landing cell of each column
 * that is not full: at most width of them), none once it is over. *len
 * receives their number. Board and state are read under one lock, so the
 * list is one moment's, even while other threads play; a capacity of
 * width * height always suffices. If capacity is smaller than *len,
 * returns TTT_E_BUFFER and writes only *len. TTT_E_INVALID for a NULL game
 * or len, or NULL cells with a capacity. O(width * height); under gravity
 * O(width log width); no allocation. */
TTT_API int ttt_legal_moves(const ttt_game *game, int32_t *cells,
                            size_t capacity, size_t *len);

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

#define TTT_EVENT_PLAY 1
#define TTT_EVENT_UNDO 2
#define TTT_EVENT_REDO 3
#define TTT_EVENT_RESET 4
/* Since 1.2, for the endings that are not moves; row and col are -1 and
 * they are delivered like the events above. */
#define TTT_EVENT_RESIGN 5       /* mark: the side that resigned */
#define TTT_EVENT_DRAW_AGREED 6  /* mark: TTT_EMPTY */
#define TTT_EVENT_UNDO_ENDING 7  /* a resignation (mark: who resigned) or
                                    agreement (TTT_EMPTY) taken back */
#define TTT_EVENT_REDO_ENDING 8  /* the same, re-applied by ttt_redo */

/* What changed. Written only by the library; new fields are only ever added
 * at the end. */
typedef struct ttt_event {
    int32_t kind;  /* TTT_EVENT_* */
    int32_t mark;  /* the mark placed (PLAY, REDO) or removed (UNDO); 0 for RESET;
                      for the endings, see their kinds */
    int32_t row;   /* the cell, or -1 for RESET */
    int32_t col;
    int32_t ply;   /* moves on the board after the event */
    int32_t state; /* the game state after the event */
} ttt_event;

/*
 * Called after each applied move, undo, redo and reset, never for a rejected
 * call, on the thread that made the change, before that call returns. The
 * event is valid only during the call.
 *
 * Order: the events of one game are delivered one at a time, in the order
 * of the changes they report (each event's ply follows from the one
 * before). A change made by another thread while the listener runs waits
 * until it returns; reading the game does not wait.
 *
 * Inside the listener, on its own game: every read-only function works and
 * sees the game as the event left it; ttt_set_listener works (the call in
 * progress is the caller's own, and it is the last call of the listener it
 * replaces). Every call that would change the game (ttt_play,
 * ttt_play_next, ttt_play_at, ttt_drop, ttt_undo, ttt_redo, ttt_game_reset,
 * ttt_random_playout, ttt_game_set_rule, ttt_game_set_name, ttt_resign,
 * ttt_agree_draw) changes nothing and returns TTT_E_IN_LISTENER (since
 * 1.2; earlier releases forbade these calls), checked right after
 * TTT_E_INVALID (and TTT_E_RULE for ttt_game_set_rule, TTT_E_MARK and
 * TTT_E_NAME for ttt_game_set_name).
 * The listener must not free its game.
 *
 * Other games may be changed from a listener, but such a change (or
 * ttt_set_listener) waits, like any, while that game's listener runs on
 * another thread. So two listeners running on two threads must not change
 * each other's games, and a listener must not wait for another thread that
 * changes its game or sets its listener: each would wait for the other.
 */
typedef void (*ttt_listener)(void *user, const ttt_event *event);

/* Installs listener (NULL removes it); user is passed back unchanged. Once
 * this returns, the listener it replaced is not running (unless the caller
 * is that listener) and will never be called again, so its user data may
 * be freed; every later event goes to the new listener. If another thread
 * is inside the old listener, this waits for that call to end. */
TTT_API int ttt_set_listener(ttt_game *game, ttt_listener listener,
                             void *user);

/* ------------------------------------------------------------------------ */
/* Notation: cell names and saved games                                      */
/* ------------------------------------------------------------------------ */

/*
 * A cell is named by its column letters then its 1-based row number: "a1" is
 * the top-left cell, "b3" is row 2, column 1. Columns past z continue as in
 * spreadsheets: z, aa, ab, ... Letters are lower case.
 */

/* Writes the name of (row, col) into buf as a NUL-terminated string; *len
 * receives its length without the NUL. TTT_E_BUFFER (with *len set) if
 * capacity < *len + 1. TTT_E_OFF_BOARD if row or col is outside
 * 0..TTT_MAX_SIZE-1; TTT_E_INVALID for a NULL len, or a NULL buf with a
 * non-zero capacity. */
TTT_API int ttt_cell_name(int row, int col, char *buf, size_t capacity,
                          size_t *len);

/* Parses a cell name at the start of text (reading at most len bytes) into
 * *row and *col; *used receives the bytes consumed (may be NULL). Accepts
 * lower or upper case letters. TTT_E_PARSE if no name starts there, or the
 * numbers exceed TTT_MAX_SIZE; TTT_E_INVALID for a NULL row or col, or NULL
 * text with len > 0. */
TTT_API int ttt_parse_cell(const char *text, size_t len, int *row, int *col,
                           size_t *used);

/*
 * Saved record, one line of text (grammar in docs/format.md):
 *   ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n
 *   ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d5\n     (since 1.3)
 * A square writes n=N; a rectangle writes w=W h=H in its place (a record
 * with w=N h=N is not canonical and does not load). "rules" is "classic"
 * or, joined by "+" in this order, any of "misere", "early-draw" and
 * (since 1.3) "gravity"; k is always written out (never 0); "moves" is "-"
 * for none. Moves are cell names, under gravity too. There is exactly one
 * canonical record per game, so a record that loads saves back byte for
 * byte; every record 1.2 wrote loads and saves back unchanged. Since 1.5
 * the loader also takes the record's line as a text editor or a mail may
 * leave it: with no final newline, with CR LF for LF, or followed by blank
 * lines (LF or CR LF); such a record saves back in its canonical form.
 */

/* Writes game's record into buf, NUL-terminated; *len receives the record's
 * length without the NUL. TTT_E_BUFFER (with *len set) if capacity is below
 * *len + 1; buf may be NULL when capacity is 0. Undone moves are not saved. */
TTT_API int ttt_game_save(const ttt_game *game, char *buf, size_t capacity,
                          size_t *len);

/* Parses a record of exactly len bytes and replays its moves under its rules
 * into a new game allocated by alloc (NULL means malloc), stored in *out.
 * On failure *out is unchanged and, if error_offset is not NULL, it receives
 * the byte offset of the first problem. Returns TTT_E_PARSE for malformed
 * text, TTT_E_SIZE for a bad n, w, h or k, the move's own code
 * (TTT_E_OCCUPIED, TTT_E_OFF_BOARD, TTT_E_GAME_OVER, TTT_E_FLOATING) for an
 * illegal move, TTT_E_NOMEM, and
 * TTT_E_INVALID for a NULL out, or NULL text with len > 0.
 * ttt_game_load_expected says what was wanted at that offset. */
TTT_API int ttt_game_load(const char *text, size_t len,
                          const ttt_allocator *alloc, ttt_game **out,
                          size_t *error_offset);

/* What ttt_game_load wanted at the offset where it refused text (since
 * 1.5): a static, never-NULL English phrase to print after the offset and
 * ttt_strerror's message, such as "\" k=\"", "a cell name: column letters
 * a-z, then a row from 1 (b2)", "\" x=\", \" o=\", \" end=\" or the end of the
 * line" or "a move that is legal after the moves before it". "" when text
 * loads (or is NULL with len > 0). Parses text again as ttt_game_load does,
 * with malloc: O(len) plus the moves' cost. */
TTT_API const char *ttt_game_load_expected(const char *text, size_t len);

/* ------------------------------------------------------------------------ */
/* Engine: random player, perft, solver and bots                             */
/* ------------------------------------------------------------------------ */

/*
 * These functions read a game and never change it (ttt_random_playout, which
 * plays, is the exception). They copy what they need under the game's lock
 * and search without holding it. They read no clock and keep no state
 * between calls: the same arguments give the same answer on every platform.
 * Memory for tables and search boards comes from the game's allocator
 * (malloc for a game built with ttt_game_init) and is released before the
 * call returns; the random player never allocates. A search call holds at
 * most its table cap plus O(size * size) bytes (under 200 a cell) and does
 * work in proportion to its node budget plus a few passes over the board:
 * each position looks only at the cells near the marks (so on a board
 * mostly near some mark, a position costs more).
 *
 * Random numbers come from a caller-owned uint64_t seed, any value, advanced
 * by splitmix64:
 *     seed += 0x9E3779B97F4A7C15;
 *     z = seed;
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     return z ^ (z >> 31);
 * A number below a bound b is the high 64 bits of the 128-bit product
 * next() * b, drawing again while the low 64 bits are below 2^64 mod b
 * (Lemire's method: exactly uniform). Cells are numbered row * width + col
 * (row * size + col on a square).
 */

/* A move chosen uniformly among the empty cells, into *row and *col; the
 * seed advances. The choice is an index into the game's list of empty
 * cells, whose order depends on the moves and undos made so far, so the same
 * seed and the same calls give the same move. O(1), no allocation.
 * Under gravity (since 1.3) the choice is uniform among the columns that
 * are not full (one draw below their number, counted from the left), and
 * the move is that column's landing cell: O(width).
 * TTT_E_GAME_OVER if the game has ended. */
TTT_API int ttt_random_move(const ttt_game *game, uint64_t *seed, int *row,
                            int *col);

/* Plays random moves until the game ends: the same moves, history and
 * events as calling ttt_random_move then ttt_play in a loop, with one lock
 * for the whole game (let go only while the listener runs). *state (may be
 * NULL) receives the final state. TTT_E_GAME_OVER if the game had already
 * ended. No allocation. */
TTT_API int ttt_random_playout(ttt_game *game, uint64_t *seed, int *state);

/* Monte Carlo: plays `games` random games from the game's position, each
 * the game ttt_random_playout would play on a copy of it (the seed carries
 * from one game to the next, so one call of G games equals G calls on fresh
 * copies), and sets results[TTT_X_WON], results[TTT_O_WON] and
 * results[TTT_DRAW] to how many ended each way (results[TTT_IN_PROGRESS] to
 * 0). The game is not changed and its listener is not called. Boards up to
 * 4x4 with K = N, no early draw and no gravity play every game in registers and
 * allocate nothing; others allocate two copies of the game, once per call,
 * from the game's allocator (TTT_E_NOMEM). TTT_E_GAME_OVER if the game has
 * ended. On an error neither *seed nor results[] changes.
 * games is the caller's time budget: the call plays every one of them, each
 * up to size * size moves at the cost of ttt_play, and nothing stops it
 * sooner; ask for fewer games, over several calls, to bound the time. */
TTT_API int ttt_random_playouts(const ttt_game *game, uint64_t *seed,
                                uint64_t games, uint64_t results[4]);

/*
 * Perft: counts every game (every sequence of legal moves) from the game's
 * position, played to its end or to `depth` plies, whichever comes first.
 * counts[] is indexed by the state the game is in at that point:
 *   counts[TTT_X_WON], counts[TTT_O_WON], counts[TTT_DRAW], and
 *   counts[TTT_IN_PROGRESS]: games still open after depth plies.
 * by_length[i] (i = 0 .. *by_length_len - 1) counts the games that end
 * after exactly i plies, plus, at i = depth, those still open; *by_length_len
 * is min(depth, empty cells) + 1, or 1 for a finished game (which counts as
 * one game of length 0). Pass by_length NULL, by_length_capacity 0 and
 * by_length_len NULL to skip the lengths; TTT_E_BUFFER (with
 * *by_length_len set, nothing else written) if the capacity is too small.
 * Games are counted through transpositions, a ply at a time over the
 * distinct positions, so the cost follows the number of positions: the
 * whole 4x4 game (about 10^13 games, ten million positions) takes seconds.
 * The position maps may use up to table_bytes (0 means 1 GiB); beyond that,
 * TTT_E_NOMEM. TTT_E_OVERFLOW if a count exceeds 2^64 - 1; TTT_E_INVALID for
 * a NULL game or counts, or a negative depth. The rules (misère, early draw)
 * are the game's.
 */
TTT_API int ttt_perft(const ttt_game *game, int depth, size_t table_bytes,
                      uint64_t counts[4], uint64_t *by_length,
                      size_t by_length_capacity, size_t *by_length_len);

/* Counts the distinct positions (boards) reachable from the game's position
 * in at most depth plies, itself included, by their state: counts[TTT_X_WON],
 * counts[TTT_O_WON], counts[TTT_DRAW] (finished positions) and
 * counts[TTT_IN_PROGRESS]. From the empty 3x3 board: 5478 positions, of which
 * 626 won by X, 316 by O and 16 drawn. Memory and errors as ttt_perft. */
TTT_API int ttt_count_positions(const ttt_game *game, int depth,
                                size_t table_bytes, uint64_t counts[4]);

/* Game values, always for the player to move. */
#define TTT_VALUE_LOSS (-1)
#define TTT_VALUE_DRAW 0
#define TTT_VALUE_WIN 1

/* ttt_solve flags. VALUE_ONLY skips the second pass: plies stays -1 and
 * best holds one move that achieves the value. */
#define TTT_SOLVE_VALUE_ONLY 1

/* The result of ttt_solve. Set size to sizeof(ttt_solution) before the call;
 * the library writes only the fields that fit in size bytes, and new fields
 * are only ever added at the end. */
typedef struct ttt_solution {
    size_t size;
    int32_t value;     /* TTT_VALUE_* for the player to move */
    int32_t plies;     /* plies to the end under optimal play, or -1 */
    uint64_t nodes;    /* positions searched */
    int32_t value_min; /* proven bounds: value_min <= true value <= value_max; */
    int32_t value_max; /* equal to value once the value is known */
    int32_t method;    /* how the value was proven: TTT_METHOD_* (since 1.3) */
    int32_t reserved;  /* 0: names the 4 bytes C would pad the struct with
                          (since 1.3); never given a meaning */
} ttt_solution;

/* ttt_solution.method (since 1.3): how the value was found.
 *   SEARCH   the search (or the rules, for a finished game);
 *   PAIRING  a pairing strategy for each side, with no search (nodes 0):
 *            every window a side could still complete has two empty cells
 *            of its own, disjoint over all windows, so the other side,
 *            answering a move on one cell of a pair with its partner, is
 *            never beaten. Both sides can, so the value is a draw, every
 *            empty cell keeps it (best lists them all) and the game runs to
 *            the full board (or the ply limit): plies. Found by a bipartite
 *            matching in microseconds, e.g. for (n,n,n) with n >= 5 from the
 *            empty board. Normal rules only (not misère); under the
 *            early-draw rule only with TTT_SOLVE_VALUE_ONLY (the shortest
 *            drawn ending needs the search). */
#define TTT_METHOD_SEARCH 0
#define TTT_METHOD_PAIRING 1
/*   THREATS  a VCF (since 1.3): the side to move wins by a line of fours,
 *            each reply forced, found by a threat-space search with no
 *            game-tree search (nodes: its positions, within a quarter of
 *            the node budget, or 65536 with none). Only with
 *            TTT_SOLVE_VALUE_ONLY (best: the VCF's first move; a full solve
 *            searches for the fastest wins), normal rules, no ply limit. */
#define TTT_METHOD_THREATS 2

/*
 * Solves the game's position exactly: its value for the player to move
 * (win, draw or loss under perfect play by both), the plies to the end
 * (the fastest win; the slowest loss; for a draw the plies until the board
 * is full, or under the early-draw rule the shortest drawn ending reachable
 * by value-keeping moves), and every optimal move: for a win those that win
 * fastest, for a loss those that lose slowest, for a draw those that keep
 * the draw. best receives them as cells (row * width + col), ascending, and
 * *best_len their number; a capacity of width * height always suffices.
 * best may be NULL with best_capacity 0 and best_len NULL.
 *
 * The value comes first: a pairing strategy for each side proves a draw with
 * no search where one exists, and with TTT_SOLVE_VALUE_ONLY a win by
 * continuous fours (VCF) is found by a threat-space search
 * (ttt_solution.method, since 1.3); otherwise
 * negamax alpha-beta with a transposition table keyed
 * by the eight symmetries of the board, threat detection and dead-window
 * pruning; the plies and the optimal moves come from a second pass, which
 * costs more and is skipped with TTT_SOLVE_VALUE_ONLY.
 *
 * Since 1.3, a TTT_SOLVE_VALUE_ONLY solve of a square board of 26 to 100
 * cells with K >= 4 under normal rules (not misère, no ply limit, no
 * gravity) takes a depth-first proof-number search instead of alpha-beta
 * (much faster there: (7,7,5) is a draw in about 64,000 positions, under
 * a second, proven by pairings of cells that the defender answers): the
 * value is the same, but nodes counts its positions, the move in best may
 * be another move of the same value, and the table holds its proof numbers
 * under the same cap (allocated whole at the start, 32 bytes a position,
 * never more than the budget can fill), keyed by 64-bit hashes on every
 * board; besides the table it holds less than half a MiB (a move list per
 * depth: 0.4 MiB on 10x10). (8,8,5), a draw, takes 56 million positions,
 * about five minutes, in the default 64 MiB. Full solves and smaller boards
 * are unchanged.
 *
 * Since 1.3, a gravity game under the classic rules (no misère, no early
 * draw, no ply limit) on a board with width * (height + 1) <= 64 (Connect
 * Four's 7x6 among them) is solved by a bitboard solver of its own, with
 * the same answers. Its table is allocated once, sized to the position
 * (8 bytes an entry, 2^16 entries or more where the cap allows) within the
 * same cap; a cap too small for its exact keys sends the position to the
 * general search.
 *
 * node_budget caps the positions searched (0: no cap). If it runs out, the
 * call returns TTT_E_BUDGET having written what it knows: value_min and
 * value_max bound the value (value = value_min), plies is -1 and best holds
 * at most one move, one that achieves value_min if any was proven, else
 * the search's first choice. If the value was found but not the second pass,
 * value_min = value_max = value.
 * table_bytes caps the transposition table (0: 64 MiB), which starts at
 * 256 KiB and grows only as the search needs, never beyond what the
 * position or the budget can use; the move lists of the search path have a
 * cap of the same size (at least 1 MiB), and a search that would pass it
 * stops as at its node budget, with TTT_E_BUDGET (only deep searches of huge
 * boards do). Positions more than 1024 plies from their end stop with
 * TTT_E_BUDGET. For boards
 * beyond 40 cells the table keys are 64-bit hashes, exact for smaller
 * boards.
 *
 * A finished game: value for the player who would move next (the loser of a
 * won game, or the winner in misère), plies 0, no moves, nodes 0.
 * Errors: TTT_E_INVALID (NULL game or out, out->size below the first
 * release's struct, unknown flags, NULL best with a capacity, best without
 * best_len), TTT_E_NOMEM, TTT_E_BUFFER (with *best_len set, nothing else
 * written).
 */
TTT_API int ttt_solve(const ttt_game *game, uint64_t node_budget,
                      size_t table_bytes, int flags, ttt_solution *out,
                      int32_t *best, size_t best_capacity, size_t *best_len);

/* Bot levels for ttt_best_move. */
#define TTT_BOT_RANDOM 0  /* ttt_random_move */
#define TTT_BOT_STRONG 1  /* heuristic search within a node budget */
#define TTT_BOT_PERFECT 2 /* an optimal move of ttt_solve */

/*
 * The bot's move for the player to move, into *row and *col.
 *   TTT_BOT_PERFECT: one of ttt_solve's optimal moves, chosen uniformly with
 *     the seed. node_budget 0 means unlimited; if it runs out, TTT_E_BUDGET.
 *     Perfect play is practical up to about 4x4 and 5x5 with K = 4.
 *   TTT_BOT_STRONG: for any board. With 16 or fewer empty cells it first
 *     tries the exact solver with half the budget (and then plays perfectly);
 *     otherwise, or if that runs out, iterative-deepening alpha-beta over the
 *     window weights within the budget (0 means 100000 positions, about
 *     0.1 s; for K > 25, 64000000 / (K * K) positions, as each costs more). Always takes a win in one, always blocks a win in one, sees
 *     double threats. The seed breaks ties among equal moves.
 *   TTT_BOT_RANDOM: ttt_random_move; the seed is required.
 * seed may be NULL for STRONG and PERFECT: ties then go to the first move.
 * The seed advances only on success. TTT_E_GAME_OVER if the game has ended;
 * TTT_E_INVALID for a NULL game, row or col, or an unknown level.
 */
TTT_API int ttt_best_move(const ttt_game *game, int level,
                          uint64_t node_budget, uint64_t *seed, int *row,
                          int *col);

/* ------------------------------------------------------------------------ */
/* Batches of games, for learning (since 1.4)                                */
/* ------------------------------------------------------------------------ */

/*
 * A batch is `count` games of one shape and one set of rules in one block of
 * memory, stepped together by one call that takes an array of actions and
 * writes arrays of rewards, flags and statuses, as reinforcement-learning
 * environments want. It plays exactly the single game's rules: each game
 * gives the rewards, states, boards, move histories and opponent moves an
 * ordinary ttt_game moved by the same calls would (ttt_play_next, ttt_drop,
 * ttt_resign, ttt_game_reset, ttt_best_move). Boards of at most 64 cells
 * counting a spare column (height * (width + 1) <= 64: 3x3, 4x4, Connect
 * Four's 7x6, up to 7x8) with self-play or the random opponent are kept
 * inside the batch as bitboards, a few nanoseconds a step; other games are
 * ttt_games moved by the game's own move path.
 *
 * Actions: without gravity an action is a cell, row * width + col, and
 * there are width * height of them; under gravity it is a column,
 * 0 .. width - 1 (there are width of them), and the mark drops as ttt_drop
 * drops it.
 *
 * The agent and the opponent. With opponent TTT_BATCH_SELF_PLAY the caller
 * acts for both sides: each step plays one move for the side to move in
 * every game. With an opponent (a TTT_BOT_* level) the caller acts for one
 * side, the agent, and the opponent's answer is played inside the same
 * step (and its first move right after a reset when the agent is O), so
 * every game the caller sees is the agent's turn. Its moves are
 * ttt_best_move's with the batch's opponent_budget and the game's own seed
 * (see ttt_batch_seed), so a batch and single games given the same seeds
 * play the same moves. If ttt_best_move fails (a TTT_BOT_PERFECT search out
 * of its budget), the opponent plays ttt_random_move with the same seed
 * instead.
 *
 * Rewards, for the side that acted this step (the agent, with an
 * opponent): +1 if the game ended this step won by that side, -1 if it
 * ended lost by that side, 0 for a draw or a game still going. The winner
 * is the game's: under misère the side that completes a line loses, so
 * completing one gives -1 (and the opponent completing one gives +1).
 * An illegal action in TTT_BATCH_ILLEGAL_LOSE mode ends the game as a loss
 * for the side that acted (ttt_resign), reward -1.
 *
 * terminated is 1 when the game ended by its rules (a line, a full board,
 * an early draw, an illegal-action loss); truncated is 1 when it was drawn
 * by the ply limit (TTT_RULE_PLY_LIMIT) and by nothing else. A game that
 * ends is reset at once (auto-reset, the opponent's first move included),
 * so the observations and masks written after a step show the new game;
 * the outcome array keeps the ended game's state (TTT_X_WON, TTT_O_WON,
 * TTT_DRAW) for that step, and TTT_IN_PROGRESS for the others.
 *
 * Observations are two planes per game, height x width each, row-major:
 * plane 0 holds 1 where the side to move has a mark, plane 1 where the
 * other side has one, 0 elsewhere; in all count x 2 x height x width
 * values (uint8_t or float). The legal-action mask is count x actions
 * uint8_t, 1 where the action is legal: under gravity the columns that are
 * not full, else the empty cells; the same moves as ttt_legal_moves.
 *
 * No global state: a batch shares nothing with another. A batch is used by
 * one thread at a time (its games are its own; calls on one batch must not
 * overlap, ttt_batch_game's included: it writes the game it returns). Stepping never allocates unless the opponent is TTT_BOT_STRONG
 * or TTT_BOT_PERFECT, whose searches allocate and free their tables as
 * ttt_best_move does.
 */
typedef struct ttt_batch ttt_batch;

/* ttt_batch_config.opponent: the caller plays both sides. Any other value
 * is a TTT_BOT_* level. */
#define TTT_BATCH_SELF_PLAY (-1)

/* ttt_batch_config.illegal: what an illegal action does. REJECT leaves
 * that game unchanged, writes its status (the code ttt_play_next or
 * ttt_drop gave, or TTT_E_OFF_BOARD for an action out of range), reward 0
 * and both flags 0. LOSE writes the status too, but ends that game as a
 * loss for the side that acted: reward -1, terminated 1, then auto-reset. */
#define TTT_BATCH_ILLEGAL_REJECT 0
#define TTT_BATCH_ILLEGAL_LOSE 1

/* The shape and rules of a batch. Set size to sizeof(ttt_batch_config);
 * the library reads only the fields that fit in size bytes, and new fields
 * are only ever added at the end. A zeroed struct with size, width, height
 * and opponent set is a classic game in self-play. */
typedef struct ttt_batch_config {
    size_t size;
    int32_t width;        /* columns, as ttt_game_new_rect */
    int32_t height;       /* rows */
    int32_t win_length;   /* K; 0 means min(width, height) */
    int32_t misere;       /* TTT_RULE_MISERE's value, 0 or 1 */
    int32_t early_draw;   /* TTT_RULE_EARLY_DRAW's value, 0 or 1 */
    int32_t gravity;      /* TTT_RULE_GRAVITY's value, 0 or 1 */
    int32_t ply_limit;    /* TTT_RULE_PLY_LIMIT's value, 0 for none */
    int32_t opponent;     /* TTT_BATCH_SELF_PLAY or a TTT_BOT_* level */
    int32_t agent;        /* with an opponent: TTT_X, TTT_O, or 0 for X in
                             the first game of each slot, then the other
                             side after every reset */
    int32_t illegal;      /* TTT_BATCH_ILLEGAL_* */
    uint64_t opponent_budget; /* ttt_best_move's node_budget */
} ttt_batch_config;

/* The outputs of ttt_batch_step, each an array of the batch's count
 * entries, any of them NULL to skip it. Set size to
 * sizeof(ttt_batch_outputs); fields that later releases add at the end
 * count as NULL for a caller whose size stops before them. */
typedef struct ttt_batch_outputs {
    size_t size;
    float *rewards;       /* +1, -1 or 0 for the side that acted */
    uint8_t *terminated;  /* 1: ended by the rules (or an illegal loss) */
    uint8_t *truncated;   /* 1: drawn by the ply limit alone */
    int32_t *status;      /* TTT_OK, or the illegal action's TTT_E_* code */
    int32_t *outcome;     /* the state the game ended in, or
                             TTT_IN_PROGRESS */
} ttt_batch_outputs;

/* The bytes a batch of count games with this config needs (for
 * ttt_batch_init), or 0 if the config is invalid (see ttt_batch_new) or
 * the size does not fit in size_t. About count * ttt_game_footprint_rect,
 * each rounded up to malloc's alignment, plus one more game and 9 bytes a
 * game, and for bitboard games (see the section's comment) 24 + 3 * width *
 * height bytes more a game. */
TTT_API size_t ttt_batch_footprint(const ttt_batch_config *config,
                                   size_t count);

/* Builds a batch of count games (count >= 1) in one allocation made by
 * alloc (NULL means malloc), every game new and empty (and, with an
 * opponent playing X, its first move made), every seed 0 (see
 * ttt_batch_seed). Returns TTT_OK and sets *out; TTT_E_INVALID for a NULL
 * config or out, config->size below this struct's first release, count 0,
 * an agent other than TTT_X, TTT_O or 0, an opponent other than
 * TTT_BATCH_SELF_PLAY or a TTT_BOT_* level, or an unknown illegal mode;
 * TTT_E_SIZE for a bad geometry; TTT_E_RULE for a rule value
 * ttt_game_set_rule refuses, or a ply_limit of 1 with an opponent and an
 * agent other than TTT_X (the opponent's opening move would end every
 * game before the agent acts); TTT_E_NOMEM. O(count * width * height). */
TTT_API int ttt_batch_new(const ttt_batch_config *config, size_t count,
                          const ttt_allocator *alloc, ttt_batch **out);

/* As ttt_batch_new in caller memory of mem_size bytes (at least
 * ttt_batch_footprint, aligned like malloc's result); no allocation.
 * TTT_E_INVALID also for NULL or misaligned memory, TTT_E_BUFFER if
 * mem_size is too small. Release with ttt_batch_free before reusing the
 * memory. */
TTT_API int ttt_batch_init(void *mem, size_t mem_size,
                           const ttt_batch_config *config, size_t count,
                           ttt_batch **out);

/* Releases a batch (its memory only if ttt_batch_new made it). NULL is a
 * no-op. */
TTT_API void ttt_batch_free(ttt_batch *batch);

/* The number of games, or 0 for a NULL batch. */
TTT_API size_t ttt_batch_count(const ttt_batch *batch);
/* The number of actions: width under gravity, else width * height; 0 for
 * a NULL batch. */
TTT_API int ttt_batch_action_count(const ttt_batch *batch);

/* Sets game i's opponent seed to seed + i * 0x9E3779B97F4A7C15 (mod 2^64),
 * for every i, so that each game's opponent draws its own numbers. The
 * opponent's moves of game i are ttt_best_move's with &seed_i. Changes no
 * game. TTT_E_INVALID for a NULL batch. O(count). */
TTT_API int ttt_batch_seed(ttt_batch *batch, uint64_t seed);

/* Resets every game to the empty board (ttt_game_reset), the agent's side
 * back to its first one, and plays the opponent's first move where it
 * plays X. Seeds are kept (call ttt_batch_seed for a reproducible start).
 * TTT_E_INVALID for a NULL batch. O(count) plus the opponent's moves. */
TTT_API int ttt_batch_reset(ttt_batch *batch);

/* Sets game index to the position after the actions moves[0 .. len - 1]
 * (cells, or columns under gravity, as ttt_batch_step takes them), played
 * alternately from X on an empty board, for curricula. With an opponent
 * the agent then plays the side to move. The position must be open:
 * TTT_E_GAME_OVER if the moves end the game. An illegal move returns its
 * code (as ttt_play_next or ttt_drop give it, TTT_E_OFF_BOARD for an action
 * out of range). On any failure the game is unchanged.
 * TTT_E_INVALID for a NULL batch, NULL moves with len > 0; TTT_E_RANGE for
 * index >= count. O(width * height + len). */
TTT_API int ttt_batch_set_moves(ttt_batch *batch, size_t index,
                                const int32_t *moves, size_t len);

/* Plays actions[i] for the side to move in every game i, then the
 * opponent's answer where there is one, and writes the outputs (see
 * ttt_batch_outputs and the section's comment: rewards, flags, statuses,
 * outcomes, auto-reset). outputs may be NULL to write nothing.
 * A batch of count games takes count actions. TTT_E_INVALID for a NULL
 * batch or actions, or outputs->size below this struct's first release;
 * then nothing changes. An illegal action is not an error of the call: it
 * is that game's status. Costs count moves (O(1) or O(win_length) each, as
 * ttt_play; a few word operations each on bitboards), plus the opponent's
 * searches. */
TTT_API int ttt_batch_step(ttt_batch *batch, const int32_t *actions,
                           const ttt_batch_outputs *outputs);

/* Writes the observation planes (see the section's comment) into planes,
 * count * 2 * height * width values. TTT_E_BUFFER if capacity (in values)
 * is smaller; TTT_E_INVALID for a NULL batch or planes. O(count * width *
 * height). */
TTT_API int ttt_batch_observe_u8(const ttt_batch *batch, uint8_t *planes,
                                 size_t capacity);
/* The same planes as float (0.0f and 1.0f). */
TTT_API int ttt_batch_observe_f32(const ttt_batch *batch, float *planes,
                                  size_t capacity);

/* Writes the legal-action masks, count * ttt_batch_action_count values,
 * 1 for a legal action, 0 otherwise. TTT_E_BUFFER if capacity is smaller;
 * TTT_E_INVALID for a NULL batch or mask. O(count * actions). */
TTT_API int ttt_batch_legal_mask(const ttt_batch *batch, uint8_t *mask,
                                 size_t capacity);

/* Game index of the batch, for reading (ttt_board, ttt_state,
 * ttt_legal_moves, ttt_game_save, ...) until the next call that changes
 * the batch. It must not be changed or freed. A bitboard game is written
 * into its ttt_game by this call, its moves replayed (O(width * height)).
 * TTT_E_INVALID for a NULL batch or out, TTT_E_RANGE for index >= count. */
TTT_API int ttt_batch_game(const ttt_batch *batch, size_t index,
                           const ttt_game **out);

/* As ttt_batch_step, with what an environment needs to show a finished
 * game's last position, as Gymnasium's vector environments do (its final
 * observation, or next-step autoreset) (since 1.5):
 * - final, unless NULL, receives for each game that ends in this step the
 *   planes of its last position, written before the game resets: the
 *   2 * height * width values at index * 2 * height * width, laid out as
 *   ttt_batch_observe_u8's, plane 0 holding the marks of the side the next
 *   observation is for (with an opponent the agent; in self-play the side
 *   that did not make the last move), plane 1 the other side's. The values
 *   of games that did not end are left as they were. capacity counts
 *   values; TTT_E_BUFFER, and nothing changes, if it is below count * 2 *
 *   height * width.
 * - skip, unless NULL, holds count flags: a game whose flag is not 0 is
 *   left as it is, its action ignored, with reward 0, both flags 0, status
 *   TTT_OK and outcome TTT_IN_PROGRESS written (the step after a game
 *   ended, under next-step autoreset: the game has already reset).
 * TTT_E_INVALID as ttt_batch_step. Costs what ttt_batch_step does, plus
 * O(width * height) for each game that ends. */
TTT_API int ttt_batch_step_final(ttt_batch *batch, const int32_t *actions,
                                 const uint8_t *skip,
                                 const ttt_batch_outputs *outputs,
                                 uint8_t *final, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* TTT_H */
