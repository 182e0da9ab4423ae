/* accounts_db.h - the account, session and rated-seat tables behind one interface: in the SQLite store's file, or in the PostgreSQL database the games are in. */
#ifndef TTT_SERVER_ACCOUNTS_DB_H
#define TTT_SERVER_ACCOUNTS_DB_H

#include <stddef.h>

#include "accounts.h"

struct account;
struct account_db;

/* One backend's functions. Each may be called from many threads at once.
 * -1 always means the database could not be read or written. */
struct account_db_ops {
    void (*close)(struct account_db *db);
    /* A new account: 0, 1 if another has the name key (the database's
     * unique index decides between racing servers), -1. */
    int (*add_account)(struct account_db *db, const char *name, const char *key,
                       const char *hash, long long created);
    /* By name key: 1 with a's id and name and the hash (cap bytes at most),
     * 0 if there is none, -1. */
    int (*find_account)(struct account_db *db, const char *key, struct account *a, char *hash,
                        size_t cap);
    int (*set_hash)(struct account_db *db, long long id, const char *hash); /* 0 or -1 */
    /* Drops the sessions ended by now, then stores this one: 0 or -1. */
    int (*add_session)(struct account_db *db, const char *token_hash, long long account,
                       long long expires, long long now);
    /* The session's account, name and end into out: 1 while it lasts, 0 if
     * there is none or it ended by now (an ended one is dropped), -1. */
    int (*session)(struct account_db *db, const char *token_hash, long long now,
                   struct account *out);
    int (*end_session)(struct account_db *db, const char *token_hash); /* 0 or -1 */
    /* Rated seats, as accounts.h's accounts_rated_* describe them. */
    int (*rated_add)(struct account_db *db, const char *game_id, long long x_account);
    int (*rated_seats)(struct account_db *db, const char *game_id, long long seats[2]);
    int (*rated_join)(struct account_db *db, const char *game_id, long long account);
    int (*rated_leave)(struct account_db *db, const char *game_id, long long account);
    int (*rated_o_name)(struct account_db *db, const char *game_id,
                        char name[ACCOUNT_NAME_MAX + 1]);
};

/* The head of each backend's own struct (its first member). */
struct account_db {
    const struct account_db_ops *ops;
};

/* The tables in the SQLite file at path (the store's, which store_open
 * made), created if missing; synchronous_full as the store's. NULL and a
 * message in err on failure. */
struct account_db *account_db_open_sqlite(const char *path, int synchronous_full, char *err,
                                          size_t err_len);
#ifdef TTT_HAVE_POSTGRESQL
/* The tables in the PostgreSQL database at url (the store's), created if
 * missing; messages name the URL without its password. */
struct account_db *account_db_open_pg(const char *url, char *err, size_t err_len);
#endif

#endif
