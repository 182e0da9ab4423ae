/* store_sqlite.c - the store on SQLite 3 in WAL mode, with commits grouped by one writer thread. */
#include "store.h"

#include <pthread.h>
#include <semaphore.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCHEMA_VERSION 2

/* One write waiting for the writer thread; the caller sleeps on done. */
struct pending {
    const struct store_game *game;   /* a game to add, or */
    const char *game_id;             /* an event of this game */
    const struct store_event *event;
    int result;
    sem_t done;                      /* posted by the writer once committed */
    struct pending *next;
};

struct store {
    sqlite3 *db;
    sqlite3_stmt *insert_game, *insert_event;
    pthread_t writer;
    pthread_mutex_t lock;
    pthread_cond_t wake_writer;
    struct pending *head, *tail;
    int stopping;
    uint64_t commits;
    double total_us, last_us;
};

/* Version 2: both tables are logs in commit order, with no index. The
 * server holds every game in memory, so it never looks a row up; a commit
 * appends rows at the end of each table (a few pages) instead of touching a
 * page of an index for every game it changes. The event that ends a game
 * carries its finish order, so a row is never updated (nor deleted: a new
 * rowid is the largest plus one, so rowid order is commit order). */
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

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int run_one(struct store *store, const struct pending *p)
{
    sqlite3_stmt *st;
    int rc;
    if (p->game) {
        const struct store_game *g = p->game;
        st = store->insert_game;
        sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
        int values[] = {g->width, g->height, g->k, g->gravity, g->misere,
                        g->early_draw, g->ply_limit, g->rated};
        for (int i = 0; i < 8; i++)
            sqlite3_bind_int(st, 2 + i, values[i]);
        for (int s = 0; s < 2; s++) {
            sqlite3_bind_text(st, 10 + s, g->kind[s], -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 12 + s, g->budget[s]);
            sqlite3_bind_text(st, 14 + s, g->name[s], -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 16 + s, g->token[s], -1, SQLITE_STATIC);
        }
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        return rc == SQLITE_DONE ? 0 : -1;
    }
    st = store->insert_event;
    sqlite3_bind_text(st, 1, p->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, p->event->seq);
    sqlite3_bind_int(st, 3, p->event->kind);
    sqlite3_bind_int(st, 4, p->event->mark);
    sqlite3_bind_int(st, 5, p->event->cell);
    sqlite3_bind_int64(st, 6, p->event->finish_order);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Takes every waiting write, runs them in one transaction and wakes their
 * callers once it is committed: one sync for many moves. */
static void *writer_main(void *arg)
{
    struct store *store = arg;
    pthread_mutex_lock(&store->lock);
    for (;;) {
        while (!store->head && !store->stopping)
            pthread_cond_wait(&store->wake_writer, &store->lock);
        if (!store->head)
            break;
        struct pending *batch = store->head;
        store->head = store->tail = NULL;
        pthread_mutex_unlock(&store->lock);

        double start = now_us();
        int ok = sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
        for (struct pending *p = batch; p; p = p->next)
            p->result = ok ? run_one(store, p) : -1;
        if (ok && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
            ok = 0;
        }
        double took = now_us() - start;
        /* Counted before any caller wakes: whoever saw a write acknowledged
         * then finds its commit in store_stats. */
        pthread_mutex_lock(&store->lock);
        store->commits++;
        store->total_us += took;
        store->last_us = took;
        pthread_mutex_unlock(&store->lock);

        /* Each caller sleeps on its own semaphore, so a commit wakes
         * exactly its callers and they do not queue for the store's lock. */
        for (struct pending *p = batch, *next; p; p = next) {
            next = p->next;
            if (!ok)
                p->result = -1;
            sem_post(&p->done);
        }
        pthread_mutex_lock(&store->lock);
    }
    pthread_mutex_unlock(&store->lock);
    return NULL;
}

static int submit(struct store *store, struct pending *p)
{
    pthread_mutex_lock(&store->lock);
    if (store->stopping) {
        pthread_mutex_unlock(&store->lock);
        return -1;
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

int store_add_game(struct store *store, const struct store_game *game)
{
    struct pending p = {.game = game};
    return submit(store, &p);
}

int store_add_event(struct store *store, const char *game_id,
                    const struct store_event *event)
{
    struct pending p = {.game_id = game_id, .event = event};
    return submit(store, &p);
}

static int migrate(sqlite3 *db, char *err, size_t err_len)
{
    sqlite3_stmt *st;
    int version = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version > SCHEMA_VERSION || version < 0) {
        snprintf(err, err_len, "database schema version %d is newer than this server's %d",
                 version, SCHEMA_VERSION);
        return -1;
    }
    if (version == SCHEMA_VERSION)
        return 0;
    /* Version 0 is a new file: create the tables; version 1 is migrated.
     * Later versions add their steps here, each from the one before. */
    const char *steps[] = {"BEGIN", version == 1 ? set_v1_aside : "", schema_v2,
                           version == 1 ? copy_v1 : "", "PRAGMA user_version = 2", "COMMIT"};
    int ok = 1;
    for (size_t i = 0; ok && i < sizeof steps / sizeof steps[0]; i++)
        ok = sqlite3_exec(db, steps[i], NULL, NULL, NULL) == SQLITE_OK;
    if (!ok) {
        snprintf(err, err_len, "%s the schema: %s", version == 0 ? "creating" : "migrating",
                 sqlite3_errmsg(db));
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

struct store *store_open(const char *path, int synchronous_full, char *err,
                         size_t err_len)
{
    struct store *store = calloc(1, sizeof *store);
    if (!store) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    if (sqlite3_open_v2(path, &store->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                        SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: %s", path,
                 store->db ? sqlite3_errmsg(store->db) : "cannot open");
        goto fail;
    }
    sqlite3_busy_timeout(store->db, 5000);
    const char *pragmas = synchronous_full
        ? "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
        : "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";
    if (sqlite3_exec(store->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "%s: %s", path, sqlite3_errmsg(store->db));
        goto fail;
    }
    if (migrate(store->db, err, err_len) != 0)
        goto fail;
    if (sqlite3_prepare_v2(store->db,
            "INSERT INTO games (id, width, height, k, gravity, misere, early_draw,"
            " ply_limit, rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name,"
            " x_token, o_token) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            -1, &store->insert_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(store->db,
            "INSERT INTO moves (game_id, seq, kind, mark, cell, finish_order)"
            " VALUES (?,?,?,?,?,?)", -1, &store->insert_event, NULL) != SQLITE_OK) {
        snprintf(err, err_len, "preparing statements: %s", sqlite3_errmsg(store->db));
        goto fail;
    }
    pthread_mutex_init(&store->lock, NULL);
    pthread_cond_init(&store->wake_writer, NULL);
    if (pthread_create(&store->writer, NULL, writer_main, store) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        goto fail;
    }
    return store;
fail:
    sqlite3_finalize(store->insert_game);
    sqlite3_finalize(store->insert_event);
    sqlite3_close(store->db);
    free(store);
    return NULL;
}

void store_close(struct store *store)
{
    if (!store)
        return;
    pthread_mutex_lock(&store->lock);
    store->stopping = 1;
    pthread_cond_signal(&store->wake_writer);
    pthread_mutex_unlock(&store->lock);
    pthread_join(store->writer, NULL);
    sqlite3_finalize(store->insert_game);
    sqlite3_finalize(store->insert_event);
    sqlite3_close(store->db);
    pthread_mutex_destroy(&store->lock);
    pthread_cond_destroy(&store->wake_writer);
    free(store);
}

static void copy_text(char *dst, size_t cap, const unsigned char *src)
{
    snprintf(dst, cap, "%s", src ? (const char *)src : "");
}

int store_load(struct store *store, store_game_fn on_game,
               store_event_fn on_event, void *user)
{
    sqlite3_stmt *st;
    int result = 0;
    if (sqlite3_prepare_v2(store->db,
            "SELECT id, width, height, k, gravity, misere, early_draw, ply_limit,"
            " rated, x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token,"
            " o_token FROM games ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc;
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_game g;
        memset(&g, 0, sizeof g);
        copy_text(g.id, sizeof g.id, sqlite3_column_text(st, 0));
        int *values[] = {&g.width, &g.height, &g.k, &g.gravity, &g.misere,
                         &g.early_draw, &g.ply_limit, &g.rated};
        for (int i = 0; i < 8; i++)
            *values[i] = sqlite3_column_int(st, 1 + i);
        for (int s = 0; s < 2; s++) {
            copy_text(g.kind[s], sizeof g.kind[s], sqlite3_column_text(st, 9 + s));
            g.budget[s] = sqlite3_column_int64(st, 11 + s);
            copy_text(g.name[s], sizeof g.name[s], sqlite3_column_text(st, 13 + s));
            copy_text(g.token[s], sizeof g.token[s], sqlite3_column_text(st, 15 + s));
        }
        result = on_game(user, &g);
    }
    sqlite3_finalize(st);
    if (result != 0)
        return -1;
    if (sqlite3_prepare_v2(store->db,
            "SELECT game_id, seq, kind, mark, cell, finish_order FROM moves ORDER BY rowid",
            -1, &st, NULL) != SQLITE_OK)
        return -1;
    while (result == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_event e = {
            .seq = sqlite3_column_int(st, 1), .kind = sqlite3_column_int(st, 2),
            .mark = sqlite3_column_int(st, 3), .cell = sqlite3_column_int(st, 4),
            .finish_order = sqlite3_column_int64(st, 5)};
        result = on_event(user, (const char *)sqlite3_column_text(st, 0), &e);
    }
    sqlite3_finalize(st);
    return result;
}

void store_stats(struct store *store, uint64_t *commits, double *mean_us,
                 double *last_us)
{
    pthread_mutex_lock(&store->lock);
    *commits = store->commits;
    *mean_us = store->commits ? store->total_us / (double)store->commits : 0.0;
    *last_us = store->last_us;
    pthread_mutex_unlock(&store->lock);
}
