/* draw.c - the ttt program: drawing the board and the small helpers for names and numbers the other files share. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const char *player_kind_name(enum player_kind kind)
{
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        if (player_kinds[i].kind == kind)
            return player_kinds[i].name;
    return "?";
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

/* Prints the board with column letters across the top and 1-based row
 * numbers down the side. The cells of a completed line are shown in
 * brackets, which reads without colour. Wide boards just get wider columns. */
void print_board(const ttt_game *g)
{
    char name[NAME_CAP];
    size_t len = 0;
    int n = ttt_size(g);
    int r0 = -1, c0 = -1, r1 = -1, c1 = -1;
    int have_line = ttt_winning_line(g, &r0, &c0, &r1, &c1) == TTT_OK;
    int letters, width, row_width = 1;

    /* The widest column name is the last one's; its row digit is "1". */
    ttt_cell_name(0, n - 1, name, sizeof name, &len);
    letters = (int)len - 1;
    width = letters + 1 > 3 ? letters + 1 : 3; /* room for "[X]" */
    for (int v = n; v >= 10; v /= 10)
        row_width++;

    printf("%*s ", row_width, "");
    for (int col = 0; col < n; col++) {
        ttt_cell_name(0, col, name, sizeof name, &len);
        name[len - 1] = '\0'; /* keep the letters, drop the row digit */
        /* The name ends in the column where the marks sit, width - 2. */
        printf("%*s%s", width - 1, name, col + 1 < n ? " " : "");
    }
    putchar('\n');

    for (int row = 0; row < n; row++) {
        printf("%*d ", row_width, row + 1);
        for (int col = 0; col < n; col++) {
            int mark = TTT_EMPTY;
            int hit = have_line && on_line(r0, c0, r1, c1, row, col);
            ttt_cell(g, row, col, &mark);
            printf("%*s%c%c", width - 3, "", hit ? '[' : ' ', mark_char(mark));
            if (hit)
                putchar(']');
            else if (col + 1 < n)
                putchar(' ');
        }
        putchar('\n');
    }
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
        int n = ttt_size(g);
        if (ply < n * n)
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
