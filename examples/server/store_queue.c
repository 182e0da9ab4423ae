/* store_queue.c - one writer thread a store: it takes every waiting write, commits them in one transaction through the backend, and wakes their callers. */
#include "store_queue.h"

#include <stdio.h>
#include <time.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void store_queue_init(struct store_queue *q, store_commit_fn commit, void *backend)
{
    q->commit = commit;
    q->backend = backend;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->wake_writer, NULL);
}

/* Takes every waiting write, commits them in one transaction and wakes
 * their callers once it is over: one sync for many moves. */
static void *writer_main(void *arg)
{
    struct store_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (!q->head && !q->stopping)
            pthread_cond_wait(&q->wake_writer, &q->lock);
        if (!q->head)
            break;
        struct store_write *batch = q->head;
        q->head = q->tail = NULL;
        pthread_mutex_unlock(&q->lock);

        char error[256] = "";
        double start = now_us();
        int ok = q->commit(q->backend, batch, error, sizeof error);
        double took = now_us() - start;
        uint64_t failed = 0, probes_failed = 0;
        for (struct store_write *w = batch; w; w = w->next) {
            failed += w->result == STORE_FAILED && !w->probe;
            probes_failed += w->result == STORE_FAILED && w->probe;
        }
        /* Counted before any caller wakes: whoever saw a write acknowledged
         * (or refused) then finds its commit in store_stats. */
        pthread_mutex_lock(&q->lock);
        q->failed_writes += failed;
        if (ok) {
            q->commits++;
            q->total_us += took;
            q->last_us = took;
        }
        if (failed || probes_failed)
            snprintf(q->last_error, sizeof q->last_error, "%s", error);
        else
            q->last_error[0] = '\0';
        pthread_mutex_unlock(&q->lock);

        /* Each caller sleeps on its own semaphore, so a commit wakes
         * exactly its callers and they do not queue for the queue's lock. */
        for (struct store_write *w = batch, *next; w; w = next) {
            next = w->next;
            sem_post(&w->done);
        }
        pthread_mutex_lock(&q->lock);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

int store_queue_start(struct store_queue *q)
{
    if (pthread_create(&q->writer, NULL, writer_main, q) != 0)
        return -1;
    q->started = 1;
    return 0;
}

void store_queue_stop(struct store_queue *q)
{
    if (q->started) {
        pthread_mutex_lock(&q->lock);
        q->stopping = 1;
        pthread_cond_signal(&q->wake_writer);
        pthread_mutex_unlock(&q->lock);
        pthread_join(q->writer, NULL);
        q->started = 0;
    }
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->wake_writer);
}

int store_queue_submit(struct store_queue *q, struct store_write *w)
{
    pthread_mutex_lock(&q->lock);
    if (q->stopping) {
        pthread_mutex_unlock(&q->lock);
        return STORE_FAILED;
    }
    sem_init(&w->done, 0, 0);
    w->next = NULL;
    if (q->tail)
        q->tail->next = w;
    else
        q->head = w;
    q->tail = w;
    pthread_cond_signal(&q->wake_writer);
    pthread_mutex_unlock(&q->lock);
    while (sem_wait(&w->done) != 0)
        ; /* EINTR: wait on */
    sem_destroy(&w->done);
    return w->result;
}

void store_queue_stats(struct store_queue *q, struct store_stats *out)
{
    pthread_mutex_lock(&q->lock);
    out->commits = q->commits;
    out->failed_writes = q->failed_writes;
    out->mean_us = q->commits ? q->total_us / (double)q->commits : 0.0;
    out->last_us = q->last_us;
    snprintf(out->last_error, sizeof out->last_error, "%s", q->last_error);
    pthread_mutex_unlock(&q->lock);
}
