/* accounts.h - accounts and sessions: Argon2id password hashes on a worker pool, session tokens, login rate limits. */
#ifndef TTT_SERVER_ACCOUNTS_H
#define TTT_SERVER_ACCOUNTS_H

#include <microhttpd.h>
#include <stddef.h>

#include "games.h"

/* Account names: 3 to 24 of A-Z a-z 0-9 _ -, unique ignoring ASCII case. */
enum { ACCOUNT_NAME_MIN = 3, ACCOUNT_NAME_MAX = 24 };
/* Passwords: 8 to 1024 bytes of UTF-8 with no NUL. */
enum { PASSWORD_MIN = 8, PASSWORD_MAX = 1024 };

struct accounts_config {
    unsigned argon2_time;       /* Argon2id passes (t) */
    unsigned argon2_memory_kib; /* Argon2id memory in KiB (m); lanes (p) are 1 */
    unsigned hash_threads;      /* threads that hash and verify passwords */
    unsigned hash_queue;        /* hashes waiting at most; past it 503 */
    long session_lifetime;      /* seconds a session lasts from the login */
    unsigned login_free;        /* failures before any delay, per account and address */
    long login_delay;           /* the first delay in seconds; it doubles per failure */
    long login_max_delay;       /* the longest delay in seconds */
    int synchronous_full;       /* as the store: fsync each commit */
};

struct accounts;

/* Opens the account, session and rated-seat tables where the store is
 * (after store_open, which makes the file or the schema): in the SQLite
 * file at where, or in the PostgreSQL database of the URL where, which
 * every server on it shares. Starts the hash threads. NULL and a message
 * in err (a URL's password left out) on failure. */
struct accounts *accounts_open(const char *where, const struct accounts_config *cfg, char *err,
                               size_t err_len);
void accounts_close(struct accounts *acc);

/* An account as a session shows it. */
struct account {
    long long id;
    char name[ACCOUNT_NAME_MAX + 1];
    long long expires; /* the session's end, Unix seconds */
    char session[65];  /* the session's key (its token's hash), never shown */
};

/* The account of a session token (sent as Authorization: Bearer or the
 * ttt_session cookie): 1 and *out, 0 (unknown, expired or malformed), or
 * -1 if the tables could not be read. Read from the database every time:
 * no server keeps a session a logout anywhere has ended. */
int accounts_session(struct accounts *acc, const char *token, size_t len, struct account *out);

/* Whether the session whose key is session (struct account's) still lasts:
 * 1, 0 (logged out or ended), -1 if the read failed. */
int accounts_session_lasts(struct accounts *acc, const char *session);

/* Rated games (rated.c): which account holds each seat, kept beside the
 * game in the same database. */
/* Records a new rated game whose x seat is x_account's; 0 or -1. */
int accounts_rated_add(struct accounts *acc, const char *game_id, long long x_account);
/* The accounts of a rated game's seats ([1] is 0 while open): 1, 0 if the
 * game has none (a guest game, or a rated one from before accounts), -1 if
 * the read failed. */
int accounts_rated_seats(struct accounts *acc, const char *game_id, long long seats[2]);
/* The o seat taken by joiner's account: 0; 1 the seat is taken; 2
 * joiner holds the x seat; 3 no such rated game; -1 the store failed. The
 * game's o name is the game store's to keep (store_join). */
int accounts_rated_join(struct accounts *acc, const char *game_id, const struct account *joiner);
/* Undoes accounts_rated_join of account (the game's name could not be
 * stored): the o seat is open again. 0 or -1. */
int accounts_rated_leave(struct accounts *acc, const char *game_id, long long account);

/* The name of the account holding a rated game's o seat: 1 with name set,
 * 0 while the seat is open (or the game is not between accounts), -1 if
 * the read failed. */
int accounts_rated_o_name(struct accounts *acc, const char *game_id,
                          char name[ACCOUNT_NAME_MAX + 1]);

/* A reply with what HTTP headers the account routes add. */
struct account_reply {
    struct reply reply;
    char cookie[160];  /* a Set-Cookie value, or "" */
    long retry_after;  /* seconds, for Retry-After; 0 for none */
};

/* POST /api/accounts. */
struct account_reply accounts_create(struct accounts *acc, json_t *body);
/* POST /api/sessions; address: the client's, as text. */
struct account_reply accounts_login(struct accounts *acc, json_t *body, const char *address);
/* GET and DELETE /api/sessions/current, token as for accounts_session. */
struct account_reply accounts_current(struct accounts *acc, const char *token, size_t len);
struct account_reply accounts_logout(struct accounts *acc, const char *token, size_t len);

/* The request's session token: Authorization's Bearer value, else the
 * ttt_session cookie; NULL if neither. *len gets its length. */
struct MHD_Connection;
const char *accounts_request_token(struct MHD_Connection *conn, size_t *len);

/* The routes /api/accounts, /api/sessions and /api/sessions/current (path
 * is the URL after /api/), with the request's body. */
struct server;
enum MHD_Result accounts_route(struct server *srv, struct MHD_Connection *conn, const char *path,
                               const char *method, const char *body, size_t len);

#endif
