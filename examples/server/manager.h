/* manager.h - what the manager's files share: the id table, the bot queue and the view helpers. */
#ifndef TTT_SERVER_MANAGER_H
#define TTT_SERVER_MANAGER_H

#include "games.h"
#include "glicko2.h"

/* The game kinds rated apart (ratings.c's board_kind says which is which). */
enum board_kind { KIND_TICTACTOE, KIND_CONNECT4, KIND_GOMOKU, KIND_OTHER, BOARD_KINDS };

struct rating;
/* One rated game in a player's history: its ratings before and after. */
struct rating_event {
    long long order;              /* the game's finish order */
    char game[24];
    const struct rating *opponent;
    struct glicko2 before, after;
    unsigned char mark, score2;   /* TTT_X or TTT_O; 2 win, 1 draw, 0 loss */
};

/* A player's rating in one kind: in a hash by name, and in a skip list kept
 * in rank order (best first), so that a rating change moves it in
 * O(log players) and a page of the ranking costs its rows. */
#define RANK_LEVELS 16
struct rating {
    char name[TTT_NAME_MAX + 1];
    struct glicko2 g;
    int games, wins, losses, draws;
    struct rating_event *history; /* oldest first */
    size_t history_count, history_cap;
    struct rating *next_name; /* the hash chain */
    int levels;
    struct rating *next[];    /* levels of them: the next player down the ranking */
};

/* The ratings of one kind. */
struct ranking {
    struct rating **names;    /* hash by name, names_mask + 1 chains */
    size_t names_mask, players;
    struct rating *top[RANK_LEVELS]; /* the skip list's heads */
};

/* A finished game's result waiting for the ones that finished before it. */
struct result_wait {
    long long order;
    int rated, state, kind;
    char id[24];
    char name[2][TTT_NAME_MAX + 1];
};

struct manager {
    struct store *store;
    struct manager_limits limits;
    /* The games held: every game in progress, and finished games while a
     * request, a stream or a bot holds them. Open addressing under
     * table_lock (a lookup is a few probes), grown at half full. */
    pthread_mutex_t table_lock;
    struct game_entry **slots;
    size_t mask, used;
    atomic_long games;        /* games in progress (what --max-games bounds) */
    atomic_ullong moves_acked;
    atomic_int stopping;

    /* Ratings, updated as each game ends, in finish order (the store
     * gives it): a game that finished but whose predecessors this server
     * has not seen yet waits. */
    pthread_mutex_t ratings_lock;
    struct ranking ranks[BOARD_KINDS];
    uint64_t level_seed;
    long long next_order;     /* the finish order applied next */
    struct result_wait *waiting;
    size_t waiting_count, waiting_cap;
    atomic_int ratings_behind; /* a read of the results failed: read them again */

    pthread_mutex_t bot_lock;
    pthread_cond_t bot_wake;
    struct game_entry *bot_head[2], *bot_tail[2]; /* the cheap lane, the deep lane */
    double bot_seconds;                            /* a deep bot move's time */
    int bots_stopping;
    pthread_t *bot_threads;
    int bot_count;

    /* Clocks (clock.c): every clocked game in progress in one min-heap by
     * deadline, served by one timer thread that sleeps until the earliest.
     * A move only files its game's new deadline in the pending list (O(1));
     * the thread sorts it into the heap. */
    pthread_mutex_t timer_lock;
    pthread_cond_t timer_wake;
    struct timer_node {
        long long at_ms;
        struct game_entry *entry;
    } *heap;
    size_t heap_len, heap_cap;
    struct game_entry *timer_pending;
    long long timer_wakes_ms; /* when the thread wakes next; LLONG_MAX: no deadline */
    int timer_ends;           /* ended games filed since the thread last sorted them */
    int timer_stopping, timer_started;
    pthread_t timer_thread;
    long long alive_ms;       /* at load: the latest stored event's or seating's time
                               * (see clock_resume) */
};

/* view.c */
json_t *mark_json(int mark);
const char *state_name(int state);
const char *ending_name(int ending);
/* The ending of game (entry's, or a copy of it) as the API names it:
 * "time" for a flag fall, else ending_name's. */
const char *entry_ending_name(const struct game_entry *entry, const ttt_game *game);
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

/* play.c: after a committed change (entry->lock held): counts the event,
 * withdraws a draw offer, wakes the streams and queues a bot to move. */
void game_changed(struct manager *mgr, struct game_entry *entry, long long finish_order);
/* play.c: the wall clock, Unix milliseconds (what a log entry's at_ms holds). */
long long wall_ms(void);
/* play.c: applies and commits one move with entry->lock held; the libttt
 * status, or 1 if the store failed (nothing changed then). */
int play_locked(struct manager *mgr, struct game_entry *entry, int ply, int mark,
                int row, int col);

/* clock.c: a game's clock. Every function takes entry->lock held. */
/* Sets entry's clock from its row (before any event is replayed): -1 out
 * of memory. */
int clock_init(struct game_entry *entry, const struct store_game *g);
void clock_free(struct game_entry *entry);
/* Records a replayed or caught-up log entry's times. */
void clock_replayed(struct game_entry *entry, const struct store_event *ev);
/* Starts the clock of a new game, or resumes a loaded one (time from its
 * last event, or before the first move from the seating, to mgr->alive_ms
 * is charged; the time after, when the server was down, is not), and
 * files its deadline. */
void clock_resume(struct manager *mgr, struct game_entry *entry, long long now);
/* A game in progress loaded on demand (a shared store: another server
 * created it or moved in it): its clock runs from its last stored event
 * and its deadline is filed, so this server decides its flag too. */
void clock_loaded(struct manager *mgr, struct game_entry *entry, long long now);
/* Both seats of entry's game are taken now (a rated game's second account
 * joined): x's first move is due within its window from now (docs/
 * server.md, "Clocks"); its deadline is filed. */
void clock_seated(struct manager *mgr, struct game_entry *entry, long long now);
/* Whether side mark, to move, has run out of time by now (before the
 * first move: whether x's first move is overdue). */
int clock_out_of_time(const struct game_entry *entry, int mark, long long now);
/* Fills ev->clock_ms with both sides' time left after ev (a move of mark,
 * or an ending) at ev->at_ms; -1 without a clock. O(1), no allocation. */
void clock_for_event(const struct game_entry *entry, struct store_event *ev);
/* After ev is committed (or, ev NULL, entries caught up from the store):
 * the clock moves on to the side to move and its new deadline is filed
 * (or the timer lets the game go once it is over). O(1), no allocation. */
void clock_committed(struct manager *mgr, struct game_entry *entry, const struct store_event *ev);
/* Ends entry's game on time (side mark's flag fell): a loss for mark, or a
 * draw if the other side can no longer make any line. Stored as a
 * STORE_FLAG entry; 0, or 1 if the store failed (nothing changed). */
int clock_flag_locked(struct manager *mgr, struct game_entry *entry, int mark, long long now);
/* Plays a flag-fall entry into entry's game (a replay or a flag). */
int clock_apply_flag(struct game_entry *entry, int mark);
/* The JSON members of game's clock (entry's game, or a copy of it at an
 * earlier ply): ,"clock":{..},"clock_ms":{"x":N,"o":N},"clock_running":..
 * as of now; nothing for a game without a clock. */
void clock_text(struct text *t, const struct game_entry *entry, const ttt_game *game,
                long long now);
/* The clock members of log entry seq's event (the time left right after it). */
void clock_event_json(json_t *obj, const struct game_entry *entry, int seq, int over);
/* Resumes the loaded games' clocks and starts the timer thread; 0 or -1. */
int clock_timer_start(struct manager *mgr);
void clock_timer_stop(struct manager *mgr);

/* bots.c: queues a game whose side to move is a bot (no-op otherwise). */
void bot_enqueue(struct manager *mgr, struct game_entry *entry);
/* bots.c: stops the bot threads and waits for them (manager_free). */
void bots_stop(struct manager *mgr);
/* manager.c: stores an event of entry's game (entry->lock held; its
 * finish_order is set here). When it ends the game, the game goes to the
 * store whole and, once committed, event->finish_order is the order the
 * store gave it, and the game is counted out of the games in progress,
 * rated, and leaves memory when the last holder releases it. A
 * store_add_event result. */
int manager_store_event(struct manager *mgr, struct game_entry *entry, struct store_event *event);
/* Brings a held game up to its stored log (another server stored plies
 * since: a write met STORE_CONFLICT, or a request or a notice came), with
 * entry's lock held. The entries replayed (0: none newer), or -1 (told on
 * stderr). A game another server ended leaves the games in progress here
 * (it is let go with its last holder); its result comes with the store's
 * notice of it (ratings_catch_up). */
int manager_catch_up(struct manager *mgr, struct game_entry *entry);

/* manager.c: the id table (table_lock held) and its entries, shared with
 * manager_load.c. */
size_t slot_of(const struct manager *mgr, const char *id);
int table_put(struct manager *mgr, struct game_entry *entry);
void table_remove(struct manager *mgr, struct game_entry *entry);
int entry_new(const struct store_game *g, struct game_entry **out);
void entry_free(struct game_entry *entry);
int replay_event(struct game_entry *entry, const struct store_event *ev);
void entry_row(const struct game_entry *e, struct store_game *g);
struct store_event *entry_log(const struct game_entry *e, size_t *count);

/* ratings.c: the ratings (Glicko-2, per board kind), under ratings_lock. */
int ratings_init(struct manager *mgr);   /* 0, or -1 out of memory */
void ratings_free(struct manager *mgr);
/* The name's rating in kind (the initial one if it has none); takes
 * ratings_lock. */
void ratings_lookup(struct manager *mgr, int kind, const char *name, struct glicko2 *out);
/* The kind a game of this board and these rules is rated in. */
int board_kind(int width, int height, int k, int gravity, int misere, int ply_limit);
/* A finished game's result, as stored with the finish order the store
 * gave it: by the server that ended it, or read from the store
 * (ratings_catch_up). Ratings move in finish order, as a restart replays
 * them, so a result waits for the orders before it; one already applied or
 * already waiting is ignored (both ways deliver it). 1 if it waits, else 0. */
int ratings_finish(struct manager *mgr, const struct store_result *result);
/* Reads the results from the first order this server lacks on from the
 * store and applies them (a shared store told of a result, or its
 * listening connection came back; or a read failed before). */
void ratings_catch_up(struct manager *mgr);
/* A stored result, replayed at start (in finish order, before serving). */
void ratings_replay(struct manager *mgr, const struct store_result *result);

static inline int seat_index(int mark) { return mark == TTT_X ? 0 : 1; }

#endif
