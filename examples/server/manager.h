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
    struct game_entry *bot_head, *bot_tail;
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
json_t *state_json(const struct game_entry *entry, const ttt_game *game);
char *record_of(const ttt_game *game);

/* play.c: applies and commits one move with entry->lock held; the libttt
 * status, or 1 if the store failed (nothing changed then). */
int play_locked(struct manager *mgr, struct game_entry *entry, int ply, int mark,
                int row, int col);

/* manager.c: queues a game whose side to move is a bot (no-op otherwise). */
void bot_enqueue(struct manager *mgr, struct game_entry *entry);

static inline int seat_index(int mark) { return mark == TTT_X ? 0 : 1; }

#endif
