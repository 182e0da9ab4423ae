/* bots.c - the bot seats: two lanes of queued bot moves (cheap, deep) and the threads that play them. */
#include <stdlib.h>
#include <time.h>

#include "manager.h"

static int bot_to_move(const struct game_entry *entry)
{
    int mark = ttt_to_move(entry->game);
    return mark != TTT_EMPTY && entry->kind[seat_index(mark)] != SEAT_HUMAN;
}

/* The lane of a bot move: cheap (BOT_CHEAP) when its search is small, at
 * most CHEAP_NODES positions by its node budget or by the positions left on
 * the board (at most 3 ^ empty cells): a random move, any bot on 3x3, a
 * small budget. Cheap moves have a thread of their own and go first on the
 * others, so they never wait behind a deep search. */
enum { BOT_CHEAP, BOT_DEEP, CHEAP_NODES = 20000, STRONG_DEFAULT_NODES = 100000 };

static int bot_lane(const struct manager *mgr, const struct game_entry *entry)
{
    int mark = ttt_to_move(entry->game);
    if (mark == TTT_EMPTY)
        return BOT_CHEAP;
    int kind = entry->kind[seat_index(mark)];
    uint64_t budget = entry->budget[seat_index(mark)];
    if (kind == SEAT_RANDOM)
        return BOT_CHEAP;
    if (budget == 0)
        budget = kind == SEAT_PERFECT ? (uint64_t)mgr->limits.max_budget : STRONG_DEFAULT_NODES;
    long empty = (long)ttt_width(entry->game) * ttt_height(entry->game) - ttt_ply(entry->game);
    uint64_t positions = 1;
    for (long i = 0; i < empty && positions <= CHEAP_NODES; i++)
        positions *= 3;
    return (budget < positions ? budget : positions) <= CHEAP_NODES ? BOT_CHEAP : BOT_DEEP;
}

void bot_enqueue(struct manager *mgr, struct game_entry *entry)
{
    if (!bot_to_move(entry))
        return;
    /* The queue holds the game (taken before bot_lock: the table's lock is
     * never taken inside it). */
    manager_hold(mgr, entry);
    int queued = 0;
    int lane = bot_lane(mgr, entry);
    pthread_mutex_lock(&mgr->bot_lock);
    if (!entry->bot_queued) {
        queued = 1;
        entry->bot_queued = 1;
        entry->bot_next = NULL;
        if (mgr->bot_tail[lane])
            mgr->bot_tail[lane]->bot_next = entry;
        else
            mgr->bot_head[lane] = entry;
        mgr->bot_tail[lane] = entry;
        pthread_cond_broadcast(&mgr->bot_wake);
    }
    pthread_mutex_unlock(&mgr->bot_lock);
    if (!queued)
        manager_release(mgr, entry);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A bot's search bounded in time as well as nodes: budgets from 16384
 * positions up, four times larger each round, while the next round (about
 * four times the last) fits before the deadline; the last move found
 * stands. A perfect bot that proves nothing by then plays as the strong bot
 * in the time left (at least one small search, so it always moves). */
static int timed_best_move(const ttt_game *game, int level, uint64_t budget, double seconds,
                           uint64_t *seed, int *row, int *col)
{
    double start = seconds_now(), deadline = start + seconds;
    if (level == TTT_BOT_PERFECT)
        deadline = start + seconds / 2;
    int found = 0;
    for (int pass = level == TTT_BOT_PERFECT ? 0 : 1; pass < 2 && !found; pass++) {
        int lvl = pass == 0 ? TTT_BOT_PERFECT : TTT_BOT_STRONG;
        if (pass == 1)
            deadline = start + seconds;
        for (uint64_t b = 16384;; b *= 4) {
            if (b > budget)
                b = budget;
            uint64_t s = *seed;
            int r, c;
            double t0 = seconds_now();
            int rc = ttt_best_move(game, lvl, b, &s, &r, &c);
            double took = seconds_now() - t0;
            if (rc == TTT_OK) {
                *seed = s, *row = r, *col = c;
                found = 1;
                if (lvl == TTT_BOT_PERFECT)
                    break; /* proven: a larger budget finds no better move */
            } else if (rc != TTT_E_BUDGET) {
                return found ? TTT_OK : rc;
            }
            if (b >= budget || seconds_now() + 4 * took > deadline)
                break;
        }
    }
    return found ? TTT_OK : TTT_E_BUDGET;
}

/* One bot move in entry's game, searched without holding entry->lock (the
 * search copies the game under libttt's lock), then played at the ply it
 * was searched for, so a change meanwhile (a resignation) wins. */
static void bot_move(struct manager *mgr, struct game_entry *entry, int lane)
{
    pthread_mutex_lock(&entry->lock);
    int mark = ttt_to_move(entry->game), ply = ttt_ply(entry->game);
    if (mark == TTT_EMPTY || entry->kind[seat_index(mark)] == SEAT_HUMAN) {
        pthread_mutex_unlock(&entry->lock);
        return;
    }
    int kind = entry->kind[seat_index(mark)];
    uint64_t budget = entry->budget[seat_index(mark)], seed = entry->seed;
    pthread_mutex_unlock(&entry->lock);

    int level = kind == SEAT_RANDOM ? TTT_BOT_RANDOM
              : kind == SEAT_STRONG ? TTT_BOT_STRONG : TTT_BOT_PERFECT;
    if (budget == 0)
        budget = level == TTT_BOT_PERFECT ? (uint64_t)mgr->limits.max_budget
                                          : STRONG_DEFAULT_NODES;
    int row, col, rc;
    if (lane == BOT_DEEP && level != TTT_BOT_RANDOM) {
        rc = timed_best_move(entry->game, level, budget, mgr->bot_seconds, &seed, &row, &col);
    } else {
        rc = ttt_best_move(entry->game, level, budget, &seed, &row, &col);
        if (rc == TTT_E_BUDGET)
            rc = ttt_best_move(entry->game, TTT_BOT_STRONG, budget, &seed, &row, &col);
    }
    if (rc != TTT_OK)
        return;
    pthread_mutex_lock(&entry->lock);
    entry->seed = seed;
    if (ttt_ply(entry->game) == ply)
        play_locked(mgr, entry, ply, mark, row, col);
    pthread_mutex_unlock(&entry->lock);
}

/* A bot thread: the cheap lane's own thread takes cheap moves only; the
 * others take a cheap move when one waits, else a deep one. */
static void bot_loop(struct manager *mgr, int cheap_only)
{
    pthread_mutex_lock(&mgr->bot_lock);
    for (;;) {
        while (!mgr->bot_head[BOT_CHEAP] && (cheap_only || !mgr->bot_head[BOT_DEEP]) &&
               !mgr->bots_stopping)
            pthread_cond_wait(&mgr->bot_wake, &mgr->bot_lock);
        if (mgr->bots_stopping)
            break;
        int lane = mgr->bot_head[BOT_CHEAP] ? BOT_CHEAP : BOT_DEEP;
        struct game_entry *entry = mgr->bot_head[lane];
        mgr->bot_head[lane] = entry->bot_next;
        if (!mgr->bot_head[lane])
            mgr->bot_tail[lane] = NULL;
        entry->bot_queued = 0;
        pthread_mutex_unlock(&mgr->bot_lock);
        /* One move, then to the back of its lane: a bot-against-bot game
         * takes turns with every other game. */
        bot_move(mgr, entry, lane);
        bot_enqueue(mgr, entry);
        manager_release(mgr, entry); /* the queue's hold of this turn */
        pthread_mutex_lock(&mgr->bot_lock);
    }
    pthread_mutex_unlock(&mgr->bot_lock);
}

static void *bot_main(void *arg)
{
    bot_loop(arg, 0);
    return NULL;
}

static void *bot_cheap_main(void *arg)
{
    bot_loop(arg, 1);
    return NULL;
}

int manager_start_bots(struct manager *mgr)
{
    /* --bot-threads threads, and one more for the cheap lane. */
    int count = mgr->limits.bot_threads + 1;
    mgr->bot_seconds = (double)mgr->limits.bot_time_ms / 1000.0;
    mgr->bot_threads = calloc((size_t)count, sizeof *mgr->bot_threads);
    if (!mgr->bot_threads || clock_timer_start(mgr) != 0)
        return -1;
    /* Queued before any bot runs (a bot that ends a game takes it out of
     * the table) or any request comes: the table holds the games in
     * progress alone. */
    for (size_t i = 0; i <= mgr->mask; i++)
        if (mgr->slots[i])
            bot_enqueue(mgr, mgr->slots[i]);
    for (int i = 0; i < count; i++) {
        if (pthread_create(&mgr->bot_threads[i], NULL, i == 0 ? bot_cheap_main : bot_main,
                           mgr) != 0)
            return -1;
        mgr->bot_count++;
    }
    return 0;
}

void bots_stop(struct manager *mgr)
{
    pthread_mutex_lock(&mgr->bot_lock);
    mgr->bots_stopping = 1;
    pthread_cond_broadcast(&mgr->bot_wake);
    pthread_mutex_unlock(&mgr->bot_lock);
    for (int i = 0; i < mgr->bot_count; i++)
        pthread_join(mgr->bot_threads[i], NULL);
    free(mgr->bot_threads);
    mgr->bot_threads = NULL;
    mgr->bot_count = 0;
}
