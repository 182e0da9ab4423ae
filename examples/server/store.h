/* store.h - the server's persistence interface: games and their event log, never grids. */
#ifndef TTT_SERVER_STORE_H
#define TTT_SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

/* What the store keeps of a game when it is created. Names are UTF-8, at
 * most 64 bytes; tokens are empty for bot seats. */
struct store_game {
    char id[24];
    int width, height, k, gravity, misere, early_draw, ply_limit, rated;
    char kind[2][12];      /* [0] = x, [1] = o: human, random, strong, perfect */
    long long budget[2];
    char name[2][72];
    char token[2][40];
};

/* One entry of a game's log: a move (cell = row * width + col) or an ending
 * that is not a move (resign by mark, agreed draw). seq orders the log. The
 * entry that ends the game carries finish_order > 0, the order in which
 * games finished (the ratings replay them in it); 0 on every other entry. */
enum store_event_kind { STORE_MOVE = 0, STORE_RESIGN = 1, STORE_DRAW = 2 };
struct store_event {
    int seq;
    int kind;
    int mark; /* 1 = x, -1 = o; 0 for an agreed draw */
    int cell;
    long long finish_order;
};

struct store;

/* Opens (creating and migrating) the store at path; NULL and a message in
 * err on failure. synchronous_full: fsync each commit (survives power loss)
 * rather than only a process crash. */
struct store *store_open(const char *path, int synchronous_full, char *err,
                         size_t err_len);
void store_close(struct store *store);

/* Each call returns only once its rows are committed (0), or fails (-1)
 * having stored nothing. Calls from many threads are grouped into one
 * transaction. The store does not check ids or the order of a log: the
 * caller adds a game once, and each game's events in order. */
int store_add_game(struct store *store, const struct store_game *game);
int store_add_event(struct store *store, const char *game_id,
                    const struct store_event *event);

/* Calls on_game for every stored game, then on_event for every event, in
 * the order they were committed (so each game's events in order). Returns
 * 0, or -1 if reading failed or a callback did. */
typedef int (*store_game_fn)(void *user, const struct store_game *game);
typedef int (*store_event_fn)(void *user, const char *game_id,
                              const struct store_event *event);
int store_load(struct store *store, store_game_fn on_game,
               store_event_fn on_event, void *user);

/* Commits so far and the mean and last commit time, in microseconds. */
void store_stats(struct store *store, uint64_t *commits, double *mean_us,
                 double *last_us);

#endif
