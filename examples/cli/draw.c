/* draw.c - the ttt program: drawing the board and the small helpers for names and numbers the other files share. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "cli.h"

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

char mark_char(int mark)
{
    return mark == TTT_X ? 'X' : mark == TTT_O ? 'O' : '.';
}

int side_index(int mark)
{
    return mark == TTT_O ? 1 : 0;
}

/* Names (row, col) as "b2"; off-board cells (which cannot be named) as "?". */
const char *cell_name(int row, int col, char *buf)
{
    size_t len;
    if (ttt_cell_name(row, col, buf, NAME_CAP, &len) != TTT_OK)
        strcpy(buf, "?");
    return buf;
}

const char *result_text(int state)
{
    switch (state) {
    case TTT_X_WON: return "X won";
    case TTT_O_WON: return "O won";
    case TTT_DRAW: return "draw";
    default: return "unfinished";
    }
}

const char *value_name(int value)
{
    switch (value) {
    case TTT_VALUE_WIN: return "win";
    case TTT_VALUE_DRAW: return "draw";
    case TTT_VALUE_LOSS: return "loss";
    default: return "unknown";
    }
}

/* A monotonic clock in milliseconds (POSIX clock_gettime needs
 * winpthreads on MinGW: Windows has its own). */
double now_ms(void)
{
#ifdef _WIN32
    LARGE_INTEGER count, frequency;

    if (!QueryPerformanceCounter(&count) ||
        !QueryPerformanceFrequency(&frequency) || frequency.QuadPart == 0)
        return 0.0;
    return (double)count.QuadPart * 1000.0 / (double)frequency.QuadPart;
#else
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
#endif
}

const char *player_kind_name(enum player_kind kind)
{
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        if (player_kinds[i].kind == kind)
            return player_kinds[i].name;
    return "?";
}

/* The length of the UTF-8 character at text (1 to 4), or 0 if the bytes
 * there are not one (a stray or truncated byte, an overlong form, a
 * surrogate, beyond U+10FFFF) or it is a C1 control (U+0080..U+009F), which
 * some terminals obey like an escape sequence. */
static size_t printable_utf8_length(const unsigned char *text)
{
    unsigned char lead = text[0];
    size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    uint32_t code = lead & (0x7Fu >> len);
    static const uint32_t least[5] = {0, 0, 0xA0, 0x800, 0x10000};

    if (lead < 0xC2 || lead > 0xF4)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((text[i] & 0xC0) != 0x80)
            return 0;
        code = code << 6 | (text[i] & 0x3Fu);
    }
    if (code < least[len] || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return len;
}

/* Writes into buf (4 * limit + 4 bytes) the first limit bytes or fewer
 * of text, cut between UTF-8 characters, as they can safely be shown on a
 * terminal: control bytes and bytes that are not UTF-8 as \xNN, a
 * backslash as \\, and "..." after a cut. Returns buf. */
static const char *shown_bytes(const char *text, char *buf, size_t limit)
{
    const size_t cap = 4 * limit + 4;
    const unsigned char *in = (const unsigned char *)text;
    size_t used = 0, n = 0;

    while (in[used] != '\0') {
        size_t len = in[used] < 0x80 ? 1 : printable_utf8_length(in + used);
        size_t step = len ? len : 1;
        if (used + step > limit)
            break;
        if (in[used] == '\\') {
            n += (size_t)snprintf(buf + n, cap - n, "\\\\");
        } else if (len == 0 || in[used] < 0x20 || in[used] == 0x7F) {
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02X",
                                  (unsigned)in[used]);
        } else {
            memcpy(buf + n, in + used, len);
            n += len;
        }
        used += step;
    }
    snprintf(buf + n, cap - n, "%s", in[used] != '\0' ? "..." : "");
    return buf;
}

const char *shown_text(const char *text, char *buf)
{
    return shown_bytes(text, buf, SHOWN_BYTES);
}

const char *shown_path(const char *path, char *buf)
{
    return shown_bytes(path, buf, SHOWN_PATH_BYTES);
}

/* Parses a whole decimal token into [lo, hi]; strtol alone accepts trailing
 * junk and saturates silently, so both are checked here. */
int parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* As parse_long for a uint64_t; strtoull would quietly negate "-1". */
int parse_u64(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (*text < '0' || *text > '9') /* no sign, no leading space */
        return -1;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
#if ULLONG_MAX > UINT64_MAX
    if (v > UINT64_MAX)
        return -1;
#endif
    *out = (uint64_t)v;
    return 0;
}

/* Parses a board size: "N" for N x N, or "WxH" (W columns wide, H rows
 * high; "x" or "X"). The bounds only keep the numbers ints; the library
 * judges sizes further. Returns 0, or -1 for anything else. */
int parse_board_size(const char *text, long *width, long *height)
{
    char part[32];
    const char *x = strpbrk(text, "xX");
    size_t len;

    if (x == NULL) {
        if (parse_long(text, 1, INT_MAX, width) != 0)
            return -1;
        *height = *width;
        return 0;
    }
    len = (size_t)(x - text);
    if (len == 0 || len >= sizeof part)
        return -1;
    memcpy(part, text, len);
    part[len] = '\0';
    if (parse_long(part, 1, INT_MAX, width) != 0 ||
        parse_long(x + 1, 1, INT_MAX, height) != 0)
        return -1;
    return 0;
}

/* Parses a column given by its letters alone ("d", "D", "aa"), as a cell
 * name gives them, into a 0-based column. Returns 0, or -1 if text is not
 * letters only or names no column up to TTT_MAX_SIZE. */
int parse_column(const char *text, int *col)
{
    char cell[NAME_CAP];
    size_t len = strlen(text), used = 0;
    int row = 0;

    if (len == 0 || len > NAME_CAP - 2)
        return -1;
    for (size_t i = 0; i < len; i++)
        if (!((text[i] >= 'a' && text[i] <= 'z') ||
              (text[i] >= 'A' && text[i] <= 'Z')))
            return -1;
    /* The library parses column letters as part of a cell name: borrow row
     * 1, so both agree on every column, "z" and "aa" included. */
    snprintf(cell, sizeof cell, "%s1", text);
    if (ttt_parse_cell(cell, len + 1, &row, col, &used) != TTT_OK ||
        used != len + 1)
        return -1;
    return 0;
}

/* The letters of column col ("d"), or "?" for a column that has none. */
const char *column_name(int col, char *buf)
{
    size_t len = 0;
    if (ttt_cell_name(0, col, buf, NAME_CAP, &len) != TTT_OK || len < 2) {
        strcpy(buf, "?");
        return buf;
    }
    buf[len - 1] = '\0'; /* drop the row number, "1" */
    return buf;
}

int has_gravity(const ttt_game *g)
{
    int gravity = 0;
    return ttt_game_get_rule(g, TTT_RULE_GRAVITY, &gravity) == TTT_OK &&
           gravity != 0;
}

/* The row a mark dropped into column col would land in: the lowest empty
 * cell (the bottom row is height - 1), or -1 for a full column or one off
 * the board. */
int landing_row(const ttt_game *g, int col)
{
    for (int row = ttt_height(g) - 1; row >= 0; row--) {
        int mark = TTT_X;
        if (ttt_cell(g, row, col, &mark) != TTT_OK)
            return -1;
        if (mark == TTT_EMPTY)
            return row;
    }
    return -1;
}

/* The rules of g as a record writes them: "classic", or the rules in use
 * joined by "+". */
const char *rules_text(const ttt_game *g, char *buf, size_t cap)
{
    static const struct {
        int rule;
        const char *name;
    } rules[] = {
        {TTT_RULE_MISERE, "misere"},
        {TTT_RULE_EARLY_DRAW, "early-draw"},
        {TTT_RULE_GRAVITY, "gravity"},
    };
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        int on = 0;
        if (ttt_game_get_rule(g, rules[i].rule, &on) != TTT_OK || !on)
            continue;
        used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                 used ? "+" : "", rules[i].name);
        if (used >= cap)
            return buf; /* cut short; cap is meant to be ample */
    }
    if (used == 0)
        snprintf(buf, cap, "classic");
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Drawing the board                                                         */
/* ------------------------------------------------------------------------ */

/* Whether (row, col) lies on the segment from (r0, c0) to (r1, c1), which is
 * a row, column or diagonal as ttt_winning_line reports it. */
static int on_line(int r0, int c0, int r1, int c1, int row, int col)
{
    int dr = (r1 > r0) - (r1 < r0);
    int dc = (c1 > c0) - (c1 < c0);
    int steps = abs(r1 - r0) > abs(c1 - c0) ? abs(r1 - r0) : abs(c1 - c0);
    int i = dr != 0 ? (row - r0) * dr : (col - c0) * dc;
    return i >= 0 && i <= steps && row == r0 + i * dr && col == c0 + i * dc;
}

/* Prints the column letters, each ending where the marks sit. */
static void print_column_labels(int cols, int width, int row_width)
{
    char name[NAME_CAP];

    printf("%*s ", row_width, "");
    for (int col = 0; col < cols; col++)
        printf("%*s%s", width - 1, column_name(col, name),
               col + 1 < cols ? " " : "");
    putchar('\n');
}

/* Prints the board with column letters across the top and 1-based row
 * numbers down the side; under gravity the letters stand below the board
 * too, where the marks land, since a move there is a column letter. The
 * cells of a completed line are shown in brackets, which reads without
 * colour. Wide boards just get wider columns. */
void print_board(const ttt_game *g)
{
    char name[NAME_CAP];
    int cols = ttt_width(g), rows = ttt_height(g);
    int r0 = -1, c0 = -1, r1 = -1, c1 = -1;
    int have_line = ttt_winning_line(g, &r0, &c0, &r1, &c1) == TTT_OK;
    int letters, width, row_width = 1;

    /* The widest column name is the last one's. */
    letters = (int)strlen(column_name(cols - 1, name));
    width = letters + 1 > 3 ? letters + 1 : 3; /* room for "[X]" */
    for (int v = rows; v >= 10; v /= 10)
        row_width++;

    print_column_labels(cols, width, row_width);
    for (int row = 0; row < rows; row++) {
        printf("%*d ", row_width, row + 1);
        for (int col = 0; col < cols; col++) {
            int mark = TTT_EMPTY;
            int hit = have_line && on_line(r0, c0, r1, c1, row, col);
            ttt_cell(g, row, col, &mark);
            printf("%*s%c%c", width - 3, "", hit ? '[' : ' ', mark_char(mark));
            if (hit)
                putchar(']');
            else if (col + 1 < cols)
                putchar(' ');
        }
        putchar('\n');
    }
    if (has_gravity(g))
        print_column_labels(cols, width, row_width);
}

/* One line saying how a finished game ended, printed above the result. */
void print_outcome(const ttt_game *g)
{
    char a[NAME_CAP], b[NAME_CAP];
    int state = ttt_state(g), ply = ttt_ply(g);
    int r0, c0, r1, c1, mover = TTT_EMPTY, misere = 0;

    switch (ttt_ending(g)) {
    case TTT_END_RESIGN:
        /* The loser resigned: X when O won. */
        printf("%c resigned; %c wins\n", state == TTT_O_WON ? 'X' : 'O',
               state == TTT_O_WON ? 'O' : 'X');
        return;
    case TTT_END_AGREED:
        printf("draw: agreed\n");
        return;
    case TTT_END_PLY_LIMIT:
        printf("draw: the ply limit is reached\n");
        return;
    default:
        break;
    }
    if (state == TTT_DRAW) {
        if (ply < ttt_width(g) * ttt_height(g))
            printf("draw: no line can be completed any more\n");
        else
            printf("draw: the board is full\n");
        return;
    }
    if (ttt_winning_line(g, &r0, &c0, &r1, &c1) != TTT_OK)
        return;
    ttt_move_at(g, ply - 1, &mover, NULL, NULL);
    ttt_game_get_rule(g, TTT_RULE_MISERE, &misere);
    printf("%c completed the line %s-%s%s\n", mark_char(mover),
           cell_name(r0, c0, a), cell_name(r1, c1, b),
           misere ? " and loses (misere)" : " and wins");
}
