/* accounts_sqlite.c - the account, session and rated-seat tables in the SQLite store's file. */
#include "accounts_db.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts.h"

struct sqlite_accounts {
    struct account_db base; /* first: what accounts.c calls through */
    sqlite3 *db;
    pthread_mutex_t lock;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS accounts ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
    " hash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    " token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL, expires INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires);"
    "CREATE TABLE IF NOT EXISTS rated_seats ("
    " game_id TEXT PRIMARY KEY, x_account INTEGER NOT NULL, o_account INTEGER);";

static struct sqlite_accounts *of(struct account_db *db)
{
    return (struct sqlite_accounts *)db;
}

/* Runs one statement with text and integer parameters ('s' and 'i' in
 * types), under the lock held by the caller; SQLite's result. */
static int exec_locked(struct sqlite_accounts *s, const char *sql, const char *types, va_list ap)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    for (int i = 0; rc == SQLITE_OK && types[i]; i++)
        rc = types[i] == 's' ? sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1,
                                                 SQLITE_TRANSIENT)
                             : sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc;
}

/* exec_locked under the lock; 0 if the statement ran to its end, else -1. */
static int exec_params(struct sqlite_accounts *s, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    pthread_mutex_lock(&s->lock);
    int rc = exec_locked(s, sql, types, ap);
    pthread_mutex_unlock(&s->lock);
    va_end(ap);
    return rc == SQLITE_DONE ? 0 : -1;
}

static void sqlite_close(struct account_db *db)
{
    struct sqlite_accounts *s = of(db);
    sqlite3_close(s->db);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static int sqlite_add_account(struct account_db *db, const char *name, const char *key,
                              const char *hash, long long created)
{
    struct sqlite_accounts *s = of(db);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "INSERT INTO accounts (name, name_key, hash, created)"
                                " VALUES (?, ?, ?, ?)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, hash, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, created);
        rc = sqlite3_step(st);
    }
    int ext = sqlite3_extended_errcode(s->db);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return rc == SQLITE_DONE ? 0 : ext == SQLITE_CONSTRAINT_UNIQUE ? 1 : -1;
}

static int sqlite_find_account(struct account_db *db, const char *key, struct account *a,
                               char *hash, size_t cap)
{
    struct sqlite_accounts *s = of(db);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = NULL;
    int found = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT id, name, hash FROM accounts WHERE name_key = ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 1);
            const char *h = (const char *)sqlite3_column_text(st, 2);
            found = name && h && strlen(h) < cap ? 1 : -1;
            if (found == 1) {
                a->id = sqlite3_column_int64(st, 0);
                snprintf(a->name, sizeof a->name, "%s", name);
                snprintf(hash, cap, "%s", h);
            }
        } else if (rc == SQLITE_DONE) {
            found = 0;
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return found;
}

static int sqlite_set_hash(struct account_db *db, long long id, const char *hash)
{
    return exec_params(of(db), "UPDATE accounts SET hash = ? WHERE id = ?", "si", hash, id);
}

static int sqlite_add_session(struct account_db *db, const char *token_hash, long long account,
                              long long expires, long long now)
{
    struct sqlite_accounts *s = of(db);
    exec_params(s, "DELETE FROM sessions WHERE expires <= ?", "i", now);
    return exec_params(s, "INSERT INTO sessions (token_hash, account_id, expires)"
                       " VALUES (?, ?, ?)", "sii", token_hash, account, expires);
}

static int sqlite_session(struct account_db *db, const char *token_hash, long long now,
                          struct account *out)
{
    struct sqlite_accounts *s = of(db);
    int found = -1;
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT a.id, a.name, s.expires FROM sessions s"
                           " JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && sqlite3_column_text(st, 1)) {
            out->id = sqlite3_column_int64(st, 0);
            snprintf(out->name, sizeof out->name, "%s", (const char *)sqlite3_column_text(st, 1));
            out->expires = sqlite3_column_int64(st, 2);
            found = out->expires > now ? 1 : 2;
        } else if (rc == SQLITE_DONE) {
            found = 0;
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    if (found == 2) { /* ended: gone for good */
        exec_params(s, "DELETE FROM sessions WHERE token_hash = ?", "s", token_hash);
        found = 0;
    }
    return found;
}

static int sqlite_end_session(struct account_db *db, const char *token_hash)
{
    return exec_params(of(db), "DELETE FROM sessions WHERE token_hash = ?", "s", token_hash);
}

static int sqlite_rated_add(struct account_db *db, const char *game_id, long long x_account)
{
    return exec_params(of(db), "INSERT INTO rated_seats (game_id, x_account) VALUES (?, ?)",
                       "si", game_id, x_account);
}

static int seats_locked(struct sqlite_accounts *s, const char *game_id, long long seats[2])
{
    sqlite3_stmt *st = NULL;
    int found = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT x_account, o_account FROM rated_seats"
                           " WHERE game_id = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, game_id, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        found = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
        if (found == 1) {
            seats[0] = sqlite3_column_int64(st, 0);
            seats[1] = sqlite3_column_int64(st, 1); /* NULL reads 0: the seat is open */
        }
    }
    sqlite3_finalize(st);
    return found;
}

static int sqlite_rated_seats(struct account_db *db, const char *game_id, long long seats[2])
{
    struct sqlite_accounts *s = of(db);
    pthread_mutex_lock(&s->lock);
    int found = seats_locked(s, game_id, seats);
    pthread_mutex_unlock(&s->lock);
    return found;
}

static int sqlite_rated_join(struct account_db *db, const char *game_id, long long account)
{
    struct sqlite_accounts *s = of(db);
    long long seats[2];
    pthread_mutex_lock(&s->lock);
    int found = seats_locked(s, game_id, seats);
    int rc = found < 0 ? -1 : found == 0 ? 3 : seats[1] ? 1 : seats[0] == account ? 2 : 0;
    if (rc == 0) {
        sqlite3_stmt *st = NULL;
        int ok = sqlite3_prepare_v2(s->db, "UPDATE rated_seats SET o_account = ?"
                                    " WHERE game_id = ? AND o_account IS NULL", -1, &st,
                                    NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_int64(st, 1, account);
            sqlite3_bind_text(st, 2, game_id, -1, SQLITE_TRANSIENT);
            ok = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(s->db) == 1;
        }
        sqlite3_finalize(st);
        rc = ok ? 0 : -1;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sqlite_rated_leave(struct account_db *db, const char *game_id, long long account)
{
    return exec_params(of(db), "UPDATE rated_seats SET o_account = NULL"
                       " WHERE game_id = ? AND o_account = ?", "si", game_id, account);
}

static int sqlite_o_name(struct account_db *db, const char *game_id,
                         char name[ACCOUNT_NAME_MAX + 1])
{
    struct sqlite_accounts *s = of(db);
    pthread_mutex_lock(&s->lock);
    sqlite3_stmt *st = NULL;
    int found = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT a.name FROM rated_seats s JOIN accounts a"
                           " ON a.id = s.o_account WHERE s.game_id = ?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, game_id, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        const char *text = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
        found = text && strlen(text) <= ACCOUNT_NAME_MAX ? 1 : rc == SQLITE_DONE ? 0 : -1;
        if (found == 1)
            snprintf(name, ACCOUNT_NAME_MAX + 1, "%s", text);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return found;
}

static const struct account_db_ops sqlite_ops = {
    sqlite_close,       sqlite_add_account, sqlite_find_account, sqlite_set_hash,
    sqlite_add_session, sqlite_session,     sqlite_end_session,  sqlite_rated_add,
    sqlite_rated_seats, sqlite_rated_join,  sqlite_rated_leave,  sqlite_o_name,
};

struct account_db *account_db_open_sqlite(const char *path, int synchronous_full, char *err,
                                          size_t err_len)
{
    struct sqlite_accounts *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    s->base.ops = &sqlite_ops;
    pthread_mutex_init(&s->lock, NULL);
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(s->db, 5000);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, synchronous_full ? "PRAGMA synchronous = FULL"
                                                  : "PRAGMA synchronous = NORMAL",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, schema, NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_len, "%s: the account tables: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        /* A damaged schema's names may be any bytes: the message stays text. */
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
                *c = '?';
        sqlite_close(&s->base);
        return NULL;
    }
    return &s->base;
}
