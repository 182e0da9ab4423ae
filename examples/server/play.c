/* play.c - moves, resignations and draw offers made durable before they are answered, and event streams. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manager.h"

int game_seat_for_token(const struct game_entry *entry, const char *token, size_t len)
{
    int seat = 0;
    for (int s = 0; s < 2; s++) {
        const char *own = entry->token[s];
        /* Every byte is compared whatever differs first; a bot seat has no
         * token and matches nothing. */
        unsigned diff = (len != TOKEN_LEN) | (own[0] == '\0');
        for (size_t i = 0; i < TOKEN_LEN; i++)
            diff |= (unsigned)(unsigned char)own[i] ^
                    (unsigned)(unsigned char)(i < len ? token[i] : 0);
        if (diff == 0)
            seat = s == 0 ? TTT_X : TTT_O;
    }
    return seat;
}

long long wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void game_changed(struct manager *mgr, struct game_entry *entry, long long finish_order)
{
    entry->events++;
    entry->draw_offer = 0;
    if (finish_order)
        entry->finish_order = finish_order;
    pthread_cond_broadcast(&entry->changed);
    bot_enqueue(mgr, entry);
}

int play_locked(struct manager *mgr, struct game_entry *entry, int ply, int mark, int row,
                int col)
{
    int before = ttt_ply(entry->game);
    long long now = wall_ms();
    /* A move that comes after its side's time ran out (before the timer
     * told) ends the game on time instead. */
    if (ply == before && mark == ttt_to_move(entry->game) &&
        ttt_state(entry->game) == TTT_IN_PROGRESS && clock_out_of_time(entry, mark, now))
        return clock_flag_locked(mgr, entry, mark, now) == 0 ? TTT_E_GAME_OVER : 1;
    int rc = ttt_play_at(entry->game, ply, mark, row, col, NULL);
    /* A ply past this copy's, on a shared store: another server may have
     * stored the plies between since the request found the game. */
    if (rc == TTT_E_STALE && ply > before && mgr->limits.shared) {
        int read = manager_catch_up(mgr, entry);
        if (read > 0)
            return play_locked(mgr, entry, ply, mark, row, col);
        if (read < 0)
            return 1; /* the store cannot say: not a 409 */
    }
    if (rc != TTT_OK || ply != before)
        return rc; /* rejected, or a retry of a move already stored */
    struct store_event ev = {before, STORE_MOVE, mark, row * ttt_width(entry->game) + col,
                             0, now, {-1, -1}};
    clock_for_event(entry, &ev);
    int stored = manager_store_event(mgr, entry, &ev);
    if (stored != 0) {
        ttt_undo(entry->game);
        /* Another server stored this ply first: read what it stored and
         * answer from that (the same 200 for the same move, else 409). */
        if (stored == STORE_CONFLICT && manager_catch_up(mgr, entry) > 0)
            return play_locked(mgr, entry, ply, mark, row, col);
        return 1;
    }
    atomic_fetch_add(&mgr->moves_acked, 1);
    game_changed(mgr, entry, ev.finish_order);
    clock_committed(mgr, entry, &ev);
    return TTT_OK;
}

/* The reply to the move at ply: the state right after it, the same
 * whatever happened since, so a retried request gets the same answer. */
static struct reply move_reply(struct game_entry *entry, int ply)
{
    const ttt_game *game = entry->game;
    ttt_game *copy = NULL;
    int ending = ttt_ending(game);
    if (ttt_ply(game) != ply + 1 || ending == TTT_END_RESIGN || ending == TTT_END_AGREED) {
        if (ttt_game_clone(game, &copy) != TTT_OK)
            return error_reply(503, "out_of_memory", 503, "out of memory");
        /* Bounded: each undo takes back one move or the ending. */
        for (int guard = ttt_ply(copy) + 1; guard > 0; guard--) {
            int e = ttt_ending(copy);
            if (ttt_ply(copy) == ply + 1 && e != TTT_END_RESIGN && e != TTT_END_AGREED)
                break;
            ttt_undo(copy);
        }
        game = copy;
    }
    int mark, row, col;
    ttt_move_at(game, ply, &mark, &row, &col);
    struct text t = {0};
    state_text(&t, entry, game);
    text_str(&t, ",\"move\":{\"ply\":");
    text_int(&t, ply);
    text_str(&t, ",\"cell\":");
    text_cell(&t, row, col);
    text_str(&t, ",\"mark\":");
    text_mark(&t, mark);
    text_str(&t, "}");
    ttt_game_free(copy);
    return text_reply(200, &t);
}

/* The state of entry's game, with extra members (a JSON text that starts
 * with a comma, or ""). */
static struct reply state_reply(const struct game_entry *entry, const char *extra)
{
    struct text t = {0};
    state_text(&t, entry, entry->game);
    text_str(&t, extra);
    return text_reply(200, &t);
}

static struct reply stale_reply(struct game_entry *entry, int ply)
{
    int now = ttt_ply(entry->game), mark, row, col;
    if (ply >= now)
        return ttt_error_reply(409, TTT_E_STALE, "ply %d is ahead of the game, which is at ply %d",
                               ply, now);
    ttt_move_at(entry->game, ply, &mark, &row, &col);
    char name[16];
    size_t len;
    ttt_cell_name(row, col, name, sizeof name, &len);
    struct reply r = ttt_error_reply(409, TTT_E_STALE, "ply %d was already played: %s at %s",
                                     ply, mark == TTT_X ? "x" : "o", name);
    json_object_set_new(r.body, "move", json_pack("{s:i, s:s, s:o}", "ply", ply, "cell", name,
                                                  "mark", mark_json(mark)));
    json_object_set_new(r.body, "ply", json_integer(now));
    return r;
}

/* Parses "d" (or "aa") as a column number; -1 if it is not one. */
static int parse_column(const char *text, int width)
{
    long col = 0;
    if (!*text)
        return -1;
    for (; *text; text++) {
        if (*text < 'a' || *text > 'z' || col > TTT_MAX_SIZE)
            return -1;
        col = col * 26 + (*text - 'a' + 1);
    }
    return col - 1 < width ? (int)col - 1 : -2;
}

struct reply game_move(struct manager *mgr, struct game_entry *entry, int mark, json_t *req)
{
    if (!json_is_object(req))
        return error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "the body must be a JSON object");
    json_t *jply = json_object_get(req, "ply"), *jcell = json_object_get(req, "cell");
    json_t *jcolumn = json_object_get(req, "column");
    if (!json_is_integer(jply))
        return error_reply(400, "TTT_E_INVALID", TTT_E_INVALID, "ply must be an integer");
    json_int_t ply = json_integer_value(jply);
    if (ply < 0 || ply > INT_MAX)
        return ttt_error_reply(422, TTT_E_RANGE, "ply is out of range");
    if (!jcell == !jcolumn || (jcell && !json_is_string(jcell)) ||
        (jcolumn && !json_is_string(jcolumn)))
        return error_reply(400, "TTT_E_INVALID", TTT_E_INVALID,
                           "give a cell name as \"cell\", or a column letter as \"column\"");
    int row = -1, col = -1, width = ttt_width(entry->game);
    if (jcell) {
        const char *text = json_string_value(jcell);
        size_t len = json_string_length(jcell), used = 0;
        if (ttt_parse_cell(text, len, &row, &col, &used) != TTT_OK || used != len)
            return ttt_error_reply(422, TTT_E_PARSE, "\"%.20s\" is not a cell name", text);
        if (row >= ttt_height(entry->game) || col >= width)
            return ttt_error_reply(422, TTT_E_OFF_BOARD, "%s", ttt_strerror(TTT_E_OFF_BOARD));
    } else {
        col = parse_column(json_string_value(jcolumn), width);
        if (col == -1)
            return ttt_error_reply(422, TTT_E_PARSE, "a column is lower-case letters");
        if (col < 0)
            return ttt_error_reply(422, TTT_E_OFF_BOARD, "%s", ttt_strerror(TTT_E_OFF_BOARD));
    }

    pthread_mutex_lock(&entry->lock);
    /* A ply past this copy's (shared store): the plies other servers
     * stored first, so that a column lands where it does in the game. */
    if ((int)ply > ttt_ply(entry->game) && mgr->limits.shared &&
        manager_catch_up(mgr, entry) < 0) {
        pthread_mutex_unlock(&entry->lock);
        return error_reply(503, "store_failed", 503, "the store cannot be read; retry");
    }
    if (row < 0) {
        /* A column: the move is its landing cell at the ply asked for; at
         * another ply, the move that stands there decides (retry or 409). */
        int now = ttt_ply(entry->game), m, r, c;
        if ((int)ply < now && ttt_move_at(entry->game, (int)ply, &m, &r, &c) == TTT_OK &&
            c == col)
            row = r;
        for (int r2 = ttt_height(entry->game) - 1; row < 0 && r2 >= 0; r2--) {
            int cell;
            if (ttt_cell(entry->game, r2, col, &cell) == TTT_OK && cell == TTT_EMPTY)
                row = r2;
        }
        if (row < 0 && (int)ply == now && ttt_state(entry->game) == TTT_IN_PROGRESS) {
            pthread_mutex_unlock(&entry->lock);
            return ttt_error_reply(422, TTT_E_COLUMN_FULL, "%s", ttt_strerror(TTT_E_COLUMN_FULL));
        }
        if (row < 0)
            row = 0;
    }
    int rc = play_locked(mgr, entry, (int)ply, mark, row, col);
    struct reply r;
    if (rc == TTT_OK)
        r = move_reply(entry, (int)ply);
    else if (rc == 1)
        r = error_reply(503, "store_failed", 503, "the move could not be stored; retry it");
    else if (rc == TTT_E_STALE)
        r = stale_reply(entry, (int)ply);
    else if (rc == TTT_E_WRONG_TURN || rc == TTT_E_GAME_OVER)
        r = ttt_error_reply(409, rc, "%s", ttt_strerror(rc));
    else
        r = ttt_error_reply(422, rc, "%s", ttt_strerror(rc));
    pthread_mutex_unlock(&entry->lock);
    return r;
}

static struct reply draw_locked(struct manager *mgr, struct game_entry *entry, int mark);

static struct reply ending_locked(struct manager *mgr, struct game_entry *entry, int mark,
                                  int kind, const char *extra)
{
    long long now = wall_ms();
    int to_move = ttt_to_move(entry->game);
    /* The time ran out first (the timer had not told yet): that ends it. */
    if (ttt_state(entry->game) == TTT_IN_PROGRESS && clock_out_of_time(entry, to_move, now) &&
        clock_flag_locked(mgr, entry, to_move, now) != 0)
        return error_reply(503, "store_failed", 503, "the store failed; retry");
    int rc = kind == STORE_RESIGN ? ttt_resign(entry->game, mark, NULL)
                                  : ttt_agree_draw(entry->game, NULL);
    if (rc == TTT_E_GAME_OVER) {
        /* A retried request (after a lost answer or a restart) finds its
         * own ending in place and answers as the first time. */
        int ending = ttt_ending(entry->game), state = ttt_state(entry->game);
        int resigned = state == TTT_O_WON ? TTT_X : TTT_X_WON == state ? TTT_O : 0;
        if (!entry->clock.flagged &&
            ((kind == STORE_RESIGN && ending == TTT_END_RESIGN && resigned == mark) ||
             (kind == STORE_DRAW && ending == TTT_END_AGREED)))
            return state_reply(entry, extra);
    }
    if (rc != TTT_OK)
        return ttt_error_reply(409, rc, "%s", ttt_strerror(rc));
    struct store_event ev = {ttt_ply(entry->game), kind, kind == STORE_RESIGN ? mark : 0, -1,
                             0, now, {-1, -1}};
    clock_for_event(entry, &ev);
    int stored = manager_store_event(mgr, entry, &ev);
    if (stored != 0) {
        ttt_undo(entry->game);
        /* Another server stored an event first: answer from the log as it
         * stands (the same answer for the same ending, else per the game). */
        if (stored == STORE_CONFLICT && manager_catch_up(mgr, entry) > 0)
            return kind == STORE_RESIGN ? ending_locked(mgr, entry, mark, kind, extra)
                                        : draw_locked(mgr, entry, mark);
        return error_reply(503, "store_failed", 503, "the store failed; retry");
    }
    game_changed(mgr, entry, ev.finish_order);
    clock_committed(mgr, entry, &ev);
    return state_reply(entry, extra);
}

struct reply game_resign(struct manager *mgr, struct game_entry *entry, int mark)
{
    pthread_mutex_lock(&entry->lock);
    struct reply r = ending_locked(mgr, entry, mark, STORE_RESIGN, "");
    pthread_mutex_unlock(&entry->lock);
    return r;
}

/* A draw asked for by mark, with entry->lock held: agreed if the other side
 * offered one, else an offer. */
static struct reply draw_locked(struct manager *mgr, struct game_entry *entry, int mark)
{
    /* A game that ended on time is over, even as a draw. */
    if (ttt_state(entry->game) != TTT_IN_PROGRESS &&
        (ttt_ending(entry->game) != TTT_END_AGREED || entry->clock.flagged))
        return ttt_error_reply(409, TTT_E_GAME_OVER, "%s", ttt_strerror(TTT_E_GAME_OVER));
    if (ttt_state(entry->game) != TTT_IN_PROGRESS)
        return ending_locked(mgr, entry, mark, STORE_DRAW, ",\"draw\":\"agreed\"");
    if (mgr->limits.shared) {
        /* The store decides, for every server: the other side's offer at
         * this ply stands (agreed; the ending's key guards the ply), or
         * this offer is stored and told. */
        int stored = store_offer_draw(mgr->store, entry->id, mark, ttt_ply(entry->game));
        if (stored == STORE_CONFLICT)
            return ending_locked(mgr, entry, mark, STORE_DRAW, ",\"draw\":\"agreed\"");
        if (stored != STORE_OK)
            return error_reply(503, "store_failed", 503, "the store failed; retry");
    } else if (entry->draw_offer == -mark) {
        return ending_locked(mgr, entry, mark, STORE_DRAW, ",\"draw\":\"agreed\"");
    }
    /* An offer stands until either side moves. One server's SQLite store
     * does not keep it (a restart withdraws it); a shared store does. */
    entry->draw_offer = (signed char)mark;
    entry->offer_version++;
    pthread_cond_broadcast(&entry->changed);
    return state_reply(entry, mark == TTT_X ? ",\"draw\":\"offered\",\"draw_offer\":\"x\""
                                            : ",\"draw\":\"offered\",\"draw_offer\":\"o\"");
}

struct reply game_draw(struct manager *mgr, struct game_entry *entry, int mark)
{
    pthread_mutex_lock(&entry->lock);
    struct reply r = draw_locked(mgr, entry, mark);
    pthread_mutex_unlock(&entry->lock);
    return r;
}

struct reply game_view(struct manager *mgr, struct game_entry *entry)
{
    (void)mgr;
    pthread_mutex_lock(&entry->lock);
    struct reply r = state_reply(entry, entry->draw_offer == TTT_X ? ",\"draw_offer\":\"x\""
                                      : entry->draw_offer == TTT_O ? ",\"draw_offer\":\"o\""
                                      : ",\"draw_offer\":null");
    pthread_mutex_unlock(&entry->lock);
    return r;
}

char *game_record(struct game_entry *entry)
{
    pthread_mutex_lock(&entry->lock);
    char *text = record_of(entry->game);
    pthread_mutex_unlock(&entry->lock);
    return text;
}

static long format_event(char *buf, size_t cap, const char *event, int id, json_t *data)
{
    char *text = json_dumps(data, JSON_COMPACT);
    json_decref(data);
    if (!text)
        return -1;
    int n = id >= 0 ? snprintf(buf, cap, "id: %d\nevent: %s\ndata: %s\n\n", id, event, text)
                    : snprintf(buf, cap, "event: %s\ndata: %s\n\n", event, text);
    free(text);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

long stream_next(struct manager *mgr, struct game_entry *entry, struct stream_cursor *cur,
                 char *buf, size_t cap)
{
    long n = 0;
    pthread_mutex_lock(&entry->lock);
    const ttt_game *game = entry->game;
    int over = ttt_state(game) != TTT_IN_PROGRESS;
    if (cur->next_event >= ttt_ply(game) && !over &&
        cur->offer_seen == entry->offer_version && !manager_stopping(mgr)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&entry->changed, &entry->lock, &until);
        over = ttt_state(game) != TTT_IN_PROGRESS;
    }
    int ply = ttt_ply(game);
    if (cur->next_event < ply) {
        int p = cur->next_event, mark, row, col;
        ttt_move_at(game, p, &mark, &row, &col);
        int ending = ttt_ending(game);
        int ended_by_it = p == ply - 1 && over && ending != TTT_END_RESIGN &&
                          ending != TTT_END_AGREED;
        json_t *data = json_pack("{s:i, s:o, s:o, s:s}", "ply", p, "cell", cell_json(row, col),
                                 "mark", mark_json(mark), "state",
                                 ended_by_it ? state_name(ttt_state(game)) : "in_progress");
        if (data)
            clock_event_json(data, entry, p, ended_by_it);
        n = format_event(buf, cap, "move", p + 1, data);
        cur->next_event++;
    } else if (over && !cur->end_sent) {
        const char *ending = entry_ending_name(entry, game);
        json_t *line = json_null();
        int r0, c0, r1, c1;
        if (ttt_winning_line(game, &r0, &c0, &r1, &c1) == TTT_OK) {
            json_decref(line);
            line = json_pack("[o,o]", cell_json(r0, c0), cell_json(r1, c1));
        }
        json_t *data = json_pack("{s:i, s:s, s:s, s:o}", "ply", ply, "state",
                                 state_name(ttt_state(game)), "ending", ending ? ending : "",
                                 "winning_line", line);
        if (data) {
            int e = ttt_ending(game);
            clock_event_json(data, entry, ply - (e != TTT_END_RESIGN && e != TTT_END_AGREED), 1);
        }
        n = format_event(buf, cap, "end", ply, data);
        cur->end_sent = 1;
    } else if (cur->offer_seen != entry->offer_version) {
        cur->offer_seen = entry->offer_version;
        if (entry->draw_offer)
            n = format_event(buf, cap, "offer", -1, json_pack("{s:o}", "by",
                                                               mark_json(entry->draw_offer)));
    } else if (over || manager_stopping(mgr)) {
        n = -1;
    }
    pthread_mutex_unlock(&entry->lock);
    return n;
}
