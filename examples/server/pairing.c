/* pairing.c - quick pairing: a pool of accounts paired by Glicko-2 rating in a window that widens as they wait, or with a bot at their level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "lobby_impl.h"
#include "manager.h"

/* The rating difference a waiter accepts after waited seconds. */
static double window_of(const struct lobby *lb, long long waited)
{
    return (double)lb->cfg.pairing_window + (double)lb->cfg.pairing_widen * (double)(waited / 10);
}

static void waiter_free(struct waiter *w)
{
    json_decref(w->game);
    free(w->key);
    w->game = NULL;
    w->key = NULL;
}

/* With lock: pool entry i leaves (the pool keeps its order). */
static void pool_remove(struct lobby *lb, size_t i)
{
    waiter_free(&lb->pool[i]);
    memmove(&lb->pool[i], &lb->pool[i + 1], (lb->pool_count - i - 1) * sizeof lb->pool[0]);
    lb->pool_count--;
}

static ssize_t pool_index(const struct lobby *lb, long long account)
{
    for (size_t i = 0; i < lb->pool_count; i++)
        if (lb->pool[i].who.id == account)
            return (ssize_t)i;
    return -1;
}

void lobby_pool_leave(struct lobby *lb, long long account)
{
    ssize_t i = pool_index(lb, account);
    if (i >= 0)
        pool_remove(lb, (size_t)i);
}

void lobby_pool_free(struct lobby *lb)
{
    for (size_t i = 0; i < lb->pool_count; i++)
        waiter_free(&lb->pool[i]);
    lb->pool_count = 0;
}

struct reply lobby_pairing_join(struct lobby *lb, const struct account *me, const json_t *body)
{
    struct reply err;
    json_t *game;
    if (!json_is_string(json_object_get(body, "game")))
        return error_reply(422, "TTT_E_INVALID", TTT_E_INVALID,
                           "pairing takes a preset: \"game\": tictactoe, connect4 or gomoku");
    if (lobby_game_body(body, lb->srv->mgr->limits.max_size, &game, &err) != 0)
        return err;
    const json_t *rated = json_object_get(body, "rated");
    struct waiter w = {.who = *me, .game = game, .rated = !rated || json_is_true(rated)};
    char *canonical = json_dumps(game, JSON_COMPACT | JSON_SORT_KEYS);
    w.key = canonical ? malloc(strlen(canonical) + 3) : NULL;
    if (w.key)
        sprintf(w.key, "%c:%s", w.rated ? 'r' : 'u', canonical);
    free(canonical);
    if (!w.key) {
        waiter_free(&w);
        return error_reply(503, "out_of_memory", 503, "out of memory");
    }
    const char *preset = json_string_value(json_object_get(game, "game"));
    w.kind = strcmp(preset, "connect4") == 0 ? KIND_CONNECT4
             : strcmp(preset, "gomoku") == 0 ? KIND_GOMOKU : KIND_TICTACTOE;
    struct glicko2 g;
    ratings_lookup(lb->srv->mgr, w.kind, me->name, &g);
    w.rating = g.rating;
    w.joined = lobby_now();
    pthread_mutex_lock(&lb->lock);
    lobby_pool_leave(lb, me->id); /* joining again replaces the last wish */
    if (lb->pool_count >= POOL_MAX) {
        pthread_mutex_unlock(&lb->lock);
        waiter_free(&w);
        return error_reply(503, "pool_full", 503, "%d accounts wait already", POOL_MAX);
    }
    lb->pool[lb->pool_count++] = w;
    pthread_cond_signal(&lb->wake);
    pthread_mutex_unlock(&lb->lock);
    return (struct reply){201, json_pack("{s:s, s:s, s:i, s:b, s:i}", "status", "waiting",
                                         "game", preset, "rating", (int)(g.rating + 0.5),
                                         "rated", w.rated,
                                         "window", (int)window_of(lb, 0)), NULL};
}

struct reply lobby_pairing_view(struct lobby *lb, const struct account *me, int leave)
{
    pthread_mutex_lock(&lb->lock);
    ssize_t i = pool_index(lb, me->id);
    json_t *v = NULL;
    if (i >= 0) {
        long long waited = lobby_now() - lb->pool[i].joined;
        v = json_pack("{s:s, s:O, s:I, s:i}", "status", leave ? "left" : "waiting", "game",
                      json_object_get(lb->pool[i].game, "game"), "waited_s",
                      (json_int_t)waited, "window",
                      (int)window_of(lb, waited));
        if (leave)
            pool_remove(lb, (size_t)i);
    }
    pthread_mutex_unlock(&lb->lock);
    if (!v)
        return error_reply(404, "not_waiting", 404, "this account is not in the pairing pool");
    return (struct reply){200, v, NULL};
}

/* The bot a player of this rating meets: a random bot below 1300, then
 * the strong bot with a node budget growing with the rating. */
static json_t *bot_for(const struct lobby *lb, double rating)
{
    long budget = rating < 1600 ? 1000 : rating < 1900 ? 20000 : 500000;
    if (budget > lb->srv->mgr->limits.max_budget)
        budget = lb->srv->mgr->limits.max_budget;
    if (rating < 1300)
        return json_pack("{s:s, s:s}", "kind", "random", "name", "random bot");
    char name[40];
    snprintf(name, sizeof name, "strong bot %ld", budget);
    return json_pack("{s:s, s:s, s:I}", "kind", "strong", "name", name, "budget",
                     (json_int_t)budget);
}

/* Without lock: w's game against a bot of its level, told on its stream. */
static void start_bot_game(struct lobby *lb, const struct waiter *w)
{
    unsigned char coin = 0;
    random_bytes(&coin, 1);
    const char *mine = coin & 1 ? "o" : "x", *bots = coin & 1 ? "x" : "o";
    json_t *req = json_deep_copy(w->game), *bot = bot_for(lb, w->rating);
    json_t *told = NULL;
    if (req && bot) {
        const char *bot_name = json_string_value(json_object_get(bot, "name"));
        json_object_set_new(req, mine, json_pack("{s:s, s:s}", "kind", "human", "name",
                                                 w->who.name));
        json_object_set(req, bots, bot);
        struct reply r = game_create(lb->srv->mgr, req);
        json_t *answer = reply_json(r);
        if (r.http == 201 && answer)
            told = json_pack("{s:O, s:s, s:s, s:b, s:O, s:s}", "game",
                             json_object_get(answer, "id"), "seat", mine, "opponent", bot_name,
                             "rated", 0, "token",
                             json_object_get(json_object_get(answer, "tokens"), mine),
                             "pairing", "bot");
        else
            told = json_pack("{s:s, s:O}", "pairing", "failed", "error",
                             answer ? answer : json_null());
        json_decref(answer);
    }
    json_decref(req);
    json_decref(bot);
    pthread_mutex_lock(&lb->lock);
    lobby_tell(lb, w->who.id, told && json_object_get(told, "seat") ? "game_started"
                                                                    : "pairing_failed", told);
    pthread_mutex_unlock(&lb->lock);
}

void lobby_pair(struct lobby *lb, long long now)
{
    if (lb->pool_count == 0)
        return;
    /* Decided under the lock, started without it: pairs[2n], [2n+1]; the
     * bot games after them. */
    struct waiter *decided = malloc(lb->pool_count * sizeof *decided);
    if (!decided)
        return;
    size_t capacity = lb->pool_count, pairs = 0, bots = capacity;
    for (size_t i = 0; i < lb->pool_count;) {
        struct waiter *a = &lb->pool[i];
        long long unwatched = lobby_unwatched_since(lb, a->who.id, a->joined, now);
        if (now - unwatched >= lb->cfg.seek_grace_s) {
            lobby_tell(lb, a->who.id, "pairing_expired", json_pack("{s:s}", "pairing", "expired"));
            pool_remove(lb, i);
            continue;
        }
        double win_a = window_of(lb, now - a->joined), best_gap = 0;
        size_t best = 0;
        for (size_t j = i + 1; j < lb->pool_count; j++) {
            const struct waiter *b = &lb->pool[j];
            double win_b = window_of(lb, now - b->joined);
            double gap = a->rating > b->rating ? a->rating - b->rating : b->rating - a->rating;
            if (strcmp(a->key, b->key) == 0 && gap <= win_a && gap <= win_b &&
                (!best || gap < best_gap))
                best = j, best_gap = gap;
        }
        if (best) {
            decided[2 * pairs] = *a;
            decided[2 * pairs + 1] = lb->pool[best];
            pairs++;
            /* Moved out, not freed: best first, as it lies after i. */
            memmove(&lb->pool[best], &lb->pool[best + 1],
                    (lb->pool_count - best - 1) * sizeof lb->pool[0]);
            lb->pool_count--;
        } else if (lb->cfg.pairing_bot_wait > 0 && now - a->joined >= lb->cfg.pairing_bot_wait) {
            decided[--bots] = *a;
        } else {
            i++;
            continue;
        }
        memmove(&lb->pool[i], &lb->pool[i + 1], (lb->pool_count - i - 1) * sizeof lb->pool[0]);
        lb->pool_count--;
    }
    pthread_mutex_unlock(&lb->lock);
    for (size_t p = 0; p < pairs; p++) {
        struct waiter *a = &decided[2 * p], *b = &decided[2 * p + 1];
        struct reply r = lobby_start_game(lb, a->game, a->rated, &a->who, &b->who, "pairing",
                                          "player");
        if (r.http != 201) {
            json_t *why = reply_json(r);
            pthread_mutex_lock(&lb->lock);
            for (int s = 0; s < 2; s++)
                lobby_tell(lb, (s ? b : a)->who.id, "pairing_failed",
                           json_pack("{s:s, s:O}", "pairing", "failed", "error",
                                     why ? why : json_null()));
            pthread_mutex_unlock(&lb->lock);
            json_decref(why);
        } else {
            json_decref(reply_json(r));
        }
        waiter_free(a);
        waiter_free(b);
    }
    for (size_t k = bots; k < capacity; k++) {
        start_bot_game(lb, &decided[k]);
        waiter_free(&decided[k]);
    }
    free(decided);
    pthread_mutex_lock(&lb->lock);
}
