/* store_sqlite.c - the store on SQLite 3 in WAL mode: one owning process, commits grouped by one writer thread, every read checked. */
#include "store_sqlite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCHEMA_VERSION 5

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

/* Version 4 adds clocks: a game's time control (all 0: none), and on each
 * log entry the wall-clock time it was applied and both sides' time left
 * after it (-1: no clock); a finished game's log text carries these too. */
static const char *const schema_v4 =
    "ALTER TABLE games ADD COLUMN clock_initial_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock_increment_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock_days_per_move INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE finished ADD COLUMN clock_initial_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE finished ADD COLUMN clock_increment_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE finished ADD COLUMN clock_days_per_move INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN at_ms INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN x_clock_ms INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE moves ADD COLUMN o_clock_ms INTEGER NOT NULL DEFAULT -1;";

/* Version 5 keeps when both seats of a game were taken (0: o still open,
 * or a game stored before), so a restart resumes x's first-move window. */
static const char *const schema_v5 =
    "ALTER TABLE games ADD COLUMN seated_ms INTEGER NOT NULL DEFAULT 0;";

/* Binds a store_game's 20 columns from parameter first on. */
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
    int clock[] = {g->clock_initial_s, g->clock_increment_s, g->clock_days_per_move};
    for (int i = 0; i < 3; i++)
        rc |= sqlite3_bind_int(st, first + 17 + i, clock[i]);
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

/* f's row, with finish order (f's own for store_add_finished, the one
 * given now for an ending). */
static int insert_finished(struct sqlite_store *store, const struct store_finished *f,
                           long long order, char *error, size_t cap, int *ext)
{
    sqlite3_stmt *st = store->insert_finished;
    char *log = store_log_text(f->log, f->count);
    if (!log) {
        snprintf(error, cap, "out of memory");
        return SQLITE_NOMEM;
    }
    int bound = bind_game(st, 1, f->game);
    bound |= sqlite3_bind_int64(st, 21, order);
    bound |= sqlite3_bind_int(st, 22, f->state);
    bound |= sqlite3_bind_text(st, 23, log, -1, SQLITE_STATIC);
    int rc = step_once(store, st, bound, error, cap, ext);
    free(log);
    return rc;
}

/* Runs one write inside the open transaction; on failure its message goes
 * into error. A failed write stores nothing (a savepoint undoes the first
 * half of a two-row write) and leaves the transaction open for the others. */
static int run_one(struct sqlite_store *store, struct store_write *p, char *error, size_t cap)
{
    int rc = SQLITE_DONE, ext = 0;
    if (p->join_name) {
        sqlite3_stmt *st = store->join_game;
        int bound = sqlite3_bind_text(st, 1, p->join_name, -1, SQLITE_STATIC);
        bound |= sqlite3_bind_int64(st, 2, p->seated_ms);
        bound |= sqlite3_bind_text(st, 3, p->game_id, -1, SQLITE_STATIC);
        rc = step_once(store, st, bound, error, cap, &ext);
        if (rc == SQLITE_DONE && sqlite3_changes(store->db) != 1) {
            snprintf(error, cap, "no game %s to join", p->game_id);
            return STORE_FAILED;
        }
    } else if (p->game) {
        int bound = bind_game(store->insert_game, 1, p->game);
        bound |= sqlite3_bind_int64(store->insert_game, 21, p->game->seated_ms);
        rc = step_once(store, store->insert_game, bound, error, cap, &ext);
    } else if (!p->event) {
        for (size_t i = 0; rc == SQLITE_DONE && i < p->finished_count; i++) {
            rc = insert_finished(store, &p->finished[i], p->finished[i].finish_order, error,
                                 cap, &ext);
            if (p->finished[i].finish_order > store->last_order)
                store->last_order = p->finished[i].finish_order;
        }
    } else {
        int two = p->finished != NULL;
        /* An ending takes the next finish order, kept only if it is stored. */
        long long order = two ? store->last_order + 1 : 0;
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
        bound |= sqlite3_bind_int64(st, 6, order);
        bound |= sqlite3_bind_int64(st, 7, p->event->at_ms);
        bound |= sqlite3_bind_int64(st, 8, p->event->clock_ms[0]);
        bound |= sqlite3_bind_int64(st, 9, p->event->clock_ms[1]);
        rc = step_once(store, st, bound, error, cap, &ext);
        if (two && rc == SQLITE_DONE)
            rc = insert_finished(store, p->finished, order, error, cap, &ext);
        if (two && rc != SQLITE_DONE)
            sqlite3_exec(store->db, "ROLLBACK TO one", NULL, NULL, NULL);
        if (two && sqlite3_exec(store->db, "RELEASE one", NULL, NULL, NULL) != SQLITE_OK &&
            rc == SQLITE_DONE) {
            snprintf(error, cap, "%s", sqlite3_errmsg(store->db));
            rc = SQLITE_ERROR;
        }
        if (two && rc == SQLITE_DONE)
            store->last_order = p->finish_order = order;
    }
    if (rc == SQLITE_DONE)
        return STORE_OK;
    /* Only a unique key means "someone else was first"; any other
     * constraint (a trigger's RAISE, say) is a failure like a full disk. */
    return ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY
               ? STORE_CONFLICT : STORE_FAILED;
}

/* The queue's commit: every waiting write in one transaction. */
static int commit_batch(void *backend, struct store_write *batch, char *error, size_t cap)
{
    struct sqlite_store *store = backend;
    long long last_order = store->last_order; /* a rolled-back group gives none */
    int ok = sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
    if (!ok)
        snprintf(error, cap, "BEGIN: %s", sqlite3_errmsg(store->db));
    for (struct store_write *w = batch; w; w = w->next)
        w->result = ok ? run_one(store, w, error, cap) : STORE_FAILED;
    if (ok && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(error, cap, "COMMIT: %s", sqlite3_errmsg(store->db));
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
        ok = 0;
    }
    for (struct store_write *w = batch; !ok && w; w = w->next)
        w->result = STORE_FAILED;
    if (!ok)
        store->last_order = last_order;
    return ok;
}

static int sqlite_add_game(struct sqlite_store *store, const struct store_game *game)
{
    struct store_write w = {.game = game};
    return store_queue_submit(&store->queue, &w);
}

static int sqlite_add_event(struct sqlite_store *store, const char *game_id,
                            const struct store_event *event, const struct store_finished *finished,
                            long long *finish_order)
{
    struct store_write w = {.game_id = game_id, .event = event, .finished = finished,
                            .finished_count = finished != NULL};
    int rc = store_queue_submit(&store->queue, &w);
    if (rc == STORE_OK && finished)
        *finish_order = w.finish_order;
    return rc;
}

static int sqlite_join(struct sqlite_store *store, const char *game_id, const char *o_name,
                       long long seated_ms)
{
    struct store_write w = {.game_id = game_id, .join_name = o_name, .seated_ms = seated_ms};
    return store_queue_submit(&store->queue, &w);
}

static int sqlite_add_finished(struct sqlite_store *store, const struct store_finished *games, size_t count)
{
    if (count == 0)
        return STORE_OK;
    struct store_write w = {.finished = games, .finished_count = count};
    return store_queue_submit(&store->queue, &w);
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
    if (ok && version < 3)
        ok = exec_or_say(db, store->path, "creating the table of finished games", schema_v3,
                         err, err_len) == 0;
    /* Version 4's clock columns: the rows before it have no clock. */
    if (ok && version < 4)
        ok = exec_or_say(db, store->path, "adding the clock columns", schema_v4, err,
                         err_len) == 0;
    /* Version 5's seating time: 0 (unknown) on the rows before it. */
    if (ok)
        ok = exec_or_say(db, store->path, "adding the seating time", schema_v5, err,
                         err_len) == 0;
    if (ok)
        ok = exec_or_say(db, store->path, "migrating", "PRAGMA user_version = 5; COMMIT", err,
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
    store_queue_init(&store->queue, commit_batch, store);
    pthread_mutex_init(&store->read_lock, NULL);
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
    /* Finish orders go on from the largest stored (a file's old logs that
     * are not kept whole yet raise it as store_add_finished keeps them);
     * only orders that read count, as only those reach the ratings. */
    if (query_int(store->db, path, "SELECT coalesce(max(finish_order), 0) FROM finished"
                  " WHERE typeof(finish_order) = 'integer' AND finish_order >= 1",
                  &store->last_order, err, err_len) != 0) {
        if (!salvage)
            goto fail;
        fprintf(stderr, "ttt-server: %s; finish orders start from 1\n", err);
        store->last_order = 0;
    }
    if (sqlite3_prepare_v2(store->db,
            "INSERT INTO games (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name,"
            " x_token, o_token, clock_initial_s, clock_increment_s, clock_days_per_move,"
            " seated_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &store->insert_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db,
            "INSERT INTO moves (game_id, seq, kind, mark, cell, finish_order, at_ms,"
            " x_clock_ms, o_clock_ms) VALUES (?,?,?,?,?,?,?,?,?)", -1, &store->insert_event, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db,
            "INSERT OR IGNORE INTO finished (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
            " o_token, clock_initial_s, clock_increment_s, clock_days_per_move, finish_order,"
            " state, log) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &store->insert_finished, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db, "UPDATE games SET o_name = ?, seated_ms = ? WHERE id = ?", -1,
                           &store->join_game, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: preparing statements: %s", path, sqlite3_errmsg(store->db));
        goto fail;
    }
    if (open_db(path, &store->rdb, err, err_len) != 0)
        goto fail;
    if (sqlite3_prepare_v2(store->rdb, sqlite_load_finished_sql, -1, &store->load_finished,
                           NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: preparing statements: %s", path, sqlite3_errmsg(store->rdb));
        goto fail;
    }
    if (store_queue_start(&store->queue) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        goto fail;
    }
    return store;
fail:
    sqlite_close(store);
    return NULL;
}

static void sqlite_close(struct sqlite_store *store)
{
    if (!store)
        return;
    store_queue_stop(&store->queue);
    sqlite3_finalize(store->insert_game);
    sqlite3_finalize(store->insert_event);
    sqlite3_finalize(store->insert_finished);
    sqlite3_finalize(store->join_game);
    sqlite3_finalize(store->load_finished);
    /* The reader first: the writer's close, the last, checkpoints the WAL. */
    if (sqlite3_close(store->rdb) != SQLITE_OK || sqlite3_close(store->db) != SQLITE_OK)
        fprintf(stderr, "ttt-server: closing %s: %s\n", store->path, sqlite3_errmsg(store->db));
    if (store->lock_fd >= 0)
        close(store->lock_fd); /* releases the lock; the file stays, naming nobody live */
    pthread_mutex_destroy(&store->read_lock);
    free(store->path);
    free(store);
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
                        const struct store_finished *finished, long long *finish_order)
{
    return sqlite_add_event(SQ(s), game_id, event, finished, finish_order);
}
static int op_join(struct store *s, const char *game_id, const char *o_name,
                   long long seated_ms)
{
    return sqlite_join(SQ(s), game_id, o_name, seated_ms);
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
static int op_load_log(struct store *s, const char *id, int from, store_event_fn on_event,
                       void *user, char *err, size_t err_len)
{
    return sqlite_load_log(SQ(s), id, from, on_event, user, err, err_len);
}
static int op_load_results(struct store *s, long long from, store_result_fn on_result,
                           void *user, char *err, size_t err_len)
{
    return sqlite_load_results(SQ(s), from, on_result, user, err, err_len);
}
static void op_stats(struct store *s, struct store_stats *out)
{
    store_queue_stats(&SQ(s)->queue, out);
}

const struct store_ops store_sqlite_ops = {
    op_open,     op_close,       op_add_game,     op_add_event, op_join, op_add_finished,
    op_load,     op_load_game,   op_load_log,     op_load_results, op_stats,
    NULL, /* listen: its one server knows every event */
    NULL, NULL, /* offers: its one server keeps them in memory */
};
