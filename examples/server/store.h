/* store.h - the server's persistence interface: games and their event log, never grids. */
#ifndef TTT_SERVER_STORE_H
#define TTT_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

/* The interface any store implements (store_sqlite.c is one; a store shared
 * by several servers, such as PostgreSQL, is meant to fit it unchanged):
 *
 * - A game is added once; its events are added one at a time, each with the
 *   next sequence number of its game's log. (game id, seq) is unique in the
 *   store: of two writers adding the same seq to a game, one wins and the
 *   other gets STORE_CONFLICT, which tells it that its copy of the game is
 *   behind (it reloads the game with store_load_game and answers from that).
 * - A write returns only once it is durable, or fails having stored nothing.
 * - The event that ends a game comes with the game whole (struct
 *   store_finished), stored in the same transaction: the store answers
 *   store_load_game(id) for a finished game from it (the server holds only
 *   games in progress), and store_load_results from all of them.
 * - The store gives each finished game its finish order, in the
 *   transaction that stores it: 1, 2, 3... in commit order, without gaps
 *   (a write that fails or conflicts takes none), however many servers
 *   share the store. So the results read in finish order are the same
 *   sequence for every server, and a server that has applied the results
 *   up to order n has seen every game that finished before n + 1. Without
 *   gaps, a result held back for an earlier order never waits for one that
 *   does not come: once order n is committed, every order before it is.
 *   (An SQLite file's orders given before the store gave them may have
 *   gaps; the start reads them all, so nothing waits on those.)
 * - store_load reads the games in progress back at start, checked: a row
 *   that does not read or holds a bad value is an error, never skipped in
 *   silence.
 * - Every function is safe to call from any thread. */

/* What the store keeps of a game when it is created. Names are UTF-8, at
 * most 64 bytes; tokens are empty for bot seats. */
struct store_game {
    char id[24];
    int width, height, k, gravity, misere, early_draw, ply_limit, rated;
    char kind[2][12];      /* [0] = x, [1] = o: human, random, strong, perfect */
    long long budget[2];
    char name[2][72];
    char token[2][40];
    /* The time control, all 0 for none: Fischer (initial_s, increment_s) or
     * correspondence (days_per_move). */
    int clock_initial_s, clock_increment_s, clock_days_per_move;
    /* Wall clock (Unix ms) when both seats were taken, which opens x's
     * first-move window: at the creation, or a rated game's join; 0 while
     * o is open, or unknown (a game stored before it was kept). */
    long long seated_ms;
};

/* One entry of a game's log: a move (cell = row * width + col) or an ending
 * that is not a move (resign by mark, agreed draw, a flag fall: mark's time
 * ran out; a loss for mark, or a draw if the other side can no longer make
 * any line, as the position says). seq orders the log. Read back, the entry
 * that ends the game carries finish_order > 0, the order in which games
 * finished (the ratings replay them in it; the store gave it); 0 on every
 * other entry. Written, finish_order is 0: the store gives it. */
enum store_event_kind { STORE_MOVE = 0, STORE_RESIGN = 1, STORE_DRAW = 2, STORE_FLAG = 3 };
struct store_event {
    int seq;
    int kind;
    int mark; /* 1 = x, -1 = o; 0 for an agreed draw */
    int cell;
    long long finish_order;
    long long at_ms;       /* wall clock (Unix ms) when it was applied; 0 if unknown */
    long long clock_ms[2]; /* x's [0] and o's [1] time left after it; -1 without a clock */
};

/* Results of the write calls. */
enum {
    STORE_OK = 0,
    STORE_FAILED = -1,   /* nothing stored (disk full, read-only, I/O error...) */
    STORE_CONFLICT = -2, /* the game already has an event with this seq, or a
                          * game with this id exists: nothing stored. The
                          * SQLite store, the only writer of its file, never
                          * answers it (the caller adds each seq once); the
                          * PostgreSQL store, shared by servers, does. */
};

/* A finished game, whole: its row, its state (1 x won, 2 o won, 3 draw),
 * its finish order and its log, the ending last. store_add_event ignores
 * finish_order (it gives one); store_add_finished keeps it. */
struct store_finished {
    const struct store_game *game;
    int state;
    long long finish_order;
    const struct store_event *log;
    size_t count;
};

struct store;

/* Opens (creating and migrating) the store at path; NULL and a message in
 * err on failure. A path that starts with postgresql:// or postgres:// is a
 * libpq connection URL and opens the PostgreSQL store (store_pg.c, built
 * where libpq is found; synchronous_full and salvage do not apply to it: its
 * commits are as durable as the server's synchronous_commit makes them).
 * Any other path is an SQLite file: The store owns its database: a second store_open of the
 * same path, from this or another process, fails with a message naming the
 * process that holds it. SQLite's quick_check runs over the whole file
 * first: a database that fails it is refused with SQLite's words, unless
 * salvage is set (then it is reported on stderr and opened).
 * synchronous_full: fsync each commit (survives power loss) rather than
 * only a process crash. */
struct store *store_open(const char *path, int synchronous_full, int salvage, char *err,
                         size_t err_len);
void store_close(struct store *store);

/* 1 if where is a PostgreSQL URL (store_open picks the PostgreSQL store). */
int store_is_url(const char *where);
/* where as it may be shown: a URL's password (user:PASSWORD@, password=...)
 * replaced by ***; a path unchanged. Truncated to cap - 1 bytes. */
void store_redact(const char *where, char *out, size_t cap);
void store_scrub(const char *where, char *msg, size_t cap); /* msg less where's password */

/* Each call returns only once its rows are committed (STORE_OK), or fails
 * (STORE_FAILED, STORE_CONFLICT) having stored nothing. Calls from many
 * threads are grouped into one transaction. */
int store_add_game(struct store *store, const struct store_game *game);
/* finished: NULL, or (for the event that ends the game) the game whole;
 * then, on STORE_OK, *finish_order is the finish order the store gave the
 * game (see the top of this file); finish_order may be NULL otherwise. */
int store_add_event(struct store *store, const char *game_id,
                    const struct store_event *event, const struct store_finished *finished,
                    long long *finish_order);
/* The open o seat of a game in progress taken by an account (a rated
 * game's join) at seated_ms: the game's stored o name and seated_ms
 * become these, so a restart restores both. STORE_OK, or STORE_FAILED
 * having changed nothing (no such game among the stored ones). */
int store_join(struct store *store, const char *game_id, const char *o_name,
               long long seated_ms);
/* Finished games the store has only as logs (an SQLite file from before
 * version 3): kept as finished games, with the finish orders their logs
 * carry, in one transaction; those it has are left. */
int store_add_finished(struct store *store, const struct store_finished *games,
                       size_t count);

/* A callback returns 0 to go on, -1 to stop the load (which then returns
 * -1 without a message of its own). on_event gets event NULL (salvage
 * only) when a row of that game's log does not read: the game is not whole. */
typedef int (*store_game_fn)(void *user, const struct store_game *game);
typedef int (*store_event_fn)(void *user, const char *game_id,
                              const struct store_event *event);

/* Calls on_game for every stored game but the finished ones kept whole,
 * then on_event for each of their events, in the order they were committed
 * (so each game's events in order). Returns
 * 0, or -1 with a message in err (SQLite's, the file name and the row's
 * rowid) when a row does not read or holds a value of the wrong type or
 * size. In salvage mode such rows are reported on stderr and counted in
 * *skipped, and the load goes on past the rows that do not read. */
int store_load(struct store *store, store_game_fn on_game, store_event_fn on_event,
               void *user, long *skipped, char *err, size_t err_len);

/* The finished game with this id: on_game, then on_event for each entry of
 * its log. 1 once delivered, 0 if there is none, -1 with a message in err
 * if its row does not read or holds a bad value. A store shared by servers
 * (PostgreSQL) answers as well for a game in progress, which another server
 * may have created: its row and its log so far. (The SQLite store's one
 * server holds every game in progress, and it answers 0 for them.) */
int store_load_game(struct store *store, const char *id, store_game_fn on_game,
                    store_event_fn on_event, void *user, char *err, size_t err_len);

/* The entries of game id's log from seq from on, in order, each to
 * on_event: what a server whose write met STORE_CONFLICT reads to catch up
 * with the writer that won. Their count, or -1 with a message in err. */
int store_load_log(struct store *store, const char *id, int from, store_event_fn on_event,
                   void *user, char *err, size_t err_len);

/* Every finished game's result from finish order from on (1: all), in
 * finish order: what the ratings need (the game's id, its players, its
 * end, and its board and rules, which tell which ratings it moves). 0, or
 * -1 with a message in err. PostgreSQL reads the ones from `from` on by an
 * index; the SQLite store (whose one server reads them once, at start)
 * scans. */
struct store_result {
    const char *id;
    long long finish_order;
    int rated, state;
    const char *name[2];
    int width, height, k, gravity, misere, ply_limit;
};
typedef int (*store_result_fn)(void *user, const struct store_result *result);
int store_load_results(struct store *store, long long from, store_result_fn on_result,
                       void *user, char *err, size_t err_len);

/* Commits so far, their mean and last time, and the last write that failed
 * (its message, or "" if none since the last commit in which every write
 * succeeded: the store is healthy again then). */
struct store_stats {
    uint64_t commits, failed_writes;
    double mean_us, last_us;
    char last_error[256];
};
void store_stats(struct store *store, struct store_stats *out);

/* Draw offers, kept by a store shared by servers (PostgreSQL) so that every
 * server sees them; the SQLite store's one server keeps them in memory
 * (both calls answer STORE_FAILED there). An offer is made at a ply and
 * stands only while the game is at that ply: a move withdraws it, and a
 * stale one never agrees to a draw.
 * store_offer_draw: mark (1 x, -1 o) offers a draw at ply. STORE_OK once
 * the offer is committed and told (store_listen's on_offer); STORE_CONFLICT
 * if the other side's offer stands at that ply (the caller agrees: an
 * ending, which the log's key guards) or the log already has an entry at
 * ply (the caller's copy is behind: its ending meets the key, it catches up
 * and asks again); nothing is changed then. STORE_FAILED having stored
 * nothing. Of two servers offering for both sides at once, the first to
 * commit stands and the other gets STORE_CONFLICT.
 * store_load_offer: the last offer made in the game: 1 with *mark and
 * *ply (the caller compares the ply with its game's), 0 if none was ever
 * made, -1 with a message in err. */
int store_offer_draw(struct store *store, const char *game_id, int mark, int ply);
int store_load_offer(struct store *store, const char *game_id, int *mark, int *ply, char *err,
                     size_t err_len);

/* A store shared by servers (PostgreSQL) tells of the events committed to
 * it, by any server: on_notice(user, game_id, seq) for each, from a thread
 * of the store's own, in commit order; then the caller reads the event
 * from the log (store_load_log). It tells of each finished game too:
 * on_result(user, finish_order), after the on_notice of its ending; the
 * caller reads the results from the first order it lacks on
 * (store_load_results), so a result is read from the store, never taken
 * from the notice. After its connection was lost and came back, it calls
 * on_notice(user, NULL, -1): events and results may have been committed
 * meanwhile untold, so the caller reads every log it follows and the
 * results it lacks. 0 once listening (every commit from then on is told),
 * -1 if the store cannot (the SQLite store, whose only server knows every
 * event). It tells of each draw offer committed too: on_offer(user,
 * game_id), in commit order with the events; the caller reads the offer
 * (store_load_offer). on_notice NULL stops the listening (before user goes
 * away); store_close stops it too. */
typedef void (*store_notice_fn)(void *user, const char *game_id, int seq);
typedef void (*store_result_notice_fn)(void *user, long long finish_order);
typedef void (*store_offer_notice_fn)(void *user, const char *game_id);
int store_listen(struct store *store, store_notice_fn on_notice,
                 store_result_notice_fn on_result, store_offer_notice_fn on_offer, void *user);

#endif
