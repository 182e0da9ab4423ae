/* store_pg.c - the store on PostgreSQL through libpq: shared by several servers, the database guards ids and move order. */
#include "store.h"
#include "store_impl.h"
#include "store_pg.h"
#include "store_pg_conn.h"
#include "store_queue.h"

#include <libpq-fe.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_SCHEMA_VERSION 4

/* Version 1. (game_id, seq) is the log's primary key: of two servers adding
 * the same ply, exactly one commits. pos orders rows as they were added
 * (the start's load replays them in it). */
static const char *const schema_v1[] = {
    "CREATE TABLE ttt_games ("
    " id text PRIMARY KEY, pos bigserial NOT NULL,"
    " width integer NOT NULL, height integer NOT NULL, k integer NOT NULL,"
    " gravity integer NOT NULL, misere integer NOT NULL, early_draw integer NOT NULL,"
    " ply_limit integer NOT NULL, rated integer NOT NULL, x_kind text NOT NULL,"
    " o_kind text NOT NULL, x_budget bigint NOT NULL, o_budget bigint NOT NULL,"
    " x_name text NOT NULL, o_name text NOT NULL, x_token text NOT NULL,"
    " o_token text NOT NULL)",
    "CREATE TABLE ttt_moves ("
    " game_id text NOT NULL REFERENCES ttt_games (id), seq integer NOT NULL,"
    " pos bigserial NOT NULL, kind integer NOT NULL, mark integer NOT NULL,"
    " cell integer NOT NULL, finish_order bigint NOT NULL DEFAULT 0,"
    " PRIMARY KEY (game_id, seq))",
    "CREATE TABLE ttt_finished ("
    " id text PRIMARY KEY REFERENCES ttt_games (id), finish_order bigint NOT NULL,"
    " state integer NOT NULL, log text NOT NULL)",
    "CREATE INDEX ttt_finished_order ON ttt_finished (finish_order)",
};

/* Version 2 adds clocks: a game's time control (all 0: none), and on each
 * log entry the wall-clock time it was applied and both sides' time left
 * after it (-1: no clock); a finished game's log text carries these too. */
static const char *const schema_v2[] = {
    "ALTER TABLE ttt_games ADD COLUMN clock_initial_s integer NOT NULL DEFAULT 0,"
    " ADD COLUMN clock_increment_s integer NOT NULL DEFAULT 0,"
    " ADD COLUMN clock_days_per_move integer NOT NULL DEFAULT 0",
    "ALTER TABLE ttt_moves ADD COLUMN at_ms bigint NOT NULL DEFAULT 0,"
    " ADD COLUMN x_clock_ms bigint NOT NULL DEFAULT -1,"
    " ADD COLUMN o_clock_ms bigint NOT NULL DEFAULT -1",
};

/* Version 3 keeps when both seats of a game were taken (0: o still open,
 * or a game stored before), so a restart resumes x's first-move window. */
static const char *const schema_v3[] = {
    "ALTER TABLE ttt_games ADD COLUMN seated_ms bigint NOT NULL DEFAULT 0",
};

/* Version 4: the store gives finish orders (see give_orders), from a
 * counter of one row. The orders stored before it (given by each server
 * apart, so two servers could give one twice) are numbered again 1, 2,
 * 3... in the order they stand (equal ones by game id), the same on every
 * server, and the counter goes on from their count. */
static const char *const schema_v4[] = {
    "CREATE TABLE ttt_finish_counter (last bigint NOT NULL)",
    "UPDATE ttt_finished f SET finish_order = r.n"
    " FROM (SELECT id, row_number() OVER (ORDER BY finish_order, id) AS n FROM ttt_finished) r"
    " WHERE f.id = r.id AND f.finish_order <> r.n",
    "UPDATE ttt_moves m SET finish_order = f.finish_order FROM ttt_finished f"
    " WHERE m.game_id = f.id AND m.finish_order > 0"
    " AND m.finish_order <> f.finish_order",
    "INSERT INTO ttt_finish_counter SELECT count(*) FROM ttt_finished",
};

/* Draw offers: each game's last one, its mark and the ply it was made at
 * (it stands only while the game is at that ply). Created if missing, as
 * the account tables are, not counted in the version. */
static const char *const offers_table =
    "CREATE TABLE IF NOT EXISTS ttt_draw_offers ("
    " game_id text PRIMARY KEY REFERENCES ttt_games (id), mark integer NOT NULL,"
    " ply integer NOT NULL)";

#define GAME_COLUMNS                                                                           \
    "id, width, height, k, gravity, misere, early_draw, ply_limit, rated, x_kind, o_kind,"     \
    " x_budget, o_budget, x_name, o_name, x_token, o_token, clock_initial_s, clock_increment_s,"  \
    " clock_days_per_move"
#define EVENT_COLUMNS "seq, kind, mark, cell, finish_order, at_ms, x_clock_ms, o_clock_ms"

/* The prepared statements, by name. */
static const char *const statements[][2] = {
    /* A row already there (another server's) is not an error, which would
     * abort the transaction and so every write of the group: it inserts
     * nothing, which the count of rows tells. */
    {"add_game", "INSERT INTO ttt_games (" GAME_COLUMNS ", seated_ms) VALUES ($1, $2, $3, $4,"
                 " $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,"
                 " $21)"
                 " ON CONFLICT (id) DO NOTHING"},
    /* Each event stored is told to every server LISTENing, once committed
     * (NOTIFY's payload: "game_id seq"; the event itself is read from the
     * log). A row that was there already inserts nothing and tells nobody. */
    {"add_event", "WITH added AS (INSERT INTO ttt_moves (game_id, " EVENT_COLUMNS ")"
                  " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                  " ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq)"
                  " SELECT pg_notify('" NOTICE_CHANNEL "', game_id || ' ' || seq) FROM added"},
    {"add_finished", "INSERT INTO ttt_finished (id, finish_order, state, log)"
                     " VALUES ($1, $2, $3, $4)"},
    /* An ending's finish order, the counter's next, set on its rows and
     * told on RESULT_CHANNEL (payload: the order) once committed; the
     * order returned. */
    {"give_order", "WITH c AS (UPDATE ttt_finish_counter SET last = last + 1 RETURNING last),"
                   " m AS (UPDATE ttt_moves SET finish_order = (SELECT last FROM c)"
                   " WHERE game_id = $1 AND seq = $2),"
                   " f AS (UPDATE ttt_finished SET finish_order = (SELECT last FROM c)"
                   " WHERE id = $1)"
                   " SELECT last, pg_notify('" RESULT_CHANNEL "', last::text) FROM c"},
    {"add_finished_old", "INSERT INTO ttt_finished (id, finish_order, state, log)"
                         " VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING"},
    {"join", "UPDATE ttt_games SET o_name = $2, seated_ms = $3 WHERE id = $1"},
    /* A write that changes nothing, but is a write: a probe of the store. */
    {"probe", "UPDATE ttt_schema SET version = version"},
    /* An offer by $2 at ply $3 replaces the game's row, unless the other
     * side's offer stands at that ply (then it is left, locked: the caller
     * agrees) or the log has an entry at that ply (the caller is behind).
     * A row being written by another server is waited for and then seen,
     * so of two offers at once the first commits and the second agrees.
     * One row returned (and told, once committed) if the offer stands. */
    {"offer_draw", "WITH up AS (INSERT INTO ttt_draw_offers (game_id, mark, ply)"
                   " SELECT $1, $2::integer, $3::integer WHERE NOT EXISTS (SELECT 1 FROM"
                   " ttt_moves WHERE game_id = $1 AND seq >= $3::integer)"
                   " ON CONFLICT (game_id) DO UPDATE SET mark = excluded.mark,"
                   " ply = excluded.ply WHERE ttt_draw_offers.ply <> excluded.ply"
                   " OR ttt_draw_offers.mark = excluded.mark RETURNING game_id)"
                   " SELECT pg_notify('" OFFER_CHANNEL "', game_id) FROM up"},
    {"begin", "BEGIN"},
    {"commit", "COMMIT"},
    {"rollback", "ROLLBACK"},
    {"savepoint", "SAVEPOINT one"},
    {"rollback_to", "ROLLBACK TO SAVEPOINT one"},
    {"release", "RELEASE SAVEPOINT one"},
};
static const char *const read_statements[][2] = {
    {"scan_games", "SELECT " GAME_COLUMNS ", seated_ms FROM ttt_games g"
                   " WHERE NOT EXISTS (SELECT 1 FROM ttt_finished f WHERE f.id = g.id)"
                   " ORDER BY pos"},
    {"scan_moves", "SELECT game_id, " EVENT_COLUMNS " FROM ttt_moves m"
                   " WHERE NOT EXISTS (SELECT 1 FROM ttt_finished f WHERE f.id = m.game_id)"
                   " ORDER BY pos"},
    {"load_finished", "SELECT " GAME_COLUMNS ", f.finish_order, f.state, f.log"
                      " FROM ttt_finished f JOIN ttt_games g USING (id) WHERE id = $1"},
    {"load_game", "SELECT " GAME_COLUMNS ", seated_ms FROM ttt_games WHERE id = $1"},
    {"load_offer", "SELECT mark, ply FROM ttt_draw_offers WHERE game_id = $1"},
    {"load_log", "SELECT " EVENT_COLUMNS " FROM ttt_moves"
                 " WHERE game_id = $1 AND seq >= $2 ORDER BY seq"},
    {"load_results", "SELECT id, f.finish_order, g.rated, g.x_name, g.o_name, f.state,"
                     " g.width, g.height, g.k, g.gravity, g.misere, g.ply_limit"
                     " FROM ttt_finished f JOIN ttt_games g USING (id)"
                     " WHERE f.finish_order >= $1 ORDER BY f.finish_order"},
};

/* Creates the schema, or checks its version, under an advisory lock so that
 * servers starting together create it once. */
static int migrate(struct pg_store *s, char *err, size_t err_len)
{
    PGconn *c = s->wconn;
    const char *shown = s->shown;
    if (pg_run_ok(c, "BEGIN", shown, err, err_len) != 0)
        return -1;
    PGresult *res = pg_run(c, "SELECT pg_advisory_xact_lock(7437431)", PGRES_TUPLES_OK, shown, err,
                        err_len);
    PQclear(res);
    if (!res ||
        pg_run_ok(c, "CREATE TABLE IF NOT EXISTS ttt_schema (version integer NOT NULL)", shown, err,
               err_len) != 0)
        goto fail;
    res = pg_run(c, "SELECT version FROM ttt_schema", PGRES_TUPLES_OK, shown, err, err_len);
    if (!res)
        goto fail;
    long version = PQntuples(res) == 1 ? strtol(PQgetvalue(res, 0, 0), NULL, 10) : 0;
    int rows = PQntuples(res);
    PQclear(res);
    if (rows > 1) {
        snprintf(err, err_len, "%s: ttt_schema holds %d rows, not one", shown, rows);
        goto fail;
    }
    if (version > PG_SCHEMA_VERSION) {
        snprintf(err, err_len,
                 "%s: the schema is version %ld, newer than this ttt-server's (%d)", shown,
                 version, PG_SCHEMA_VERSION);
        goto fail;
    }
    if (version < 1) {
        for (size_t i = 0; i < sizeof schema_v1 / sizeof *schema_v1; i++)
            if (pg_run_ok(c, schema_v1[i], shown, err, err_len) != 0)
                goto fail;
        if (pg_run_ok(c, "INSERT INTO ttt_schema VALUES (1)", shown, err, err_len) != 0)
            goto fail;
    }
    if (version < 2) {
        for (size_t i = 0; i < sizeof schema_v2 / sizeof *schema_v2; i++)
            if (pg_run_ok(c, schema_v2[i], shown, err, err_len) != 0)
                goto fail;
        if (pg_run_ok(c, "UPDATE ttt_schema SET version = 2", shown, err, err_len) != 0)
            goto fail;
    }
    if (version < 3) {
        for (size_t i = 0; i < sizeof schema_v3 / sizeof *schema_v3; i++)
            if (pg_run_ok(c, schema_v3[i], shown, err, err_len) != 0)
                goto fail;
        if (pg_run_ok(c, "UPDATE ttt_schema SET version = 3", shown, err, err_len) != 0)
            goto fail;
    }
    if (version < 4) {
        for (size_t i = 0; i < sizeof schema_v4 / sizeof *schema_v4; i++)
            if (pg_run_ok(c, schema_v4[i], shown, err, err_len) != 0)
                goto fail;
        if (pg_run_ok(c, "UPDATE ttt_schema SET version = 4", shown, err, err_len) != 0)
            goto fail;
    }
    if (pg_run_ok(c, offers_table, shown, err, err_len) != 0)
        goto fail;
    return pg_run_ok(c, "COMMIT", shown, err, err_len);
fail:
    PQclear(PQexec(c, "ROLLBACK"));
    return -1;
}

static void pg_close(struct store *base)
{
    struct pg_store *s = (struct pg_store *)base;
    if (!s)
        return;
    store_queue_stop(&s->queue); /* the writer commits what waits, then stops */
    pg_listen(base, NULL, NULL, NULL, NULL);
    free(s->url);
    if (s->wconn)
        PQfinish(s->wconn);
    if (s->rconn)
        PQfinish(s->rconn);
    pthread_mutex_destroy(&s->rlock);
    free(s);
}

static int commit_batch(void *backend, struct store_write *batch, char *error, size_t cap);

static struct store *pg_open(const char *url, int synchronous_full, int salvage, char *err,
                             size_t err_len)
{
    (void)synchronous_full;
    (void)salvage;
    struct pg_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    store_redact(url, s->shown, sizeof s->shown);
    store_queue_init(&s->queue, commit_batch, s);
    if (!(s->url = strdup(url))) {
        snprintf(err, err_len, "out of memory");
        goto fail;
    }
    pthread_mutex_init(&s->rlock, NULL);
    if (!(s->wconn = pg_connect(url, s->shown, NULL, err, err_len)) ||
        !(s->rconn = pg_connect(url, s->shown, NULL, err, err_len)))
        goto fail;
    PQsetNoticeProcessor(s->wconn, pg_ignore_notice, NULL);
    PQsetNoticeProcessor(s->rconn, pg_ignore_notice, NULL);
    if (migrate(s, err, err_len) != 0 ||
        pg_prepare_all(s->wconn, statements, sizeof statements / sizeof *statements, s->shown, err,
                    err_len) != 0 ||
        pg_prepare_all(s->rconn, read_statements, sizeof read_statements / sizeof *read_statements,
                    s->shown, err, err_len) != 0)
        goto fail;
    if (store_queue_start(&s->queue) != 0) {
        snprintf(err, err_len, "cannot start the writer thread");
        goto fail;
    }
    return &s->base;
fail:
    pg_close(&s->base);
    return NULL;
}

/* What a write did to the group's transaction. */
enum { WRITE_DONE, WRITE_ALONE_FAILED, WRITE_ABORTED };

/* Runs a prepared statement on the write connection: its rows changed (or
 * returned), or -1 with the message in error and *sqlstate set (a unique
 * key's "23505", or ""). */
static long exec_write(struct pg_store *s, const char *name, int n, const char *const *values,
                       char *error, size_t cap, char sqlstate[6])
{
    PGresult *res = PQexecPrepared(s->wconn, name, n, values, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(res);
    long rows = -1;
    sqlstate[0] = '\0';
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        const char *count = PQcmdTuples(res);
        rows = st == PGRES_TUPLES_OK ? PQntuples(res) : count[0] ? strtol(count, NULL, 10) : 0;
    } else {
        const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        snprintf(sqlstate, 6, "%s", state ? state : "");
        pg_say(error, cap, s->shown, name, PQerrorMessage(s->wconn));
    }
    PQclear(res);
    return rows;
}

/* A connection that broke (the database restarted) is reset before a
 * group: its writes then run on the new one. */
static void revive(struct pg_store *s, char *error, size_t cap)
{
    if (PQstatus(s->wconn) == CONNECTION_OK)
        return;
    if (pg_reconnect(s->wconn) != 0)
        return; /* the group fails and says why */
    PQsetNoticeProcessor(s->wconn, pg_ignore_notice, NULL);
    pg_prepare_all(s->wconn, statements, sizeof statements / sizeof *statements, s->shown, error,
                cap);
}

static void game_values(const struct store_game *g, char buf[16][24], const char *v[21])
{
    snprintf(buf[13], sizeof buf[13], "%lld", g->seated_ms);
    v[20] = buf[13];
    int ints[] = {g->width, g->height, g->k, g->gravity, g->misere, g->early_draw, g->ply_limit,
                  g->rated};
    int clock[] = {g->clock_initial_s, g->clock_increment_s, g->clock_days_per_move};
    for (int i = 0; i < 3; i++) {
        snprintf(buf[10 + i], sizeof buf[10 + i], "%d", clock[i]);
        v[17 + i] = buf[10 + i];
    }
    v[0] = g->id;
    for (int i = 0; i < 8; i++) {
        snprintf(buf[i], sizeof buf[i], "%d", ints[i]);
        v[1 + i] = buf[i];
    }
    for (int m = 0; m < 2; m++) {
        snprintf(buf[8 + m], sizeof buf[8 + m], "%lld", g->budget[m]);
        v[9 + m] = g->kind[m];
        v[11 + m] = buf[8 + m];
        v[13 + m] = g->name[m];
        v[15 + m] = g->token[m];
    }
}

/* f's row, with finish order (f's own for store_add_finished, 0 for an
 * ending, whose order give_orders sets). */
static long add_finished_row(struct pg_store *s, const char *stmt, const struct store_finished *f,
                             long long finish_order, char *error, size_t cap, char sqlstate[6])
{
    char order[24], state[16];
    char *log = store_log_text(f->log, f->count);
    sqlstate[0] = '\0';
    if (!log) {
        snprintf(error, cap, "out of memory");
        return -1;
    }
    snprintf(order, sizeof order, "%lld", finish_order);
    snprintf(state, sizeof state, "%d", f->state);
    const char *v[] = {f->game->id, order, state, log};
    long rows = exec_write(s, stmt, 4, v, error, cap, sqlstate);
    free(log);
    return rows;
}

/* An event, and with it the finished game it ends (in a savepoint, so a
 * failure of the second row undoes the first and leaves the group's
 * transaction going). */
static int add_event_rows(struct pg_store *s, struct store_write *w, char *error, size_t cap)
{
    const struct store_event *ev = w->event;
    char seq[16], kind[16], mark[16], cell[16], at[24], clock[2][24], sqlstate[6];
    snprintf(seq, sizeof seq, "%d", ev->seq);
    snprintf(kind, sizeof kind, "%d", ev->kind);
    snprintf(mark, sizeof mark, "%d", ev->mark);
    snprintf(cell, sizeof cell, "%d", ev->cell);
    snprintf(at, sizeof at, "%lld", ev->at_ms);
    for (int m = 0; m < 2; m++)
        snprintf(clock[m], sizeof clock[m], "%lld", ev->clock_ms[m]);
    /* finish order 0: an ending's is set by give_orders */
    const char *v[] = {w->game_id, seq, kind, mark, cell, "0", at, clock[0], clock[1]};
    if (!w->finished) {
        long rows = exec_write(s, "add_event", 9, v, error, cap, sqlstate);
        if (rows < 0)
            return WRITE_ABORTED;
        w->result = rows == 0 ? STORE_CONFLICT : STORE_OK;
        return WRITE_DONE;
    }
    if (exec_write(s, "savepoint", 0, NULL, error, cap, sqlstate) < 0)
        return WRITE_ABORTED;
    long rows = exec_write(s, "add_event", 9, v, error, cap, sqlstate);
    if (rows > 0)
        rows = add_finished_row(s, "add_finished", w->finished, 0, error, cap, sqlstate);
    w->result = rows > 0 ? STORE_OK : rows == 0 || strcmp(sqlstate, "23505") == 0
                ? STORE_CONFLICT : STORE_FAILED;
    if (rows < 0 && exec_write(s, "rollback_to", 0, NULL, error, cap, sqlstate) < 0)
        return WRITE_ABORTED;
    if (exec_write(s, "release", 0, NULL, error, cap, sqlstate) < 0)
        return WRITE_ABORTED;
    return w->result == STORE_FAILED ? WRITE_ALONE_FAILED : WRITE_DONE;
}

/* One write inside the group's transaction: its result set, or
 * WRITE_ABORTED (the transaction is lost: the write's own error, or the
 * connection's). */
static int run_one(struct pg_store *s, struct store_write *w, char *error, size_t cap)
{
    char buf[16][24], sqlstate[6];
    const char *v[21];
    if (w->probe) {
        if (exec_write(s, "probe", 0, NULL, error, cap, sqlstate) < 0)
            return WRITE_ABORTED;
        w->result = STORE_OK;
        return WRITE_DONE;
    }
    if (w->join_name) {
        snprintf(buf[0], sizeof buf[0], "%lld", w->seated_ms);
        const char *join[] = {w->game_id, w->join_name, buf[0]};
        long rows = exec_write(s, "join", 3, join, error, cap, sqlstate);
        if (rows < 0)
            return WRITE_ABORTED;
        if (rows == 0)
            snprintf(error, cap, "no game %s to join", w->game_id);
        w->result = rows == 0 ? STORE_FAILED : STORE_OK;
        return WRITE_DONE;
    }
    if (w->offer_mark) {
        snprintf(buf[0], sizeof buf[0], "%d", w->offer_mark);
        snprintf(buf[1], sizeof buf[1], "%d", w->offer_ply);
        const char *offer[] = {w->game_id, buf[0], buf[1]};
        long rows = exec_write(s, "offer_draw", 3, offer, error, cap, sqlstate);
        if (rows < 0)
            return WRITE_ABORTED;
        w->result = rows == 0 ? STORE_CONFLICT : STORE_OK;
        return WRITE_DONE;
    }
    if (w->game) {
        game_values(w->game, buf, v);
        long rows = exec_write(s, "add_game", 21, v, error, cap, sqlstate);
        if (rows < 0)
            return WRITE_ABORTED;
        w->result = rows == 0 ? STORE_CONFLICT : STORE_OK;
        return WRITE_DONE;
    }
    if (w->event)
        return add_event_rows(s, w, error, cap);
    for (size_t i = 0; i < w->finished_count; i++)
        if (add_finished_row(s, "add_finished_old", &w->finished[i],
                             w->finished[i].finish_order, error, cap, sqlstate) < 0)
            return WRITE_ABORTED;
    w->result = STORE_OK;
    return WRITE_DONE;
}

/* The finish orders of the group's endings that were stored, in the
 * group's order, taken from the counter after every other statement of
 * the transaction: its row stays locked until COMMIT, so another server's
 * group that ends games waits for this one's commit and takes the orders
 * after, and the orders follow the commits (gapless: a group rolled back
 * gives its orders back). Taken last, the lock is never held while this
 * transaction waits for another (a unique key's wait on (game, seq) comes
 * before), so the servers cannot deadlock on it. 0, or -1 with the
 * message in error (the group fails whole). */
static int give_orders(struct pg_store *s, struct store_write *batch, char *error, size_t cap)
{
    for (struct store_write *w = batch; w; w = w->next) {
        if (!w->event || !w->finished || w->result != STORE_OK)
            continue;
        char seq[16];
        snprintf(seq, sizeof seq, "%d", w->event->seq);
        const char *v[] = {w->game_id, seq};
        PGresult *res = PQexecPrepared(s->wconn, "give_order", 2, v, NULL, NULL, 0);
        int rows = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) : -1;
        long long order = rows == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : 0;
        if (rows < 0)
            pg_say(error, cap, s->shown, "give_order", PQerrorMessage(s->wconn));
        else if (order < 1)
            snprintf(error, cap, "%s: ttt_finish_counter holds %d rows, not one", s->shown,
                     rows);
        PQclear(res);
        if (order < 1)
            return -1;
        w->finish_order = order;
    }
    return 0;
}

/* The queue's commit: every waiting write in one transaction. A write
 * that fails with an error PostgreSQL aborts the transaction for (not a
 * row already there, which only answers STORE_CONFLICT) fails alone: the
 * group is rolled back and run again without it. */
static int commit_batch(void *backend, struct store_write *batch, char *error, size_t cap)
{
    struct pg_store *s = backend;
    char sqlstate[6];
    for (struct store_write *w = batch; w; w = w->next)
        w->result = STORE_OK; /* until it fails */
    revive(s, error, cap);
    for (;;) { /* each pass fails one more write or ends, so the loop ends */
        struct store_write *lost = NULL;
        int ok = exec_write(s, "begin", 0, NULL, error, cap, sqlstate) >= 0;
        if (!ok && PQstatus(s->wconn) != CONNECTION_OK) {
            /* Broken since the last group (PostgreSQL restarted): nothing
             * was sent, so the group runs on a new connection. */
            revive(s, error, cap);
            ok = exec_write(s, "begin", 0, NULL, error, cap, sqlstate) >= 0;
        }
        for (struct store_write *w = batch; ok && w && !lost; w = w->next)
            if (w->result != STORE_FAILED && run_one(s, w, error, cap) == WRITE_ABORTED)
                lost = w;
        /* give_orders failing loses the group whole (lost stays NULL). */
        if (ok && !lost && give_orders(s, batch, error, cap) == 0 &&
            exec_write(s, "commit", 0, NULL, error, cap, sqlstate) >= 0)
            return 1;
        PQclear(PQexecPrepared(s->wconn, "rollback", 0, NULL, NULL, NULL, 0));
        if (!ok || !lost || PQstatus(s->wconn) != CONNECTION_OK) {
            for (struct store_write *w = batch; w; w = w->next)
                w->result = STORE_FAILED;
            return 0;
        }
        lost->result = STORE_FAILED;
    }
}

static int pg_add_game(struct store *base, const struct store_game *game)
{
    struct store_write w = {.game = game};
    return store_queue_submit(&((struct pg_store *)base)->queue, &w);
}

static int pg_add_event(struct store *base, const char *game_id, const struct store_event *ev,
                        const struct store_finished *finished, long long *finish_order)
{
    struct store_write w = {.game_id = game_id, .event = ev, .finished = finished,
                            .finished_count = finished != NULL};
    int rc = store_queue_submit(&((struct pg_store *)base)->queue, &w);
    if (rc == STORE_OK && finished)
        *finish_order = w.finish_order;
    return rc;
}

static int pg_join(struct store *base, const char *game_id, const char *o_name,
                   long long seated_ms)
{
    struct store_write w = {.game_id = game_id, .join_name = o_name, .seated_ms = seated_ms};
    return store_queue_submit(&((struct pg_store *)base)->queue, &w);
}

static int pg_add_finished(struct store *base, const struct store_finished *games, size_t count)
{
    if (count == 0)
        return STORE_OK;
    struct store_write w = {.finished = games, .finished_count = count};
    return store_queue_submit(&((struct pg_store *)base)->queue, &w);
}

static int pg_offer_draw(struct store *base, const char *game_id, int mark, int ply)
{
    struct store_write w = {.game_id = game_id, .offer_mark = mark, .offer_ply = ply};
    return store_queue_submit(&((struct pg_store *)base)->queue, &w);
}

/* Reads column i as an integer in [lo, hi]; 0, or -1 if it is not one. */
static int int_at(const PGresult *res, int row, int i, long long lo, long long hi,
                  long long *out)
{
    if (PQgetisnull(res, row, i))
        return -1;
    const char *text = PQgetvalue(res, row, i);
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int text_at(const PGresult *res, int row, int i, char *dst, size_t cap)
{
    if (PQgetisnull(res, row, i) || (size_t)PQgetlength(res, row, i) >= cap)
        return -1;
    memcpy(dst, PQgetvalue(res, row, i), (size_t)PQgetlength(res, row, i) + 1);
    return 0;
}

static int read_game(const PGresult *res, int row, struct store_game *g)
{
    memset(g, 0, sizeof *g);
    long long v[8], b[2], clock[3];
    int bad = text_at(res, row, 0, g->id, sizeof g->id);
    for (int i = 0; i < 3; i++)
        bad |= int_at(res, row, 17 + i, 0, INT_MAX, &clock[i]);
    for (int i = 0; i < 8; i++)
        bad |= int_at(res, row, 1 + i, INT_MIN, INT_MAX, &v[i]);
    for (int m = 0; m < 2; m++) {
        bad |= text_at(res, row, 9 + m, g->kind[m], sizeof g->kind[m]);
        bad |= int_at(res, row, 11 + m, LLONG_MIN, LLONG_MAX, &b[m]);
        bad |= text_at(res, row, 13 + m, g->name[m], sizeof g->name[m]);
        bad |= text_at(res, row, 15 + m, g->token[m], sizeof g->token[m]);
    }
    if (bad)
        return -1;
    g->width = (int)v[0], g->height = (int)v[1], g->k = (int)v[2], g->gravity = (int)v[3];
    g->misere = (int)v[4], g->early_draw = (int)v[5], g->ply_limit = (int)v[6];
    g->rated = (int)v[7];
    g->budget[0] = b[0], g->budget[1] = b[1];
    g->clock_initial_s = (int)clock[0], g->clock_increment_s = (int)clock[1];
    g->clock_days_per_move = (int)clock[2];
    return 0;
}

/* A log entry's columns (EVENT_COLUMNS from first); 0, or -1 if one holds
 * a bad value. */
static int read_event(const PGresult *res, int row, int first, struct store_event *ev)
{
    long long e[8];
    static const long long lo[8] = {0, 0, -1, -1, 0, 0, -1, -1};
    static const long long hi[8] = {INT_MAX, STORE_FLAG, 1, INT_MAX, LLONG_MAX, LLONG_MAX,
                                    LLONG_MAX, LLONG_MAX};
    for (int i = 0; i < 8; i++)
        if (int_at(res, row, first + i, lo[i], hi[i], &e[i]) != 0)
            return -1;
    *ev = (struct store_event){(int)e[0], (int)e[1], (int)e[2], (int)e[3], e[4], e[5],
                               {e[6], e[7]}};
    return 0;
}

/* Runs a prepared read on the read connection (reset once if it broke). */
static PGresult *read_query(struct pg_store *s, const char *name, int n,
                            const char *const *values, char *err, size_t err_len)
{
    /* A read is safe to repeat: one that meets a connection broken since
     * the last (PostgreSQL restarted) runs again on a new one. */
    for (int attempt = 0;; attempt++) {
        if (PQstatus(s->rconn) != CONNECTION_OK) {
            if (pg_reconnect(s->rconn) == 0) {
                PQsetNoticeProcessor(s->rconn, pg_ignore_notice, NULL);
                pg_prepare_all(s->rconn, read_statements,
                            sizeof read_statements / sizeof *read_statements, s->shown, err,
                            err_len);
            }
        }
        PGresult *res = PQexecPrepared(s->rconn, name, n, values, NULL, NULL, 0);
        if (PQresultStatus(res) == PGRES_TUPLES_OK)
            return res;
        pg_say(err, err_len, s->shown, name, PQerrorMessage(s->rconn));
        PQclear(res);
        if (attempt == 1 || PQstatus(s->rconn) == CONNECTION_OK)
            return NULL;
    }
}

static int pg_load(struct store *base, store_game_fn on_game, store_event_fn on_event,
                   void *user, long *skipped, char *err, size_t err_len)
{
    struct pg_store *s = (struct pg_store *)base;
    if (skipped)
        *skipped = 0;
    int rc = 0;
    pthread_mutex_lock(&s->rlock);
    /* Both scans read one snapshot: a game another server creates or ends
     * meanwhile is in both or in neither. */
    PGresult *res = pg_run_ok(s->rconn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", s->shown,
                           err, err_len) == 0
                    ? read_query(s, "scan_games", 0, NULL, err, err_len) : NULL;
    if (!res)
        rc = -1;
    for (int r = 0; res && rc == 0 && r < PQntuples(res); r++) {
        struct store_game g;
        if (read_game(res, r, &g) != 0 || int_at(res, r, 20, 0, LLONG_MAX, &g.seated_ms) != 0) {
            snprintf(err, err_len, "%s: ttt_games row %d (id %.40s) holds a bad value",
                     s->shown, r + 1, PQgetvalue(res, r, 0));
            rc = -1;
        } else if (on_game(user, &g) != 0) {
            rc = -1; /* the callback's message, if any, is in err */
        }
    }
    PQclear(res);
    res = rc == 0 ? read_query(s, "scan_moves", 0, NULL, err, err_len) : NULL;
    if (rc == 0 && !res)
        rc = -1;
    for (int r = 0; res && rc == 0 && r < PQntuples(res); r++) {
        char id[24];
        struct store_event e;
        if (text_at(res, r, 0, id, sizeof id) != 0 || read_event(res, r, 1, &e) != 0) {
            snprintf(err, err_len, "%s: ttt_moves row %d (game %.40s) holds a bad value",
                     s->shown, r + 1, PQgetvalue(res, r, 0));
            rc = -1;
            break;
        }
        if (on_event(user, id, &e) != 0)
            rc = -1; /* the callback's message, if any, is in err */
    }
    PQclear(res);
    char ignored[256]; /* a read-only transaction: its end can lose nothing */
    pg_run_ok(s->rconn, "COMMIT", s->shown, ignored, sizeof ignored);
    pthread_mutex_unlock(&s->rlock);
    return rc;
}

static int pg_load_log(struct store *base, const char *id, int from, store_event_fn on_event,
                       void *user, char *err, size_t err_len);

/* A game not finished (or finished since the caller looked): its row and
 * its log so far. 1, 0 if there is no such game, or -1. */
static int load_in_progress(struct pg_store *s, const char *id, store_game_fn on_game,
                            store_event_fn on_event, void *user, char *err, size_t err_len)
{
    const char *v[] = {id};
    pthread_mutex_lock(&s->rlock);
    PGresult *res = read_query(s, "load_game", 1, v, err, err_len);
    pthread_mutex_unlock(&s->rlock);
    if (!res)
        return -1;
    struct store_game g;
    int rc = PQntuples(res) == 0 ? 0 : 1;
    if (rc == 1 && (read_game(res, 0, &g) != 0 ||
                    int_at(res, 0, 20, 0, LLONG_MAX, &g.seated_ms) != 0)) {
        snprintf(err, err_len, "%s: the game %.24s holds a bad value", s->shown, id);
        rc = -1;
    }
    PQclear(res);
    if (rc == 1 && on_game(user, &g) != 0) {
        err[0] = '\0';
        rc = -1;
    }
    if (rc == 1 && pg_load_log(&s->base, g.id, 0, on_event, user, err, err_len) < 0)
        rc = -1;
    return rc;
}

static int pg_load_game(struct store *base, const char *id, store_game_fn on_game,
                        store_event_fn on_event, void *user, char *err, size_t err_len)
{
    struct pg_store *s = (struct pg_store *)base;
    const char *v[] = {id};
    pthread_mutex_lock(&s->rlock);
    PGresult *res = read_query(s, "load_finished", 1, v, err, err_len);
    pthread_mutex_unlock(&s->rlock);
    if (!res)
        return -1;
    if (PQntuples(res) == 0) {
        PQclear(res);
        return load_in_progress(s, id, on_game, on_event, user, err, err_len);
    }
    struct store_game g;
    long long order;
    const char *log = PQgetvalue(res, 0, 22);
    size_t cap = strlen(log) / 6 + 1;
    struct store_event *events = calloc(cap, sizeof *events);
    long n = events ? store_parse_log(log, events, cap) : -1;
    int rc = 1;
    if (read_game(res, 0, &g) != 0 || int_at(res, 0, 20, 1, LLONG_MAX, &order) != 0 || n < 1) {
        snprintf(err, err_len, "%s: the finished game %.24s holds a bad value", s->shown, id);
        rc = -1;
    } else {
        events[n - 1].finish_order = order;
        if (on_game(user, &g) != 0)
            rc = -1;
        for (long i = 0; rc == 1 && i < n; i++)
            if (on_event(user, g.id, &events[i]) != 0)
                rc = -1;
        if (rc < 0)
            err[0] = '\0';
    }
    free(events);
    PQclear(res);
    return rc;
}

static int pg_load_log(struct store *base, const char *id, int from, store_event_fn on_event,
                       void *user, char *err, size_t err_len)
{
    struct pg_store *s = (struct pg_store *)base;
    char from_text[16];
    snprintf(from_text, sizeof from_text, "%d", from);
    const char *v[] = {id, from_text};
    pthread_mutex_lock(&s->rlock);
    PGresult *res = read_query(s, "load_log", 2, v, err, err_len);
    pthread_mutex_unlock(&s->rlock);
    if (!res)
        return -1;
    int n = PQntuples(res);
    for (int r = 0; r < n; r++) {
        struct store_event ev;
        if (read_event(res, r, 0, &ev) != 0) {
            snprintf(err, err_len, "%s: game %.24s: log entry %d holds a bad value", s->shown,
                     id, r);
            n = -1;
            break;
        }
        if (on_event(user, id, &ev) != 0) {
            err[0] = '\0';
            n = -1;
            break;
        }
    }
    PQclear(res);
    return n;
}

static int pg_load_results(struct store *base, long long from, store_result_fn on_result,
                           void *user, char *err, size_t err_len)
{
    struct pg_store *s = (struct pg_store *)base;
    char from_text[24];
    snprintf(from_text, sizeof from_text, "%lld", from);
    const char *v[] = {from_text};
    pthread_mutex_lock(&s->rlock);
    PGresult *res = read_query(s, "load_results", 1, v, err, err_len);
    pthread_mutex_unlock(&s->rlock);
    if (!res)
        return -1;
    int rc = 0;
    for (int r = 0; rc == 0 && r < PQntuples(res); r++) {
        long long order, rated, state, shape[6];
        char id[24], names[2][72];
        int bad = text_at(res, r, 0, id, sizeof id) || int_at(res, r, 1, 1, LLONG_MAX, &order) ||
                  int_at(res, r, 2, 0, 1, &rated) ||
                  text_at(res, r, 3, names[0], sizeof names[0]) ||
                  text_at(res, r, 4, names[1], sizeof names[1]) ||
                  int_at(res, r, 5, 1, 3, &state);
        for (int c = 0; c < 6 && !bad; c++)
            bad = int_at(res, r, 6 + c, 0, INT_MAX, &shape[c]);
        if (bad) {
            snprintf(err, err_len, "%s: ttt_finished row %d holds a bad value", s->shown, r + 1);
            rc = -1;
            break;
        }
        struct store_result one = {id, order, (int)rated, (int)state, {names[0], names[1]},
                                   (int)shape[0], (int)shape[1], (int)shape[2], (int)shape[3],
                                   (int)shape[4], (int)shape[5]};
        if (on_result(user, &one) != 0) {
            err[0] = '\0';
            rc = -1;
        }
    }
    PQclear(res);
    return rc;
}

static int pg_load_offer(struct store *base, const char *game_id, int *mark, int *ply,
                         char *err, size_t err_len)
{
    struct pg_store *s = (struct pg_store *)base;
    const char *v[] = {game_id};
    pthread_mutex_lock(&s->rlock);
    PGresult *res = read_query(s, "load_offer", 1, v, err, err_len);
    pthread_mutex_unlock(&s->rlock);
    if (!res)
        return -1;
    long long m = 0, p = 0;
    int rc = PQntuples(res) == 0 ? 0 : 1;
    if (rc == 1 && (int_at(res, 0, 0, -1, 1, &m) != 0 || m == 0 ||
                    int_at(res, 0, 1, 0, INT_MAX, &p) != 0)) {
        snprintf(err, err_len, "%s: the draw offer of game %.24s holds a bad value", s->shown,
                 game_id);
        rc = -1;
    }
    PQclear(res);
    *mark = (int)m;
    *ply = (int)p;
    return rc;
}

static void pg_stats(struct store *base, struct store_stats *out)
{
    store_queue_stats(&((struct pg_store *)base)->queue, out);
}

const struct store_ops store_pg_ops = {
    pg_open, pg_close,     pg_add_game,     pg_add_event, pg_join, pg_add_finished,
    pg_load, pg_load_game, pg_load_log,     pg_load_results, pg_stats,
    pg_listen, pg_offer_draw, pg_load_offer,
};
