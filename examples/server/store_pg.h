/* store_pg.h - the PostgreSQL store's own struct, shared by its files (not for the store's callers). */
#ifndef TTT_SERVER_STORE_PG_H
#define TTT_SERVER_STORE_PG_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>

#include "store.h"
#include "store_impl.h"
#include "store_queue.h"

/* What NOTIFY tells, once committed: "game_id seq" for each event stored,
 * the finish order for each ending, the game id for each draw offer. */
#define NOTICE_CHANNEL "ttt_events"
#define RESULT_CHANNEL "ttt_results"
#define OFFER_CHANNEL "ttt_offers"

/* Writes go through one connection, used by the queue's writer thread
 * alone: it commits every write that arrived while the last commit was in
 * flight in one transaction. Reads go through another connection, behind
 * its lock (a libpq connection serves one thread at a time). */
struct pg_store {
    struct store base; /* first: what store.c dispatches on */
    char shown[512];   /* the URL with its password redacted */
    PGconn *wconn, *rconn;
    pthread_mutex_t rlock;
    struct store_queue queue;
    /* The notices of committed events: a thread of their own on a third
     * connection, LISTENing (store_listen). */
    char *url;
    PGconn *lconn;
    pthread_t listener;
    int listening;
    atomic_int stop_listening;
    store_notice_fn on_notice;
    store_result_notice_fn on_result;
    store_offer_notice_fn on_offer;
    void *notice_user;
};

/* store_pg_listen.c: store_listen; with on_notice NULL, stops listening. */
int pg_listen(struct store *base, store_notice_fn on_notice, store_result_notice_fn on_result,
              store_offer_notice_fn on_offer, void *user);

#endif
