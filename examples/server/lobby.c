/* lobby.c - seeks, the lobby's and each account's event streams, and the timer that expires seeks and pairs the pool. */
#include "lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounts.h"
#include "http.h"
#include "lobby_impl.h"
#include "manager.h"
#include "rated.h"

static const char *const preset_names[3] = {"tictactoe", "connect4", "gomoku"};

long long lobby_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec;
}

/* The rating kind of a create body (preset or shape). */
static int body_kind(const json_t *body)
{
    const char *preset = json_string_value(json_object_get(body, "game"));
    for (int i = 0; preset && i < 3; i++)
        if (strcmp(preset, preset_names[i]) == 0)
            return i;
    const json_t *rules = json_object_get(body, "rules");
    int w = (int)json_integer_value(json_object_get(body, "width"));
    int h = (int)json_integer_value(json_object_get(body, "height"));
    int k = (int)json_integer_value(json_object_get(body, "k"));
    w = w ? w : 3, h = h ? h : w, k = k ? k : (w < h ? w : h);
    return board_kind(w, h, k, json_is_true(json_object_get(body, "gravity")),
                      json_is_true(json_object_get(rules, "misere")),
                      (int)json_integer_value(json_object_get(rules, "ply_limit")));
}

/* ---- event texts ---- */

static char *event_text(long long seq, const char *name, json_t *data)
{
    char *json = json_dumps(data, JSON_COMPACT);
    json_decref(data);
    if (!json)
        return NULL;
    size_t cap = strlen(json) + strlen(name) + 64;
    char *text = malloc(cap);
    if (text) {
        if (seq > 0)
            snprintf(text, cap, "id: %lld\nevent: %s\ndata: %s\n\n", seq, name, json);
        else
            snprintf(text, cap, "event: %s\ndata: %s\n\n", name, json);
    }
    free(json);
    return text;
}

/* With lb->lock: an event for every lobby stream. */
void lobby_publish(struct lobby *lb, const char *name, json_t *data)
{
    long long seq = ++lb->log_seq;
    char **slot = &lb->log[seq % LOBBY_LOG];
    free(*slot);
    *slot = event_text(seq, name, data);
    pthread_cond_broadcast(&lb->changed);
}

/* With lb->lock: the account's mailbox, made if new (an idle one of
 * another account is reused when all are taken); NULL if none is free. */
struct mailbox *lobby_mailbox(struct lobby *lb, long long account, long long now)
{
    struct mailbox *idlest = NULL;
    for (size_t i = 0; i < lb->box_count; i++) {
        struct mailbox *b = lb->boxes[i];
        if (b->account == account)
            return b;
        if (!b->streams && (!idlest || b->idle_since < idlest->idle_since))
            idlest = b;
    }
    struct mailbox *b = NULL;
    if (lb->box_count < MAILBOXES_MAX) {
        b = calloc(1, sizeof *b);
        if (!b)
            return NULL;
        lb->boxes[lb->box_count++] = b;
    } else if (idlest) {
        b = idlest;
        for (int i = 0; i < MAILBOX_EVENTS; i++)
            free(b->events[i]);
        memset(b, 0, sizeof *b);
    } else {
        return NULL;
    }
    b->account = account;
    b->idle_since = now;
    b->next_seq = b->delivered = 1;
    return b;
}

/* With lb->lock: an event for one account's streams, kept until read. */
void lobby_tell(struct lobby *lb, long long account, const char *name, json_t *data)
{
    struct mailbox *b = lobby_mailbox(lb, account, lobby_now());
    if (!b) {
        json_decref(data);
        return;
    }
    long long seq = b->next_seq++;
    char **slot = &b->events[seq % MAILBOX_EVENTS];
    free(*slot);
    *slot = event_text(seq, name, data);
    pthread_cond_broadcast(&lb->changed);
}

/* With lb->lock: since when the account has had no account stream open
 * (now while one is), counted from at least `since`. */
long long lobby_unwatched_since(struct lobby *lb, long long account, long long since,
                                long long now)
{
    for (size_t i = 0; i < lb->box_count; i++)
        if (lb->boxes[i]->account == account)
            return lb->boxes[i]->streams ? now
                   : lb->boxes[i]->idle_since > since ? lb->boxes[i]->idle_since : since;
    return since;
}

/* ---- seeks ---- */

static json_t *seek_json(const struct seek *s)
{
    json_t *v = json_deep_copy(s->game);
    if (!v)
        return NULL;
    json_object_set_new(v, "id", json_string(s->id));
    json_object_set_new(v, "owner", json_string(s->owner.name));
    json_object_set_new(v, "rating", json_integer(s->rating));
    json_object_set_new(v, "rated", json_boolean(s->rated));
    json_object_set_new(v, "kind", json_string(s->kind < 3 ? preset_names[s->kind] : "other"));
    return v;
}

static json_t *seeks_json(struct lobby *lb)
{
    json_t *list = json_array();
    for (size_t i = 0; i < lb->seek_count; i++)
        json_array_append_new(list, seek_json(lb->seeks[i]));
    return json_pack("{s:o}", "seeks", list);
}

static void seek_free(struct seek *s)
{
    if (s)
        json_decref(s->game);
    free(s);
}

/* With lb->lock: takes seek i out of the list and tells the lobby why. */
static struct seek *seek_take(struct lobby *lb, size_t i, const char *why)
{
    struct seek *s = lb->seeks[i];
    memmove(&lb->seeks[i], &lb->seeks[i + 1], (lb->seek_count - i - 1) * sizeof *lb->seeks);
    lb->seek_count--;
    lobby_publish(lb, "seek_removed", json_pack("{s:s, s:s}", "id", s->id, "why", why));
    return s;
}

static ssize_t seek_index(struct lobby *lb, const char *id)
{
    for (size_t i = 0; i < lb->seek_count; i++)
        if (strcmp(lb->seeks[i]->id, id) == 0)
            return (ssize_t)i;
    return -1;
}

/* With lb->lock: seeks past their lifetime, or whose owner has watched
 * no account stream for the grace, go. */
void lobby_expire_seeks(struct lobby *lb, long long now)
{
    for (size_t i = 0; i < lb->seek_count;) {
        struct seek *s = lb->seeks[i];
        long long unwatched = lobby_unwatched_since(lb, s->owner.id, s->created, now);
        if (now - s->created >= SEEK_LIFETIME_S || now - unwatched >= lb->cfg.seek_grace_s) {
            s = seek_take(lb, i, "expired");
            lobby_tell(lb, s->owner.id, "seek_expired", json_pack("{s:s}", "seek", s->id));
            seek_free(s);
        } else {
            i++;
        }
    }
}

/* A seek's or a pairing's game fields: a create body without seats, its
 * fields known to POST /api/games (the same checks); 0 or -1 with *err. */
int lobby_game_body(const json_t *body, int max_size, json_t **game, struct reply *err)
{
    if (!json_is_object(body)) {
        *err = error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "the body must be a JSON object");
        return -1;
    }
    for (int s = 0; s < 2; s++)
        if (json_object_get(body, s ? "o" : "x")) {
            *err = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID,
                               "a seek has no seats: they are the owner's and the "
                               "accepting account's");
            json_object_set_new(err->body, "field", json_string(s ? "o" : "x"));
            return -1;
        }
    const json_t *rated = json_object_get(body, "rated");
    if (rated && !json_is_boolean(rated)) {
        *err = error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "rated has the wrong type");
        return -1;
    }
    const json_t *preset = json_object_get(body, "game");
    if (preset && !json_is_null(preset)) {
        int known = 0;
        for (int i = 0; i < 3; i++)
            known |= json_is_string(preset) &&
                     strcmp(json_string_value(preset), preset_names[i]) == 0;
        if (!known) {
            *err = error_reply(422, "TTT_E_SIZE", TTT_E_SIZE,
                               "game is tictactoe, connect4 or gomoku");
            json_object_set_new(err->body, "field", json_string("game"));
            return -1;
        }
    }
    struct time_control control;
    if (check_create_body(body, err) != 0 ||
        clock_from_request((json_t *)(uintptr_t)body, &control, err) != 0)
        return -1;
    /* The shape now too, so that no seek waits to be refused at acceptance. */
    static const char *const sides[] = {"width", "height", "k"};
    for (int i = 0; i < 3; i++) {
        const json_t *v = json_object_get(body, sides[i]);
        json_int_t lo = i == 2 ? 0 : 3;
        if (v && !json_is_null(v) &&
            (!json_is_integer(v) || json_integer_value(v) < lo ||
             json_integer_value(v) > max_size)) {
            *err = ttt_error_reply(422, TTT_E_SIZE, "%s is out of range (%d..%d)", sides[i],
                                   (int)lo, max_size);
            json_object_set_new(err->body, "field", json_string(sides[i]));
            return -1;
        }
    }
    *game = json_deep_copy(body);
    if (!*game) {
        *err = error_reply(503, "out_of_memory", 503, "out of memory");
        return -1;
    }
    json_object_del(*game, "rated");
    return 0;
}

static struct reply seek_create(struct lobby *lb, const struct account *me, const json_t *body)
{
    struct reply err;
    json_t *game;
    if (lobby_game_body(body, lb->srv->mgr->limits.max_size, &game, &err) != 0)
        return err;
    struct seek *s = calloc(1, sizeof *s);
    unsigned char raw[8];
    if (!s || random_bytes(raw, sizeof raw) != 0) {
        free(s);
        json_decref(game);
        return error_reply(503, "out_of_memory", 503, "no memory or random bytes for a seek");
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(s->id + 2 * i, 3, "%02x", raw[i]);
    s->owner = *me;
    s->game = game;
    s->rated = json_is_true(json_object_get(body, "rated"));
    s->kind = body_kind(game);
    struct glicko2 g;
    ratings_lookup(lb->srv->mgr, s->kind, me->name, &g);
    s->rating = (int)(g.rating + 0.5);
    s->created = lobby_now();
    pthread_mutex_lock(&lb->lock);
    size_t mine = 0;
    for (size_t i = 0; i < lb->seek_count; i++)
        mine += lb->seeks[i]->owner.id == me->id;
    if (mine >= SEEKS_PER_ACCOUNT || lb->seek_count >= SEEKS_MAX) {
        pthread_mutex_unlock(&lb->lock);
        seek_free(s);
        return mine >= SEEKS_PER_ACCOUNT
               ? error_reply(429, "too_many_seeks", 429, "an account has %d open seeks at most",
                             SEEKS_PER_ACCOUNT)
               : error_reply(503, "too_many_seeks", 503, "the lobby holds %d seeks at most",
                             SEEKS_MAX);
    }
    lb->seeks[lb->seek_count++] = s;
    json_t *view = seek_json(s);
    lobby_publish(lb, "seek_added", json_incref(view));
    pthread_cond_signal(&lb->wake);
    pthread_mutex_unlock(&lb->lock);
    return (struct reply){201, view, NULL};
}

static struct reply seek_delete(struct lobby *lb, const struct account *me, const char *id)
{
    pthread_mutex_lock(&lb->lock);
    ssize_t i = seek_index(lb, id);
    struct seek *s = NULL;
    int theirs = i >= 0 && lb->seeks[i]->owner.id != me->id;
    if (i >= 0 && !theirs)
        s = seek_take(lb, (size_t)i, "cancelled");
    pthread_mutex_unlock(&lb->lock);
    if (!s)
        return theirs ? error_reply(403, "forbidden", 403, "this seek is another account's")
                      : error_reply(404, "not_found", 404, "no open seek %s", id);
    seek_free(s);
    return (struct reply){200, json_pack("{s:s, s:s}", "id", id, "status", "cancelled"), NULL};
}

/* The seat of a game between two accounts as told to one of them. */
static json_t *started_json(const char *id, const char *seat, const char *opponent, int rated,
                            const char *token)
{
    json_t *v = json_pack("{s:s, s:s, s:s, s:b}", "game", id, "seat", seat, "opponent",
                          opponent, "rated", rated);
    if (token)
        json_object_set_new(v, "token", json_string(token));
    return v;
}

struct reply lobby_start_game(struct lobby *lb, const json_t *game, int rated,
                              const struct account *a, const struct account *b,
                              const char *via, const char *via_id)
{
    unsigned char coin = 0;
    random_bytes(&coin, 1);
    const struct account *seat[2] = {a, b};
    if (coin & 1)
        seat[0] = b, seat[1] = a;
    struct reply r;
    if (rated) {
        r = rated_create_for(lb->srv, (json_t *)(uintptr_t)game, seat[0], seat[1]);
    } else {
        json_t *req = json_deep_copy(game);
        if (!req)
            return error_reply(503, "out_of_memory", 503, "out of memory");
        json_object_set_new(req, "x", json_pack("{s:s, s:s}", "kind", "human", "name",
                                                seat[0]->name));
        json_object_set_new(req, "o", json_pack("{s:s, s:s}", "kind", "human", "name",
                                                seat[1]->name));
        r = game_create(lb->srv->mgr, req);
        json_decref(req);
    }
    if (r.http != 201)
        return r;
    json_t *answer = reply_json(r);
    const char *id = json_string_value(json_object_get(answer, "id"));
    json_t *tokens = json_object_get(answer, "tokens");
    if (!id) {
        json_decref(answer);
        return error_reply(503, "out_of_memory", 503, "out of memory");
    }
    json_t *told[2];
    for (int s = 0; s < 2; s++) {
        const char *mark = s ? "o" : "x";
        told[s] = started_json(id, mark, seat[1 - s]->name, rated,
                               json_string_value(json_object_get(tokens, mark)));
        json_object_set_new(told[s], via, json_string(via_id));
    }
    int b_seat = seat[1] == b;
    pthread_mutex_lock(&lb->lock);
    lobby_tell(lb, seat[0]->id, "game_started", json_incref(told[0]));
    lobby_tell(lb, seat[1]->id, "game_started", json_incref(told[1]));
    pthread_mutex_unlock(&lb->lock);
    json_decref(told[1 - b_seat]);
    json_decref(answer);
    return (struct reply){201, told[b_seat], NULL};
}

static struct reply seek_accept(struct lobby *lb, const struct account *me, const char *id)
{
    pthread_mutex_lock(&lb->lock);
    ssize_t i = seek_index(lb, id);
    int own = i >= 0 && lb->seeks[i]->owner.id == me->id;
    struct seek *s = i >= 0 && !own ? lb->seeks[i] : NULL;
    if (s) { /* out of the list while its game starts: accepted once */
        memmove(&lb->seeks[i], &lb->seeks[i + 1], (lb->seek_count - (size_t)i - 1) * sizeof s);
        lb->seek_count--;
    }
    pthread_mutex_unlock(&lb->lock);
    if (!s)
        return own ? error_reply(409, "own_seek", 409,
                                 "this seek is this account's own: another account accepts it")
                   : error_reply(404, "not_found", 404, "no open seek %s", id);
    struct reply r = lobby_start_game(lb, s->game, s->rated, &s->owner, me, "seek", s->id);
    pthread_mutex_lock(&lb->lock);
    if (r.http == 201 || r.http < 500 || lb->seek_count >= SEEKS_MAX) {
        /* Started, or refused for good by the game's checks. */
        lobby_publish(lb, "seek_removed", json_pack("{s:s, s:s}", "id", s->id, "why",
                                                    r.http == 201 ? "accepted" : "refused"));
        pthread_mutex_unlock(&lb->lock);
        seek_free(s);
        return r;
    }
    lb->seeks[lb->seek_count++] = s; /* the store failed: the seek stays open */
    pthread_mutex_unlock(&lb->lock);
    return r;
}

/* ---- event streams ---- */

struct lobby_stream {
    struct lobby *lb;
    struct addr_key addr;
    struct mailbox *box;  /* an account's stream, or NULL: the lobby's */
    /* An account's stream lasts as long as the session it was opened with:
     * its key and its end (Unix seconds); ended once it logged out. */
    char session[65];
    long long expires;
    int ended;
    struct lobby_stream *next_account_stream;
    long long cursor;     /* the next event's sequence number */
    int snapshot_due;     /* the lobby's: the list of seeks comes next */
    char *pending;
    size_t len, sent;
};

/* With lb->lock: the stream's next event, or NULL for none yet. */
static char *next_event(struct lobby_stream *s)
{
    struct lobby *lb = s->lb;
    if (s->box) {
        struct mailbox *b = s->box;
        if (s->cursor < b->next_seq - MAILBOX_EVENTS)
            s->cursor = b->next_seq - MAILBOX_EVENTS;
        if (s->cursor < 1)
            s->cursor = 1;
        while (s->cursor < b->next_seq) {
            const char *text = b->events[s->cursor++ % MAILBOX_EVENTS];
            if (s->cursor > b->delivered)
                b->delivered = s->cursor;
            if (text)
                return strdup(text);
        }
        return NULL;
    }
    if (s->cursor <= lb->log_seq - LOBBY_LOG)
        s->snapshot_due = 1; /* too far behind: the whole list again */
    if (s->snapshot_due) {
        s->snapshot_due = 0;
        s->cursor = lb->log_seq + 1;
        return event_text(0, "seeks", seeks_json(lb));
    }
    while (s->cursor <= lb->log_seq) {
        const char *text = lb->log[s->cursor++ % LOBBY_LOG];
        if (text)
            return strdup(text);
    }
    return NULL;
}

/* With lb->lock: whether s is an account's stream whose session is over. */
static int session_over(const struct lobby_stream *s)
{
    return s->box && (s->ended || (long long)time(NULL) >= s->expires);
}

static ssize_t lobby_stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct lobby_stream *s = cls;
    struct lobby *lb = s->lb;
    (void)pos;
    if (s->sent == s->len) {
        free(s->pending);
        s->pending = NULL;
        s->len = s->sent = 0;
        pthread_mutex_lock(&lb->lock);
        /* Up to keepalive one-second waits, then a comment line (as the
         * game streams do). */
        for (unsigned i = 0; !lb->stopping && !session_over(s) && !s->pending &&
                             i < lb->srv->keepalive; i++) {
            s->pending = next_event(s);
            if (!s->pending) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_sec += 1;
                pthread_cond_timedwait(&lb->changed, &lb->lock, &until);
                s->pending = next_event(s);
            }
        }
        int stopping = lb->stopping || session_over(s);
        pthread_mutex_unlock(&lb->lock);
        /* A logout through another server on the shared database ends the
         * session there only: it is read again at each keep-alive. */
        if (!stopping && !s->pending && s->box && lb->srv->mgr->limits.shared &&
            accounts_session_lasts(lb->srv->accounts, s->session) == 0)
            stopping = 1;
        if (stopping && !s->pending)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (!s->pending)
            s->pending = strdup(":\n\n");
        if (!s->pending)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        s->len = strlen(s->pending);
    }
    size_t n = s->len - s->sent;
    if (n > max)
        n = max;
    memcpy(buf, s->pending + s->sent, n);
    s->sent += n;
    return (ssize_t)n;
}

static void lobby_stream_free(void *cls)
{
    struct lobby_stream *s = cls;
    if (s->box) {
        pthread_mutex_lock(&s->lb->lock);
        if (--s->box->streams == 0)
            s->box->idle_since = lobby_now();
        struct lobby_stream **at = &s->lb->account_streams;
        while (*at != s)
            at = &(*at)->next_account_stream;
        *at = s->next_account_stream;
        pthread_mutex_unlock(&s->lb->lock);
    }
    stream_close(s->lb->srv, &s->addr);
    free(s->pending);
    free(s);
}

static enum MHD_Result open_stream(struct lobby *lb, struct MHD_Connection *conn,
                                   const struct account *me)
{
    struct reply err;
    struct addr_key addr;
    if (stream_open(lb->srv, conn, &addr, &err) != 0)
        return send_reply(conn, err);
    struct lobby_stream *s = calloc(1, sizeof *s);
    if (!s) {
        stream_close(lb->srv, &addr);
        return MHD_NO;
    }
    s->lb = lb;
    s->addr = addr;
    pthread_mutex_lock(&lb->lock);
    if (me) {
        s->box = lobby_mailbox(lb, me->id, lobby_now());
        if (s->box) {
            s->box->streams++;
            memcpy(s->session, me->session, sizeof s->session);
            s->expires = me->expires;
            s->next_account_stream = lb->account_streams;
            lb->account_streams = s;
            /* Resumed after the last event seen, else from the first one
             * no stream has read. */
            const char *last = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                           "Last-Event-ID");
            char *end;
            long long n = last ? strtoll(last, &end, 10) : 0;
            s->cursor = last && end != last && *end == '\0' && n >= 0 && n < s->box->next_seq
                        ? n + 1 : s->box->delivered;
        }
    } else {
        s->snapshot_due = 1;
    }
    pthread_mutex_unlock(&lb->lock);
    if (me && !s->box) {
        stream_close(lb->srv, &addr);
        free(s);
        return send_reply(conn, error_reply(503, "too_many_streams", 503,
                                            "every account mailbox is in use"));
    }
    return queue_event_stream(conn, lobby_stream_read, s, lobby_stream_free);
}

/* ---- the timer ---- */

static void *timer_main(void *arg)
{
    struct lobby *lb = arg;
    pthread_mutex_lock(&lb->lock);
    while (!lb->stopping) {
        if (lb->seek_count == 0 && lb->pool_count == 0) {
            pthread_cond_wait(&lb->wake, &lb->lock); /* idle: nothing to time */
        } else {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 1;
            pthread_cond_timedwait(&lb->wake, &lb->lock, &until);
        }
        if (lb->stopping)
            break;
        long long now = lobby_now();
        lobby_expire_seeks(lb, now);
        lobby_pair(lb, now); /* unlocks while it starts games */
    }
    pthread_mutex_unlock(&lb->lock);
    return NULL;
}

struct lobby *lobby_new(struct server *srv, const struct lobby_config *cfg)
{
    struct lobby *lb = calloc(1, sizeof *lb);
    if (!lb)
        return NULL;
    lb->boxes = calloc(MAILBOXES_MAX, sizeof *lb->boxes);
    if (!lb->boxes) {
        free(lb);
        return NULL;
    }
    lb->srv = srv;
    lb->cfg = *cfg;
    pthread_mutex_init(&lb->lock, NULL);
    pthread_cond_init(&lb->changed, NULL);
    pthread_cond_init(&lb->wake, NULL);
    if (pthread_create(&lb->thread, NULL, timer_main, lb) != 0) {
        free(lb->boxes);
        free(lb);
        return NULL;
    }
    return lb;
}

void lobby_stop_streams(struct lobby *lb)
{
    if (!lb)
        return;
    pthread_mutex_lock(&lb->lock);
    lb->stopping = 1;
    pthread_cond_broadcast(&lb->changed);
    pthread_cond_broadcast(&lb->wake);
    pthread_mutex_unlock(&lb->lock);
}

void lobby_free(struct lobby *lb)
{
    if (!lb)
        return;
    lobby_stop_streams(lb);
    pthread_join(lb->thread, NULL);
    for (size_t i = 0; i < lb->seek_count; i++)
        seek_free(lb->seeks[i]);
    for (int i = 0; i < LOBBY_LOG; i++)
        free(lb->log[i]);
    for (size_t i = 0; i < lb->box_count; i++) {
        for (int e = 0; e < MAILBOX_EVENTS; e++)
            free(lb->boxes[i]->events[e]);
        free(lb->boxes[i]);
    }
    lobby_pool_free(lb);
    free(lb->boxes);
    pthread_cond_destroy(&lb->changed);
    pthread_cond_destroy(&lb->wake);
    pthread_mutex_destroy(&lb->lock);
    free(lb);
}

/* ---- routes ---- */

int lobby_path(const char *path)
{
    return strcmp(path, "seeks") == 0 || strncmp(path, "seeks/", 6) == 0 ||
           strcmp(path, "lobby/events") == 0 || strcmp(path, "account/events") == 0 ||
           strcmp(path, "pairing") == 0;
}

void lobby_logout(struct server *srv, struct MHD_Connection *conn)
{
    struct account me;
    size_t len;
    const char *token = accounts_request_token(conn, &len);
    if (!srv->lobby || !srv->accounts || accounts_session(srv->accounts, token, len, &me) != 1)
        return;
    struct lobby *lb = srv->lobby;
    pthread_mutex_lock(&lb->lock);
    for (size_t i = 0; i < lb->seek_count;)
        if (lb->seeks[i]->owner.id == me.id)
            seek_free(seek_take(lb, i, "cancelled"));
        else
            i++;
    lobby_pool_leave(lb, me.id);
    /* The streams opened with this session end (within a wait). */
    for (struct lobby_stream *s = lb->account_streams; s; s = s->next_account_stream)
        if (strcmp(s->session, me.session) == 0)
            s->ended = 1;
    pthread_cond_broadcast(&lb->changed);
    pthread_mutex_unlock(&lb->lock);
}

static int valid_seek_id(const char *id, size_t len)
{
    if (len != 16)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
            return 0;
    return 1;
}

static struct reply method_refused(void)
{
    return error_reply(405, "method_not_allowed", 405, "this route takes another method");
}

/* Answers a POST with a JSON body (415 or 400 without one) by handle. */
static enum MHD_Result post_json(struct lobby *lb, struct MHD_Connection *conn,
                                 const struct account *me, const char *body, size_t len,
                                 struct reply (*handle)(struct lobby *, const struct account *,
                                                        const json_t *))
{
    struct reply err;
    if (!json_content(conn, &err))
        return send_reply(conn, err);
    json_error_t jerr;
    json_t *req = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req)
        return send_reply(conn, error_reply(400, "TTT_E_PARSE", TTT_E_PARSE,
                                            "malformed JSON at byte %d: %s", jerr.position,
                                            jerr.text));
    struct reply r = handle(lb, me, req);
    json_decref(req);
    return send_reply(conn, r);
}

enum MHD_Result lobby_route(struct server *srv, struct MHD_Connection *conn, const char *path,
                            const char *method, const char *body, size_t len)
{
    struct lobby *lb = srv->lobby;
    int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    int post = strcmp(method, "POST") == 0, del = strcmp(method, "DELETE") == 0;
    struct reply err;
    struct account me;
    if (strcmp(path, "lobby/events") == 0)
        return strcmp(method, "GET") == 0 ? open_stream(lb, conn, NULL)
                                          : send_reply(conn, method_refused());
    if (strcmp(path, "seeks") == 0 && get) {
        pthread_mutex_lock(&lb->lock);
        json_t *list = seeks_json(lb);
        pthread_mutex_unlock(&lb->lock);
        return send_reply(conn, (struct reply){200, list, NULL});
    }
    if (!account_of_request(srv, conn, &me, &err,
                            "seeks, pairing and account events are for accounts"))
        return send_reply(conn, err);
    if (strcmp(path, "account/events") == 0)
        return strcmp(method, "GET") == 0 ? open_stream(lb, conn, &me)
                                          : send_reply(conn, method_refused());
    if (strcmp(path, "pairing") == 0) {
        if (!post)
            return send_reply(conn, get || del ? lobby_pairing_view(lb, &me, del)
                                               : method_refused());
        return post_json(lb, conn, &me, body, len, lobby_pairing_join);
    }
    if (strcmp(path, "seeks") == 0)
        return post ? post_json(lb, conn, &me, body, len, seek_create)
                    : send_reply(conn, method_refused());
    const char *id = path + 6, *slash = strchr(id, '/');
    size_t id_len = slash ? (size_t)(slash - id) : strlen(id);
    if (!valid_seek_id(id, id_len) || (slash && strcmp(slash, "/accept") != 0))
        return send_reply(conn, error_reply(404, "not_found", 404, "no such route"));
    char key[17];
    memcpy(key, id, 16);
    key[16] = '\0';
    if (slash)
        return send_reply(conn, post ? seek_accept(lb, &me, key) : method_refused());
    return send_reply(conn, del ? seek_delete(lb, &me, key) : method_refused());
}
