/* store_sqlite.h - what the SQLite store's files share: its struct and its read path (not for the store's callers). */
#ifndef TTT_SERVER_STORE_SQLITE_H
#define TTT_SERVER_STORE_SQLITE_H

#include <pthread.h>
#include <semaphore.h>
#include <sqlite3.h>
#include <stdint.h>

#include "store_impl.h"


/* One write waiting for the writer thread; the caller sleeps on done. */
struct pending {
    const struct store_game *game;   /* a game to add, or */
    const char *game_id;             /* an event of this game */
    const struct store_event *event;
    const struct store_finished *finished; /* with it, or alone: games ending */
    size_t finished_count;
    int result;
    sem_t done;                      /* posted by the writer once committed */
    struct pending *next;
};

struct sqlite_store {
    struct store base;               /* first: what store.c dispatches on */
    char *path;
    int lock_fd;                     /* PATH.lock, write-locked while open */
    int salvage;
    sqlite3 *db;                     /* the writer thread's connection */
    sqlite3_stmt *insert_game, *insert_event, *insert_finished;
    /* Reads (the start's load, games loaded on demand) go through a
     * connection of their own, so they see committed rows only. */
    sqlite3 *rdb;
    sqlite3_stmt *load_finished;
    pthread_mutex_t read_lock;
    pthread_t writer;
    int writer_started;
    pthread_mutex_t lock;
    pthread_cond_t wake_writer;
    struct pending *head, *tail;
    int stopping;
    uint64_t commits, failed_writes;
    double total_us, last_us;
    char last_error[256];
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
int sqlite_load_results(struct sqlite_store *store, store_result_fn on_result, void *user,
                        char *err, size_t err_len);

#endif
