/* store_sqlite.h - what the SQLite store's files share: its struct and its read path (not for the store's callers). */
#ifndef TTT_SERVER_STORE_SQLITE_H
#define TTT_SERVER_STORE_SQLITE_H

#include <pthread.h>
#include <sqlite3.h>

#include "store_impl.h"
#include "store_queue.h"

struct sqlite_store {
    struct store base;               /* first: what store.c dispatches on */
    char *path;
    int lock_fd;                     /* PATH.lock, write-locked while open */
    int salvage;
    sqlite3 *db;                     /* the writer thread's connection */
    sqlite3_stmt *insert_game, *insert_event, *insert_finished, *join_game;
    /* Reads (the start's load, games loaded on demand) go through a
     * connection of their own, so they see committed rows only. */
    sqlite3 *rdb;
    sqlite3_stmt *load_finished;
    pthread_mutex_t read_lock;
    struct store_queue queue;        /* the writer thread and its counts */
    /* The last finish order given (the writer thread's alone): the next
     * ending stored takes the one after, in the transaction that stores it. */
    long long last_order;
};

/* The statement that reads one finished game by id (?1). */
extern const char sqlite_load_finished_sql[];

/* store_sqlite_load.c: the reads, each as store.h describes its namesake;
 * they go through store->rdb under store->read_lock. */
int sqlite_load(struct sqlite_store *store, store_game_fn on_game, store_event_fn on_event,
                void *user, long *skipped, char *err, size_t err_len);
int sqlite_load_game(struct sqlite_store *store, const char *id, store_game_fn on_game,
                     store_event_fn on_event, void *user, char *err, size_t err_len);
int sqlite_load_log(struct sqlite_store *store, const char *id, int from, store_event_fn on_event,
                    void *user, char *err, size_t err_len);
int sqlite_load_results(struct sqlite_store *store, long long from, store_result_fn on_result,
                        void *user, char *err, size_t err_len);

#endif
