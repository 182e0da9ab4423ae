/* view.c - JSON views of a game and the error replies, built only from libttt's public API. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manager.h"

/* libttt has ttt_strerror for messages but no call for a status's name, so
 * the names of ttt.h's codes are listed here (TTT_OK .. TTT_E_COLUMN_FULL). */
static const char *const status_names[] = {
    "TTT_OK", "TTT_E_INVALID", "TTT_E_NOMEM", "TTT_E_SIZE", "TTT_E_MARK",
    "TTT_E_OFF_BOARD", "TTT_E_OCCUPIED", "TTT_E_WRONG_TURN", "TTT_E_GAME_OVER",
    "TTT_E_NO_UNDO", "TTT_E_NO_REDO", "TTT_E_RULE", "TTT_E_RULES_LOCKED",
    "TTT_E_PARSE", "TTT_E_BUFFER", "TTT_E_NO_LINE", "TTT_E_RANGE", "TTT_E_STALE",
    "TTT_E_BUDGET", "TTT_E_OVERFLOW", "TTT_E_IN_LISTENER", "TTT_E_NAME",
    "TTT_E_FLOATING", "TTT_E_COLUMN_FULL",
};

static const char *status_name(int status)
{
    if (status <= 0 && -status < (int)(sizeof status_names / sizeof status_names[0]))
        return status_names[-status];
    return "TTT_E_UNKNOWN";
}

static struct reply vreply(int http, const char *status, int code, const char *fmt,
                           va_list ap)
{
    char message[256];
    vsnprintf(message, sizeof message, fmt, ap);
    json_t *body = json_pack("{s:s, s:s, s:i}", "error", message, "status", status,
                             "code", code);
    return (struct reply){http, body, NULL};
}

struct reply error_reply(int http, const char *status, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct reply r = vreply(http, status, code, fmt, ap);
    va_end(ap);
    return r;
}

struct reply ttt_error_reply(int http, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct reply r = vreply(http, status_name(status), status, fmt, ap);
    va_end(ap);
    return r;
}

json_t *mark_json(int mark)
{
    return mark == TTT_X ? json_string("x") : mark == TTT_O ? json_string("o") : json_null();
}

const char *state_name(int state)
{
    switch (state) {
    case TTT_X_WON: return "x_won";
    case TTT_O_WON: return "o_won";
    case TTT_DRAW: return "draw";
    default: return "in_progress";
    }
}

const char *ending_name(int ending)
{
    switch (ending) {
    case TTT_END_LINE: return "line";
    case TTT_END_FULL_BOARD: return "full_board";
    case TTT_END_NO_LINE: return "no_line";
    case TTT_END_RESIGN: return "resign";
    case TTT_END_AGREED: return "agreed";
    case TTT_END_PLY_LIMIT: return "ply_limit";
    default: return NULL;
    }
}

const char *entry_ending_name(const struct game_entry *entry, const ttt_game *game)
{
    int ending = ttt_ending(game);
    /* A flag fall is played into libttt as a resignation or a draw. */
    if (entry->clock.flagged && (ending == TTT_END_RESIGN || ending == TTT_END_AGREED))
        return "time";
    return ending_name(ending);
}

json_t *cell_json(int row, int col)
{
    char name[16];
    size_t len;
    if (ttt_cell_name(row, col, name, sizeof name, &len) != TTT_OK)
        return json_null();
    return json_stringn(name, len);
}

static const char *const kind_names[] = {"human", "random", "strong", "perfect"};

const char *kind_name(int kind)
{
    return kind_names[kind & 3];
}

int kind_from_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, kind_names[i]) == 0)
            return i;
    return -1;
}

char *record_of(const ttt_game *game)
{
    size_t len = 0;
    if (ttt_game_save(game, NULL, 0, &len) != TTT_E_BUFFER)
        return NULL;
    char *text = malloc(len + 1);
    if (text && ttt_game_save(game, text, len + 1, &len) != TTT_OK) {
        free(text);
        return NULL;
    }
    return text;
}

static void text_reserve(struct text *t, size_t more)
{
    if (t->failed || t->len + more < t->cap)
        return;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap <= t->len + more)
        cap *= 2;
    char *grown = realloc(t->data, cap);
    if (!grown) {
        t->failed = 1;
        return;
    }
    t->data = grown;
    t->cap = cap;
}

void text_add(struct text *t, const char *s, size_t len)
{
    text_reserve(t, len);
    if (t->failed)
        return;
    memcpy(t->data + t->len, s, len);
    t->len += len;
    t->data[t->len] = '\0';
}

void text_str(struct text *t, const char *s)
{
    text_add(t, s, strlen(s));
}

void text_int(struct text *t, long long v)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld", v);
    text_add(t, digits, (size_t)n);
}

/* Escaped as jansson writes a string: quote, backslash and control
 * characters; UTF-8 (checked by libttt for names) passes as it is. */
void text_string(struct text *t, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    text_reserve(t, len + 2);
    text_add(t, "\"", 1);
    size_t plain = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        text_add(t, s + plain, i - plain);
        plain = i + 1;
        char esc[7] = {'\\', (char)c, 0};
        size_t n = 2;
        switch (c) {
        case '"': case '\\': break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        text_add(t, esc, n);
    }
    text_add(t, s + plain, len - plain);
    text_add(t, "\"", 1);
}

void text_cell(struct text *t, int row, int col)
{
    char name[16];
    size_t len;
    if (ttt_cell_name(row, col, name, sizeof name, &len) != TTT_OK)
        text_str(t, "null");
    else
        text_string(t, name, len);
}

void text_mark(struct text *t, int mark)
{
    text_str(t, mark == TTT_X ? "\"x\"" : mark == TTT_O ? "\"o\"" : "null");
}

static void text_bool(struct text *t, int v)
{
    text_str(t, v ? "true" : "false");
}

void state_text(struct text *t, const struct game_entry *entry, const ttt_game *game)
{
    int width = ttt_width(game), height = ttt_height(game), ply = ttt_ply(game);
    int misere = 0, early = 0, limit = 0, gravity = 0;
    ttt_game_get_rule(game, TTT_RULE_MISERE, &misere);
    ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &early);
    ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &limit);
    ttt_game_get_rule(game, TTT_RULE_GRAVITY, &gravity);

    text_str(t, "{\"id\":");
    text_string(t, entry->id, strlen(entry->id));
    text_str(t, ",\"width\":");
    text_int(t, width);
    text_str(t, ",\"height\":");
    text_int(t, height);
    text_str(t, ",\"k\":");
    text_int(t, ttt_win_length(game));
    text_str(t, ",\"gravity\":");
    text_bool(t, gravity);
    text_str(t, ",\"rules\":{\"misere\":");
    text_bool(t, misere);
    text_str(t, ",\"early_draw\":");
    text_bool(t, early);
    text_str(t, ",\"ply_limit\":");
    text_int(t, limit);
    text_str(t, "},\"rated\":");
    text_bool(t, entry->rated);
    text_str(t, ",\"ply\":");
    text_int(t, ply);
    text_str(t, ",\"to_move\":");
    text_mark(t, ttt_to_move(game));
    text_str(t, ",\"state\":\"");
    text_str(t, state_name(ttt_state(game)));
    const char *ending = entry_ending_name(entry, game);
    text_str(t, ending ? "\",\"ending\":\"" : "\",\"ending\":null");
    if (ending) {
        text_str(t, ending);
        text_str(t, "\"");
    }
    clock_text(t, entry, game, wall_ms());

    char names[2][TTT_NAME_MAX + 1];
    size_t name_len[2];
    for (int s = 0; s < 2; s++)
        if (ttt_game_get_name(game, s == 0 ? TTT_X : TTT_O, names[s], sizeof names[s],
                              &name_len[s]) != TTT_OK)
            names[s][0] = '\0', name_len[s] = 0;
    text_str(t, ",\"names\":{\"x\":");
    text_string(t, names[0], name_len[0]);
    text_str(t, ",\"o\":");
    text_string(t, names[1], name_len[1]);
    for (int s = 0; s < 2; s++) {
        text_str(t, s == 0 ? "},\"players\":{\"x\":{\"name\":" : "},\"o\":{\"name\":");
        text_string(t, names[s], name_len[s]);
        text_str(t, ",\"kind\":\"");
        text_str(t, kind_name(entry->kind[s]));
        text_str(t, "\"");
    }

    text_str(t, "}},\"board\":[");
    size_t cells_len = (size_t)width * (size_t)height, len = 0;
    int8_t *cells = malloc(cells_len);
    if (!cells || ttt_board(game, cells, cells_len, &len) != TTT_OK)
        t->failed = 1;
    for (int r = 0; !t->failed && r < height; r++) {
        text_str(t, r ? ",\"" : "\"");
        text_reserve(t, (size_t)width + 1);
        for (int c = 0; !t->failed && c < width; c++) {
            int8_t m = cells[r * width + c];
            t->data[t->len++] = m == TTT_X ? 'x' : m == TTT_O ? 'o' : '.';
        }
        text_str(t, "\"");
    }
    free(cells);

    text_str(t, "],\"moves\":[");
    int last_row = -1, last_col = -1;
    for (int p = 0; p < ply; p++) {
        if (ttt_move_at(game, p, NULL, &last_row, &last_col) != TTT_OK)
            t->failed = 1;
        if (p)
            text_str(t, ",");
        text_cell(t, last_row, last_col);
    }
    text_str(t, "],\"legal\":[");
    int32_t *list = malloc(cells_len * sizeof *list);
    size_t n = 0;
    if (list && ttt_legal_moves(game, list, cells_len, &n) == TTT_OK)
        for (size_t i = 0; i < n; i++) {
            if (i)
                text_str(t, ",");
            text_cell(t, list[i] / width, list[i] % width);
        }
    free(list);
    text_str(t, "],\"last_move\":");
    if (ply > 0)
        text_cell(t, last_row, last_col);
    else
        text_str(t, "null");

    text_str(t, ",\"winning_line\":");
    int r0, c0, r1, c1;
    if (ttt_winning_line(game, &r0, &c0, &r1, &c1) == TTT_OK) {
        text_str(t, "[");
        text_cell(t, r0, c0);
        text_str(t, ",");
        text_cell(t, r1, c1);
        text_str(t, "]");
    } else {
        text_str(t, "null");
    }
    text_str(t, ",\"record\":");
    char *record = record_of(game);
    if (record)
        text_string(t, record, strlen(record));
    else
        text_str(t, "null");
    free(record);
}

struct reply text_reply(int http, struct text *t)
{
    text_str(t, "}");
    if (t->failed) {
        free(t->data);
        return error_reply(503, "out_of_memory", 503, "out of memory");
    }
    return (struct reply){http, NULL, t->data};
}
