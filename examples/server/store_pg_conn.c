/* store_pg_conn.c - libpq connections for the PostgreSQL store: bounded connects and resets, statements run and prepared, messages on one line. */
#include "store_pg_conn.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libpq's message on one line (its messages end in newlines). */
void pg_say(char *out, size_t cap, const char *shown, const char *what, const char *msg)
{
    /* A message longer than cap is cut: still the message's start. */
    if (snprintf(out, cap, "%s: %s: %s", shown, what, msg && *msg ? msg : "unknown error") < 0)
        out[0] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\n')
            *p = (p[1] ? ' ' : '\0');
}

/* Runs one statement with no parameters through the unnamed prepared
 * statement (every statement is prepared); its result, or NULL with the
 * message in err. */
PGresult *pg_run(PGconn *conn, const char *sql, ExecStatusType want, const char *shown,
                 char *err, size_t err_len)
{
    PGresult *res = PQprepare(conn, "", sql, 0, NULL);
    if (PQresultStatus(res) == PGRES_COMMAND_OK) {
        PQclear(res);
        res = PQexecPrepared(conn, "", 0, NULL, NULL, NULL, 0);
    }
    if (PQresultStatus(res) != want) {
        pg_say(err, err_len, shown, sql, PQerrorMessage(conn));
        PQclear(res);
        return NULL;
    }
    return res;
}

int pg_run_ok(PGconn *conn, const char *sql, const char *shown, char *err, size_t err_len)
{
    PGresult *res = pg_run(conn, sql, PGRES_COMMAND_OK, shown, err, err_len);
    PQclear(res);
    return res ? 0 : -1;
}

int pg_prepare_all(PGconn *conn, const char *const (*list)[2], size_t n, const char *shown,
                   char *err, size_t err_len)
{
    for (size_t i = 0; i < n; i++) {
        PGresult *res = PQprepare(conn, list[i][0], list[i][1], 0, NULL);
        int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
        if (!ok) {
            pg_say(err, err_len, shown, list[i][0], PQerrorMessage(conn));
            return -1;
        }
    }
    return 0;
}

/* How long a connection attempt may take, unless the URL's connect_timeout
 * says otherwise: libpq's own connect never gives up on a server that
 * accepts and does not answer, and a stopping server must not wait on it. */
#define CONNECT_TIMEOUT_MS 10000

static long long monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The URL's connect_timeout in ms (libpq's non-blocking connect does not
 * apply it), or CONNECT_TIMEOUT_MS. */
static long long connect_timeout_ms(PGconn *conn)
{
    long long ms = CONNECT_TIMEOUT_MS;
    PQconninfoOption *opts = PQconninfo(conn);
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (strcmp(o->keyword, "connect_timeout") == 0 && o->val && atoi(o->val) > 0)
            ms = atoi(o->val) * 1000LL;
    PQconninfoFree(opts);
    return ms;
}

/* Drives a connection started by PQconnectStart (or a reset started by
 * PQresetStart) to its end within the timeout, giving up early once *stop
 * (if given) is set: 0 once connected, else -1 with conn's message, or
 * the timeout's in why. */
static int await_connection(PGconn *conn, int resetting, const atomic_int *stop, char *why,
                            size_t why_len)
{
    long long timeout = connect_timeout_ms(conn), deadline = monotonic_ms() + timeout;
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    why[0] = '\0';
    if (PQstatus(conn) == CONNECTION_BAD)
        return -1;
    while (st != PGRES_POLLING_OK) {
        if (st == PGRES_POLLING_FAILED)
            return -1;
        /* Each wait is short, so a stop is seen within a tenth of a second. */
        struct pollfd pfd = {PQsocket(conn), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0};
        int ready = 0;
        while (!ready) {
            long long left = deadline - monotonic_ms();
            if (stop && atomic_load(stop)) {
                snprintf(why, why_len, "the server is stopping");
                return -1;
            }
            if (left <= 0) {
                snprintf(why, why_len, "no answer within %lld s", timeout / 1000);
                return -1;
            }
            ready = poll(&pfd, 1, left < 100 ? (int)left : 100);
            if (ready < 0 && errno != EINTR)
                return -1;
            ready = ready > 0;
        }
        st = resetting ? PQresetPoll(conn) : PQconnectPoll(conn);
    }
    return 0;
}

/* A new connection, bounded in time (await_connection), or NULL with the
 * message in err. */
PGconn *pg_connect(const char *url, const char *shown, const atomic_int *stop, char *err,
                   size_t err_len)
{
    char why[64];
    /* TCP keep-alives and a bound on data the database does not
     * acknowledge, before the URL (whose own settings come after and so
     * win): when the database's machine vanishes without a reset, a query
     * on an open connection fails within about half a minute instead of
     * waiting for ever, and the server answers 503 and reconnects. */
    static const char *const keys[] = {"keepalives", "keepalives_idle", "keepalives_interval",
                                       "keepalives_count", "tcp_user_timeout", "dbname", NULL};
    const char *const values[] = {"1", "10", "5", "3", "30000", url, NULL};
    PGconn *conn = PQconnectStartParams(keys, values, 1);
    if (!conn) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    if (await_connection(conn, 0, stop, why, sizeof why) != 0) {
        pg_say(err, err_len, shown, "cannot connect", why[0] ? why : PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

/* Resets a broken connection, bounded in time as a new one; 0 or -1. */
int pg_reconnect(PGconn *conn)
{
    char why[64];
    return PQresetStart(conn) == 1 && await_connection(conn, 1, NULL, why, sizeof why) == 0
               ? 0 : -1;
}

void pg_ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}
