/* ttt.c - the ttt program: play tic-tac-toe in a terminal, or replay a saved game. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttt.h"

#define EXIT_USAGE 2
/* One input line: a move, a command, or "save" plus a file name. */
#define INPUT_CAP 1024
/* Enough for any cell name up to TTT_MAX_SIZE ("amj1024"). */
#define NAME_CAP 16

/* Who makes the moves for one side. To add a kind: a value here, a row in
 * player_kinds, and a case in computer_move. */
enum player_kind { PLAYER_HUMAN, PLAYER_RANDOM };

static const struct {
    const char *name;
    enum player_kind kind;
} player_kinds[] = {
    {"human", PLAYER_HUMAN},
    {"random", PLAYER_RANDOM},
};

#define PLAYER_KIND_COUNT (sizeof player_kinds / sizeof player_kinds[0])

/* Everything one `ttt play` run needs. */
struct session {
    ttt_game *game;
    enum player_kind player[2]; /* [0] plays X, [1] plays O */
    uint64_t rng;               /* state of the random player's PRNG */
    int interactive;            /* stdin is a terminal: prompt, show the board */
    int board_shown;            /* the board on screen is the current one */
};

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

static char mark_char(int mark)
{
    return mark == TTT_X ? 'X' : mark == TTT_O ? 'O' : '.';
}

static int side_index(int mark)
{
    return mark == TTT_O ? 1 : 0;
}

/* Names (row, col) as "b2"; off-board cells (which cannot be named) as "?". */
static const char *cell_name(int row, int col, char *buf)
{
    size_t len;
    if (ttt_cell_name(row, col, buf, NAME_CAP, &len) != TTT_OK)
        strcpy(buf, "?");
    return buf;
}

static const char *result_text(int state)
{
    switch (state) {
    case TTT_X_WON: return "X won";
    case TTT_O_WON: return "O won";
    case TTT_DRAW: return "draw";
    default: return "unfinished";
    }
}

static const char *player_kind_name(enum player_kind kind)
{
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        if (player_kinds[i].kind == kind)
            return player_kinds[i].name;
    return "?";
}

/* Parses a whole decimal token into [lo, hi]; strtol alone accepts trailing
 * junk and saturates silently, so both are checked here. */
static int parse_long(const char *text, long lo, long hi, long *out)
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
static int parse_u64(const char *text, uint64_t *out)
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
static void print_board(const ttt_game *g)
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
static void print_outcome(const ttt_game *g)
{
    char a[NAME_CAP], b[NAME_CAP];
    int state = ttt_state(g), ply = ttt_ply(g);
    int r0, c0, r1, c1, mover = TTT_EMPTY, misere = 0;

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

/* ------------------------------------------------------------------------ */
/* Computer players                                                          */
/* ------------------------------------------------------------------------ */

/* A uniformly random empty cell. The PRNG is splitmix64 (Steele, Lea and
 * Flood, 2014): a 64-bit counter stepped by the golden-ratio constant, then
 * mixed; any seed, 0 included, is fine. Rejection sampling removes the bias
 * of a plain modulo. To be replaced by the library's own random move. */
static int random_move(const ttt_game *g, uint64_t *state, int *row, int *col)
{
    int n = ttt_size(g);
    uint64_t empty = 0, pick, x;

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int mark = TTT_X;
            ttt_cell(g, r, c, &mark);
            empty += mark == TTT_EMPTY;
        }
    if (empty == 0 || ttt_state(g) != TTT_IN_PROGRESS)
        return TTT_E_GAME_OVER;
    do {
        x = (*state += UINT64_C(0x9E3779B97F4A7C15));
        x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
        x ^= x >> 31;
    } while (x < (0 - empty) % empty); /* (2^64 mod empty) values would bias */
    pick = x % empty;

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int mark = TTT_X;
            ttt_cell(g, r, c, &mark);
            if (mark == TTT_EMPTY && pick-- == 0) {
                *row = r;
                *col = c;
                return TTT_OK;
            }
        }
    return TTT_E_GAME_OVER; /* not reached: empty cells were counted above */
}

/* Asks the computer player of the side to move for its move. */
static int computer_move(struct session *s, enum player_kind kind, int *row,
                         int *col)
{
    switch (kind) {
    case PLAYER_RANDOM: return random_move(s->game, &s->rng, row, col);
    case PLAYER_HUMAN: break;
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
           "  undo        take back the last move; against a computer player, take\n"
           "              back moves until it is your turn again (usually two;\n"
           "              a computer's opening move is never taken back)\n"
           "  redo        replay what undo took back, up to your next turn\n"
           "  save FILE   write the record of the moves played so far to FILE\n"
           "  quit        stop here; the result is \"unfinished\"\n"
           "  help        show this list\n");
}

/* Plays mark at (row, col) and reports it; "what" is how the user named the
 * cell, for the explanation when the move is rejected. */
static int apply_move(struct session *s, int row, int col, const char *what)
{
    char name[NAME_CAP], last[NAME_CAP];
    int mark = ttt_to_move(s->game);
    int status = ttt_play(s->game, mark, row, col, NULL);
    int n = ttt_size(s->game);

    if (status == TTT_OK) {
        printf("%c plays %s\n", mark_char(mark), cell_name(row, col, name));
        s->board_shown = 0;
        return TTT_OK;
    }
    printf("cannot play %s: %s", what, ttt_strerror(status));
    if (status == TTT_E_OCCUPIED) {
        int there = TTT_EMPTY;
        ttt_cell(s->game, row, col, &there);
        printf(" (%c is on %s)", mark_char(there), cell_name(row, col, name));
    } else if (status == TTT_E_OFF_BOARD) {
        printf(" (the %dx%d board runs from a1 to %s; numbers count from 1)", n,
               n, cell_name(n - 1, n - 1, last));
    }
    putchar('\n');
    return status;
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

/* Writes the game record to path. */
static void save_game(struct session *s, const char *path)
{
    size_t len = 0;
    char *text;
    FILE *f;
    int written, err;
    int status = ttt_game_save(s->game, NULL, 0, &len);

    if (status != TTT_OK && status != TTT_E_BUFFER) {
        printf("save: %s\n", ttt_strerror(status));
        return;
    }
    text = malloc(len + 1);
    if (text == NULL) {
        printf("save: %s\n", ttt_strerror(TTT_E_NOMEM));
        return;
    }
    status = ttt_game_save(s->game, text, len + 1, &len);
    if (status != TTT_OK) {
        printf("save: %s\n", ttt_strerror(status));
        free(text);
        return;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        printf("save: cannot write %s: %s\n", path, strerror(errno));
        free(text);
        return;
    }
    written = fwrite(text, 1, len, f) == len;
    err = errno;
    /* Data may sit in the stream's buffer until fclose, so check it too. */
    if (fclose(f) != 0 && written) {
        written = 0;
        err = errno;
    }
    if (written)
        printf("saved %d moves to %s\n", ttt_ply(s->game), path);
    else
        printf("save: cannot write %s: %s\n", path, strerror(err));
    free(text);
}

/* Reads one line of at most INPUT_CAP - 1 bytes into buf, without its line
 * ending. Returns 1 for a line, 0 at end of input, -1 for an overlong line
 * (its rest is read and thrown away) or one holding a NUL byte. */
static int read_line(char *buf)
{
    char *newline;
    size_t n;
    int c;

    /* strlen stops at a NUL byte in the input, so the newline fgets stored
     * is found with memchr in a buffer that held none before. */
    memset(buf, 0, INPUT_CAP);
    if (fgets(buf, INPUT_CAP, stdin) == NULL)
        return 0;
    n = strlen(buf);
    newline = memchr(buf, '\n', INPUT_CAP - 1);
    if (newline != NULL) {
        if ((size_t)(newline - buf) != n - 1)
            return -1; /* a NUL byte came before the newline */
        buf[--n] = '\0';
    } else if (!feof(stdin)) {
        /* The buffer filled up: the line is complete only if its newline
         * (or the end of input) comes next. */
        c = getchar();
        if (c != '\n' && c != EOF) {
            while (c != '\n' && c != EOF)
                c = getchar();
            return -1;
        }
    }
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

/* Handles one typed move: "b2" or "row col" (1-based). */
static void human_move(struct session *s, char *first, char *rest)
{
    int row, col;
    size_t used = 0;

    if (*rest == '\0') {
        size_t len = strlen(first);
        int status = ttt_parse_cell(first, len, &row, &col, &used);
        if (status != TTT_OK || used != len) {
            /* Echo at most 40 bytes: enough to recognise a typo. */
            printf("'%.40s%s' is not a move: %s (moves look like b2 or "
                   "\"2 2\"; type help)\n", first, len > 40 ? "..." : "",
                   ttt_strerror(TTT_E_PARSE));
            return;
        }
        apply_move(s, row, col, first);
    } else {
        char what[INPUT_CAP + 2];
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
        apply_move(s, (int)(r - 1), (int)(c - 1), what);
    }
}

/* Names an empty cell for the prompt's example: the centre while it is
 * free, else the first free cell, so the example is always a legal move. */
static const char *example_cell(const ttt_game *g, char *buf)
{
    int n = ttt_size(g), mark = TTT_X;

    ttt_cell(g, n / 2, n / 2, &mark);
    if (mark == TTT_EMPTY)
        return cell_name(n / 2, n / 2, buf);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            mark = TTT_X;
            ttt_cell(g, r, c, &mark);
            if (mark == TTT_EMPTY)
                return cell_name(r, c, buf);
        }
    return cell_name(0, 0, buf);
}

/* Shows the prompt (on a terminal), reads one line and acts on it. Returns
 * 1 when the game should stop (quit or end of input), else 0. */
static int human_turn(struct session *s)
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
static int computer_turn(struct session *s, enum player_kind kind)
{
    int row = 0, col = 0;
    int status = computer_move(s, kind, &row, &col);
    char name[NAME_CAP];

    if (status == TTT_OK)
        status = apply_move(s, row, col, cell_name(row, col, name));
    else
        printf("%s player failed: %s\n", player_kind_name(kind),
               ttt_strerror(status));
    return status;
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

static void print_usage(FILE *out)
{
    fprintf(out,
            "usage: ttt play [options]   play a game in the terminal\n"
            "       ttt replay FILE      show every position of a saved game\n"
            "       ttt help | --help    show this help\n"
            "       ttt --version        show the library version\n"
            "\n"
            "play options:\n"
            "  --size N      an N x N board (%d..%d; default 3)\n"
            "  --k K         K in a row completes a line (3..N; default N)\n"
            "  --misere      completing a line loses instead of winning\n"
            "  --early-draw  the game is drawn once no line can be completed\n"
            "  --x KIND      who plays X (default human)\n"
            "  --o KIND      who plays O (default human)\n"
            "  --seed S      seed of the random player, 0..2^64-1 (default 1;\n"
            "                the same seed plays the same game)\n"
            "  KIND is one of:",
            TTT_MIN_SIZE, TTT_MAX_SIZE);
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        fprintf(out, " %s", player_kinds[i].name);
    fprintf(out,
            "\n\n"
            "During play, type a move or a command, one per line:\n"
            "  b2 or 2 2     a move: column letter(s) and row number, or row and\n"
            "                column as two numbers; both count from 1 at the\n"
            "                top left (a1 = 1 1)\n"
            "  undo, redo    take back or replay a move; against a computer\n"
            "                player, undo goes back to your previous turn\n"
            "  save FILE     write the moves so far to FILE (for ttt replay)\n"
            "  quit, help\n"
            "\n"
            "When input is not a terminal there are no prompts: one move or\n"
            "command per line, and a rejected line is explained and skipped.\n"
            "The last line printed is always \"result: X won\", \"result: O won\",\n"
            "\"result: draw\" or \"result: unfinished\".\n"
            "\n"
            "Exit status: 0 after a game, finished or not; 2 for bad arguments\n"
            "or a file that cannot be read or loaded.\n");
}

static int usage_error(void)
{
    fprintf(stderr, "Try 'ttt --help'.\n");
    return EXIT_USAGE;
}

/* Matches "--name" or "--name=value" at argv[*i] and yields the value, taken
 * from the next argument in the first form. Returns 1 on a match, 0 if the
 * argument is another option, -1 if the value is missing. */
static int option_value(int argc, char **argv, int *i, const char *name,
                        const char **value)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];

    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "ttt: %s needs a value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

static int parse_player(const char *option, const char *text,
                        enum player_kind *kind)
{
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        if (strcmp(text, player_kinds[i].name) == 0) {
            *kind = player_kinds[i].kind;
            return 0;
        }
    fprintf(stderr, "ttt: %s: unknown player '%s' (choose from:", option, text);
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        fprintf(stderr, " %s", player_kinds[i].name);
    fprintf(stderr, ")\n");
    return -1;
}

static int cmd_play(int argc, char **argv)
{
    struct session s = {NULL, {PLAYER_HUMAN, PLAYER_HUMAN}, 1, 0, 0};
    long size = 3, k = 0; /* k 0: the library's "K = N" */
    int misere = 0, early_draw = 0, status, m;

    for (int i = 0; i < argc; i++) {
        const char *v = ""; /* set by option_value on a match */
        if (strcmp(argv[i], "--misere") == 0) {
            misere = 1;
        } else if (strcmp(argv[i], "--early-draw") == 0) {
            early_draw = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_usage(stdout);
            return 0;
        } else if ((m = option_value(argc, argv, &i, "--size", &v)) != 0) {
            if (m < 0)
                return usage_error();
            /* The range only keeps the value an int; the library judges it. */
            if (parse_long(v, 1, INT_MAX, &size) != 0) {
                fprintf(stderr, "ttt: --size: '%s' is not a board size\n", v);
                return usage_error();
            }
        } else if ((m = option_value(argc, argv, &i, "--k", &v)) != 0) {
            if (m < 0)
                return usage_error();
            if (parse_long(v, 1, INT_MAX, &k) != 0) {
                fprintf(stderr, "ttt: --k: '%s' is not a line length\n", v);
                return usage_error();
            }
        } else if ((m = option_value(argc, argv, &i, "--x", &v)) != 0) {
            if (m < 0 || parse_player("--x", v, &s.player[0]) != 0)
                return usage_error();
        } else if ((m = option_value(argc, argv, &i, "--o", &v)) != 0) {
            if (m < 0 || parse_player("--o", v, &s.player[1]) != 0)
                return usage_error();
        } else if ((m = option_value(argc, argv, &i, "--seed", &v)) != 0) {
            if (m < 0)
                return usage_error();
            if (parse_u64(v, &s.rng) != 0) {
                fprintf(stderr, "ttt: --seed: '%s' is not a number from 0 to "
                        "2^64-1\n", v);
                return usage_error();
            }
        } else {
            fprintf(stderr, "ttt: play: unknown option '%s'\n", argv[i]);
            return usage_error();
        }
    }

    status = ttt_game_new((int)size, (int)k, &s.game);
    if (status != TTT_OK) {
        fprintf(stderr, "ttt: size %ld, k %ld: %s (need %d <= K <= N <= %d)\n",
                size, k ? k : size, ttt_strerror(status), TTT_MIN_SIZE,
                TTT_MAX_SIZE);
        return status == TTT_E_NOMEM ? EXIT_FAILURE : EXIT_USAGE;
    }
    ttt_game_set_rule(s.game, TTT_RULE_MISERE, misere);
    ttt_game_set_rule(s.game, TTT_RULE_EARLY_DRAW, early_draw);
    s.interactive = isatty(STDIN_FILENO);

    if (s.interactive)
        printf("%ldx%ld board, %d in a row%s%s. Type help for the commands.\n",
               size, size, ttt_win_length(s.game),
               misere ? ", misere: completing a line loses" : "",
               early_draw ? ", early draw" : "");

    while (ttt_state(s.game) == TTT_IN_PROGRESS) {
        enum player_kind kind = s.player[side_index(ttt_to_move(s.game))];
        if (kind == PLAYER_HUMAN) {
            if (human_turn(&s))
                break;
        } else if (computer_turn(&s, kind) != TTT_OK) {
            break;
        }
    }

    putchar('\n');
    print_board(s.game);
    print_outcome(s.game);
    printf("result: %s\n", result_text(ttt_state(s.game)));
    ttt_game_free(s.game);
    return 0;
}

/* Reads a whole file into a malloc'd buffer. Returns 0, or -1 with errno. */
static int read_file(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;

    if (f == NULL)
        return -1;
    for (;;) {
        if (n == cap) {
            char *grown = realloc(buf, cap ? cap * 2 : 4096);
            if (grown == NULL) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return -1;
            }
            buf = grown;
            cap = cap ? cap * 2 : 4096;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break; /* end of file or an error, told apart below */
    }
    if (ferror(f)) {
        int saved = errno ? errno : EIO;
        free(buf);
        fclose(f);
        errno = saved;
        return -1;
    }
    fclose(f);
    *text = buf;
    *len = n;
    return 0;
}

static int cmd_replay(int argc, char **argv)
{
    char name[NAME_CAP];
    char *text = NULL;
    size_t len = 0, offset = 0;
    ttt_game *g = NULL;
    int status, plies, misere = 0, early_draw = 0;

    if (argc != 1) {
        fprintf(stderr, "ttt: replay needs exactly one FILE\n");
        return usage_error();
    }
    if (read_file(argv[0], &text, &len) != 0) {
        fprintf(stderr, "ttt: cannot read %s: %s\n", argv[0], strerror(errno));
        return EXIT_USAGE;
    }
    status = ttt_game_load(text, len, NULL, &g, &offset);
    free(text);
    if (status != TTT_OK) {
        fprintf(stderr, "ttt: %s: byte %zu: %s\n", argv[0], offset,
                ttt_strerror(status));
        return EXIT_USAGE;
    }

    ttt_game_get_rule(g, TTT_RULE_MISERE, &misere);
    ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &early_draw);
    plies = ttt_ply(g);
    printf("%dx%d board, %d in a row, rules %s, %d moves\n", ttt_size(g),
           ttt_size(g), ttt_win_length(g),
           misere && early_draw ? "misere+early-draw"
           : misere             ? "misere"
           : early_draw         ? "early-draw"
                                : "classic",
           plies);

    /* Walk back to the start, then forward one move at a time: the loaded
     * game's own undo and redo give every position. */
    while (ttt_undo(g) == TTT_OK)
        ;
    printf("\nply 0: start\n");
    print_board(g);
    for (int p = 1; p <= plies && ttt_redo(g) == TTT_OK; p++) {
        int mark = TTT_EMPTY, row = 0, col = 0;
        ttt_move_at(g, p - 1, &mark, &row, &col);
        printf("\nply %d: %c %s\n", p, mark_char(mark), cell_name(row, col, name));
        print_board(g);
    }
    print_outcome(g);
    printf("result: %s\n", result_text(ttt_state(g)));
    ttt_game_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd == NULL) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("%s\n", ttt_version_string());
        return 0;
    }
    if (strcmp(cmd, "play") == 0)
        return cmd_play(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    fprintf(stderr, "ttt: unknown command '%s'\n", cmd);
    return usage_error();
}
