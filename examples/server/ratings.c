/* ratings.c - Glicko-2 ratings per board kind, kept as rated games end, their history, and the /api/players views. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manager.h"

/* A player's recent games shown by GET /api/players/NAME. */
#define RECENT_GAMES 20

static const char *const kind_names[BOARD_KINDS] = {"tictactoe", "connect4", "gomoku", "other"};

/* A game is rated with the preset it plays: 3x3 k=3 (tictactoe), 7x6 k=4
 * with gravity (connect4), 15x15 k=5 (gomoku), with the standard rules
 * (no misère, no ply limit; early_draw only calls a dead game drawn, so it
 * keeps the kind). Every other board or rule is "other". */
int board_kind(int width, int height, int k, int gravity, int misere, int ply_limit)
{
    /* k 0 plays the shorter side (libttt's win_length 0): earlier servers
     * stored a game created without k so. */
    if (k == 0)
        k = width < height ? width : height;
    if (misere || ply_limit)
        return KIND_OTHER;
    if (width == 3 && height == 3 && k == 3 && !gravity)
        return KIND_TICTACTOE;
    if (width == 7 && height == 6 && k == 4 && gravity)
        return KIND_CONNECT4;
    if (width == 15 && height == 15 && k == 5 && !gravity)
        return KIND_GOMOKU;
    return KIND_OTHER;
}

static size_t hash_name(const char *name)
{
    uint64_t h = 1469598103934665603u;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211u;
    return (size_t)h;
}

int ratings_init(struct manager *mgr)
{
    for (int i = 0; i < BOARD_KINDS; i++) {
        mgr->ranks[i].names = calloc(64, sizeof *mgr->ranks[i].names);
        if (!mgr->ranks[i].names)
            return -1;
        mgr->ranks[i].names_mask = 63;
    }
    return 0;
}

void ratings_free(struct manager *mgr)
{
    for (int i = 0; i < BOARD_KINDS; i++) {
        for (struct rating *r = mgr->ranks[i].top[0], *next; r; r = next) {
            next = r->next[0];
            free(r->history);
            free(r);
        }
        free(mgr->ranks[i].names);
    }
    free(mgr->waiting);
}

/* Whether a ranks above b: higher rating, then the name (names differ, so
 * the order is total). */
static int ranks_above(const struct rating *a, const struct rating *b)
{
    return a->g.rating > b->g.rating ||
           (a->g.rating == b->g.rating && strcmp(a->name, b->name) < 0);
}

/* The link that points (or would point) to r at level lv: the walk from
 * the top passes every player ranked above r. */
static void rank_walk(struct ranking *rk, const struct rating *r,
                      struct rating ***link /* RANK_LEVELS */)
{
    struct rating **at = rk->top;
    for (int lv = RANK_LEVELS - 1; lv >= 0; lv--) {
        while (at[lv] && at[lv] != r && ranks_above(at[lv], r))
            at = at[lv]->next;
        link[lv] = &at[lv];
    }
}

static void rank_insert(struct ranking *rk, struct rating *r)
{
    struct rating **link[RANK_LEVELS];
    rank_walk(rk, r, link);
    for (int lv = 0; lv < r->levels; lv++) {
        r->next[lv] = *link[lv];
        *link[lv] = r;
    }
}

static void rank_remove(struct ranking *rk, struct rating *r)
{
    struct rating **link[RANK_LEVELS];
    rank_walk(rk, r, link);
    for (int lv = 0; lv < r->levels; lv++)
        if (*link[lv] == r)
            *link[lv] = r->next[lv];
}

static struct rating *rating_find(const struct ranking *rk, const char *name)
{
    struct rating *r = rk->names[hash_name(name) & rk->names_mask];
    while (r && strcmp(r->name, name) != 0)
        r = r->next_name;
    return r;
}

/* The player's row in rk, made at the initial rating if new; NULL out of
 * memory. With ratings_lock held. */
static struct rating *rating_for(struct manager *mgr, struct ranking *rk, const char *name)
{
    struct rating *r = rating_find(rk, name);
    if (r)
        return r;
    if (rk->players + 1 > 2 * (rk->names_mask + 1)) {
        size_t cap = 4 * (rk->names_mask + 1);
        struct rating **chains = calloc(cap, sizeof *chains);
        if (!chains)
            return NULL;
        for (struct rating *p = rk->top[0]; p; p = p->next[0]) {
            size_t h = hash_name(p->name) & (cap - 1);
            p->next_name = chains[h];
            chains[h] = p;
        }
        free(rk->names);
        rk->names = chains;
        rk->names_mask = cap - 1;
    }
    /* A level with odds 1/4 each (xorshift: the list's shape, not a secret). */
    int levels = 1;
    uint64_t x = mgr->level_seed ? mgr->level_seed : 0x9e3779b97f4a7c15u;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    mgr->level_seed = x;
    while (levels < RANK_LEVELS && (x & 3) == 0)
        levels++, x >>= 2;
    r = calloc(1, sizeof *r + (size_t)levels * sizeof r->next[0]);
    if (!r)
        return NULL;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->g = (struct glicko2){GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_DEVIATION,
                            GLICKO2_INITIAL_VOLATILITY};
    r->levels = levels;
    size_t h = hash_name(name) & rk->names_mask;
    r->next_name = rk->names[h];
    rk->names[h] = r;
    rk->players++;
    rank_insert(rk, r);
    return r;
}

void ratings_lookup(struct manager *mgr, int kind, const char *name, struct glicko2 *out)
{
    *out = (struct glicko2){GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_DEVIATION,
                            GLICKO2_INITIAL_VOLATILITY};
    pthread_mutex_lock(&mgr->ratings_lock);
    const struct rating *r = rating_find(&mgr->ranks[kind], name);
    if (r)
        *out = r->g;
    pthread_mutex_unlock(&mgr->ratings_lock);
}

/* One game, rated as lichess rates it: each game is a rating period of its
 * own, both players updated from the ratings they held before it, the
 * deviation kept within [45, 500]. */
static struct glicko2 rated_after(struct glicko2 self, struct glicko2 opponent, double score)
{
    struct glicko2_game game = {opponent, score};
    struct glicko2 after = glicko2_update(self, &game, 1, GLICKO2_TAU);
    after.deviation = fmin(fmax(after.deviation, GLICKO2_MIN_DEVIATION), GLICKO2_MAX_DEVIATION);
    return after;
}

static void history_add(struct rating *r, const char *game, long long order,
                        const struct rating *opponent, int mark, int score2,
                        struct glicko2 before)
{
    if (r->history_count == r->history_cap) {
        size_t cap = r->history_cap ? 2 * r->history_cap : 4;
        struct rating_event *grown = realloc(r->history, cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "ttt-server: out of memory: game %s is left out of %s's rating"
                    " history\n", game, r->name);
            return;
        }
        r->history = grown;
        r->history_cap = cap;
    }
    struct rating_event *e = &r->history[r->history_count++];
    e->order = order;
    snprintf(e->game, sizeof e->game, "%s", game);
    e->opponent = opponent;
    e->before = before;
    e->after = r->g;
    e->mark = (unsigned char)mark;
    e->score2 = (unsigned char)score2;
}

/* A rated game moves its players' ratings in its kind. With ratings_lock
 * held (or before the server serves). */
static void ratings_apply(struct manager *mgr, int kind, const char *id, long long order,
                          const char *xname, const char *oname, int state)
{
    struct ranking *rk = &mgr->ranks[kind];
    struct rating *x = rating_for(mgr, rk, xname);
    struct rating *o = x ? rating_for(mgr, rk, oname) : NULL;
    if (!o) {
        fprintf(stderr, "ttt-server: out of memory: a rated game is left out of the ratings\n");
        return;
    }
    int score2 = state == TTT_X_WON ? 2 : state == TTT_O_WON ? 0 : 1; /* x's, in halves */
    x->games++, o->games++;
    if (score2 == 2)
        x->wins++, o->losses++;
    else if (score2 == 0)
        x->losses++, o->wins++;
    else
        x->draws++, o->draws++;
    if (x == o)
        return; /* one name on both seats: counted, not rated */
    struct glicko2 xb = x->g, ob = o->g;
    /* Out of the ranking at the old ratings, back in at the new. */
    rank_remove(rk, x);
    rank_remove(rk, o);
    x->g = rated_after(xb, ob, score2 / 2.0);
    o->g = rated_after(ob, xb, (2 - score2) / 2.0);
    rank_insert(rk, x);
    rank_insert(rk, o);
    history_add(x, id, order, o, TTT_X, score2, xb);
    history_add(o, id, order, x, TTT_O, 2 - score2, ob);
}

static int result_kind(const struct store_result *r)
{
    return board_kind(r->width, r->height, r->k, r->gravity, r->misere, r->ply_limit);
}

void ratings_replay(struct manager *mgr, const struct store_result *r)
{
    if (r->rated)
        ratings_apply(mgr, result_kind(r), r->id, r->finish_order, r->name[0], r->name[1],
                      r->state);
}

static int is_waiting(const struct manager *mgr, long long order)
{
    for (size_t i = 0; i < mgr->waiting_count; i++)
        if (mgr->waiting[i].order == order)
            return 1;
    return 0;
}

int ratings_finish(struct manager *mgr, const struct store_result *r)
{
    int kind = result_kind(r);
    pthread_mutex_lock(&mgr->ratings_lock);
    int held = r->finish_order > mgr->next_order;
    if (r->finish_order < mgr->next_order || (held && is_waiting(mgr, r->finish_order))) {
        pthread_mutex_unlock(&mgr->ratings_lock);
        return held; /* applied already, or waiting already */
    }
    if (held) {
        if (mgr->waiting_count == mgr->waiting_cap) {
            size_t cap = mgr->waiting_cap ? 2 * mgr->waiting_cap : 16;
            struct result_wait *grown = realloc(mgr->waiting, cap * sizeof *grown);
            if (!grown) {
                /* Left to a read of the store, which delivers it again. */
                atomic_store(&mgr->ratings_behind, 1);
                pthread_mutex_unlock(&mgr->ratings_lock);
                fprintf(stderr, "ttt-server: out of memory: game %s's result is read again"
                        " from the store\n", r->id);
                return 1;
            }
            mgr->waiting = grown;
            mgr->waiting_cap = cap;
        }
        struct result_wait *w = &mgr->waiting[mgr->waiting_count++];
        w->order = r->finish_order;
        w->rated = r->rated;
        w->state = r->state;
        w->kind = kind;
        snprintf(w->id, sizeof w->id, "%s", r->id);
        snprintf(w->name[0], sizeof w->name[0], "%.64s", r->name[0]);
        snprintf(w->name[1], sizeof w->name[1], "%.64s", r->name[1]);
        pthread_mutex_unlock(&mgr->ratings_lock);
        return 1;
    }
    if (r->rated)
        ratings_apply(mgr, kind, r->id, r->finish_order, r->name[0], r->name[1], r->state);
    mgr->next_order++;
    /* The results that were waiting for this one. */
    for (size_t i = 0; i < mgr->waiting_count;) {
        struct result_wait *w = &mgr->waiting[i];
        if (w->order > mgr->next_order) {
            i++;
            continue;
        }
        if (w->order == mgr->next_order) {
            if (w->rated)
                ratings_apply(mgr, w->kind, w->id, w->order, w->name[0], w->name[1], w->state);
            mgr->next_order++;
        }
        *w = mgr->waiting[--mgr->waiting_count];
        i = 0;
    }
    pthread_mutex_unlock(&mgr->ratings_lock);
    return 0;
}

static int caught_up_result(void *user, const struct store_result *result)
{
    ratings_finish(user, result);
    return 0;
}

void ratings_catch_up(struct manager *mgr)
{
    char err[512];
    pthread_mutex_lock(&mgr->ratings_lock);
    long long from = mgr->next_order;
    pthread_mutex_unlock(&mgr->ratings_lock);
    /* Cleared first: a failure after this sets it again. It is told once
     * until a read succeeds: on a shared store every ratings request reads. */
    int was_behind = atomic_exchange(&mgr->ratings_behind, 0);
    if (store_load_results(mgr->store, from, caught_up_result, mgr, err, sizeof err) != 0) {
        atomic_store(&mgr->ratings_behind, 1);
        if (!was_behind)
            fprintf(stderr, "ttt-server: reading the results from finish order %lld on: %s;"
                    " tried again at the next result or ratings request\n", from,
                    err[0] ? err : "failed");
    }
}

/* Before a ratings answer: with a shared store, the results other servers
 * committed whose notices have not come yet (one indexed read), so a game
 * ended through one server counts on the next server asked, as a move does;
 * alone, only what a failed read left behind. */
static void ratings_read_new(struct manager *mgr)
{
    if (mgr->limits.shared || atomic_load(&mgr->ratings_behind))
        ratings_catch_up(mgr);
}

/* A name from the URL as an error message may quote it: whole and valid
 * UTF-8 (a JSON string), else not at all (cut at a byte count, or with
 * bytes that are not UTF-8, it would make the answer's JSON invalid). */
static const char *quotable(const char *name)
{
    json_t *probe = strlen(name) <= 80 ? json_string(name) : NULL;
    json_decref(probe);
    return probe ? name : "(a name not shown)";
}

static int provisional(const struct glicko2 *g)
{
    return g->deviation > GLICKO2_PROVISIONAL_DEVIATION;
}

/* A rating as the API shows it: rating and deviation rounded to whole
 * points, as lichess shows them, the volatility to 6 places. */
static json_t *glicko_json(const struct glicko2 *g)
{
    return json_pack("{s:i, s:i, s:f}", "rating", (int)lround(g->rating), "deviation",
                     (int)lround(g->deviation), "volatility",
                     round(g->volatility * 1e6) / 1e6);
}

static json_t *row_json(const struct rating *r)
{
    json_t *row = glicko_json(&r->g);
    json_t *rest = json_pack("{s:s, s:b, s:i, s:i, s:i, s:i}", "name", r->name, "provisional",
                             provisional(&r->g), "games", r->games, "wins", r->wins, "losses",
                             r->losses, "draws", r->draws);
    json_object_update(row, rest);
    json_decref(rest);
    return row;
}

/* GET /api/players: a page of one kind's ratings, best first; its cost is
 * the rows it returns (one hash lookup finds the page's start, the skip
 * list's bottom level walks it). */
struct reply players_view(struct manager *mgr, const char *game, const char *limit_text,
                          const char *after)
{
    int kind = KIND_TICTACTOE;
    if (game) {
        for (kind = 0; kind < BOARD_KINDS && strcmp(game, kind_names[kind]) != 0; kind++)
            ;
        if (kind == BOARD_KINDS)
            return error_reply(422, "TTT_E_INVALID", TTT_E_INVALID,
                               "game is one of tictactoe, connect4, gomoku, other");
    }
    long limit = 100;
    if (limit_text) {
        char *end;
        limit = strtol(limit_text, &end, 10);
        if (end == limit_text || *end != '\0' || limit < 1 || limit > 1000)
            return ttt_error_reply(422, TTT_E_RANGE, "limit is a number from 1 to 1000");
    }
    ratings_read_new(mgr);
    struct ranking *rk = &mgr->ranks[kind];
    json_t *list = json_array();
    pthread_mutex_lock(&mgr->ratings_lock);
    const struct rating *r = rk->top[0], *last = NULL;
    if (after) {
        const struct rating *from = rating_find(rk, after);
        if (!from) {
            pthread_mutex_unlock(&mgr->ratings_lock);
            json_decref(list);
            return error_reply(404, "not_found", 404, "no player named %s is rated in %s",
                               quotable(after), kind_names[kind]);
        }
        r = from->next[0];
    }
    for (long n = 0; r && n < limit; n++, last = r, r = r->next[0])
        json_array_append_new(list, row_json(r));
    json_t *next = r && last ? json_string(last->name) : json_null();
    long long players = (long long)rk->players;
    pthread_mutex_unlock(&mgr->ratings_lock);
    return (struct reply){200, json_pack("{s:s, s:o, s:o, s:I, s:{s:i, s:i, s:f, s:f, s:i}}",
        "game", kind_names[kind], "players", list, "next", next, "total", (json_int_t)players,
        "system", "initial_rating", (int)GLICKO2_INITIAL_RATING, "initial_deviation",
        (int)GLICKO2_INITIAL_DEVIATION, "initial_volatility", GLICKO2_INITIAL_VOLATILITY, "tau",
        GLICKO2_TAU, "provisional_deviation", (int)GLICKO2_PROVISIONAL_DEVIATION), NULL};
}

static const char *const score_names[3] = {"loss", "draw", "win"};

/* GET /api/players/NAME: the player's rating in each kind it has played,
 * with its whole history, and its last RECENT_GAMES rated games over all
 * kinds, the latest first. */
struct reply player_view(struct manager *mgr, const char *name)
{
    json_t *ratings = json_object(), *recent = json_array();
    const struct rating *found[BOARD_KINDS];
    size_t at[BOARD_KINDS];
    int any = 0;
    ratings_read_new(mgr);
    pthread_mutex_lock(&mgr->ratings_lock);
    for (int k = 0; k < BOARD_KINDS; k++) {
        const struct rating *r = found[k] = rating_find(&mgr->ranks[k], name);
        if (!r)
            continue;
        any = 1;
        at[k] = r->history_count;
        json_t *row = row_json(r), *history = json_array();
        json_object_del(row, "name");
        for (size_t i = 0; i < r->history_count; i++) {
            const struct rating_event *e = &r->history[i];
            json_array_append_new(history, json_pack("{s:s, s:o, s:o}", "game", e->game,
                                  "before", glicko_json(&e->before), "after",
                                  glicko_json(&e->after)));
        }
        json_object_set_new(row, "history", history);
        json_object_set_new(ratings, kind_names[k], row);
    }
    /* Merge the kinds' histories from their ends, by finish order. */
    for (int n = 0; n < RECENT_GAMES; n++) {
        int best = -1;
        for (int k = 0; k < BOARD_KINDS; k++)
            if (found[k] && at[k] > 0 &&
                (best < 0 || found[k]->history[at[k] - 1].order >
                             found[best]->history[at[best] - 1].order))
                best = k;
        if (best < 0)
            break;
        const struct rating_event *e = &found[best]->history[--at[best]];
        json_array_append_new(recent, json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i}",
            "game", e->game, "kind", kind_names[best], "as", e->mark == TTT_X ? "x" : "o",
            "opponent", e->opponent->name, "result", score_names[e->score2],
            "rating_before", (int)lround(e->before.rating), "rating_after",
            (int)lround(e->after.rating)));
    }
    pthread_mutex_unlock(&mgr->ratings_lock);
    if (!any) {
        json_decref(ratings);
        json_decref(recent);
        return error_reply(404, "not_found", 404, "no rated player is named %s", quotable(name));
    }
    const char *shown = NULL;
    for (int k = 0; k < BOARD_KINDS && !shown; k++)
        shown = found[k] ? found[k]->name : NULL;
    return (struct reply){200, json_pack("{s:s, s:o, s:o}", "name", shown, "ratings", ratings,
                                         "recent_games", recent), NULL};
}
