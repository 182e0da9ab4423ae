/* view.c - JSON views of a game and the error replies, built only from libttt's public API. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"

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
    return (struct reply){http, body};
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

/* The state of game (entry's, or a copy of it at an earlier ply) as the
 * API shows it. */
json_t *state_json(const struct game_entry *entry, const ttt_game *game)
{
    int width = ttt_width(game), height = ttt_height(game), ply = ttt_ply(game);
    int rule, misere = 0, early = 0, limit = 0, gravity = 0;
    ttt_game_get_rule(game, TTT_RULE_MISERE, &misere);
    ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &early);
    ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &limit);
    ttt_game_get_rule(game, TTT_RULE_GRAVITY, &gravity);
    (void)rule;

    json_t *board = json_array();
    int8_t *cells = malloc((size_t)width * (size_t)height);
    size_t len = 0;
    if (cells && ttt_board(game, cells, (size_t)width * (size_t)height, &len) == TTT_OK) {
        char *line = malloc((size_t)width + 1);
        for (int r = 0; line && r < height; r++) {
            for (int c = 0; c < width; c++) {
                int8_t m = cells[r * width + c];
                line[c] = m == TTT_X ? 'x' : m == TTT_O ? 'o' : '.';
            }
            json_array_append_new(board, json_stringn(line, (size_t)width));
        }
        free(line);
    }
    free(cells);

    json_t *moves = json_array();
    json_t *last = json_null();
    for (int p = 0; p < ply; p++) {
        int row, col;
        if (ttt_move_at(game, p, NULL, &row, &col) == TTT_OK)
            json_array_append_new(moves, cell_json(row, col));
        if (p == ply - 1) {
            json_decref(last);
            last = cell_json(row, col);
        }
    }

    json_t *legal = json_array();
    size_t cap = (size_t)width * (size_t)height, n = 0;
    int32_t *list = malloc(cap * sizeof *list);
    if (list && ttt_legal_moves(game, list, cap, &n) == TTT_OK)
        for (size_t i = 0; i < n; i++)
            json_array_append_new(legal, cell_json(list[i] / width, list[i] % width));
    free(list);

    json_t *line = json_null();
    int r0, c0, r1, c1;
    if (ttt_winning_line(game, &r0, &c0, &r1, &c1) == TTT_OK) {
        json_decref(line);
        line = json_pack("[o,o]", cell_json(r0, c0), cell_json(r1, c1));
    }

    char names[2][TTT_NAME_MAX + 1];
    for (int s = 0; s < 2; s++) {
        size_t name_len;
        if (ttt_game_get_name(game, s == 0 ? TTT_X : TTT_O, names[s], sizeof names[s],
                              &name_len) != TTT_OK)
            names[s][0] = '\0';
    }
    const char *ending = ending_name(ttt_ending(game));
    char *record = record_of(game);
    json_t *out = json_pack(
        "{s:s, s:i, s:i, s:i, s:b, s:{s:b, s:b, s:i}, s:b, s:i, s:o, s:s, s:o,"
        " s:{s:s, s:s}, s:{s:{s:s, s:s}, s:{s:s, s:s}},"
        " s:o, s:o, s:o, s:o, s:o, s:o}",
        "id", entry->id, "width", width, "height", height, "k", ttt_win_length(game),
        "gravity", gravity, "rules", "misere", misere, "early_draw", early,
        "ply_limit", limit, "rated", entry->rated, "ply", ply,
        "to_move", mark_json(ttt_to_move(game)), "state", state_name(ttt_state(game)),
        "ending", ending ? json_string(ending) : json_null(),
        "names", "x", names[0], "o", names[1],
        "players", "x", "name", names[0], "kind", kind_name(entry->kind[0]),
        "o", "name", names[1], "kind", kind_name(entry->kind[1]),
        "board", board, "moves", moves, "legal", legal, "last_move", last,
        "winning_line", line, "record", record ? json_string(record) : json_null());
    free(record);
    return out;
}
