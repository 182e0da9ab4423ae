/* rated.h - rated games between two accounts: created by one logged-in account, joined by another. */
#ifndef TTT_SERVER_RATED_H
#define TTT_SERVER_RATED_H

#include <microhttpd.h>

#include "http.h"

/* POST /api/games with "rated": true (body checked by check_create_body):
 * the request's session takes seat x; both seats human, unnamed. */
struct reply rated_create(struct server *srv, struct MHD_Connection *conn, json_t *body);
/* The request's account (its session token): 1, or 0 with a 401 in *err
 * whose message starts with why (503 without account tables or when they
 * cannot be read). */
struct account;
int account_of_request(struct server *srv, struct MHD_Connection *conn, struct account *a,
                       struct reply *err, const char *why);
/* A rated game of body (a create body without seats) with x's account on
 * seat x and o's on o (NULL: o stays open to join): 201 with its state
 * less the seat tokens, or the refusal. */
struct reply rated_create_for(struct server *srv, json_t *body, const struct account *x,
                              const struct account *o);
/* POST /api/games/ID/join: the request's session takes the open o seat. */
struct reply rated_join(struct server *srv, struct MHD_Connection *conn,
                        struct game_entry *entry);
/* A rated game whose o seat this server's copy shows open, on a store
 * shared by servers: takes the o account's name if another server's join
 * seated one (the game's stored row has it already). */
void rated_refresh(struct server *srv, struct game_entry *entry);
/* The seat the request's session holds in entry's game, for moves,
 * resignations and draws: 1 with *seat set (TTT_X or TTT_O) or with *seat 0
 * and the refusal in *err; 0 when entry is not a game between accounts (its
 * seats are played with seat tokens). */
int rated_seat(struct server *srv, struct MHD_Connection *conn, struct game_entry *entry,
               int *seat, struct reply *err);

#endif
