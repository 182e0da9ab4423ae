/* clock.c - game clocks: Fischer and correspondence time, flag falls decided by one timer thread over a min-heap of deadlines. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manager.h"

/* The bounds of a time control (docs/server.md, "Clocks"). */
enum {
    INITIAL_MIN_S = 1, INITIAL_MAX_S = 10800,  /* up to 3 hours */
    INCREMENT_MAX_S = 180,
    DAYS_MIN = 1, DAYS_MAX = 14,
    /* A flag that could not be stored is tried again this much later. */
    FLAG_RETRY_MS = 1000,
    /* The longest a Fischer game waits for x's first move. */
    FIRST_MOVE_MAX_MS = 30000,
    ENDS_BATCH = 256,
};
#define DAY_MS 86400000LL

int clock_check_control(const struct time_control *tc, struct reply *err)
{
    if (tc->initial_s == 0 && tc->increment_s == 0 && tc->days_per_move == 0)
        return 0;
    if (tc->days_per_move != 0 && (tc->initial_s != 0 || tc->increment_s != 0)) {
        *err = ttt_error_reply(422, TTT_E_INVALID, "give \"clock\" or \"days_per_move\","
                               " not both");
        return -1;
    }
    if (tc->days_per_move != 0) {
        if (tc->days_per_move < DAYS_MIN || tc->days_per_move > DAYS_MAX) {
            *err = ttt_error_reply(422, TTT_E_RANGE, "days_per_move is %d to %d", DAYS_MIN,
                                   DAYS_MAX);
            return -1;
        }
        return 0;
    }
    if (tc->initial_s < INITIAL_MIN_S || tc->initial_s > INITIAL_MAX_S) {
        *err = ttt_error_reply(422, TTT_E_RANGE, "clock.initial_s is %d to %d", INITIAL_MIN_S,
                               INITIAL_MAX_S);
        return -1;
    }
    if (tc->increment_s < 0 || tc->increment_s > INCREMENT_MAX_S) {
        *err = ttt_error_reply(422, TTT_E_RANGE, "clock.increment_s is 0 to %d",
                               INCREMENT_MAX_S);
        return -1;
    }
    return 0;
}

/* An integer member of obj into *out (0 if absent or null; -1 for a 0
 * given where 0 means nothing, so that the bounds refuse it): 0, or -1
 * with the reply in *err (400 for the wrong type, 422 beyond an int). */
static int int_member(json_t *obj, const char *key, const char *shown, int zero_is_bad,
                      int *out, struct reply *err)
{
    json_t *v = json_object_get(obj, key);
    *out = 0;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v)) {
        *err = error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "%s has the wrong type", shown);
        return -1;
    }
    json_int_t x = json_integer_value(v);
    if (x < INT_MIN || x > INT_MAX) {
        *err = ttt_error_reply(422, TTT_E_RANGE, "%s is out of range", shown);
        return -1;
    }
    *out = x == 0 && zero_is_bad ? -1 : (int)x;
    return 0;
}

int clock_from_request(json_t *req, struct time_control *tc, struct reply *err)
{
    *tc = (struct time_control){0, 0, 0};
    json_t *clock = json_object_get(req, "clock");
    if (clock && !json_is_null(clock)) {
        if (!json_is_object(clock)) {
            *err = error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "clock has the wrong type");
            return -1;
        }
        json_t *initial = json_object_get(clock, "initial_s");
        if (!initial || json_is_null(initial)) {
            *err = ttt_error_reply(422, TTT_E_INVALID, "clock.initial_s is required");
            return -1;
        }
        if (int_member(clock, "initial_s", "clock.initial_s", 1, &tc->initial_s, err) != 0 ||
            int_member(clock, "increment_s", "clock.increment_s", 0, &tc->increment_s,
                       err) != 0)
            return -1;
    }
    if (int_member(req, "days_per_move", "days_per_move", 1, &tc->days_per_move, err) != 0)
        return -1;
    return clock_check_control(tc, err);
}

static int has_clock(const struct game_entry *entry)
{
    return entry->clock.after != NULL;
}

/* Each side's time at the start, and what a correspondence move gets. */
static long long full_ms(const struct time_control *tc)
{
    return tc->days_per_move ? tc->days_per_move * DAY_MS : tc->initial_s * 1000LL;
}

int clock_init(struct game_entry *entry, const struct store_game *g)
{
    struct game_clock *c = &entry->clock;
    memset(c, 0, sizeof *c);
    c->tc = (struct time_control){g->clock_initial_s, g->clock_increment_s,
                                  g->clock_days_per_move};
    if (c->tc.initial_s == 0 && c->tc.days_per_move == 0)
        return 0;
    /* Every log entry's times, allocated once: the move path never does. */
    c->after_cap = g->width * g->height + 1;
    c->after = calloc((size_t)c->after_cap, sizeof *c->after);
    if (!c->after)
        return -1;
    c->left_ms[0] = c->left_ms[1] = full_ms(&c->tc);
    c->turn_start_ms = g->seated_ms; /* x's first-move window, once both seats are taken */
    return 0;
}

void clock_free(struct game_entry *entry)
{
    free(entry->clock.after);
    entry->clock.after = NULL;
}

void clock_replayed(struct game_entry *entry, const struct store_event *ev)
{
    struct game_clock *c = &entry->clock;
    if (!has_clock(entry) || ev->seq < 0 || ev->seq >= c->after_cap)
        return;
    c->after[ev->seq][0] = ev->at_ms;
    for (int s = 0; s < 2; s++) {
        /* A log from before clocks, or a damaged one: the last time known. */
        long long left = ev->clock_ms[s];
        c->after[ev->seq][1 + s] = left >= 0 ? left : c->left_ms[s];
        c->left_ms[s] = c->after[ev->seq][1 + s];
    }
    c->turn_start_ms = ev->at_ms;
    if (ev->kind == STORE_FLAG)
        c->flagged = (signed char)ev->mark;
}

/* Whether x's first move is awaited against a deadline: a human x in a
 * game whose seats are both taken (a rated game waiting for its second
 * account has an o without a name until one joins). A bot x moves by
 * itself. */
static int awaits_first_move(const struct game_entry *entry)
{
    char name[1];
    size_t len = 0;
    if (!entry->clock.after || entry->events != 0 || entry->kind[0] != SEAT_HUMAN ||
        ttt_state(entry->game) != TTT_IN_PROGRESS)
        return 0;
    if (entry->rated)
        (void)ttt_game_get_name(entry->game, TTT_O, name, sizeof name, &len);
    return !entry->rated || len > 0;
}

/* When x's first move is due, or 0 if it is not awaited: the window began
 * at turn_start_ms (when both seats were taken: the game's creation or the
 * join, stored, so a restart resumes it) and lasts the smaller of x's time
 * and 30 s, or a correspondence move's days. */
static long long first_move_deadline(const struct game_entry *entry)
{
    const struct game_clock *c = &entry->clock;
    if (!awaits_first_move(entry) || c->turn_start_ms <= 0)
        return 0;
    long long window = full_ms(&c->tc);
    if (!c->tc.days_per_move && window > FIRST_MOVE_MAX_MS)
        window = FIRST_MOVE_MAX_MS;
    return c->turn_start_ms + window;
}

/* Whether the side to move's clock runs: from the first move on (x's first
 * move takes no time; it is due within a window instead, see
 * first_move_deadline). */
static int clock_runs(const struct game_entry *entry)
{
    return entry->clock.after && entry->events > 0 &&
           ttt_state(entry->game) == TTT_IN_PROGRESS;
}

/* The side to move's time left by now (never below 0). */
static long long running_left(const struct game_entry *entry, int mark, long long now)
{
    const struct game_clock *c = &entry->clock;
    long long used = entry->events > 0 ? now - c->turn_start_ms : 0;
    long long left = c->left_ms[seat_index(mark)] - (used > 0 ? used : 0);
    return left > 0 ? left : 0;
}

int clock_out_of_time(const struct game_entry *entry, int mark, long long now)
{
    if (!has_clock(entry))
        return 0;
    if (entry->events == 0) {
        long long due = first_move_deadline(entry);
        return due != 0 && now >= due;
    }
    return running_left(entry, mark, now) <= 0;
}

void clock_for_event(const struct game_entry *entry, struct store_event *ev)
{
    const struct game_clock *c = &entry->clock;
    if (!has_clock(entry)) {
        ev->clock_ms[0] = ev->clock_ms[1] = -1;
        return;
    }
    /* The side whose clock ran until ev: x at even plies (an ending's seq
     * is the ply it ends at). */
    int mover = ev->kind == STORE_MOVE ? ev->mark : ev->seq % 2 == 0 ? TTT_X : TTT_O;
    for (int s = 0; s < 2; s++)
        ev->clock_ms[s] = c->left_ms[s];
    int i = seat_index(mover);
    if (ev->kind == STORE_FLAG)
        ev->clock_ms[i] = 0;
    else if (ev->kind != STORE_MOVE)
        ev->clock_ms[i] = running_left(entry, mover, ev->at_ms);
    else if (c->tc.days_per_move)
        ev->clock_ms[i] = full_ms(&c->tc); /* the next move has the whole time again */
    else
        ev->clock_ms[i] = running_left(entry, mover, ev->at_ms) + c->tc.increment_s * 1000LL;
}

/* Files entry's deadline (0: the game is over, the timer lets it go) for
 * the timer thread; with timer_lock held. O(1): the thread sorts it into
 * the heap, woken only if it would sleep past it. */
static void file_deadline(struct manager *mgr, struct game_entry *entry, long long deadline)
{
    struct game_clock *c = &entry->clock;
    c->deadline_ms = deadline;
    if (!c->pending) {
        c->pending = 1;
        c->pending_next = mgr->timer_pending;
        mgr->timer_pending = entry;
    }
    /* An ended game is let go in batches (a wake a game would cost a
     * context switch per game ending): at most ENDS_BATCH of them wait. */
    if (deadline == 0 ? ++mgr->timer_ends >= ENDS_BATCH : deadline < mgr->timer_wakes_ms)
        pthread_cond_signal(&mgr->timer_wake);
}

/* The deadline of the side to move, or 0 once the game is over. */
static long long deadline_of(const struct game_entry *entry)
{
    int mark = ttt_to_move(entry->game);
    if (entry->events == 0)
        return first_move_deadline(entry);
    if (!clock_runs(entry) || mark == TTT_EMPTY)
        return 0;
    long long d = entry->clock.turn_start_ms + entry->clock.left_ms[seat_index(mark)];
    return d > 0 ? d : 1;
}

/* Files entry's deadline; the timer holds the game from its clock's first
 * deadline until it files the end (released by the timer thread). */
static void file_clock(struct manager *mgr, struct game_entry *entry)
{
    long long deadline = deadline_of(entry);
    if (!entry->clock.held) {
        if (deadline == 0)
            return;
        manager_hold(mgr, entry);
        entry->clock.held = 1;
    }
    pthread_mutex_lock(&mgr->timer_lock);
    if (deadline != 0 || entry->clock.deadline_ms != 0) /* the end is filed once */
        file_deadline(mgr, entry, deadline);
    pthread_mutex_unlock(&mgr->timer_lock);
}

void clock_committed(struct manager *mgr, struct game_entry *entry, const struct store_event *ev)
{
    if (!has_clock(entry))
        return;
    if (ev)
        clock_replayed(entry, ev);
    file_clock(mgr, entry);
}

void clock_seated(struct manager *mgr, struct game_entry *entry, long long now)
{
    if (!has_clock(entry) || entry->events != 0)
        return;
    entry->clock.turn_start_ms = now;
    file_clock(mgr, entry);
}

void clock_resume(struct manager *mgr, struct game_entry *entry, long long now)
{
    struct game_clock *c = &entry->clock;
    if (!has_clock(entry) || ttt_state(entry->game) != TTT_IN_PROGRESS)
        return;
    /* The turn ran from its last event (before the first move, x's window
     * from the seating) until the server's last stored write (of any game)
     * at least; what came after is not charged. */
    long long charged = c->turn_start_ms > 0 && mgr->alive_ms > c->turn_start_ms
                        ? mgr->alive_ms - c->turn_start_ms : 0;
    c->turn_start_ms = now - charged;
    file_clock(mgr, entry);
}

void clock_loaded(struct manager *mgr, struct game_entry *entry, long long now)
{
    if (!has_clock(entry) || ttt_state(entry->game) != TTT_IN_PROGRESS)
        return;
    /* The turn runs from its last stored event (another server's clock ran
     * meanwhile); x's first-move window from the stored seating, or, untold
     * (a game stored before it was kept), whole from now. */
    if (entry->events == 0 && entry->clock.turn_start_ms <= 0)
        entry->clock.turn_start_ms = now;
    file_clock(mgr, entry);
}

/* Whether side mark can still complete a line: some run of k cells (a row,
 * a column or a diagonal) holds none of the other side's marks. The rules'
 * no-line test (TTT_RULE_EARLY_DRAW) asked of one side. */
static int can_make_line(const ttt_game *game, int mark)
{
    int w = ttt_width(game), h = ttt_height(game), k = ttt_win_length(game);
    size_t n = (size_t)w * (size_t)h, len = 0;
    int8_t *cells = malloc(n);
    if (!cells || ttt_board(game, cells, n, &len) != TTT_OK) {
        free(cells);
        return 1; /* unknown: the usual result, a loss on time */
    }
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int found = 0;
    for (int r = 0; r < h && !found; r++)
        for (int col = 0; col < w && !found; col++)
            for (int d = 0; d < 4 && !found; d++) {
                int er = r + dirs[d][0] * (k - 1), ec = col + dirs[d][1] * (k - 1);
                if (er < 0 || er >= h || ec < 0 || ec >= w)
                    continue;
                int open = 1;
                for (int i = 0; i < k && open; i++)
                    open = cells[(r + dirs[d][0] * i) * w + col + dirs[d][1] * i] != -mark;
                found = open;
            }
    free(cells);
    return found;
}

int clock_apply_flag(struct game_entry *entry, int mark)
{
    int rc = can_make_line(entry->game, -mark) ? ttt_resign(entry->game, mark, NULL)
                                               : ttt_agree_draw(entry->game, NULL);
    if (rc == TTT_OK)
        entry->clock.flagged = (signed char)mark;
    return rc;
}

int clock_flag_locked(struct manager *mgr, struct game_entry *entry, int mark, long long now)
{
    int ply = ttt_ply(entry->game);
    if (clock_apply_flag(entry, mark) != TTT_OK)
        return 0;
    struct store_event ev = {ply, STORE_FLAG, mark, -1, 0, now, {-1, -1}};
    clock_for_event(entry, &ev);
    int stored = manager_store_event(mgr, entry, &ev);
    if (stored != 0) {
        ttt_undo(entry->game);
        entry->clock.flagged = 0;
        /* Another server (a shared store) stored this entry first, its own
         * flag or a move: the log as it stands decides. */
        if (stored == STORE_CONFLICT && manager_catch_up(mgr, entry) > 0)
            return 0;
        return 1;
    }
    game_changed(mgr, entry, ev.finish_order);
    clock_committed(mgr, entry, &ev);
    return 0;
}

static void clock_members(struct text *t, const struct game_clock *c, long long x, long long o,
                          int running)
{
    if (c->tc.days_per_move) {
        text_str(t, ",\"clock\":{\"days_per_move\":");
        text_int(t, c->tc.days_per_move);
    } else {
        text_str(t, ",\"clock\":{\"initial_s\":");
        text_int(t, c->tc.initial_s);
        text_str(t, ",\"increment_s\":");
        text_int(t, c->tc.increment_s);
    }
    text_str(t, "},\"clock_ms\":{\"x\":");
    text_int(t, x);
    text_str(t, ",\"o\":");
    text_int(t, o);
    text_str(t, "},\"clock_running\":");
    text_mark(t, running);
}

void clock_text(struct text *t, const struct game_entry *entry, const ttt_game *game,
                long long now)
{
    const struct game_clock *c = &entry->clock;
    if (!has_clock(entry))
        return;
    int ply = ttt_ply(game), ending = ttt_ending(game);
    int events = ply + (ending == TTT_END_RESIGN || ending == TTT_END_AGREED);
    if (game == entry->game && ttt_state(game) == TTT_IN_PROGRESS) {
        int mark = ttt_to_move(game);
        long long left = running_left(entry, mark, now);
        clock_members(t, c, mark == TTT_X ? left : c->left_ms[0],
                      mark == TTT_O ? left : c->left_ms[1],
                      clock_runs(entry) ? mark : TTT_EMPTY);
        /* While x's first move is awaited: the time left for it. */
        long long due = entry->events == 0 ? first_move_deadline(entry) : 0;
        if (due != 0) {
            text_str(t, ",\"first_move_ms\":");
            text_int(t, due > now ? due - now : 0);
        }
    } else if (events > 0 && events <= c->after_cap) {
        /* A finished game, or an earlier ply: as it stood after that entry. */
        const long long *after = c->after[events - 1];
        int running = ttt_state(game) == TTT_IN_PROGRESS ? ttt_to_move(game) : TTT_EMPTY;
        clock_members(t, c, after[1], after[2], running);
    } else {
        long long full = full_ms(&c->tc);
        clock_members(t, c, full, full, TTT_EMPTY); /* before the first move */
    }
}

void clock_event_json(json_t *obj, const struct game_entry *entry, int seq, int over)
{
    const struct game_clock *c = &entry->clock;
    if (!has_clock(entry) || seq < 0 || seq >= c->after_cap)
        return;
    json_object_set_new(obj, "clock_ms", json_pack("{s:I, s:I}", "x",
                        (json_int_t)c->after[seq][1], "o", (json_int_t)c->after[seq][2]));
    /* After entry seq, the side to move is o after x's moves: seq even. */
    json_object_set_new(obj, "clock_running", over ? json_null()
                                                   : mark_json(seq % 2 == 0 ? TTT_O : TTT_X));
}

/* The heap: games by the deadline filed into it (a node's own key, so that
 * a deadline a move changes moves the node only when the thread sorts it
 * in), earliest first; heap_pos is a game's index + 1. Under timer_lock. */
static int earlier(struct manager *mgr, size_t a, size_t b)
{
    return mgr->heap[a].at_ms < mgr->heap[b].at_ms;
}

static void heap_swap(struct manager *mgr, size_t a, size_t b)
{
    struct timer_node t = mgr->heap[a];
    mgr->heap[a] = mgr->heap[b];
    mgr->heap[b] = t;
    mgr->heap[a].entry->clock.heap_pos = a + 1;
    mgr->heap[b].entry->clock.heap_pos = b + 1;
}

static void heap_fix(struct manager *mgr, size_t i)
{
    while (i > 0 && earlier(mgr, i, (i - 1) / 2)) {
        heap_swap(mgr, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, least = i;
        if (l < mgr->heap_len && earlier(mgr, l, least))
            least = l;
        if (r < mgr->heap_len && earlier(mgr, r, least))
            least = r;
        if (least == i)
            return;
        heap_swap(mgr, i, least);
        i = least;
    }
}

static void heap_remove(struct manager *mgr, struct game_entry *entry)
{
    size_t i = entry->clock.heap_pos - 1;
    entry->clock.heap_pos = 0;
    mgr->heap_len--;
    if (i == mgr->heap_len)
        return;
    mgr->heap[i] = mgr->heap[mgr->heap_len];
    mgr->heap[i].entry->clock.heap_pos = i + 1;
    heap_fix(mgr, i);
}

/* Sorts the pending deadlines into the heap; the games that ended go, and
 * are returned (still held) for the caller to release without the lock. */
static struct game_entry *drain_pending(struct manager *mgr)
{
    struct game_entry *done = NULL;
    mgr->timer_ends = 0;
    while (mgr->timer_pending) {
        struct game_entry *e = mgr->timer_pending;
        mgr->timer_pending = e->clock.pending_next;
        e->clock.pending = 0;
        if (e->clock.deadline_ms == 0) {
            if (e->clock.heap_pos)
                heap_remove(mgr, e);
            e->clock.pending_next = done;
            done = e;
        } else if (e->clock.heap_pos) {
            mgr->heap[e->clock.heap_pos - 1].at_ms = e->clock.deadline_ms;
            heap_fix(mgr, e->clock.heap_pos - 1);
        } else {
            if (mgr->heap_len == mgr->heap_cap) {
                size_t cap = mgr->heap_cap ? 2 * mgr->heap_cap : 1024;
                struct timer_node *grown = realloc(mgr->heap, cap * sizeof *grown);
                if (!grown) {
                    /* Kept pending: tried again at the next wake. */
                    e->clock.pending = 1;
                    e->clock.pending_next = mgr->timer_pending;
                    mgr->timer_pending = e;
                    break;
                }
                mgr->heap = grown;
                mgr->heap_cap = cap;
            }
            mgr->heap[mgr->heap_len++] = (struct timer_node){e->clock.deadline_ms, e};
            e->clock.heap_pos = mgr->heap_len;
            heap_fix(mgr, mgr->heap_len - 1);
        }
    }
    return done;
}

/* The game's deadline came: its side to move flags, unless a move came
 * first (its new deadline is filed then). */
static void deadline_reached(struct manager *mgr, struct game_entry *entry)
{
    pthread_mutex_lock(&entry->lock);
    long long now = wall_ms();
    int mark = ttt_to_move(entry->game);
    if (ttt_state(entry->game) == TTT_IN_PROGRESS && clock_out_of_time(entry, mark, now) &&
        clock_flag_locked(mgr, entry, mark, now) != 0) {
        pthread_mutex_lock(&mgr->timer_lock);
        file_deadline(mgr, entry, now + FLAG_RETRY_MS);
        pthread_mutex_unlock(&mgr->timer_lock);
    } else if (ttt_state(entry->game) == TTT_IN_PROGRESS) {
        pthread_mutex_lock(&mgr->timer_lock);
        if (!entry->clock.pending && !entry->clock.heap_pos)
            file_deadline(mgr, entry, deadline_of(entry));
        pthread_mutex_unlock(&mgr->timer_lock);
    }
    pthread_mutex_unlock(&entry->lock);
}

static void *timer_main(void *arg)
{
    struct manager *mgr = arg;
    pthread_mutex_lock(&mgr->timer_lock);
    while (!mgr->timer_stopping) {
        struct game_entry *done = drain_pending(mgr);
        if (done) {
            pthread_mutex_unlock(&mgr->timer_lock);
            while (done) {
                struct game_entry *next = done->clock.pending_next;
                manager_release(mgr, done);
                done = next;
            }
            pthread_mutex_lock(&mgr->timer_lock);
            continue;
        }
        long long now = wall_ms();
        if (mgr->heap_len > 0 && mgr->heap[0].at_ms <= now) {
            struct game_entry *e = mgr->heap[0].entry;
            heap_remove(mgr, e);
            pthread_mutex_unlock(&mgr->timer_lock);
            deadline_reached(mgr, e);
            pthread_mutex_lock(&mgr->timer_lock);
            continue;
        }
        if (mgr->timer_pending)
            continue;
        mgr->timer_wakes_ms = mgr->heap_len > 0 ? mgr->heap[0].at_ms : LLONG_MAX;
        if (mgr->timer_wakes_ms == LLONG_MAX) {
            pthread_cond_wait(&mgr->timer_wake, &mgr->timer_lock);
        } else {
            struct timespec until = {(time_t)(mgr->timer_wakes_ms / 1000),
                                     (long)(mgr->timer_wakes_ms % 1000) * 1000000L};
            pthread_cond_timedwait(&mgr->timer_wake, &mgr->timer_lock, &until);
        }
        mgr->timer_wakes_ms = LLONG_MIN; /* awake: nobody need signal */
    }
    pthread_mutex_unlock(&mgr->timer_lock);
    return NULL;
}

int clock_timer_start(struct manager *mgr)
{
    /* The games loaded (the table holds only games in progress now). */
    long long now = wall_ms();
    for (size_t i = 0; i <= mgr->mask; i++)
        if (mgr->slots[i])
            clock_resume(mgr, mgr->slots[i], now);
    if (pthread_create(&mgr->timer_thread, NULL, timer_main, mgr) != 0)
        return -1;
    mgr->timer_started = 1;
    return 0;
}

void clock_timer_stop(struct manager *mgr)
{
    pthread_mutex_lock(&mgr->timer_lock);
    mgr->timer_stopping = 1;
    pthread_cond_signal(&mgr->timer_wake);
    pthread_mutex_unlock(&mgr->timer_lock);
    if (mgr->timer_started)
        pthread_join(mgr->timer_thread, NULL);
    mgr->timer_started = 0;
    free(mgr->heap);
    mgr->heap = NULL;
    mgr->heap_len = mgr->heap_cap = 0;
}
