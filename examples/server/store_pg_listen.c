/* store_pg_listen.c - the PostgreSQL store's listener: other servers' commits told through LISTEN/NOTIFY, and a probe write while the store is degraded. */
#include "store_pg.h"
#include "store_pg_conn.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* (Re)connects the listening connection and LISTENs on it; 0, or -1 with
 * the reason on stderr once per outage (*said). */
static int listen_connect(struct pg_store *s, int *said)
{
    char err[512];
    if (s->lconn && PQstatus(s->lconn) != CONNECTION_OK) {
        PQfinish(s->lconn);
        s->lconn = NULL;
    }
    if (!s->lconn &&
        !(s->lconn = pg_connect(s->url, s->shown, &s->stop_listening, err, sizeof err))) {
        if (!*said)
            fprintf(stderr, "ttt-server: listening for other servers' moves: %s; trying"
                    " again every second\n", err);
        *said = 1;
        return -1;
    }
    PQsetNoticeProcessor(s->lconn, pg_ignore_notice, NULL);
    if (pg_run_ok(s->lconn, "LISTEN " NOTICE_CHANNEL, s->shown, err, sizeof err) != 0 ||
        pg_run_ok(s->lconn, "LISTEN " RESULT_CHANNEL, s->shown, err, sizeof err) != 0 ||
        pg_run_ok(s->lconn, "LISTEN " OFFER_CHANNEL, s->shown, err, sizeof err) != 0) {
        fprintf(stderr, "ttt-server: %s\n", err);
        PQfinish(s->lconn);
        s->lconn = NULL;
        return -1;
    }
    return 0;
}

/* While the store's last commit failed, a probe write (at most one a
 * second, from the listener, which runs whatever the requests do): a
 * server whose health answers 503 gets no requests from a load balancer,
 * so no move of theirs would commit and show that PostgreSQL is back. */
static void probe_if_degraded(struct pg_store *s, time_t *last_probe)
{
    struct store_stats stats;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec == *last_probe)
        return;
    store_queue_stats(&s->queue, &stats);
    if (!stats.last_error[0])
        return;
    *last_probe = now.tv_sec;
    struct store_write probe = {.probe = 1};
    (void)store_queue_submit(&s->queue, &probe);
}

/* The listener thread: each notice to on_notice (a result's to on_result,
 * an offer's to on_offer), in the order PostgreSQL delivers them (the
 * order of commits); after a lost connection, once it
 * is back, on_notice(NULL, -1): whatever was committed meanwhile was not
 * told, so the caller reads the logs it follows. */
static void *listen_main(void *arg)
{
    struct pg_store *s = arg;
    int lost = 0, said = 0;
    time_t last_probe = 0;
    while (!atomic_load(&s->stop_listening)) {
        if (!s->lconn || PQstatus(s->lconn) != CONNECTION_OK) {
            if (listen_connect(s, &said) != 0) {
                lost = 1;
                for (int i = 0; i < 10 && !atomic_load(&s->stop_listening); i++)
                    poll(NULL, 0, 100);
                continue;
            }
            if (lost) {
                fprintf(stderr, "ttt-server: listening again for other servers' moves\n");
                s->on_notice(s->notice_user, NULL, -1);
            }
            lost = said = 0;
        }
        struct pollfd pfd = {PQsocket(s->lconn), POLLIN, 0};
        if (poll(&pfd, 1, 250) < 0 || (pfd.revents && PQconsumeInput(s->lconn) == 0)) {
            lost = 1;
            PQfinish(s->lconn);
            s->lconn = NULL;
            continue;
        }
        PGnotify *n;
        while ((n = PQnotifies(s->lconn)) != NULL) {
            char id[24];
            int seq;
            long long order;
            if (strcmp(n->relname, RESULT_CHANNEL) == 0) {
                if (sscanf(n->extra, "%lld", &order) == 1)
                    s->on_result(s->notice_user, order);
            } else if (strcmp(n->relname, OFFER_CHANNEL) == 0) {
                if (strlen(n->extra) < sizeof id)
                    s->on_offer(s->notice_user, n->extra);
            } else if (sscanf(n->extra, "%23s %d", id, &seq) == 2) {
                s->on_notice(s->notice_user, id, seq);
            }
            PQfreemem(n);
        }
        probe_if_degraded(s, &last_probe);
    }
    return NULL;
}

int pg_listen(struct store *base, store_notice_fn on_notice, store_result_notice_fn on_result,
              store_offer_notice_fn on_offer, void *user)
{
    struct pg_store *s = (struct pg_store *)base;
    if (s->listening) {
        atomic_store(&s->stop_listening, 1);
        pthread_join(s->listener, NULL);
        s->listening = 0;
        if (s->lconn)
            PQfinish(s->lconn);
        s->lconn = NULL;
    }
    if (!on_notice)
        return 0;
    int said = 0;
    s->on_notice = on_notice;
    s->on_result = on_result;
    s->on_offer = on_offer;
    s->notice_user = user;
    atomic_store(&s->stop_listening, 0);
    /* LISTEN before the caller goes on: every commit from here is told. */
    if (listen_connect(s, &said) != 0)
        return -1;
    if (pthread_create(&s->listener, NULL, listen_main, s) != 0) {
        PQfinish(s->lconn);
        s->lconn = NULL;
        return -1;
    }
    s->listening = 1;
    return 0;
}
