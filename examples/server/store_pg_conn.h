/* store_pg_conn.h - libpq connection helpers shared by the PostgreSQL store's files. */
#ifndef TTT_SERVER_STORE_PG_CONN_H
#define TTT_SERVER_STORE_PG_CONN_H

#include <libpq-fe.h>
#include <stdatomic.h>
#include <stddef.h>

/* "SHOWN: WHAT: MSG" into out, on one line; shown is the URL without its
 * password. */
void pg_say(char *out, size_t cap, const char *shown, const char *what, const char *msg);

/* One statement without parameters, prepared: its result, or NULL with the
 * message in err. pg_run_ok: the same for a statement that returns no
 * rows; 0 or -1. */
PGresult *pg_run(PGconn *conn, const char *sql, ExecStatusType want, const char *shown,
                 char *err, size_t err_len);
int pg_run_ok(PGconn *conn, const char *sql, const char *shown, char *err, size_t err_len);

/* Prepares each {name, sql} of list; 0, or -1 with the message in err. */
int pg_prepare_all(PGconn *conn, const char *const (*list)[2], size_t n, const char *shown,
                   char *err, size_t err_len);

/* A new connection within the URL's connect_timeout (10 s if it has none),
 * given up early once *stop (if given) is set; NULL with the message in
 * err. pg_reconnect resets a broken connection under the same bound. */
PGconn *pg_connect(const char *url, const char *shown, const atomic_int *stop, char *err,
                   size_t err_len);
int pg_reconnect(PGconn *conn);

/* A notice processor that drops libpq's notices (NOTICE lines of DDL). */
void pg_ignore_notice(void *arg, const char *message);

#endif
