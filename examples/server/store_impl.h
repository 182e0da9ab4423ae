/* store_impl.h - what a store backend provides to store.c's dispatch (not for the store's callers). */
#ifndef TTT_SERVER_STORE_IMPL_H
#define TTT_SERVER_STORE_IMPL_H

#include "store.h"

/* One backend's functions, each as store.h describes its namesake. */
struct store_ops {
    struct store *(*open)(const char *where, int synchronous_full, int salvage, char *err,
                          size_t err_len);
    void (*close)(struct store *store);
    int (*add_game)(struct store *store, const struct store_game *game);
    int (*add_event)(struct store *store, const char *game_id, const struct store_event *event,
                     const struct store_finished *finished, long long *finish_order);
    int (*join)(struct store *store, const char *game_id, const char *o_name,
                long long seated_ms);
    int (*add_finished)(struct store *store, const struct store_finished *games, size_t count);
    int (*load)(struct store *store, store_game_fn on_game, store_event_fn on_event, void *user,
                long *skipped, char *err, size_t err_len);
    int (*load_game)(struct store *store, const char *id, store_game_fn on_game,
                     store_event_fn on_event, void *user, char *err, size_t err_len);
    int (*load_log)(struct store *store, const char *id, int from, store_event_fn on_event,
                    void *user, char *err, size_t err_len);
    int (*load_results)(struct store *store, long long from, store_result_fn on_result,
                        void *user, char *err, size_t err_len);
    void (*stats)(struct store *store, struct store_stats *out);
    int (*listen)(struct store *store, store_notice_fn on_notice,
                  store_result_notice_fn on_result, store_offer_notice_fn on_offer,
                  void *user); /* or NULL */
    int (*offer_draw)(struct store *store, const char *game_id, int mark, int ply); /* or NULL */
    int (*load_offer)(struct store *store, const char *game_id, int *mark, int *ply, char *err,
                      size_t err_len); /* or NULL */
};

/* A finished game's log as both stores keep it in one text column: "kind
 * mark cell at_ms x_clock_ms o_clock_ms" per entry (a log written before
 * clocks has "kind mark cell", read as at_ms 0 and no clock), entries
 * joined by ';' (the seq is the position, the finish order is the row's).
 * malloc'ed, or NULL. */
char *store_log_text(const struct store_event *log, size_t count);
/* Parses such a text into events (cap of them, seq from 0, finish order 0);
 * their count, or -1 if the text is not one. */
long store_parse_log(const char *text, struct store_event *events, size_t cap);

/* The head of every backend's own store struct (its first member), so a
 * struct store * converts to the backend's type and back. */
struct store {
    const struct store_ops *ops;
};

extern const struct store_ops store_sqlite_ops;
#ifdef TTT_HAVE_POSTGRESQL
extern const struct store_ops store_pg_ops;
#endif

#endif
