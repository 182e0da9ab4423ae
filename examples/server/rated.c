/* rated.c - rated games between two accounts: created by one logged-in account, joined by another. */
#include "rated.h"

#include <stdlib.h>
#include <string.h>

#include "accounts.h"
#include "manager.h"

int account_of_request(struct server *srv, struct MHD_Connection *conn, struct account *a,
                       struct reply *err, const char *why)
{
    if (!srv->accounts) {
        *err = error_reply(503, "no_accounts", 503,
                           "the account tables did not open (--salvage); see the log");
        return 0;
    }
    size_t len;
    const char *token = accounts_request_token(conn, &len);
    int found = accounts_session(srv->accounts, token, len, a);
    if (found == 1)
        return 1;
    if (found < 0) {
        *err = error_reply(503, "store_failed", 503, "the session could not be read");
        return 0;
    }
    *err = error_reply(401, "unauthorized", 401,
                       "%s: log in (POST /api/sessions) and send the session token as "
                       "Authorization: Bearer <token> or the ttt_session cookie", why);
    return 0;
}

/* The request's account: 1, or 0 with a 401 in *err. */
static int session_of(struct server *srv, struct MHD_Connection *conn, struct account *a,
                      struct reply *err)
{
    return account_of_request(srv, conn, a, err, "a rated game is played between two accounts");
}

struct reply rated_create(struct server *srv, struct MHD_Connection *conn, json_t *body)
{
    struct reply err;
    struct account a;
    if (!session_of(srv, conn, &a, &err))
        return err;
    for (int s = 0; s < 2; s++) {
        const char *seat = s == 0 ? "x" : "o";
        json_t *p = json_object_get(body, seat);
        json_t *kind = json_object_get(p, "kind"), *name = json_object_get(p, "name");
        if (kind && !json_is_null(kind) &&
            !(json_is_string(kind) && strcmp(json_string_value(kind), "human") == 0)) {
            err = error_reply(422, "rated_needs_accounts", 422,
                              "a rated game is between two accounts: seat %s cannot be a bot",
                              seat);
            json_object_set_new(err.body, "field", json_sprintf("%s.kind", seat));
            return err;
        }
        if (name && !json_is_null(name)) {
            err = error_reply(422, "rated_needs_accounts", 422,
                              "a rated game's seats are named by their accounts: leave out "
                              "%s.name", seat);
            json_object_set_new(err.body, "field", json_sprintf("%s.name", seat));
            return err;
        }
    }
    /* The creator holds x; o stays open, with no name, until an account
     * joins. */
    return rated_create_for(srv, body, &a, NULL);
}

struct reply rated_create_for(struct server *srv, json_t *body, const struct account *x,
                              const struct account *o)
{
    json_t *req = json_deep_copy(body);
    if (!req)
        return error_reply(503, "out_of_memory", 503, "out of memory");
    json_object_set_new(req, "rated", json_true());
    json_object_set_new(req, "x", json_pack("{s:s, s:s}", "kind", "human", "name", x->name));
    json_object_set_new(req, "o", json_pack("{s:s, s:s}", "kind", "human", "name",
                                            o ? o->name : ""));
    struct reply r = game_create(srv->mgr, req);
    json_decref(req);
    if (r.http != 201)
        return r;
    json_t *answer = reply_json(r);
    const char *id = json_string_value(json_object_get(answer, "id"));
    if (!id || accounts_rated_add(srv->accounts, id, x->id) != 0 ||
        (o && accounts_rated_join(srv->accounts, id, o) != 0)) {
        json_decref(answer);
        return error_reply(503, "store_failed", 503, "the rated game could not be stored");
    }
    /* Seats of a rated game are played with sessions: its seat tokens are
     * never handed out. */
    json_object_del(answer, "tokens");
    json_object_set_new(answer, "seat", json_string("x"));
    return (struct reply){201, answer, NULL};
}

struct reply rated_join(struct server *srv, struct MHD_Connection *conn,
                        struct game_entry *entry)
{
    struct reply err;
    struct account a;
    if (!session_of(srv, conn, &a, &err))
        return err;
    /* The game's lock spans the change, so a reader sees the name and the
     * seat together. */
    pthread_mutex_lock(&entry->lock);
    long long now = wall_ms();
    int rc = accounts_rated_join(srv->accounts, entry->id, &a);
    /* The name goes into the game's stored row (a restart, or another
     * server on a shared store, reads the o seat's account from it) before
     * the game shows it. */
    if (rc == 0 && (store_join(srv->mgr->store, entry->id, a.name, now) != STORE_OK ||
                    ttt_game_set_name(entry->game, TTT_O, a.name, strlen(a.name)) != TTT_OK)) {
        accounts_rated_leave(srv->accounts, entry->id, a.id);
        rc = -1;
    }
    if (rc == 0)
        clock_seated(srv->mgr, entry, now);
    pthread_mutex_unlock(&entry->lock);
    switch (rc) {
    case 0:
        return game_view(srv->mgr, entry);
    case 1:
        return error_reply(409, "seat_taken", 409, "both seats of this game are taken");
    case 2:
        return error_reply(409, "same_account", 409,
                           "this account holds the other seat: a rated game is between two "
                           "accounts");
    case 3:
        return error_reply(409, "not_joinable", 409,
                           "only a rated game created by an account has a seat to join");
    default:
        return error_reply(503, "store_failed", 503, "the seat could not be stored");
    }
}

static int row_seated(void *user, const struct store_game *game)
{
    *(long long *)user = game->seated_ms;
    return 0;
}

static int log_unneeded(void *user, const char *game_id, const struct store_event *event)
{
    (void)user;
    (void)game_id;
    (void)event;
    return -1; /* the row is all rated_refresh reads */
}

void rated_refresh(struct server *srv, struct game_entry *entry)
{
    char shown[TTT_NAME_MAX + 1], name[ACCOUNT_NAME_MAX + 1];
    size_t len;
    if (!srv->mgr->limits.shared || !entry->rated || !srv->accounts)
        return;
    pthread_mutex_lock(&entry->lock);
    /* Only while this copy's o seat is open: a join is never undone once
     * the game shows it. */
    if (ttt_game_get_name(entry->game, TTT_O, shown, sizeof shown, &len) != TTT_OK || len > 0 ||
        accounts_rated_o_name(srv->accounts, entry->id, name) != 1 ||
        ttt_game_set_name(entry->game, TTT_O, name, strlen(name)) != TTT_OK) {
        pthread_mutex_unlock(&entry->lock);
        return;
    }
    /* x's first-move window runs from the seating's time, which the
     * joining server stored in the game's row (now, if that row does not
     * have it yet: its write may come a moment after the seat's). */
    long long seated = 0;
    char err[256];
    (void)store_load_game(srv->mgr->store, entry->id, row_seated, log_unneeded, &seated, err,
                          sizeof err);
    clock_seated(srv->mgr, entry, seated > 0 ? seated : wall_ms());
    pthread_mutex_unlock(&entry->lock);
}

int rated_seat(struct server *srv, struct MHD_Connection *conn, struct game_entry *entry,
               int *seat, struct reply *err)
{
    long long seats[2];
    /* Without the account tables (--salvage), no session plays: the seat
     * tokens of games between accounts were never handed out. */
    if (!entry->rated || !srv->accounts)
        return 0;
    int found = accounts_rated_seats(srv->accounts, entry->id, seats);
    if (found == 0)
        return 0; /* rated before accounts: its seat tokens play it */
    *seat = 0;
    if (found < 0) {
        *err = error_reply(503, "store_failed", 503, "the seats could not be read");
        return 1;
    }
    struct account a;
    if (!session_of(srv, conn, &a, err))
        return 1;
    if (a.id != seats[0] && a.id != seats[1])
        *err = error_reply(403, "forbidden", 403, "this account holds no seat in this game");
    else if (!seats[1])
        *err = error_reply(409, "no_opponent", 409,
                           "the game waits for a second account to join it");
    else
        *seat = a.id == seats[0] ? TTT_X : TTT_O;
    return 1;
}
