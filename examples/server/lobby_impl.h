/* lobby_impl.h - what lobby.c and pairing.c share: the lobby's state under one lock. */
#ifndef TTT_SERVER_LOBBY_IMPL_H
#define TTT_SERVER_LOBBY_IMPL_H

#include <pthread.h>

#include "accounts.h"
#include "lobby.h"

/* Lobby events kept for streams that fall behind (further behind, a
 * stream gets the whole list again); events kept per account; accounts
 * with a mailbox at once (an idle one is reused past it). */
enum { LOBBY_LOG = 256, MAILBOX_EVENTS = 16, MAILBOXES_MAX = 4096 };

struct seek {
    char id[17];
    struct account owner;
    json_t *game;      /* a create body without seats or "rated" */
    int rated, kind, rating;
    long long created; /* monotonic seconds */
};

/* An account's events (games started, seeks expired), numbered from 1. */
struct mailbox {
    long long account;
    int streams;              /* its account streams open */
    long long idle_since;     /* when its last stream closed (or it was made) */
    long long next_seq;       /* the next event's number */
    long long delivered;      /* the first event no stream has read */
    char *events[MAILBOX_EVENTS]; /* event n at n % MAILBOX_EVENTS */
};

/* An account in the quick pairing pool. */
struct waiter {
    struct account who;
    json_t *game;      /* the create body: a preset and its time control */
    char *key;         /* what must match to pair: the body as canonical JSON */
    int rated, kind;
    double rating;
    long long joined;  /* monotonic seconds */
};

struct lobby {
    struct server *srv;
    struct lobby_config cfg;
    pthread_mutex_t lock;    /* guards all that follows */
    pthread_cond_t changed;  /* a new event: streams wait on it */
    pthread_cond_t wake;     /* a new seek or waiter: the timer waits on it */
    pthread_t thread;
    int stopping;
    struct seek *seeks[SEEKS_MAX]; /* oldest first */
    size_t seek_count;
    long long log_seq;       /* the last lobby event's number */
    char *log[LOBBY_LOG];    /* event n at n % LOBBY_LOG */
    struct mailbox **boxes;  /* MAILBOXES_MAX */
    size_t box_count;
    struct waiter pool[POOL_MAX]; /* oldest first */
    size_t pool_count;
    struct lobby_stream *account_streams; /* open, listed by next_account_stream */
};

long long lobby_now(void); /* monotonic seconds */
/* With lock: a lobby event; an event for one account. Both take data. */
void lobby_publish(struct lobby *lb, const char *name, json_t *data);
void lobby_tell(struct lobby *lb, long long account, const char *name, json_t *data);
struct mailbox *lobby_mailbox(struct lobby *lb, long long account, long long now);
/* With lock: since when account has had no account stream open (now while
 * one is), at least since. */
long long lobby_unwatched_since(struct lobby *lb, long long account, long long since,
                                long long now);
/* A seek's or pairing's body checked into a create body (*game, owned):
 * 0, or -1 with *err; sides up to max_size. */
int lobby_game_body(const json_t *body, int max_size, json_t **game, struct reply *err);
/* Without lock: starts a game between accounts a and b (seats drawn at
 * random), tells both on their account streams (via: "seek" or "pairing",
 * with via_id) and answers with what b is told. */
struct reply lobby_start_game(struct lobby *lb, const json_t *game, int rated,
                              const struct account *a, const struct account *b,
                              const char *via, const char *via_id);

/* pairing.c. With lock: pairs the pool (unlocking while games start). */
void lobby_pair(struct lobby *lb, long long now);
void lobby_pool_leave(struct lobby *lb, long long account); /* with lock */
void lobby_pool_free(struct lobby *lb);
/* Without lock: POST /api/pairing; GET (leave 0) or DELETE (leave 1). */
struct reply lobby_pairing_join(struct lobby *lb, const struct account *me, const json_t *body);
struct reply lobby_pairing_view(struct lobby *lb, const struct account *me, int leave);

#endif
