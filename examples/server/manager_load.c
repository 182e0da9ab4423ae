/* manager_load.c - the start's load: stored games rebuilt, finished ones stored whole, results rated. */
#include <stdio.h>
#include <stdlib.h>

#include "manager.h"

/* The start's load: every stored game, then every event replayed into its
 * game. Outside --salvage anything that does not rebuild stops the start
 * (the message in err); with it, the game is reported, marked and dropped
 * once the load is through. */
struct load_state {
    struct manager *mgr;
    long games, events, skipped;
    char *err;
    size_t err_len;
};

/* A game that cannot be served: an error, or (salvage) a report. */
static int load_problem(struct load_state *st, const char *id, const char *what)
{
    if (!st->mgr->limits.salvage) {
        snprintf(st->err, st->err_len, "game %s %s (--salvage skips it)", id, what);
        return -1;
    }
    fprintf(stderr, "ttt-server: game %s %s; game skipped\n", id, what);
    st->skipped++;
    return 0;
}

static int load_game(void *user, const struct store_game *g)
{
    struct load_state *st = user;
    struct game_entry *entry;
    if (st->games >= st->mgr->limits.max_games) {
        snprintf(st->err, st->err_len, "the database holds more than --max-games %ld games"
                 " in progress", st->mgr->limits.max_games);
        return -1;
    }
    if (st->mgr->slots[slot_of(st->mgr, g->id)])
        return load_problem(st, g->id, "is stored twice (the first is kept)");
    int rc = entry_new(g, &entry);
    if (rc != TTT_OK) {
        char what[160];
        snprintf(what, sizeof what, "cannot be rebuilt: %s", ttt_strerror(rc));
        return load_problem(st, g->id, what);
    }
    if (table_put(st->mgr, entry) != 0) {
        entry_free(entry);
        snprintf(st->err, st->err_len, "out of memory");
        return -1;
    }
    /* Its seating was a stored write: the server was up then. */
    if (g->seated_ms > st->mgr->alive_ms)
        st->mgr->alive_ms = g->seated_ms;
    st->games++;
    return 0;
}

static int load_event(void *user, const char *game_id, const struct store_event *ev)
{
    struct load_state *st = user;
    struct game_entry *entry = st->mgr->slots[slot_of(st->mgr, game_id)];
    char what[160];
    if (!entry) {
        snprintf(what, sizeof what, "is not stored, but event %d of it is",
                 ev ? ev->seq : -1);
        return load_problem(st, game_id, what);
    }
    if (entry->load_bad)
        return 0;
    if (!ev) { /* a row of its log did not read (salvage) */
        entry->load_bad = 1;
        return 0;
    }
    int rc = replay_event(entry, ev);
    if (ev->at_ms > st->mgr->alive_ms)
        st->mgr->alive_ms = ev->at_ms;
    if (rc != TTT_OK) {
        snprintf(what, sizeof what, "event %d does not replay: %s", ev->seq,
                 rc == TTT_E_STALE ? "it is not the next in its log" : ttt_strerror(rc));
        entry->load_bad = 1;
        return load_problem(st, game_id, what);
    }
    st->events++;
    return 0;
}

/* After the load: the games marked bad (salvage) go; the finished games
 * (a file from before the store kept them whole) are stored whole, in one
 * transaction, and go too. Only games in progress stay. */
static int sort_out(struct manager *mgr, struct load_state *st)
{
    size_t cap = mgr->mask + 1, n = 0;
    struct game_entry **done = malloc(cap * sizeof *done);
    struct store_finished *fins = calloc(cap, sizeof *fins);
    struct store_game *rows = calloc(cap, sizeof *rows);
    int rc = done && fins && rows ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < cap; i++) {
        struct game_entry *e = mgr->slots[i];
        if (!e || e->load_bad || ttt_state(e->game) == TTT_IN_PROGRESS)
            continue;
        entry_row(e, &rows[n]);
        size_t count = 0;
        const struct store_event *log = entry_log(e, &count);
        fins[n] = (struct store_finished){&rows[n], ttt_state(e->game), e->finish_order, log,
                                          count};
        if (!fins[n].log || e->finish_order <= 0) {
            free((void *)fins[n].log);
            snprintf(st->err, st->err_len, "game %s is over but has no finish order", e->id);
            rc = -1;
            break;
        }
        done[n++] = e;
    }
    if (rc == 0 && store_add_finished(mgr->store, fins, n) != STORE_OK) {
        snprintf(st->err, st->err_len, "storing %zu finished games whole failed", n);
        rc = -1;
    }
    for (size_t i = 0; fins && i < n; i++)
        free((void *)fins[i].log);
    if (rc == 0) {
        if (n)
            fprintf(stderr, "ttt-server: %zu finished games are now kept whole in the"
                    " store\n", n);
        for (size_t i = 0; i < n; i++) {
            table_remove(mgr, done[i]);
            st->games--;
            st->events -= done[i]->events;
            entry_free(done[i]);
        }
        /* The bad ones (salvage), each reported already. */
        for (size_t i = 0; i <= mgr->mask; i++) {
            struct game_entry *e = mgr->slots[i];
            if (e && e->load_bad) {
                table_remove(mgr, e);
                st->games--;
                st->events -= e->events;
                entry_free(e);
                i--; /* the slot may hold a moved entry now */
            }
        }
    } else if (!st->err[0]) {
        snprintf(st->err, st->err_len, "out of memory");
    }
    free(done);
    free(fins);
    free(rows);
    return rc;
}

static int load_result(void *user, const struct store_result *result)
{
    struct manager *mgr = user;
    ratings_replay(mgr, result);
    mgr->next_order = result->finish_order + 1; /* they come in order */
    return 0;
}

int manager_load(struct manager *mgr, long *games, long *events, long *skipped, char *err,
                 size_t err_len)
{
    struct load_state st = {.mgr = mgr, .err = err, .err_len = err_len};
    long store_skipped = 0;
    err[0] = '\0';
    int rc = store_load(mgr->store, load_game, load_event, &st, &store_skipped, err, err_len);
    if (rc == 0)
        rc = sort_out(mgr, &st);
    if (rc == 0)
        rc = store_load_results(mgr->store, 1, load_result, mgr, err, err_len);
    atomic_store(&mgr->games, st.games);
    *games = st.games;
    *events = st.events;
    *skipped = st.skipped + store_skipped;
    return rc;
}
