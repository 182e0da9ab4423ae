/* store_sqlite.c - the store on SQLite 3 in WAL mode: one owning process, commits grouped by one writer thread, every read checked. */
#include "store.h"
#include "store_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA_VERSION 3

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

static const char *const schema_v2 =
    "CREATE TABLE games ("
    " id TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,"
    " k INTEGER NOT NULL, gravity INTEGER NOT NULL, misere INTEGER NOT NULL,"
    " early_draw INTEGER NOT NULL, ply_limit INTEGER NOT NULL,"
    " rated INTEGER NOT NULL, x_kind TEXT NOT NULL, o_kind TEXT NOT NULL,"
    " x_budget INTEGER NOT NULL, o_budget INTEGER NOT NULL,"
    " x_name TEXT NOT NULL, o_name TEXT NOT NULL,"
    " x_token TEXT NOT NULL, o_token TEXT NOT NULL);"
    "CREATE TABLE moves ("
    " game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
    " kind INTEGER NOT NULL, mark INTEGER NOT NULL, cell INTEGER NOT NULL,"
    " finish_order INTEGER NOT NULL DEFAULT 0);";

/* Version 1 kept games by primary key, moves by (game_id, seq) and the
 * finish order in games: its rows are copied into version 2's tables, each
 * game's log in order, the finish order onto the log's last entry. */
static const char *const set_v1_aside =
    "ALTER TABLE games RENAME TO games_v1;"
    "ALTER TABLE moves RENAME TO moves_v1;";
static const char *const copy_v1 =
    "INSERT INTO games SELECT id, width, height, k, gravity, misere, early_draw,"
    " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name,"
    " x_token, o_token FROM games_v1 ORDER BY rowid;"
    "INSERT INTO moves SELECT m.game_id, m.seq, m.kind, m.mark, m.cell,"
    " CASE WHEN m.seq = (SELECT max(seq) FROM moves_v1 WHERE game_id = m.game_id)"
    " THEN g.finish_order ELSE 0 END"
    " FROM moves_v1 m JOIN games_v1 g ON g.id = m.game_id ORDER BY m.game_id, m.seq;"
    "DROP TABLE moves_v1;"
    "DROP TABLE games_v1;";

/* Version 3 adds a copy of every finished game, whole, in one row keyed by
 * its id: the server keeps only games in progress in memory and loads a
 * finished one by id on demand, and rebuilds the ratings from these rows
 * alone. A game's row goes in with the entry that ends it, in the same
 * transaction. One random page of the key a finished game, where an index
 * on the log would dirty one a move; games and moves stay plain logs. */
static const char *const schema_v3 =
    "CREATE TABLE finished ("
    " id TEXT PRIMARY KEY NOT NULL, finish_order INTEGER NOT NULL, state INTEGER NOT NULL,"
    " width INTEGER NOT NULL, height INTEGER NOT NULL, k INTEGER NOT NULL,"
    " gravity INTEGER NOT NULL, misere INTEGER NOT NULL, early_draw INTEGER NOT NULL,"
    " ply_limit INTEGER NOT NULL, rated INTEGER NOT NULL, x_kind TEXT NOT NULL,"
    " o_kind TEXT NOT NULL, x_budget INTEGER NOT NULL, o_budget INTEGER NOT NULL,"
    " x_name TEXT NOT NULL, o_name TEXT NOT NULL, x_token TEXT NOT NULL,"
    " o_token TEXT NOT NULL, log TEXT NOT NULL) WITHOUT ROWID;";

/* The start's reads: each table in rowid order (the order of commits),
 * from after the rowid bound to ?1; finished games stay on disk. */
static const char *const scan_games_sql =
    "SELECT rowid, id, width, height, k, gravity, misere, early_draw, ply_limit, rated,"
    " x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token, o_token FROM games"
    " WHERE rowid > ?1 AND id NOT IN (SELECT id FROM finished) ORDER BY rowid";
static const char *const scan_moves_sql =
    "SELECT rowid, game_id, seq, kind, mark, cell, finish_order FROM moves"
    " WHERE rowid > ?1 AND (typeof(game_id) <> 'text' OR game_id NOT IN (SELECT id FROM finished))"
    " ORDER BY rowid";
static const char *const finished_columns =
    "id, width, height, k, gravity, misere, early_draw, ply_limit, rated, x_kind, o_kind,"
    " x_budget, o_budget, x_name, o_name, x_token, o_token, finish_order, state, log";

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* A log as text: "kind mark cell" per entry, entries joined by ';' (the
 * seq is the position, the finish order is the row's). malloc'ed, or NULL. */
static char *log_text(const struct store_event *log, size_t count)
{
    char *text = malloc(count * 36 + 1);
    size_t len = 0;
    if (!text)
        return NULL;
    text[0] = '\0';
    for (size_t i = 0; i < count; i++)
        len += (size_t)sprintf(text + len, "%s%d %d %d", i ? ";" : "", log[i].kind,
                               log[i].mark, log[i].cell);
    return text;
}

/* Binds a store_game's 17 columns from parameter first on. */
static int bind_game(sqlite3_stmt *st, int first, const struct store_game *g)
{
    int rc = sqlite3_bind_text(st, first, g->id, -1, SQLITE_STATIC);
    int values[] = {g->width, g->height, g->k, g->gravity, g->misere,
                    g->early_draw, g->ply_limit, g->rated};
    for (int i = 0; i < 8; i++)
        rc |= sqlite3_bind_int(st, first + 1 + i, values[i]);
    for (int s = 0; s < 2; s++) {
        rc |= sqlite3_bind_text(st, first + 9 + s, g->kind[s], -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int64(st, first + 11 + s, g->budget[s]);
        rc |= sqlite3_bind_text(st, first + 13 + s, g->name[s], -1, SQLITE_STATIC);
        rc |= sqlite3_bind_text(st, first + 15 + s, g->token[s], -1, SQLITE_STATIC);
    }
    return rc;
}

/* Steps a bound statement and resets it; SQLITE_DONE or SQLite's code,
 * with its message in error then. */
static int step_once(struct sqlite_store *store, sqlite3_stmt *st, int bound, char *error, size_t cap,
                     int *ext)
{
    int rc = bound == SQLITE_OK ? sqlite3_step(st) : bound;
    *ext = sqlite3_extended_errcode(store->db);
    if (rc != SQLITE_DONE)
        snprintf(error, cap, "%s", sqlite3_errmsg(store->db));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc;
}

static int insert_finished(struct sqlite_store *store, const struct store_finished *f, char *error,
                           size_t cap, int *ext)
{
    sqlite3_stmt *st = store->insert_finished;
    char *log = log_text(f->log, f->count);
    if (!log) {
        snprintf(error, cap, "out of memory");
        return SQLITE_NOMEM;
    }
    int bound = bind_game(st, 1, f->game);
    bound |= sqlite3_bind_int64(st, 18, f->finish_order);
    bound |= sqlite3_bind_int(st, 19, f->state);
    bound |= sqlite3_bind_text(st, 20, log, -1, SQLITE_STATIC);
    int rc = step_once(store, st, bound, error, cap, ext);
    free(log);
    return rc;
}

/* Runs one write inside the open transaction; on failure its message goes
 * into error. A failed write stores nothing (a savepoint undoes the first
 * half of a two-row write) and leaves the transaction open for the others. */
static int run_one(struct sqlite_store *store, const struct pending *p, char *error, size_t cap)
{
    int rc = SQLITE_DONE, ext = 0;
    if (p->game) {
        rc = step_once(store, store->insert_game, bind_game(store->insert_game, 1, p->game),
                       error, cap, &ext);
    } else if (!p->event) {
        for (size_t i = 0; rc == SQLITE_DONE && i < p->finished_count; i++)
            rc = insert_finished(store, &p->finished[i], error, cap, &ext);
    } else {
        int two = p->finished != NULL;
        if (two && sqlite3_exec(store->db, "SAVEPOINT one", NULL, NULL, NULL) != SQLITE_OK) {
            snprintf(error, cap, "%s", sqlite3_errmsg(store->db));
            return STORE_FAILED;
        }
        sqlite3_stmt *st = store->insert_event;
        int bound = sqlite3_bind_text(st, 1, p->game_id, -1, SQLITE_STATIC);
        bound |= sqlite3_bind_int(st, 2, p->event->seq);
        bound |= sqlite3_bind_int(st, 3, p->event->kind);
        bound |= sqlite3_bind_int(st, 4, p->event->mark);
        bound |= sqlite3_bind_int(st, 5, p->event->cell);
        bound |= sqlite3_bind_int64(st, 6, p->event->finish_order);
        rc = step_once(store, st, bound, error, cap, &ext);
        if (two && rc == SQLITE_DONE)
            rc = insert_finished(store, p->finished, error, cap, &ext);
        if (two && rc != SQLITE_DONE)
            sqlite3_exec(store->db, "ROLLBACK TO one", NULL, NULL, NULL);
        if (two && sqlite3_exec(store->db, "RELEASE one", NULL, NULL, NULL) != SQLITE_OK &&
            rc == SQLITE_DONE) {
            snprintf(error, cap, "%s", sqlite3_errmsg(store->db));
            rc = SQLITE_ERROR;
        }
    }
    if (rc == SQLITE_DONE)
        return STORE_OK;
    /* Only a unique key means "someone else was first"; any other
     * constraint (a trigger's RAISE, say) is a failure like a full disk. */
    return ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY
               ? STORE_CONFLICT : STORE_FAILED;
}

/* Takes every waiting write, runs them in one transaction and wakes their
 * callers once it is committed: one sync for many moves. */
static void *writer_main(void *arg)
{
    struct sqlite_store *store = arg;
    pthread_mutex_lock(&store->lock);
    for (;;) {
        while (!store->head && !store->stopping)
            pthread_cond_wait(&store->wake_writer, &store->lock);
        if (!store->head)
            break;
        struct pending *batch = store->head;
        store->head = store->tail = NULL;
        pthread_mutex_unlock(&store->lock);

        char error[256] = "";
        uint64_t failed = 0;
        double start = now_us();
        int ok = sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
        if (!ok)
            snprintf(error, sizeof error, "BEGIN: %s", sqlite3_errmsg(store->db));
        for (struct pending *p = batch; p; p = p->next) {
            p->result = ok ? run_one(store, p, error, sizeof error) : STORE_FAILED;
            failed += p->result == STORE_FAILED;
        }
        if (ok && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            snprintf(error, sizeof error, "COMMIT: %s", sqlite3_errmsg(store->db));
            sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
            ok = 0;
        }
        double took = now_us() - start;
        if (!ok) {
            failed = 0;
            for (struct pending *p = batch; p; p = p->next, failed++)
                p->result = STORE_FAILED;
        }
        /* Counted before any caller wakes: whoever saw a write acknowledged
         * (or refused) then finds its commit in store_stats. */
        pthread_mutex_lock(&store->lock);
        store->failed_writes += failed;
        if (ok) {
            store->commits++;
            store->total_us += took;
            store->last_us = took;
        }
        if (failed)
            snprintf(store->last_error, sizeof store->last_error, "%s", error);
        else
            store->last_error[0] = '\0';
        pthread_mutex_unlock(&store->lock);

        /* Each caller sleeps on its own semaphore, so a commit wakes
         * exactly its callers and they do not queue for the store's lock. */
        for (struct pending *p = batch, *next; p; p = next) {
            next = p->next;
            sem_post(&p->done);
        }
        pthread_mutex_lock(&store->lock);
    }
    pthread_mutex_unlock(&store->lock);
    return NULL;
}

static int submit(struct sqlite_store *store, struct pending *p)
{
    pthread_mutex_lock(&store->lock);
    if (store->stopping) {
        pthread_mutex_unlock(&store->lock);
        return STORE_FAILED;
    }
    sem_init(&p->done, 0, 0);
    if (store->tail)
        store->tail->next = p;
    else
        store->head = p;
    store->tail = p;
    pthread_cond_signal(&store->wake_writer);
    pthread_mutex_unlock(&store->lock);
    while (sem_wait(&p->done) != 0)
        ; /* EINTR: wait on */
    sem_destroy(&p->done);
    return p->result;
}

static int sqlite_add_game(struct sqlite_store *store, const struct store_game *game)
{
    struct pending p = {.game = game};
    return submit(store, &p);
}

static int sqlite_add_event(struct sqlite_store *store, const char *game_id,
                    const struct store_event *event, const struct store_finished *finished)
{
    struct pending p = {.game_id = game_id, .event = event, .finished = finished,
                        .finished_count = finished != NULL};
    return submit(store, &p);
}

static int sqlite_add_finished(struct sqlite_store *store, const struct store_finished *games, size_t count)
{
    if (count == 0)
        return STORE_OK;
    struct pending p = {.finished = games, .finished_count = count};
    return submit(store, &p);
}

/* Runs sql (no rows expected); 0, or -1 with SQLite's message in err. */
static int exec_or_say(sqlite3 *db, const char *path, const char *what, const char *sql,
                       char *err, size_t err_len)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, err_len, "%s: %s: %s", path, what, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

/* The single integer a statement answers; -1 with a message in err. */
static int query_int(sqlite3 *db, const char *path, const char *sql, long long *out,
                     char *err, size_t err_len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
        *out = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return 0;
    }
    snprintf(err, err_len, "%s: %s: %s", path, sql,
             rc == SQLITE_ROW ? "not an integer" : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return -1;
}

static int migrate(struct sqlite_store *store, char *err, size_t err_len)
{
    sqlite3 *db = store->db;
    long long version;
    if (query_int(db, store->path, "PRAGMA user_version", &version, err, err_len) != 0)
        return -1;
    if (version > SCHEMA_VERSION || version < 0) {
        snprintf(err, err_len, "%s: database schema version %lld is not this server's %d",
                 store->path, version, SCHEMA_VERSION);
        return -1;
    }
    if (version == SCHEMA_VERSION)
        return 0;
    /* Version 0 is a new file: create the tables; version 1 is migrated.
     * Later versions add their steps here, each from the one before, all
     * in one transaction. */
    if (exec_or_say(db, store->path, "migrating", "BEGIN IMMEDIATE", err, err_len) != 0)
        return -1;
    int ok = 1;
    if (version == 1)
        ok = exec_or_say(db, store->path, "migrating from version 1", set_v1_aside, err,
                         err_len) == 0;
    if (ok && version < 2)
        ok = exec_or_say(db, store->path, "creating the tables", schema_v2, err, err_len) == 0;
    if (ok && version == 1)
        ok = exec_or_say(db, store->path, "migrating from version 1", copy_v1, err,
                         err_len) == 0;
    /* From version 2 on, only the table of finished games is new: the
     * first load finds their games finished and copies them into it. */
    if (ok)
        ok = exec_or_say(db, store->path, "creating the table of finished games", schema_v3,
                         err, err_len) == 0;
    if (ok)
        ok = exec_or_say(db, store->path, "migrating", "PRAGMA user_version = 3; COMMIT", err,
                         err_len) == 0;
    if (!ok) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* PATH.lock, write-locked for as long as the store is open: the lock goes
 * with the process (a kill -9 releases it), and the file names the holder. */
static int take_lock(struct sqlite_store *store, char *err, size_t err_len)
{
    size_t n = strlen(store->path) + 6;
    char *name = malloc(n);
    if (!name) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    snprintf(name, n, "%s.lock", store->path);
    store->lock_fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (store->lock_fd < 0) {
        snprintf(err, err_len, "%s: cannot open its lock file %s: %s", store->path, name,
                 strerror(errno));
        free(name);
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(store->lock_fd, F_SETLK, &fl) != 0) {
        int why = errno;
        struct flock holder = fl;
        if ((why == EAGAIN || why == EACCES) && fcntl(store->lock_fd, F_GETLK, &holder) == 0 &&
            holder.l_type != F_UNLCK)
            snprintf(err, err_len, "%s is in use by process %ld (it holds %s); one server"
                     " owns a database", store->path, (long)holder.l_pid, name);
        else
            snprintf(err, err_len, "%s: cannot lock %s: %s", store->path, name, strerror(why));
        free(name);
        return -1;
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(store->lock_fd, 0) != 0 || pwrite(store->lock_fd, pid, (size_t)len, 0) != len) {
        snprintf(err, err_len, "%s: cannot write %s: %s", store->path, name, strerror(errno));
        free(name);
        return -1;
    }
    free(name);
    return 0;
}

/* SQLite's own check of every page; its findings (up to 10) in err. */
static int quick_check(struct sqlite_store *store, char *err, size_t err_len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(store->db, "PRAGMA quick_check(10)", -1, &st, NULL);
    size_t used = 0;
    int rows = 0, ok = 0;
    err[0] = '\0';
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        rows++;
        if (rows == 1 && line && strcmp(line, "ok") == 0)
            ok = 1;
        if (used < err_len)
            used += (size_t)snprintf(err + used, err_len - used, "%s%s", rows == 1 ? "" : "; ",
                                     line ? line : "?");
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE)
        snprintf(err, err_len, "%s", sqlite3_errmsg(store->db));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE && ok && rows == 1 ? 0 : -1;
}

static int open_db(const char *path, sqlite3 **db, char *err, size_t err_len)
{
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                             SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, err_len, "%s: %s", path, *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
        return -1;
    }
    sqlite3_extended_result_codes(*db, 1);
    if (sqlite3_busy_timeout(*db, 5000) != SQLITE_OK) {
        snprintf(err, err_len, "%s: %s", path, sqlite3_errmsg(*db));
        return -1;
    }
    return 0;
}

static void sqlite_close(struct sqlite_store *store);

static struct sqlite_store *sqlite_open(const char *path, int synchronous_full, int salvage, char *err,
                         size_t err_len)
{
    struct sqlite_store *store = calloc(1, sizeof *store);
    if (!store || !(store->path = strdup(path))) {
        free(store);
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    store->lock_fd = -1;
    store->salvage = salvage;
    pthread_mutex_init(&store->lock, NULL);
    pthread_mutex_init(&store->read_lock, NULL);
    pthread_cond_init(&store->wake_writer, NULL);
    if (take_lock(store, err, err_len) != 0 || open_db(path, &store->db, err, err_len) != 0)
        goto fail;
    char check[512];
    if (quick_check(store, check, sizeof check) != 0) {
        if (!salvage) {
            snprintf(err, err_len, "%s fails SQLite's quick_check: %s (--salvage serves what"
                     " reads)", path, check);
            goto fail;
        }
        fprintf(stderr, "ttt-server: %s fails SQLite's quick_check: %s; salvaging\n", path,
                check);
        /* A damaged index is rebuilt from its table; a damaged table stays. */
        if (sqlite3_exec(store->db, "REINDEX", NULL, NULL, NULL) != SQLITE_OK)
            fprintf(stderr, "ttt-server: %s: REINDEX fails: %s\n", path,
                    sqlite3_errmsg(store->db));
        else if (quick_check(store, check, sizeof check) == 0)
            fprintf(stderr, "ttt-server: %s: the indexes were rebuilt (REINDEX); the file"
                    " passes quick_check now\n", path);
        else
            fprintf(stderr, "ttt-server: %s: REINDEX leaves it damaged\n", path);
    }
    long long wal = 0;
    if (exec_or_say(store->db, path, "setting the journal mode",
                    "PRAGMA journal_mode = WAL", err, err_len) != 0 ||
        query_int(store->db, path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode",
                  &wal, err, err_len) != 0)
        goto fail;
    if (!wal) {
        snprintf(err, err_len, "%s: cannot use WAL mode", path);
        goto fail;
    }
    if (exec_or_say(store->db, path, "setting synchronous", synchronous_full
                    ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
                    err, err_len) != 0 ||
        migrate(store, err, err_len) != 0)
        goto fail;
    if (sqlite3_prepare_v2(store->db,
            "INSERT INTO games (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name,"
            " x_token, o_token) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &store->insert_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db,
            "INSERT INTO moves (game_id, seq, kind, mark, cell, finish_order)"
            " VALUES (?,?,?,?,?,?)", -1, &store->insert_event, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db,
            "INSERT OR IGNORE INTO finished (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
            " o_token, finish_order, state, log) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &store->insert_finished, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: preparing statements: %s", path, sqlite3_errmsg(store->db));
        goto fail;
    }
    if (open_db(path, &store->rdb, err, err_len) != 0)
        goto fail;
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT %s FROM finished WHERE id = ?1", finished_columns);
    if (sqlite3_prepare_v2(store->rdb, sql, -1, &store->load_finished, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: preparing statements: %s", path, sqlite3_errmsg(store->rdb));
        goto fail;
    }
    if (pthread_create(&store->writer, NULL, writer_main, store) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        goto fail;
    }
    store->writer_started = 1;
    return store;
fail:
    sqlite_close(store);
    return NULL;
}

static void sqlite_close(struct sqlite_store *store)
{
    if (!store)
        return;
    if (store->writer_started) {
        pthread_mutex_lock(&store->lock);
        store->stopping = 1;
        pthread_cond_signal(&store->wake_writer);
        pthread_mutex_unlock(&store->lock);
        pthread_join(store->writer, NULL);
    }
    sqlite3_finalize(store->insert_game);
    sqlite3_finalize(store->insert_event);
    sqlite3_finalize(store->insert_finished);
    sqlite3_finalize(store->load_finished);
    /* The reader first: the writer's close, the last, checkpoints the WAL. */
    if (sqlite3_close(store->rdb) != SQLITE_OK || sqlite3_close(store->db) != SQLITE_OK)
        fprintf(stderr, "ttt-server: closing %s: %s\n", store->path, sqlite3_errmsg(store->db));
    if (store->lock_fd >= 0)
        close(store->lock_fd); /* releases the lock; the file stays, naming nobody live */
    pthread_mutex_destroy(&store->lock);
    pthread_mutex_destroy(&store->read_lock);
    pthread_cond_destroy(&store->wake_writer);
    free(store->path);
    free(store);
}

/* A text column into dst (cap bytes with its NUL); -1 if it is not text,
 * too long or holds a NUL byte. */
static int column_text(sqlite3_stmt *st, int i, char *dst, size_t cap)
{
    if (sqlite3_column_type(st, i) != SQLITE_TEXT)
        return -1;
    const unsigned char *text = sqlite3_column_text(st, i);
    int len = sqlite3_column_bytes(st, i);
    if (!text || len < 0 || (size_t)len >= cap || memchr(text, '\0', (size_t)len))
        return -1;
    memcpy(dst, text, (size_t)len);
    dst[len] = '\0';
    return 0;
}

/* A game id column: 1 to 23 of [0-9a-z], as the server makes them (and so
 * safe to print); -1 otherwise. */
static int column_id(sqlite3_stmt *st, int i, char *dst, size_t cap)
{
    if (column_text(st, i, dst, cap) != 0 || dst[0] == '\0')
        return -1;
    for (const char *c = dst; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z')))
            return -1;
    return 0;
}

static int column_int(sqlite3_stmt *st, int i, long long lo, long long hi, long long *out)
{
    if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
        return -1;
    long long v = sqlite3_column_int64(st, i);
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static const char *type_name(int type)
{
    switch (type) {
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT: return "a real";
    case SQLITE_TEXT: return "text";
    case SQLITE_BLOB: return "a blob";
    default: return "null";
    }
}

/* Why column i of the row is refused. */
static void say_column(char *why, size_t cap, const char *table, long long rowid,
                       sqlite3_stmt *st, int i)
{
    int type = sqlite3_column_type(st, i);
    snprintf(why, cap, "%s row %lld: %s is %s%s", table, rowid, sqlite3_column_name(st, i),
             type_name(type), type == SQLITE_TEXT ? " (too long, empty, or not as written)"
                            : type == SQLITE_INTEGER ? " out of range" : "");
}

/* A games row (columns as in scan_games_sql, from offset 1); the column at
 * fault, or -1. */
static int read_game(sqlite3_stmt *st, int base, struct store_game *g)
{
    long long v;
    memset(g, 0, sizeof *g);
    if (column_id(st, base, g->id, sizeof g->id) != 0)
        return base;
    int *values[] = {&g->width, &g->height, &g->k, &g->gravity, &g->misere,
                     &g->early_draw, &g->ply_limit, &g->rated};
    for (int i = 0; i < 8; i++) {
        if (column_int(st, base + 1 + i, INT_MIN, INT_MAX, &v) != 0)
            return base + 1 + i;
        *values[i] = (int)v;
    }
    for (int s = 0; s < 2; s++) {
        if (column_text(st, base + 9 + s, g->kind[s], sizeof g->kind[s]) != 0)
            return base + 9 + s;
        if (column_int(st, base + 11 + s, 0, LLONG_MAX, &g->budget[s]) != 0)
            return base + 11 + s;
        if (column_text(st, base + 13 + s, g->name[s], sizeof g->name[s]) != 0)
            return base + 13 + s;
        if (column_text(st, base + 15 + s, g->token[s], sizeof g->token[s]) != 0)
            return base + 15 + s;
    }
    return -1;
}

/* A moves row's event columns (seq, kind, mark, cell, finish_order from
 * base); the column at fault, or -1. */
static int read_event(sqlite3_stmt *st, int base, struct store_event *e)
{
    long long v[5];
    static const long long lo[5] = {0, 0, -1, -1, 0};
    static const long long hi[5] = {INT_MAX, 2, 1, INT_MAX, LLONG_MAX};
    for (int i = 0; i < 5; i++)
        if (column_int(st, base + i, lo[i], hi[i], &v[i]) != 0)
            return base + i;
    *e = (struct store_event){(int)v[0], (int)v[1], (int)v[2], (int)v[3], v[4]};
    return -1;
}

struct scan {
    struct sqlite_store *store;
    store_game_fn on_game;
    store_event_fn on_event;
    void *user;
    long skipped;
    char *err;
    size_t err_len;
};

/* A row refused: outside salvage the load stops with why; in it, why is
 * reported and the load goes on. */
static int refuse(struct scan *sc, const char *why, const char *then)
{
    if (!sc->store->salvage) {
        snprintf(sc->err, sc->err_len, "%s: %s (--salvage skips it)", sc->store->path, why);
        return -1;
    }
    fprintf(stderr, "ttt-server: %s: %s; %s\n", sc->store->path, why, then);
    sc->skipped++;
    return 0;
}

static int games_row(struct scan *sc, sqlite3_stmt *st, long long rowid)
{
    struct store_game g;
    int col = read_game(st, 1, &g);
    if (col >= 0) {
        char why[200];
        say_column(why, sizeof why, "games", rowid, st, col);
        return refuse(sc, why, "game skipped");
    }
    return sc->on_game(sc->user, &g) == 0 ? 0 : -1;
}

static int moves_row(struct scan *sc, sqlite3_stmt *st, long long rowid)
{
    char id[24], why[200];
    struct store_event e;
    if (column_id(st, 1, id, sizeof id) != 0) {
        say_column(why, sizeof why, "moves", rowid, st, 1);
        return refuse(sc, why, "row skipped");
    }
    int col = read_event(st, 2, &e);
    if (col >= 0) {
        say_column(why, sizeof why, "moves", rowid, st, col);
        if (refuse(sc, why, "its game skipped") != 0)
            return -1;
        return sc->on_event(sc->user, id, NULL) == 0 ? 0 : -1;
    }
    return sc->on_event(sc->user, id, &e) == 0 ? 0 : -1;
}

/* In salvage, after a read error past rowid after of table: the rowid of
 * the next row that reads, probing ever further; LLONG_MIN if none does. */
static long long next_readable(struct sqlite_store *store, const char *table, long long after)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT rowid FROM %s WHERE rowid > ?1 ORDER BY rowid LIMIT 1",
             table);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->rdb, sql, -1, &st, NULL) != SQLITE_OK)
        return LLONG_MIN;
    long long found = LLONG_MIN;
    /* Rowids start at 1: from the start of the table, probe from there. */
    long long base = after < 0 ? 0 : after;
    for (long long gap = 0; gap < ((long long)1 << 62); gap = gap ? 2 * gap : 1) {
        if (base > LLONG_MAX - gap)
            break;
        sqlite3_reset(st);
        if (sqlite3_bind_int64(st, 1, base + gap) != SQLITE_OK)
            break;
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            found = sqlite3_column_int64(st, 0);
            break;
        }
        if (rc == SQLITE_DONE)
            break;
    }
    sqlite3_finalize(st);
    return found;
}

/* Every row of table (sql takes the rowid to start after as ?1 and answers
 * the rowid first) through row. A read error stops the load outside
 * salvage; in it, the rows that do not read are reported and skipped. */
static int scan_table(struct scan *sc, const char *table, const char *sql,
                      int (*row)(struct scan *, sqlite3_stmt *, long long))
{
    struct sqlite_store *store = sc->store;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->rdb, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(sc->err, sc->err_len, "%s: reading %s: %s", store->path, table,
                 sqlite3_errmsg(store->rdb));
        return -1;
    }
    long long after = LLONG_MIN, pass_start, gap = 1;
    int result = 0;
    for (;;) {
        pass_start = after;
        sqlite3_reset(st);
        if (sqlite3_bind_int64(st, 1, after) != SQLITE_OK) {
            snprintf(sc->err, sc->err_len, "%s: %s", store->path, sqlite3_errmsg(store->rdb));
            result = -1;
            break;
        }
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            long long rowid = sqlite3_column_int64(st, 0);
            if (row(sc, st, rowid) != 0) {
                result = -1;
                break;
            }
            if (rowid > after)
                after = rowid; /* only forward, even where a damaged page disagrees */
        }
        if (result != 0 || rc == SQLITE_DONE)
            break;
        char where[48] = "", why[160];
        if (after != LLONG_MIN)
            snprintf(where, sizeof where, " after row %lld", after);
        snprintf(why, sizeof why, "%s", sqlite3_errmsg(store->rdb));
        if (!store->salvage) {
            snprintf(sc->err, sc->err_len, "%s: reading %s%s: %s (--salvage skips what does"
                     " not read)", store->path, table, where, why);
            result = -1;
            break;
        }
        long long next = next_readable(store, table, after);
        sc->skipped++;
        if (next == LLONG_MIN) {
            fprintf(stderr, "ttt-server: %s: reading %s%s: %s; the rows past it are skipped\n",
                    store->path, table, where, why);
            break;
        }
        /* A pass that read nothing new (the first row whose key reads may be
         * one whose values do not; a damaged page may give rows out of
         * order) skips ever further, so the scan always ends. */
        gap = after > pass_start ? 1 : gap < ((long long)1 << 61) ? 2 * gap : gap;
        long long resume = next - 1;
        if (after == pass_start) {
            long long base = after < 0 ? 0 : after;
            resume = base > LLONG_MAX - gap ? LLONG_MAX : base + gap;
            if (resume < next)
                resume = next;
        }
        if (resume <= after && after != LLONG_MIN)
            resume = after + 1;
        fprintf(stderr, "ttt-server: %s: reading %s%s: %s; rows up to %lld skipped\n",
                store->path, table, where, why, resume);
        after = resume;
    }
    sqlite3_finalize(st);
    return result;
}

static int sqlite_load(struct sqlite_store *store, store_game_fn on_game, store_event_fn on_event,
               void *user, long *skipped, char *err, size_t err_len)
{
    struct scan sc = {store, on_game, on_event, user, 0, err, err_len};
    err[0] = '\0';
    pthread_mutex_lock(&store->read_lock);
    int rc = scan_table(&sc, "games", scan_games_sql, games_row);
    if (rc == 0)
        rc = scan_table(&sc, "moves", scan_moves_sql, moves_row);
    pthread_mutex_unlock(&store->read_lock);
    *skipped = sc.skipped;
    return rc;
}

/* Parses a log as log_text wrote it into events (cap of them); the count,
 * or -1 if the text is not one. */
static long parse_log(const char *text, struct store_event *events, size_t cap)
{
    size_t n = 0;
    if (*text == '\0')
        return 0;
    for (;;) {
        long v[3];
        for (int i = 0; i < 3; i++) {
            char *end;
            errno = 0;
            v[i] = strtol(text, &end, 10);
            if (end == text || errno || v[i] < INT_MIN || v[i] > INT_MAX ||
                (i < 2 && *end != ' '))
                return -1;
            text = i < 2 ? end + 1 : end;
        }
        if (n == cap || v[0] < 0 || v[0] > 2 || v[1] < -1 || v[1] > 1)
            return -1;
        events[n] = (struct store_event){(int)n, (int)v[0], (int)v[1], (int)v[2], 0};
        n++;
        if (*text == '\0')
            return (long)n;
        if (*text++ != ';')
            return -1;
    }
}

static int sqlite_load_game(struct sqlite_store *store, const char *id, store_game_fn on_game,
                    store_event_fn on_event, void *user, char *err, size_t err_len)
{
    struct store_game g;
    struct store_event *events = NULL;
    long count = 0;
    int result = 0;
    char why[200] = "";
    pthread_mutex_lock(&store->read_lock);
    sqlite3_stmt *st = store->load_finished;
    int rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        int col = read_game(st, 0, &g);
        long long order = 0, state;
        int log_is_text = sqlite3_column_type(st, 19) == SQLITE_TEXT; /* before reading it */
        const char *log = (const char *)sqlite3_column_text(st, 19);
        int bytes = sqlite3_column_bytes(st, 19);
        if (col < 0 && (column_int(st, 17, 1, LLONG_MAX, &order) != 0 ||
                        column_int(st, 18, 1, 3, &state) != 0))
            col = column_int(st, 17, 1, LLONG_MAX, &order) != 0 ? 17 : 18;
        if (col < 0 && (!log_is_text || !log ||
                        !(events = malloc(((size_t)bytes / 6 + 1) * sizeof *events)) ||
                        (count = parse_log(log, events, (size_t)bytes / 6 + 1)) <= 0))
            col = 19;
        if (col >= 0) {
            say_column(why, sizeof why, "finished", 0, st, col);
            snprintf(err, err_len, "%s: game %s: %s", store->path, id, strchr(why, ':') + 2);
            result = -1;
        } else {
            events[count - 1].finish_order = order;
            result = 1;
        }
    } else if (rc != SQLITE_DONE) {
        snprintf(err, err_len, "%s: loading game %s: %s", store->path, id,
                 sqlite3_errmsg(store->rdb));
        result = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    pthread_mutex_unlock(&store->read_lock);
    /* The callbacks run without the read lock: they may take their own. */
    if (result == 1 && on_game(user, &g) != 0)
        result = -1;
    for (long i = 0; result == 1 && i < count; i++)
        if (on_event(user, g.id, &events[i]) != 0)
            result = -1;
    free(events);
    return result;
}

static int sqlite_load_results(struct sqlite_store *store, store_result_fn on_result, void *user,
                       char *err, size_t err_len)
{
    sqlite3_stmt *st = NULL;
    pthread_mutex_lock(&store->read_lock);
    int rc = sqlite3_prepare_v2(store->rdb, "SELECT id, finish_order, rated, x_name, o_name,"
                                " state, width, height, k, gravity, misere, ply_limit"
                                " FROM finished ORDER BY finish_order", -1, &st, NULL);
    int result = 0;
    while (result == 0 && rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char id[24], names[2][72];
        long long order, rated, state, shape[6];
        int bad = column_text(st, 0, id, sizeof id) != 0 ||
                  column_int(st, 1, 1, LLONG_MAX, &order) != 0 ||
                  column_int(st, 2, 0, 1, &rated) != 0 ||
                  column_text(st, 3, names[0], sizeof names[0]) != 0 ||
                  column_text(st, 4, names[1], sizeof names[1]) != 0 ||
                  column_int(st, 5, 1, 3, &state) != 0;
        for (int c = 0; c < 6 && !bad; c++)
            bad = column_int(st, 6 + c, 0, INT_MAX, &shape[c]) != 0;
        if (bad) {
            const char *shown = column_id(st, 0, id, sizeof id) == 0 ? id : "?";
            if (store->salvage) {
                fprintf(stderr, "ttt-server: %s: finished game %s holds a bad value; left out"
                        " of the ratings\n", store->path, shown);
                rc = SQLITE_OK;
                continue;
            }
            snprintf(err, err_len, "%s: finished game %s holds a bad value (--salvage leaves"
                     " it out)", store->path, shown);
            result = -1;
            break;
        }
        struct store_result res = {id, order, (int)rated, (int)state, {names[0], names[1]},
                                   (int)shape[0], (int)shape[1], (int)shape[2], (int)shape[3],
                                   (int)shape[4], (int)shape[5]};
        if (on_result(user, &res) != 0)
            result = -1;
        rc = SQLITE_OK;
    }
    if (result == 0 && rc != SQLITE_DONE) {
        if (store->salvage)
            fprintf(stderr, "ttt-server: %s: reading the finished games: %s; the ratings"
                    " count those read before it\n", store->path, sqlite3_errmsg(store->rdb));
        else
            snprintf(err, err_len, "%s: reading the finished games: %s (--salvage reads past"
                     " it)", store->path, sqlite3_errmsg(store->rdb));
        result = store->salvage ? 0 : -1;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&store->read_lock);
    return result;
}

static void sqlite_stats(struct sqlite_store *store, struct store_stats *out)
{
    pthread_mutex_lock(&store->lock);
    out->commits = store->commits;
    out->failed_writes = store->failed_writes;
    out->mean_us = store->commits ? store->total_us / (double)store->commits : 0.0;
    out->last_us = store->last_us;
    snprintf(out->last_error, sizeof out->last_error, "%s", store->last_error);
    pthread_mutex_unlock(&store->lock);
}

/* The dispatch's entry points: a struct store is the first member of a
 * struct sqlite_store. */
#define SQ(s) ((struct sqlite_store *)(s))
static struct store *op_open(const char *where, int synchronous_full, int salvage, char *err,
                             size_t err_len)
{
    struct sqlite_store *store = sqlite_open(where, synchronous_full, salvage, err, err_len);
    return store ? &store->base : NULL;
}
static void op_close(struct store *s) { sqlite_close(SQ(s)); }
static int op_add_game(struct store *s, const struct store_game *game)
{
    return sqlite_add_game(SQ(s), game);
}
static int op_add_event(struct store *s, const char *game_id, const struct store_event *event,
                        const struct store_finished *finished)
{
    return sqlite_add_event(SQ(s), game_id, event, finished);
}
static int op_add_finished(struct store *s, const struct store_finished *games, size_t count)
{
    return sqlite_add_finished(SQ(s), games, count);
}
static int op_load(struct store *s, store_game_fn on_game, store_event_fn on_event, void *user,
                   long *skipped, char *err, size_t err_len)
{
    return sqlite_load(SQ(s), on_game, on_event, user, skipped, err, err_len);
}
static int op_load_game(struct store *s, const char *id, store_game_fn on_game,
                        store_event_fn on_event, void *user, char *err, size_t err_len)
{
    return sqlite_load_game(SQ(s), id, on_game, on_event, user, err, err_len);
}
/* The SQLite store is its file's only writer, so it never answers
 * STORE_CONFLICT and this is read by no caller of it; it scans the log
 * (which has no index on game_id, to keep each move's write one page). */
static int op_load_log(struct store *s, const char *id, int from, store_event_fn on_event,
                       void *user, char *err, size_t err_len)
{
    struct sqlite_store *store = SQ(s);
    sqlite3_stmt *st = NULL;
    int count = 0;
    pthread_mutex_lock(&store->read_lock);
    int rc = sqlite3_prepare_v2(store->rdb, "SELECT seq, kind, mark, cell, finish_order FROM moves"
                                " WHERE game_id = ?1 AND seq >= ?2 ORDER BY seq", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT) | sqlite3_bind_int(st, 2, from);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_event e;
        if (read_event(st, 0, &e) >= 0) {
            snprintf(err, err_len, "%s: game %s: a log entry does not read", store->path, id);
            count = -1;
            break;
        }
        count++;
        rc = on_event(user, id, &e) == 0 ? SQLITE_OK : SQLITE_ABORT;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        if (rc != SQLITE_ABORT)
            snprintf(err, err_len, "%s: game %s: %s", store->path, id, sqlite3_errmsg(store->rdb));
        else
            err[0] = '\0';
        count = -1;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&store->read_lock);
    return count;
}
static int op_load_results(struct store *s, store_result_fn on_result, void *user, char *err,
                           size_t err_len)
{
    return sqlite_load_results(SQ(s), on_result, user, err, err_len);
}
static void op_stats(struct store *s, struct store_stats *out) { sqlite_stats(SQ(s), out); }

const struct store_ops store_sqlite_ops = {
    op_open,     op_close,       op_add_game,     op_add_event, op_add_finished,
    op_load,     op_load_game,   op_load_log,     op_load_results, op_stats,
};
