/* store_queue.h - group commit for the stores: writes from many threads wait for one writer thread, which commits all that wait in one transaction. */
#ifndef TTT_SERVER_STORE_QUEUE_H
#define TTT_SERVER_STORE_QUEUE_H

#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>

#include "store.h"

/* One write waiting for the writer thread; the caller sleeps on done. */
struct store_write {
    const struct store_game *game;   /* a game to add, or */
    const char *game_id;             /* an event of this game, its join or offer */
    const char *join_name;           /* the o seat's name (store_join) */
    int offer_mark, offer_ply;       /* a draw offer (store_offer_draw), or mark 0 */
    long long seated_ms;             /* with join_name */
    const struct store_event *event;
    const struct store_finished *finished; /* with it, or alone: games ending */
    size_t finished_count;
    long long finish_order;          /* set by the backend: the order it gave an ending */
    int probe;                       /* alone: a write of nothing that matters, which
                                      * shows whether the store writes again */
    int result;                      /* STORE_OK, STORE_FAILED or STORE_CONFLICT */
    sem_t done;                      /* posted by the writer once committed */
    struct store_write *next;
};

/* A backend's commit of a batch (a list by next, in arrival order) in one
 * transaction: sets every write's result and returns 1 once committed; 0
 * if the transaction failed (every result STORE_FAILED then). A failure's
 * message goes into error. */
typedef int (*store_commit_fn)(void *backend, struct store_write *batch, char *error,
                               size_t cap);

struct store_queue {
    store_commit_fn commit;
    void *backend;
    pthread_t writer;
    int started, stopping;
    pthread_mutex_t lock;
    pthread_cond_t wake_writer;
    struct store_write *head, *tail;
    uint64_t commits, failed_writes;
    double total_us, last_us;
    char last_error[256];
};

/* Sets the queue up (call once, before any other call on it). */
void store_queue_init(struct store_queue *q, store_commit_fn commit, void *backend);
/* Starts the writer thread; 0, or -1. */
int store_queue_start(struct store_queue *q);
/* Waits for the writer to commit what is queued and stop; then frees the
 * queue's own resources (safe on a queue that never started). */
void store_queue_stop(struct store_queue *q);
/* Queues w and returns its result once its transaction is over (a write
 * submitted after stop began fails). */
int store_queue_submit(struct store_queue *q, struct store_write *w);
void store_queue_stats(struct store_queue *q, struct store_stats *out);

#endif
