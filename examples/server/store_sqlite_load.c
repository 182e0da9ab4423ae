/* store_sqlite_load.c - the SQLite store's reads: the start's checked scan with salvage, finished games and logs by id, the results. */
#include "store_sqlite.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The start's reads: each table in rowid order (the order of commits),
 * from after the rowid bound to ?1; finished games stay on disk. */
static const char *const scan_games_sql =
    "SELECT rowid, id, width, height, k, gravity, misere, early_draw, ply_limit, rated,"
    " x_kind, o_kind, x_budget, o_budget, x_name, o_name, x_token, o_token,"
    " clock_initial_s, clock_increment_s, clock_days_per_move, seated_ms FROM games"
    " WHERE rowid > ?1 AND id NOT IN (SELECT id FROM finished) ORDER BY rowid";
static const char *const scan_moves_sql =
    "SELECT rowid, game_id, seq, kind, mark, cell, finish_order, at_ms, x_clock_ms,"
    " o_clock_ms FROM moves"
    " WHERE rowid > ?1 AND (typeof(game_id) <> 'text' OR game_id NOT IN (SELECT id FROM finished))"
    " ORDER BY rowid";
const char sqlite_load_finished_sql[] =
    "SELECT id, width, height, k, gravity, misere, early_draw, ply_limit, rated, x_kind, o_kind,"
    " x_budget, o_budget, x_name, o_name, x_token, o_token, clock_initial_s,"
    " clock_increment_s, clock_days_per_move, finish_order, state, log"
    " FROM finished WHERE id = ?1";

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
    int *clock[] = {&g->clock_initial_s, &g->clock_increment_s, &g->clock_days_per_move};
    for (int i = 0; i < 3; i++) {
        if (column_int(st, base + 17 + i, 0, INT_MAX, &v) != 0)
            return base + 17 + i;
        *clock[i] = (int)v;
    }
    return -1;
}

/* A moves row's event columns (seq, kind, mark, cell, finish_order, at_ms,
 * x_clock_ms, o_clock_ms from base); the column at fault, or -1. */
static int read_event(sqlite3_stmt *st, int base, struct store_event *e)
{
    long long v[8];
    static const long long lo[8] = {0, 0, -1, -1, 0, 0, -1, -1};
    static const long long hi[8] = {INT_MAX, STORE_FLAG, 1, INT_MAX, LLONG_MAX, LLONG_MAX,
                                    LLONG_MAX, LLONG_MAX};
    for (int i = 0; i < 8; i++)
        if (column_int(st, base + i, lo[i], hi[i], &v[i]) != 0)
            return base + i;
    *e = (struct store_event){(int)v[0], (int)v[1], (int)v[2], (int)v[3], v[4], v[5],
                              {v[6], v[7]}};
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
    if (col < 0 && column_int(st, 21, 0, LLONG_MAX, &g.seated_ms) != 0)
        col = 21;
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

int sqlite_load(struct sqlite_store *store, store_game_fn on_game, store_event_fn on_event,
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

int sqlite_load_game(struct sqlite_store *store, const char *id, store_game_fn on_game,
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
        int log_is_text = sqlite3_column_type(st, 22) == SQLITE_TEXT; /* before reading it */
        const char *log = (const char *)sqlite3_column_text(st, 22);
        int bytes = sqlite3_column_bytes(st, 22);
        if (col < 0 && (column_int(st, 20, 1, LLONG_MAX, &order) != 0 ||
                        column_int(st, 21, 1, 3, &state) != 0))
            col = column_int(st, 20, 1, LLONG_MAX, &order) != 0 ? 20 : 21;
        if (col < 0 && (!log_is_text || !log ||
                        !(events = malloc(((size_t)bytes / 6 + 1) * sizeof *events)) ||
                        (count = store_parse_log(log, events, (size_t)bytes / 6 + 1)) <= 0))
            col = 22;
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

int sqlite_load_results(struct sqlite_store *store, long long from, store_result_fn on_result,
                        void *user, char *err, size_t err_len)
{
    sqlite3_stmt *st = NULL;
    pthread_mutex_lock(&store->read_lock);
    int rc = sqlite3_prepare_v2(store->rdb, "SELECT id, finish_order, rated, x_name, o_name,"
                                " state, width, height, k, gravity, misere, ply_limit"
                                " FROM finished WHERE finish_order >= ? ORDER BY finish_order",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, from);
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
                /* Its order, if it reads, is still spent (the store's
                 * numbering goes on past it): told as an unrated result. */
                struct store_result spent = {shown, 0, 0, 3, {"", ""}, 0, 0, 0, 0, 0, 0};
                if (column_int(st, 1, 1, LLONG_MAX, &spent.finish_order) == 0 &&
                    on_result(user, &spent) != 0)
                    result = -1;
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

/* The SQLite store is its file's only writer, so it never answers
 * STORE_CONFLICT and this is read by no caller of it; it scans the log
 * (which has no index on game_id, to keep each move's write one page). */
int sqlite_load_log(struct sqlite_store *store, const char *id, int from, store_event_fn on_event,
                    void *user, char *err, size_t err_len)
{
    sqlite3_stmt *st = NULL;
    int count = 0;
    pthread_mutex_lock(&store->read_lock);
    int rc = sqlite3_prepare_v2(store->rdb, "SELECT seq, kind, mark, cell, finish_order, at_ms,"
                                " x_clock_ms, o_clock_ms FROM moves"
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
