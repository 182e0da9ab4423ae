/* game.c - the rules of the game: creation, turns, states, history, undo/redo, endings, rule options and events. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int ttt_version(void)
{
    return TTT_VERSION_NUMBER;
}

/* The version string is spelled from the header's numbers, so the two
 * cannot disagree. */
#define VERSION_TEXT(x) #x
#define VERSION_DIGITS(x) VERSION_TEXT(x)

const char *ttt_version_string(void)
{
    return VERSION_DIGITS(TTT_VERSION_MAJOR) "." VERSION_DIGITS(
        TTT_VERSION_MINOR) "." VERSION_DIGITS(TTT_VERSION_PATCH);
}

const char *ttt_strerror(int status)
{
    switch (status) {
    case TTT_OK: return "success";
    case TTT_E_INVALID: return "invalid argument (NULL game or pointer, or a bad value)";
    case TTT_E_NOMEM: return "out of memory";
    case TTT_E_SIZE: return "board size or win length out of range";
    case TTT_E_MARK: return "mark must be X or O";
    case TTT_E_OFF_BOARD: return "cell is off the board";
    case TTT_E_OCCUPIED: return "cell is already occupied";
    case TTT_E_WRONG_TURN: return "it is the other player's turn";
    case TTT_E_GAME_OVER: return "the game is over";
    case TTT_E_NO_UNDO: return "no move to undo";
    case TTT_E_NO_REDO: return "no move to redo";
    case TTT_E_RULE: return "unknown rule or rule value";
    case TTT_E_RULES_LOCKED: return "rules can only change before the first move";
    case TTT_E_PARSE: return "malformed text";
    case TTT_E_BUFFER: return "buffer too small";
    case TTT_E_NO_LINE: return "the game has no completed line";
    case TTT_E_RANGE: return "index out of range";
    case TTT_E_STALE: return "stale request: the game is at another ply";
    case TTT_E_BUDGET: return "search stopped at its node budget";
    case TTT_E_OVERFLOW: return "count overflows 64 bits";
    case TTT_E_IN_LISTENER: return "a listener cannot change its own game";
    case TTT_E_NAME: return "invalid player name (too long, not UTF-8, or control characters)";
    case TTT_E_FLOATING: return "gravity: the cell is not the lowest empty cell of its column";
    case TTT_E_COLUMN_FULL: return "gravity: the column is full";
    default: return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */

/* The game header, rounded so the arrays behind it stay aligned. */
static size_t header_bytes(void)
{
    return ttt__size_round(sizeof(struct ttt_game), 8);
}

static int valid_side(int side)
{
    return side >= TTT_MIN_SIZE && side <= TTT_MAX_SIZE;
}

/* A square's rule (K <= N) is the rectangle's with both sides N. */
static int valid_geometry(int width, int height, int win_length)
{
    if (!valid_side(width) || !valid_side(height))
        return 0;
    int longest = width > height ? width : height;
    return win_length == 0 || (win_length >= 3 && win_length <= longest);
}

/* The win length 0 stands for: the shorter side (a square's size). */
static int actual_k(int width, int height, int win_length)
{
    if (win_length != 0)
        return win_length;
    return width < height ? width : height;
}

size_t ttt_game_footprint_rect(int width, int height, int win_length)
{
    if (!valid_geometry(width, height, win_length))
        return 0;
    size_t board = ttt__board_bytes_rect(width, height,
                                         actual_k(width, height, win_length));
    size_t bytes = ttt__size_add(header_bytes(), board);
    return board != 0 && ttt__size_ok(bytes) ? bytes : 0;
}

size_t ttt_game_footprint(int size, int win_length)
{
    return ttt_game_footprint_rect(size, size, win_length);
}

size_t ttt__game_bytes(const ttt_game *game)
{
    /* Its geometry was checked when it was made: the sum fits. */
    const ttt__board *board = &game->board;
    return ttt__size_add(header_bytes(),
                         ttt__board_bytes_rect(board->width, board->height,
                                               board->k));
}

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void default_dealloc(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static const ttt_allocator malloc_allocator = {default_alloc, default_dealloc, NULL};

/* Lays a fresh game out in mem, which holds ttt_game_footprint_rect
 * bytes. */
static ttt_game *build_game(void *mem, int width, int height, int k)
{
    ttt_game *game = (ttt_game *)mem;
    memset(game, 0, sizeof *game);
    ttt__lock_init(game);
    ttt__board_bind_rect(&game->board, width, height, k,
                         (char *)mem + header_bytes());
    ttt__board_clear(&game->board);
    game->state = TTT_IN_PROGRESS;
    game->alloc = malloc_allocator;
    return game;
}

int ttt_game_new_rect_with(int width, int height, int win_length,
                           const ttt_allocator *alloc, ttt_game **out)
{
    if (!out)
        return TTT_E_INVALID;
    if (!valid_geometry(width, height, win_length))
        return TTT_E_SIZE;
    if (alloc && (!alloc->alloc || !alloc->dealloc))
        return TTT_E_INVALID;
    if (!alloc)
        alloc = &malloc_allocator;
    int k = actual_k(width, height, win_length);
    void *mem =
        alloc->alloc(alloc->user, ttt_game_footprint_rect(width, height, k));
    if (!mem)
        return TTT_E_NOMEM;
    ttt_game *game = build_game(mem, width, height, k);
    game->alloc = *alloc;
    game->owns_memory = 1;
    *out = game;
    return TTT_OK;
}

int ttt_game_new_rect(int width, int height, int win_length, ttt_game **out)
{
    return ttt_game_new_rect_with(width, height, win_length, NULL, out);
}

int ttt_game_new_with(int size, int win_length, const ttt_allocator *alloc,
                      ttt_game **out)
{
    return ttt_game_new_rect_with(size, size, win_length, alloc, out);
}

int ttt_game_new(int size, int win_length, ttt_game **out)
{
    return ttt_game_new_rect_with(size, size, win_length, NULL, out);
}

int ttt_game_init_rect(void *mem, size_t mem_size, int width, int height,
                       int win_length, ttt_game **out)
{
    if (!mem || !out || (uintptr_t)mem % _Alignof(max_align_t) != 0)
        return TTT_E_INVALID;
    if (!valid_geometry(width, height, win_length))
        return TTT_E_SIZE;
    int k = actual_k(width, height, win_length);
    if (mem_size < ttt_game_footprint_rect(width, height, k))
        return TTT_E_BUFFER;
    *out = build_game(mem, width, height, k);
    return TTT_OK;
}

int ttt_game_init(void *mem, size_t mem_size, int size, int win_length,
                  ttt_game **out)
{
    return ttt_game_init_rect(mem, mem_size, size, size, win_length, out);
}

void ttt_game_free(ttt_game *game)
{
    if (!game)
        return;
    if (game->names)
        game->alloc.dealloc(game->alloc.user, game->names);
    if (game->owns_memory)
        game->alloc.dealloc(game->alloc.user, game);
}

/* Copies game, which the caller holds locked (or owns alone), into mem
 * (its footprint's bytes): a game of its own with a free lock, no listener,
 * and memory it does not own. Everything from the board on is copied; the
 * lock before it is not: other threads test-and-set it meanwhile, and a
 * plain read racing with those would be undefined. */
static ttt_game *copy_game(void *mem, const ttt_game *game)
{
    const ttt__board *board = &game->board;
    const size_t skipped = offsetof(struct ttt_game, board);
    memcpy((char *)mem + skipped, (const char *)game + skipped,
           ttt__game_bytes(game) - skipped);
    ttt_game *copy = (ttt_game *)mem;
    ttt__lock_init(copy);
    /* Rebinding points the copy's arrays at its own memory; the flags it
     * resets come back from the original, the column fills having been
     * copied with the arrays. */
    ttt__board_bind_rect(&copy->board, board->width, board->height,
                         board->k, (char *)mem + header_bytes());
    copy->board.track_live = board->track_live;
    copy->board.gravity = board->gravity;
    copy->board.slow_moves = board->slow_moves;
    copy->owns_memory = 0;
    copy->listener = NULL;
    copy->listener_user = NULL;
    copy->delivering = NULL;
    copy->deliveries = 0;
    copy->names = NULL; /* the block is the original's; ttt_game_clone copies it */
    return copy;
}

ttt_game *ttt__game_copy(void *mem, const ttt_game *game)
{
    return copy_game(mem, game);
}

int ttt_game_clone(const ttt_game *game, ttt_game **out)
{
    if (!game || !out)
        return TTT_E_INVALID;
    /* Size and allocator never change after creation: no lock needed yet. */
    size_t bytes = ttt__game_bytes(game);
    void *mem = game->alloc.alloc(game->alloc.user, bytes);
    if (!mem)
        return TTT_E_NOMEM;
    /* The allocator runs without the lock. A game's names block, once
     * made, stays until the game is freed, so one made meanwhile by another
     * thread is the only reason to go round again, and after the loop
     * names is allocated exactly when the game has a block to copy. */
    ttt__names *names = NULL;
    ttt__lock(game);
    while (game->names && !names) {
        ttt__unlock(game);
        names = game->alloc.alloc(game->alloc.user, sizeof *names);
        if (!names) {
            game->alloc.dealloc(game->alloc.user, mem);
            return TTT_E_NOMEM;
        }
        ttt__lock(game);
    }
    ttt_game *copy = copy_game(mem, game);
    /* Both tests hold together, blocks never being taken back; the second
     * spells that out rather than leaning on it. */
    if (names && game->names) {
        memcpy(names, game->names, sizeof *names);
        copy->names = names;
        names = NULL;
    }
    ttt__unlock(game);
    if (names)
        game->alloc.dealloc(game->alloc.user, names);
    copy->owns_memory = 1;
    *out = copy;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                    */

/*
 * An event is captured under the lock and delivered after it is released,
 * so that the listener may read the game. While it is delivered the game
 * records which thread is inside the listener, and changes wait for the
 * call to end: events go out one at a time, in the order of the changes.
 * A change asked for by that thread itself, from inside its listener,
 * would wait for itself; it is refused instead (TTT_E_IN_LISTENER).
 *
 * A thread is named by the address of a thread-local byte that is never
 * written: no thread library is needed, and nothing is shared between
 * games. Without the lock (threads=false) one thread at a time uses a game,
 * so one name serves every thread.
 */
#if TTT_THREADS && defined(_MSC_VER) && !defined(__clang__)
__declspec(thread) char ttt__thread_name;
#elif TTT_THREADS
_Thread_local char ttt__thread_name;
#else
const char ttt__thread_name = 0;
#endif

/* lock_for_change's slow path (internal.h), entered holding the lock while
 * a listener call is in progress; out of line, so the move path inlines
 * only the lock and one test. */
int ttt__wait_for_delivery(ttt_game *game)
{
    while (game->delivering) {
        if (game->delivering == this_thread()) {
            ttt__unlock(game);
            return TTT_E_IN_LISTENER;
        }
        ttt__unlock(game);
        ttt__yield();
        ttt__lock(game);
    }
    return TTT_OK;
}

/* Delivers the event captured, if any, after the lock was let go. */
static void deliver(ttt_game *game, const pending_event *pending)
{
    if (pending->listener) {
        deliver_and_lock(game, pending);
        ttt__unlock(game);
    }
}

int ttt_set_listener(ttt_game *game, ttt_listener listener, void *user)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    game->listener = listener;
    game->listener_user = listener ? user : NULL;
    /* Every event from now on goes to the new listener. A call already in
     * progress on another thread may be the old one's: wait for it to end.
     * One in progress on this thread is the caller's own. */
    if (game->delivering && game->delivering != this_thread()) {
        uint32_t in_progress = game->deliveries;
        do {
            ttt__unlock(game);
            ttt__yield();
            ttt__lock(game);
        } while (game->deliveries == in_progress);
    }
    ttt__unlock(game);
    return TTT_OK;
}

int ttt_game_reset(ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    ttt__board_clear(&game->board);
    game->state = TTT_IN_PROGRESS;
    game->redo_count = 0;
    game->ending = TTT__ENDING_NONE;
    capture(game, &pending, TTT_EVENT_RESET, TTT_EMPTY, -1, -1);
    ttt__unlock(game);
    deliver(game, &pending);
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Rules                                                                     */

static int known_rule(int rule)
{
    return rule == TTT_RULE_MISERE || rule == TTT_RULE_EARLY_DRAW ||
           rule == TTT_RULE_PLY_LIMIT || rule == TTT_RULE_GRAVITY;
}

int ttt_game_set_rule(ttt_game *game, int rule, int value)
{
    if (!game)
        return TTT_E_INVALID;
    /* The board's cell count never changes: no lock needed to read it. */
    int max_value = rule == TTT_RULE_PLY_LIMIT ? game->board.nn : 1;
    if (!known_rule(rule) || value < 0 || value > max_value)
        return TTT_E_RULE;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    /* Undone moves would be replayed under the new rule: lock those too,
     * and a game ended before its first move. */
    if (ply_of(game) != 0 || game->redo_count != 0 ||
        game->state != TTT_IN_PROGRESS) {
        status = TTT_E_RULES_LOCKED;
    } else if (rule == TTT_RULE_MISERE) {
        game->misere = (int8_t)value;
    } else if (rule == TTT_RULE_EARLY_DRAW) {
        game->early_draw = (int8_t)value;
        ttt__board_track_live(&game->board, value);
    } else if (rule == TTT_RULE_GRAVITY) {
        ttt__board_set_gravity(&game->board, value);
    } else {
        game->limit_empty = value == 0 ? 0 : game->board.nn - value;
    }
    ttt__unlock(game);
    return status;
}

int ttt_game_get_rule(const ttt_game *game, int rule, int *value)
{
    if (!game || !value)
        return TTT_E_INVALID;
    if (!known_rule(rule))
        return TTT_E_RULE;
    ttt__lock(game);
    if (rule == TTT_RULE_MISERE)
        *value = game->misere;
    else if (rule == TTT_RULE_EARLY_DRAW)
        *value = game->early_draw;
    else if (rule == TTT_RULE_GRAVITY)
        *value = game->board.gravity;
    else
        *value = game->limit_empty == 0 ? 0 : game->board.nn - game->limit_empty;
    ttt__unlock(game);
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Playing                                                                   */

/* ttt_play's checks and move, under the lock. */
static inline int play_locked(ttt_game *game, int mark, int row, int col,
                              pending_event *pending)
{
    /* Game over first: ttt_play(game, ttt_to_move(game), ...) on a finished
     * game passes TTT_EMPTY, and "the game is over" is the useful answer. */
    if (game->state != TTT_IN_PROGRESS)
        return TTT_E_GAME_OVER;
    if (mark != TTT_X && mark != TTT_O)
        return TTT_E_MARK;
    if (mark != ttt__mover_at(ply_of(game)))
        return TTT_E_WRONG_TURN;
    const ttt__board *board = &game->board;
    if ((unsigned)row >= (unsigned)board->height ||
        (unsigned)col >= (unsigned)board->n)
        return TTT_E_OFF_BOARD;
    if (!ttt__board_is_empty(board, row, col))
        return TTT_E_OCCUPIED;
    /* An empty cell under gravity is its column's landing cell or above
     * it. */
    if (TTT__RARE(board->gravity) && row != ttt__board_landing_row(board, col))
        return TTT_E_FLOATING;
    if (game->redo_count) /* a store saved: the lock waits for stores */
        game->redo_count = 0;
    apply_move(game, mark, row, col);
    capture(game, pending, TTT_EVENT_PLAY, mark, row, col);
    return TTT_OK;
}

/* ttt_play and ttt_play_next: for_mover plays for the side to move, read
 * under the same lock that plays, so no other thread can take the turn in
 * between. Both callers pass a constant, so each inlines to its own path. */
static inline int play_entry(ttt_game *game, int mark, int for_mover, int row,
                             int col, int *state)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__board_prefetch(&game->board, row, col);
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    if (for_mover)
        mark = ttt__mover_at(ply_of(game));
    status = play_locked(game, mark, row, col, &pending);
    int new_state = game->state;
    ttt__unlock(game);
    if (status != TTT_OK)
        return status;
    if (state)
        *state = new_state;
    deliver(game, &pending);
    return TTT_OK;
}

int ttt_play(ttt_game *game, int mark, int row, int col, int *state)
{
    return play_entry(game, mark, 0, row, col, state);
}

int ttt_play_next(ttt_game *game, int row, int col, int *state)
{
    return play_entry(game, TTT_EMPTY, 1, row, col, state);
}

/* The row a mark dropped into col would land in, under the lock: the
 * lowest empty cell of the column, or -1 when the column is full. O(1)
 * under gravity; without it (where any empty cell is playable) a walk up
 * the column from the bottom. */
static int drop_row(const ttt_game *game, int col)
{
    const ttt__board *board = &game->board;
    if (board->gravity)
        return ttt__board_landing_row(board, col);
    int row = board->height - 1;
    while (row >= 0 && !ttt__board_is_empty(board, row, col))
        row--;
    return row;
}

int ttt_drop(ttt_game *game, int col, int *row, int *state)
{
    if (!game)
        return TTT_E_INVALID;
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    int landed = -1;
    if (game->state != TTT_IN_PROGRESS) {
        status = TTT_E_GAME_OVER;
    } else if ((unsigned)col >= (unsigned)game->board.n) {
        status = TTT_E_OFF_BOARD;
    } else {
        landed = drop_row(game, col);
        status = landed < 0 ? TTT_E_COLUMN_FULL
                            : play_locked(game, ttt__mover_at(ply_of(game)),
                                          landed, col, &pending);
    }
    int new_state = game->state;
    ttt__unlock(game);
    if (status != TTT_OK)
        return status;
    if (row)
        *row = landed;
    if (state)
        *state = new_state;
    deliver(game, &pending);
    return TTT_OK;
}

int ttt_play_at(ttt_game *game, int ply, int mark, int row, int col,
                int *state)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__board_prefetch(&game->board, row, col);
    /* A retry succeeds with nothing to deliver. */
    pending_event pending = {NULL, NULL, {0, 0, 0, 0, 0, 0}};
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    int current = ply_of(game);
    if (ply == current) {
        /* ttt_play, checks and order included: on a finished game any mark
         * gets TTT_E_GAME_OVER. */
        status = play_locked(game, mark, row, col, &pending);
    } else if (mark != TTT_X && mark != TTT_O) {
        status = TTT_E_MARK;
    } else if (ply < 0) {
        status = TTT_E_RANGE;
    } else if (ply < current) {
        /* A retried request whose move was already played succeeds without
         * touching anything; any other move at that ply lost the race. */
        int32_t played = ttt__board_move_at(&game->board, ply);
        status = ttt__mover_at(ply) == mark && TTT__ROW(played) == row &&
                         TTT__COL(played) == col
                     ? TTT_OK
                     : TTT_E_STALE;
    } else {
        status = TTT_E_STALE;
    }
    int new_state = game->state;
    ttt__unlock(game);
    if (status != TTT_OK)
        return status;
    if (state)
        *state = new_state;
    deliver(game, &pending);
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Endings beyond the board: resignation and agreement                      */

/* Neither is a move: they change the state, not the board, and one undo
 * takes them back. */

static int ending_state(int ending)
{
    switch (ending) {
    case TTT__ENDING_X_RESIGNED: return TTT_O_WON;
    case TTT__ENDING_O_RESIGNED: return TTT_X_WON;
    default: return TTT_DRAW;
    }
}

/* The event's mark: who resigned, or none for an agreement. */
static int ending_mark(int ending)
{
    switch (ending) {
    case TTT__ENDING_X_RESIGNED: return TTT_X;
    case TTT__ENDING_O_RESIGNED: return TTT_O;
    default: return TTT_EMPTY;
    }
}

/* Ends the open game, whose lock the caller holds, with an empty redo
 * stack. */
static void end_locked(ttt_game *game, int ending, int kind,
                       pending_event *pending)
{
    game->redo_count = 0;
    game->ending = (int8_t)ending;
    game->state = ending_state(ending);
    capture(game, pending, kind, ending_mark(ending), -1, -1);
}

/* Reopens a game that ended off the board. Its redo stack was emptied by
 * the ending, so the ending alone goes on it. */
static void undo_ending_locked(ttt_game *game, pending_event *pending)
{
    int ending = game->ending;
    game->ending = TTT__ENDING_NONE;
    game->state = TTT_IN_PROGRESS;
    game->redo_count = TTT__REDO_ENDING_ONLY(ending);
    capture(game, pending, TTT_EVENT_UNDO_ENDING, ending_mark(ending), -1,
            -1);
}

/* Re-applies the undone ending at the bottom of the redo stack, the moves
 * above it having been replayed: the game is where it was when it ended. */
static void redo_ending_locked(ttt_game *game, pending_event *pending)
{
    end_locked(game, TTT__REDO_ENDING(game->redo_count), TTT_EVENT_REDO_ENDING,
               pending);
}

/* An ending's public call: checks, the ending and its event. ending is
 * TTT__ENDING_NONE for a resignation by a bad mark, refused once the game
 * is known to be open, so that a finished game answers "game over" first
 * as ttt_play does. */
static int end_game(ttt_game *game, int ending, int kind, int *state)
{
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    if (game->state != TTT_IN_PROGRESS)
        status = TTT_E_GAME_OVER;
    else if (ending == TTT__ENDING_NONE)
        status = TTT_E_MARK;
    else
        end_locked(game, ending, kind, &pending);
    int new_state = game->state;
    ttt__unlock(game);
    if (status != TTT_OK)
        return status;
    if (state)
        *state = new_state;
    deliver(game, &pending);
    return TTT_OK;
}

int ttt_resign(ttt_game *game, int mark, int *state)
{
    if (!game)
        return TTT_E_INVALID;
    int ending = mark == TTT_X   ? TTT__ENDING_X_RESIGNED
                 : mark == TTT_O ? TTT__ENDING_O_RESIGNED
                                 : TTT__ENDING_NONE;
    return end_game(game, ending, TTT_EVENT_RESIGN, state);
}

int ttt_agree_draw(ttt_game *game, int *state)
{
    if (!game)
        return TTT_E_INVALID;
    return end_game(game, TTT__ENDING_AGREED, TTT_EVENT_DRAW_AGREED, state);
}

int ttt_ending(const ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    int state = game->state;
    int ending = game->ending;
    int full = game->board.empty_count == 0;
    int no_line = game->early_draw && game->board.live == 0;
    ttt__unlock(game);
    /* Only the ending off the board is stored; the others follow from the
     * position, judged in apply_move's order. */
    if (state == TTT_IN_PROGRESS)
        return TTT_END_NONE;
    if (ending == TTT__ENDING_AGREED)
        return TTT_END_AGREED;
    if (ending != TTT__ENDING_NONE)
        return TTT_END_RESIGN;
    if (state != TTT_DRAW)
        return TTT_END_LINE;
    if (full)
        return TTT_END_FULL_BOARD;
    return no_line ? TTT_END_NO_LINE : TTT_END_PLY_LIMIT;
}

int ttt_undo(ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    if (game->ending != TTT__ENDING_NONE) {
        undo_ending_locked(game, &pending);
        ttt__unlock(game);
        deliver(game, &pending);
        return TTT_OK;
    }
    int ply = ply_of(game);
    if (ply == 0) {
        ttt__unlock(game);
        return TTT_E_NO_UNDO;
    }
    int32_t packed = ttt__board_lift(&game->board, ttt__mover_at(ply - 1));
    /* Moves are only accepted while the game is open, so the position
     * before any move was in progress. (No store when it already is: the
     * next lock waits for every store.) */
    if (game->state != TTT_IN_PROGRESS)
        game->state = TTT_IN_PROGRESS;
    game->redo_count++;
    capture(game, &pending, TTT_EVENT_UNDO, ttt__mover_at(ply - 1),
            TTT__ROW(packed), TTT__COL(packed));
    ttt__unlock(game);
    deliver(game, &pending);
    return TTT_OK;
}

int ttt_redo(ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    if (game->redo_count == 0) {
        ttt__unlock(game);
        return TTT_E_NO_REDO;
    }
    if (TTT__REDO_CELLS(game->redo_count) == 0) {
        redo_ending_locked(game, &pending);
        ttt__unlock(game);
        deliver(game, &pending);
        return TTT_OK;
    }
    /* The most recently lifted cell sits just below the empty boundary. */
    int32_t packed = game->board.order[game->board.empty_count - 1];
    int row = TTT__ROW(packed), col = TTT__COL(packed);
    int mark = ttt__mover_at(ply_of(game));
    game->redo_count--;
    apply_move(game, mark, row, col);
    capture(game, &pending, TTT_EVENT_REDO, mark, row, col);
    ttt__unlock(game);
    deliver(game, &pending);
    return TTT_OK;
}
