/* manager.c - the id table, game creation, rebuilding games from the store, and health. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "manager.h"

int random_bytes(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

static void random_hex(char *out, size_t chars)
{
    unsigned char bytes[32];
    static const char hex[] = "0123456789abcdef";
    size_t n = (chars + 1) / 2;
    if (n > sizeof bytes || random_bytes(bytes, n) != 0) {
        out[0] = '\0';
        return;
    }
    for (size_t i = 0; i < chars; i++)
        out[i] = hex[(bytes[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[chars] = '\0';
}

static size_t hash_id(const char *id)
{
    uint64_t h = 1469598103934665603u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 1099511628211u;
    return (size_t)h;
}

struct manager *manager_new(struct store *store, const struct manager_limits *limits)
{
    struct manager *mgr = calloc(1, sizeof *mgr);
    if (!mgr)
        return NULL;
    size_t cap = 1024;
    mgr->slots = calloc(cap, sizeof *mgr->slots);
    if (!mgr->slots || ratings_init(mgr) != 0) {
        free(mgr->slots);
        ratings_free(mgr);
        free(mgr);
        return NULL;
    }
    mgr->mask = cap - 1;
    mgr->store = store;
    mgr->limits = *limits;
    mgr->next_order = 1;
    pthread_mutex_init(&mgr->table_lock, NULL);
    pthread_mutex_init(&mgr->ratings_lock, NULL);
    pthread_mutex_init(&mgr->bot_lock, NULL);
    pthread_cond_init(&mgr->bot_wake, NULL);
    pthread_mutex_init(&mgr->timer_lock, NULL);
    pthread_cond_init(&mgr->timer_wake, NULL);
    return mgr;
}

/* The slot of id (holding it, or the empty slot where it would go); with
 * table_lock held. */
size_t slot_of(const struct manager *mgr, const char *id)
{
    size_t i = hash_id(id) & mgr->mask;
    while (mgr->slots[i] && strcmp(mgr->slots[i]->id, id) != 0)
        i = (i + 1) & mgr->mask;
    return i;
}

/* Adds entry (not held yet) with table_lock held; -1 out of memory. The
 * table doubles at half full, so a probe stays short. */
int table_put(struct manager *mgr, struct game_entry *entry)
{
    if ((mgr->used + 1) * 2 > mgr->mask + 1) {
        size_t cap = 2 * (mgr->mask + 1);
        struct game_entry **old = mgr->slots, **grown = calloc(cap, sizeof *grown);
        if (!grown)
            return -1;
        size_t old_cap = mgr->mask + 1;
        mgr->slots = grown;
        mgr->mask = cap - 1;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i])
                mgr->slots[slot_of(mgr, old[i]->id)] = old[i];
        free(old);
    }
    mgr->slots[slot_of(mgr, entry->id)] = entry;
    mgr->used++;
    return 0;
}

/* Takes entry out with table_lock held: the entries after it in its probe
 * run move back, so every lookup still finds them. */
void table_remove(struct manager *mgr, struct game_entry *entry)
{
    size_t i = slot_of(mgr, entry->id);
    if (mgr->slots[i] != entry)
        return;
    mgr->slots[i] = NULL;
    mgr->used--;
    for (size_t j = (i + 1) & mgr->mask; mgr->slots[j]; j = (j + 1) & mgr->mask) {
        struct game_entry *e = mgr->slots[j];
        mgr->slots[j] = NULL;
        mgr->slots[slot_of(mgr, e->id)] = e;
    }
}

static long long monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void entry_free(struct game_entry *entry)
{
    clock_free(entry);
    ttt_game_free(entry->game);
    pthread_mutex_destroy(&entry->lock);
    pthread_cond_destroy(&entry->changed);
    free(entry);
}

/* A new entry for a stored or requested game; a libttt status. */
int entry_new(const struct store_game *g, struct game_entry **out)
{
    struct game_entry *e = calloc(1, sizeof *e);
    if (!e)
        return TTT_E_NOMEM;
    int rc = ttt_game_new_rect(g->width, g->height, g->k, &e->game);
    if (rc != TTT_OK) {
        free(e);
        return rc;
    }
    const int rules[4][2] = {{TTT_RULE_GRAVITY, g->gravity}, {TTT_RULE_MISERE, g->misere},
                             {TTT_RULE_EARLY_DRAW, g->early_draw},
                             {TTT_RULE_PLY_LIMIT, g->ply_limit}};
    for (int i = 0; i < 4 && rc == TTT_OK; i++)
        rc = ttt_game_set_rule(e->game, rules[i][0], rules[i][1]);
    for (int s = 0; s < 2 && rc == TTT_OK; s++)
        rc = ttt_game_set_name(e->game, s == 0 ? TTT_X : TTT_O, g->name[s], strlen(g->name[s]));
    if (rc == TTT_OK && clock_init(e, g) != 0)
        rc = TTT_E_NOMEM;
    if (rc != TTT_OK) {
        clock_free(e);
        ttt_game_free(e->game);
        free(e);
        return rc;
    }
    snprintf(e->id, sizeof e->id, "%s", g->id);
    for (int s = 0; s < 2; s++) {
        int kind = kind_from_name(g->kind[s]);
        e->kind[s] = (unsigned char)(kind < 0 ? SEAT_HUMAN : kind);
        e->budget[s] = (uint32_t)g->budget[s];
        snprintf(e->token[s], sizeof e->token[s], "%.32s", g->token[s]);
    }
    e->rated = g->rated != 0;
    e->idle_since_ms = monotonic_ms();
    random_bytes(&e->seed, sizeof e->seed);
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->changed, NULL);
    *out = e;
    return TTT_OK;
}

/* Replays one stored event into entry's game; a libttt status (TTT_E_STALE
 * for an event that is not the next in its log). */
int replay_event(struct game_entry *entry, const struct store_event *ev)
{
    int width = ttt_width(entry->game), rc;
    if (ev->seq != entry->events)
        rc = TTT_E_STALE;
    else if (ev->kind == STORE_MOVE)
        rc = ttt_play(entry->game, ev->mark, ev->cell / width, ev->cell % width, NULL);
    else if (ev->kind == STORE_RESIGN)
        rc = ttt_resign(entry->game, ev->mark, NULL);
    else if (ev->kind == STORE_FLAG)
        rc = clock_apply_flag(entry, ev->mark);
    else
        rc = ttt_agree_draw(entry->game, NULL);
    if (rc == TTT_OK) {
        clock_replayed(entry, ev);
        entry->events++;
        if (ev->finish_order > 0)
            entry->finish_order = ev->finish_order;
    }
    return rc;
}

/* A finished game loaded on demand. */
struct one_game {
    struct game_entry *entry;
    int bad;
};

static int one_game_row(void *user, const struct store_game *g)
{
    struct one_game *one = user;
    if (one->entry || entry_new(g, &one->entry) != TTT_OK)
        one->bad = 1;
    return one->bad ? -1 : 0;
}

static int one_game_event(void *user, const char *game_id, const struct store_event *ev)
{
    struct one_game *one = user;
    (void)game_id;
    if (!ev || replay_event(one->entry, ev) != TTT_OK)
        one->bad = 1;
    return one->bad ? -1 : 0;
}

struct game_entry *manager_find(struct manager *mgr, const char *id, int *unreadable)
{
    if (unreadable)
        *unreadable = 0;
    pthread_mutex_lock(&mgr->table_lock);
    struct game_entry *e = mgr->slots[slot_of(mgr, id)];
    if (e)
        e->refs++;
    pthread_mutex_unlock(&mgr->table_lock);
    if (e)
        return e;
    /* Not held: a finished game, kept whole in the store, or (a shared
     * store) a game another server created. */
    struct one_game one = {NULL, 0};
    char err[256];
    int found = store_load_game(mgr->store, id, one_game_row, one_game_event, &one, err,
                                sizeof err);
    if (found != 1 || one.bad || !one.entry) {
        if (unreadable)
            *unreadable = found < 0;
        if (found < 0 && err[0])
            fprintf(stderr, "ttt-server: %s\n", err);
        else if (found == 1)
            fprintf(stderr, "ttt-server: game %s does not replay\n", id);
        if (one.entry)
            entry_free(one.entry);
        return NULL;
    }
    int in_progress = ttt_state(one.entry->game) == TTT_IN_PROGRESS;
    one.entry->ended = !in_progress;
    pthread_mutex_lock(&mgr->table_lock);
    /* Another request may have loaded it meanwhile: one copy is held. */
    e = mgr->slots[slot_of(mgr, id)];
    int put = !e && table_put(mgr, one.entry) == 0;
    if (put)
        e = one.entry, one.entry = NULL;
    if (e)
        e->refs++;
    pthread_mutex_unlock(&mgr->table_lock);
    if (one.entry)
        entry_free(one.entry);
    if (put && in_progress) {
        atomic_fetch_add(&mgr->games, 1);
        pthread_mutex_lock(&e->lock);
        clock_loaded(mgr, e, wall_ms());
        pthread_mutex_unlock(&e->lock);
        bot_enqueue(mgr, e);
    }
    return e;
}

/* With a shared store, entry->lock held and the game caught up: its draw
 * offer as the store keeps it, standing if it was made at the game's ply.
 * A change wakes the streams, which send it. Unread (the store failed), the
 * copy stays as it was. */
static void read_offer(struct manager *mgr, struct game_entry *entry)
{
    char err[512];
    int mark = 0, ply = 0;
    int found = store_load_offer(mgr->store, entry->id, &mark, &ply, err, sizeof err);
    if (found < 0) {
        fprintf(stderr, "ttt-server: game %s: reading its draw offer: %s\n", entry->id, err);
        return;
    }
    int standing = found == 1 && ply == ttt_ply(entry->game) &&
                   ttt_state(entry->game) == TTT_IN_PROGRESS ? mark : 0;
    if (standing != entry->draw_offer) {
        entry->draw_offer = (signed char)standing;
        entry->offer_version++;
        pthread_cond_broadcast(&entry->changed);
    }
}

/* A shared store's game in progress, entry->lock held: its log past the
 * copy, then its draw offer. */
static void follow_store(struct manager *mgr, struct game_entry *entry)
{
    if (ttt_state(entry->game) == TTT_IN_PROGRESS && manager_catch_up(mgr, entry) >= 0 &&
        ttt_state(entry->game) == TTT_IN_PROGRESS)
        read_offer(mgr, entry);
}

void manager_refresh(struct manager *mgr, struct game_entry *entry)
{
    if (!mgr->limits.shared)
        return;
    pthread_mutex_lock(&entry->lock);
    follow_store(mgr, entry);
    pthread_mutex_unlock(&entry->lock);
}

void manager_hold(struct manager *mgr, struct game_entry *entry)
{
    pthread_mutex_lock(&mgr->table_lock);
    entry->refs++;
    pthread_mutex_unlock(&mgr->table_lock);
}

void manager_release(struct manager *mgr, struct game_entry *entry)
{
    if (!entry)
        return;
    pthread_mutex_lock(&mgr->table_lock);
    int gone = --entry->refs == 0 && entry->ended;
    if (gone)
        table_remove(mgr, entry);
    else if (entry->refs == 0)
        entry->idle_since_ms = monotonic_ms();
    pthread_mutex_unlock(&mgr->table_lock);
    if (gone)
        entry_free(entry);
}

void manager_hold_stream(struct manager *mgr, struct game_entry *entry)
{
    pthread_mutex_lock(&mgr->table_lock);
    entry->refs++;
    entry->streams++;
    pthread_mutex_unlock(&mgr->table_lock);
    /* Every event committed from here on is told (the game has a stream);
     * the ones before, read now. */
    manager_refresh(mgr, entry);
}

void manager_release_stream(struct manager *mgr, struct game_entry *entry)
{
    pthread_mutex_lock(&mgr->table_lock);
    entry->streams--;
    pthread_mutex_unlock(&mgr->table_lock);
    manager_release(mgr, entry);
}

/* The store told of event seq of game_id, committed by some server (this
 * one included): a game that streams follow reads its log past its copy,
 * which wakes the streams. seq -1 (game_id NULL): the store's connection
 * was lost, so every followed game reads its log and its draw offer. seq
 * -2: a draw offer in game_id, which it reads (after its log). */
static void on_notice(void *user, const char *game_id, int seq)
{
    struct manager *mgr = user;
    struct game_entry **followed = NULL;
    size_t n = 0;
    if (!game_id)
        ratings_catch_up(mgr); /* results committed while the store could not tell */
    pthread_mutex_lock(&mgr->table_lock);
    if (game_id) {
        struct game_entry *e = mgr->slots[slot_of(mgr, game_id)];
        if (e && e->streams > 0 && !e->ended && (followed = malloc(sizeof *followed)))
            followed[n++] = e;
    } else if ((followed = malloc((mgr->mask + 1) * sizeof *followed)) != NULL) {
        for (size_t i = 0; i <= mgr->mask; i++)
            if (mgr->slots[i] && mgr->slots[i]->streams > 0 && !mgr->slots[i]->ended)
                followed[n++] = mgr->slots[i];
    }
    for (size_t i = 0; i < n; i++)
        followed[i]->refs++;
    pthread_mutex_unlock(&mgr->table_lock);
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&followed[i]->lock);
        if (seq < 0)
            follow_store(mgr, followed[i]);
        else if (followed[i]->events <= seq)
            manager_catch_up(mgr, followed[i]);
        pthread_mutex_unlock(&followed[i]->lock);
        manager_release(mgr, followed[i]);
    }
    free(followed);
}

static void on_offer(void *user, const char *game_id)
{
    on_notice(user, game_id, -2);
}

/* The store told of a game that finished (on any server) with this
 * order: the results this server lacks are read from the store. */
static void on_result(void *user, long long finish_order)
{
    struct manager *mgr = user;
    pthread_mutex_lock(&mgr->ratings_lock);
    int lacking = finish_order >= mgr->next_order;
    pthread_mutex_unlock(&mgr->ratings_lock);
    if (lacking)
        ratings_catch_up(mgr);
}

int manager_listen(struct manager *mgr)
{
    if (!mgr->limits.shared)
        return 0;
    if (store_listen(mgr->store, on_notice, on_result, on_offer, mgr) != 0)
        return -1;
    /* Told from here on; what finished between the start's read and now
     * is read now. */
    ratings_catch_up(mgr);
    return 0;
}

/* Whether a game with this id exists, held or finished in the store. */
static int id_taken(struct manager *mgr, const char *id)
{
    struct game_entry *e = manager_find(mgr, id, NULL);
    manager_release(mgr, e);
    return e != NULL;
}

/* entry's row as the store keeps it (entry->lock held). */
void entry_row(const struct game_entry *e, struct store_game *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", e->id);
    g->width = ttt_width(e->game);
    g->height = ttt_height(e->game);
    g->k = ttt_win_length(e->game);
    const int rules[4] = {TTT_RULE_GRAVITY, TTT_RULE_MISERE, TTT_RULE_EARLY_DRAW,
                          TTT_RULE_PLY_LIMIT};
    int *values[4] = {&g->gravity, &g->misere, &g->early_draw, &g->ply_limit};
    for (int i = 0; i < 4; i++)
        if (ttt_game_get_rule(e->game, rules[i], values[i]) != TTT_OK)
            *values[i] = 0;
    g->rated = e->rated;
    g->clock_initial_s = e->clock.tc.initial_s;
    g->clock_increment_s = e->clock.tc.increment_s;
    g->clock_days_per_move = e->clock.tc.days_per_move;
    for (int s = 0; s < 2; s++) {
        size_t len;
        snprintf(g->kind[s], sizeof g->kind[s], "%s", kind_name(e->kind[s]));
        g->budget[s] = e->budget[s];
        if (ttt_game_get_name(e->game, s == 0 ? TTT_X : TTT_O, g->name[s], sizeof g->name[s],
                              &len) != TTT_OK)
            g->name[s][0] = '\0';
        snprintf(g->token[s], sizeof g->token[s], "%s", e->token[s]);
    }
}

/* entry's log, the ending last (the game is over; entry->lock held):
 * malloc'ed, or NULL. */
struct store_event *entry_log(const struct game_entry *e, size_t *count)
{
    int ply = ttt_ply(e->game), ending = ttt_ending(e->game), width = ttt_width(e->game);
    int extra = ending == TTT_END_RESIGN || ending == TTT_END_AGREED;
    struct store_event *log = calloc((size_t)ply + 1, sizeof *log);
    if (!log)
        return NULL;
    for (int i = 0; i < ply; i++) {
        int mark, row, col;
        ttt_move_at(e->game, i, &mark, &row, &col);
        log[i] = (struct store_event){i, STORE_MOVE, mark, row * width + col, 0, 0, {-1, -1}};
    }
    if (extra) {
        int state = ttt_state(e->game);
        log[ply] = (struct store_event){ply, ending == TTT_END_RESIGN ? STORE_RESIGN : STORE_DRAW,
                                        ending != TTT_END_RESIGN ? 0
                                        : state == TTT_X_WON ? TTT_O : TTT_X, -1, 0, 0,
                                        {-1, -1}};
        if (e->clock.flagged)
            log[ply].kind = STORE_FLAG, log[ply].mark = e->clock.flagged;
    }
    *count = (size_t)ply + (size_t)extra;
    /* Each entry's time and clocks, as they were stored. */
    for (size_t i = 0; e->clock.after && i < *count && i < (size_t)e->clock.after_cap; i++) {
        log[i].at_ms = e->clock.after[i][0];
        log[i].clock_ms[0] = e->clock.after[i][1];
        log[i].clock_ms[1] = e->clock.after[i][2];
    }
    log[*count - 1].finish_order = e->finish_order;
    return log;
}

int manager_store_event(struct manager *mgr, struct game_entry *entry, struct store_event *event)
{
    event->finish_order = 0;
    if (ttt_state(entry->game) == TTT_IN_PROGRESS)
        return store_add_event(mgr->store, entry->id, event, NULL, NULL);
    struct store_game row;
    struct store_finished fin;
    entry_row(entry, &row);
    fin.game = &row;
    fin.state = ttt_state(entry->game);
    fin.finish_order = 0; /* the store gives it */
    struct store_event *log = entry_log(entry, &fin.count);
    if (log) { /* the ending's times are the event's (not yet in the clock) */
        log[fin.count - 1].at_ms = event->at_ms;
        log[fin.count - 1].clock_ms[0] = event->clock_ms[0];
        log[fin.count - 1].clock_ms[1] = event->clock_ms[1];
    }
    fin.log = log;
    long long order = 0;
    int rc = fin.log ? store_add_event(mgr->store, entry->id, event, &fin, &order)
                     : STORE_FAILED;
    free((void *)fin.log);
    if (rc == STORE_OK) {
        event->finish_order = order;
        struct store_result result = {entry->id, order, entry->rated, fin.state,
                                      {row.name[0], row.name[1]}, row.width, row.height, row.k,
                                      row.gravity, row.misere, row.ply_limit};
        /* Held back for results before it that another server stored (a
         * shared store gives orders in commit order, so those are
         * committed): read them now, not only when their notices come. */
        if ((ratings_finish(mgr, &result) && mgr->limits.shared) ||
            atomic_load(&mgr->ratings_behind))
            ratings_catch_up(mgr);
        atomic_fetch_sub(&mgr->games, 1);
        pthread_mutex_lock(&mgr->table_lock);
        entry->ended = 1; /* leaves memory with its last holder */
        pthread_mutex_unlock(&mgr->table_lock);
    }
    return rc;
}

static int catch_up_event(void *user, const char *game_id, const struct store_event *ev)
{
    (void)game_id;
    return replay_event(user, ev) == TTT_OK ? 0 : -1;
}

int manager_catch_up(struct manager *mgr, struct game_entry *entry)
{
    char err[512];
    int n = store_load_log(mgr->store, entry->id, entry->events, catch_up_event, entry, err,
                           sizeof err);
    if (n < 0)
        fprintf(stderr, "ttt-server: game %s: catching up with the store: %s\n", entry->id,
                err[0] ? err : "its log does not replay");
    if (n != 0) {
        entry->draw_offer = 0;
        pthread_cond_broadcast(&entry->changed);
        clock_committed(mgr, entry, NULL);
    }
    if (n > 0 && ttt_state(entry->game) != TTT_IN_PROGRESS) {
        /* Another server ended it: no longer in progress here either. */
        pthread_mutex_lock(&mgr->table_lock);
        int was_ended = entry->ended;
        entry->ended = 1;
        pthread_mutex_unlock(&mgr->table_lock);
        if (!was_ended)
            atomic_fetch_sub(&mgr->games, 1);
    }
    return n;
}

static int get_bool(json_t *obj, const char *key, int fallback, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) {
        *out = fallback;
        return 0;
    }
    if (!json_is_boolean(v))
        return -1;
    *out = json_is_true(v);
    return 0;
}

/* An integer field in lo..hi; -1 for a wrong type, -2 out of range. */
static int get_int(json_t *obj, const char *key, long fallback, long lo, long hi, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) {
        *out = (int)fallback;
        return 0;
    }
    if (!json_is_integer(v))
        return -1;
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return -2;
    *out = (int)x;
    return 0;
}

#define FIELD_ERROR(rc, key, range_status)                                                \
    ((rc) == -1 ? error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "%s has the wrong type", \
                              key)                                                        \
                : ttt_error_reply(422, range_status, "%s is out of range", key))

struct reply game_create(struct manager *mgr, json_t *req)
{
    struct store_game g;
    memset(&g, 0, sizeof g);
    int rc, max = mgr->limits.max_size;
    if (!json_is_object(req))
        return error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "the body must be a JSON object");
    json_t *preset = json_object_get(req, "game");
    if (preset && !json_is_null(preset)) {
        const char *p = json_string_value(preset);
        if (!p)
            return FIELD_ERROR(-1, "game", TTT_E_INVALID);
        if (strcmp(p, "tictactoe") == 0)
            g.width = g.height = g.k = 3;
        else if (strcmp(p, "connect4") == 0)
            g.width = 7, g.height = 6, g.k = 4, g.gravity = 1;
        else if (strcmp(p, "gomoku") == 0)
            g.width = g.height = 15, g.k = 5;
        else
            return ttt_error_reply(422, TTT_E_SIZE, "unknown game %.40s", p);
        if (g.width > max || g.height > max)
            return ttt_error_reply(422, TTT_E_SIZE, "this server allows boards up to %d", max);
    } else {
        if ((rc = get_int(req, "width", 3, 3, max, &g.width)) != 0)
            return FIELD_ERROR(rc, "width", TTT_E_SIZE);
        if ((rc = get_int(req, "height", g.width, 3, max, &g.height)) != 0)
            return FIELD_ERROR(rc, "height", TTT_E_SIZE);
        if ((rc = get_int(req, "k", 0, 0, max, &g.k)) != 0)
            return FIELD_ERROR(rc, "k", TTT_E_SIZE);
        if ((rc = get_bool(req, "gravity", 0, &g.gravity)) != 0)
            return FIELD_ERROR(rc, "gravity", TTT_E_RULE);
    }
    json_t *rules = json_object_get(req, "rules");
    if (rules && !json_is_null(rules) && !json_is_object(rules))
        return FIELD_ERROR(-1, "rules", TTT_E_RULE);
    if ((rc = get_bool(rules, "misere", 0, &g.misere)) != 0)
        return FIELD_ERROR(rc, "rules.misere", TTT_E_RULE);
    if ((rc = get_bool(rules, "early_draw", 0, &g.early_draw)) != 0)
        return FIELD_ERROR(rc, "rules.early_draw", TTT_E_RULE);
    if ((rc = get_int(rules, "ply_limit", 0, 0, (long)max * max, &g.ply_limit)) != 0)
        return FIELD_ERROR(rc, "rules.ply_limit", TTT_E_RULE);
    if ((rc = get_bool(req, "rated", 0, &g.rated)) != 0)
        return FIELD_ERROR(rc, "rated", TTT_E_INVALID);

    for (int s = 0; s < 2; s++) {
        const char *seat = s == 0 ? "x" : "o";
        json_t *p = json_object_get(req, seat);
        if (p && !json_is_null(p) && !json_is_object(p))
            return FIELD_ERROR(-1, seat, TTT_E_INVALID);
        json_t *kind = json_object_get(p, "kind"), *name = json_object_get(p, "name");
        int k = SEAT_HUMAN, budget = 0;
        if (kind && !json_is_null(kind)) {
            if (!json_is_string(kind))
                return FIELD_ERROR(-1, "kind", TTT_E_INVALID);
            if ((k = kind_from_name(json_string_value(kind))) < 0)
                return ttt_error_reply(422, TTT_E_INVALID,
                                       "kind must be human, random, strong or perfect");
        }
        if ((rc = get_int(p, "budget", 0, 0, mgr->limits.max_budget, &budget)) != 0)
            return FIELD_ERROR(rc, "budget", TTT_E_RANGE);
        if (name && !json_is_null(name)) {
            if (!json_is_string(name))
                return FIELD_ERROR(-1, "name", TTT_E_NAME);
            if (json_string_length(name) > TTT_NAME_MAX)
                return ttt_error_reply(422, TTT_E_NAME, "a name has at most %d bytes",
                                       TTT_NAME_MAX);
            snprintf(g.name[s], sizeof g.name[s], "%s", json_string_value(name));
            if (strlen(g.name[s]) != json_string_length(name))
                return ttt_error_reply(422, TTT_E_NAME, "a name has no NUL bytes");
        } else {
            snprintf(g.name[s], sizeof g.name[s], "%s", k == SEAT_HUMAN
                     ? (s == 0 ? "X" : "O") : k == SEAT_RANDOM ? "random bot"
                     : k == SEAT_STRONG ? "strong bot" : "perfect bot");
        }
        snprintf(g.kind[s], sizeof g.kind[s], "%s", kind_name(k));
        g.budget[s] = budget;
    }
    struct time_control tc;
    struct reply refused;
    if (clock_from_request(req, &tc, &refused) != 0)
        return refused;
    return game_create_with(mgr, &g, &tc);
}

struct reply game_create_with(struct manager *mgr, struct store_game *gp,
                              const struct time_control *tc)
{
    struct store_game g = *gp;
    struct reply refused;
    int rc;
    if (tc && clock_check_control(tc, &refused) != 0)
        return refused;
    g.clock_initial_s = tc ? tc->initial_s : 0;
    g.clock_increment_s = tc ? tc->increment_s : 0;
    g.clock_days_per_move = tc ? tc->days_per_move : 0;
    /* Both seats are taken now, unless a rated game's o waits for its
     * account (rated.c names it at the join). */
    g.seated_ms = g.rated && !g.name[1][0] ? 0 : wall_ms();
    for (int s = 0; s < 2; s++) {
        g.token[s][0] = '\0';
        if (kind_from_name(g.kind[s]) == SEAT_HUMAN)
            random_hex(g.token[s], TOKEN_LEN);
    }
    /* The creation time in seconds, then 40 random bits: games end in about
     * the order they began, so a finished game's row goes near the end of
     * the finished games' key instead of onto a random page of it (one page
     * written a commit, not one a game). A repeat is checked against the
     * games held and the finished ones stored. */
    do {
        snprintf(g.id, sizeof g.id, "%08llx", (unsigned long long)time(NULL) & 0xffffffffu);
        random_hex(g.id + 8, 10);
    } while (id_taken(mgr, g.id));

    struct game_entry *entry;
    if ((rc = entry_new(&g, &entry)) != TTT_OK)
        return ttt_error_reply(422, rc, "%s", ttt_strerror(rc));
    /* Stored as played, not as asked (k 0: the board's default): a result
     * read back from the store is rated by its shape, as the game's own
     * server rates it from the game. */
    g.k = ttt_win_length(entry->game);
    if (atomic_fetch_add(&mgr->games, 1) >= mgr->limits.max_games) {
        atomic_fetch_sub(&mgr->games, 1);
        entry_free(entry);
        return error_reply(503, "too_many_games", 503, "this server holds its maximum of %ld games",
                           mgr->limits.max_games);
    }
    if (store_add_game(mgr->store, &g) != 0) {
        atomic_fetch_sub(&mgr->games, 1);
        entry_free(entry);
        return error_reply(503, "store_failed", 503, "the game could not be stored");
    }
    pthread_mutex_lock(&mgr->table_lock);
    int full = table_put(mgr, entry);
    entry->refs = full ? 0 : 1; /* this request's */
    pthread_mutex_unlock(&mgr->table_lock);
    if (full) {
        /* Stored, so it is loaded at the next start; not servable now. */
        atomic_fetch_sub(&mgr->games, 1);
        entry_free(entry);
        return error_reply(503, "out_of_memory", 503, "out of memory");
    }

    struct text t = {0};
    text_str(&t, "{\"id\":\"");
    text_str(&t, g.id);
    text_str(&t, "\",\"tokens\":{");
    for (int s = 0; s < 2; s++)
        if (g.token[s][0]) {
            text_str(&t, s == 0 ? "\"x\":\"" : g.token[0][0] ? ",\"o\":\"" : "\"o\":\"");
            text_str(&t, g.token[s]);
            text_str(&t, "\"");
        }
    text_str(&t, "},\"game\":");
    pthread_mutex_lock(&entry->lock);
    clock_resume(mgr, entry, wall_ms());
    state_text(&t, entry, entry->game);
    pthread_mutex_unlock(&entry->lock);
    text_str(&t, "}");
    bot_enqueue(mgr, entry);
    manager_release(mgr, entry);
    *gp = g;
    return text_reply(201, &t);
}

void manager_unload_idle(struct manager *mgr)
{
    if (!mgr->limits.shared || mgr->limits.unload_idle_ms <= 0)
        return;
    long long before = monotonic_ms() - mgr->limits.unload_idle_ms;
    long unloaded = 0;
    /* Nothing holds these (every holder counts in refs, under this lock),
     * so nothing can reach them once they are out of the table. */
    pthread_mutex_lock(&mgr->table_lock);
    for (size_t i = 0; i <= mgr->mask; i++) {
        struct game_entry *e = mgr->slots[i];
        if (!e || e->refs > 0 || e->ended || e->idle_since_ms > before)
            continue;
        table_remove(mgr, e);
        entry_free(e);
        unloaded++;
        i--; /* the slot may hold a moved entry now */
    }
    pthread_mutex_unlock(&mgr->table_lock);
    atomic_fetch_sub(&mgr->games, unloaded);
}

void manager_stop_streams(struct manager *mgr)
{
    atomic_store(&mgr->stopping, 1);
}

int manager_stopping(struct manager *mgr)
{
    return atomic_load(&mgr->stopping);
}

void manager_free(struct manager *mgr)
{
    if (mgr->limits.shared)
        store_listen(mgr->store, NULL, NULL, NULL, NULL); /* no notice comes after this */
    bots_stop(mgr);
    clock_timer_stop(mgr);
    /* Nothing holds a game any more: the server has stopped. */
    for (size_t i = 0; i <= mgr->mask; i++)
        if (mgr->slots[i])
            entry_free(mgr->slots[i]);
    free(mgr->slots);
    ratings_free(mgr);
    pthread_mutex_destroy(&mgr->table_lock);
    pthread_mutex_destroy(&mgr->ratings_lock);
    pthread_mutex_destroy(&mgr->bot_lock);
    pthread_cond_destroy(&mgr->bot_wake);
    pthread_mutex_destroy(&mgr->timer_lock);
    pthread_cond_destroy(&mgr->timer_wake);
    free(mgr);
}

struct reply health_view(struct manager *mgr)
{
    struct store_stats stats;
    store_stats(mgr->store, &stats);
    /* A failed write makes the server degraded until a commit in which
     * every write succeeded: moves are being refused meanwhile. */
    int degraded = stats.last_error[0] != '\0';
    return (struct reply){degraded ? 503 : 200, json_pack(
        "{s:s, s:I, s:I, s:{s:I, s:I, s:f, s:f, s:s?}, s:s}",
        "status", degraded ? "degraded" : "ok", "games", (json_int_t)atomic_load(&mgr->games),
        "moves_acknowledged", (json_int_t)atomic_load(&mgr->moves_acked),
        "store", "commits", (json_int_t)stats.commits,
        "failed_writes", (json_int_t)stats.failed_writes, "mean_commit_ms",
        stats.mean_us / 1000.0, "last_commit_ms", stats.last_us / 1000.0,
        "last_error", degraded ? stats.last_error : NULL, "version", ttt_version_string()),
        NULL};
}
