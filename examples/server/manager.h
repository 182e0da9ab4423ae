/* manager.h - what the manager's files share: the id table, the bot queue and the view helpers. */
#ifndef TTT_SERVER_MANAGER_H
#define TTT_SERVER_MANAGER_H

#include "games.h"

struct manager {
    struct store *store;
    struct manager_limits limits;
    /* Open addressing, never shrinking: a lookup reads the slots with
     * atomic loads and takes no lock; only creation takes create_lock. */
    _Atomic(struct game_entry *) *slots;
    size_t mask;
    pthread_mutex_t create_lock;
    atomic_long games;
    atomic_ullong moves_acked;
    atomic_llong finish_counter;
    atomic_int stopping;

    pthread_mutex_t bot_lock;
    pthread_cond_t bot_wake;
    struct game_entry *bot_head[2], *bot_tail[2]; /* the cheap lane, the deep lane */
    double bot_seconds;                            /* a deep bot move's time */
    int bots_stopping;
    pthread_t *bot_threads;
    int bot_count;
};

/* view.c */
json_t *mark_json(int mark);
const char *state_name(int state);
const char *ending_name(int ending);
const char *kind_name(int kind);
int kind_from_name(const char *name);
json_t *cell_json(int row, int col);
/* JSON text written into a growing buffer; after a failed allocation
 * every call is a no-op and failed is set. */
struct text {
    char *data;
    size_t len, cap;
    int failed;
};
void text_add(struct text *t, const char *s, size_t len);
void text_str(struct text *t, const char *s);        /* raw, as it is */
void text_int(struct text *t, long long v);
void text_string(struct text *t, const char *s, size_t len); /* a JSON string */
void text_cell(struct text *t, int row, int col);          /* "b2" */
void text_mark(struct text *t, int mark);                  /* "x", "o" or null */
/* Writes the state of game (entry's, or a copy of it at an earlier ply) as
 * the API shows it: an object left open, so the caller may add members. */
void state_text(struct text *t, const struct game_entry *entry, const ttt_game *game);
/* Closes the object state_text opened and makes the reply (503 if memory
 * ran out); the text is the reply's now. */
struct reply text_reply(int http, struct text *t);
char *record_of(const ttt_game *game);

/* play.c: applies and commits one move with entry->lock held; the libttt
 * status, or 1 if the store failed (nothing changed then). */
int play_locked(struct manager *mgr, struct game_entry *entry, int ply, int mark,
                int row, int col);

/* manager.c: queues a game whose side to move is a bot (no-op otherwise). */
void bot_enqueue(struct manager *mgr, struct game_entry *entry);

static inline int seat_index(int mark) { return mark == TTT_X ? 0 : 1; }

#endif
