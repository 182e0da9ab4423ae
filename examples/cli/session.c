/* session.c - the ttt program: the interactive session of `ttt play`: turns, human input, undo, redo, save, and the computer players. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"

/* ------------------------------------------------------------------------ */
/* Computer players                                                          */
/* ------------------------------------------------------------------------ */

/* Asks the computer player of the side to move for its move. The seed
 * advances only when a move is found, so a perfect player that runs out of
 * budget hands the same seed to the bot that stands in for it. */
int computer_move(struct engine *e, const ttt_game *g,
                  enum player_kind kind, int *row, int *col)
{
    int side = side_index(ttt_to_move(g));
    int status;

    switch (kind) {
    case PLAYER_RANDOM:
        return ttt_random_move(g, &e->seed, row, col);
    case PLAYER_BOT:
        return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed, row,
                             col);
    case PLAYER_PERFECT:
        if (e->gave_up[side])
            return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed,
                                 row, col);
        status = ttt_best_move(g, TTT_BOT_PERFECT, e->perfect_budget, &e->seed,
                               row, col);
        if (status != TTT_E_BUDGET)
            return status;
        /* Later positions are smaller, but on a board this size the solver
         * would most likely run out again: stop paying for it. */
        e->gave_up[side] = 1;
        fprintf(e->notes,
                "%c: the perfect player cannot solve this board within "
                "%" PRIu64 " nodes (--perfect-budget); the bot plays for it "
                "from here on\n",
                mark_char(ttt_to_move(g)), e->perfect_budget);
        return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed, row,
                             col);
    case PLAYER_HUMAN:
        break;
    }
    return TTT_E_INVALID;
}

/* ------------------------------------------------------------------------ */
/* Playing                                                                   */
/* ------------------------------------------------------------------------ */

static void print_play_help(void)
{
    printf("Type a move or a command, one per line:\n"
           "  b2          column letter(s) then row number; a1 is the top-left cell\n"
           "  2 2         row then column as numbers, both counted from 1\n"
           "  d           under gravity: drop a mark into column d (it lands on\n"
           "              the lowest empty cell; a cell name is taken only there)\n"
           "  undo        take back the last move; against a computer player, take\n"
           "              back moves until it is your turn again (usually two;\n"
           "              a computer's opening move is never taken back)\n"
           "  redo        replay what undo took back, up to your next turn\n"
           "  save FILE   write the record of the moves played so far to FILE\n"
           "  resign      give up: the other side wins\n"
           "  draw        offer a draw: a human opponent answers yes or no\n"
           "              (asked again until it does); a computer accepts only\n"
           "              when its solver proves the position drawn\n"
           "  quit        stop here; the result is \"unfinished\"\n"
           "  help        show this list\n");
}

/* Explains why the move at (row, col), or the drop into col, was refused,
 * after "cannot play <what>: <reason>". */
static void explain_rejection(const ttt_game *g, int status, int drop,
                              int row, int col)
{
    char name[NAME_CAP], last[NAME_CAP];
    int cols = ttt_width(g), rows = ttt_height(g);

    if (status == TTT_E_OCCUPIED) {
        int there = TTT_EMPTY;
        ttt_cell(g, row, col, &there);
        printf(" (%c is on %s)", mark_char(there), cell_name(row, col, name));
    } else if (status == TTT_E_OFF_BOARD && drop) {
        /* A column letter that names no column. */
        printf(" (the columns run from a to %s)", column_name(cols - 1, last));
    } else if (status == TTT_E_OFF_BOARD) {
        printf(" (the %dx%d board runs from a1 to %s; numbers count from 1)",
               cols, rows, cell_name(rows - 1, cols - 1, last));
    } else if (status == TTT_E_FLOATING) {
        printf(" (a mark in column %s lands on %s: type %s or %s)",
               column_name(col, last), cell_name(landing_row(g, col), col, name),
               last, name);
    } else if (status == TTT_E_COLUMN_FULL) {
        printf(" (choose another column)");
    }
    putchar('\n');
}

/* Plays the move the user named "what": the cell (row, col), or with
 * drop set a drop into column col (row unused). Reports it, or why it was
 * refused. */
static int apply_move(struct session *s, int drop, int row, int col,
                      const char *what)
{
    char name[NAME_CAP];
    int mark = ttt_to_move(s->game), landed = -1;
    int status = drop ? ttt_drop(s->game, col, &landed, NULL)
                      : ttt_play(s->game, mark, row, col, NULL);

    if (status == TTT_OK) {
        if (drop)
            row = landed;
        printf("%c plays %s\n", mark_char(mark), cell_name(row, col, name));
        s->board_shown = 0;
        return TTT_OK;
    }
    printf("cannot play %s: %s", what, ttt_strerror(status));
    explain_rejection(s->game, status, drop, row, col);
    return status;
}

/* Plays text, a move for the side to move of g: a cell name, or under
 * gravity a column's letters alone (a drop). *row and *col receive the
 * cell played, or tried (*row is -1 for a drop that failed). Returns the
 * library's status, or TTT_E_PARSE for text that names no move. */
int play_move_text(ttt_game *g, const char *text, int *row, int *col)
{
    size_t len = strlen(text), used = 0;
    int status;

    if (has_gravity(g) && parse_column(text, col) == 0) {
        int landed = -1;
        status = ttt_drop(g, *col, &landed, NULL);
        *row = status == TTT_OK ? landed : -1;
        return status;
    }
    status = ttt_parse_cell(text, len, row, col, &used);
    if (status == TTT_OK && used != len)
        return TTT_E_PARSE; /* "b2x": a name followed by junk */
    if (status != TTT_OK)
        return status;
    return ttt_play(g, ttt_to_move(g), *row, *col, NULL);
}

/* Takes back the last move, and more while that would leave a computer
 * player to move, so a human gets their own turn back. Undoing the move at
 * ply p gives the turn to whoever made it. */
static int undo_to_human(struct session *s)
{
    char name[NAME_CAP];
    int ply = ttt_ply(s->game), count = 0;

    /* Find how far back the nearest human move is before changing anything,
     * so that a refused undo changes nothing. */
    for (int p = ply - 1; p >= 0; p--) {
        int mark = TTT_EMPTY;
        ttt_move_at(s->game, p, &mark, NULL, NULL);
        count++;
        if (s->player[side_index(mark)] == PLAYER_HUMAN)
            break;
        if (p == 0)
            count = 0; /* only computer moves: undoing would hand it back */
    }
    if (count == 0) {
        printf("undo: %s\n", ttt_strerror(TTT_E_NO_UNDO));
        return TTT_E_NO_UNDO;
    }
    while (count-- > 0) {
        int mark = TTT_EMPTY, row = 0, col = 0;
        ttt_move_at(s->game, ttt_ply(s->game) - 1, &mark, &row, &col);
        ttt_undo(s->game);
        printf("took back %c %s\n", mark_char(mark), cell_name(row, col, name));
    }
    s->board_shown = 0;
    return TTT_OK;
}

/* Redoes one move, then more while a computer would be to move, so redo
 * retraces what undo took back. */
static int redo_to_human(struct session *s)
{
    char name[NAME_CAP];
    int status = ttt_redo(s->game);

    if (status != TTT_OK) {
        printf("redo: %s\n", ttt_strerror(status));
        return status;
    }
    for (;;) {
        int mark = TTT_EMPTY, row = 0, col = 0, next;
        ttt_move_at(s->game, ttt_ply(s->game) - 1, &mark, &row, &col);
        printf("replayed %c %s\n", mark_char(mark), cell_name(row, col, name));
        next = ttt_to_move(s->game);
        if (next == TTT_EMPTY || s->player[side_index(next)] == PLAYER_HUMAN ||
            ttt_redo(s->game) != TTT_OK)
            break;
    }
    s->board_shown = 0;
    return TTT_OK;
}

/* Writes the record of g to path. Returns 0; -1 if the library failed, -2
 * if the file could not be written, with *why set to the reason. */
int save_record(const ttt_game *g, const char *path, const char **why)
{
    size_t len = 0;
    char *text;
    FILE *f;
    int written, err;
    int status = ttt_game_save(g, NULL, 0, &len);

    if (status != TTT_OK && status != TTT_E_BUFFER) {
        *why = ttt_strerror(status);
        return -1;
    }
    text = malloc(len + 1);
    if (text == NULL) {
        *why = ttt_strerror(TTT_E_NOMEM);
        return -1;
    }
    status = ttt_game_save(g, text, len + 1, &len);
    if (status != TTT_OK) {
        *why = ttt_strerror(status);
        free(text);
        return -1;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        *why = strerror(errno);
        free(text);
        return -2;
    }
    written = fwrite(text, 1, len, f) == len;
    err = errno;
    /* Data may sit in the stream's buffer until fclose, so check it too. */
    if (fclose(f) != 0 && written) {
        written = 0;
        err = errno;
    }
    free(text);
    if (!written) {
        *why = strerror(err);
        return -2;
    }
    return 0;
}

/* Whether a record can be written to path, tried before a game rather
 * than found out after it: opened for appending (which changes no file),
 * and removed again if that created it. Returns 0, or -1 with *why set. */
int check_writable(const char *path, const char **why)
{
    struct stat st;
    int existed = stat(path, &st) == 0;
    FILE *f = fopen(path, "a");

    if (f == NULL) {
        *why = strerror(errno);
        return -1;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return 0;
}

/* Writes the game record to path, and says how that went. */
static void save_game(struct session *s, const char *path)
{
    const char *why = "";
    char shown[SHOWN_PATH_CAP];
    int saved = save_record(s->game, path, &why);

    shown_path(path, shown);
    if (saved == 0)
        printf("saved %d moves to %s\n", ttt_ply(s->game), shown);
    else if (saved == -1)
        printf("save: %s\n", why);
    else
        printf("save: cannot write %s: %s\n", shown, why);
}

/* Reads one line of at most INPUT_CAP - 1 bytes into buf, without its line
 * ending. Returns 1 for a line, 0 at end of input, -1 for an overlong line
 * or one holding a NUL byte (the whole line is read and thrown away). A
 * byte at a time, so that a NUL byte is seen wherever it is: the string
 * functions would stop at it and take "b2\0zz" for "b2". */
static int read_line(char *buf)
{
    size_t n = 0;
    int c, seen_any = 0, malformed = 0;

    while ((c = getchar()) != EOF && c != '\n') {
        seen_any = 1;
        if (c == '\0' || n == INPUT_CAP - 1)
            malformed = 1;
        else
            buf[n++] = (char)c;
    }
    if (c == EOF && !seen_any)
        return 0;
    buf[n] = '\0';
    if (malformed)
        return -1;
    if (n > 0 && buf[n - 1] == '\r') /* tolerate CRLF input */
        buf[--n] = '\0';
    return 1;
}

/* Splits off the first whitespace-separated word of *text (NUL-terminating
 * it) and advances *text past the following whitespace. */
static char *next_word(char **text)
{
    char *p = *text, *word;
    while (*p == ' ' || *p == '\t')
        p++;
    word = p;
    while (*p != '\0' && *p != ' ' && *p != '\t')
        p++;
    if (*p != '\0')
        *p++ = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    *text = p;
    return word;
}

/* Handles one typed move: "b2" or "row col" (1-based), and under gravity
 * "d", a column. */
static void human_move(struct session *s, char *first, char *rest)
{
    int row, col;
    size_t used = 0;

    if (*rest == '\0' && has_gravity(s->game) && parse_column(first, &col) == 0) {
        apply_move(s, 1, 0, col, first);
        return;
    }
    if (*rest == '\0') {
        size_t len = strlen(first);
        int status = ttt_parse_cell(first, len, &row, &col, &used);
        if (status != TTT_OK || used != len) {
            /* The start of it is enough to recognise a typo. */
            char shown[SHOWN_CAP];
            printf("'%s' is not a move: %s (moves look like b2 or "
                   "\"2 2\"; type help)\n", shown_text(first, shown),
                   ttt_strerror(TTT_E_PARSE));
            return;
        }
        apply_move(s, 0, row, col, first);
    } else {
        /* Room for both words at their longest (a line each), though
         * together they come from one line. */
        char what[2 * INPUT_CAP];
        char *second = next_word(&rest);
        long r, c;
        /* Out-of-range numbers still reach ttt_play, which explains them;
         * the bounds only keep the 0-based values inside int. */
        if (*rest != '\0' || parse_long(first, INT_MIN + 1, INT_MAX, &r) != 0 ||
            parse_long(second, INT_MIN + 1, INT_MAX, &c) != 0) {
            printf("not a move: %s (moves look like b2 or \"2 2\", row then "
                   "column from 1; type help)\n", ttt_strerror(TTT_E_PARSE));
            return;
        }
        snprintf(what, sizeof what, "%s %s", first, second);
        apply_move(s, 0, (int)(r - 1), (int)(c - 1), what);
    }
}

/* Names a legal move for the prompt's example: the centre while it is
 * free, else the first free cell; under gravity the middle column while it
 * has room, else the first that has. */
static const char *example_cell(const ttt_game *g, char *buf)
{
    int cols = ttt_width(g), rows = ttt_height(g), mark = TTT_X;

    if (has_gravity(g)) {
        if (landing_row(g, cols / 2) >= 0)
            return column_name(cols / 2, buf);
        for (int c = 0; c < cols; c++)
            if (landing_row(g, c) >= 0)
                return column_name(c, buf);
        return column_name(0, buf);
    }
    ttt_cell(g, rows / 2, cols / 2, &mark);
    if (mark == TTT_EMPTY)
        return cell_name(rows / 2, cols / 2, buf);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            mark = TTT_X;
            ttt_cell(g, r, c, &mark);
            if (mark == TTT_EMPTY)
                return cell_name(r, c, buf);
        }
    return cell_name(0, 0, buf);
}

/* Whether the computer player that would answer a draw offer in g sees a
 * draw: the solver, within DRAW_SOLVE_BUDGET positions, proves the
 * position drawn. Larger boards, or a budget that runs out: no. */
#define DRAW_SOLVE_EMPTY 16
#define DRAW_SOLVE_BUDGET UINT64_C(200000)
static int computer_sees_draw(const ttt_game *g)
{
    ttt_solution sol;

    if (ttt_width(g) * ttt_height(g) - ttt_ply(g) > DRAW_SOLVE_EMPTY)
        return 0;
    memset(&sol, 0, sizeof sol);
    sol.size = sizeof sol;
    return ttt_solve(g, DRAW_SOLVE_BUDGET, 0, TTT_SOLVE_VALUE_ONLY, &sol, NULL,
                     0, NULL) == TTT_OK &&
           sol.value == TTT_VALUE_DRAW;
}

/* Asks the human of side other to answer a draw offer, until a line says
 * yes or no: anything else (a move, "resign") is explained and the
 * question asked again, so no line is taken for an answer it is not.
 * Returns 1 for yes, 0 for no or the end of input. */
static int ask_draw(const struct session *s, int other)
{
    char line[INPUT_CAP], shown[SHOWN_CAP];

    for (;;) {
        char *rest = line, *answer;
        int got;
        if (s->interactive)
            printf("%c, accept the draw? (yes/no): ", mark_char(other));
        fflush(stdout);
        if ((got = read_line(line)) == 0)
            return 0;
        shown_text(line, shown);
        answer = got > 0 ? next_word(&rest) : line;
        if (got > 0 && *rest == '\0' &&
            (strcmp(answer, "yes") == 0 || strcmp(answer, "y") == 0))
            return 1;
        if (got > 0 && *rest == '\0' &&
            (strcmp(answer, "no") == 0 || strcmp(answer, "n") == 0))
            return 0;
        printf("%c, answer the draw offer with yes or no first ('%s' is "
               "neither)\n", mark_char(other),
               got > 0 ? shown : "an unreadable line");
    }
}

/* The side to move offers a draw. A human opponent is asked (yes or no,
 * asked again until one comes); a computer accepts only a position its
 * solver proves drawn. */
static void offer_draw(struct session *s)
{
    int mark = ttt_to_move(s->game), other = -mark, accepted;

    printf("%c offers a draw\n", mark_char(mark));
    if (s->player[side_index(other)] == PLAYER_HUMAN) {
        accepted = ask_draw(s, other);
    } else {
        accepted = computer_sees_draw(s->game);
    }
    if (accepted && ttt_agree_draw(s->game, NULL) == TTT_OK)
        printf("%c accepts the draw\n", mark_char(other));
    else
        printf("%c declines the draw\n", mark_char(other));
}

/* Shows the prompt (on a terminal), reads one line and acts on it. Returns
 * 1 when the game should stop (quit or end of input), else 0. */
int human_turn(struct session *s)
{
    char line[INPUT_CAP], name[NAME_CAP];
    char *rest = line, *word;
    int got;

    if (s->interactive) {
        if (!s->board_shown) {
            putchar('\n');
            print_board(s->game);
            s->board_shown = 1;
        }
        printf("%c to move (e.g. %s): ", mark_char(ttt_to_move(s->game)),
               example_cell(s->game, name));
    }
    fflush(stdout);
    got = read_line(line);
    if (got == 0) {
        if (s->interactive)
            putchar('\n'); /* end the prompt's line */
        return 1;
    }
    if (got < 0) {
        printf("line ignored: longer than %d bytes or holding a NUL byte\n",
               INPUT_CAP - 1);
        return 0;
    }

    word = next_word(&rest);
    if (*word == '\0')
        return 0; /* blank lines are harmless */
    if (strcmp(word, "quit") == 0 && *rest == '\0')
        return 1;
    if (strcmp(word, "help") == 0 && *rest == '\0')
        print_play_help();
    else if (strcmp(word, "undo") == 0 && *rest == '\0')
        undo_to_human(s);
    else if (strcmp(word, "redo") == 0 && *rest == '\0')
        redo_to_human(s);
    else if (strcmp(word, "resign") == 0 && *rest == '\0') {
        int mark = ttt_to_move(s->game);
        if (ttt_resign(s->game, mark, NULL) == TTT_OK)
            printf("%c resigns\n", mark_char(mark));
    } else if (strcmp(word, "draw") == 0 && *rest == '\0')
        offer_draw(s);
    else if (strcmp(word, "save") == 0) {
        /* The file name is the rest of the line, spaces included. */
        size_t n = strlen(rest);
        while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
            rest[--n] = '\0';
        if (n == 0)
            printf("save: which file? (save FILE)\n");
        else
            save_game(s, rest);
    } else
        human_move(s, word, rest);
    return 0;
}

/* Lets a computer player move. Returns its status; a failure stops the game
 * rather than looping forever. */
int computer_turn(struct session *s, enum player_kind kind)
{
    int row = 0, col = 0;
    int status = computer_move(&s->engine, s->game, kind, &row, &col);
    char name[NAME_CAP];

    if (status == TTT_OK)
        status = apply_move(s, 0, row, col, cell_name(row, col, name));
    else
        printf("%s player failed: %s\n", player_kind_name(kind),
               ttt_strerror(status));
    return status;
}
