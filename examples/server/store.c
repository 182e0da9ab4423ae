/* store.c - picks the store from --db (a postgresql:// URL or an SQLite path) and dispatches to it. */
#include "store.h"
#include "store_impl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store_is_url(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

/* Copies where into out with the password of a URL (user:PASSWORD@ and any
 * password=VALUE parameter) replaced by "***". A path is copied as it is. */
void store_redact(const char *where, char *out, size_t cap)
{
    if (cap == 0)
        return;
    size_t n = 0;
    const char *p = where;
    int url = store_is_url(where);
    const char *auth_end = NULL, *colon = NULL;
    if (url) {
        const char *start = strstr(where, "://") + 3;
        const char *end = start + strcspn(start, "/?#");
        for (const char *q = start; q < end; q++)
            if (*q == '@')
                auth_end = q; /* the last '@' before the host ends the userinfo */
        if (auth_end) {
            colon = memchr(start, ':', (size_t)(auth_end - start));
        }
    }
#define PUT(c) do { if (n + 1 < cap) out[n++] = (c); } while (0)
    while (*p) {
        if (colon && p == colon + 1) {
            for (const char *s = "***"; *s; s++)
                PUT(*s);
            p = auth_end;
            continue;
        }
        if (url && (p == where || p[-1] == '?' || p[-1] == '&') &&
            strncmp(p, "password=", 9) == 0) {
            for (const char *s = "password=***"; *s; s++)
                PUT(*s);
            p += 9 + strcspn(p + 9, "&#");
            continue;
        }
        PUT(*p);
        p++;
    }
#undef PUT
    out[n] = '\0';
}

/* Replaces in msg each occurrence of piece (n bytes) by "***". */
static void scrub_piece(char *msg, size_t cap, const char *piece, size_t n)
{
    char *at;
    if (n < 2)
        return; /* one character would blank the message's every digit */
    char key[256];
    if (n >= sizeof key)
        n = sizeof key - 1;
    memcpy(key, piece, n);
    key[n] = '\0';
    while ((at = strstr(msg, key)) != NULL) {
        size_t tail = strlen(at + n);
        if (n < 3 && (size_t)(at - msg) + 3 + tail >= cap)
            break;
        memmove(at + 3, at + n, tail + 1);
        memcpy(at, "***", 3);
    }
}

/* libpq quotes parts of a URL it cannot use (a password with an unescaped
 * '@' is taken for a host and a port): every piece of the URL's password,
 * as store_redact sees it, split at '@', ':' and '/', is scrubbed from a
 * message about it. */
void store_scrub(const char *where, char *msg, size_t cap)
{
    char shown[1024];
    store_redact(where, shown, sizeof shown);
    /* The bytes store_redact replaced are the password's. */
    const char *a = where, *b = shown;
    while (*a && *a == *b)
        a++, b++;
    if (!*a)
        return;
    const char *end = a + strlen(a) - strlen(b + 3); /* what follows *** in shown */
    while (a < end) {
        size_t n = strcspn(a, "@:/&");
        if (a + n > end)
            n = (size_t)(end - a);
        scrub_piece(msg, cap, a, n);
        a += n + 1;
    }
}

char *store_log_text(const struct store_event *log, size_t count)
{
    char *text = malloc(count * 100 + 1);
    size_t len = 0;
    if (!text)
        return NULL;
    text[0] = '\0';
    for (size_t i = 0; i < count; i++)
        len += (size_t)sprintf(text + len, "%s%d %d %d %lld %lld %lld", i ? ";" : "",
                               log[i].kind, log[i].mark, log[i].cell, log[i].at_ms,
                               log[i].clock_ms[0], log[i].clock_ms[1]);
    return text;
}

long store_parse_log(const char *text, struct store_event *events, size_t cap)
{
    size_t n = 0;
    if (*text == '\0')
        return 0;
    for (;;) {
        /* kind mark cell, then (since clocks) at_ms x_clock_ms o_clock_ms */
        long long v[6] = {0, 0, 0, 0, -1, -1};
        int fields = 0;
        for (int i = 0; i < 6; i++) {
            char *end;
            errno = 0;
            v[i] = strtoll(text, &end, 10);
            if (end == text || errno || (i < 3 && (v[i] < INT_MIN || v[i] > INT_MAX)))
                return -1;
            text = end;
            fields++;
            if (*text != ' ' || i == 5)
                break;
            text++;
        }
        if ((fields != 3 && fields != 6) || n == cap || v[0] < 0 || v[0] > STORE_FLAG ||
            v[1] < -1 || v[1] > 1 || v[3] < 0 || v[4] < -1 || v[5] < -1)
            return -1;
        events[n] = (struct store_event){(int)n, (int)v[0], (int)v[1], (int)v[2], 0, v[3],
                                         {v[4], v[5]}};
        n++;
        if (*text == '\0')
            return (long)n;
        if (*text++ != ';')
            return -1;
    }
}

struct store *store_open(const char *where, int synchronous_full, int salvage, char *err,
                         size_t err_len)
{
    const struct store_ops *ops = &store_sqlite_ops;
    if (store_is_url(where)) {
#ifdef TTT_HAVE_POSTGRESQL
        ops = &store_pg_ops;
#else
        snprintf(err, err_len, "this ttt-server was built without PostgreSQL (libpq)");
        return NULL;
#endif
    }
    struct store *store = ops->open(where, synchronous_full, salvage, err, err_len);
    if (store)
        store->ops = ops;
    else if (store_is_url(where))
        store_scrub(where, err, err_len);
    return store;
}

void store_close(struct store *store)
{
    if (store)
        store->ops->close(store);
}

int store_add_game(struct store *store, const struct store_game *game)
{
    return store->ops->add_game(store, game);
}

int store_add_event(struct store *store, const char *game_id, const struct store_event *event,
                    const struct store_finished *finished, long long *finish_order)
{
    return store->ops->add_event(store, game_id, event, finished, finish_order);
}

int store_join(struct store *store, const char *game_id, const char *o_name,
               long long seated_ms)
{
    return store->ops->join(store, game_id, o_name, seated_ms);
}

int store_add_finished(struct store *store, const struct store_finished *games, size_t count)
{
    return store->ops->add_finished(store, games, count);
}

int store_load(struct store *store, store_game_fn on_game, store_event_fn on_event, void *user,
               long *skipped, char *err, size_t err_len)
{
    return store->ops->load(store, on_game, on_event, user, skipped, err, err_len);
}

int store_load_game(struct store *store, const char *id, store_game_fn on_game,
                    store_event_fn on_event, void *user, char *err, size_t err_len)
{
    return store->ops->load_game(store, id, on_game, on_event, user, err, err_len);
}

int store_load_log(struct store *store, const char *id, int from, store_event_fn on_event,
                   void *user, char *err, size_t err_len)
{
    return store->ops->load_log(store, id, from, on_event, user, err, err_len);
}

int store_load_results(struct store *store, long long from, store_result_fn on_result,
                       void *user, char *err, size_t err_len)
{
    return store->ops->load_results(store, from, on_result, user, err, err_len);
}

void store_stats(struct store *store, struct store_stats *out)
{
    store->ops->stats(store, out);
}

int store_offer_draw(struct store *store, const char *game_id, int mark, int ply)
{
    return store->ops->offer_draw ? store->ops->offer_draw(store, game_id, mark, ply)
                                  : STORE_FAILED;
}

int store_load_offer(struct store *store, const char *game_id, int *mark, int *ply, char *err,
                     size_t err_len)
{
    if (store->ops->load_offer)
        return store->ops->load_offer(store, game_id, mark, ply, err, err_len);
    snprintf(err, err_len, "this store keeps no draw offers");
    return -1;
}

int store_listen(struct store *store, store_notice_fn on_notice,
                 store_result_notice_fn on_result, store_offer_notice_fn on_offer, void *user)
{
    return store->ops->listen ? store->ops->listen(store, on_notice, on_result, on_offer, user)
                              : -1;
}
