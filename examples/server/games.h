/* games.h - the game manager: ids to libttt games, moves made durable before they are acknowledged. */
#ifndef TTT_SERVER_GAMES_H
#define TTT_SERVER_GAMES_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "store.h"
#include "ttt.h"

enum seat_kind { SEAT_HUMAN, SEAT_RANDOM, SEAT_STRONG, SEAT_PERFECT };

#define TOKEN_LEN 32

/* A time control: all 0 for none; Fischer (initial_s > 0, increment_s >= 0
 * added after each move) or correspondence (days_per_move > 0: each move
 * has that long). The bounds are clock.c's (docs/server.md, "Clocks"). */
struct time_control {
    int initial_s, increment_s, days_per_move;
};

/* A game's clock (clock.c), changed with the entry's lock held; the fields
 * marked so are the timer's, under the manager's timer_lock. */
struct game_clock {
    struct time_control tc;
    long long left_ms[2];     /* x [0], o [1]: time left when the turn began */
    long long turn_start_ms;  /* wall clock (Unix ms) when the side to move's clock began
                               * (before the first move: x's first-move window) */
    long long (*after)[3];    /* per log entry: at_ms, x's and o's time left after it */
    int after_cap;            /* the board's cells + 1: the longest log, never grown */
    signed char flagged;      /* the mark whose time ran out (the game ended on time), or 0 */
    unsigned char held;       /* the timer holds the game (from the first deadline on) */
    unsigned char pending;    /* timer: in the list of deadlines to (re)file */
    long long deadline_ms;    /* timer: when the flag falls; 0 once the game is over */
    size_t heap_pos;          /* timer: index + 1 in the heap, 0 if not in it */
    struct game_entry *pending_next; /* timer */
};

/* One held game. The libttt game has its own lock, which makes each move
 * whole; `lock` spans a change and its commit, so every change a reader can
 * see through the server is already durable and the log's order is the
 * game's. Both are per game: games never wait for each other here. */
struct game_entry {
    char id[24];
    ttt_game *game;
    pthread_mutex_t lock;
    pthread_cond_t changed;   /* a new event, or an offer: wakes event streams */
    int events;               /* entries in the durable log (moves + ending) */
    int offer_version;
    signed char draw_offer;   /* the mark with a standing draw offer, or 0 (a shared
                               * store's as last read: the store decides) */
    unsigned char rated, bot_queued;
    unsigned char load_bad;   /* at start, with --salvage: its log did not replay */
    unsigned char ended;      /* its ending is committed: it leaves memory at refs 0 */
    int refs;                 /* holders (requests, streams, the bot queue), under
                               * the manager's table_lock */
    long long idle_since_ms;  /* monotonic ms when refs last fell to 0 (table_lock) */
    int streams;              /* the event streams among them (table_lock) */
    unsigned char kind[2];    /* [0] = x, [1] = o */
    uint32_t budget[2];
    char token[2][TOKEN_LEN + 1]; /* empty for a bot seat */
    uint64_t seed;
    long long finish_order;
    struct game_entry *bot_next;
    struct game_clock clock;
};

/* A reply: an HTTP status and a JSON body (owned), either as jansson
 * values or, on the routes a game is played through, as text written
 * straight into one buffer (owned, NUL-terminated; it wins if both). */
struct reply {
    int http;
    json_t *body;
    char *text;
};

struct manager;

struct manager_limits {
    long max_games;
    int max_size;
    long max_budget;
    int bot_threads;
    int salvage;   /* --salvage: games that do not rebuild are skipped, not fatal */
    long bot_time_ms; /* a deep bot move's time */
    int shared;    /* the store is shared with other servers (PostgreSQL): a
                    * held game may be behind its log, a game not held may
                    * be in progress on another server */
    long unload_idle_ms; /* shared store: a game in progress that nothing has
                          * held for this long leaves memory (0: never) */
};

struct manager *manager_new(struct store *store, const struct manager_limits *limits);
/* Rebuilds every stored game by replaying its log. -1 with a message in err
 * when a game does not read or rebuild (with limits.salvage: such games are
 * reported on stderr, skipped and counted in *skipped instead). */
int manager_load(struct manager *mgr, long *games, long *events, long *skipped, char *err,
                 size_t err_len);
/* Starts the bot threads and the clocks' timer (after loading: bots then
 * move and clocks run in loaded games). */
int manager_start_bots(struct manager *mgr);
/* Stops the bots and frees every game (the store stays open). */
void manager_free(struct manager *mgr);
/* With a shared store: the games in progress that nothing has held for
 * limits.unload_idle_ms leave memory (they load again on demand, with
 * their draw offers, which the store keeps). A clocked game is held by its
 * clock until it ends. Called every second; a no-op otherwise. */
void manager_unload_idle(struct manager *mgr);
/* Asks event streams to end; they return within a second. */
void manager_stop_streams(struct manager *mgr);
int manager_stopping(struct manager *mgr);

/* The game with this id, held, or NULL if there is none. The caller
 * releases it. A game not held is loaded from the store: a finished one,
 * or (shared store) one in progress that another server created.
 * *unreadable (if given) is set when NULL is because the store could not
 * be read, not because there is no such game. */
struct game_entry *manager_find(struct manager *mgr, const char *id, int *unreadable);
/* With a shared store: brings a held game in progress up to its log, which
 * other servers may have added to, and reads its draw offer (a no-op
 * otherwise). What a request that shows the game calls first; a move needs
 * not (a ply another server stored meets the store's key, and a ply ahead
 * catches up). */
void manager_refresh(struct manager *mgr, struct game_entry *entry);
/* One more holder of a held entry (an event stream), released as well. */
void manager_hold(struct manager *mgr, struct game_entry *entry);
void manager_release(struct manager *mgr, struct game_entry *entry);
/* An event stream's hold: with a shared store, a game with streams follows
 * the events and draw offers other servers commit (told by the store, read
 * from it), and the hold first reads what was committed before it. */
void manager_hold_stream(struct manager *mgr, struct game_entry *entry);
void manager_release_stream(struct manager *mgr, struct game_entry *entry);
/* With a shared store: starts following other servers' events (after the
 * load, before serving); 0, or -1. A no-op otherwise. */
int manager_listen(struct manager *mgr);

/* POST /api/games: a game from the request's JSON (with "clock" or
 * "days_per_move" for a time control). */
struct reply game_create(struct manager *mgr, json_t *request);
/* Creates the game g describes: its shape, rules, rated flag, seat kinds,
 * budgets and names (g's id, tokens and clock fields are filled in here),
 * with the time control tc (NULL or all 0: no clock; else as
 * clock_check_control accepts). Stores it, starts its clock, queues a bot
 * to move and answers as POST /api/games: 201 with {"id", "tokens", "game"}
 * (g->id and g->token then hold the id and the human seats' tokens), or an
 * error reply (nothing created). For instance, from the lobby:
 *     struct store_game g = {.width = 3, .height = 3, .k = 3};
 *     snprintf(g.kind[0], sizeof g.kind[0], "human"); (and [1], names)
 *     struct time_control tc = {.initial_s = 180, .increment_s = 2};
 *     struct reply r = game_create_with(mgr, &g, &tc); */
struct reply game_create_with(struct manager *mgr, struct store_game *g,
                              const struct time_control *tc);
/* clock.c: 0 if tc is a time control this server accepts (all 0, or one
 * kind within its bounds), else -1 with the 422 reply in *err. */
int clock_check_control(const struct time_control *tc, struct reply *err);
/* clock.c: the time control of a POST /api/games body ("clock" or
 * "days_per_move"; all 0 without either): 0, or -1 with the 4xx reply in
 * *err. */
int clock_from_request(json_t *request, struct time_control *tc, struct reply *err);
struct reply game_view(struct manager *mgr, struct game_entry *entry);
/* The seat (TTT_X or TTT_O) whose token this is, or 0; constant time. */
int game_seat_for_token(const struct game_entry *entry, const char *token, size_t len);
struct reply game_move(struct manager *mgr, struct game_entry *entry, int mark,
                       json_t *request);
struct reply game_resign(struct manager *mgr, struct game_entry *entry, int mark);
struct reply game_draw(struct manager *mgr, struct game_entry *entry, int mark);
/* The libttt record of a game, malloc'ed, or NULL. */
char *game_record(struct game_entry *entry);
/* GET /api/players?game=&limit=&after=: the ratings of one game kind
 * (default tictactoe), best first, from after the named player (game,
 * limit and after are the query's text, or NULL). */
struct reply players_view(struct manager *mgr, const char *game, const char *limit,
                          const char *after);
/* GET /api/players/NAME: the player's ratings per kind, their history and
 * the player's recent rated games. */
struct reply player_view(struct manager *mgr, const char *name);
struct reply health_view(struct manager *mgr);

/* Event streams: formats the next event after *next_event into buf (at
 * most cap bytes), waiting up to a second for one. Returns its length, 0
 * for nothing new yet, -1 once the stream is over (game ended and told). */
struct stream_cursor {
    int next_event;   /* the log entry to send next */
    int end_sent;
    int offer_seen;
};
long stream_next(struct manager *mgr, struct game_entry *entry,
                 struct stream_cursor *cursor, char *buf, size_t cap);

struct reply error_reply(int http, const char *status, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
struct reply ttt_error_reply(int http, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Random bytes from the operating system; 0 or -1. */
int random_bytes(void *buf, size_t len);

#endif
