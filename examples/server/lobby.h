/* lobby.h - seeks, the lobby's and each account's event streams, and quick pairing by rating. */
#ifndef TTT_SERVER_LOBBY_H
#define TTT_SERVER_LOBBY_H

#include <microhttpd.h>
#include <stddef.h>

struct server;

/* Seeks: at most SEEKS_PER_ACCOUNT open per account and SEEKS_MAX in all;
 * a seek lasts at most SEEK_LIFETIME_S seconds. The pool of quick pairing
 * holds at most POOL_MAX accounts. */
enum { SEEKS_PER_ACCOUNT = 3, SEEKS_MAX = 1000, SEEK_LIFETIME_S = 3600, POOL_MAX = 1000 };

struct lobby_config {
    long seek_grace_s;     /* a seek's life once its owner has no account stream open */
    long pairing_window;   /* the rating difference paired at once */
    long pairing_widen;    /* added to the window per 10 s waited */
    long pairing_bot_wait; /* seconds in the pool before a bot is paired (0: never) */
};

/* Starts the lobby's timer thread (idle while no seek and nobody waits);
 * NULL when out of memory. srv outlives it. */
struct lobby *lobby_new(struct server *srv, const struct lobby_config *cfg);
/* Ends the lobby's and accounts' event streams (within a second). */
void lobby_stop_streams(struct lobby *lobby);
void lobby_free(struct lobby *lobby);

/* Whether path (the URL after /api/) is one of the lobby's routes:
 * seeks, seeks/ID, seeks/ID/accept, lobby/events, account/events, pairing. */
int lobby_path(const char *path);
enum MHD_Result lobby_route(struct server *srv, struct MHD_Connection *conn, const char *path,
                            const char *method, const char *body, size_t len);
/* The request's account logs out: its seeks and its place in the pool go. */
void lobby_logout(struct server *srv, struct MHD_Connection *conn);

#endif
